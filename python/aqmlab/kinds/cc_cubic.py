"""Cubic: the scenario model of `kind = "cubic"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import Field

from aqmlab._declarations import Engine
from aqmlab.congestion import _Algorithm


#: Every algorithm, tagged on `kind`.
class Cubic(_Algorithm):
    """CUBIC (RFC 9438; seed 004 eqs. (1)-(5)): W(t) = C (t − K)³ + W_max with
    K = cbrt(W_max (1 − β)/C), growth per ACK toward W(t + RTT), the Reno-friendly region
    (α = 3(1 − β)/(1 + β)) and fast convergence. Engine: `tcp/cc/cubic.rs`."""

    kind: Literal["cubic"] = "cubic"
    """Selects CUBIC."""
    # The default definition is left out, so the resolved JSON (and the run ids that hash it)
    # of every scenario written before the option stays what it was.
    definition: Annotated[Literal["rfc9438", "ns3", "ns2_linux"], Engine(omit_default=True)] = "rfc9438"
    """"rfc9438" (default), "ns3": ns-3 3.44's TcpCubic where it departs from RFC 9438 (the
    Reno-friendly α stays 3(1 − β)/(1 + β); a timeout keeps W_max; target at t + minimum
    RTT), or "ns2_linux": ns-2 2.35 TCP-Linux's tcp_cubic.c (Linux 2.6.22's CUBIC 2.1) in its
    integer arithmetic, whole-segment window and TCP-Linux's window-limited growth. See
    docs/congestion/cubic.md."""
    c: float = Field(default=0.4, gt=0.0, le=100.0, description="C, segments/s³ (RFC 9438 Section 4.1.1)")
    beta: float = Field(default=0.7, gt=0.0, lt=1.0, description="β_cubic (RFC 9438 Section 4.1.1)")
    fast_convergence: bool = Field(default=True, description="RFC 9438 Section 4.7")
    reno_friendly: bool = Field(default=True, description="RFC 9438 Section 4.3")
