"""Issue 29 item 4 (signals other than Ctrl-C): SIGTERM and SIGHUP stop `aqmlab run` and
`aqmlab sweep` like Ctrl-C, at seeded random instants and at chosen ones: partial results
marked partial, nothing half-written, no staging folder left, exit 128 + the signal; a
sweep's workers end with their parent (even after SIGKILL); `--resume` finishes the study
byte-identical to a clean sweep."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import time
from pathlib import Path

import aqmlab
import pytest
from aqmlab.experiments import Study, Sweep, run_sweep
from fault_helpers import (
    assert_one_error_line,
    cli,
    hidden_entries,
    scenario_file,
    spawn,
    sweep_file,
    sweep_spec,
    tree_bytes,
)

SWEEP_SEEDS = (1, 2, 3, 4)
SWEEP_DURATION = "300s"  # busy: about 0.6 s of engine time per run (fault_helpers.scenario_file)


def children(pid: int) -> set[int]:
    """Every descendant of `pid` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(condition, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def engine_loaded(pid: int) -> bool:
    try:
        return "_engine" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def check_run_outcome(out: Path, code: int, stderr: str, signum: int) -> None:
    """What `aqmlab run` left after `signum`: complete results said complete (exit 0), or
    partial ones said partial, or nothing (exit 128 + signal, or killed before Python ran)."""
    assert "Traceback" not in stderr and "panicked" not in stderr, stderr
    assert not hidden_entries(out.parent), hidden_entries(out.parent)  # no staging folder left
    if code == 0:
        assert json.loads((out / "scenario.json").read_text())["finished"], stderr
        assert cli("summary", out)[0] == 0
        return
    assert code in (128 + signum, -signum), (code, stderr)
    if out.exists():
        meta = json.loads((out / "scenario.json").read_text())
        summary = json.loads((out / "summary.json").read_text())
        assert not meta["finished"] and all(record["partial"] for record in summary.values()), stderr
        assert "PARTIAL" in stderr
        assert cli("summary", out)[0] == 1  # verified, and partial
    elif code > 0:
        assert_one_error_line(stderr, signal.Signals(signum).name)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_the_simulation_writes_partial_results(tmp_path, signum):
    scenario = scenario_file(tmp_path, "3000s", busy=True)  # about 6 s: the signal lands mid-run
    out = tmp_path / "out"
    process = spawn("run", scenario, "-q", "--out", out)
    assert wait_until(lambda: engine_loaded(process.pid) or process.poll() is not None)
    time.sleep(0.3)
    process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, stderr  # handled, not ignored, not a plain death
    assert f"stopped by {signal.Signals(signum).name}" in stderr, stderr
    check_run_outcome(out, process.returncode, stderr, signum)


def check_random_instants(tmp_path: Path, count: int, seed: int) -> None:
    scenario = scenario_file(tmp_path, "300s", busy=True)
    clean = tmp_path / "clean"
    aqmlab.simulate(scenario).save(clean)
    rng = random.Random(seed)
    for i in range(count):
        signum = (signal.SIGTERM, signal.SIGHUP)[i % 2]
        out = tmp_path / "runs" / f"out{i}"
        out.parent.mkdir(exist_ok=True)
        process = spawn("run", scenario, "-q", "--out", out)
        try:
            process.wait(timeout=rng.uniform(0.0, 3.0))
        except Exception:  # still running: the signal lands
            process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=60)
        check_run_outcome(out, process.returncode, stderr, signum)
        # Recovery by retry.
        if process.returncode != 0:
            code, output = cli("run", scenario, "-q", "--out", out, "--force")
            assert code == 0 and json.loads((out / "scenario.json").read_text())["finished"], output
            assert tree_bytes(out) == tree_bytes(clean)


def test_signals_at_random_instants_of_run(tmp_path):
    check_random_instants(tmp_path, 2, seed=29)


@pytest.mark.slow
def test_signals_at_random_instants_of_run_many(tmp_path):
    check_random_instants(tmp_path, 20, seed=2929)


@pytest.fixture(scope="module")
def clean_study(tmp_path_factory):
    out = tmp_path_factory.mktemp("clean") / "study"
    run_sweep(Sweep.from_dict(sweep_spec(SWEEP_SEEDS, SWEEP_DURATION, busy=True)), out, workers=1)
    return out


