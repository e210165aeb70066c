"""TCP (Compound by default) with RED on the instantaneous queue (no averaging):
seed 000 eqs. (25)-(26) (with κ), and optionally the full piecewise law of eq. (6).

States: w (average window, packets), q (scaled queue, packets); p = ρ(q − b) (eq. 25).
Delay: τ.
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


class CtcpRedNoAveraging(WindowModel):
    name = "ctcp-red-noavg"
    title = "TCP window law + queue + RED on the instantaneous queue (seed 000 eqs. 25-26)"
    source = "seed 000 eqs. (25), (26) and the equilibrium below (26)"
    options = {"tcp": tcp_option(), "red_law": ("affine", ", ".join(RED_LAWS))}
    state_names = ("w", "q")
    units = ("packets", "packets")

    def __init__(self, tcp: str = "compound", red_law: str = "affine"):
        super().__init__(tcp)
        self.red_law = check_red_law(red_law)
        self.option_values = {"tcp": tcp, "red_law": red_law}
        self.params = {
            **BASE_PARAMS,
            **self.law.params,
            **RED_PARAMS,
            "buffer": Param(math.inf, "packets", "buffer B (seed 000 eq. 3)", 0.0, low_open=True, allow_inf=True),
        }

    def check(self, P):
        check_thresholds(P)

    def rhs(self, t, y, lag, P):
        w, q = y[0], y[1]
        p_lag = red_probability(self.red_law, lag[0, 1], P)  # eq. (25) at t − τ
        p = red_probability(self.red_law, q, P)  # eq. (25)
        dy = np.empty_like(y)
        self.window_rate(w, lag[0, 0], p_lag, P, out=dy[0])  # eq. (26), first line
        dy[1] = queue_rate(q, w, p, P, P["buffer"])  # eq. (26), second line; boundaries eq. (4)
        return dy

    def prepare(self, P):
        Q = super().prepare(P)
        prepare_red(Q)
        return Q

    def bounds(self, P):
        return np.array([[W_FLOOR], [0.0]]), np.array([[np.inf], [1.0]]) * np.asarray(P["buffer"])

    def equilibrium(self, P, size):
        w, p = queue_equilibrium_window(self.law, P, size)  # equilibrium below eq. (26)
        q = red_inverse(self.red_law, p, P)  # p* = ρ(q* − b)
        if np.any(q > P["buffer"]):
            raise FluidError(
                f"buffer is smaller than the equilibrium queue q* = {float(np.max(q)):.4g}; allowed: buffer > q*"
            )
        return np.stack([w, q])

    def outputs(self, states, P):
        return {"p": red_probability(self.red_law, states[:, 1, :], P)}
