"""Results of a packet-level run: Arrow tables, a summary, and Parquet persistence.

Tables (pyarrow; `results.to_pandas(name)` / `results.to_polars(name)` convert):
  - `link_trace`: samples of monitored links every trace interval (queue, RED average and
    drop probability, per-interval arrivals/drops/marks/departures, utilisation);
  - `flow_trace`: cwnd, ssthresh, smoothed and last RTT of the traced flows;
  - `flows`: one row per flow (bytes delivered, goodput over the measurement window,
    retransmissions, timeouts, start, end and flow completion time);
  - `links`: one row per link with its totals;
  - `packet_trace` (only with `trace.packets`): one row per enqueue, dequeue, receive, drop
    and mark of the chosen links and flows (`aqmlab.traces`), else None.

`save(dir)` writes the tables as Parquet plus `scenario.json` (the scenario as given and
resolved, the seed), `summary.json` and `run.json` (the sha256 of every file), atomically: a
complete new directory replaces the old one only once everything is written, so a failure
never leaves a half-written result, and a directory another writer created meanwhile is never
replaced. `load(dir)` verifies the checksums: a damaged file is an error that names it.

The tables are built on first access from the engine's columns, so a run whose tables are
never asked for imports neither pyarrow nor NumPy (issue 28's hand-off: `aqmlab.simulate` in
a fresh process).

Results of an interrupted run are partial (`finished` false): every summary says so
(`partial`), and a summary of a window that holds no trace sample (the run stopped before
the measurement window began) raises `EmptyWindowError` instead of returning NaNs; saved,
such a summary is a record with `partial`, the window and the `error`.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aqmlab import _repr
from aqmlab.errors import EmptyWindowError, ResultsError, ScenarioError
from aqmlab.scenario import Scenario

# Writing, checking and summarising import what they need when called (`aqmlab._fsio`,
# `hashlib`, `aqmlab.summary`): `aqmlab.simulate` in a fresh process needs none of them
# (issue 28's hand-off).
if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from aqmlab.summary import Summary

TABLES = ("link_trace", "flow_trace", "flows", "links")
#: The per-packet trace's table, written only when the scenario asks for one.
PACKET_TRACE = "packet_trace"
FORMAT_VERSION = 2

#: Link utilisation is summarised over bins of this length (issue 2: "over 1 s bins").
UTILISATION_BIN_S = 1.0


class _Tables:
    """The four tables of a run: built ones, and for the others the function that builds
    each from the engine's columns on first access (then dropped with the columns)."""

    def __init__(self, built: dict[str, pa.Table], pending: dict[str, Callable[[], pa.Table]]) -> None:
        self._built = dict(built)
        self._pending = dict(pending)

    def get(self, name: str) -> pa.Table:
        table = self._built.get(name)
        if table is None:
            table = self._built[name] = self._pending.pop(name)()
        return table

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Tables):
            return NotImplemented
        return all(self.get(name).equals(other.get(name)) for name in TABLES)

    # Pickled (a Results sent to another process) as the built tables: the engine's columns
    # (`_engine.EngineColumn`) and the functions over them do not pickle.
    def __getstate__(self) -> dict[str, pa.Table]:
        return {name: self.get(name) for name in TABLES}

    def __setstate__(self, built: dict[str, pa.Table]) -> None:
        self._built = built
        self._pending = {}


def _table_property(name: str, doc: str) -> property:
    return property(lambda self: self._tables.get(name), doc=doc)


