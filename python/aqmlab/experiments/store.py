"""The result store of a study: one directory, resumable, written atomically.

    DIR/study.json              the sweep (base scenario, axes, seeds)
    DIR/runs/ID/                one run: Parquet traces, scenario.json, summary.json, run.json
    DIR/summaries/ID.parquet    the run's summary rows (one per traced link carrying data)
    DIR/failures/ID.json        a failed run: its error and scenario (retried on --resume)

A run counts as done once `runs/ID/run.json` exists; the run directory appears in one
rename, so a killed sweep never leaves a half-written run behind. `summaries/` is a Parquet
dataset: `Study.table()` loads the whole study as one table.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import traceback
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from aqmlab.errors import ResultsError
from aqmlab.experiments.sweep import Run
from aqmlab.results import Results


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", delete=False) as file:
        file.write(text)
    os.replace(file.name, path)


class Study:
    def __init__(self, directory: str | Path):
        self.directory = Path(directory)

    # --- layout ---------------------------------------------------------------------------

    def run_dir(self, run_id: str) -> Path:
        return self.directory / "runs" / run_id

    def is_done(self, run_id: str) -> bool:
        return (self.run_dir(run_id) / "run.json").is_file()

    def done_ids(self) -> set[str]:
        runs = self.directory / "runs"
        return {p.name for p in runs.iterdir() if (p / "run.json").is_file()} if runs.is_dir() else set()

    def failed_ids(self) -> set[str]:
        failures = self.directory / "failures"
        return {p.stem for p in failures.glob("*.json")} if failures.is_dir() else set()

    # --- writing --------------------------------------------------------------------------

    def begin(self, description: dict[str, Any], *, resume: bool) -> None:
        """Record the sweep; refuse to mix a different sweep into an existing study."""
        meta = self.directory / "study.json"
        text = json.dumps(description, indent=2, sort_keys=True, default=str)
        if meta.is_file():
            if not resume:
                raise ResultsError(f"{self.directory} already holds a study; pass --resume to continue it")
            if json.loads(meta.read_text()) != json.loads(text):
                raise ResultsError(f"{self.directory} holds a different sweep; use another directory")
            return
        if self.directory.exists() and any(self.directory.iterdir()):
            raise ResultsError(f"{self.directory} exists and is not a study directory")
        _write_atomic(meta, text)

    def record(self, run: Run, results: Results) -> None:
        """Save a finished run (all or nothing), then its summary rows."""
        info = {
            "id": run.id,
            "seed": run.seed,
            "parameters": run.parameters,
            "wall_time_s": results.wall_time_s,
            "events": results.counters["events"],
        }

        def add_run_info(staging: Path) -> None:
            (staging / "run.json").write_text(json.dumps(info, indent=2, default=str))

        results.save(self.run_dir(run.id), overwrite=True, extra=add_run_info)
        self.write_summary(run.id)
        failure = self.directory / "failures" / f"{run.id}.json"
        failure.unlink(missing_ok=True)

    def write_summary(self, run_id: str) -> None:
        results = Results.load(self.run_dir(run_id))
        info = json.loads((self.run_dir(run_id) / "run.json").read_text())
        rows = []
        for link, summary in results.summaries().items():
            row = {"run_id": run_id, "seed": info["seed"], "link": link}
            row.update({f"param.{key}": json.dumps(value) for key, value in info["parameters"].items()})
            row.update(summary)
            rows.append(row)
        path = self.directory / "summaries" / f"{run_id}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = path.with_name(f".{path.name}.tmp")
        pq.write_table(pa.Table.from_pylist(rows), staging)
        os.replace(staging, path)

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
        """Copy a completed run from another study (a cache) instead of recomputing it."""
        if not cache.is_done(run_id):
            return False
        target = self.run_dir(run_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{run_id}.", dir=target.parent))
        shutil.rmtree(staging)
        shutil.copytree(cache.run_dir(run_id), staging)
        os.replace(staging, target)
        self.write_summary(run_id)
        return True

    # --- reading --------------------------------------------------------------------------

    def table(self) -> pa.Table:
        """Every completed run's summary rows, as one Arrow table."""
        summaries = self.directory / "summaries"
        files = sorted(summaries.glob("*.parquet")) if summaries.is_dir() else []
        if not files:
            return pa.table({})
        return ds.dataset([str(f) for f in files], format="parquet").to_table()

    def to_pandas(self):
        """The runs for analysis: one numeric column per swept parameter with its unit in the
        name (`rtt_s`), sorted by the parameters, `run_id` last (`display.study_frame`)."""
        from aqmlab.experiments.display import study_frame

        return study_frame(self.table()).to_pandas()

    def to_polars(self):
        """`to_pandas`'s table as a polars DataFrame (pip install 'aqmlab[polars]')."""
        import polars as pl

        from aqmlab.experiments.display import study_frame

        return pl.from_arrow(study_frame(self.table()))

    def _repr_html_(self) -> str:
        """Jupyter: the runs as `aqmlab study` shows them."""
        from aqmlab.experiments.display import study_html

        return study_html(self)

    def results(self, run_id: str) -> Results:
        return Results.load(self.run_dir(run_id))
