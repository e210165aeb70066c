"""AfricaLike: the scenario model of `kind = "africa_like"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Literal

from aqmlab.kinds.cc_highspeed import HighSpeed


class AfricaLike(HighSpeed):
    """Seed 000 Table I, AFRICA TCP: i(w) = a(w)/w, d(w) = w·b(w) with HighSpeed's a, b
    (per marked ACK or loss event). Engine: `tcp/cc/aimd.rs`."""

    kind: Literal["africa_like"] = "africa_like"  # type: ignore[assignment]
    """Selects the AFRICA-like law of seed 000 Table I (HighSpeed's a(w), b(w))."""