@dataclass
class Results:
    scenario: Scenario
    seed: int
    counters: dict[str, int]
    #: Simulated time reached, s (the duration unless the run was interrupted).
    end_s: float
    finished: bool
    #: The tables (see the properties below); construct with `from_engine` or `load`.
    _tables: _Tables = field(repr=False)
    wall_time_s: float = math.nan
    metadata: dict[str, Any] = field(default_factory=dict)
    packet_trace: pa.Table | None = None

    link_trace = _table_property("link_trace", "Samples of the monitored links (pyarrow Table).")
    flow_trace = _table_property("flow_trace", "Samples of the traced flows (pyarrow Table).")
    flows = _table_property("flows", "One row per flow (pyarrow Table).")
    links = _table_property("links", "One row per link with its totals (pyarrow Table).")

    # --- construction --------------------------------------------------------------------

    @classmethod
    def from_engine(
        cls, scenario: Scenario, seed: int, raw: dict[str, Any], *, end_s: float, finished: bool, wall_time_s: float
    ) -> Results:
        """Results over the engine's columns (`_engine.Simulation.results()`); each table is
        built when first asked for."""
        pending = {
            "link_trace": lambda: _arrow().table(raw["link_trace"]),
            "flow_trace": lambda: _arrow().table(raw["flow_trace"]),
            "flows": lambda: _flows_table(scenario, raw["flows"], end_s),
            "links": lambda: _links_table(raw["links"]),
        }
        packet_trace = _packet_trace(scenario, raw, pending)
        return cls(
            scenario=scenario,
            seed=seed,
            counters=dict(raw["counters"]),
            end_s=end_s,
            finished=finished,
            _tables=_Tables({}, pending),
            wall_time_s=wall_time_s,
            packet_trace=packet_trace,
        )

    # --- access --------------------------------------------------------------------------

    def table(self, name: str) -> pa.Table:
        """A table by name; `link_trace` with each sample's `link_name` and `link_role` (from
        `links`) beside the numeric `link` id, so a frame can be filtered to one link."""
        if name == PACKET_TRACE:
            if self.packet_trace is None:
                raise KeyError("no packet_trace: the scenario sets no trace.packets (docs/results.md)")
            return self.packet_trace
        if name not in TABLES:
            raise KeyError(f"unknown table {name!r}; tables are {', '.join(TABLES)}")
        table = getattr(self, name)
        if name == "link_trace" and "link_name" not in table.column_names:
            table = _with_link_names(table, self.links)
        return table

    def summaries(self) -> dict[str, Summary]:
        """`summary()` of every traced link that carries data (skips idle ACK directions)."""
        out = {}
        for name in self.traced_links:
            if self.crossing(name).any():
                out[name] = self.summary(name)
        return out

    def to_pandas(self, name: str):
        """A table as a pandas DataFrame (`link_trace` with `link_name` and `link_role`)."""
        return self.table(name).to_pandas()

    def to_polars(self, name: str):
        try:
            import polars as pl
        except ImportError:
            raise ImportError("to_polars needs polars: pip install 'aqmlab[polars]'") from None

        return pl.from_arrow(self.table(name))

    @property
    def traced_links(self) -> list[str]:
        """Names of the traced links: the bottleneck (both directions) of a dumbbell, every
        core link (both directions) of a network or parking lot."""
        return self.scenario.topology.traced_links

    @property
    def main_link(self) -> str:
        """The link summaries and figures use by default: the first traced link."""
        return self.traced_links[0]

    def link_id(self, name: str | None = None) -> int:
        """The id of the traced (monitored) link `name`; edge links never match."""
        arrow = _arrow()
        name = self.main_link if name is None else name
        names = arrow.to_strings(self.links.column("name"))
        monitored = arrow.to_numpy(self.links.column("monitored")).tolist()
        matches = [i for i, (n, m) in enumerate(zip(names, monitored, strict=True)) if n == name and m]
        if name not in self.traced_links or len(matches) != 1:
            raise KeyError(f"no traced link named {name!r}; traced links are {self.traced_links}")
        return int(arrow.to_numpy(self.links.column("link"))[matches[0]])

    def link_samples(self, name: str | None = None) -> dict[str, np.ndarray]:
        """The trace columns of one traced link (default: the main link), as numpy arrays."""
        arrow = _arrow()
        link = self.link_id(name)
        ids = arrow.to_numpy(self.link_trace.column("link"))
        rows = ids == link
        return {column: arrow.to_numpy(self.link_trace.column(column))[rows] for column in self.link_trace.column_names}

    def crossing(self, name: str | None = None) -> np.ndarray:
        """Mask of the flows whose data crosses the traced link `name`."""
        import numpy as np

        arrow = _arrow()
        name = self.main_link if name is None else name
        core_links = arrow.to_strings(self.flows.column("core_links"))
        return np.array([name in links.split(",") for links in core_links], dtype=bool)

    @property
    def measure_start_s(self) -> float:
        return min(self.scenario.measure_start_s, self.end_s)

    @property
    def partial(self) -> bool:
        """The run stopped before its end (interrupted, or stopped by the work limit)."""
        return not self.finished

    # --- summary -------------------------------------------------------------------------

    def summary(self, link: str | None = None) -> Summary:
        """Statistics over the measurement window [measure_start, end] (issue 2 item 6), for
        the traced link `link` (default: the main link) and the flows whose data crosses it:
        a `Summary` (a dict of plain floats with typed attributes and `.units`)."""
        import numpy as np

        from aqmlab.summary import Summary

        arrow = _arrow()
        start, end = self.measure_start_s, self.end_s
        samples = self.link_samples(link)
        link_row = self.link_id(link)
        rate_bps = float(arrow.to_numpy(self.links.column("rate_bps"))[link_row])
        in_window = samples["time_s"] > start + 1e-12
        if not in_window.any():
            raise EmptyWindowError(self._empty_window_reason(link or self.main_link))
        queue = samples["queue_packets"][in_window]
        queue_bytes = samples["queue_bytes"][in_window]
        average = samples["average_queue"][in_window]
        arrivals = samples["arrivals"][in_window].sum()
        drops = samples["drops"][in_window].sum()
        marks = samples["marks"][in_window].sum()
        utilisation = _binned_utilisation(
            samples["time_s"][in_window], samples["departed_bytes"][in_window], start, end, rate_bps
        )
        crossing = self.crossing(link)
        goodput = arrow.to_numpy(self.flows.column("goodput_bps"))[crossing]
        # Jain's index over the flows present during the whole window (long-lived ones).
        present = (arrow.to_numpy(self.flows.column("start_s"))[crossing] <= start) & np.isnan(
            arrow.to_numpy(self.flows.column("end_s"))[crossing]
        )
        fct = arrow.to_numpy(self.flows.column("fct_s"))[crossing]
        window = end - start
        return Summary(
            {
                "partial": self.partial,
                "samples": int(in_window.sum()),
                "window_start_s": start,
                "window_end_s": end,
                "queue_mean_packets": _mean(queue),
                "queue_std_packets": float(np.std(queue)) if queue.size else math.nan,
                "queue_max_packets": float(queue.max()) if queue.size else math.nan,
                "average_queue_mean": _mean(average),
                "queueing_delay_mean_s": _mean(queue_bytes) * 8.0 / rate_bps,
                "sojourn_mean_s": _weighted_mean(samples["sojourn_s"][in_window], samples["departures"][in_window]),
                "loss_percent": 100.0 * drops / arrivals if arrivals else math.nan,
                "mark_percent": 100.0 * marks / arrivals if arrivals else math.nan,
                "utilisation_mean": _mean(utilisation),
                "utilisation_min": float(utilisation.min()) if utilisation.size else math.nan,
                "throughput_bps": float(goodput.sum()),
                "jain_fairness": jain_index(goodput[present]),
                "flows": float(goodput.size),
                "flows_completed": float(np.isfinite(fct).sum()),
                "fct_mean_s": _mean(fct[np.isfinite(fct)]),
                "window_s": window,
            }
        )

    def _repr_html_(self) -> str | None:
        """Jupyter: the summary table with units and a small queue figure (drawn by
        `aqmlab.notebook.results_html`, registered in `aqmlab/__init__.py`)."""
        return _repr.html(self)

    def _empty_window_reason(self, link: str) -> str:
        scenario = self.scenario
        window = f"[{self.measure_start_s:g}, {self.end_s:g}] s"
        if self.partial and self.end_s <= scenario.measure_start_s:
            why = (
                f"the run stopped at t = {self.end_s:g} s of {scenario.duration_s:g} s, before the measurement "
                f"window began at {scenario.measure_start_s:g} s"
            )
        elif self.partial:
            why = f"the run stopped at t = {self.end_s:g} s of {scenario.duration_s:g} s, before the first sample"
        else:
            why = "the window is shorter than one trace interval (trace.interval)"
        return f"{link}: no samples in the measurement window {window}: {why}"

    def summary_records(self) -> dict[str, dict[str, Any]]:
        """`summaries()`, or where the window holds no sample, a record saying so (what
        `summary.json` holds): partial, the window and the error."""
        try:
            return {link: _json_safe(summary) for link, summary in self.summaries().items()}
        except EmptyWindowError:
            records = {}
            for name in self.traced_links:
                if self.crossing(name).any():
                    records[name] = {
                        "partial": self.partial,
                        "samples": 0,
                        "window_start_s": self.measure_start_s,
                        "window_end_s": self.end_s,
                        "error": self._empty_window_reason(name),
                    }
            return records

    # --- persistence ---------------------------------------------------------------------

    def save(
        self,
        directory: str | Path,
        *,
        overwrite: bool = False,
        extra: Callable[[Path], Any] | None = None,
        info: dict[str, Any] | None = None,
    ) -> Path:
        """Write Parquet tables and JSON beside them, all or nothing (see module docstring),
        with `run.json`: `info` and the sha256 of every file (`verify_run` checks them).

        `extra(staging_dir)` may add files (figures) that land together with the data. An
        existing, non-empty `directory` is replaced only with `overwrite`; one that appears
        while the results are written (another writer) is never replaced (`ResultsError`).
        An empty folder or a mount point is written into and keeps its mode.
        """
        from aqmlab._fsio import Staged, TargetAppeared, is_empty_dir, with_path

        target = Path(directory)
        if os.path.lexists(target) and not overwrite:
            if not target.is_dir():
                raise ResultsError(f"{target} exists and is not a directory; pass overwrite=True (CLI: --force)")
            if not is_empty_dir(target):
                raise ResultsError(
                    f"{target} exists and is not empty; pass overwrite=True (CLI: --force) to replace it"
                )
        staged = Staged(target)
        try:
            self._write(staged.path)
            if extra is not None:
                extra(staged.path)
            write_manifest(staged.path, info or {})
            # The swap completes once begun: a Ctrl-C during it is raised right after, so
            # the caller knows the directory holds these results (issue 17).
            staged.publish(overwrite=overwrite, last=(MANIFEST,))
        except TargetAppeared:
            staged.discard()
            raise ResultsError(
                f"{target} appeared while these results were written (another writer?); it was not replaced "
                "and these results were not written"
            ) from None
        except OSError as error:
            staged.discard()
            raise with_path(error, target) from None
        except BaseException:
            staged.discard()
            raise
        return target

    def _write(self, directory: Path) -> None:
        import pyarrow.parquet as pq

        for name in TABLES:
            pq.write_table(getattr(self, name), directory / f"{name}.parquet")
        if self.packet_trace is not None:
            pq.write_table(self.packet_trace, directory / f"{PACKET_TRACE}.parquet")
        meta = {
            "format_version": FORMAT_VERSION,
            "seed": self.seed,
            "end_s": self.end_s,
            "finished": self.finished,
            "wall_time_s": self.wall_time_s,
            "counters": self.counters,
            "scenario": self.scenario.model_dump(mode="json"),
            "resolved": self.scenario.resolved(),
            **self.metadata,
        }
        (directory / "scenario.json").write_text(json.dumps(meta, indent=2, sort_keys=True))
        (directory / "summary.json").write_text(json.dumps(self.summary_records(), indent=2))

    @classmethod
    def load(cls, directory: str | Path, *, verify: bool = True) -> Results:
        """The results saved in `directory`; with `verify`, a damaged file (its checksum in
        `run.json` does not match) is a `ResultsError` naming it."""
        import pyarrow as pa

        if verify:
            problems = verify_run(Path(directory))
            if problems:
                raise ResultsError(f"{directory} is damaged: {'; '.join(problems)}")
        try:
            return cls._load(Path(directory))
        except (OSError, ValueError, KeyError, TypeError, pa.ArrowException) as error:
            if isinstance(error, ResultsError | ScenarioError):
                raise
            raise ResultsError(f"{directory}: unreadable results: {type(error).__name__}: {error}") from None

    @classmethod
    def _load(cls, directory: Path) -> Results:
        import pyarrow.parquet as pq

        meta_path = directory / "scenario.json"
        if not meta_path.is_file():
            raise ResultsError(f"{directory} holds no aqmlab results (no scenario.json)")
        meta = json.loads(meta_path.read_text())
        if meta.get("format_version") != FORMAT_VERSION:
            raise ResultsError(f"{directory}: results format {meta.get('format_version')}, expected {FORMAT_VERSION}")
        tables = {}
        for name in TABLES:
            path = directory / f"{name}.parquet"
            if not path.is_file():
                raise ResultsError(f"{directory}: {path.name} is missing")
            tables[name] = pq.read_table(path)
        packet_trace_path = directory / f"{PACKET_TRACE}.parquet"
        packet_trace = pq.read_table(packet_trace_path) if packet_trace_path.is_file() else None
        known = {"format_version", "seed", "end_s", "finished", "wall_time_s", "counters", "scenario", "resolved"}
        return cls(
            scenario=Scenario.from_dict(meta["scenario"], source=str(meta_path)),
            seed=meta["seed"],
            counters=meta["counters"],
            end_s=meta["end_s"],
            finished=meta["finished"],
            wall_time_s=meta["wall_time_s"] if meta["wall_time_s"] is not None else math.nan,
            metadata={k: v for k, v in meta.items() if k not in known},
            _tables=_Tables(tables, {}),
            packet_trace=packet_trace,
        )


