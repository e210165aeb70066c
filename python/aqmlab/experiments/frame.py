"""A study's runs as a data frame for analysis (`Study.to_pandas`, `to_polars`): swept
parameters as typed columns named with their SI unit. Data, not display: `Study` reads it
without importing its display (`aqmlab.experiments.display`, which shares the helpers)."""

from __future__ import annotations

import json
from typing import Any

from aqmlab import units


def short_name(path: str, others: list[str]) -> str:
    """The last part of a dotted path, or the last two where the last is not unique."""
    parts = path.split(".")
    name = parts[-1]
    if sum(other.split(".")[-1] == name for other in others) > 1 and len(parts) > 1:
        name = ".".join(parts[-2:])
    return name


def sort_key(value: Any) -> tuple:
    return (0, value, "") if isinstance(value, int | float) and not isinstance(value, bool) else (1, 0, str(value))


#: SI unit suffix of a swept quantity's column in `study_frame` (time, rate, size).
_SI_SUFFIX = ((units.seconds, "s"), (units.bits_per_second, "bps"), (units.bytes_, "bytes"))

#: Renamed statistics in `study_frame`: the sum of the flows' goodput is goodput.
RENAMED = {"throughput_bps": "goodput_bps"}


def _si_column(values: list[Any]) -> tuple[str, list[Any]]:
    """(unit suffix, SI numbers) when every value is a quantity string of one dimension; ("",
    values) for plain numbers or anything else."""
    if values and all(isinstance(v, str) for v in values):
        for parse, suffix in _SI_SUFFIX:
            try:
                return suffix, [float(parse(v)) for v in values]
            except ValueError:
                continue
    return "", values


def study_frame(table):
    """A study's summary rows for analysis (`Study.to_pandas`, `to_polars`): one typed column per
    swept parameter, named after it with its SI unit (`rtt_s`, `rate_bps`, `max_p`), then seed,
    link and the statistics (`goodput_bps`: the flows' goodput summed), sorted by the parameters,
    seed and link; `run_id` last. An Arrow table."""
    import pyarrow as pa

    if table.num_rows == 0:
        return table
    paths = [c.removeprefix("param.") for c in table.column_names if c.startswith("param.")]
    columns: dict[str, Any] = {}
    for path in paths:
        raw = [json.loads(v) if isinstance(v, str) else v for v in table.column(f"param.{path}").to_pylist()]
        suffix, values = _si_column(raw)
        name = short_name(path, paths).replace(".", "_")
        columns[f"{name}_{suffix}" if suffix else name] = values
    order = sorted(
        range(table.num_rows),
        key=lambda i: (
            *(sort_key(values[i]) for values in columns.values()),
            sort_key(table.column("seed")[i].as_py()),
            sort_key(table.column("link")[i].as_py()),
        ),
    )
    take = pa.array(order, type=pa.int64())
    out = {name: pa.array(values).take(take) for name, values in columns.items()}
    for name in table.column_names:
        if name.startswith("param.") or name == "run_id":
            continue
        out[RENAMED.get(name, name)] = table.column(name).take(take)
    out["run_id"] = table.column("run_id").take(take)
    return pa.table(out)
