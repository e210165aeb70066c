"""HighSpeed's and Scalable's `definition` option (issue 15 findings 3 and 4): the scenario
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
