"""The startup budget's mechanism (issue 18 point 4; times are recorded in benchmarks/startup/,
not asserted): `import aqmlab` and `aqmlab --help` load none of the heavy libraries."""

import subprocess
import sys

from pydantic import BaseModel

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


def test_simulate_hands_over_without_numpy_or_pyarrow_until_a_table_is_asked_for():
    """issue 28's hand-off: the engine's columns travel as `_engine.EngineColumn`s, and `Results`
    builds its Arrow tables (importing pyarrow and NumPy) on first access."""
    code = (
        "import sys, aqmlab\n"
        "scenario = {'name': 'tiny', 'duration': '1s', 'topology': {'kind': 'dumbbell', 'bottleneck': "
        "{'rate': '10Mbps', 'delay': '5ms', 'queue': {'kind': 'red', 'limit': '100p', 'min_th': 5, 'max_th': 15}}, "
        "'groups': [{'name': 'g', 'count': 3, 'rtt': '40ms', 'access_rate': '100Mbps'}]}}\n"
        "results = aqmlab.simulate(scenario, seed=1)\n"
        "assert results.counters['events'] > 0 and results.finished\n"
        "assert not {'numpy', 'pyarrow'} & set(sys.modules), sorted(sys.modules)\n"
        "assert results.flows.num_rows == 3 and results.flows.column('flow').type == 'uint32'\n"
    )
    assert {"numpy", "pyarrow"} <= _loaded(code)


def _modules_of(code: str) -> set[str]:
    """Every module (dotted names) a fresh interpreter has loaded after running `code`."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(out.split())


#: What a fresh `simulate` may load besides aqmlab's modules and pydantic's floor: the JSON the
#: engine is handed (`Scenario.resolved_json`) and the signal handling of the run loop.
SIMULATE_NEEDS = {"json", "json.decoder", "json.encoder", "json.scanner", "_json", "signal"}


def test_a_fresh_simulate_loads_nothing_beyond_pydantics_own_floor():
    """issue 28, stop 6: the first `simulate` in a fresh process (the short dumbbell, as
    benchmarks/startup/handoff.py) loads aqmlab's modules, `SIMULATE_NEEDS` and what any process
    that validates one pydantic model loads (pydantic's own imports: `pydantic.types`,
    `pydantic.json_schema`, and its plugin loader's `importlib.metadata` with `email`, `zipfile`,
    ...; benchmarks/startup/README.md, stop 6), and nothing else: an import added to the
    simulate path that pydantic does not already pay for fails here. `import aqmlab` alone loads
    none of pydantic's floor."""
    floor = _modules_of("from pydantic import BaseModel\nclass M(BaseModel):\n    x: int\nM(x=1)")
    assert {"pydantic.main", "pydantic_core"} <= floor  # a process that validated a pydantic model
    run = _modules_of(
        "import aqmlab\n"
        "scenario = {'name': 'tiny', 'duration': '1s', 'topology': {'kind': 'dumbbell', 'bottleneck': "
        "{'rate': '10Mbps', 'delay': '5ms', 'queue': {'kind': 'red', 'limit': '100p', 'min_th': 5, 'max_th': 15}}, "
        "'groups': [{'name': 'g', 'count': 3, 'rtt': '40ms', 'access_rate': '100Mbps'}]}}\n"
        "assert aqmlab.simulate(scenario, seed=1).finished\n"
    )
    extra = {name for name in run - floor if name != "aqmlab" and not name.startswith("aqmlab.")}
    assert extra <= SIMULATE_NEEDS, sorted(extra - SIMULATE_NEEDS)
    assert not _modules_of("import aqmlab") & {"pydantic", "pydantic.json_schema", "importlib.metadata", "email"}


def test_results_pickle_with_their_tables():
    import pickle

    import aqmlab

    scenario = {
        "name": "tiny",
        "duration": "2s",
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": "10Mbps", "delay": "5ms", "queue": {"kind": "drop_tail", "limit": "50p"}},
            "groups": [{"name": "g", "count": 2, "rtt": "40ms", "access_rate": "100Mbps"}],
        },
    }
    results = aqmlab.simulate(scenario, seed=1)
    copy = pickle.loads(pickle.dumps(results))
    for name in ("link_trace", "flow_trace", "flows", "links"):  # repr: NaN equals NaN
        assert repr(copy.table(name).to_pydict()) == repr(results.table(name).to_pydict()), name
    assert copy.table("flows").num_rows == 2 and repr(copy.summary()) == repr(results.summary())


def _scenario_models():
    """Every scenario model class: those of the family modules and of every kind's module
    (`aqmlab.kinds`, all imported)."""
    import importlib

    from aqmlab import _fields
    from pydantic import BaseModel

    modules = [importlib.import_module(f"aqmlab.{name}") for name in _fields.docstring_modules()]
    return [
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == module.__name__
    ]


