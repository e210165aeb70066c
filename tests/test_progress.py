"""Progress for long steps (issue 18 point 4): `simulate(progress=True)` in the API, the CLI's
bars, and nested bars (a reproduction's simulations under the demo's step bar)."""

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[1] / "examples" / "seed000-fig6-rtt10.toml"
TERMINAL = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"}


def test_simulate_progress_true_shows_a_bar_over_simulated_time():
    code = (
        f"import aqmlab; s = aqmlab.Scenario.from_toml(r'{EXAMPLE}').with_changes(duration='3s', measure_start='1s'); "
        "aqmlab.simulate(s, progress=True)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=TERMINAL, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "s simulated" in result.stderr and "seed000-fig6-rtt10" in result.stderr


def test_simulations_inside_a_step_bar_become_its_tasks():
    code = (
        "import aqmlab\n"
        "from aqmlab.progress import showing_simulations, steps_bar\n"
        f"s = aqmlab.Scenario.from_toml(r'{EXAMPLE}').with_changes(duration='2s', measure_start='1s')\n"
        "with steps_bar('study', 2) as step, showing_simulations():\n"
        "    for name in ('a', 'b'):\n"
        "        step(name)\n"
        "        aqmlab.simulate(s)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=TERMINAL, timeout=300)
    assert result.returncode == 0, result.stderr  # no "Only one live display may be active at once"
    assert "study" in result.stderr and "2/2" in result.stderr


def test_report_command_shows_its_progress(tmp_path):
    import aqmlab
    from aqmlab.results_io import write_run

    scenario = aqmlab.Scenario.from_toml(EXAMPLE).with_changes(duration="2s", measure_start="1s")
    write_run(aqmlab.simulate(scenario), tmp_path / "run", force=False)
    result = subprocess.run(
        [sys.executable, "-m", "aqmlab.cli", "report", str(tmp_path / "run")],
        capture_output=True,
        text=True,
        env=TERMINAL,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "writing the report" in result.stderr and "done (" in result.stderr
