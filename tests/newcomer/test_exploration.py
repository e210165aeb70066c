"""Analysis commands do not block exploration (issue 30 item 2): `stability`, `fluid`,
`bifurcation` and `chart` print their analysis and write nothing unless `--out` is given, so
trying one value after another is never refused because an earlier folder exists."""

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
    "chart": [
        ["chart", "ecn", "--x", "tau=0.05..0.3", "--y", "kappa=0.1..100", "--points", "10"],
        ["chart", "ecn", "--x", "tau=0.05..0.3", "--y", "kappa=0.1..100", "--points", "10"],
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
    if command == "chart":
        assert "stable below the boundary (smaller kappa)" in outputs[0]
        assert "nothing written without --out" in " ".join(outputs[0].split())
        rows = [
            [float(cell) for cell in line.strip("│ ").split("│")]
            for line in outputs[0].splitlines()
            if line.startswith("│")
        ]
        # 10 points printed (fewer than 11), tau from 0.05 to 0.3; the ECN model's crossing has
        # Hopf point of period 4τ (seed 004 eq. 14: u̇ = −κ(p + x p′) u(t − τ), ω = π/(2τ)).
        assert [row[0] for row in rows] == pytest.approx([0.05 + 0.25 * i / 9 for i in range(10)], rel=1e-5)
        assert all(row[2] == pytest.approx(4 * row[0], rel=1e-3) for row in rows)


def test_with_out_the_files_are_written(tmp_path):
    result = runner.invoke(app, ["stability", "ctcp-threshold", "--out", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "s" / "summary.json").is_file() and (tmp_path / "s" / "roots.png").is_file()
