"""`run_sweep`: expand a sweep, skip what is done, run the rest, record everything."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from aqmlab.experiments.executors import Outcome, Progress, connect_dask, run_dask, run_local
from aqmlab.experiments.store import Study
from aqmlab.experiments.sweep import Run, Sweep


def pending_runs(sweep: Sweep, study: Study) -> tuple[list[Run], int]:
    """Runs still to compute (unique by id), and how many are already done."""
    seen, pending, done = set(), [], 0
    for run in sweep.runs():
        if run.id in seen:
            continue
        seen.add(run.id)
        if study.is_done(run.id):
            done += 1
            if not (study.directory / "summaries" / f"{run.id}.parquet").is_file():
                study.write_summary(run.id)  # killed between the run and its summary row
        else:
            pending.append(run)
    return pending, done


def run_sweep(
    sweep: Sweep,
    out: str | Path,
    *,
    resume: bool = False,
    workers: int | None = None,
    cluster: str | None = None,
    cache: str | Path | None = None,
    progress: Progress | None = None,
    announce: Callable[[str], None] | None = None,
) -> Study:
    """Run `sweep` into the study directory `out`. With `resume`, continue an interrupted
    study: completed runs are never recomputed; failed ones are retried. With `cache`,
    completed runs of another study with the same ids are copied instead of computed."""
    study = Study(out)
    # Connect first: an unreachable scheduler fails before the study directory exists.
    connection = connect_dask(cluster, workers=workers) if cluster is not None else None
    try:
        study.begin(sweep.describe(), resume=resume)
        pending, _ = pending_runs(sweep, study)
        if cache is not None:
            cached = Study(cache)
            still = []
            for run in pending:
                if study.adopt(run.id, cached):
                    if progress:
                        progress(Outcome(run.id, True))
                else:
                    still.append(run)
            pending = still
        if connection is not None:
            run_dask(pending, study, connection=connection, progress=progress, announce=announce)
        else:
            run_local(pending, study, workers=workers, progress=progress)
    finally:
        if connection is not None:
            connection.close()
    return study
