"""`run_sweep`: expand a sweep, skip what is done, run the rest, record everything."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from aqmlab._fsio import os_error_message
from aqmlab.errors import AqmlabError
from aqmlab.experiments.executors import ExecutorError, Outcome, Progress, connect_dask, run_dask, run_local
from aqmlab.experiments.store import Study
from aqmlab.experiments.sweep import Run, Sweep


class SweepStopped(AqmlabError):
    """The sweep began and could not go on (a full disk, a lost scheduler): what is done is
    kept, and `--resume` continues it."""


def pending_runs(sweep: Sweep, study: Study, announce: Callable[[str], None] | None = None) -> tuple[list[Run], int]:
    """Runs still to compute (unique by id), and how many are already done. A damaged run
    (a file missing or not matching its checksum) is removed and computed again; a missing
    or damaged summary of a done run is rewritten from the run. Each repair is announced."""
    say = announce or (lambda line: None)
    seen, pending, done = set(), [], 0
    for run in sweep.runs():
        if run.id in seen:
            continue
        seen.add(run.id)
        state = study.run_state(run.id)
        if state == "done":
            done += 1
            summary = study.summary_state(run.id)
            if summary != "ok":
                study.write_summary(run.id)  # killed between the run and its summary, or damaged since
                say(f"rewrote the {summary} summary of run {run.id} (summaries/{run.id}.parquet)")
            continue
        if state != "missing":
            say(f"recomputing run {run.id}: {state}")
            shutil.rmtree(study.run_dir(run.id))
            study.summary_path(run.id).unlink(missing_ok=True)
        elif study.run_dir(run.id).exists():  # a folder without run.json: never published by aqmlab
            shutil.rmtree(study.run_dir(run.id))
        pending.append(run)
    return pending, done


def run_sweep(
    sweep: Sweep,
    out: str | Path,
    *,
    resume: bool = False,
    force: bool = False,
    workers: int | None = None,
    cluster: str | None = None,
    cache: str | Path | None = None,
    progress: Progress | None = None,
    announce: Callable[[str], None] | None = None,
    already: Callable[[int], None] | None = None,
) -> Study:
    """Run `sweep` into the study directory `out`. With `resume`, continue an interrupted
    study: completed runs are never recomputed, damaged ones are, failed ones are retried.
    With `force`, empty `out` first (the folder itself is kept). With `cache`, completed runs
    of another study with the same ids are copied instead of computed. One writer at a time:
    a second one is refused (`ResultsError`). An OS error or a lost scheduler once the study
    has begun is a `SweepStopped` (completed runs are kept; `--resume` continues).
    `already(count)` learns how many runs were done (verified) before this call."""
    study = Study(out)
    # Connect first: an unreachable scheduler fails before the study directory exists.
    connection = connect_dask(cluster, workers=workers) if cluster is not None else None
    try:
        if force and Path(out).is_file():
            Path(out).unlink()
        with study.lock():
            if force:
                study.clear()
            removed = study.remove_stale()
            if removed and announce is not None:
                announce(f"removed {len(removed)} staging folder(s) or temporary file(s) left by a killed writer")
            study.begin(sweep.describe(), resume=resume)
            try:
                pending, done = pending_runs(sweep, study, announce)
                if already is not None:
                    already(done)
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
            except OSError as error:
                raise SweepStopped(os_error_message(error)) from error
            except ExecutorError as error:
                raise SweepStopped(str(error)) from error
    finally:
        if connection is not None:
            connection.close()
    return study
