"""Issue 29 item 1 (silent overwrite): two writers into one new --out never both succeed;
the one that loses says so in one line and replaces nothing."""

from __future__ import annotations

import json

import aqmlab
import pytest
from aqmlab.errors import ResultsError
from fault_helpers import assert_one_error_line, cli, hidden_entries, scenario_file, spawn, tiny


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
    assert_one_error_line(loser[2], str(out), "appeared")
    assert "wrote" in done[winner][2] and "wrote" not in loser[2]
    code, output = cli("summary", out)
    assert code == 0, output
    assert json.loads((out / "scenario.json").read_text())["seed"] == (1, 2)[winner]
    assert not hidden_entries(tmp_path)
