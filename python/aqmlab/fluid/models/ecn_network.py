"""The ECN rate-based protocol on a network: seed 004 eqs. (9)-(10),

    ẋ_r(t) = κ (w_r − x_r(t − τ) Σ_{j∈r} μ_j(t − τ)),   μ_j(t) = p_j(Σ_{s∋j} x_s(t))      (9)-(10)

Eqs. (9)-(10) are printed without delay; the common round-trip time τ is added as in eq. (13)
(the paper's own delayed form for one resource). τ = 0 gives eqs. (9)-(10) exactly (then give
the step h). States: route rates x_r (packets/s). Equilibrium: w_r = x_r Σ_{j∈r} p_j(y_j),
solved numerically (scipy fsolve in log-rates). Default: two resources of 100 packets/s, route
0 over both, routes 1 and 2 over one each, weights 10 packets/s.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import fsolve

from aqmlab.fluid.models._util import floats, routing
from aqmlab.fluid.models.base import FluidError, FluidModel, Param
from aqmlab.fluid.models.resources import RESOURCE_PARAMS, RESOURCES, check_resource, marking


class EcnNetwork(FluidModel):
    name = "ecn-network"
    title = "ECN rate-based protocol over routes and resources (seed 004 eqs. 9-10)"
    source = "seed 004 eqs. (9)-(12), (15)"
    options = {
        "resource": ("mm1", ", ".join(RESOURCES)),
        "routing": ("1 1; 1 0; 0 1", "routes x resources 0/1 matrix"),
        "weights": ("10,10,10", "route weights w_r, packets/s"),
        "capacities": ("100,100", "resource capacities C_j, packets/s"),
    }
    delay_names = ("tau",)

    def __init__(self, resource="mm1", routing_matrix="1 1; 1 0; 0 1", weights="10,10,10", capacities="100,100", **kw):
        if "routing" in kw:
            routing_matrix = kw.pop("routing")
        if kw:
            raise FluidError(
                f"option {next(iter(kw))!r} is not an option of ecn-network; allowed: {', '.join(self.options)}"
            )
        self.resource = check_resource(resource)
        self.A = routing("routing", routing_matrix)
        R, J = self.A.shape
        self.weights = floats("weights", weights, length=R)
        self.capacities = floats("capacities", capacities, length=J)
        self.option_values = {
            "resource": resource,
            "routing": self.A.tolist(),
            "weights": self.weights.tolist(),
            "capacities": self.capacities.tolist(),
        }
        self.state_names = tuple(f"x{r}" for r in range(R))
        self.units = ("packets/s",) * R
        self.params = {
            "kappa": Param(1.0, "1/s", "gain κ_r, the same for every route (eq. 9)", 0.0, low_open=True),
            "tau": Param(0.1, "s", "round-trip time of every route (as in eq. 13); 0 = eqs. (9)-(10)", 0.0),
            **RESOURCE_PARAMS[resource],
        }

    def delays(self, P):
        return [P["tau"]]

    def default_step(self, P):
        return 0.005

    def _congestion(self, x, P):
        """Σ_{j∈r} μ_j with μ_j = p_j(Σ_{s∋j} x_s), shape (R, B)."""
        loads = self.A.T @ x  # y_j = Σ_{s∋j} x_s, eq. (10)
        mu = marking(self.resource, loads, self.capacities[:, None], P)  # μ_j = p_j(y_j)
        return self.A @ mu

    def rhs(self, t, y, lag, P):
        x_lag = lag[0]
        return P["kappa"] * (self.weights[:, None] - x_lag * self._congestion(x_lag, P))  # eq. (9)

    def bounds(self, P):
        R = self.A.shape[0]
        return np.zeros((R, 1)), np.full((R, 1), np.inf)

    def equilibrium(self, P, size):
        R = self.A.shape[0]
        out = np.empty((R, size))
        for b in range(size):
            P1 = {key: (float(value[b]) if np.ndim(value) else value) for key, value in P.items()}

            def residual(s, P1=P1):  # log(x_r Σ μ_j / w_r): zero at equilibrium of eq. (9)
                x = np.exp(np.minimum(s, 50.0))[:, None]
                with np.errstate(over="ignore", divide="ignore"):
                    return np.log(np.maximum((x * self._congestion(x, P1))[:, 0], 1e-300) / self.weights)

            share = self.capacities.min() / np.maximum(1.0, self.A.sum(axis=0).max())
            for factor in (0.5, 1.5, 0.1, 3.0):
                s, info, ier, message = fsolve(
                    residual, np.full(R, np.log(factor * share)), xtol=1e-14, full_output=True
                )
                if np.max(np.abs(residual(s))) < 1e-10:
                    break
            else:
                raise FluidError(f"ecn-network: equilibrium not found at point {b} ({message.strip()})")
            out[:, b] = np.exp(s)
        return out

    def outputs(self, states, P):
        loads = np.einsum("rj,trb->tjb", self.A, states)
        return {f"p{j}": marking(self.resource, loads[:, j, :], self.capacities[j], P) for j in range(self.A.shape[1])}
