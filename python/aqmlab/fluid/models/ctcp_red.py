"""TCP (Compound by default) with RED and queue averaging: seed 000 eqs. (1), (3)-(9), (19).

States: w (average window, packets), q (scaled queue, packets), r (RED average queue,
packets). The paper writes the third state as the probability p (eq. 8); eq. (8) is eq. (5)
composed with the affine law (7), so using r (eq. 5) and p = law(r) is the same system, and it
also admits the full piecewise law of eq. (6) (option ``red_law='piecewise'``).
Delay: τ (w and p are fed back after one round-trip time).
"""

from __future__ import annotations

import math

import numpy as np

from aqmlab.fluid.models._window_model import BASE_PARAMS, W_FLOOR, WindowModel, queue_rate, tcp_option
from aqmlab.fluid.models.base import FluidError, Param
from aqmlab.fluid.models.red_laws import (
    RED_LAWS,
    RED_PARAMS,
    check_red_law,
    check_thresholds,
    prepare_red,
    red_inverse,
    red_probability,
)
from aqmlab.fluid.models.window_laws import queue_equilibrium_window


class CtcpRed(WindowModel):
    name = "ctcp-red"
    title = "TCP window law + queue + RED with averaging (seed 000 eqs. 1-9, 19)"
    source = "seed 000 eqs. (1), (3)-(9), (10), (19)"
    options = {"tcp": tcp_option(), "red_law": ("affine", ", ".join(RED_LAWS))}
    state_names = ("w", "q", "r")
    units = ("packets", "packets", "packets")

    def __init__(self, tcp: str = "compound", red_law: str = "affine"):
        super().__init__(tcp)
        self.red_law = check_red_law(red_law)
        self.option_values = {"tcp": tcp, "red_law": red_law}
        self.params = {
            **BASE_PARAMS,
            **self.law.params,
            "gamma": Param(
                1e-4, "1", "RED averaging parameter γ; weight γC̃ per second (seed 000 eq. 5)", 0.0, 1.0, low_open=True
            ),
            **RED_PARAMS,
            "buffer": Param(math.inf, "packets", "buffer B (seed 000 eq. 3)", 0.0, low_open=True, allow_inf=True),
        }

    def check(self, P):
        check_thresholds(P)

    def prepare(self, P):
        Q = super().prepare(P)
        prepare_red(Q)
        Q["_g"] = P["kappa"] * P["gamma"] * P["C"]
        return Q

    def rhs(self, t, y, lag, P):
        w, q, r = y[0], y[1], y[2]
        p_lag = red_probability(self.red_law, lag[0, 2], P)  # p(t − τ) from r(t − τ), eqs. (6)/(7)
        p = red_probability(self.red_law, r, P)
        dy = np.empty_like(y)
        self.window_rate(w, lag[0, 0], p_lag, P, out=dy[0])  # eq. (9)/(19), first line
        dy[1] = queue_rate(q, w, p, P, P["buffer"])  # eq. (9)/(19), second line; boundaries eq. (4)
        np.subtract(q, r, out=dy[2])
        dy[2] *= P["_g"] if "_g" in P else P["kappa"] * P["gamma"] * P["C"]  # eq. (5) (eq. (8) in r), κ of eq. (19)
        return dy

    def bounds(self, P):
        # w >= floor; 0 <= q, r <= B (eq. 3)
        return np.array([[W_FLOOR], [0.0], [0.0]]), np.array([[np.inf], [1.0], [1.0]]) * np.asarray(P["buffer"])

    def equilibrium(self, P, size):
        w, p = queue_equilibrium_window(self.law, P, size)  # eq. (10)
        q = red_inverse(self.red_law, p, P)  # eq. (10): q* = p*/ρ + b (affine part)
        if np.any(q > P["buffer"]):
            raise FluidError(
                "buffer is smaller than the equilibrium queue q*; allowed: buffer > q* "
                f"(q* = {float(np.max(q)):.4g} packets)"
            )
        y = np.empty((3, size))
        y[0], y[1], y[2] = w, q, q  # r* = q* (eq. 5)
        return y

    def outputs(self, states, P):
        return {"p": red_probability(self.red_law, states[:, 2, :], P)}
