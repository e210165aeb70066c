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
from typing import Any

from aqmlab.errors import AqmlabError
from aqmlab.experiments.store import Study
from aqmlab.experiments.sweep import Run


class ExecutorError(AqmlabError):
    """The executor could not start (an unreachable scheduler, a missing package)."""


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
        results = simulate(run.scenario, seed=run.seed, allow_large=run.allow_large)
        study.record(run, results)
        return Outcome(run.id, True)
    except (KeyboardInterrupt, SystemExit):
        raise  # the user (or the pool) stops the sweep: not a failure of this run
    except BaseException as error:  # noqa: B036 - pyo3's PanicException is a BaseException
        # Recorded, reported, and the sweep goes on.
        study.record_failure(run, error)
        return Outcome(run.id, False, f"{type(error).__name__}: {error}")


Progress = Callable[[Outcome], None]


def _describe(client, local: bool) -> str:
    """'Dask scheduler ADDRESS, dashboard URL' (the dashboard when the scheduler serves one)."""
    line = f"Dask {'local cluster' if local else 'scheduler'} {client.scheduler.address}"
    try:
        services = client.scheduler_info().get("services", {})
        return line + (f", dashboard {client.dashboard_link}" if "dashboard" in services else "")
    except Exception:  # the dashboard is a convenience: never fail a sweep over it
        return line


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


#: How long to wait for a Dask scheduler before giving up, s.
CONNECT_TIMEOUT_S = 5


@dataclass
class DaskConnection:
    client: Any
    local: Any = None

    def close(self) -> None:
        self.client.close()
        if self.local is not None:
            self.local.close()


def connect_dask(cluster: str, *, workers: int | None = None) -> DaskConnection:
    """Connect to the scheduler at `cluster` (tcp://host:8786), or start a LocalCluster for
    "local"; an unreachable scheduler is an `ExecutorError` within CONNECT_TIMEOUT_S."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ExecutorError("the Dask executor needs `pip install 'aqmlab[distributed]'` (dask[distributed])") from None
    if cluster == "local":
        local = LocalCluster(
            n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=None
        )
        return DaskConnection(Client(local), local)
    try:
        return DaskConnection(Client(cluster, timeout=CONNECT_TIMEOUT_S))
    except Exception as error:  # distributed raises OSError, TimeoutError or ValueError (bad address)
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ExecutorError(
            f"cluster = {cluster!r}: cannot reach the Dask scheduler within {CONNECT_TIMEOUT_S} s ({reason})"
        ) from None


def run_dask(
    runs: list[Run],
    study: Study,
    *,
    connection: DaskConnection,
    progress: Progress | None = None,
    announce: Callable[[str], None] | None = None,
) -> None:
    """Run on a Dask cluster (see `connect_dask`).

    Workers run in their own working directories, so they are handed the study directory as
    an absolute path, and must see it at that path (one machine, or a shared filesystem): a
    run a worker reports done but this process cannot see is reported as failed, never
    counted. `announce` receives one line naming the scheduler and its dashboard."""
    from distributed import as_completed

    if announce is not None:
        announce(_describe(connection.client, connection.local is not None))
    study_dir = str(study.directory.resolve())
    futures = connection.client.map(run_one, runs, study_dir=study_dir, pure=False)
    for future in as_completed(futures):
        outcome = future.result()
        if outcome.ok and not study.is_done(outcome.run_id):
            outcome = Outcome(
                outcome.run_id,
                False,
                f"a worker wrote the run under {study_dir}, which this machine does not see: "
                "the study directory must be on a filesystem shared by the client and the workers",
            )
        if progress:
            progress(outcome)
