"""Compound: the scenario model of `kind = "compound"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Annotated, Literal

from pydantic import Field

from aqmlab._declarations import Engine
from aqmlab._fields import MAX_WINDOW
from aqmlab.congestion import _Algorithm


class Compound(_Algorithm):
    """Compound TCP (seed 000 Section II-A1; seed 004 eqs. (6)-(8)): win = cwnd + dwnd, cwnd
    as Reno (+1/win per ACK), dwnd += (alpha*win^k - 1)+ per round trip while diff < gamma,
    dwnd -= zeta*diff when diff >= gamma, dwnd = (win*(1 - beta) - cwnd/2)+ on loss, 0 on
    timeout. Defaults: seed 000 Section II-A1; `low_window`: draft-sridharan-tcpm-ctcp-02's
    low_wnd; `zeta` = 1 reproduces the Linux/ns-2 port (`tcp_compound.c`, ETA = 1).
    See docs/congestion/compound.md."""

    kind: Literal["compound"] = "compound"
    """Selects Compound TCP."""
    # The default definition is left out, so the resolved JSON (and the run ids) of every
    # scenario written before the option stays what it was.
    definition: Annotated[Literal["paper", "ns2_linux"], Engine(omit_default=True)] = "paper"
    """"paper" (default): seed 000's and seed 004's law; "ns2_linux": ns-2 2.35 TCP-Linux's
    tcp_compound.c in its integer arithmetic (whole segments, dwnd from the previous round's
    window, cwnd = ssthresh/2 during recovery), with the port's constants alpha 0.125, beta 0.5,
    k 0.75, gamma 30, zeta 1, low_window 41. See docs/congestion/compound.md."""
    alpha: float = Field(default=0.125, gt=0.0, le=10.0, allow_inf_nan=False)
    """α of the delay window's growth, dwnd += (α·win^k − 1)+ per round trip while diff < γ
    (seed 004 eqs. (6)-(8))."""
    beta: float = Field(default=0.5, gt=0.0, lt=1.0)
    """β: on a loss the whole window becomes win·(1 − β), dwnd = (win·(1 − β) − cwnd/2)+
    (seed 004 eqs. (6)-(8))."""
    k: float = Field(default=0.75, gt=0.0, le=1.0)
    """Exponent k of the delay window's growth α·win^k (seed 004 eqs. (6)-(8))."""
    gamma: float = Field(default=30.0, gt=0.0, le=MAX_WINDOW, allow_inf_nan=False)
    """γ, packets: backlog estimate diff (expected − actual rate × base RTT) at which the delay
    window stops growing and starts shrinking (seed 000 Section II-A1)."""
    zeta: float = Field(default=0.5, gt=0.0, le=100.0, allow_inf_nan=False)
    """ζ: the delay window shrinks by ζ·diff per round trip once diff ≥ γ (seed 004 eqs.
    (6)-(8)); 1 reproduces the Linux/ns-2 port's ETA = 1."""
    low_window: float = Field(default=41.0, ge=0.0, le=MAX_WINDOW, allow_inf_nan=False)
    """Packets: the delay window grows only while the whole window is at least this large, so
    small windows grow as Reno (draft-sridharan-tcpm-ctcp-02's low_wnd)."""
