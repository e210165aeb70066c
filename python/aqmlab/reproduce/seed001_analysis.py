"""Seed 001 Section IV as computations: the example after Lemma 4.1, Lemmas 4.2-4.3 on it, the
largest number of flows with a delay-based equilibrium, and Theorem 4.4 on a network.

Plain functions over the fluid models `cx-tcp` (eqs. 2-4) and `cx-tcp-network` (eqs. 16, 17,
22), no packet simulation; the reproductions that state the claims are in
`seed001_section4.py`.

* Lemma 4.1 (eqs. 5-6): equilibria are W* = sqrt(2/p(δ)) with sqrt(2/p(δ)) Σ 1/(RTT_i + δ) = C;
  at most one root in region A (δ_min, δ_th], at most two in region B (δ_th, δ_max).
* Lemmas 4.2/4.3: the region-A equilibrium is locally asymptotically stable, the region-B one
  unstable. Judged here by the eigenvalues of the Jacobian of eqs. (2)-(3) at each equilibrium
  (the model has no feedback delay, so the Jacobian decides), and by integrating eqs. (2)-(3)
  from 1 % above and below the region-B equilibrium (Lemma 4.3's invariant set S lies above it).
* Comment after Lemma 4.2: the largest N with a region-A equilibrium is where eq. (5) meets the
  apex δ = δ_th: N_max = C (RTT + δ_th) sqrt(p_max/2) for identical RTTs.
* Theorem 4.4: every fixed point of eqs. (16), (17), (22) is enumerated (each route's branch of
  eq. 22 — eq. 20 or eq. 21 — fixed in turn, every set of bottleneck links, several starts) and
  classified by its Jacobian: the theorem says exactly one is asymptotically stable and all
  others unstable.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import fsolve

from aqmlab.fluid import get_model, integrate
from aqmlab.stability import linearise

#: Relative finite-difference step for Jacobians of the network model.
JACOBIAN_STEP = 1e-6


def single_bottleneck_equilibria(params: dict[str, float] | None = None, options: dict[str, str] | None = None):
    """Lemma 4.1 on the `cx-tcp` model (defaults: the paper's example, C = 100 Mb/s in 1000-byte
    packets, RTT 200 ms, N = 400, δ_min/δ_th/δ_max = 5/20/100 ms, p_max = 0.05). Returns one dict
    per equilibrium: region, queueing delay (s), window, largest real part of the Jacobian's
    eigenvalues (1/s)."""
    model = get_model("cx-tcp", **(options or {}))
    P, _ = model.resolve(params or {})
    eq, regions = model.equilibria(P, 1)
    rows = []
    for row in range(eq.shape[0]):
        if not regions[row, 0]:
            continue
        state = eq[row, :, 0]
        jacobian = linearise(model, params or {}, equilibrium=state).A0
        rows.append(
            {
                "region": str(regions[row, 0]),
                "delay_s": float(state[-1] / float(np.ravel(P["C"])[0])),
                "window": float(state[0]),
                "max_real_eigenvalue": float(np.max(np.linalg.eigvals(jacobian).real)),
                "state": state,
            }
        )
    return rows


def leaves_region_b(params: dict[str, float] | None = None, *, perturbation: float = 0.01, t_end: float = 60.0):
    """Lemma 4.3 by integration: from (1 ± perturbation) × the region-B equilibrium, the queueing
    delay at `t_end` (s) of each start; above, the queue grows towards δ_max, below, it falls
    to the region-A equilibrium."""
    rows = {row["region"]: row for row in single_bottleneck_equilibria(params)}
    if "B" not in rows:
        raise ValueError("no region-B equilibrium for these parameters (Lemma 4.1 needs one)")
    model = get_model("cx-tcp")
    P, _ = model.resolve(params or {})
    finals = {}
    for label, factor in (("above", 1.0 + perturbation), ("below", 1.0 - perturbation)):
        result = integrate(model, params or {}, history=rows["B"]["state"] * factor, t_end=t_end)
        finals[label] = float(result.final()[0, -1] / float(np.ravel(P["C"])[0]))
    return finals


def max_delay_based_flows(capacity_pps: float, rtt_s: float, *, delta_th: float = 0.020, p_max: float = 0.05) -> float:
    """Comment after Lemma 4.2: the largest N for which eq. (5) has a root left of the apex δ_th,
    identical RTTs: N (2/p_max)^(1/2) / (RTT + δ_th) = C at the apex."""
    return capacity_pps * (rtt_s + delta_th) * math.sqrt(p_max / 2.0)


# --- Theorem 4.4 -------------------------------------------------------------------------------


@dataclass
class FixedPoint:
    """One equilibrium of eqs. (16), (17), (22)."""

    branches: tuple[str, ...]  # per route: "A" (eq. 20) or "B" (eq. 21)
    active: tuple[int, ...]  # links with q_j > 0
    delays_s: np.ndarray  # per route δ_i
    windows: np.ndarray  # per route W_i
    queues: np.ndarray  # per link q_j (packets)
    max_real_eigenvalue: float

    @property
    def stable(self) -> bool:
        return self.max_real_eigenvalue < 0


def _branch_p(delta: np.ndarray, branches: tuple[str, ...], P: dict[str, float]) -> np.ndarray:
    """eq. (20) (K δ, K = p_max/δ_th) or eq. (21) (p_0 − K̃ δ, K̃ = p_max/(δ_max − δ_th),
    p_0 = K̃ δ_max) per route, each extended beyond its own region (validity checked after)."""
    k_fall = P["p_max"] / (P["delta_max"] - P["delta_th"])
    rise = P["p_max"] / P["delta_th"] * delta
    fall = k_fall * (P["delta_max"] - delta)
    return np.where(np.array(branches) == "A", rise, fall)


def _network_jacobian(model, state: np.ndarray, active: tuple[int, ...], P: dict[str, Any]) -> np.ndarray:
    """Jacobian of eqs. (16)-(17) in the windows and the queues of the active links (an idle
    link's queue stays at 0 near the point: its load is below capacity), central differences."""
    routes = model.A.shape[0]
    keep = list(range(routes)) + [routes + j for j in active]
    jacobian = np.empty((len(keep), len(keep)))
    for column, index in enumerate(keep):
        step = JACOBIAN_STEP * max(1.0, abs(state[index]))
        up, down = state.copy(), state.copy()
        up[index] += step
        down[index] -= step
        f_up = model.rhs(0.0, up[:, None], [], P)[:, 0]
        f_down = model.rhs(0.0, down[:, None], [], P)[:, 0]
        jacobian[:, column] = (f_up - f_down)[keep] / (2 * step)
    return jacobian


def network_fixed_points(options: dict[str, str] | None = None, params: dict[str, float] | None = None):
    """Every fixed point of the `cx-tcp-network` model (Theorem 4.4's system) that the
    enumeration finds, classified by its Jacobian. Distinct points only (queues within 1e-6
    packets)."""
    model = get_model("cx-tcp-network", **(options or {}))
    P_batch, _ = model.resolve(params or {})
    P = {key: float(np.ravel(value)[0]) for key, value in P_batch.items()}
    A, capacities, rtts = model.A, model.capacities, model.rtts
    routes, links = A.shape
    starts = np.array([1e-4, 1e-3, 1e-2, 0.5, 0.9, 0.99, 0.999]) * P["delta_max"]
    found: list[FixedPoint] = []
    for branches in itertools.product("AB", repeat=routes):
        for size in range(links, 0, -1):
            for active in itertools.combinations(range(links), size):
                if not np.all(A[:, list(active)].sum(axis=1) > 0):
                    continue  # a route without a queue has p = 0 and an unbounded window

                def parts(u, active=active, branches=branches):
                    d = np.zeros(links)
                    d[list(active)] = np.exp(u)  # q_j/C_j > 0 on active links
                    delta = A @ d
                    p = _branch_p(delta, branches, P)
                    windows = np.sqrt(2.0 / np.maximum(p, 1e-300))  # eq. (18)
                    load = A.T @ (windows / (rtts + delta)) / capacities  # eq. (19)
                    return d, delta, p, windows, load

                def residual(u, active=active, branches=branches):
                    return np.log(parts(u, active, branches)[4][list(active)])

                for start in itertools.product(starts, repeat=len(active)):
                    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # failed starts
                        u, _, ier, _ = fsolve(residual, np.log(np.array(start)), xtol=1e-13, full_output=True)
                        d, delta, p, windows, load = parts(u, active, branches)
                        off = np.max(np.abs(residual(u, active, branches)))
                    idle = [j for j in range(links) if j not in active]
                    in_region = np.where(
                        np.array(branches) == "A",
                        (delta > 0) & (delta <= P["delta_th"]),
                        (delta > P["delta_th"]) & (delta < P["delta_max"]),
                    )
                    if (
                        ier != 1
                        or not off <= 1e-9
                        or not np.all(in_region)
                        or np.any(load[idle] > 1.0)
                        or np.any(p <= 0)
                    ):
                        continue
                    queues = d * capacities
                    if any(np.allclose(point.queues, queues, atol=1e-6, rtol=0) for point in found):
                        continue
                    state = np.concatenate([windows, queues])
                    jacobian = _network_jacobian(model, state, active, P_batch)
                    found.append(
                        FixedPoint(
                            branches=tuple(branches),
                            active=tuple(active),
                            delays_s=delta,
                            windows=windows,
                            queues=queues,
                            max_real_eigenvalue=float(np.max(np.linalg.eigvals(jacobian).real)),
                        )
                    )
    return found
