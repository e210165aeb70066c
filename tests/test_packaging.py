"""Packaging (issue 18 point 10): Python 3.10 support, typed package, optional extras, the
lock file `make` installs, lint in CI, and a wheel from `pip install .` that imports."""

from __future__ import annotations

import re
import subprocess
import venv
from pathlib import Path

import pytest
from aqmlab import _toml

ROOT = Path(__file__).parents[1]
PROJECT = _toml.loads((ROOT / "pyproject.toml").read_text())["project"]


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_requires_python_matches_the_code_no_bare_tomllib():
    assert PROJECT["requires-python"] == ">=3.10"
    assert any(_name(r) == "tomli" and "python_version < '3.11'" in r for r in PROJECT["dependencies"])
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "python").rglob("*.py")
        if path.name != "_toml.py" and re.search(r"^\s*(import tomllib|from tomllib)", path.read_text(), flags=re.M)
    ]
    assert offenders == [], "use `from aqmlab import _toml` (tomli on 3.10)"


def test_the_package_is_typed():
    assert (ROOT / "python" / "aqmlab" / "py.typed").is_file()
    assert (ROOT / "python" / "aqmlab" / "_engine.pyi").is_file()


def test_polars_and_dask_are_optional_extras():
    names = {_name(r) for r in PROJECT["dependencies"]}
    assert "polars" not in names and "dask" not in names and "pint" not in names
    extras = PROJECT["optional-dependencies"]
    assert {_name(r) for r in extras["polars"]} == {"polars"}
    assert {_name(r) for r in extras["dask"]} == {"dask"}


def test_the_test_extra_holds_only_what_the_tests_import():
    imported = set()
    for path in (ROOT / "tests").rglob("*.py"):
        text = path.read_text()
        imported.update(re.findall(r"^\s*(?:import|from)\s+(\w+)", text, flags=re.M))
        imported.update(re.findall(r"importorskip\(\"(\w+)\"\)", text))
        if ".to_polars(" in text:  # imports polars inside aqmlab
            imported.add("polars")
    module_of = {"dask": "distributed", "pytest": "pytest"}
    for requirement in PROJECT["optional-dependencies"]["test"]:
        name = _name(requirement)
        assert module_of.get(name, name) in imported, f"{name} is in the test extra but no test imports it"


def test_the_lock_file_pins_every_dependency_make_installs():
    locked = {
        _name(line): line
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if line and not line.startswith(("#", " "))
    }
    extras = PROJECT["optional-dependencies"]
    for requirement in [*PROJECT["dependencies"], *extras["test"], *extras["dev"]]:
        assert _name(requirement) in locked, f"{requirement} is not in requirements.lock (run make lock)"
        assert "==" in locked[_name(requirement)]
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install --quiet -r requirements.lock" in makefile


def test_ci_runs_lint():
    assert re.search(r"^make lint$", (ROOT / ".ci" / "run").read_text(), flags=re.M)


@pytest.mark.slow
def test_pip_install_builds_a_wheel_that_imports(tmp_path):
    """A fresh virtual environment, `pip install .` (maturin builds the engine in release mode,
    several minutes on 2 cores), then import, run a short scenario and check py.typed shipped."""
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--quiet", str(ROOT)], check=True, timeout=3600)
    code = (
        "import importlib.resources, aqmlab, aqmlab._engine; "
        "assert importlib.resources.files('aqmlab').joinpath('py.typed').is_file(); "
        "s = aqmlab.Scenario.from_toml('examples/seed000-fig6-rtt10.toml'); "
        "s = s.with_changes(duration='2s', measure_start='1s'); "
        "print(aqmlab.simulate(s).summary().utilisation_mean > 0)"
    )
    result = subprocess.run([python, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
    help_text = subprocess.run([tmp_path / "venv" / "bin" / "aqmlab", "--help"], capture_output=True, text=True)
    assert help_text.returncode == 0 and "sweep" in help_text.stdout
    # the examples travel in the wheel: by name from a folder without a checkout (issue 30)
    listed = subprocess.run(
        [tmp_path / "venv" / "bin" / "aqmlab", "examples"], capture_output=True, text=True, cwd=tmp_path
    )
    assert listed.returncode == 0 and "seed000-fig6-rtt10" in listed.stdout
    checked = subprocess.run(
        [tmp_path / "venv" / "bin" / "aqmlab", "validate", "seed000-fig6-rtt10"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stderr
