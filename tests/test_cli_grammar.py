"""One CLI grammar (issue 18 point 7): `--set`/`--option` NAME=VALUE everywhere, ranges as
LOW..HIGH everywhere, `--out DIR` meaning the output directory everywhere, and one overwrite
rule — an existing non-empty output is refused, `--force` replaces it — for every command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from aqmlab.cli import app
from typer.testing import CliRunner

ROOT = Path(__file__).parents[1]
runner = CliRunner()

#: Every command that writes files, with its arguments (before --out).
WRITERS = {
    "run": ["run", str(ROOT / "examples" / "seed000-fig6-rtt10.toml")],
    "demo": ["demo", "--quick"],
    "reproduce": ["reproduce", "seed000-fig6", "--quick"],
    "sweep": ["sweep", str(ROOT / "examples" / "sweeps" / "fig6-rtt.toml")],
    "fluid": ["fluid", "ctcp-red"],
    "stability": ["stability", "ctcp-threshold"],
    "chart": ["chart", "ecn", "--x", "tau=0.05..0.3", "--y", "kappa"],
    "bifurcation": ["bifurcation", "ctcp-threshold", "--param", "q_th=30..50"],
    "red-config": ["red-config", "--rate", "45Mbps", "--flows", "45..450", "--rtt", "50ms..200ms", "--max-p", "0.1"],
    "schema": ["schema"],
}


def _help(args: list[str]) -> str:
    command = args[:2] if args[0] == "fluid" else args[:1]
    result = runner.invoke(app, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_every_writing_command_takes_out_and_force(command):
    text = _help(WRITERS[command])
    assert re.search(r"--out\b", text) and "-o" in text, text
    assert "--force" in text, text


@pytest.mark.parametrize("command", ["fluid", "stability", "chart", "bifurcation"])
def test_model_options_and_parameters_have_one_spelling(command):
    text = _help(WRITERS[command])
    assert "--option" in text and "-O" in text and "--set" in text and "-s" in text
    assert "--opt " not in text


def test_ranges_are_low_dot_dot_high_everywhere():
    old = runner.invoke(app, ["chart", "ecn", "--x", "tau:0.05:0.3", "--y", "kappa"])
    assert old.exit_code == 2 and "NAME=LOW..HIGH" in old.output
    reversed_ = runner.invoke(app, ["bifurcation", "ctcp-threshold", "--param", "q_th=50..30"])
    assert reversed_.exit_code == 2 and "reversed" in reversed_.output
    design = runner.invoke(app, ["red-config", "--rate", "45Mbps", "--flows", "450..45", "--rtt", "100ms"])
    assert design.exit_code == 2 and "reversed" in design.output


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_an_existing_non_empty_output_is_refused_without_force(command, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("earlier results")
    target = out
    args = [*WRITERS[command], "--out", str(out)]
    if command == "reproduce":  # OUT is the parent; each reproduction goes into OUT/ID
        target = out / "seed000-fig6"
        target.mkdir()
        (target / "keep.txt").write_text("earlier results")
    if command == "schema":
        (out / "scenario.md").write_text("earlier")
    result = runner.invoke(app, args, terminal_width=200)
    assert result.exit_code == 2, result.output
    assert "pass --force to replace it" in result.output
    assert (target / "keep.txt").read_text() == "earlier results"


def test_report_writes_into_out_and_refuses_to_overwrite(tmp_path):
    import aqmlab
    from aqmlab.results_io import write_run

    scenario = aqmlab.Scenario.from_toml(ROOT / "examples" / "seed000-fig6-rtt10.toml")
    results = aqmlab.simulate(scenario.with_changes(duration="2s", measure_start="1s"))
    run = write_run(results, tmp_path / "run", force=False)
    first = runner.invoke(app, ["report", str(run), "--out", str(tmp_path / "html")])
    assert first.exit_code == 0 and (tmp_path / "html" / "report.html").is_file(), first.output
    again = runner.invoke(app, ["report", str(run), "--out", str(tmp_path / "html")])
    assert again.exit_code == 2 and "pass --force" in again.output
    forced = runner.invoke(app, ["report", str(run), "--out", str(tmp_path / "html"), "--force"])
    assert forced.exit_code == 0, forced.output
