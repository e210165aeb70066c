"""Fluid (delay-differential) models of TCP and AQM and a batch integrator.

>>> from aqmlab.fluid import get_model, integrate
>>> result = integrate(get_model("ctcp-red"), {"C": 100, "tau": 0.171, "gamma": [0.028, 0.032]}, t_end=200)
>>> result.amplitude("w")          # one value per parameter point

Models are listed in ``MODELS``; see docs/fluid.md.
"""

from aqmlab.fluid.integrate import grid, integrate, iterate_map
from aqmlab.fluid.models import MODELS, DiscreteMap, FluidError, FluidModel, Param, get_model, register
from aqmlab.fluid.result import FluidResult

__all__ = [
    "MODELS",
    "DiscreteMap",
    "FluidError",
    "FluidModel",
    "FluidResult",
    "Param",
    "get_model",
    "grid",
    "integrate",
    "iterate_map",
    "register",
]
