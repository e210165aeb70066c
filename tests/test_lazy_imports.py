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


def test_a_run_and_its_data_files_load_neither_pandas_nor_a_plotting_library():
    """issue 19's hand-off budget: `simulate`, the summaries and writing the tables build and
    read Arrow columns from their buffers (aqmlab._arrow), so pyarrow's pandas shim, which
    imports pandas (~0.3 s of CPU) on any `pa.array` or `to_numpy`, is never consulted."""
    code = (
        "import tempfile, aqmlab\n"
        "scenario = {'name': 'tiny', 'duration': '1s', 'topology': {'kind': 'dumbbell', 'bottleneck': "
        "{'rate': '10Mbps', 'delay': '5ms', 'queue': {'kind': 'red', 'limit': '100p', 'min_th': 5, 'max_th': 15}}, "
        "'groups': [{'name': 'g', 'count': 3, 'rtt': '40ms', 'access_rate': '100Mbps'}]}}\n"
        "results = aqmlab.simulate(scenario, seed=1)\n"
        "assert results.summaries()\n"
        "results.save(tempfile.mkdtemp() + '/out')\n"
    )
    assert not _loaded(code) & {"pandas", "matplotlib", "scipy", "polars", "dask"}
