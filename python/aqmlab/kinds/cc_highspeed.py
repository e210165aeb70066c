"""HighSpeed: the scenario model of `kind = "highspeed"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

import math
from typing import Literal

from pydantic import Field, model_validator

from aqmlab._fields import MAX_WINDOW
from aqmlab.congestion import _Algorithm

HIGHSPEED_SECTION5_PARAMETERS = ("low_window", "high_window", "low_p", "high_p", "high_decrease")


class HighSpeed(_Algorithm):
    """HighSpeed TCP (RFC 3649): +a(w)/w per ACK and ×(1 − b(w)) per loss above
    `low_window`, Reno below it. `definition`: "rfc3649" (Section 5's formulas, the default)
    or "linux_table" (Appendix B's step table, as Linux `tcp_highspeed.c` and ns-3
    `TcpHighSpeed`; no parameters). See docs/congestion/highspeed.md. Engine:
    `tcp/cc/highspeed.rs`."""

    kind: Literal["highspeed"] = "highspeed"
    """Selects HighSpeed TCP."""
    definition: Literal["rfc3649", "linux_table", "ns2_linux"] = "rfc3649"
    """"rfc3649" (default): a(w) and b(w) from RFC 3649 Section 5's formulas; "linux_table":
    Appendix B's step table, as Linux and ns-3 use; "ns2_linux": ns-2 2.35 TCP-Linux's
    tcp_highspeed.c in its integer arithmetic (md/256, whole segments, cwnd = ssthresh/2 during
    recovery). With either table the other parameters must keep their defaults. See
    docs/congestion/highspeed.md."""
    low_window: float = Field(default=38.0, ge=1.0, le=MAX_WINDOW, description="Low_Window (RFC 3649 Section 5)")
    high_window: float = Field(default=83000.0, le=MAX_WINDOW, description="High_Window (RFC 3649 Section 5)")
    low_p: float = Field(default=1e-3, gt=0.0, lt=1.0, description="Low_P (RFC 3649 Section 5)")
    high_p: float = Field(default=1e-7, gt=0.0, description="High_P (RFC 3649 Section 5)")
    high_decrease: float = Field(default=0.1, gt=0.0, le=0.5, description="High_Decrease (RFC 3649 Section 5)")

    @model_validator(mode="after")
    def _check(self) -> "HighSpeed":
        if not math.isfinite(self.high_window) or self.high_window <= self.low_window:
            raise ValueError(f"high_window ({self.high_window}) must be above low_window ({self.low_window})")
        if self.high_p >= self.low_p:
            raise ValueError(f"high_p ({self.high_p}) must be below low_p ({self.low_p})")
        changed = [
            f"{name} = {getattr(self, name)}"
            for name in HIGHSPEED_SECTION5_PARAMETERS
            if getattr(self, name) != type(self).model_fields[name].default
        ]
        if self.definition != "rfc3649" and changed:
            raise ValueError(
                f'definition = "{self.definition}" takes no parameters (got {", ".join(changed)}): RFC 3649 '
                "Appendix B's table is computed for Section 5's defaults; use definition = \"rfc3649\""
            )
        return self
