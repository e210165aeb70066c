"""The PFTK model of TCP Reno throughput (Padhye, Firoiu, Towsley, Kurose 1998), as seed 003
eqs. (2)-(5) and (13) use it. Vectorised over numpy arrays; inverses by bracketed root
finding (scipy's brentq) with clear errors where no inverse exists.

Errata (the seed's text extraction lost symbols; restored from PFTK 1998):
- eq. (3) is W(p) = (2+b)/(3b) + sqrt(8(1-p)/(3bp) + ((2+b)/(3b))^2) — the `p` under the
  root's first term is missing in the seed;
- eq. (2), window-limited branch: the round duration is R(W_max/8 + (1-p)/(p W_max) + 2),
  as in eq. (13) — the seed prints W_max/2 there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq


@dataclass(frozen=True)
class TcpModel:
    """Parameters of the PFTK model besides p and R."""

    #: Packet size, bytes (the paper's M is in bits: throughput is M·8 per packet).
    packet_bytes: float = 1500.0
    #: Packets acknowledged per ACK (1 without delayed ACKs, 2 with).
    b: float = 1.0
    #: Receiver window, packets (infinite: the window never limits).
    w_max: float = math.inf
    #: Basic (non-backed-off) timeout T0, s; None: `t0_rtts` x R.
    t0: float | None = None
    #: T0 in round-trip times when `t0` is None: 5, as seed 003 says is typical.
    t0_rtts: float = 5.0
    #: Lower bound of T0, s (an RTO floor such as RFC 6298's or Linux's 200 ms).
    min_t0: float = 0.0

    def __post_init__(self) -> None:
        if not self.packet_bytes > 0:
            raise ValueError(f"packet_bytes = {self.packet_bytes}; allowed: > 0")
        if not self.b >= 1:
            raise ValueError(f"b = {self.b}; allowed: >= 1 packet per ACK")
        if not self.w_max >= 1:
            raise ValueError(f"w_max = {self.w_max}; allowed: >= 1 packet")
        if self.t0 is not None and not self.t0 > 0:
            raise ValueError(f"t0 = {self.t0}; allowed: > 0 seconds (or None for t0_rtts x R)")
        if not self.t0_rtts > 0 or not self.min_t0 >= 0:
            raise ValueError(f"t0_rtts = {self.t0_rtts}, min_t0 = {self.min_t0}; allowed: t0_rtts > 0, min_t0 >= 0")


def expected_window(p, b: float = 1.0):
    """E[W] of an unconstrained window, packets (seed 003 eq. (3), PFTK eq. (13))."""
    p = np.asarray(p, dtype=float)
    k = (2.0 + b) / (3.0 * b)
    return k + np.sqrt(8.0 * (1.0 - p) / (3.0 * b * p) + k * k)


def timeout_probability(p, w):
    """Q(p, w): probability that a loss is detected by a timeout (seed 003 eq. (4))."""
    p, w = np.asarray(p, dtype=float), np.asarray(w, dtype=float)
    q = 1.0 - p
    value = (1.0 - q**3) * (1.0 + q**3 * (1.0 - q ** (w - 3.0))) / (1.0 - q**w)
    return np.minimum(1.0, value)


def backoff_factor(p):
    """F(p) = 1 + p + 2p^2 + ... + 32p^6 (seed 003 eq. (5))."""
    p = np.asarray(p, dtype=float)
    return 1 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6


def _check_p(p) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    if np.any(~((p > 0) & (p < 1))):
        raise ValueError("p must lie in (0, 1): the model has no throughput for p = 0 (unbounded) or p = 1")
    return p


def _t0(model: TcpModel, rtt):
    if model.t0 is not None:
        return model.t0
    return np.maximum(model.min_t0, model.t0_rtts * np.asarray(rtt, dtype=float))


def throughput(p, rtt, model: TcpModel = TcpModel()):
    """T(p, R) in bits per second (seed 003 eq. (2))."""
    p = _check_p(p)
    rtt = np.asarray(rtt, dtype=float)
    window = expected_window(p, model.b)
    limited = window >= model.w_max
    w_eff = np.where(limited, model.w_max, window)
    q_to = timeout_probability(p, w_eff)
    timeouts = q_to * backoff_factor(p) * _t0(model, rtt) / (1.0 - p)
    packets = (1.0 - p) / p + w_eff / 2.0 + q_to
    rounds = np.where(
        limited,
        rtt * (model.w_max / 8.0 + (1.0 - p) / (p * model.w_max) + 2.0),  # eq. (2), second branch
        rtt * (window / 2.0 + 1.0),
    )  # eq. (2), first branch
    return 8.0 * model.packet_bytes * packets / (rounds + timeouts)


def period(p, rtt, model: TcpModel = TcpModel()):
    """Average TCP period E[S], s: the recommended averaging interval I = P (seed 003 eq. (13))."""
    p = _check_p(p)
    rtt = np.asarray(rtt, dtype=float)
    window = expected_window(p, model.b)
    limited = window >= model.w_max
    w_eff = np.where(limited, model.w_max, window)
    timeouts = timeout_probability(p, w_eff) * backoff_factor(p) * _t0(model, rtt) / (1.0 - p)
    rounds = np.where(
        limited, rtt * (model.w_max / 8.0 + (1.0 - p) / (p * model.w_max) + 2.0), rtt * (window / 2.0 + 1.0)
    )
    return rounds + timeouts


def _solve(function, low: float, high: float, what: str) -> float:
    f_low, f_high = function(low), function(high)
    if f_low == 0:
        return low
    if f_high == 0:
        return high
    if np.sign(f_low) == np.sign(f_high):
        raise ValueError(what)
    return float(brentq(function, low, high, xtol=1e-15, rtol=1e-13, maxiter=500))


def rtt_for(p: float, target_bps: float, model: TcpModel = TcpModel()) -> float:
    """T_R^{-1}(p, y): the RTT at which T(p, R) = y (decreasing in R)."""
    _check_p(p)
    if not target_bps > 0:
        raise ValueError(f"target throughput {target_bps} b/s; allowed: > 0")
    high = 1.0
    while float(throughput(p, high, model)) > target_bps and high < 1e9:
        high *= 10.0
    low = 1e-12
    return _solve(
        lambda r: float(throughput(p, r, model)) - target_bps,
        low,
        high,
        f"no RTT gives {target_bps:g} b/s at p = {p:g}: the throughput at R -> 0 is "
        f"{float(throughput(p, low, model)):g} b/s (timeouts bound it when T0 is fixed)",
    )


def p_for(target_bps: float, rtt: float, model: TcpModel = TcpModel()) -> float:
    """T_p^{-1}(y, R): the drop probability at which T(p, R) = y (decreasing in p)."""
    if not target_bps > 0:
        raise ValueError(f"target throughput {target_bps} b/s; allowed: > 0")
    if not rtt > 0:
        raise ValueError(f"rtt {rtt} s; allowed: > 0")
    low, high = 1e-12, 1.0 - 1e-12
    return _solve(
        lambda p: float(throughput(p, rtt, model)) - target_bps,
        low,
        high,
        f"no drop probability in (0, 1) gives {target_bps:g} b/s at R = {rtt:g} s (the model spans "
        f"{float(throughput(high, rtt, model)):g} to {float(throughput(low, rtt, model)):g} b/s)",
    )
