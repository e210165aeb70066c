"""Issue 33: periodic orbits by collocation (stability/orbits.py) against simulation, the
unstable cycles of ctcp-red below its subcritical Hopf point, and a fold of cycles."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from aqmlab.fluid import get_model, integrate
from aqmlab.fluid.models.base import FluidModel, Param
from aqmlab.stability.orbits import Collocation, correct_orbit, orbit_branch


def test_threshold_orbits_match_simulation_q40_to_100():
    """Seed 000 eq. (36), Section VI-A: the stable cycles for q_th = 40..100. Collocation
    (40 intervals, degree 4) against the RK4 integrator (τ/100 steps, amplitude and period
    over the last 100 s of 400: q_th = 40 is near the Hopf point, its transient decays
    slowly): both to ≤ 1e-3 relative (measured: ≤ 1e-4)."""
    qs = np.array([40.0, 60.0, 80.0, 100.0])
    branch = orbit_branch("ctcp-threshold", "q_th", 10.0, 100.0, max_points=40, with_floquet=False)
    assert branch.stop.startswith("q_th left") and not branch.folds
    orbits = []
    for q in qs:
        guess = branch.orbits[int(np.argmin(np.abs(branch.values - q)))]
        orbits.append(correct_orbit("ctcp-threshold", {}, "q_th", q, guess, with_floquet=q == 100.0))
    assert orbits[-1].stable and orbits[-1].max_multiplier < 1.0
    sim = integrate(
        get_model("ctcp-threshold"),
        {"q_th": qs},
        t_end=400.0,
        steps_per_delay=100,
        record_from=300.0,
        record_dt=1e-3,
        max_samples=200_000,
    )
    amp, period = sim.amplitude("w", tail=1.0), sim.period("w", tail=1.0)
    for k, o in enumerate(orbits):
        assert o.amplitude[0] == pytest.approx(amp[k], rel=1e-3)
        assert o.period == pytest.approx(period[k], rel=1e-3)


def test_red_unstable_cycles_below_the_subcritical_hopf_point():
    """Issue 33: ctcp-red with averaging (C̃ = 100, τ the parameter) is subcritical (l1 > 0);
    the cycles born at τ_c exist for τ < τ_c, where the equilibrium is stable, and are unstable:
    a Floquet multiplier above 1. Period ≈ 63 s (2π/ω_c = 63.17 s)."""
    branch = orbit_branch("ctcp-red", "tau", 0.01, 1.0, {"C": 100.0}, max_points=9)
    assert branch.l1 > 0
    assert np.all(branch.values < branch.hopf_value)
    assert not branch.stable.any()
    assert branch.orbits[-1].max_multiplier > 1.0005
    assert np.all(np.abs(branch.periods - 63.2) < 0.3)


@pytest.mark.slow
def test_red_unstable_branch_ends_where_the_queue_empties():
    """Continued further, the unstable cycles grow until q reaches 0 (seed 000 eq. 4), where the
    smooth model stops holding; the branch says so. Mesh check: 80 intervals agree with 40."""
    branch = orbit_branch("ctcp-red", "tau", 0.01, 1.0, {"C": 100.0}, max_points=60)
    assert "q reaches its lower bound" in branch.stop
    mults = np.array([o.max_multiplier for o in branch.orbits])
    assert np.all(mults[3:] > 1.0) and not branch.stable.any()
    o = branch.orbits[8]
    fine = Collocation(80, 4)
    E, _ = Collocation(*branch.mesh).matrices(fine.nodes)
    o2 = correct_orbit(
        "ctcp-red", {"C": 100.0}, "tau", o.value, dataclasses.replace(o, profile=E @ o.profile), mesh=fine
    )
    assert o2.period == pytest.approx(o.period, rel=1e-8)
    assert o2.max_multiplier == pytest.approx(o.max_multiplier, rel=1e-6)


class Quintic(FluidModel):
    """u' = −κ v − c v³ + e v⁵, v = u(t − 1) − 1: subcritical Hopf at κ = π/2 (c > 0, see
    test_lyapunov_on_normal_form_ode), the quintic term saturates: a fold of cycles, unstable
    small cycles turning into stable large ones."""

    name = "quintic-test"
    state_names = ("u",)
    delay_names = ("tau",)
    params = {
        "kappa": Param(1.0, "1", "gain"),
        "tau": Param(1.0, "s", "delay", 0.0, low_open=True),
        "c": Param(1.0, "1", "cubic coefficient"),
        "e": Param(1.0, "1", "quintic coefficient"),
    }

    def delays(self, P):
        return [P["tau"]]

    def rhs(self, t, y, lag, P):
        v = lag[0, 0] - 1.0
        return (-P["kappa"] * v - P["c"] * v**3 + P["e"] * v**5)[None, :]

    def equilibrium(self, P, size):
        return np.ones((1, size))


def test_fold_of_cycles_and_the_stable_outer_cycle():
    m = Quintic()
    branch = orbit_branch(m, "kappa", 0.5, 3.0, {"e": 0.5}, max_points=16, max_step=0.1)
    assert branch.l1 > 0 and len(branch.folds) == 1
    i = branch.folds[0]
    assert branch.values[i] < np.pi / 2  # the subcritical branch turns back below κ_c
    assert branch.values[i + 1] > branch.values[i] < branch.values[i - 1]
    assert not branch.stable[: i + 1].any() and branch.stable[i + 1 : i + 3].all()
    # the stable outer cycle beyond the fold is what simulation finds (from a large perturbation)
    o = branch.orbits[i + 2]
    sim = integrate(
        m,
        {"e": 0.5, "kappa": o.value},
        t_end=300.0,
        steps_per_delay=100,
        perturbation=float(o.amplitude[0]),
        record_from=200.0,
        record_dt=1e-3,
        max_samples=200_000,
    )
    assert sim.amplitude("u", tail=1.0)[0] == pytest.approx(o.amplitude[0], rel=1e-3)
    assert sim.period("u", tail=1.0)[0] == pytest.approx(o.period, rel=1e-3)


def test_bifurcation_command_writes_the_orbit_branch_and_the_notebook_shows_it(tmp_path):
    """`aqmlab bifurcation` continues the orbits from the Hopf point: orbits.parquet (period,
    amplitudes, multipliers, stability, constraint), the branch in bifurcation.json, and the
    Diagram's notebook display lists the branch beside the figure."""
    import json

    import pyarrow.parquet as pq
    from aqmlab.cli import app
    from aqmlab.stability.bifurcation import bifurcation_diagram
    from typer.testing import CliRunner

    out = tmp_path / "threshold"
    command = [
        "bifurcation",
        "ctcp-threshold",
        "--param",
        "q_th=30..50",
        "--points",
        "3",
        "--t-end",
        "60",
        "-o",
        str(out),
    ]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 0, result.output
    table = pq.read_table(out / "orbits.parquet").to_pydict()
    assert len(table["q_th"]) >= 3 and all(table["stable"]) and max(table["q_th"]) > 50
    assert all(mu < 1.0 for mu in table["max_multiplier"])
    info = json.loads((out / "bifurcation.json").read_text())
    assert info["orbits"]["end"] == "q_th left [30, 50]" and info["orbits"]["folds"] == []
    d = bifurcation_diagram("ctcp-threshold", "q_th", [30.0, 45.0], t_end=50.0, orbits=True)
    assert d.orbits is not None and d.orbits.stable.all()
    html = d._repr_html_()
    assert "Hopf point" in html and "branch end" in html and "data:image/png;base64" in html


