"""Fluid models, one file per model, and their registry (name -> class).

Besides the built-in models, `get_model` finds a user's `FluidModel` (or `DiscreteMap`)
subclass by reference, ``"path/file.py:Class"`` or ``"module:Class"``, and the models that
installed packages declare in the entry-point group ``aqmlab.fluid_models`` (name = "module:Class"),
so that `aqmlab fluid`, `stability`, `bifurcation` and `chart` see them (docs/extending.md).
"""

from __future__ import annotations

from aqmlab.fluid.models.base import DiscreteMap, FluidError, FluidModel, Param, _ModelBase
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


#: The entry-point group in which installed packages declare fluid models.
ENTRY_POINT_GROUP = "aqmlab.fluid_models"


def is_reference(name: str) -> bool:
    """Whether `name` is a class reference ("path/file.py:Class" or "module:Class")."""
    return ":" in name


def entry_point_models() -> dict[str, object]:
    """The installed packages' models: name -> entry point (loaded only when used)."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in MODELS}


def model_names() -> list[str]:
    """Every model by name: the built-in ones, then the installed packages' ones."""
    return [*MODELS, *entry_point_models()]


def _user_class(name: str) -> type:
    """A user's model class by reference or entry-point name, checked to be a model."""
    from aqmlab.errors import ScenarioError
    from aqmlab.extensions import load_class

    if is_reference(name):
        try:
            cls = load_class(name, _ModelBase, "model")
        except ScenarioError as error:
            raise FluidError(str(error).replace("aqmlab.extensions._ModelBase", "aqmlab.fluid.FluidModel")) from error
    else:
        entry = entry_point_models().get(name)
        if entry is None:
            raise FluidError(
                f"model = {name!r}; allowed: {', '.join(model_names())}, or a user's model as "
                '"path/file.py:Class" or "module:Class"'
            )
        try:
            cls = entry.load()
        except Exception as error:
            raise FluidError(f"model = {name!r}: loading entry point {entry.value} raised {error!r}") from error
        if not (isinstance(cls, type) and issubclass(cls, _ModelBase)):
            raise FluidError(f"model = {name!r}: entry point {entry.value} is {cls!r}; allowed: a FluidModel subclass")
    if not cls.name:
        raise FluidError(f'model = {name!r}: {cls.__name__} has no `name`; allowed: a class attribute name = "..."')
    return cls


def model_class(name: str) -> type:
    """The class of a model: a built-in's by name, a user's by reference or entry point."""
    return MODELS[name] if name in MODELS else _user_class(name)


def get_model(name: str, **options) -> FluidModel | DiscreteMap:
    """A model instance by registry name, entry-point name or class reference
    ("path/file.py:Class", "module:Class"), with constructor options (e.g. tcp='reno')."""
    cls = model_class(name)
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
    "ENTRY_POINT_GROUP",
    "get_model",
    "is_reference",
    "model_class",
    "model_names",
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
