"""Seed numbers reproduced by direct integration (tolerances stated per test)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from aqmlab.fluid import get_model, integrate


def _amplitude(result, name, start, end):
    mask = (result.times >= start) & (result.times <= end)
    values = result.state(name)[:, mask]
    return 0.5 * (values.max(axis=1) - values.min(axis=1))


def test_seed000_fig3_red_with_averaging():
    """Seed 000 Fig. 3: C̃ = 100 packets/s, τ = 0.171 s, RED defaults; γ = 0.032 converges to
    w* ≈ 17 packets, γ = 0.028 settles on a limit cycle (Hopf at γ ≈ 0.03)."""
    model = get_model("ctcp-red")
    params = {"C": 100.0, "tau": 0.171, "gamma": [0.028, 0.032]}
    P, size = model.resolve(params)
    w_star = model.equilibrium(P, size)[0]
    assert np.all(np.abs(w_star - 17) <= 0.5)  # "w* ≈ 17 pkts", at the printed precision
    result = integrate(model, params, t_end=300.0)  # history: equilibrium + 10 %
    early, late = _amplitude(result, "w", 50, 150), _amplitude(result, "w", 200, 300)
    # γ = 0.028: a limit cycle — window amplitude above 5 packets and not decaying (±10 %)
    assert late[0] > 5.0
    assert late[0] > 0.9 * early[0]
    # γ = 0.032: converges — amplitude falls by more than half per 150 s, mean at w*
    assert late[1] < 0.5 * early[1]
    assert result.mean("w", tail=0.2)[1] == pytest.approx(w_star[1], rel=0.01)


def test_seed000_fig14b_threshold_policy():
    """Seed 000 Fig. 14b: α = 0.125, k = 0.75, β = 0.5, C̃ = 100, τ = 1: q_th = 38 converges,
    q_th = 40 oscillates, and the amplitude grows with q_th (Hopf at q_th = 39)."""
    model = get_model("ctcp-threshold")
    q_th = [38.0, 40.0, 45.0, 50.0, 60.0]
    params = {"C": 100.0, "tau": 1.0, "q_th": q_th}
    result = integrate(model, params, t_end=1000.0)
    late = _amplitude(result, "w", 800, 1000)
    middle = _amplitude(result, "w", 500, 700)
    assert late[0] < 1e-3 and late[0] < middle[0] + 1e-12  # q_th = 38: converged (amplitude < 0.001 packet)
    assert late[1] > 0.5 and late[1] == pytest.approx(middle[1], rel=0.02)  # q_th = 40: steady oscillation
    assert np.all(np.diff(late[1:]) > 0)  # amplitude grows with q_th
    # cross-check with the linear condition (40): τ sqrt(a2² − a1²) < arccos(−a1/a2)
    P, size = model.resolve(params)
    w = model.equilibrium(P, size)[0]
    p = (w / 100.0) ** np.asarray(q_th)
    i = 0.125 * w ** (0.75 - 1)
    a1 = (2 - 0.75) * i * (1 - p) / 1.0
    a2 = np.asarray(q_th) * i / 1.0
    margin = np.arccos(-a1 / a2) - np.sqrt(a2**2 - a1**2)
    assert margin[0] > 0 and np.all(margin[1:] < 0)


def test_seed004_ecn_period_is_four_tau_past_the_hopf_point():
    """Seed 004 eq. (13) with p(y) = (y/C)^B: stable below κτp(1 + B) = π/2, just past it an
    oscillation with period close to 4τ (here within 3 %)."""
    model = get_model("ecn")
    base = {"tau": 1.0, "C": 100.0, "B": 10.0, "w": 10.0}
    P, size = model.resolve(base)
    critical = math.pi / 2 / model.loop_gain(P, size)[0]
    result = integrate(model, {**base, "kappa": [0.95 * critical, 1.05 * critical]}, t_end=600.0, record_dt=0.01)
    amplitude = result.amplitude("x", tail=0.2)
    assert amplitude[0] < 1e-4 * result.mean("x")[0]
    assert amplitude[1] > 1.0
    assert result.period("x", tail=0.3)[1] == pytest.approx(4.0, rel=0.03)


def test_seed000_fig14b_full_bifurcation_diagram():
    """Fig. 14b over its whole range q_th = 10 … 100: no oscillation up to 38, a limit cycle from
    39 on (the paper's Hopf point), with an amplitude that grows with q_th."""
    model = get_model("ctcp-threshold")
    q_th = np.arange(10.0, 101.0)
    result = integrate(model, {"C": 100.0, "tau": 1.0, "q_th": q_th}, t_end=2000.0)
    amplitude = _amplitude(result, "w", 1800, 2000)
    assert np.all(amplitude[q_th <= 38] < 1e-3)
    assert np.all(amplitude[q_th >= 39] > 0.3)
    assert np.all(np.diff(amplitude[q_th >= 39]) > 0)


def test_seed000_fig2b_hopf_point_brackets_gamma_0_03():
    """At τ = 0.171 s the Hopf point in γ is 0.03 (Fig. 2b, 3), at its printed precision (± 0.005):
    over 800 s the window amplitude grows at γ = 0.025 and decays at γ = 0.035."""
    model = get_model("ctcp-red")
    result = integrate(model, {"C": 100.0, "tau": 0.171, "gamma": [0.025, 0.035]}, t_end=800.0)
    early, late = _amplitude(result, "w", 100, 200), _amplitude(result, "w", 700, 800)
    assert late[0] > early[0]
    assert late[1] < 0.5 * early[1]


def test_seed002_ered_gain_alpha_1_stable_alpha_8_oscillates():
    """Seed 002 (README errata): E-RED with TCP-Reno was found stable at α = 1 and unstable at
    α = 8 in the paper's simulations (its scenario is not recoverable). In the reconstructed
    primal-dual model, one link of 1250 packets/s, three Reno routes with RTTs 0.4, 0.8, 1.2 s,
    the gain normalised by the largest RTT (κ = α/(c·1.2 s), docs/queues/ered.md; Hopf α 5.41):
    α = 1 converges to the equilibrium, α = 8 settles on a limit cycle."""
    model = get_model("primal-dual")
    params = {"alpha": [1.0, 8.0], "rtt_scale": 10.0, "p_min": 1e-7}
    result = integrate(model, params, t_end=600.0, h=0.02, perturbation=0.05)
    early, late = _amplitude(result, "w0", 100, 200), _amplitude(result, "w0", 500, 600)
    assert late[0] < 0.15 * early[0]  # α = 1: decays (8.4 -> 0.6 packets)
    settled = _amplitude(result, "w0", 300, 400)
    assert late[1] > 20.0 and late[1] == pytest.approx(settled[1], rel=0.01)  # α = 8: steady cycle (≈ 38.5)