def test_importing_the_scenario_models_builds_no_validator():
    """issue 28's hand-off: validators are built on first use (`defer_build`), not at import
    for every model, and a tagged union of kinds (`aqmlab._fields.Kinds`) builds the validator
    of the kinds a scenario names only: validating and resolving seed 000's Fig. 6 builds the
    scenario's, the dumbbell's, the TCP group's, RED's, Compound's and the uniform start's; not
    the other queue, window-law, topology and group kinds, nor the models that are field
    defaults (TCP settings, the queues of edge links, stop times: made by
    `aqmlab._fields.default_of`). Serialising builds the defaults' serialisers."""
    code = (
        "import aqmlab.scenario as s\n"
        "from tests.test_lazy_imports import _scenario_models\n"
        "models = _scenario_models()\n"
        "assert len(models) > 30, len(models)\n"
        "built = [m.__name__ for m in models if m.__pydantic_complete__]\n"
        "assert not built, built\n"
        "scenario = s.load('examples/seed000-fig6-rtt10.toml')\n"
        "scenario.resolved_json()\n"
        "built = sorted(m.__name__ for m in models if m.__pydantic_complete__)\n"
        "assert built == ['Compound', 'Dumbbell', 'Red', 'Scenario', 'TcpGroup', 'UniformStart'], built\n"
        "scenario.model_dump(mode='json')\n"
        "built = sorted(m.__name__ for m in models if m.__pydantic_complete__)\n"
        "assert built == ['Bulk', 'Compound', 'DropTail', 'Dumbbell', 'NeverStop', 'Red', 'Scenario', "
        "'TcpGroup', 'UniformStart'], built\n"
    )
    from pathlib import Path

    root = Path(__file__).parents[1]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root, capture_output=True, text=True)


def test_field_descriptions_are_pydantic_attribute_docstrings():
    """aqmlab._fields.apply_attribute_docstrings (one parse per module) gives every field the
    description pydantic's own `use_attribute_docstrings` extraction gives it (a description
    given in `Field(...)` wins, as there)."""
    from pydantic._internal._docs_extraction import extract_docstrings_from_cls

    checked = 0
    for model in _scenario_models():
        docs = extract_docstrings_from_cls(model, use_inspect=True)
        for name, field in model.model_fields.items():
            if name in docs and "description" not in field._attributes_set:
                assert field.description == docs[name], (model.__name__, name)
                checked += 1
    assert checked > 100, checked


def test_model_defaults_are_the_instances_their_classes_give():
    """`aqmlab._fields.default_of(Model, **values)`, the factory of every model-valued default,
    gives what `Model(**values)` gives (type, fields, fields set), without building a validator."""
    checked = 0
    for model in _scenario_models():
        for name, field in model.model_fields.items():
            factory = field.default_factory
            default = factory() if factory is not None else None
            if not isinstance(default, BaseModel):
                continue
            assert hasattr(factory, "model"), f"{model.__name__}.{name}: use aqmlab._fields.default_of"
            expected = factory.model(**factory.values)
            assert type(default) is type(expected) and default == expected, (model.__name__, name)
            assert default.model_fields_set == expected.model_fields_set, (model.__name__, name)
            assert repr(default) == repr(expected), (model.__name__, name)
            checked += 1
    assert checked >= 10, checked


def test_the_extracted_docstrings_are_current():
    """`aqmlab/_docstrings.json` (the field descriptions of the scenario model modules,
    extracted ahead so that a fresh process does not parse six modules) holds, for every one of
    them, the source's hash and what parsing that source gives; a stale entry would only cost
    the parse again, but would do so silently."""
    import hashlib
    import json
    from pathlib import Path

    from aqmlab import _fields

    folder = Path(_fields.__file__).parent
    extracted = json.loads((folder / _fields.DOCSTRINGS_FILE).read_text(encoding="utf-8"))
    assert sorted(extracted) == sorted(f"aqmlab.{name}" for name in _fields.docstring_modules())
    assert len(_fields.docstring_modules()) > 40  # the kinds' modules are in
    for name in _fields.docstring_modules():
        source = Path(_fields.module_source(name)).read_bytes()
        entry = extracted[f"aqmlab.{name}"]
        stale = "stale: run .venv/bin/python -m aqmlab._fields"
        assert entry["sha256"] == hashlib.sha256(source).hexdigest(), f"aqmlab.{name}: {stale}"
        assert entry["classes"] == _fields._parse_docstrings(source.decode("utf-8")), f"aqmlab.{name}: {stale}"
        assert _fields._module_docstrings(_fields.module_source(name), f"aqmlab.{name}") == entry["classes"]


def test_run_without_figures_writes_the_results_and_loads_no_plotting_library(tmp_path):
    """`aqmlab run --no-figures` (issue 28: the figure on request): the results are written,
    no figure is drawn and matplotlib is never imported; by default the figure follows."""
    scenario = tmp_path / "tiny.toml"
    scenario.write_text(
        'name = "tiny"\nduration = "2s"\n[topology]\nkind = "dumbbell"\n'
        '[topology.bottleneck]\nrate = "10Mbps"\ndelay = "5ms"\n'
        'queue = { kind = "red", limit = "100p", min_th = 5, max_th = 15 }\n'
        '[[topology.groups]]\nname = "g"\ncount = 3\nrtt = "40ms"\naccess_rate = "100Mbps"\n'
    )
    for flag, out in (("--no-figures", tmp_path / "bare"), ("--figures", tmp_path / "drawn")):
        code = (
            "import sys\nfrom aqmlab.cli import main\n"
            f"sys.argv = ['aqmlab', 'run', {str(scenario)!r}, '-q', '--out', {str(out)!r}, {flag!r}]\n"
            "try:\n    main()\nexcept SystemExit as exit:\n    assert not exit.code, exit.code"
        )
        loaded = _loaded(code)
        assert (out / "run.json").is_file() and (out / "flows.parquet").is_file()
        drawn = sorted(path.name for path in out.glob("*.png"))
        if flag == "--no-figures":
            assert not drawn and "matplotlib" not in loaded
        else:
            assert drawn and "matplotlib" in loaded
