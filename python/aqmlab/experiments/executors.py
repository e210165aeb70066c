"""Run a sweep's pending runs: local processes (all cores by default) or Dask.

Workers write their own results into the study (a shared directory), so a run that
finished is never lost whatever happens to the parent. A failing run is recorded with its
error and scenario and never stops the sweep.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context

from aqmlab.experiments.store import Study
from aqmlab.experiments.sweep import Run


@dataclass
class Outcome:
    run_id: str
    ok: bool
    error: str = ""


def run_one(run: Run, study_dir: str) -> Outcome:
    """Simulate one run and store it (executed in a worker process)."""
    from aqmlab.simulation import simulate

    study = Study(study_dir)
    try:
        results = simulate(run.scenario, seed=run.seed)
        study.record(run, results)
        return Outcome(run.id, True)
    except Exception as error:  # recorded, reported, and the sweep goes on
        study.record_failure(run, error)
        return Outcome(run.id, False, repr(error))


Progress = Callable[[Outcome], None]


def run_local(runs: list[Run], study: Study, *, workers: int | None = None, progress: Progress | None = None) -> None:
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        for run in runs:
            outcome = run_one(run, str(study.directory))
            if progress:
                progress(outcome)
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        pending = {pool.submit(run_one, run, str(study.directory)) for run in runs}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    if progress:
                        progress(future.result())
        except KeyboardInterrupt:
            for future in pending:
                future.cancel()
            raise


def run_dask(
    runs: list[Run], study: Study, *, cluster: str, workers: int | None = None, progress: Progress | None = None
) -> None:
    """`cluster` is a scheduler address (tcp://host:8786) or "local" for a LocalCluster.
    Workers must see the study directory at the same path (a shared filesystem)."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RuntimeError("the Dask executor needs `pip install 'aqmlab[distributed]'` (dask[distributed])") from None
    local = None
    if cluster == "local":
        local = LocalCluster(
            n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(local)
    else:
        client = Client(cluster)
    try:
        futures = client.map(run_one, runs, study_dir=str(study.directory), pure=False)
        for future in as_completed(futures):
            if progress:
                progress(future.result())
    finally:
        client.close()
        if local is not None:
            local.close()
