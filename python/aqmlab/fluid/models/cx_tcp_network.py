"""Cx-TCP over a network of bottlenecks: seed 001 eqs. (16), (17), (22).

    Ẇ_i = 1/(RTT_i + δ_i) · (1 − p_i(δ_i) W_i²/2),  δ_i = Σ_{j∈i} q_j/C_j          (16)
    q̇_j = Σ_{i∋j} W_i/(RTT_i + δ_i) − C_j, held at 0 when q_j = 0                   (17)
    p_i(δ) = K δ on [0, δ_th], p_0 − K̃ δ on (δ_th, δ_max], 0 beyond                  (22)

with K = p_max/δ_th, K̃ = p_max/(δ_max − δ_th), p_0 = K̃ δ_max (continuous at δ_th). W_i is the
window of route i (routes x links routing matrix). No feedback delay (RTTs enter the rates).
Equilibrium (eqs. 18-19): W_i = sqrt(2/p_i) and, at every bottleneck link (q_j > 0),
Σ_{i∋j} W_i/(RTT_i + δ_i) = C_j, while links with q_j = 0 carry at most C_j; every route in
region A (the setting of Theorem 4.4). Solved numerically (scipy fsolve on the log-loads in
log-delays) over the sets of bottleneck links, largest first.
Default network: two links of 1250 packets/s, route 0 over both, routes 1 and 2 over one each
(a parking lot), RTTs 100, 80, 120 ms.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import fsolve

from aqmlab.fluid.models._util import floats, routing
from aqmlab.fluid.models.base import FluidError, FluidModel, Param

W_FLOOR = 1e-3


def _active_sets(links: int):
    """Subsets of links (as index arrays), largest first."""
    from itertools import combinations

    for size in range(links, 0, -1):
        for subset in combinations(range(links), size):
            yield np.array(subset)


def backoff22(delta, P):
    """eq. (22) with K = p_max/δ_th, K̃ = p_max/(δ_max − δ_th), p_0 = K̃ δ_max."""
    k_fall = P["p_max"] / (P["delta_max"] - P["delta_th"])
    rise = P["p_max"] / P["delta_th"] * delta  # eq. (20): K δ
    fall = k_fall * (P["delta_max"] - delta)  # eq. (21): p_0 − K̃ δ
    return np.where(delta <= P["delta_th"], np.maximum(rise, 0.0), np.where(delta < P["delta_max"], fall, 0.0))


class CxTcpNetwork(FluidModel):
    name = "cx-tcp-network"
    title = "Cx-TCP routes over a network of bottlenecks (seed 001 eqs. 16-17, 22)"
    source = "seed 001 eqs. (16)-(22), Theorem 4.4"
    options = {
        "routing": ("1 1; 1 0; 0 1", "routes x links 0/1 matrix, rows separated by ';'"),
        "rtts": ("0.1,0.08,0.12", "route round-trip times, s"),
        "capacities": ("1250,1250", "link capacities, packets/s"),
    }
    delay_names = ()

    def __init__(self, routing_matrix="1 1; 1 0; 0 1", rtts="0.1,0.08,0.12", capacities="1250,1250", **kw):
        if "routing" in kw:
            routing_matrix = kw.pop("routing")
        if kw:
            raise FluidError(
                f"option {next(iter(kw))!r} is not an option of cx-tcp-network; allowed: {', '.join(self.options)}"
            )
        self.A = routing("routing", routing_matrix)
        n_routes, n_links = self.A.shape
        self.rtts = floats("rtts", rtts, length=n_routes)
        self.capacities = floats("capacities", capacities, length=n_links)
        self.option_values = {
            "routing": self.A.tolist(),
            "rtts": self.rtts.tolist(),
            "capacities": self.capacities.tolist(),
        }
        self.state_names = tuple(f"W{i}" for i in range(n_routes)) + tuple(f"q{j}" for j in range(n_links))
        self.units = ("packets",) * (n_routes + n_links)
        self.params = {
            "delta_th": Param(0.02, "s", "apex of the backoff function δ_th (eq. 22)", 0.0, low_open=True),
            "delta_max": Param(0.1, "s", "backoff ends at δ_max (eq. 22)", 0.0, low_open=True),
            "p_max": Param(0.05, "1", "backoff probability at δ_th (= K δ_th, eq. 22)", 0.0, 1.0, low_open=True),
        }

    def check(self, P):
        if np.any(np.asarray(P["delta_th"]) >= np.asarray(P["delta_max"])):
            raise FluidError("delta_th must be below delta_max; allowed: delta_th < delta_max (s)")

    def delays(self, P):
        return []

    def default_step(self, P):
        return float(self.rtts.min()) / 20.0

    def phase_delay(self, P):
        return float(self.rtts.min())

    def _rates(self, W, q, P):
        delta = self.A @ (q / self.capacities[:, None])  # δ_i = Σ_{j∈i} q_j/C_j
        rtt = self.rtts[:, None] + delta
        return delta, rtt

    def rhs(self, t, y, lag, P):
        R = self.A.shape[0]
        W, q = y[:R], y[R:]
        delta, rtt = self._rates(W, q, P)
        p = backoff22(delta, P)
        dy = np.empty_like(y)
        dy[:R] = (1.0 - 0.5 * p * W * W) / rtt  # eq. (16)
        dq = self.A.T @ (W / rtt) - self.capacities[:, None]  # eq. (17), q_j > 0
        dy[R:] = np.where(q <= 0.0, np.maximum(dq, 0.0), dq)  # eq. (17), q_j = 0: {·}^+
        return dy

    def bounds(self, P):
        R, L = self.A.shape
        return np.concatenate([np.full(R, W_FLOOR), np.zeros(L)])[:, None], np.full((R + L, 1), np.inf)

    def equilibrium(self, P, size):
        R, L = self.A.shape
        out = np.empty((R + L, size))
        for b in range(size):
            P1 = {key: (float(value[b]) if np.ndim(value) else value) for key, value in P.items()}

            def windows(d, P1=P1):
                delta = self.A @ d  # δ_i = Σ_{j∈i} q_j/C_j
                p = backoff22(delta, P1)
                return np.sqrt(2.0 / np.maximum(p, 1e-300)), delta  # eq. (18)

            def loads(d):  # Σ_{i∋j} W_i/(RTT_i + δ_i) / C_j, eq. (19)
                W, delta = windows(d)
                return self.A.T @ (W / (self.rtts + delta)) / self.capacities

            found = None
            # active sets: every link a bottleneck first, then fewer (a link with q_j = 0 must have load <= 1)
            for active in _active_sets(L):
                if not np.all(self.A[:, active].sum(axis=1) > 0):
                    continue  # every route needs a queue somewhere, else p = 0 and W is unbounded

                def residual(u, active=active):
                    d = np.zeros(L)
                    d[active] = np.exp(u)
                    return np.log(loads(d)[active])

                for start in (1e-3, 1e-5, 1e-2, 1e-1):
                    u, info, ier, message = fsolve(
                        residual, np.full(len(active), np.log(start * P1["delta_th"])), xtol=1e-14, full_output=True
                    )
                    d = np.zeros(L)
                    d[active] = np.exp(u)
                    W, delta = windows(d)
                    idle = np.setdiff1d(np.arange(L), active)
                    if (
                        np.max(np.abs(residual(u))) < 1e-11
                        and np.all(delta <= P1["delta_th"])
                        and np.all(loads(d)[idle] <= 1.0 + 1e-12)
                    ):
                        found = d
                        break
                if found is not None:
                    break
            if found is None:
                raise FluidError(
                    f"cx-tcp-network: no equilibrium with every route in region A at point {b}; "
                    "allowed: capacities/RTTs for which every route's delay settles below delta_th"
                )
            q = found * self.capacities
            out[:R, b] = W
            out[R:, b] = q
        return out

    def outputs(self, states, P):
        R = self.A.shape[0]
        q = states[:, R:, :]
        delta = np.einsum("rl,tlb->trb", self.A, q / self.capacities[None, :, None])
        out = {f"delay{i}": delta[:, i, :] for i in range(R)}
        return out