class Bautin(FluidModel):
    """x' = x g − y, y' = y g + x, g = μ + r² − r⁴ (r² = x² + y²; a delay is declared and not
    used). Closed forms: Hopf at μ = 0 (ω = 1), subcritical; cycles of radius r with
    μ = r⁴ − r², period 2π, fold at μ = −1/4 (r² = 1/2); the nontrivial Floquet multiplier is
    exp(2π (2r² − 4r⁴)) (the radial derivative of r g(r) times T)."""

    name = "bautin-test"
    state_names = ("x", "y")
    delay_names = ("tau",)
    params = {"mu": Param(0.0, "1", "mu"), "tau": Param(1.0, "s", "unused delay", 0.0, low_open=True)}

    def delays(self, P):
        return [P["tau"]]

    def rhs(self, t, y, lag, P):
        x, v = y[0], y[1]
        r2 = x * x + v * v
        g = P["mu"] + r2 - r2 * r2
        dy = np.empty_like(y)
        dy[0] = x * g - v
        dy[1] = v * g + x
        return dy

    def equilibrium(self, P, size):
        return np.zeros((2, size))


def test_floquet_multipliers_period_and_fold_against_closed_forms():
    branch = orbit_branch(Bautin(), "mu", -1.0, 1.0, max_points=40, max_step=0.5)
    assert abs(branch.hopf_value) < 1e-12 and branch.l1 > 0
    r2 = branch.amplitudes("x") ** 2
    np.testing.assert_allclose(branch.values, r2 * r2 - r2, atol=1e-10)
    np.testing.assert_allclose(branch.periods, 2 * np.pi, rtol=1e-10)
    mu = np.array([o.max_multiplier for o in branch.orbits])
    np.testing.assert_allclose(mu, np.exp(2 * np.pi * (2 * r2 - 4 * r2 * r2)), rtol=1e-6)
    assert len(branch.folds) == 1
    i = branch.folds[0]
    assert abs(branch.values[i] + 0.25) < 1e-3  # the fold of cycles at μ = −1/4
    assert not branch.stable[: i + 1].any() and branch.stable[i + 2 :].all()