def _packet_trace(scenario: Scenario, raw: dict[str, Any], pending: dict[str, Any]) -> pa.Table | None:
    """The per-packet trace's table (only when the scenario asks for one: it is built at once,
    from the `links` and `flows` tables it needs)."""
    if "packet_trace" not in raw:
        return None
    from aqmlab.traces.table import packet_table

    links, flows = pending.pop("links")(), pending.pop("flows")()
    pending["links"], pending["flows"] = (lambda: links), (lambda: flows)
    return packet_table(raw["packet_trace"], links, flows, scenario.topology.resolved_groups())


def jain_index(values: np.ndarray) -> float:
    """Jain's fairness index (Σx)² / (n Σx²); 1 when all equal, 1/n when one takes all."""
    import numpy as np

    values = np.asarray(values, dtype=float)
    square_sum = float(np.sum(values**2))
    if values.size == 0 or square_sum == 0.0:
        return math.nan
    return float(values.sum() ** 2 / (values.size * square_sum))


def _arrow():
    """`aqmlab._arrow`, imported (with pyarrow and NumPy) when a table is first needed."""
    from aqmlab import _arrow as arrow

    return arrow


def _links_table(links: dict[str, Any]) -> pa.Table:
    import numpy as np

    links = dict(links)
    links["role"] = np.asarray(links["role"], dtype=object)
    links["name"] = np.asarray(links["name"], dtype=object)
    return _arrow().table(links)


