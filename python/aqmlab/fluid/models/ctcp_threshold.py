"""TCP (Compound by default) with the threshold queue policy: seed 000 eq. (36), where the
drop probability is the M/M/1-type approximation p(w) = (w/(C̃τ))^q_th of the rule "drop if
q >= q_th".

State: w (average window, packets). Delay: τ. Equilibrium: i(w*)(1 − p(w*)) = d(w*) p(w*)
(below eq. 36), solved numerically (the paper's closed form (w*)^(k−1) = ... assumes
1 − p* ≈ 1 and is only used in the docs).
"""

from __future__ import annotations

import numpy as np

from aqmlab.fluid.models._window_model import BASE_PARAMS, W_FLOOR, WindowModel, tcp_option
from aqmlab.fluid.models.base import Param, bisect_batch


class CtcpThreshold(WindowModel):
    name = "ctcp-threshold"
    title = "TCP window law with the threshold policy p(w) = (w/(C̃τ))^q_th (seed 000 eq. 36)"
    source = "seed 000 eq. (36) and the equilibrium below it"
    options = {"tcp": tcp_option()}
    state_names = ("w",)
    units = ("packets",)

    def __init__(self, tcp: str = "compound"):
        super().__init__(tcp)
        self.params = {
            **{k: v for k, v in BASE_PARAMS.items()},
            **self.law.params,
            "q_th": Param(15.0, "packets", "dropping threshold q_th (seed 000 eq. 36)", 0.0, low_open=True),
        }
        self.params["tau"] = Param(1.0, "s", "round-trip time τ (seed 000 eq. 36)", 0.0, low_open=True)

    def drop(self, w, P):
        return np.minimum((w / (P["C"] * P["tau"])) ** P["q_th"], 1.0)  # p(w) = (w/(C̃τ))^q_th, above eq. (36)

    def rhs(self, t, y, lag, P):
        p_lag = self.drop(lag[0, 0], P)  # p(w(t − τ))
        return self.window_rate(y[0], lag[0, 0], p_lag, P)[None, :]  # eq. (36)

    def bounds(self, P):
        return np.array([[W_FLOOR]]), np.array([[np.inf]])

    def equilibrium(self, P, size):
        ctau = np.broadcast_to(np.asarray(P["C"] * P["tau"], dtype=float), (size,))

        def g(w):  # i(w)(1 − p(w)) − d(w) p(w), below eq. (36)
            p = self.drop(w, P)
            return self.law.increase(w, P) * (1.0 - p) - self.law.decrease(w, P) * p

        w = bisect_batch(g, np.full(size, W_FLOOR), ctau, what="threshold-policy equilibrium (below seed 000 eq. 36)")
        return w[None, :]

    def outputs(self, states, P):
        return {"p": self.drop(states[:, 0, :], P)}
