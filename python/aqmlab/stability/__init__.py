"""Stability and Hopf-bifurcation analysis of the fluid models (see docs/stability.md), and of a
packet scenario through its fluid model (`of_scenario`, docs/fluid-mapping.md)."""

from aqmlab.stability.charts import Chart, grid_chart, hopf_chart, hopf_curve
from aqmlab.stability.hopf import HopfPoint, Lyapunov, appendix_ctcp_noavg, find_hopf, lyapunov, transversality
from aqmlab.stability.linearise import Linearisation, StabilityError, linearise
from aqmlab.stability.orbits import Orbit, OrbitBranch, orbit_branch
from aqmlab.stability.roots import Roots, characteristic_roots
from aqmlab.stability.scenario import ScenarioStability, of_scenario

__all__ = [
    "Chart",
    "HopfPoint",
    "Linearisation",
    "Lyapunov",
    "Orbit",
    "OrbitBranch",
    "Roots",
    "ScenarioStability",
    "StabilityError",
    "appendix_ctcp_noavg",
    "characteristic_roots",
    "find_hopf",
    "grid_chart",
    "hopf_chart",
    "hopf_curve",
    "linearise",
    "lyapunov",
    "of_scenario",
    "orbit_branch",
    "transversality",
]