def _flows_table(scenario: Scenario, flows: dict[str, Any], end_s: float) -> pa.Table:
    import numpy as np

    columns = dict(flows)
    columns["core_links"] = np.asarray(flows["core_links"], dtype=object)
    groups = scenario.topology.resolved_groups()
    group_index = np.asarray(flows["group"], dtype=np.int64)
    columns["group_name"] = np.array([group["name"] for group in groups], dtype=object)[group_index]
    columns["kind"] = np.array([group["traffic"]["kind"] for group in groups], dtype=object)[group_index]
    columns["direction"] = np.array([group["direction"] for group in groups], dtype=object)[group_index]
    start = scenario.measure_start_s
    window_end = end_s
    window = window_end - start
    delivered = np.asarray(flows["bytes_delivered"]) - np.asarray(flows["bytes_delivered_at_measure_start"])
    # Payload goodput over the measurement window (flows that ended early count until then).
    columns["goodput_bps"] = delivered * 8.0 / window if window > 0 else np.full(delivered.shape, np.nan)
    columns["fct_s"] = np.asarray(flows["end_s"]) - np.asarray(flows["start_s"])
    return _arrow().table(columns)


def _binned_utilisation(
    time_s: np.ndarray, departed_bytes: np.ndarray, start: float, end: float, rate_bps: float
) -> np.ndarray:
    """Utilisation in complete bins of UTILISATION_BIN_S from the window start."""
    import numpy as np

    bins = int(math.floor((end - start) / UTILISATION_BIN_S + 1e-9))
    if bins == 0:
        length = end - start
        return np.array([departed_bytes.sum() * 8.0 / (rate_bps * length)]) if length > 0 else np.array([])
    index = np.floor((time_s - start - 1e-12) / UTILISATION_BIN_S).astype(np.int64)
    keep = (index >= 0) & (index < bins)
    per_bin = np.bincount(index[keep], weights=departed_bytes[keep], minlength=bins)
    return per_bin * 8.0 / (rate_bps * UTILISATION_BIN_S)


