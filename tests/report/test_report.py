"""HTML reports: content, and rendering in headless Chromium (Debian's `chromium`)."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import aqmlab
import pytest
from aqmlab.experiments import Sweep, run_sweep
from aqmlab.report import write_report
from aqmlab.results_io import write_run

sys.path.insert(0, str(Path(__file__).parents[1] / "packet"))
from scenarios import dumbbell  # noqa: E402


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    results = aqmlab.simulate(
        dumbbell(flows=4, duration="6s", queue={"kind": "red", "limit": "200p", "min_th": 10, "max_th": 30}), seed=1
    )
    return write_run(results, tmp_path_factory.mktemp("run") / "run", force=False)


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory):
    sweep = Sweep.from_dict(
        {
            "name": "rtt",
            "base": dumbbell(flows=3, duration="3s"),
            "seeds": [1, 2],
            "grid": {"topology.groups.0.rtt": ["30ms", "60ms", "90ms"]},
        }
    )
    return run_sweep(sweep, tmp_path_factory.mktemp("study") / "study", workers=1).directory


def test_run_report_holds_summary_figures_groups_and_scenario(run_dir):
    html = write_report(run_dir).read_text()
    for section in ("summary", "figures", "groups", "counters", "scenario"):
        assert f'<section id="{section}">' in html
    assert html.count("data:image/png;base64,") == 1
    assert "utilisation mean [%]" in html and "&#34;kind&#34;: &#34;dumbbell&#34;" in html


def test_study_report_holds_runs_and_a_figure_per_numeric_axis(study_dir):
    html = write_report(study_dir).read_text()
    assert html.count("data:image/png;base64,") == 1
    rows = re.findall(r"<tr><td>(\d+)</td>", html)
    assert rows == ["30", "60", "90"]  # numbers, sorted by value, the unit in the header
    assert "<th>rtt [ms]</th>" in html and "<th>queue mean [pkt]</th>" in html


def test_reports_show_plain_numbers_and_spreads_at_the_means_precision(run_dir, study_dir):
    """Issue 18 point 9: no 3.579e+04, no 0.9995 ± 9.137e-05."""
    for directory in (run_dir, study_dir):
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", write_report(directory).read_text())
        assert cells and not [c for c in cells if re.search(r"\de[+-]\d", c)]
    spreads = [c for c in re.findall(r"<td>([^<]*±[^<]*)</td>", write_report(study_dir).read_text())]
    for cell in spreads:
        mean, std = cell.split(" ± ")
        decimals = len(mean.partition(".")[2])
        assert len(std.partition(".")[2]) >= decimals, cell


def test_number_formatting():
    from aqmlab.display import mean_std, number

    assert number(35790.0) == "35,790"
    assert number(0.99951234) == "0.9995"
    assert mean_std(0.9995, 9.137e-05) == "0.99950 ± 0.00009"
    assert mean_std(12.345, 1.2) == "12.35 ± 1.20"
    assert number(float("nan")) == "–"


def test_a_combined_report_has_contents_and_each_title_once(tmp_path):
    from aqmlab.report import write_combined_report

    directories = []
    for name in ("first", "second"):
        directory = tmp_path / name
        directory.mkdir()
        meta = {"title": f"Reproduction {name}", "description": "d", "comparison": [], "figures": []}
        (directory / "reproduction.json").write_text(__import__("json").dumps(meta))
        directories.append(directory)
    html = write_combined_report(directories, tmp_path / "report.html", "demo", "intro").read_text()
    assert '<nav id="contents">' in html
    for name in ("first", "second"):
        assert html.count(f"Reproduction {name}") == 2  # the heading and its contents entry


def test_not_a_result_directory_is_a_clear_error(tmp_path):
    with pytest.raises(aqmlab.ResultsError, match="not a run, study or reproduction"):
        write_report(tmp_path)


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.parametrize("which", ["run", "study"])
def test_reports_render_in_headless_chromium(which, run_dir, study_dir):
    browser = chromium()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("chromium not installed (apt-get install chromium)")
    page = write_report(run_dir if which == "run" else study_dir)
    dom = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=10000",
            "--dump-dom",
            page.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    match = re.search(r'data-images-ok="(\d+)/(\d+)"', dom)
    assert match, "the page's load check did not run"
    loaded, total = map(int, match.groups())
    assert total >= 1 and loaded == total, f"{loaded} of {total} figures rendered"
