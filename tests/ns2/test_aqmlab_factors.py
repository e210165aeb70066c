"""benchmarks/ns2/referee/aqmlab_factors.py: the one-factor assignment sets exactly the named
field, on every element of a `[*]` list, and refuses a malformed path with its name."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2" / "referee"))

# imports below need the sys.path entry above
from aqmlab_factors import apply, parse_assignment  # noqa: E402


def scenario() -> dict:
    return {
        "duration": "40s",
        "topology": {
            "bottleneck": {"queue": {"kind": "ered", "delay_scale": "100ms"}},
            "groups": [{"tcp": {"cc": {"kind": "cx"}}}, {"tcp": {"cc": {"kind": "cx"}}}],
        },
    }


def test_a_field_is_set_with_its_json_value_or_a_bare_string():
    built = scenario()
    assert apply(built, *parse_assignment('topology.bottleneck.queue.delay_scale="50ms"')) == 1
    assert built["topology"]["bottleneck"]["queue"]["delay_scale"] == "50ms"
    assert apply(built, *parse_assignment("duration=80s")) == 1
    assert built["duration"] == "80s"


def test_star_sets_every_element_and_an_index_one():
    built = scenario()
    assert apply(built, *parse_assignment("topology.groups[*].tcp.cc.once_per_rtt=true")) == 2
    assert [g["tcp"]["cc"].get("once_per_rtt") for g in built["topology"]["groups"]] == [True, True]
    built = scenario()
    assert apply(built, *parse_assignment("topology.groups[1].tcp.cc.averaging_time=0.01")) == 1
    assert [g["tcp"]["cc"].get("averaging_time") for g in built["topology"]["groups"]] == [None, 0.01]


def test_a_missing_parent_leaves_the_scenario_unchanged():
    built = scenario()
    assert apply(built, *parse_assignment("topology.links[*].queue.delay_scale=1")) == 0
    assert built == scenario()


@pytest.mark.parametrize("text", ["no-equals-sign", "=1", "topology.groups[x].tcp=1", "a..b=1"])
def test_a_malformed_assignment_is_refused_naming_it(text):
    with pytest.raises(ValueError, match="factor"):
        parse_assignment(text)


def test_an_unchanged_run_is_the_baselines_and_a_changed_one_is_simulated(tmp_path, monkeypatch):
    from types import SimpleNamespace

    import aqmlab_factors

    def item(name, queue):
        scenario = {"topology": {"bottleneck": {"queue": queue}}}
        return SimpleNamespace(name=name, scenario=scenario, measure=lambda results: {"x": results})

    runs = [item("red", {"kind": "red"}), item("ered", {"kind": "ered", "delay_scale": "100ms"})]
    fake = SimpleNamespace(runs=lambda quick: runs)
    simulated = []

    def simulate(scenario):
        simulated.append(scenario)
        return 2.0

    monkeypatch.setattr(aqmlab_factors, "STORE", tmp_path / "store.json")
    monkeypatch.setattr(aqmlab_factors, "REGISTRY", {"fake": fake})
    monkeypatch.setattr(aqmlab_factors, "simulate", simulate)
    monkeypatch.setattr(aqmlab_factors, "link_summary", lambda results: {})
    monkeypatch.setattr(aqmlab_factors, "judged", lambda *args: {})
    aqmlab_factors.record("fake", "baseline", 1, "red", {"x": 1.0})
    aqmlab_factors.record("fake", "baseline", 1, "ered", {"x": 1.0})
    aqmlab_factors.run("fake", 'topology.bottleneck.queue.delay_scale="50ms"', ["ered"], 1, False)
    stored = aqmlab_factors.load_store()["fake"]
    assert stored['topology.bottleneck.queue.delay_scale="50ms"']["1"] == {"red": {"x": 1.0}, "ered": {"x": 2.0}}
    assert [s["topology"]["bottleneck"]["queue"]["delay_scale"] for s in simulated] == ["50ms"]
    assert stored["baseline"]["1"] == {"red": {"x": 1.0}, "ered": {"x": 1.0}}
