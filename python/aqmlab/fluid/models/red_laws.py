"""RED drop-probability laws of seed 000 (eqs. 6-7), shared by the RED models.

Parameters (seed 000 Section II-C; errata in shared/seeds/README.md): minimum threshold
``b_min`` = b, maximum threshold ``b_max`` = b̄, maximum probability ``p_max`` = p̄,
ρ = p̄/(b̄ − b), η = (1 − p̄)/b̄.
"""

from __future__ import annotations

import numpy as np

from aqmlab.fluid.models.base import FluidError, Param, clip

RED_PARAMS = {
    "b_min": Param(50.0, "packets", "RED minimum threshold b (seed 000 eq. 6)", 0.0),
    "b_max": Param(550.0, "packets", "RED maximum threshold b̄ (seed 000 eq. 6)", 0.0, low_open=True),
    "p_max": Param(0.1, "1", "RED maximum drop probability p̄ (seed 000 eq. 6)", 0.0, 1.0, low_open=True),
}

RED_LAWS = ("affine", "piecewise")


def check_red_law(name: str) -> str:
    if name not in RED_LAWS:
        raise FluidError(f"red_law = {name!r}; allowed: {', '.join(RED_LAWS)}")
    return name


def check_thresholds(P) -> None:
    if np.any(np.asarray(P["b_max"]) <= np.asarray(P["b_min"])):
        raise FluidError("b_max must exceed b_min; allowed: b_min < b_max (packets)")


def prepare_red(Q) -> None:
    """Add ρ and ρb (the hot loop's constants) to the prepared parameters."""
    Q["_rho"] = Q["p_max"] / (Q["b_max"] - Q["b_min"])
    Q["_rhob"] = Q["_rho"] * Q["b_min"]


def red_probability(law: str, r, P):
    """p(r): 'affine' is eq. (7) p = ρ(r − b), projected onto [0, 1]; 'piecewise' is eq. (6)."""
    if law == "affine":
        if "_rho" in P:
            x = P["_rho"] * r
            x -= P["_rhob"]
            return clip(x, 0.0, 1.0, out=x)  # eq. (7), probability projected onto [0, 1]
        rho = P["p_max"] / (P["b_max"] - P["b_min"])
        return np.clip(rho * (r - P["b_min"]), 0.0, 1.0)  # eq. (7), probability projected onto [0, 1]
    rho = P["p_max"] / (P["b_max"] - P["b_min"])
    eta = (1.0 - P["p_max"]) / P["b_max"]
    middle = rho * (r - P["b_min"])  # eq. (6), b < r < b̄
    gentle = eta * r - (1.0 - 2.0 * P["p_max"])  # eq. (6), b̄ <= r < 2b̄
    return np.where(r <= P["b_min"], 0.0, np.where(r < P["b_max"], middle, np.where(r < 2.0 * P["b_max"], gentle, 1.0)))


def red_inverse(law: str, p, P):
    """The (average) queue at which the law gives probability p (0 < p < 1)."""
    rho = P["p_max"] / (P["b_max"] - P["b_min"])
    affine = P["b_min"] + p / rho  # eq. (10): q* = p*/ρ + b
    if law == "affine":
        return affine
    eta = (1.0 - P["p_max"]) / P["b_max"]
    return np.where(p <= P["p_max"], affine, (p + 1.0 - 2.0 * P["p_max"]) / eta)
