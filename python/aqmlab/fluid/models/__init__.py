"""Fluid models, one file per model, and their registry (name -> class)."""

from __future__ import annotations

from aqmlab.fluid.models.base import DiscreteMap, FluidError, FluidModel, Param
from aqmlab.fluid.models.ctcp_red import CtcpRed
from aqmlab.fluid.models.ctcp_red_noavg import CtcpRedNoAveraging
from aqmlab.fluid.models.ctcp_threshold import CtcpThreshold
from aqmlab.fluid.models.cx_tcp import CxTcp
from aqmlab.fluid.models.cx_tcp_network import CxTcpNetwork
from aqmlab.fluid.models.ecn import Ecn
from aqmlab.fluid.models.ecn_network import EcnNetwork
from aqmlab.fluid.models.primal_dual import PrimalDual
from aqmlab.fluid.models.red_map import RedMap

MODELS: dict[str, type] = {}


def register(cls: type) -> type:
    MODELS[cls.name] = cls
    return cls


for _cls in (CtcpRed, CtcpRedNoAveraging, CtcpThreshold, CxTcp, CxTcpNetwork, PrimalDual, Ecn, EcnNetwork, RedMap):
    register(_cls)


def get_model(name: str, **options) -> FluidModel | DiscreteMap:
    """A model instance by registry name, with constructor options (e.g. tcp='reno')."""
    try:
        cls = MODELS[name]
    except KeyError:
        raise FluidError(f"model = {name!r}; allowed: {', '.join(MODELS)}") from None
    unknown = [key for key in options if key not in cls.options]
    if unknown:
        allowed = ", ".join(cls.options) or "none"
        raise FluidError(f"option {unknown[0]!r} is not an option of model {name}; allowed: {allowed}")
    return cls(**options)


__all__ = [
    "MODELS",
    "DiscreteMap",
    "FluidError",
    "FluidModel",
    "Param",
    "get_model",
    "register",
    "CtcpRed",
    "CtcpRedNoAveraging",
    "CtcpThreshold",
    "CxTcp",
    "CxTcpNetwork",
    "Ecn",
    "EcnNetwork",
    "PrimalDual",
    "RedMap",
]
