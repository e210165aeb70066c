"""benchmarks/ns2/referee/search_factor.py and scenario_factor.py: each factor changes the one
thing it names (the threshold chart's bottleneck to N C̃, the bisection rounds; a scenario field
on the named runs only) and a field that is not there is refused with the run's name."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2" / "referee"))
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))

# imports below need the sys.path entries above
from aqmlab.reproduce.seed000_packet_chart import dumbbell, run_settings  # noqa: E402
from scenario_factor import changed_scenarios  # noqa: E402
from search_factor import FACTORS  # noqa: E402


def test_capacity100_sets_the_bottleneck_to_n_times_the_papers_per_flow_capacity():
    scenario, settings = dumbbell(True, threshold=True), run_settings(True)
    assert scenario["topology"]["bottleneck"]["rate"] == "100Mbps"
    FACTORS["capacity100"][1](scenario, settings)
    # 10 flows x 100 packets/s x 1500 bytes x 8 bits = 12 Mb/s; access links at least 2 x 1.2 Mb/s
    assert scenario["topology"]["bottleneck"]["rate"] == "12000000bps"
    assert scenario["topology"]["groups"][0]["access_rate"] == "2400000bps"
    assert settings == run_settings(True)


def test_rounds4_changes_the_bisection_rounds_only():
    scenario, settings = dumbbell(True), run_settings(True)
    FACTORS["rounds4"][1](scenario, settings)
    assert settings == {**run_settings(True), "max_rounds": 4}
    assert scenario == dumbbell(True)


def test_a_scenario_factor_sets_the_named_runs_and_leaves_the_rest():
    runs = {"a": {"duration": "40s", "topology": {"groups": [{}]}}, "b": {"duration": "40s"}}
    changed = changed_scenarios(runs, 'duration="500s";measure_start="475s"', ["a"])
    assert changed == {"a": {"duration": "500s", "measure_start": "475s", "topology": {"groups": [{}]}}}
    assert runs["a"]["duration"] == "40s"


def test_a_field_whose_parent_is_missing_is_refused_with_the_run():
    runs = {"a": {"duration": "40s", "topology": {}}}
    with pytest.raises(ValueError, match="run a"):
        changed_scenarios(runs, "topology.bottleneck.rate=10Mbps", ["a"])
