"""A signal while `aqmlab run` draws its figures, whose KeyboardInterrupt a plotting library
turns into its own error (matplotlib's Agg renderer raised "ValueError: Invalid bounding box"
in tests/robustness/test_interrupts.py): the results are already written and complete, so
the run says it was stopped while drawing and exits 0 without a traceback. An error of the
library without a signal is still an error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import os, signal, sys
import aqmlab.results_io as results_io
from aqmlab import cli

def interrupted(results, out):
    try:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs here, as inside a library's callback
            pass
    except KeyboardInterrupt:  # what the library makes of the interrupt
        raise ValueError("Invalid bounding box") from None

def broken(results, out):
    raise ValueError("a plotting bug")

results_io.draw_figures = interrupted if sys.argv[1] == "interrupted" else broken
sys.argv = ["aqmlab", "run", sys.argv[2], "-q", "--out", sys.argv[3]]
cli.main()
"""


def run(tmp_path: Path, mode: str) -> tuple[subprocess.CompletedProcess, Path]:
    text = (ROOT / "examples" / "seed000-fig6-rtt10.toml").read_text()
    scenario = tmp_path / "short.toml"
    scenario.write_text(
        text.replace('duration = "500s"', 'duration = "2s"').replace('measure_start = "475s"', 'measure_start = "1s"')
    )
    out = tmp_path / mode
    command = [sys.executable, "-c", PROGRAM, mode, str(scenario), str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300), out


def test_a_signal_turned_into_a_library_error_while_drawing_keeps_the_complete_results(tmp_path):
    done, out = run(tmp_path, "interrupted")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "while drawing the figures; the results are in" in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert json.loads((out / "scenario.json").read_text())["finished"]


def test_a_library_error_without_a_signal_is_not_taken_for_one(tmp_path):
    done, out = run(tmp_path, "broken")
    assert done.returncode != 0
    assert "ValueError: a plotting bug" in done.stdout + done.stderr  # raised as the bug it is
    assert "Traceback" in done.stdout + done.stderr
