"""The ECN rate-based protocol on one resource: seed 004 eq. (13),

    ẋ(t) = κ (w − x(t − τ) p(x(t − τ)))                                             (13)

with the resource functions of eqs. (11), (12), (15) (option ``resource``). State: the total
rate x (packets/s). Delay: the common RTT τ. Equilibrium: x p(x) = w, closed form for
(11) (x = C (w/C)^(1/(B+1)) for w < C; x = w for w >= C, where p is capped at 1) and (12)
(x = C + w), numerical for (15).
Linearisation (eq. 14): u̇ = −κ (p + x p′) u(t − τ); the loop is stable iff
κτ(p + x p′) < π/2 (κτp(1 + B) < π/2 for eq. 11), with a Hopf bifurcation of period 4τ at equality.
"""

from __future__ import annotations

import numpy as np

from aqmlab.fluid.models.base import FluidError, FluidModel, Param, bisect_batch
from aqmlab.fluid.models.resources import RESOURCE_PARAMS, RESOURCES, check_resource, gain_at, marking, marking_rate


class Ecn(FluidModel):
    name = "ecn"
    title = "ECN rate-based protocol on one resource (seed 004 eq. 13)"
    source = "seed 004 eqs. (11)-(17)"
    options = {"resource": ("mm1", ", ".join(RESOURCES))}
    state_names = ("x",)
    units = ("packets/s",)
    delay_names = ("tau",)

    def __init__(self, resource: str = "mm1"):
        self.resource = check_resource(resource)
        self.option_values = {"resource": resource}
        self.params = {
            "kappa": Param(1.0, "1/s", "gain κ (eq. 13)", 0.0, low_open=True),
            "tau": Param(0.1, "s", "common round-trip time τ (eq. 13)", 0.0, low_open=True),
            "w": Param(10.0, "packets/s", "total weight w = Σ w_r (eq. 13)", 0.0, low_open=True),
            "C": Param(100.0, "packets/s", "resource capacity C (eqs. 11, 12, 15)", 0.0, low_open=True),
            **RESOURCE_PARAMS[resource],
        }

    def check(self, P):
        if self.resource == "gaussian" and np.any(np.asarray(P["w"]) >= np.asarray(P["C"])):
            raise FluidError("w must be below C for the gaussian resource; allowed: w < C (eq. 17 assumes w < C)")

    def delays(self, P):
        return [P["tau"]]

    def rhs(self, t, y, lag, P):
        return (P["kappa"] * (P["w"] - marking_rate(self.resource, lag[0, 0], P["C"], P)))[None, :]  # eq. (13)

    def bounds(self, P):
        return np.zeros((1, 1)), np.full((1, 1), np.inf)

    def equilibrium(self, P, size):
        w = np.broadcast_to(np.asarray(P["w"], dtype=float), (size,))
        C = np.broadcast_to(np.asarray(P["C"], dtype=float), (size,))
        if self.resource == "mm1":
            # x p(x) = w with p(y) = min(y/C, 1)^B (eq. 11 as a probability): x^(B+1)/C^B = w below
            # C; for w >= C every packet is marked at the equilibrium, p = 1 and x = w (the rate
            # eq. (13)'s own right-hand side converges to; the uncapped root would have p > 1).
            x = np.where(w >= C, w, C * (w / C) ** (1.0 / (P["B"] + 1.0)))
        elif self.resource == "overflow":
            x = C + w  # x − C = w
        else:
            x = bisect_batch(
                lambda x: marking_rate("gaussian", x, C, P) - w, 1e-9 * C, C, what="ecn gaussian equilibrium x p(x) = w"
            )
        return np.asarray(x, dtype=float)[None, :]

    def loop_gain(self, P, size):
        """κτ(p + x p′) at the equilibrium: < π/2 is stable, = π/2 is the Hopf point (seed 004)."""
        x = self.equilibrium(P, size)[0]
        return P["kappa"] * P["tau"] * gain_at(self.resource, x, P["C"], P)

    def outputs(self, states, P):
        return {"p": marking(self.resource, states[:, 0, :], P["C"], P)}
