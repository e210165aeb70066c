"""Errors in one style (issue 30 item 3): one `error:` line naming the field or option, the value
and what is allowed, with a suggestion when one is close; `--version` and `-h`; printed resume
commands that can be pasted into a shell. Output captured at 80 columns."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from aqmlab.cli import app
from typer.testing import CliRunner

ROOT = Path(__file__).parents[2]
runner = CliRunner()
SCENARIO = """
name = "x"
duration = "5s"
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "10Mbps"
delay = "2ms"
queue = {queue}
[[topology.groups]]
name = "a"
count = 2
rtt = "20ms"
access_rate = "100Mbps"
tcp = {tcp}
"""


def invoke(args: list[str]):
    return runner.invoke(app, args, terminal_width=80, env={"COLUMNS": "80"})


def one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Usage:" not in result.output and "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize(
    ("queue", "tcp", "expected"),
    [
        (
            '{ kind = "redd" }',
            '{ cc = "reno" }',
            "topology.bottleneck.queue.kind: 'redd' is not one of 'drop_tail', 'random_drop', 'red',",
        ),
        ('{ kind = "redd" }', '{ cc = "reno" }', "; did you mean 'red'?"),
        ('{ kind = "red" }', '{ cc = "bbr" }', "topology.groups.0.tcp.cc: 'bbr' is not one of 'reno', 'compound'"),
        ('{ kind = "red" }', '{ cc = { kind = "cubicc" } }', "tcp.cc.kind: 'cubicc' is not one of"),
        ('{ kind = "red" }', '{ cc = { kind = "cubicc" } }', "did you mean 'cubic'?"),
    ],
)
def test_an_unknown_kind_names_its_field_and_suggests(tmp_path, queue, tcp, expected):
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(queue=queue, tcp=tcp))
    result = invoke(["validate", str(path)])
    assert result.exit_code == 2
    assert expected in result.output, result.output
    assert "Input tag" not in result.output


def test_usage_errors_are_one_error_line():
    line = one_error_line(invoke(["red-config", "--rate", "45Mbps", "--flows", "450..45", "--rtt", "100ms"]))
    assert "--flows" in line and "reversed" in line and "aqmlab red-config --help" in line
    line = one_error_line(invoke(["run", "--bogus", "x"]))
    assert "--bogus" in line and "aqmlab run --help" in line
    line = one_error_line(invoke(["nosuch"]))
    assert "nosuch" in line


def test_a_colon_range_names_the_range_grammar():
    line = one_error_line(invoke(["bifurcation", "ctcp-threshold", "--param", "q_th=30:50"]))
    assert "LOW..HIGH" in line and "did you mean '30..50'?" in line


def test_a_misspelt_model_is_suggested():
    line = one_error_line(invoke(["stability", "ctcp-reed"]))
    assert "did you mean 'ctcp-red'?" in line
    line = one_error_line(invoke(["fluid", "ctcp-reed"]))
    assert "did you mean 'ctcp-red'?" in line


def test_stability_help_points_to_commands_that_exist():
    text = " ".join(invoke(["stability", "--help"]).output.replace("│", " ").split())
    assert "aqmlab fluid --help" in text and "aqmlab fluid models" not in text
    assert invoke(["fluid", "--help"]).exit_code == 0
    assert invoke(["examples"]).exit_code == 0


def test_summary_of_a_study_points_to_study(tmp_path):
    study = tmp_path / "my study"
    study.mkdir()
    (study / "study.json").write_text("{}")
    line = one_error_line(invoke(["summary", str(study)]))
    assert f"aqmlab study {shlex.quote(str(study))}" in line


def test_version_and_short_help():
    version = invoke(["--version"])
    assert version.exit_code == 0 and version.output.startswith("aqmlab ")
    short = invoke(["-h"])
    assert short.exit_code == 0 and "Usage:" in short.output and "stability" in short.output
    assert invoke(["run", "-h"]).exit_code == 0


def test_the_printed_resume_command_is_shell_quoted(tmp_path, monkeypatch):
    import aqmlab.experiments.runner as runner_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_module, "run_sweep", interrupted)
    folder = tmp_path / "my sweeps"
    shutil.copytree(ROOT / "examples", folder)
    out = tmp_path / "a study"
    result = invoke(["sweep", str(folder / "sweeps" / "fig6-rtt.toml"), "--out", str(out)])
    assert result.exit_code == 130
    command = result.output.split("continue with: ", 1)[1].strip()
    words = shlex.split(command)
    assert words[:2] == ["aqmlab", "sweep"] and words[2] == str(folder / "sweeps" / "fig6-rtt.toml")
    assert words[3:] == ["--out", str(out), "--resume"]
