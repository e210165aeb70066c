"""aqmlab: a laboratory for TCP congestion control and active queue management.

Packet-level simulation: `aqmlab.simulate(scenario, seed=...)` returns `aqmlab.Results`;
scenarios are `aqmlab.Scenario` models or TOML files (see `examples/`).
"""

from aqmlab.errors import ResultsError, ScenarioError, SimulationInterrupted
from aqmlab.results import Results
from aqmlab.scenario import Scenario
from aqmlab.simulation import simulate

__version__ = "0.1.0"

__all__ = ["Results", "ResultsError", "Scenario", "ScenarioError", "SimulationInterrupted", "simulate"]
