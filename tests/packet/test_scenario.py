"""Scenario validation: bad input names the field, the value and what is allowed."""

import json

import pytest
from aqmlab import Scenario, ScenarioError, _engine
from scenarios import dumbbell, with_path

RED = {"kind": "red", "limit": "2084p", "min_th": 50, "max_th": 100}


def test_resolved_scenario_is_in_si_units_with_defaults():
    scenario = Scenario.from_dict(dumbbell(queue=RED, duration="100s"))
    resolved = scenario.resolved()
    assert resolved["duration_ns"] == 100_000_000_000
    assert resolved["measure_start_ns"] == 75_000_000_000  # the last 25 s by default
    bottleneck = resolved["topology"]["bottleneck"]
    assert bottleneck["rate_bps"] == 10_000_000
    assert bottleneck["queue"]["limit"] == {"packets": 2084}
    assert bottleneck["queue"]["q_weight"] == -1.0 and bottleneck["queue"]["max_p"] == 0.1
    assert bottleneck["queue"]["link_delay_ns"] == 10_000_000
    group = resolved["topology"]["groups"][0]
    tcp = group["traffic"]["tcp"]
    assert tcp["min_rto_ns"] == 200_000_000 and tcp["delayed_ack"] is False
    assert group["stop"] == {"kind": "never"} and group["direction"] == "forward"
    assert group["start"] == {"kind": "uniform", "low_ns": 0, "high_ns": 1_000_000_000}
    # The engine accepts exactly what the Python layer resolves.
    _engine.Simulation(json.dumps(resolved), 1)


def test_short_runs_measure_their_second_half():
    assert Scenario.from_dict(dumbbell(duration="20s")).measure_start_s == 10.0


@pytest.mark.parametrize(
    ("path", "value", "fragments"),
    [
        ("topology.bottleneck.rate", "-10Mbps", ["topology.bottleneck.rate", "-10Mbps", "non-negative"]),
        ("topology.bottleneck.rate", 0, ["topology.bottleneck.rate", "greater than zero"]),
        ("topology.bottleneck.rate", "10 Mbsp", ["topology.bottleneck.rate", "unknown unit", "Mbps"]),
        ("topology.bottleneck.queue", dict(RED, min_th=120), ["min_th (120", "below max_th"]),
        (
            "topology.bottleneck.queue",
            {"kind": "no_such_queue"},
            ["topology.bottleneck.queue", "'no_such_queue'", "drop_tail", "red"],
        ),
        ("topology.bottleneck.queue", dict(RED, q_weight=-5), ["q_weight", "automatic"]),
        ("topology.groups.0.rtt", "15ms", ["rtt", "twice the one-way delay of the bottleneck"]),
        ("topology.groups.0.count", 0, ["topology.groups.0.count", "greater than or equal to 1"]),
        ("topology.groups.0.tcp", {"cc": "vegas"}, ["cc", "'vegas'", "reno"]),
        ("duration", "ten seconds", ["duration", "'ten seconds'"]),
        ("topology.groups.0.tcp", {"cc": "reno", "mss": 1460}, ["topology.groups.0.tcp.mss", "unknown field"]),
    ],
)
def test_bad_scenarios_name_field_value_and_allowed(path, value, fragments):
    with pytest.raises(ScenarioError) as error:
        Scenario.from_dict(with_path(dumbbell(queue=RED), path, value))
    message = str(error.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in:\n{message}"


def test_engine_rechecks_resolved_values():
    resolved = Scenario.from_dict(dumbbell(queue=RED)).resolved()
    resolved["topology"]["bottleneck"]["queue"]["min_th"] = 150.0
    with pytest.raises(ScenarioError, match="max_th"):
        _engine.Simulation(json.dumps(resolved), 1)
    resolved = Scenario.from_dict(dumbbell(queue=RED)).resolved()
    resolved["topology"]["bottleneck"]["queue"]["kind"] = "blue"
    with pytest.raises(ScenarioError, match="blue"):
        _engine.Simulation(json.dumps(resolved), 1)


def test_toml_errors_name_the_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("duration = \n")
    with pytest.raises(ScenarioError, match="broken.toml: not valid TOML"):
        Scenario.from_toml(path)
    with pytest.raises(ScenarioError, match="no such scenario file"):
        Scenario.from_toml(tmp_path / "missing.toml")


@pytest.mark.parametrize("name", ["seed000-fig6-rtt10", "seed000-fig6-rtt200"])
def test_embedded_examples_load(name):
    from aqmlab.demo import demo_scenario

    scenario = demo_scenario(name)
    assert scenario.topology.groups[0].count == 60
    assert scenario.resolved()["topology"]["bottleneck"]["queue"]["limit"] == {"packets": 2084}