def stop_sweep(tmp_path: Path, signum: int, *, delay: float | None = None):
    """Start `aqmlab sweep` (2 workers) into 'my study' (a path to quote), send `signum` to the
    parent alone after `delay` s, or by default once a worker simulates (has loaded the
    engine); check that its workers end with it. (exit code, stderr, out, sweep file)."""
    sweep = sweep_file(tmp_path, SWEEP_SEEDS, SWEEP_DURATION, busy=True)
    out = tmp_path / "my study"
    process = spawn("sweep", sweep, "--out", out, "--workers", "2")
    if delay is None:
        assert wait_until(
            lambda: process.poll() is not None or any(engine_loaded(pid) for pid in children(process.pid))
        )
        time.sleep(0.2)
    else:
        time.sleep(delay)
    workers = children(process.pid)
    if process.poll() is None:
        process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=60)
    assert wait_until(lambda: not any(alive(pid) for pid in workers), timeout=15), "workers outlived the sweep"
    return process.returncode, stderr, out, sweep


def resume_and_compare(out: Path, sweep: Path, clean: Path) -> None:
    code, output = cli("sweep", sweep, "--out", out, "--resume", "--workers", "1")
    assert code == 0 and f"{len(SWEEP_SEEDS)} of {len(SWEEP_SEEDS)} runs done" in output, output
    assert tree_bytes(out) == tree_bytes(clean)
    assert not hidden_entries(out)


def test_sigterm_to_a_sweep_stops_its_workers_and_resume_completes(tmp_path, clean_study):
    code, stderr, out, sweep = stop_sweep(tmp_path, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM, stderr
    assert_one_error_line(stderr, "stopped by SIGTERM", f"aqmlab sweep {sweep} --out '{out}' --resume")
    assert not hidden_entries(out / "runs")  # the stopped workers removed their staging folders
    resume_and_compare(out, sweep, clean_study)


def test_sighup_at_a_random_instant_of_a_sweep(tmp_path, clean_study):
    delay = random.Random(2929).uniform(0.5, 4.0)
    code, stderr, out, sweep = stop_sweep(tmp_path, signal.SIGHUP, delay=delay)
    assert code in (0, 128 + signal.SIGHUP, -signal.SIGHUP), stderr
    assert "Traceback" not in stderr, stderr
    if out.exists():
        resume_and_compare(out, sweep, clean_study)


def test_workers_end_when_the_sweep_is_killed(tmp_path, clean_study):
    code, stderr, out, sweep = stop_sweep(tmp_path, signal.SIGKILL)
    assert code == -signal.SIGKILL
    # The next writer removes what the killed one left, and finishes the study.
    resume_and_compare(out, sweep, clean_study)
    shutil.rmtree(out)


def test_resume_removes_stale_staging_folders_and_readers_ignore_them(tmp_path, clean_study):
    out = tmp_path / "study"
    shutil.copytree(clean_study, out)
    run_id = sorted(p.name for p in (out / "runs").iterdir())[0]
    # What a killed writer leaves: a staging copy of a run, a temporary summary and study.json.
    shutil.copytree(out / "runs" / run_id, out / "runs" / f".{run_id}.x1y2")
    shutil.copy(out / "summaries" / f"{run_id}.parquet", out / "summaries" / f".{run_id}.parquet")
    (out / ".study.json.abcd.tmp").write_text("{")
    code, output = cli("study", out)
    assert code == 0 and f"{len(SWEEP_SEEDS)} rows" in output, output
    assert len(Study(out).done_ids()) == len(SWEEP_SEEDS) and Study(out).table().num_rows == len(SWEEP_SEEDS)
    code, output = cli("sweep", sweep_file(tmp_path, SWEEP_SEEDS, SWEEP_DURATION, busy=True), "--out", out, "--resume")
    assert code == 0 and "removed 3 staging folder(s)" in output, output
    assert not hidden_entries(out)
    assert os.listdir(out / "runs") and tree_bytes(out) == tree_bytes(clean_study)


def test_a_signal_held_during_publishing_into_a_folder_keeps_the_results(tmp_path, monkeypatch):
    # A signal that arrives while the results are moved into a pre-created folder is raised
    # right after: the folder holds the complete results, and `run` says so (exit 0).
    import aqmlab._fsio as fsio

    real = fsio.Staged.publish

    def publish_then_interrupt(self, **kwargs):
        real(self, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(fsio.Staged, "publish", publish_then_interrupt)
    out = tmp_path / "out"
    out.mkdir()
    code, output = cli("run", scenario_file(tmp_path), "-q", "--out", out)
    assert code == 0 and "wrote" in output and "nothing written" not in output, output
    assert cli("summary", out)[0] == 0
