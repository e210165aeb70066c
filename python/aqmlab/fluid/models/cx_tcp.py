"""Cx-TCP, N flows through one bottleneck: seed 001 eqs. (2)-(4), Algorithm 1, Lemma 4.1.

    Ẇ_i = 1/(RTT_i + δ) · (1 − p(δ) W_i²/2)                      (2)
    q̇   = Σ_i n_i W_i/(RTT_i + δ) − C, held at 0 when q = 0      (3)
    δ   = q/C

p(δ) is the two-sided backoff function of Algorithm 1 / Fig. 1 (zero outside (δ_min, δ_max)):
p_max (δ − δ_min)/(δ_th − δ_min) on (δ_min, δ_th], p_max (δ_max − δ)/(δ_max − δ_th) on
(δ_th, δ_max). The paper's eq. (4) writes the same function after the change of variables
τ_i = RTT_i + δ_min, δ → δ − δ_min, q → q − Cδ_min (p = Kδ, then p_0 − K̃δ); here the
unshifted variables are kept, so q is the real queue. Flows are grouped in classes of
identical flows (``rtts``, ``counts``): n_i identical flows with identical initial windows stay
identical, so a class is one state. The model has no feedback delay (the RTT enters only the
rates); :meth:`default_step` is a twentieth of the shortest RTT.

Lemma 4.1: at an equilibrium all windows are W* = sqrt(2/p(δ)) and δ solves
sqrt(2/p(δ)) Σ n_i/(RTT_i + δ) = C (eq. 5 in region A, eq. 6 in region B); there is at most one
root in region A (stable, Lemma 4.2) and at most two in region B (unstable, Lemma 4.3).
:meth:`equilibria` returns all of them, :meth:`equilibrium` the region-A one.
Defaults: the example after Lemma 4.1 (C = 100 Mb/s, here 12 500 packets/s of 1000 bytes — the
paper gives no packet size —, RTT 200 ms, N = 400, δ_min = 5, δ_th = 20, δ_max = 100 ms,
p_max = 0.05).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from aqmlab.fluid.models._util import floats
from aqmlab.fluid.models.base import FluidError, FluidModel, Param

CX_PARAMS = {
    "C": Param(12500.0, "packets/s", "bottleneck capacity C (seed 001 eq. 3)", 0.0, low_open=True),
    "delta_min": Param(0.005, "s", "backoff starts above this queueing delay δ_min (Algorithm 1)", 0.0),
    "delta_th": Param(0.020, "s", "apex of the backoff function δ_th (Algorithm 1)", 0.0, low_open=True),
    "delta_max": Param(0.100, "s", "backoff ends at δ_max (Algorithm 1)", 0.0, low_open=True),
    "p_max": Param(0.05, "1", "backoff probability at the apex p_max (Algorithm 1)", 0.0, 1.0, low_open=True),
    "buffer": Param(
        math.inf, "packets", "buffer (queue projected onto [0, buffer])", 0.0, low_open=True, allow_inf=True
    ),
}
W_FLOOR = 1e-3


def backoff(delta, P):
    """Algorithm 1 / Fig. 1: two-sided backoff probability (eq. 4 / eq. 22 after the shift)."""
    rise = P["p_max"] * (delta - P["delta_min"]) / (P["delta_th"] - P["delta_min"])
    fall = P["p_max"] * (P["delta_max"] - delta) / (P["delta_max"] - P["delta_th"])
    return np.where(
        delta <= P["delta_min"],
        0.0,
        np.where(delta <= P["delta_th"], rise, np.where(delta < P["delta_max"], fall, 0.0)),
    )


def check_backoff(P) -> None:
    if np.any(np.asarray(P["delta_min"]) >= np.asarray(P["delta_th"])) or np.any(
        np.asarray(P["delta_th"]) >= np.asarray(P["delta_max"])
    ):
        raise FluidError("delta_min, delta_th, delta_max must increase; allowed: delta_min < delta_th < delta_max (s)")


class CxTcp(FluidModel):
    name = "cx-tcp"
    title = "Cx-TCP flows through one bottleneck (seed 001 eqs. 2-4)"
    source = "seed 001 eqs. (2)-(6), Algorithm 1, Lemmas 4.1-4.3"
    options = {
        "rtts": ("0.2", "per-class round-trip times, s (comma list)"),
        "counts": ("400", "flows per class (comma list; one value applies to every class)"),
    }
    delay_names = ()

    def __init__(self, rtts="0.2", counts="400"):
        self.rtts = floats("rtts", rtts)
        counts = floats("counts", counts)
        if counts.size == 1:
            counts = np.full(self.rtts.size, counts[0])  # one value: that many flows in every class
        self.counts = floats("counts", counts, length=self.rtts.size)
        self.option_values = {"rtts": self.rtts.tolist(), "counts": self.counts.tolist()}
        k = self.rtts.size
        self.state_names = tuple(f"W{i}" for i in range(k)) + ("q",)
        self.units = ("packets",) * k + ("packets",)
        self.params = dict(CX_PARAMS)

    def check(self, P):
        check_backoff(P)

    def delays(self, P):
        return []

    def default_step(self, P):
        return float(self.rtts.min()) / 20.0

    def phase_delay(self, P):
        return float(self.rtts.min())

    def rhs(self, t, y, lag, P):
        k = self.rtts.size
        W, q = y[:k], y[k]
        delta = q / P["C"]
        rtt = self.rtts[:, None] + delta  # RTT_i + δ(t)
        p = backoff(delta, P)
        dy = np.empty_like(y)
        dy[:k] = (1.0 - 0.5 * p * W * W) / rtt  # eq. (2)
        dq = (self.counts[:, None] * W / rtt).sum(axis=0) - P["C"]  # eq. (3), q > 0
        dq = np.where(q <= 0.0, np.maximum(dq, 0.0), dq)  # eq. (3), q = 0: {·}^+
        dy[k] = np.where(q >= P["buffer"], np.minimum(dq, 0.0), dq)
        return dy

    def bounds(self, P):
        k = self.rtts.size
        low = np.concatenate([np.full(k, W_FLOOR), [0.0]])[:, None]
        size = np.size(P["buffer"])
        high = np.full((k + 1, size), np.inf)
        high[k] = P["buffer"]  # queue in [0, buffer]
        return low, high

    def _balance(self, delta, P1):
        p = float(backoff(np.asarray(delta), P1))
        return math.sqrt(2.0 / p) * float(np.sum(self.counts / (self.rtts + delta))) - P1["C"]  # eqs. (5)/(6)

    def equilibria(self, P, size):
        """All equilibria: array (3, n_states, B), NaN where fewer exist; rows ordered by δ
        (the first one in region A when it exists), and the regions ('A'/'B') per row."""
        out = np.full((3, self.n_states, size), np.nan)
        regions = np.full((3, size), "", dtype=object)
        for b in range(size):
            P1 = {key: (float(value[b]) if np.ndim(value) else value) for key, value in P.items()}
            lo, th, hi = P1["delta_min"], P1["delta_th"], P1["delta_max"]
            grid = np.concatenate([np.linspace(lo, th, 801)[1:], np.linspace(th, hi, 1601)[1:-1]])
            values = np.array([self._balance(d, P1) for d in grid])
            roots = []
            for i in np.nonzero(np.sign(values[:-1]) != np.sign(values[1:]))[0]:
                roots.append(brentq(self._balance, grid[i], grid[i + 1], args=(P1,), xtol=1e-16, rtol=1e-15))
            for row, delta in enumerate(roots[:3]):
                W = math.sqrt(2.0 / float(backoff(np.asarray(delta), P1)))  # Lemma 4.1: W* = sqrt(2/p)
                out[row, :-1, b] = W
                out[row, -1, b] = delta * P1["C"]
                regions[row, b] = "A" if delta <= th else "B"
        return out, regions

    def equilibrium(self, P, size):
        eq, regions = self.equilibria(P, size)
        if np.any(regions[0] != "A"):
            bad = int(np.argmax(regions[0] != "A"))
            raise FluidError(
                f"cx-tcp: no equilibrium in region A (δ_min, δ_th] at point {bad}; allowed: parameters "
                "for which sqrt(2/p(δ)) Σ n_i/(RTT_i+δ) = C has a root there (seed 001 eq. 5)"
            )
        if np.any(eq[0, -1] > np.asarray(P["buffer"])):
            raise FluidError("buffer is smaller than the equilibrium queue; allowed: buffer > q*")
        return eq[0]

    def outputs(self, states, P):
        k = self.rtts.size
        delta = states[:, k, :] / P["C"]
        return {"delay": delta, "p": backoff(delta, P)}
