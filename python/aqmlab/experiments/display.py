"""A study as people read it: swept parameters as numbers with units ("rtt [ms]" 10, 25, ...
rather than the string '"10ms"' under `topology.groups.0.rtt`), rows sorted by parameters,
seed and link, key statistics with units; for `aqmlab study`, the sweep's closing table, the
report's axes and the notebook display."""

from __future__ import annotations

import html
import json
from typing import Any

from aqmlab import display, units

#: Statistics shown per row, in this order.
STUDY_STATISTICS = ("queue_mean_packets", "loss_percent", "utilisation_mean", "throughput_bps", "jain_fairness")

#: Display unit per dimension: (unit label, parser to SI, factor SI -> display), chosen by size.
_TIME_UNITS = (("s", 1.0), ("ms", 1e3), ("us", 1e6))
_RATE_UNITS = (("Gb/s", 1e-9), ("Mb/s", 1e-6), ("kb/s", 1e-3), ("b/s", 1.0))
_SIZE_UNITS = (("MB", 1e-6), ("kB", 1e-3), ("B", 1.0))


def _short_name(path: str, others: list[str]) -> str:
    """The last part of a dotted path, or the last two where the last is not unique."""
    parts = path.split(".")
    name = parts[-1]
    if sum(other.split(".")[-1] == name for other in others) > 1 and len(parts) > 1:
        name = ".".join(parts[-2:])
    return name


def _as_quantity(values: list[Any]) -> tuple[str, list[Any]]:
    """(unit label, numbers) when every value is a quantity string of one dimension."""
    if not values or not all(isinstance(v, str) for v in values):
        return "", values
    for parse, choices in (
        (units.seconds, _TIME_UNITS),
        (units.bits_per_second, _RATE_UNITS),
        (units.bytes_, _SIZE_UNITS),
    ):
        try:
            si = [float(parse(v)) for v in values]
        except ValueError:
            continue
        largest = max(abs(x) for x in si) or 1.0
        for label, factor in choices:
            if largest * factor >= 1.0:
                return label, [x * factor for x in si]
        label, factor = choices[-1]
        return label, [x * factor for x in si]
    return "", values


def parameter_columns(table) -> dict[str, tuple[str, list[Any]]]:
    """param.PATH column -> (header 'rtt [ms]', values as numbers where they are quantities)."""
    paths = [c.removeprefix("param.") for c in table.column_names if c.startswith("param.")]
    columns = {}
    for path in paths:
        raw = [json.loads(v) if isinstance(v, str) else v for v in table.column(f"param.{path}").to_pylist()]
        unit, values = _as_quantity(raw)
        name = _short_name(path, paths)
        columns[f"param.{path}"] = (f"{name} [{unit}]" if unit else name, values)
    return columns


def _sort_key(value: Any) -> tuple:
    return (0, value, "") if isinstance(value, int | float) and not isinstance(value, bool) else (1, 0, str(value))


def study_rows(table) -> tuple[list[str], list[list[str]]]:
    """(headers, formatted rows) of a study's summary table, sorted by parameters, seed, link."""
    if table.num_rows == 0:
        return [], []
    params = parameter_columns(table)
    statistics = [s for s in STUDY_STATISTICS if s in table.column_names]
    records = []
    data = {name: table.column(name).to_pylist() for name in ("seed", "link", *statistics)}
    for index in range(table.num_rows):
        key = tuple(_sort_key(values[index]) for _, values in params.values())
        key += (_sort_key(data["seed"][index]), _sort_key(data["link"][index]))
        cells = [display.number(values[index]) for _, values in params.values()]
        cells += [str(data["seed"][index]), str(data["link"][index])]
        cells += [display.statistic(s, data[s][index]) for s in statistics]
        records.append((key, cells))
    records.sort(key=lambda record: record[0])
    headers = [header for header, _ in params.values()] + ["seed", "link"] + [display.header(s) for s in statistics]
    return headers, [cells for _, cells in records]


def study_html(study: Any) -> str:
    """The study's runs as `aqmlab study` prints them (numeric, sorted, with units)."""
    headers, rows = study_rows(study.table())
    if not rows:
        return f"<p>Study {html.escape(str(study.directory))}: no completed runs</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<p>Study {html.escape(str(study.directory))}: {len(rows)} rows</p><table><tr>{head}</tr>{body}</table>"
