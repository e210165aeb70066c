"""Examples bundled in the package, reachable by name from anywhere (issue 30 item 7)."""

from __future__ import annotations

import os
from pathlib import Path

from aqmlab.cli import app
from aqmlab.scenario import example_names, load_scenario
from typer.testing import CliRunner

ROOT = Path(__file__).parents[2]
PACKAGED = ROOT / "python" / "aqmlab" / "scenarios"
runner = CliRunner()


def test_examples_link_to_the_packaged_scenarios():
    examples = sorted(p.name for p in (ROOT / "examples").glob("*.toml"))
    packaged = sorted(p.name for p in PACKAGED.glob("*.toml"))
    assert examples == packaged
    for name in examples:
        link = ROOT / "examples" / name
        assert link.is_symlink() and link.resolve() == (PACKAGED / name).resolve(), name
    assert example_names() == [name.removesuffix(".toml") for name in packaged]


def test_aqmlab_examples_lists_them_at_80_columns():
    result = runner.invoke(app, ["examples"], terminal_width=80, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == example_names()
    assert max(len(line) for line in lines) <= 80
    assert "60 flows over RED(50,100), RTT 10 ms" in result.output
    shown = runner.invoke(app, ["examples", "seed000-fig6-rtt10"])
    assert shown.exit_code == 0 and shown.output == (PACKAGED / "seed000-fig6-rtt10.toml").read_text()


def test_a_name_works_from_any_folder(tmp_path):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = runner.invoke(app, ["validate", "seed000-fig6-rtt10"])
        assert result.exit_code == 0, result.output
        assert '"duration_ns": 500000000000' in result.output
        wrong = runner.invoke(app, ["validate", "seed000-fig6-rt10"])
        assert wrong.exit_code == 2 and "did you mean 'seed000-fig6-rtt10'?" in wrong.output
        assert "aqmlab examples" in wrong.output
        path = runner.invoke(app, ["validate", "missing.toml"])
        assert path.exit_code == 2 and "missing.toml: no such scenario file" in path.output
    finally:
        os.chdir(cwd)
    assert load_scenario("seed000-fig6-rtt200").name == "seed000-fig6-rtt200"
