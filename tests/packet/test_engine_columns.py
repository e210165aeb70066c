"""The engine's result columns reach Python without a copy (issue 28's hand-off): each numeric
column is an `aqmlab._engine.EngineColumn` over the results the engine returned, read by NumPy
through `__array_interface__`; an array made from it keeps the engine's memory alive."""

import gc

import numpy as np
import pytest
from aqmlab import _engine
from aqmlab.scenario import Scenario

SCENARIO = {
    "name": "columns",
    "duration": "2s",
    "topology": {
        "kind": "dumbbell",
        "bottleneck": {
            "rate": "10Mbps",
            "delay": "5ms",
            "queue": {"kind": "red", "limit": "100p", "min_th": 5, "max_th": 15},
        },
        "groups": [{"name": "g", "count": 3, "rtt": "40ms", "access_rate": "100Mbps"}],
    },
}

#: Each numeric column's type in the engine (crates/engine/src/trace.rs).
DTYPES = {
    ("link_trace", "time_s"): np.float64,
    ("link_trace", "link"): np.uint32,
    ("flow_trace", "cwnd"): np.float64,
    ("flow_trace", "flow"): np.uint32,
    ("flows", "group"): np.uint32,
    ("links", "monitored"): np.bool_,
}


def _results() -> dict:
    simulation = _engine.Simulation(Scenario.from_dict(SCENARIO).resolved_json(), 1)
    simulation.run_until(simulation.duration_ns)
    return simulation.results()


def test_numeric_columns_are_read_only_arrays_of_the_engines_types_without_a_copy():
    raw = _results()
    for (table, name), dtype in DTYPES.items():
        column = raw[table][name]
        array = np.asarray(column)
        assert array.dtype == dtype and array.shape == (len(column),) and len(column) > 0, (table, name)
        assert not array.flags.writeable and array.base is column, (table, name)
        assert np.asarray(column).ctypes.data == array.ctypes.data  # the same memory each time
        assert repr(array.tolist()) == repr(column.tolist()) == repr(list(column)), (table, name)  # NaN too
        assert repr(column[-1]) == repr(array[-1].item()) and type(column[0]) is type(array[0].item())
    assert isinstance(raw["links"]["name"], list) and isinstance(raw["flows"]["core_links"][0], str)


def test_an_array_outlives_the_simulation_and_the_results_dict():
    raw = _results()
    expected = list(raw["flow_trace"]["time_s"])
    array = np.asarray(raw["flow_trace"]["time_s"])
    del raw
    gc.collect()
    garbage = [np.arange(len(expected), dtype=np.float64) for _ in range(20)]  # reuse freed memory, if any
    assert array.tolist() == expected and len(garbage) == 20


def test_indexing_past_either_end_is_an_index_error():
    column = _results()["links"]["rate_bps"]
    assert column[-len(column)] == column[0]
    for index in (len(column), -len(column) - 1):
        with pytest.raises(IndexError, match="column index out of range"):
            column[index]


TABLES = ("link_trace", "flow_trace", "flows", "links")


def _tables(results: dict) -> dict:
    return {name: {column: list(values) for column, values in results[name].items()} for name in TABLES}


def test_a_complete_run_hands_its_traces_over_once_and_every_call_sees_them():
    """`Simulation::take_results` moves the traces out of a complete run: the binding keeps
    what it took, so a second `results()` is the first's (not empty traces), and a run that can
    go on hands over a copy and keeps recording."""
    simulation = _engine.Simulation(Scenario.from_dict(SCENARIO).resolved_json(), 1)
    simulation.run_until(simulation.duration_ns // 2)
    halfway = _tables(simulation.results())
    simulation.run_until(simulation.duration_ns)
    first, second = _tables(simulation.results()), _tables(simulation.results())
    assert repr(first) == repr(second)  # repr: NaN equals NaN
    assert 0 < len(halfway["link_trace"]["time_s"]) < len(first["link_trace"]["time_s"])
    assert first["link_trace"]["time_s"][: len(halfway["link_trace"]["time_s"])] == halfway["link_trace"]["time_s"]
    assert repr(first) == repr(_tables(_results()))  # the same as a run taken once
