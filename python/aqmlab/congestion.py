"""Congestion-control algorithms as scenario models: one class per algorithm, each with
its parameters, defaults and sources; `CongestionControl` is their union tagged on `kind`.

Each class mirrors a variant of the engine's `CcConfig` (crates/engine/src/tcp/cc/mod.rs);
`resolved()` is exactly what the engine reads (durations in nanoseconds, fields `*_ns`).
A scenario may write `cc = "reno"` for an algorithm with default parameters, or
`cc = { kind = "cx", p_max = 0.05 }` or `cc = { kind = "cubic", c = 0.4 }`.
"""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict

from aqmlab._declarations import engine_fields
from aqmlab._fields import Kinds, apply_attribute_docstrings, kind_attributes


class _Algorithm(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        apply_attribute_docstrings(cls)  # what use_attribute_docstrings did, cheaper (aqmlab._fields)

    def resolved(self) -> dict[str, Any]:
        """The engine's `CcConfig` JSON for this algorithm, derived from its field declarations
        (`aqmlab._declarations`)."""
        return engine_fields(self)


#: Every algorithm: its tag and its class, "module:Class" in `aqmlab.kinds`, imported when a
#: scenario first names the tag (issue 28). The order is the union's (its JSON Schema, errors).
CC_KINDS = {
    "reno": "cc_reno:Reno",
    "compound": "cc_compound:Compound",
    "cx": "cc_cx:Cx",
    "pert": "cc_pert:Pert",
    "cx_highspeed": "cc_cx_highspeed:CxHighSpeed",
    "cubic": "cc_cubic:Cubic",
    "highspeed": "cc_highspeed:HighSpeed",
    "scalable": "cc_scalable:Scalable",
    "aimd": "cc_aimd:Aimd",
    "illinois_like": "cc_illinois_like:IllinoisLike",
    "africa_like": "cc_africa_like:AfricaLike",
    "python": "cc_python:PythonLaw",
}
CongestionControl = Annotated[_Algorithm, Kinds("kind", CC_KINDS)]

PER_ACK_ECN = frozenset({"aimd", "illinois_like", "africa_like"})

__getattr__ = kind_attributes(
    __name__,
    CC_KINDS,
    OBSERVED="cc_cx",
    DEFAULT_DELTA_MAX="cc_cx",
    ALLOWED_DELTA_MAX="cc_cx",
    HIGHSPEED_SECTION5_PARAMETERS="cc_highspeed",
)
