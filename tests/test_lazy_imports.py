"""The startup budget's mechanism (issue 18 point 4; times are recorded in benchmarks/startup/,
not asserted): `import aqmlab` and `aqmlab --help` load none of the heavy libraries."""

import subprocess
import sys

HEAVY = ("pydantic", "pyarrow", "pandas", "polars", "numpy", "scipy", "matplotlib", "pint", "dask", "distributed")


def _loaded(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(out.split()[-1000:]) if out else set()


def test_import_aqmlab_loads_no_heavy_library():
    assert not _loaded("import aqmlab") & set(HEAVY)


def test_help_loads_no_heavy_library():
    code = (
        "import sys\nsys.argv = ['aqmlab', '--help']\nfrom aqmlab.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    assert not _loaded(code) & set(HEAVY)


def test_public_names_still_resolve_on_first_use():
    import aqmlab

    assert aqmlab.Scenario.__name__ == "Scenario" and callable(aqmlab.simulate)
    assert {"Results", "Scenario", "simulate", "ScenarioError"} <= set(dir(aqmlab))
