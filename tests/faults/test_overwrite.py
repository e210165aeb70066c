"""Issue 29 item 1 (silent overwrite): two writers into one new --out never both succeed;
the one that loses says so in one line and replaces nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import aqmlab
import pytest
from aqmlab.errors import ResultsError
from fault_helpers import (
    assert_one_error_line,
    cli,
    hidden_entries,
    scenario_file,
    spawn,
    sweep_file,
    sweep_spec,
    tiny,
    tree_bytes,
)


def test_a_target_that_appears_while_saving_is_not_replaced(tmp_path):
    results = aqmlab.simulate(tiny())
    out = tmp_path / "X"

    def another_writer(staging):
        out.mkdir()
        (out / "theirs.txt").write_text("theirs")

    with pytest.raises(ResultsError, match="appeared while these results were written"):
        results.save(out, extra=another_writer)
    assert (out / "theirs.txt").read_text() == "theirs" and sorted(p.name for p in out.iterdir()) == ["theirs.txt"]
    assert not hidden_entries(tmp_path)  # the staging folder is gone


def test_an_empty_folder_filled_while_saving_is_not_replaced(tmp_path):
    results = aqmlab.simulate(tiny())
    out = tmp_path / "X"
    out.mkdir()

    def another_writer(staging):
        (out / "run.json").write_text("theirs")

    with pytest.raises(ResultsError, match="appeared"):
        results.save(out, extra=another_writer)
    assert sorted(p.name for p in out.iterdir()) == ["run.json"] and (out / "run.json").read_text() == "theirs"


def test_two_concurrent_runs_into_one_new_out(tmp_path):
    # The reproducer: aqmlab run tiny.toml --seed 1 --out X & aqmlab run tiny.toml --seed 2 --out X & wait
    scenario = scenario_file(tmp_path)
    out = tmp_path / "X"
    processes = [spawn("run", scenario, "--seed", seed, "--out", out, "-q") for seed in (1, 2)]
    done = [(p.wait(timeout=120), *p.communicate()) for p in processes]
    codes = sorted(code for code, _, _ in done)
    assert codes == [0, 2], done
    winner = next(i for i, (code, _, _) in enumerate(done) if code == 0)
    loser = done[1 - winner]
    # Usually both start before either publishes ("appeared"); a loser that starts after the
    # winner published is refused up front ("exists"). Never a silent overwrite.
    assert_one_error_line(loser[2], str(out))
    assert "appeared while these results were written" in loser[2] or "exists and is not empty" in loser[2]
    assert "wrote" in done[winner][2] and "wrote" not in loser[2]
    code, output = cli("summary", out)
    assert code == 0, output
    assert json.loads((out / "scenario.json").read_text())["seed"] == (1, 2)[winner]
    assert not hidden_entries(tmp_path)


def test_two_concurrent_resumes_of_one_study(tmp_path):
    # Before: no study lock, and both computed every pending run. Now one waits for nothing:
    # it is refused with one line (or, started after the other ended, finds nothing to do).
    from aqmlab.experiments import Sweep, run_sweep

    spec = sweep_spec((1, 2, 3, 4), "10s")
    clean = tmp_path / "clean"
    run_sweep(Sweep.from_dict(spec), clean, workers=1)
    out = tmp_path / "study"
    shutil.copytree(clean, out)
    for run_dir in sorted((out / "runs").iterdir())[1:]:
        shutil.rmtree(run_dir)
    sweep = sweep_file(tmp_path, (1, 2, 3, 4), "10s")
    processes = [spawn("sweep", sweep, "--out", out, "--resume", "--workers", "1") for _ in range(2)]
    done = [(p.wait(timeout=120), *p.communicate()) for p in processes]
    assert sorted(code for code, _, _ in done) in ([0, 0], [0, 2]), done
    for code, _, stderr in done:
        if code == 2:
            assert_one_error_line(stderr, str(out), "being written by another aqmlab sweep")
    assert tree_bytes(out) == tree_bytes(clean) and not hidden_entries(out)


def test_files_and_their_folder_are_fsynced_before_the_publishing_rename(tmp_path, monkeypatch):
    import aqmlab._fsio as fsio

    events = []
    real_rename = fsio.rename_noreplace
    monkeypatch.setattr(fsio, "fsync_path", lambda path, directory=False: events.append(("fsync", Path(path))))
    monkeypatch.setattr(
        fsio,
        "rename_noreplace",
        lambda source, target: (events.append(("rename", Path(source))), real_rename(source, target)),
    )
    out = tmp_path / "out"
    aqmlab.simulate(tiny()).save(out)
    renamed = [i for i, (kind, _) in enumerate(events) if kind == "rename"]
    assert len(renamed) == 1
    staging = events[renamed[0]][1]
    synced = {path for kind, path in events[: renamed[0]] if kind == "fsync"}
    assert {staging / p.name for p in out.iterdir()} | {staging} <= synced
    assert ("fsync", tmp_path) in events[renamed[0] :]  # the parent, after the rename
