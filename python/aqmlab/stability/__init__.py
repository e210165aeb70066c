"""Stability and Hopf-bifurcation analysis of the fluid models (see docs/stability.md)."""

from aqmlab.stability.charts import Chart, grid_chart, hopf_chart
from aqmlab.stability.hopf import HopfPoint, Lyapunov, appendix_ctcp_noavg, find_hopf, lyapunov, transversality
from aqmlab.stability.linearise import Linearisation, StabilityError, linearise
from aqmlab.stability.roots import Roots, characteristic_roots

__all__ = [
    "Chart",
    "HopfPoint",
    "Linearisation",
    "Lyapunov",
    "Roots",
    "StabilityError",
    "appendix_ctcp_noavg",
    "characteristic_roots",
    "find_hopf",
    "grid_chart",
    "hopf_chart",
    "linearise",
    "lyapunov",
    "transversality",
]
