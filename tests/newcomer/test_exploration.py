"""Analysis commands do not block exploration (issue 30 item 2): `stability`, `fluid` and
`bifurcation` print their analysis and write nothing unless `--out` is given, so trying one
value after another is never refused because an earlier folder exists."""

from __future__ import annotations

import os

import pytest
from aqmlab.cli import app
from typer.testing import CliRunner

runner = CliRunner()

COMMANDS = {
    "stability": [
        ["stability", "ctcp-threshold", "--set", "q_th=39"],
        ["stability", "ctcp-threshold", "--set", "q_th=38"],
    ],
    "fluid": [
        ["fluid", "ctcp-threshold", "--set", "q_th=39", "--t-end", "20"],
        ["fluid", "ctcp-threshold", "--set", "q_th=38", "--t-end", "20"],
    ],
    "bifurcation": [
        ["bifurcation", "ctcp-threshold", "--param", "q_th=30..50", "--points", "3", "--t-end", "30"],
        ["bifurcation", "ctcp-threshold", "--param", "q_th=30..50", "--points", "3", "--t-end", "30"],
    ],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_one_value_after_another_prints_and_writes_nothing(command, tmp_path):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        outputs = []
        for args in COMMANDS[command]:
            result = runner.invoke(app, args, terminal_width=80, env={"COLUMNS": "80"})
            assert result.exit_code == 0, result.output
            assert "pass --force" not in result.output
            outputs.append(result.output)
        assert list(tmp_path.iterdir()) == [], "nothing is written without --out"
    finally:
        os.chdir(cwd)
    if command == "stability":
        assert all("verdict:" in text for text in outputs)
    if command == "fluid":
        assert all("point 0: w mean" in text for text in outputs) and "nothing written" in outputs[0]
    if command == "bifurcation":
        assert "Hopf:" in outputs[0]


def test_with_out_the_files_are_written(tmp_path):
    result = runner.invoke(app, ["stability", "ctcp-threshold", "--out", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "s" / "summary.json").is_file() and (tmp_path / "s" / "roots.png").is_file()
