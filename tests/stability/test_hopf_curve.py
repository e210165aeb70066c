"""Issue 33: Hopf curves continued by pseudo-arclength through folds (charts.hopf_curve)."""

from __future__ import annotations

import math

import numpy as np
from aqmlab.fluid.models.base import FluidModel, Param
from aqmlab.stability.charts import hopf_chart, hopf_curve


class Parabola(FluidModel):
    """u' = −(a² + g)(u(t − 1) − 1): Hopf where a² + g = π/2 (ω = π/2). In the (g, a) plane the
    curve a = ±sqrt(π/2 − g) folds at g = π/2: continuation in g must turn back there."""

    name = "parabola-test"
    state_names = ("u",)
    delay_names = ("tau",)
    params = {
        "a": Param(0.0, "1", "a"),
        "g": Param(1.0, "1", "g"),
        "tau": Param(1.0, "s", "delay", 0.0, low_open=True),
    }

    def delays(self, P):
        return [P["tau"]]

    def rhs(self, t, y, lag, P):
        return (-(P["a"] ** 2 + P["g"]) * (lag[0, 0] - 1.0))[None, :]

    def equilibrium(self, P, size):
        return np.ones((1, size))


def test_hopf_curve_passes_a_fold():
    m = Parabola()
    start = (1.0, math.sqrt(math.pi / 2 - 1.0))
    c = hopf_curve(m, "g", "a", start, steps=40, step=0.05)
    assert len(c.meta["folds"]) == 1
    i = c.meta["folds"][0]
    assert abs(c.xs[i] - math.pi / 2) < 0.05 and c.ys[i + 1] < c.ys[i]  # turned at g = π/2
    assert c.ys.min() < -0.5 and c.ys.max() > 0.5  # both branches a > 0 and a < 0
    assert np.max(np.abs(c.ys**2 + c.xs - math.pi / 2)) < 1e-12
    assert np.max(np.abs(c.omega - math.pi / 2)) < 1e-12
    # natural-parameter continuation in g stops at the fold
    nat = hopf_chart(m, "g", (1.0, 2.0), "a", (0.01, 2.0), points=20)
    assert not nat.meta["complete"]


def test_hopf_curve_of_ctcp_red_is_k_over_c():
    """Seed 000 Fig. 2a: the curve is τ = K/C̃ exactly (the model depends on C̃τ only)."""
    c = hopf_curve("ctcp-red", "C", "tau", (100.0, 0.0848341046541159), steps=15, step=0.05)
    K = c.xs[0] * c.ys[0]
    assert np.max(np.abs(c.xs * c.ys / K - 1.0)) < 1e-12 and c.xs[-1] > 150
    assert not c.meta["folds"]
