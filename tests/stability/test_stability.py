"""Tests of aqmlab.stability: linearisation vs seed 000 eqs. (11) and (27), roots, the papers'
conditions vs numerical roots, Hopf points (acceptance numbers), charts, Lyapunov coefficients,
the square-root law, the CLI."""

from __future__ import annotations

import math

import numpy as np
import pytest
from aqmlab.fluid.models.base import FluidError
from aqmlab.stability import conditions as cond
from aqmlab.stability.bifurcation import bifurcation_diagram, sqrt_law_fit
from aqmlab.stability.charts import grid_chart, hopf_chart
from aqmlab.stability.cli import app
from aqmlab.stability.hopf import appendix_ctcp_noavg, find_hopf, lyapunov, transversality
from aqmlab.stability.linearise import linearise
from aqmlab.stability.roots import characteristic_roots
from typer.testing import CliRunner


def abscissa(model, params, options=None):
    return characteristic_roots(linearise(model, params, options=options), count=1).abscissa


# ------------------------------------------------------------------ linearisation


def test_linearisation_matches_seed000_eq11():
    P = {"C": 120.0, "tau": 0.1, "gamma": 0.01}
    lin = linearise("ctcp-red", P)
    a = cond.seed000_coefficients_avg(P)
    w, p, i, rho, tau, C, g = a["w"], a["p"], a["i"], a["rho"], a["tau"], a["C"], a["gamma"]
    al, k, be = a["alpha"], a["k"], a["beta"]
    di = al * (k - 1) * w ** (k - 2)
    # eq. (11) in (u1, u2, u3 = p − p*); the model's third state is r with p = ρ(r − b): u3 = ρ u_r
    A0 = np.array([[(di * (1 - p) - be * p) * w / tau, 0, 0], [(1 - p) / tau, 0, -w / tau], [0, rho * g * C, -g * C]])
    A1 = np.zeros((3, 3))
    A1[0, 2] = -(i + be * w) * w / tau
    T = np.diag([1.0, 1.0, rho])
    Ti = np.linalg.inv(T)
    np.testing.assert_allclose(T @ lin.A0 @ Ti, A0, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(T @ lin.A[0] @ Ti, A1, rtol=1e-7, atol=1e-12)
    # characteristic polynomial (12)-(13)
    np.testing.assert_allclose(np.poly(lin.A0), [1, a["a1"], a["a2"], a["a3"]], rtol=1e-7)


def test_linearisation_matches_seed000_eq27():
    P = {"C": 100.0, "tau": 0.2, "kappa": 1.3}
    lin = linearise("ctcp-red-noavg", P)
    a = cond.seed000_coefficients_noavg(P)
    w, p, i, rho, tau = a["w"], a["p"], a["i"], a["rho"], a["tau"]
    al, k, be, kap = a["alpha"], a["k"], a["beta"], 1.3
    di = al * (k - 1) * w ** (k - 2)
    A0 = kap * np.array([[(di * (1 - p) - be * p) * w / tau, 0], [(1 - p) / tau, -rho * w / tau]])  # eq. (27)
    A1 = kap * np.array([[0, -rho * (i + be * w) * w / tau], [0, 0]])
    np.testing.assert_allclose(lin.A0, A0, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(lin.A[0], A1, rtol=1e-7, atol=1e-12)


# ------------------------------------------------------------------ roots


def test_roots_of_scalar_dde_match_lambert_w():
    from scipy.special import lambertw

    a, tau = 2.0, 1.0  # u' = −a u(t − τ): λ = W_k(−aτ)/τ
    r = characteristic_roots((np.zeros((1, 1)), np.array([[[-a]]]), np.array([tau])), count=3)
    exact = sorted([lambertw(-a * tau, k) / tau for k in (0, 1)], key=lambda z: -z.real)
    assert abs(r.roots[0] - complex(exact[0].real, abs(exact[0].imag))) < 1e-12
    assert r.converged[0]


def test_roots_two_delays_satisfy_characteristic_equation():
    A0 = np.array([[-1.0, 0.5], [0.2, -2.0]])
    A = np.array([[[0.0, -1.5], [0.0, 0.0]], [[-0.3, 0.0], [0.4, 0.0]]])
    taus = np.array([0.7, 1.9])
    r = characteristic_roots((A0, A, taus), count=5)
    for lam in r.roots:
        D = lam * np.eye(2) - A0 - sum(Ak * np.exp(-lam * t) for Ak, t in zip(A, taus, strict=True))
        sv = np.linalg.svd(D, compute_uv=False)
        assert sv[-1] < 1e-10 * max(1.0, sv[0])
    # N-independence of the rightmost root
    r2 = characteristic_roots((A0, A, taus), count=1, N=40)
    assert abs(r2.rightmost - r.rightmost) < 1e-10


# ------------------------------------------------------------------ acceptance: Hopf points


def test_threshold_boundary_between_38_and_39():
    """Seed 000 Section VI-A, Fig. 14: "the corresponding value of q_th on the Hopf condition is
    39 pkts": converge for q_th < 39, a limit cycle for q_th >= 39 (integer precision)."""
    assert abscissa("ctcp-threshold", {"q_th": 38.0}) < 0 < abscissa("ctcp-threshold", {"q_th": 39.0})
    assert cond.seed000_threshold_40({"q_th": 38.0}).holds and not cond.seed000_threshold_40({"q_th": 39.0}).holds
    h = find_hopf("ctcp-threshold", "q_th", 10, 100)
    assert 38 < h.value <= 39  # seed 000 Section VI-A: stable at q_th = 38, limit cycle from 39 (whole packets)


def test_red_with_averaging_hopf_and_gamma_chart():
    """Seed 000 Section III: τ = 84.8 × 10⁻³ s is on the Hopf condition of Fig. 2a at C̃ = 100,
    and Fig. 2b's point γ = 0.03, τ = 171 × 10⁻³ s: asserted at the printed precision."""
    h = find_hopf("ctcp-red", "tau", 0.01, 1.0, {"C": 100})
    assert abs(h.value - 0.0848) <= 5e-5  # seed 000 Section III-A: τ = 84.8 × 10⁻³ s, at its precision
    # (21)-(22): κc = 1 exactly at the numerical Hopf point
    assert abs(cond.seed000_hopf_21_22(h.params).extra["kappa_c"] - 1.0) < 1e-5
    chart = hopf_chart("ctcp-red", "gamma", (0.02, 0.04), "tau", (0.01, 1.0), {"C": 100}, points=20)
    assert abs(chart.y_at(0.03) - 0.171) <= 5e-4  # Fig. 2b/3: γ = 0.03 at τ = 171 × 10⁻³ s


def test_red_without_averaging_hopf_is_the_crossing_curve_33():
    """The numerical Hopf point in τ of system (26) lies on the crossing curve (33) and
    satisfies (35) with equality (a consistency check of the model, not a paper value)."""
    h = find_hopf("ctcp-red-noavg", "tau", 0.01, 2.0, {"C": 100})
    # The paper's 0.273 s (Section IV-A) is not reproduced at its precision (we get 0.2718 s); that
    # verdict is guarded in tests/reproduce/verdicts.json (seed000-stability/hopf-tau-no-averaging).
    # Here: the root is a Hopf point of (33) and (35).
    c33 = cond.seed000_hopf_33(h.params)
    c35 = cond.seed000_condition_35(h.params)
    assert abs(c33.lhs - 1) < 1e-8 and abs(c35.lhs - 1) < 1e-8
    assert abs(c35.extra["closed_form"] - c35.lhs) < 1e-10
    assert abs(c33.extra["omega0"] - h.omega) < 1e-8


def test_ecn_boundary_and_frequency():
    for tau, B in ((0.1, 10.0), (0.3, 4.0)):
        h = find_hopf("ecn", "kappa", 0.01, 1000, {"tau": tau, "B": B})
        c = cond.seed004_ecn(h.params)
        assert abs(c.lhs - math.pi / 2) < 1e-8  # κτp(1 + B) = π/2
        assert abs(h.omega - math.pi / (2 * tau)) < 1e-8


@pytest.mark.xfail(
    strict=True,
    reason="seed 000 Fig. 4c prints τ = 0.273 s (from (33), C̃ = 100, defaults); the model gives 0.2718 "
    "(0.46 % lower, 0.272 at the printed precision); the cause is not identified (docs/stability.md)",
)
def test_red_without_averaging_hopf_is_the_papers_0_273():
    h = find_hopf("ctcp-red-noavg", "tau", 0.01, 2.0, {"C": 100})
    assert round(h.value, 3) == 0.273


# ------------------------------------------------------------------ conditions vs roots


@pytest.mark.parametrize("tau", [0.05, 0.08, 0.09, 0.15])
def test_seed000_avg_conditions_vs_roots(tau):
    P = {"C": 100, "tau": tau}
    stable = abscissa("ctcp-red", P) < 0
    assert cond.seed000_hopf_21_22(P).holds == stable
    if cond.seed000_sufficient_17(P).holds:
        assert stable


def test_seed000_condition_18_is_not_sufficient_here():
    """(18) replaces ωc by π/(2τ); at the defaults it holds where the roots are unstable
    (documented in docs/stability.md)."""
    P = {"C": 100, "tau": 0.15}
    assert cond.seed000_sufficient_18(P).holds and abscissa("ctcp-red", P) > 0


@pytest.mark.parametrize("tau", [0.1, 0.25, 0.3, 0.5])
def test_seed000_noavg_conditions_vs_roots(tau):
    P = {"C": 100, "tau": tau}
    assert cond.seed000_condition_35(P).holds == (abscissa("ctcp-red-noavg", P) < 0)


@pytest.mark.parametrize("q", [12.0, 30.0, 45.0, 80.0])
def test_threshold_conditions_vs_roots(q):
    P = {"q_th": q}
    stable = abscissa("ctcp-threshold", P) < 0
    assert cond.seed000_threshold_40(P).holds == stable
    assert abs(cond.seed000_threshold_42(P).lhs - cond.seed000_threshold_40(P).lhs) < 1e-9
    if cond.seed000_threshold_43(P).holds:
        assert stable


@pytest.mark.parametrize("q", [20.0, 200.0, 400.0])
def test_reno_threshold_conditions_vs_roots(q):
    ns, suff = cond.seed000_reno_44({"q_th": q})
    stable = abscissa("ctcp-threshold", {"q_th": q}, {"tcp": "reno"}) < 0
    assert ns.holds == stable
    if suff.holds:
        assert stable


@pytest.mark.parametrize(
    "resource,params",
    [
        ("mm1", {"kappa": 5.0}),
        ("mm1", {"kappa": 20.0}),
        ("overflow", {"kappa": 10.0}),
        ("overflow", {"kappa": 20.0}),
        ("gaussian", {"kappa": 1.0, "w": 50.0}),
        ("gaussian", {"kappa": 3.0, "w": 50.0}),
    ],
)
def test_seed004_conditions_vs_roots(resource, params):
    c = cond.seed004_ecn(params, resource=resource)
    assert c.holds == (abscissa("ecn", params, {"resource": resource}) < 0)
    if resource == "gaussian" and cond.seed004_gaussian_17(params).holds:
        assert c.holds


def test_seed002_ered_sufficient_vs_roots():
    assert cond.seed002_ered_sufficient({"alpha": 0.5}).holds
    assert abscissa("primal-dual", {"alpha": 0.5}) < 0
    assert not cond.seed002_ered_sufficient({"alpha": 8.0}).holds


def _slow_fast_gain(A: float) -> float:
    """Critical gain G_c of L(s) = G A e^{-s}/(s (s + A)): u + atan(u/A) = π/2, G_c = u √(u² + A²)/A."""
    from scipy.optimize import brentq

    u = brentq(lambda u: u + math.atan(u / A) - math.pi / 2, 1e-12, math.pi / 2)
    return u * math.hypot(u, A) / A


@pytest.mark.parametrize("rtt", [0.05, 0.2, 1.0])
def test_seed002_theorem_iii2_bound_holds_at_the_fluid_hopf_point(rtt):
    """Theorem III.2's setting: one link, TCP-Reno routes of one RTT T, linear price feedback,
    E-RED's gain normalised by that RTT (κ = α/(c·T), docs/queues/ered.md). The sufficient bound is
    α <= 1/2; the fluid model's Hopf α must not be below it, and it is the analytic boundary of the
    delay-normalised loop, 2(1 − p*)/γ · G_c(ŵ p*) (G_c between 1 and π/2), the same for every T:
    2.11, i.e. the bound is conservative by a factor 4.2 for Reno."""
    from aqmlab.fluid.models import get_model

    options = {"link": "ered-iq", "rtts": f"{rtt},{rtt},{rtt}", "capacities": "1250"}
    params = {"p_min": 1e-6}
    hopf = find_hopf("primal-dual", "alpha", 0.01, 100.0, params, options=options)
    model = get_model("primal-dual", **options)
    P, _ = model.resolve(params)
    eq = model.equilibrium(P, 1)[:, 0]
    w, price = eq[0], model.outputs(eq.reshape(1, -1, 1), P)["p0"].item()
    predicted = 2 * (1 - price) / P["gamma"] * _slow_fast_gain(w * price)
    assert hopf.value >= 0.5
    assert hopf.value == pytest.approx(predicted, rel=0.01)
    assert hopf.value == pytest.approx(2.11, abs=0.03)


def test_seed002_fig10_scalable_tcp_critical_alpha_is_1():
    """Seed 002 Section V-E, Fig. 10 (the paper's Matlab fluid simulation): Scalable TCP, 3 users,
    10 Mb/s each, RTT 200 ms: α = 1 oscillates, α = 0.9 converges, "α = 1 is the critical point",
    "very close to being necessary". With the RTT-normalised gain the model's Hopf point is 1.054:
    the paper's 1 at its one-digit precision (|α_H − 1| <= 0.06), and not below the bound."""
    capacity = 3 * 10e6 / (8 * 1040)
    options = {"link": "ered-iq", "rtts": "0.2,0.2,0.2", "capacities": f"{capacity:.1f}"}
    params = {"a": 0.01, "n": 0.0, "b": 0.125, "m": 1.0, "gamma": 0.95, "p_min": 1e-4}
    hopf = find_hopf("primal-dual", "alpha", 0.05, 100.0, params, options=options)
    assert 1.0 <= hopf.value <= 1.06


def test_seed001_equilibria_vs_eigenvalues():
    from aqmlab.fluid.models import get_model

    model = get_model("cx-tcp")
    P, _ = model.resolve({})
    eq, _ = model.equilibria(P, 1)
    conds = cond.seed001_equilibria()
    assert [c.extra["region"] for c in conds] == ["A", "B"]
    for row, c in enumerate(conds):
        lin = linearise(model, {}, equilibrium=eq[row, :, 0])
        assert (np.max(np.linalg.eigvals(lin.A0).real) < 0) == c.holds


# ------------------------------------------------------------------ Hopf type


def test_lyapunov_general_matches_seed000_appendix():
    h = find_hopf("ctcp-red-noavg", "tau", 0.01, 2.0, {"C": 100})
    L = lyapunov("ctcp-red-noavg", h.params, h.omega, param="kappa")
    ap = appendix_ctcp_noavg(h.params, omega=h.omega)
    assert abs(L.c1.real - ap["c1"].real) < 1e-4 * abs(ap["c1"].real)
    assert abs(L.c1.imag - ap["c1"].imag) < 1e-4 * abs(ap["c1"].imag)
    assert abs(L.dlam - ap["dlam_dkappa"]) < 1e-6 * abs(ap["dlam_dkappa"])
    assert ap["mu2"] > 0 and ap["beta2"] < 0  # the Appendix's conclusion (supercritical, stable cycles)
    assert L.dlam.real > 0  # transversality (34)


def test_transversality_sign_threshold():
    h = find_hopf("ctcp-threshold", "q_th", 10, 100)
    assert transversality("ctcp-threshold", h.params, "q_th", h.omega).real > 0


def test_lyapunov_on_normal_form_ode():
    """A model-free check with a closed form: u' = −κ u(t−1) − c u(t−1)³ has its Hopf point at
    κ = π/2, ω = π/2, and c1 = ½ C/Δ'(iω) = 3c(π/2 + i)/(1 + π²/4): c > 0 (the cubic raises the
    loop gain) is subcritical, c < 0 (saturation) supercritical."""
    from aqmlab.fluid.models.base import FluidModel, Param

    class Cubic(FluidModel):
        name = "cubic-test"
        state_names = ("u",)
        delay_names = ("tau",)
        params = {
            "kappa": Param(1.0, "1", "gain"),
            "tau": Param(1.0, "s", "delay", 0.0, low_open=True),
            "c": Param(1.0, "1", "cubic coefficient"),
        }

        def delays(self, P):
            return [P["tau"]]

        def rhs(self, t, y, lag, P):
            u = lag[0, 0] - 1.0  # deviation from the equilibrium u* = 1
            return (-P["kappa"] * u - P["c"] * u**3)[None, :]

        def equilibrium(self, P, size):
            return np.ones((1, size))

    m = Cubic()
    h = find_hopf(m, "kappa", 0.5, 3.0)
    assert abs(h.value - math.pi / 2) < 1e-9
    exact = 3 * (math.pi / 2 + 1j) / (1 + math.pi**2 / 4)
    L = lyapunov(m, h.params, h.omega)
    assert abs(L.c1 - exact) < 1e-6 and L.kind == "subcritical"
    L = lyapunov(m, {**h.params, "c": -1.0}, h.omega)
    assert abs(L.c1 + exact) < 1e-6 and L.kind == "supercritical"


@pytest.mark.parametrize("name,param,lo,hi", [("ecn", "kappa", 1, 100), ("ctcp-threshold", "q_th", 10, 100)])
def test_sqrt_law_near_supercritical_hopf(name, param, lo, hi):
    h = find_hopf(name, param, lo, hi)
    L = lyapunov(name, h.params, h.omega, param=param)
    assert L.kind == "supercritical" and L.mu2 > 0
    rel = np.array([0.01, 0.02, 0.04])
    values = h.value * (1 + rel)
    tau = float(h.params.get("tau", 1.0 if name == "ctcp-threshold" else 0.1))
    D = bifurcation_diagram(name, param, values, t_end=400 * tau, perturbation=0.01)
    fit = sqrt_law_fit(D.values, D.amplitude, h.value)
    assert fit["spread"] < 0.15  # A²/(p − p_c) nearly constant
    predicted = np.array([L.amplitude(v - h.value)[0] for v in values])
    np.testing.assert_allclose(D.amplitude, predicted, rtol=0.06)
    below = bifurcation_diagram(name, param, [h.value * 0.97], t_end=400 * tau, perturbation=0.01)
    assert below.amplitude[0] < 0.2 * D.amplitude[0]


# ------------------------------------------------------------------ charts


def test_chart_continuation_agrees_with_grid_scan():
    c = hopf_chart("ctcp-red", "C", (100, 300), "tau", (0.005, 1.0), points=12)
    g = grid_chart("ctcp-red", "C", (100, 300), "tau", (0.01, 0.2), nx=12, ny=60)
    assert c.meta["complete"] and c.verified[0] and c.verified[-1]
    np.testing.assert_allclose(g.ys, c.ys, rtol=0.03)
    assert c.stable_below
    np.testing.assert_allclose(c.period, 2 * np.pi / c.omega)


# ------------------------------------------------------------------ errors and CLI


def test_errors_name_the_field():
    with pytest.raises(FluidError, match="param = 'nope'"):
        find_hopf("ctcp-red", "nope", 0.1, 1.0)
    with pytest.raises(FluidError, match="no Hopf point"):
        find_hopf("ctcp-red", "tau", 0.01, 0.02, {"C": 100})
    with pytest.raises(FluidError, match="parameter 'zz'"):
        hopf_chart("ctcp-red", "zz", (1, 2), "tau")
    with pytest.raises(FluidError, match="N = "):
        characteristic_roots(linearise("ecn"), N=1)


def test_cli_commands(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["stability", "ctcp-threshold", "--set", "q_th=39", "--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    assert "unstable" in res.output and "(40)" in res.output
    assert (tmp_path / "s" / "summary.json").exists()
    res = runner.invoke(
        app,
        [
            "chart",
            "ecn",
            "--x",
            "tau=0.05..0.3",
            "--y",
            "kappa=0.1..100",
            "--points",
            "10",
            "--out",
            str(tmp_path / "c"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert (tmp_path / "c" / "chart.parquet").exists() and (tmp_path / "c" / "chart.png").exists()
    res = runner.invoke(app, ["chart", "ecn", "--x", "tau=0.3..0.05", "--y", "kappa"])
    assert res.exit_code == 2 and "reversed" in res.output
    res = runner.invoke(app, ["stability", "nosuch"])
    assert res.exit_code == 2 and "allowed" in res.output
    res = runner.invoke(app, ["stability", "ecn", "--set", "kappa"])
    assert res.exit_code == 2 and "NAME=VALUE" in res.output


# ------------------------------------------------------------------ corner cases (issue 16)


def test_find_hopf_keeps_a_newton_root_where_the_determinant_is_exactly_zero():
    """Seed 000 Fig. 2b: the Hopf point in γ at τ = 0.171 s is 0.03. From the bracket [1e-4, 1]
    Newton lands on det Δ(iω) = 0 exactly, where dDet/dω = 0 makes its matrix singular; the
    converged root (0.0300485) must be kept, not the 8-step bisection midpoint (2.3e-4 off)."""
    wide = find_hopf("ctcp-red", "gamma", 1e-4, 1.0, {"C": 100.0, "tau": 0.171})
    narrow = find_hopf("ctcp-red", "gamma", 1e-3, 0.5, {"C": 100.0, "tau": 0.171})
    assert wide.verified and narrow.verified
    assert wide.value == pytest.approx(narrow.value, rel=1e-9)
    assert round(wide.value, 2) == 0.03  # the paper's value at its printed precision


def test_ecn_mm1_equilibrium_above_capacity_is_where_the_dynamics_go():
    """Seed 004 eq. (13) with the M/M/1 resource (11), p = min(y/C, 1)^B, and w > C: every packet
    is marked at the equilibrium, x = w = 150 (not the uncapped root 106.99 with p > 1), the loop
    gain is κτ = 0.2 < π/2, and integration from far away converges there."""
    from aqmlab.design.buffers import mm1_stability
    from aqmlab.fluid import get_model, integrate

    model = get_model("ecn", resource="mm1")
    params = {"w": 150.0, "C": 100.0, "B": 5.0, "kappa": 2.0, "tau": 0.1}
    P, _ = model.resolve(params)
    assert model.equilibrium(P, 1)[0, 0] == 150.0
    assert model.loop_gain(P, 1)[0] == pytest.approx(0.2) and model.loop_gain(P, 1)[0] < math.pi / 2
    assert mm1_stability(2.0, 0.1, 150.0, 100.0, 5.0) == pytest.approx(0.2)
    assert cond.seed004_ecn(params).holds and cond.seed004_ecn(params).lhs == pytest.approx(0.2)
    result = integrate(model, params, t_end=60.0, history=np.array([[60.0]]))
    x, t = result.state("x")[0], result.times
    assert x[-1] == pytest.approx(150.0, rel=1e-6)
    assert np.ptp(x[t > 50]) < 1e-6 * 150
    assert abscissa("ecn", params, {"resource": "mm1"}) < 0
