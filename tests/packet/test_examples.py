"""Every scenario under examples/ loads, resolves and is accepted by the engine."""

from pathlib import Path

import pytest
from aqmlab import Scenario, _engine
from aqmlab.experiments import Sweep

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_example_scenario_is_valid(path):
    scenario = Scenario.from_toml(path)
    simulation = _engine.Simulation(scenario.resolved_json(), scenario.seed)
    assert simulation.duration_ns == round(scenario.duration_s * 1e9)


@pytest.mark.parametrize("path", sorted((EXAMPLES / "sweeps").glob("*.toml")), ids=lambda p: p.name)
def test_example_sweep_is_valid(path):
    assert Sweep.from_toml(path).runs()