def _mean(values: np.ndarray) -> float:
    import numpy as np

    values = values[~np.isnan(values)] if values.size else values
    return float(values.mean()) if values.size else math.nan


def _weighted_mean(values: np.ndarray, weights: np.ndarray) -> float:
    import numpy as np

    keep = np.isfinite(values) & (weights > 0)
    return float(np.average(values[keep], weights=weights[keep])) if keep.any() else math.nan


def _json_safe(summary: dict[str, float]) -> dict[str, float | None]:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in summary.items()}


#: The file of a run directory that lists the sha256 of every other file (and its own).
MANIFEST = "run.json"


def _self_checksum(record: dict[str, Any]) -> str:
    import hashlib

    body = {k: v for k, v in record.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def write_manifest(directory: Path, info: dict[str, Any]) -> None:
    """`directory/run.json`: `info`, the sha256 of every file (`files`) and of itself (`checksum`)."""
    from aqmlab._fsio import sha256

    files = {
        path.relative_to(directory).as_posix(): sha256(path)
        for path in sorted(directory.rglob("*"))
        if path.is_file() and path.name != MANIFEST
    }
    record = {**info, "files": files}
    record["checksum"] = _self_checksum(record)
    (directory / MANIFEST).write_text(json.dumps(record, indent=2, default=str))


def read_manifest(directory: Path) -> dict[str, Any]:
    """`run.json`, checked against its own checksum (`ResultsError` when damaged or missing)."""
    path = directory / MANIFEST
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        raise ResultsError(f"{MANIFEST} is missing") from None
    except (OSError, ValueError) as error:
        raise ResultsError(f"{MANIFEST} is unreadable ({type(error).__name__})") from None
    if not isinstance(record, dict) or ("checksum" in record and record["checksum"] != _self_checksum(record)):
        raise ResultsError(f"{MANIFEST} is damaged (checksum mismatch)")
    return record


def verify_run(directory: Path, *, require: bool = False) -> list[str]:
    """What is wrong with a run directory's files: missing, or not matching the checksums of
    `run.json`. Directories written before checksums existed (a `run.json` without `files`)
    pass, and so does one without `run.json` unless `require`."""
    from aqmlab._fsio import sha256

    if not (directory / MANIFEST).exists() and not require:
        return []
    try:
        record = read_manifest(directory)
    except ResultsError as error:
        return [str(error)]
    problems = []
    for name, digest in record.get("files", {}).items():
        path = directory / name
        try:
            if sha256(path) != digest:
                problems.append(f"{name} is damaged (checksum mismatch)")
        except FileNotFoundError:
            problems.append(f"{name} is missing")
        except OSError as error:
            problems.append(f"{name} is unreadable ({error.strerror})")
    return problems


def _with_link_names(trace: pa.Table, links: pa.Table) -> pa.Table:
    """`trace` with `link_name` and `link_role` inserted after its `link` id column."""
    import numpy as np
    import pyarrow as pa

    arrow = _arrow()
    ids = arrow.to_numpy(links.column("link")).astype(np.int64)
    names = np.asarray(arrow.to_strings(links.column("name")), dtype=object)
    roles = np.asarray(arrow.to_strings(links.column("role")), dtype=object)
    lookup = np.full(int(ids.max()) + 1 if ids.size else 0, -1, dtype=np.int64)
    lookup[ids] = np.arange(ids.size)
    rows = lookup[arrow.to_numpy(trace.column("link")).astype(np.int64)]
    at = trace.column_names.index("link") + 1
    trace = trace.add_column(at, "link_role", pa.array(roles[rows].tolist(), type=pa.string()))
    return trace.add_column(at, "link_name", pa.array(names[rows].tolist(), type=pa.string()))
