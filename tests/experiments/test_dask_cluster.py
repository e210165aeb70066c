"""A sweep on a real Dask cluster given by address (issue 18 point 1): `dask scheduler` and two
`dask worker` processes on 127.0.0.1, each in its own working directory, and `aqmlab sweep
--cluster tcp://... --out relative/dir` from a third. The results must land under the
directory as the client sees it (before the fix they landed under the workers' directories
while the sweep reported every run done). Every process is bounded in time and killed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

ROOT = Path(__file__).parents[2]
DASK = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")

SWEEP = """
name = "dask-cluster"
base = "{base}"
seeds = [1]
[set]
duration = "2s"
measure_start = "1s"
"topology.groups.0.count" = 4
"trace.flows" = 2
[grid]
"topology.groups.0.rtt" = ["20ms", "80ms"]
"""


def _start(args: list[str], cwd: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        args, cwd=cwd, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True, env=_env()
    )


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["DASK_DISTRIBUTED__WORKER__DAEMON"] = "False"
    return env


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def _wait_for_workers(scheduler_file: Path, count: int, deadline_s: float) -> str:
    from distributed import Client

    end = time.monotonic() + deadline_s
    while not scheduler_file.is_file():
        if time.monotonic() > end:
            raise TimeoutError("the scheduler did not start")
        time.sleep(0.2)
    address = json.loads(scheduler_file.read_text())["address"]
    with Client(address, timeout=max(1.0, end - time.monotonic())) as client:
        client.wait_for_workers(count, timeout=max(1.0, end - time.monotonic()))
    return address


@pytest.mark.skipif(DASK is None, reason="the dask command is not installed")
def test_sweep_on_a_scheduler_and_two_workers_lands_under_the_clients_out(tmp_path):
    client_dir, worker_dirs = tmp_path / "client", [tmp_path / "worker-a", tmp_path / "worker-b"]
    for directory in (client_dir, *worker_dirs):
        directory.mkdir()
    scheduler_file = tmp_path / "scheduler.json"
    (client_dir / "sweep.toml").write_text(SWEEP.format(base=ROOT / "examples" / "seed000-fig6-rtt10.toml"))
    processes = [
        _start(
            [
                DASK,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--dashboard-address",
                "127.0.0.1:0",
                "--scheduler-file",
                str(scheduler_file),
            ],
            tmp_path,
            tmp_path / "scheduler.log",
        )
    ]
    try:
        for index, directory in enumerate(worker_dirs):
            processes.append(
                _start(
                    [
                        DASK,
                        "worker",
                        "--scheduler-file",
                        str(scheduler_file),
                        "--host",
                        "127.0.0.1",
                        "--nworkers",
                        "1",
                        "--nthreads",
                        "1",
                        "--no-dashboard",
                        "--local-directory",
                        str(directory),
                    ],
                    directory,
                    tmp_path / f"worker-{index}.log",
                )
            )
        address = _wait_for_workers(scheduler_file, 2, deadline_s=90)
        assert address.startswith("tcp://127.0.0.1:")
        sweep = subprocess.run(
            [sys.executable, "-m", "aqmlab.cli", "sweep", "sweep.toml", "--cluster", address, "--out", "runs/x"],
            cwd=client_dir,
            capture_output=True,
            text=True,
            timeout=240,
            env=_env(),
        )
        assert sweep.returncode == 0, sweep.stdout + sweep.stderr
        assert "2 of 2 runs done" in sweep.stderr
        assert "rtt [ms]" in sweep.stdout  # the sweep ends by printing its study
        assert f"Dask scheduler {address}" in sweep.stderr  # and its dashboard link when it serves one
        assert "dashboard http://127.0.0.1:" in sweep.stderr
        runs = sorted((client_dir / "runs" / "x" / "runs").iterdir())
        assert len(runs) == 2 and all((run / "run.json").is_file() for run in runs)
        for directory in worker_dirs:
            assert not (directory / "runs").exists(), "a worker wrote under its own working directory"
        study = subprocess.run(
            [sys.executable, "-m", "aqmlab.cli", "study", "runs/x"],
            cwd=client_dir,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert study.returncode == 0, study.stderr
        assert "rtt [ms]" in study.stdout, study.stdout
    finally:
        for process in reversed(processes):
            _stop(process)
