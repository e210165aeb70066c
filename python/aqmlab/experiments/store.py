"""The result store of a study: one directory, resumable, written atomically.

    DIR/study.json              the sweep (base scenario, axes, seeds)
    DIR/runs/ID/                one run: Parquet traces, scenario.json, summary.json,
                                summary.parquet and run.json (id, parameters, sha256 of every file)
    DIR/summaries/ID.parquet    a copy of the run's summary rows (one per traced link carrying data)
    DIR/failures/ID.json        a failed run: its error and scenario (retried on --resume)

A run counts as done once `runs/ID/run.json` exists and every file matches its checksum; the
run directory appears in one rename, so a killed sweep never leaves a half-written run
behind. `summaries/` is a Parquet dataset: `Study.table()` loads every verified summary as
one table and names the damaged ones (`Study.problems`); `--resume` recomputes damaged runs
and rewrites damaged or missing summaries. Hidden entries (`.NAME`) are staging folders and
temporary files: every reader ignores them, and a locked writer removes stale ones.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import traceback
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from aqmlab import _repr
from aqmlab._fsio import dir_mode, directory_lock, fsync_tree, rename_noreplace, sha256, visible_entries, write_atomic
from aqmlab.errors import ResultsError
from aqmlab.experiments.sweep import Run
from aqmlab.results import MANIFEST, Results, read_manifest, verify_run

#: The copy of its summary rows inside a run directory (its checksum is in run.json).
RUN_SUMMARY = "summary.parquet"


def _write_atomic(path: Path, text: str) -> None:
    write_atomic(path, text)


def summary_table(run_id: str, seed: int, parameters: dict[str, Any], results: Results) -> pa.Table:
    """A run's summary rows: run id, seed, link, parameters (JSON) and the link's statistics."""
    rows = []
    for link, summary in results.summaries().items():
        row = {"run_id": run_id, "seed": seed, "link": link}
        row.update({f"param.{key}": json.dumps(value) for key, value in parameters.items()})
        row.update(summary)
        rows.append(row)
    return pa.Table.from_pylist(rows)


class Study:
    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        #: What `table()` left out, by run id: why (a damaged run, a damaged or missing summary).
        self.problems: dict[str, str] = {}

    # --- layout ---------------------------------------------------------------------------

    def run_dir(self, run_id: str) -> Path:
        return self.directory / "runs" / run_id

    def summary_path(self, run_id: str) -> Path:
        return self.directory / "summaries" / f"{run_id}.parquet"

    def is_done(self, run_id: str) -> bool:
        """`run.json` exists and every file of the run matches its checksum."""
        return self.run_state(run_id) == "done"

    def run_state(self, run_id: str) -> str:
        """'done', 'missing', or 'damaged: WHAT' (a file missing or not matching its checksum)."""
        directory = self.run_dir(run_id)
        if not (directory / MANIFEST).is_file():
            return "missing"
        problems = verify_run(directory, require=True)
        return f"damaged: {'; '.join(problems)}" if problems else "done"

    def summary_state(self, run_id: str) -> str:
        """'ok', 'missing' or 'damaged' (not the copy of the run's summary.parquet)."""
        path = self.summary_path(run_id)
        if not path.is_file():
            return "missing"
        try:
            expected = read_manifest(self.run_dir(run_id)).get("files", {}).get(RUN_SUMMARY)
            if expected is None:  # a study from before checksums: readable is all we can ask
                pq.read_metadata(path)
                return "ok"
            return "ok" if sha256(path) == expected else "damaged"
        except (OSError, ResultsError, pa.ArrowException):
            return "damaged"

    def done_ids(self) -> set[str]:
        """Runs with a `run.json` (not verified: see `is_done`)."""
        runs = self.directory / "runs"
        if not runs.is_dir():
            return set()
        return {p.name for p in visible_entries(runs) if (p / MANIFEST).is_file()}

    def failed_ids(self) -> set[str]:
        failures = self.directory / "failures"
        return {p.stem for p in visible_entries(failures) if p.suffix == ".json"} if failures.is_dir() else set()

    # --- writing --------------------------------------------------------------------------

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the study for writing: a second writer is refused with a message (the lock is
        on the directory itself and dies with its process). Creates the directory."""
        if os.path.lexists(self.directory) and not self.directory.is_dir():
            raise ResultsError(f"{self.directory} is a file, not a study directory")
        self.directory.mkdir(parents=True, exist_ok=True)
        with directory_lock(self.directory) as locked:
            if not locked:
                raise ResultsError(
                    f"{self.directory} is being written by another aqmlab sweep; wait for it to finish or stop it"
                )
            yield

    def clear(self) -> None:
        """Remove everything in the study directory, keeping the directory (its mode, its
        mount): what --force means. Call under `lock()`."""
        for entry in self.directory.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()

    def remove_stale(self) -> list[Path]:
        """Remove hidden staging folders and temporary files a killed writer left behind: any
        hidden entry of runs/, summaries/ and failures/ (aqmlab's own folders), and the
        temporary files of study.json. Call under `lock()`: then no other writer owns them."""
        removed = []
        for folder in (self.directory, *(self.directory / sub for sub in ("runs", "summaries", "failures"))):
            if not folder.is_dir():
                continue
            for entry in folder.iterdir():
                ours = entry.name.startswith(".study.json.") if folder == self.directory else entry.name.startswith(".")
                if ours:
                    if entry.is_dir() and not entry.is_symlink():
                        shutil.rmtree(entry, ignore_errors=True)
                    else:
                        entry.unlink(missing_ok=True)
                    removed.append(entry)
        return removed

    def begin(self, description: dict[str, Any], *, resume: bool) -> None:
        """Record the sweep; refuse to mix a different sweep into an existing study."""
        meta = self.directory / "study.json"
        text = json.dumps(description, indent=2, sort_keys=True, default=str)
        if meta.is_file():
            if not resume:
                raise ResultsError(f"{self.directory} already holds a study; pass --resume to continue it")
            try:
                same = json.loads(meta.read_text()) == json.loads(text)
            except ValueError:
                raise ResultsError(f"{meta} is damaged (not valid JSON); start anew with --force") from None
            if not same:
                raise ResultsError(f"{self.directory} holds a different sweep; use another directory")
            return
        if self.directory.is_dir() and visible_entries(self.directory):
            raise ResultsError(f"{self.directory} exists and is not a study directory (no study.json)")
        _write_atomic(meta, text)

    def record(self, run: Run, results: Results) -> None:
        """Save a finished run (all or nothing, with checksums), then its summary rows."""
        info = {
            "id": run.id,
            "seed": run.seed,
            "parameters": run.parameters,
            "wall_time_s": results.wall_time_s,
            "events": results.counters["events"],
        }
        table = summary_table(run.id, run.seed, run.parameters, results)

        def add_summary(staging: Path) -> None:
            pq.write_table(table, staging / RUN_SUMMARY)

        self.run_dir(run.id).parent.mkdir(parents=True, exist_ok=True)
        results.save(self.run_dir(run.id), overwrite=True, extra=add_summary, info=info)
        self.write_summary(run.id)
        failure = self.directory / "failures" / f"{run.id}.json"
        failure.unlink(missing_ok=True)

    def write_summary(self, run_id: str) -> None:
        """`summaries/ID.parquet` from the run: a copy of its summary.parquet (computed from the
        run's tables for a run from before checksums)."""
        directory = self.run_dir(run_id)
        path = self.summary_path(run_id)
        if (directory / RUN_SUMMARY).is_file():
            write_atomic(path, (directory / RUN_SUMMARY).read_bytes())
            return
        results = Results.load(directory)
        info = json.loads((directory / MANIFEST).read_text())
        sink = pa.BufferOutputStream()
        pq.write_table(summary_table(run_id, info["seed"], info["parameters"], results), sink)
        write_atomic(path, sink.getvalue().to_pybytes())

    def record_failure(self, run: Run, error: BaseException) -> None:
        failure = {
            "id": run.id,
            "seed": run.seed,
            "parameters": run.parameters,
            "error": repr(error),
            "traceback": "".join(traceback.format_exception(error)),
            "scenario": run.scenario,
        }
        _write_atomic(self.directory / "failures" / f"{run.id}.json", json.dumps(failure, indent=2, default=str))

    def adopt(self, run_id: str, cache: Study) -> bool:
        """Copy a completed, verified run from another study (a cache) instead of recomputing it."""
        if not cache.is_done(run_id):
            return False
        target = self.run_dir(run_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{run_id}.", dir=target.parent))
        try:
            os.chmod(staging, dir_mode())
            for entry in cache.run_dir(run_id).iterdir():
                shutil.copy2(entry, staging / entry.name)
            fsync_tree(staging)
            if os.path.lexists(target):
                shutil.rmtree(target)
            rename_noreplace(staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        self.write_summary(run_id)
        return True

    # --- reading --------------------------------------------------------------------------

    def table(self) -> pa.Table:
        """Every verified run's summary rows, as one Arrow table. A damaged run, or a damaged
        or missing summary, is left out and named in `self.problems` (run id -> why)."""
        self.problems = {}
        files = []
        runs = self.directory / "runs"
        ids = sorted(p.name for p in visible_entries(runs)) if runs.is_dir() else []
        # sha256 releases the GIL: verify the runs on every core.
        with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
            states = dict(zip(ids, pool.map(self.run_state, ids), strict=True))
        for run_id in ids:
            state = states[run_id]
            if state == "missing":
                continue  # a failed run, or a folder left by a killed writer
            if state != "done":
                self.problems[run_id] = f"run {state.removeprefix('damaged: ')}"
                continue
            summary = self.summary_state(run_id)
            if summary != "ok":
                self.problems[run_id] = f"its summary (summaries/{run_id}.parquet) is {summary}"
                continue
            files.append(self.summary_path(run_id))
        if not files:
            return pa.table({})
        return ds.dataset([str(f) for f in files], format="parquet").to_table()

    def describe_problems(self) -> str:
        """One line naming what `table()` left out."""
        items = sorted(self.problems.items())
        shown = "; ".join(f"{run_id}: {why}" for run_id, why in items[:5])
        more = f"; and {len(items) - 5} more" if len(items) > 5 else ""
        return f"{len(items)} damaged run(s) left out ({shown}{more}); recompute them with aqmlab sweep ... --resume"

    def to_pandas(self):
        """The runs for analysis: one numeric column per swept parameter with its unit in the
        name (`rtt_s`), sorted by the parameters, `run_id` last (`display.study_frame`)."""
        from aqmlab.experiments.frame import study_frame

        return study_frame(self.table()).to_pandas()

    def to_polars(self):
        """`to_pandas`'s table as a polars DataFrame (pip install 'aqmlab[polars]')."""
        import polars as pl

        from aqmlab.experiments.frame import study_frame

        return pl.from_arrow(study_frame(self.table()))

    def _repr_html_(self) -> str:
        """Jupyter: the runs as `aqmlab study` shows them."""
        return _repr.html(self)

    def results(self, run_id: str) -> Results:
        return Results.load(self.run_dir(run_id))
