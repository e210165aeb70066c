"""CxHighSpeed: the scenario model of `kind = "cx_highspeed"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Any, Literal

from pydantic import Field

from aqmlab._fields import default_of
from aqmlab.congestion import _Algorithm
from aqmlab.kinds.cc_cx import Cx
from aqmlab.kinds.cc_highspeed import HighSpeed


class CxHighSpeed(_Algorithm):
    """Delay-based HighSpeed TCP (seed 001 Section V-B): HighSpeed's window law (RFC 3649) with
    the Cx backoff of seed 001 Algorithm 1 added. `cx` and `highspeed` take the parameters of
    `kind = "cx"` and `kind = "highspeed"`. Engine: `tcp/cc/cx_highspeed.rs`."""

    kind: Literal["cx_highspeed"] = "cx_highspeed"
    """Selects delay-based HighSpeed TCP (seed 001 Section V-B)."""
    cx: Cx = Field(default_factory=default_of(Cx))
    """The Cx backoff's parameters, as `kind = "cx"` takes them."""
    highspeed: HighSpeed = Field(default_factory=default_of(HighSpeed))
    """The HighSpeed window law's parameters, as `kind = "highspeed"` takes them."""

    def resolved(self) -> dict[str, Any]:
        def without_kind(values: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in values.items() if k != "kind"}

        return {
            "kind": "cx_highspeed",
            "cx": without_kind(self.cx.resolved()),
            "highspeed": without_kind(self.highspeed.resolved()),
        }
