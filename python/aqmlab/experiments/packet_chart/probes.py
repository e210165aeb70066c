"""Probes of a packet stability chart: one packet run per (point, seed), measured by the
oscillation criterion, stored as it finishes, run here or on a Dask cluster.

    DIR/chart.json          what the chart asks (scenario, axes, seeds, settings)
    DIR/probes/ID.json      one run's measures (`oscillation.RunMeasures`), its point and seed

ID is the sweep run id of the scenario and seed (`aqmlab.experiments.sweep.Run.id`: the hash
of the whole scenario, the seed and the aqmlab version) with the analysis start, so a probe is
never computed twice in one directory and a rerun skips every stored one. The parent writes
each file atomically when the run comes back; workers only simulate and measure, so a Dask
cluster does not need to see the directory. The executors are those of sweeps
(`aqmlab.experiments.executors`: a spawn process pool, or `connect_dask`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from aqmlab.errors import ResultsError
from aqmlab.experiments.store import _write_atomic

__all__ = ["ProbeStore", "ProbeTask", "measure_probe", "run_probes"]


@dataclass(frozen=True)
class ProbeTask:
    """One packet run: `scenario` (axis values set) with `seed`, measured after `analysis_start_s`."""

    point: tuple[float, float]
    seed: int
    scenario: dict[str, Any]
    analysis_start_s: float

    @property
    def id(self) -> str:
        from aqmlab.experiments.sweep import Run

        run_id = Run(self.scenario, self.seed).id
        return hashlib.sha256(f"{run_id}\n{self.analysis_start_s!r}".encode()).hexdigest()[:20]


#: Runs a scenario dict with a seed into `aqmlab.Results`: aqmlab's `simulate` by default, or
#: another simulator read as Results (benchmarks/ns2/referee/searches_run.py: ns-2 2.35).
Simulator = Callable[..., Any]


def measure_probe(
    scenario: dict[str, Any], seed: int, analysis_start_s: float, simulator: Simulator | None = None
) -> dict[str, Any]:
    """Simulate (with `simulator`, default aqmlab's) and measure one probe (runs in a worker)."""
    from aqmlab.analysis.oscillation import measure_run
    from aqmlab.simulation import simulate

    results = (simulator or simulate)(scenario, seed=seed)
    row = measure_run(results, analysis_start_s).row()
    row["wall_time_s"] = results.wall_time_s
    return row


class ProbeStore:
    def __init__(self, directory: str | Path):
        self.directory = Path(directory)

    def begin(self, description: dict[str, Any]) -> None:
        """Record what the chart asks; refuse a directory that holds another chart or anything else."""
        meta = self.directory / "chart.json"
        text = json.dumps(description, indent=1, sort_keys=True, default=str)
        if meta.is_file():
            if json.loads(meta.read_text()) != json.loads(text):
                raise ResultsError(
                    f"{self.directory} holds a different packet chart; use another directory or pass --force "
                    "to replace it"
                )
            return
        if self.directory.exists() and any(p.name != "probes" for p in self.directory.iterdir()):
            raise ResultsError(f"{self.directory} exists and is not a packet-chart directory")
        _write_atomic(meta, text)

    def path(self, probe_id: str) -> Path:
        return self.directory / "probes" / f"{probe_id}.json"

    def get(self, probe_id: str) -> dict[str, Any] | None:
        path = self.path(probe_id)
        return json.loads(path.read_text()) if path.is_file() else None

    def put(self, task: ProbeTask, row: dict[str, Any]) -> dict[str, Any]:
        record = {"x": task.point[0], "y": task.point[1], "seed": task.seed, **row}
        _write_atomic(self.path(task.id), json.dumps(record, indent=1))
        return record

    def rows(self) -> list[dict[str, Any]]:
        folder = self.directory / "probes"
        return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []


Progress = Callable[[ProbeTask, dict[str, Any], bool], None]


def run_probes(
    tasks: list[ProbeTask],
    store: ProbeStore,
    *,
    workers: int = 1,
    client: Any = None,
    progress: Progress | None = None,
    simulator: Simulator | None = None,
) -> dict[str, dict[str, Any]]:
    """Every task's stored record by task id; the missing ones are run first (in-process with
    one worker, a spawn process pool with more, or on the Dask `client`), by `simulator`
    (default aqmlab's; a module-level function, so that it pickles)."""
    records: dict[str, dict[str, Any]] = {}
    pending: dict[str, ProbeTask] = {}
    for task in tasks:
        stored = store.get(task.id)
        if stored is not None:
            records[task.id] = stored
            if progress:
                progress(task, stored, True)
        else:
            pending.setdefault(task.id, task)

    def finish(task: ProbeTask, row: dict[str, Any]) -> None:
        records[task.id] = store.put(task, row)
        if progress:
            progress(task, records[task.id], False)

    jobs = list(pending.values())
    if client is not None and jobs:
        from distributed import as_completed

        futures = {
            client.submit(measure_probe, t.scenario, t.seed, t.analysis_start_s, simulator, pure=False): t for t in jobs
        }
        for future in as_completed(futures):
            finish(futures[future], future.result())
    elif workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=get_context("spawn")) as pool:
            futures = {pool.submit(measure_probe, t.scenario, t.seed, t.analysis_start_s, simulator): t for t in jobs}
            for future in futures:  # in submission order: the store is the same whatever finishes first
                finish(futures[future], future.result())
    else:
        for task in jobs:
            finish(task, measure_probe(task.scenario, task.seed, task.analysis_start_s, simulator))
    return records
