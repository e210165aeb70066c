"""Run a sweep's pending runs: local processes (all cores by default) or Dask.

Workers write their own results into the study (a shared directory), so a run that
finished is never lost whatever happens to the parent. A failing run is recorded with its
error and scenario and never stops the sweep; a study that cannot be written (a full disk,
a read-only folder) does stop it, with the OSError. Local workers end with their parent:
when it stops (Ctrl-C, SIGTERM, SIGHUP, an error) it stops them, and if it dies they get
SIGTERM from the kernel (PR_SET_PDEATHSIG); a stopped worker removes its staging folder.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
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
    """Simulate one run and store it (executed in a worker process). A failed simulation is
    recorded and reported; an OSError while storing the run is raised (the study cannot be
    written: the sweep stops)."""
    from aqmlab import _signals
    from aqmlab.simulation import simulate

    study = Study(study_dir)
    _signals.busy = True
    try:
        try:
            results = simulate(run.scenario, seed=run.seed, allow_large=run.allow_large)
        except (KeyboardInterrupt, SystemExit):
            raise  # the user (or the pool) stops the sweep: not a failure of this run
        except BaseException as error:  # noqa: B036 - pyo3's PanicException is a BaseException
            # Recorded, reported, and the sweep goes on.
            message = f"{type(error).__name__}: {error}"
            try:
                study.record_failure(run, error)
            except OSError as unrecorded:  # a full disk must not turn a failed run into a crash
                from aqmlab._fsio import os_error_message

                message += f" (not recorded: {os_error_message(unrecorded)})"
            return Outcome(run.id, False, message)
        study.record(run, results)
        return Outcome(run.id, True)
    except KeyboardInterrupt:
        if _in_pool_worker:
            # Stopped by the parent (or Ctrl-C): the staging folder is gone; end quietly.
            _signals.exit_now(_signals.exit_code())
        raise
    finally:
        _signals.busy = False


#: True in a local pool's worker process (set by `_init_worker`).
_in_pool_worker = False


def _init_worker(parent: int) -> None:
    """A local pool worker: SIGTERM/SIGHUP/SIGINT stop it like Ctrl-C, and it gets SIGTERM
    when its parent dies (Linux), so it never outlives the sweep."""
    global _in_pool_worker
    from aqmlab import _signals

    _in_pool_worker = True
    _signals.exit_when_idle = True
    for signum in _signals.STOPPING:
        signal.signal(signum, _signals.as_interrupt)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel what has not started, SIGTERM the workers (each removes its
    staging folder and exits), and SIGKILL any still alive after a few seconds."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + 5.0
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


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
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=get_context("spawn"), initializer=_init_worker, initargs=(os.getpid(),)
    )
    try:
        pending = {pool.submit(run_one, run, str(study.directory)) for run in runs}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                outcome = future.result()
                if progress:
                    progress(outcome)
    except BrokenProcessPool:
        _stop_pool(pool)
        from aqmlab import _signals

        if _signals.last_signal is not None:  # the workers were stopped with the parent
            raise KeyboardInterrupt from None
        raise ExecutorError("a worker process died (killed, or out of memory); completed runs are kept") from None
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


#: How long to wait for a Dask scheduler before giving up, s.
CONNECT_TIMEOUT_S = 5
#: How long to wait for a scheduler's first worker, s (AQMLAB_DASK_WORKER_TIMEOUT overrides).
WORKER_TIMEOUT_S = 60.0


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
        client = Client(cluster, timeout=CONNECT_TIMEOUT_S)
    except Exception as error:  # distributed raises OSError, TimeoutError or ValueError (bad address)
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ExecutorError(
            f"cluster = {cluster!r}: cannot reach the Dask scheduler within {CONNECT_TIMEOUT_S} s ({reason})"
        ) from None
    timeout = float(os.environ.get("AQMLAB_DASK_WORKER_TIMEOUT", WORKER_TIMEOUT_S))
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:  # distributed raises TimeoutError (or an OSError if the scheduler went away)
        client.close()
        raise ExecutorError(
            f"cluster = {cluster!r}: the Dask scheduler has no workers after {timeout:g} s; "
            f"start one (dask worker {cluster}) and try again"
        ) from None
    return DaskConnection(client)


def _reason(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


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
    address = connection.client.scheduler.address
    try:
        futures = connection.client.map(run_one, runs, study_dir=study_dir, pure=False)
        completed = as_completed(futures)
    except Exception as error:  # noqa: BLE001 - a lost scheduler raises from several layers
        raise ExecutorError(f"lost the Dask scheduler {address} ({_reason(error)})") from None
    while True:
        try:
            future = next(completed)
            outcome = future.result()
        except StopIteration:
            break
        except OSError as error:
            if error.filename is not None:
                raise  # a worker could not write the study: the sweep stops (run_one)
            raise ExecutorError(f"lost the Dask scheduler {address} ({_reason(error)})") from None
        except (Exception, asyncio.CancelledError) as error:  # noqa: BLE001 - CancelledError, TimeoutError
            raise ExecutorError(f"lost the Dask scheduler {address} ({_reason(error)})") from None
        if outcome.ok and not study.is_done(outcome.run_id):
            outcome = Outcome(
                outcome.run_id,
                False,
                f"a worker wrote the run under {study_dir}, which this machine does not see: "
                "the study directory must be on a filesystem shared by the client and the workers",
            )
        if progress:
            progress(outcome)
