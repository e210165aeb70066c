"""A fluid model in a user's file: Kelly's primal rate control on one link with a delay."""

import numpy as np
from aqmlab.fluid import FluidModel, Param


class PrimalOneLink(FluidModel):
    name = "primal-one-link"
    title = "Primal rate control on one link, price p(y) = y/C"
    source = "Kelly, Maulloo & Tan 1998 eq. (5); delay stability: Johari & Tan 2001"
    state_names, units, delay_names = ("x",), ("packets/s",), ("tau",)
    params = {
        "kappa": Param(1.0, "1/s", "gain κ", 0.0, low_open=True),
        "tau": Param(0.1, "s", "round-trip time τ", 0.0, low_open=True),
        "w": Param(10.0, "packets/s", "willingness to pay w", 0.0, low_open=True),
        "C": Param(100.0, "packets/s", "capacity C", 0.0, low_open=True),
    }

    def delays(self, P):
        return [P["tau"]]

    def rhs(self, t, y, lag, P):
        x = lag[0, 0]  # x(t − τ): ẋ = κ (w − x(t − τ) p(x(t − τ))), Kelly et al. eq. (5)
        return (P["kappa"] * (P["w"] - x * x / P["C"]))[None, :]

    def bounds(self, P):
        return np.zeros((1, 1)), np.full((1, 1), np.inf)

    def equilibrium(self, P, size):  # x p(x) = w: x* = √(w C)
        return np.broadcast_to(np.sqrt(np.asarray(P["w"] * P["C"], dtype=float)), (size,))[None, :].copy()
