"""HighSpeed's, Scalable's and CUBIC's `definition` option (issue 15 findings 3 and 4, and
the access-limited CUBIC row of the ns-3 matrix): the scenario
field, its checks, and the engine running each definition. The window laws themselves are
tested against their sources in the engine's unit tests (tcp/cc/highspeed.rs, scalable.rs)."""

from __future__ import annotations

import json

import aqmlab
import pytest
from aqmlab import _engine
from aqmlab.errors import ScenarioError
from aqmlab.scenario import Scenario
from scenarios import dumbbell


def _cc(scenario: dict) -> dict:
    return Scenario.from_dict(scenario).resolved()["topology"]["groups"][0]["traffic"]["tcp"]["cc"]


def test_defaults_are_the_seeds_definitions_and_resolve_for_the_engine():
    assert _cc(dumbbell(tcp={"cc": "highspeed"}))["definition"] == "rfc3649"
    assert _cc(dumbbell(tcp={"cc": "scalable"}))["definition"] == "kelly"
    for cc in ({"kind": "highspeed", "definition": "linux_table"}, {"kind": "scalable", "definition": "ns3"}):
        resolved = Scenario.from_dict(dumbbell(tcp={"cc": cc})).resolved()
        _engine.Simulation(json.dumps(resolved), 1)


@pytest.mark.parametrize(
    ("cc", "message"),
    [
        ({"kind": "highspeed", "definition": "table"}, "definition"),
        ({"kind": "highspeed", "definition": "linux_table", "high_decrease": 0.2}, "takes no parameters"),
        ({"kind": "scalable", "definition": "linux"}, "definition"),
        ({"kind": "scalable", "definition": "ns3", "low_window": 10}, "legacy window"),
    ],
)
def test_bad_definitions_are_refused_with_the_reason(cc, message):
    with pytest.raises(ScenarioError, match=message):
        Scenario.from_dict(dumbbell(tcp={"cc": cc}))


def test_the_engine_checks_the_table_takes_no_parameters():
    resolved = Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "highspeed", "definition": "linux_table"}})).resolved()
    resolved["topology"]["groups"][0]["traffic"]["tcp"]["cc"]["low_window"] = 20.0
    with pytest.raises(ScenarioError, match=r"cc\.definition"):
        _engine.Simulation(json.dumps(resolved), 1)


def test_scalable_ns3_definition_grows_faster_than_kellys_just_above_lwnd():
    """10 flows on a 10 Mb/s, RTT 200 ms path, windows ~20-30 segments: `ns3` adds one segment
    per round trip there, Kelly 0.01 per ACK (~0.2-0.3), so with the same RED the `ns3` flows
    lose more often."""
    red = {"kind": "red", "limit": "500p", "min_th": 10, "max_th": 40, "max_p": 0.1, "gentle": True}
    loss = {}
    for definition in ("kelly", "ns3"):
        scenario = dumbbell(
            flows=10, duration="60s", rtt="200ms", queue=red, tcp={"cc": {"kind": "scalable", "definition": definition}}
        )
        loss[definition] = aqmlab.simulate(Scenario.from_dict(scenario), seed=1).summary()["loss_percent"]
    assert loss["ns3"] > 2 * loss["kelly"], loss


def test_cubic_definition_is_resolved_only_when_ns3_and_runs():
    assert "definition" not in _cc(dumbbell(tcp={"cc": "cubic"}))
    resolved = Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "cubic", "definition": "ns3"}})).resolved()
    assert resolved["topology"]["groups"][0]["traffic"]["tcp"]["cc"]["definition"] == "ns3"
    _engine.Simulation(json.dumps(resolved), 1)
    with pytest.raises(ScenarioError, match="definition"):
        Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "cubic", "definition": "linux"}}))


def test_recovery_exit_credit_is_a_parameter_of_the_recovery():
    tcp = Scenario.from_dict(dumbbell()).resolved()["topology"]["groups"][0]["traffic"]["tcp"]
    assert tcp["recovery"] == {
        "kind": "new_reno",
        "partial_ack_timer": "impatient",
        "timeout_flight_size": "rfc5681",
        "exit_credit": "none",
    }
    scenario = dumbbell(tcp={"recovery_exit_credit": "cumulative", "sack": True})
    resolved = Scenario.from_dict(scenario).resolved()
    assert resolved["topology"]["groups"][0]["traffic"]["tcp"]["recovery"]["exit_credit"] == "cumulative"
    _engine.Simulation(json.dumps(resolved), 1)
    with pytest.raises(ScenarioError, match="recovery_exit_credit"):
        Scenario.from_dict(dumbbell(tcp={"recovery_exit_credit": "all"}))


NS2_LINUX_LAWS = (
    {"kind": "cubic", "definition": "ns2_linux"},
    {"kind": "scalable", "definition": "ns2_linux", "a": 0.02},
    {"kind": "highspeed", "definition": "ns2_linux"},
    {"kind": "compound", "definition": "ns2_linux", "zeta": 1.0},
)


@pytest.mark.parametrize("cc", NS2_LINUX_LAWS, ids=lambda cc: cc["kind"])
def test_ns2_linux_definitions_resolve_and_run(cc):
    """ns-2 2.35 TCP-Linux's integer arithmetic (tcp/cc/linux.rs and the *_linux.rs ports) as
    a definition of each law: it resolves, and a short SACK run keeps the link busy."""
    scenario = Scenario.from_dict(dumbbell(flows=4, duration="5s", tcp={"cc": cc, "sack": True}))
    assert _cc(scenario.model_dump(mode="json"))["definition"] == "ns2_linux"
    summary = aqmlab.simulate(scenario, seed=1).summary()
    assert summary["utilisation_mean"] > 0.9, summary


def test_ns2_linux_definitions_leave_the_defaults_unwritten():
    """The default definitions of CUBIC and Compound stay out of the resolved JSON (run ids of
    earlier scenarios unchanged); a chosen one is written."""
    assert "definition" not in _cc(dumbbell(tcp={"cc": "compound"}))
    assert "definition" not in _cc(dumbbell(tcp={"cc": "cubic"}))
    assert _cc(dumbbell(tcp={"cc": {"kind": "compound", "definition": "ns2_linux", "zeta": 1.0}}))["definition"] == (
        "ns2_linux"
    )


@pytest.mark.parametrize(
    ("cc", "message"),
    [
        ({"kind": "compound", "definition": "ns2_linux"}, r"cc\.zeta"),
        ({"kind": "compound", "definition": "ns2_linux", "zeta": 1.0, "gamma": 20.0}, r"cc\.gamma"),
    ],
)
def test_the_engine_holds_compound_ns2_linux_to_the_ports_constants(cc, message):
    resolved = Scenario.from_dict(dumbbell(tcp={"cc": cc, "sack": True})).resolved()
    with pytest.raises(ScenarioError, match=message):
        _engine.Simulation(json.dumps(resolved), 1)


def test_scalable_and_highspeed_ns2_linux_take_no_other_parameters():
    with pytest.raises(ScenarioError, match="legacy window"):
        Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "scalable", "definition": "ns2_linux", "low_window": 8}}))
    with pytest.raises(ScenarioError, match="takes no parameters"):
        Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "highspeed", "definition": "ns2_linux", "low_window": 20}}))
