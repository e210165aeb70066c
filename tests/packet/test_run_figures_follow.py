"""`aqmlab run` writes and reports the results before it draws the figures (issue 28): the
figures never hold the results back, and a stopping signal while they are drawn loses nothing."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from aqmlab.cli import app
from aqmlab.results import verify_run
from typer.testing import CliRunner

from tests.packet.test_cli import short_example

runner = CliRunner()


def test_the_results_are_written_and_reported_before_the_figures(tmp_path, monkeypatch):
    import aqmlab.results_io as results_io

    out = tmp_path / "out"
    seen = {}
    draw = results_io.draw_figures

    def checking(results, directory):
        seen["files"] = sorted(p.name for p in Path(directory).iterdir())
        seen["problems"] = verify_run(Path(directory), require=True)
        return draw(results, directory)

    monkeypatch.setattr(results_io, "draw_figures", checking)
    result = runner.invoke(app, ["run", str(short_example(tmp_path)), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "summary.json" in seen["files"] and "link_trace.parquet" in seen["files"], seen
    assert "figure.png" not in seen["files"] and seen["problems"] == []
    assert "figure.png" in {p.name for p in out.iterdir()}
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_a_sigint_while_the_figure_is_drawn_keeps_the_results_and_exits_0(tmp_path):
    # A real SIGINT, sent from inside the figure: deterministic, unlike a timed one.
    out = tmp_path / "out"
    code = textwrap.dedent(
        f"""
        import os, signal, sys, time
        import aqmlab.plots

        def plot_run(results, path, **options):
            with open(path, "wb") as file:
                file.write(b"half a figure")
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(30)

        aqmlab.plots.plot_run = plot_run
        from aqmlab.cli import main
        sys.argv = ["aqmlab", "run", {str(short_example(tmp_path))!r}, "--out", {str(out)!r}, "--quiet"]
        main()
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert output.index("wrote ") < output.index("interrupted while drawing the figures"), output
    assert verify_run(out, require=True) == []
    assert json.loads((out / "scenario.json").read_text())["finished"]
    names = sorted(p.name for p in out.iterdir())
    assert "figure.png" not in names and not [name for name in names if name.startswith(".")], names
    assert os.path.isfile(out / "summary.json")
