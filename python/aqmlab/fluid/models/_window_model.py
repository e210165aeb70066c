"""Common parts of the seed 000 window-law models (CTCP-RED with/without averaging,
threshold policy): the choice of window law and its parameters, C̃, τ, κ, the window floor."""

from __future__ import annotations

import numpy as np

from aqmlab.fluid.models.base import FluidModel, Param
from aqmlab.fluid.models.window_laws import WINDOW_LAWS, window_law

BASE_PARAMS = {
    "C": Param(100.0, "packets/s", "per-flow service capacity C̃ (seed 000 eq. 3)", 0.0, low_open=True),
    "tau": Param(0.1, "s", "round-trip time τ, the feedback delay (seed 000 eq. 1)", 0.0, low_open=True),
    "kappa": Param(1.0, "1", "exogenous bifurcation parameter κ (seed 000 eq. 19; 1 = eq. 9)", 0.0, low_open=True),
}
W_FLOOR = 1e-3  # packets: projection floor for w (the increase laws are singular at w = 0)


class WindowModel(FluidModel):
    delay_names = ("tau",)

    def __init__(self, tcp: str = "compound"):
        self.law = window_law(tcp)
        self.option_values = {"tcp": tcp}

    def delays(self, P):
        return [P["tau"]]

    def phase_delay(self, P):
        return P["tau"]

    def prepare(self, P):
        Q = dict(P)
        Q["_kt"] = P["kappa"] / P["tau"]
        Q["_kC"] = P["kappa"] * P["C"]
        return Q

    def window_rate(self, w, w_lag, p_lag, P, out=None):
        """κ [i(w)(1 − p(t−τ)) − d(w) p(t−τ)] w(t−τ)/τ: seed 000 eq. (1) with κ of eq. (19),
        evaluated as κ/τ · (i − (i + d) p(t−τ)) · w(t−τ)."""
        kt = P["_kt"] if "_kt" in P else P["kappa"] / P["tau"]
        i = self.law.increase(w, P)
        x = self.law.decrease(w, P)
        x += i
        x *= p_lag
        np.subtract(i, x, out=x)
        x *= w_lag
        return np.multiply(x, kt, out=out if out is not None else x)


def tcp_option() -> tuple[str, str]:
    return "compound", ", ".join(WINDOW_LAWS)


def queue_rate(q, w, p, P, buffer):
    """κ[(1 − p) w/τ − C̃] with the boundaries of eqs. (3)-(4): no decrease at q = 0, no
    increase at q = B."""
    if "_kt" in P:
        dq = np.subtract(1.0, p)
        dq *= w
        dq *= P["_kt"]
        dq -= P["_kC"]
    else:
        dq = P["kappa"] * ((1.0 - p) * w / P["tau"] - P["C"])
    dq = np.where(q <= 0.0, np.maximum(dq, 0.0), dq)  # eq. (4), q = 0 branch
    if np.all(np.isinf(buffer)):
        return dq
    return np.where(q >= buffer, np.minimum(dq, 0.0), dq)  # eq. (3), [·]^B_0 at the buffer
