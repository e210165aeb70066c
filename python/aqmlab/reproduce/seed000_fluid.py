"""Seed 000 Sections III-VI and the Appendix: the fluid models' stability charts and Hopf
points (Figs. 2, 4, 14a), the phase portraits of Fig. 3, the bifurcation diagram of Fig. 14b
and the Appendix's Hopf-type example (Fig. 20), computed by `aqmlab.stability` (characteristic
roots, continuation of the Hopf boundary, Lyapunov coefficients) and `aqmlab.fluid` (batch
integration of the delay equations) — the half of the seed 000 story that the packet-level
reproductions confirm."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from aqmlab.fluid.integrate import integrate
from aqmlab.fluid.models import get_model
from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Computed
from aqmlab.stability.figures import seed000_figure
from aqmlab.stability.hopf import appendix_ctcp_noavg, find_hopf, lyapunov

PAPER = "seed 000 (Compound TCP with RED)"


def stability(out: Path, quick: bool) -> Computed:
    points = 60 if quick else 200
    figures = []
    for name in ("fig2a", "fig4a", "fig14a"):
        seed000_figure(name, out, points=points)
        figures.append(f"{name}.png")
    averaging = find_hopf("ctcp-red", "tau", 0.01, 1.0, {"C": 100})
    instantaneous = find_hopf("ctcp-red-noavg", "tau", 0.01, 2.0, {"C": 100})
    threshold = find_hopf("ctcp-threshold", "q_th", 10, 100)
    values = {
        "tau_averaging_ms": 1000 * averaging.value,
        "tau_no_averaging_s": instantaneous.value,
        "tau_no_averaging_over_averaging": instantaneous.value / averaging.value,
        "q_th_hopf": threshold.value,
    }
    notes = (
        "Parameters as in seed 000 Section IV (γ = 1e-4, b = 50, b̄ = 550, p̄ = 0.1, C̃ = 100 packets/s; "
        "threshold policy α = 0.125, k = 0.75, β = 0.5, C̃ = 100, τ = 1). Hopf points from the characteristic "
        "roots (docs/stability.md)."
    )
    return Computed(values, figures, notes)


declare("seed000-stability", compute=stability)


# --- Figs. 2b-c, 3, 4b-c, 14b and the Appendix example ------------------------------------------

#: Compound TCP and RED defaults of seed 000 Section III-A (γ = 1e-4, b = 50, b̄ = 550, p̄ = 0.1,
#: α = 0.125, k = 0.75, β = 0.5, κ = 1) are the fluid models' defaults; C̃ = 100 packets/s.
C_TILDE = 100.0


def chart(name: str, out: Path, quick: bool) -> pa.Table:
    """One of seed 000's stability charts (aqmlab.stability.figures), written as PNG, Parquet
    and JSON into `out`; returns its table (x, y, ω, period, verified)."""
    seed000_figure(name, out, points=40 if quick else 200)
    return pq.read_table(out / f"{name}.parquet")


def figure(width: float = 6.0, height: float = 4.0) -> Figure:
    fig = Figure(figsize=(width, height), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def fig2(out: Path, quick: bool) -> Computed:
    gamma_tau = chart("fig2b", out, quick)
    b_alpha = chart("fig2c", out, quick)
    gammas, taus = gamma_tau["gamma"].to_numpy(), gamma_tau["tau"].to_numpy()
    b, alphas = b_alpha["b_min"].to_numpy(), b_alpha["alpha"].to_numpy()
    tau_at_003 = float(np.interp(0.03, gammas, taus))
    side_2b = json.loads((out / "fig2b.json").read_text())["stable_below"]
    side_2c = json.loads((out / "fig2c.json").read_text())["stable_below"]
    change = (alphas[-1] - alphas[0]) / alphas[0]
    values = {
        "tau_at_gamma_0.03_s": tau_at_003,
        "tau_steps_not_increasing": float(np.sum(np.diff(taus) <= 0)),
        "stable_below_2b": float(side_2b),
        "alpha_b50": float(alphas[0]),
        "alpha_change_percent": 100 * abs(change),
    }
    notes = (
        "Hopf boundaries by continuation (aqmlab.stability.charts.hopf_chart: Newton on det Δ(iω) = 0, "
        f"{'40' if quick else '200'} points; docs/stability.md). Parameters of Section III-A; in Fig. 2c 'b' is the "
        "minimum threshold (the range [50, 150] starts at its default). The paper states no direction for the "
        "α-b trade-off; ours: larger b needs larger α."
    )
    notes += (
        f" Boundary τ from {1000 * taus[0]:.1f} ms (γ = {gammas[0]:g}) to {1000 * taus[-1]:.1f} ms "
        f"(γ = {gammas[-1]:g}); "
        f"boundary α {alphas[0]:.4f} (b = {b[0]:g}) → {alphas[-1]:.4f} (b = {b[-1]:g}), stable "
        f"{'below' if side_2c else 'above'} the curve."
    )
    return Computed(values, ["fig2b.png", "fig2c.png"], notes, {"alpha_b150": float(alphas[-1])})


declare("seed000-fig2", compute=fig2)


def amplitude_between(times: np.ndarray, values: np.ndarray, start: float, end: float) -> np.ndarray:
    """Half the peak-to-peak excursion of each row of `values` for times in [start, end]."""
    rows = values[:, (times >= start) & (times <= end)]
    return 0.5 * (rows.max(axis=1) - rows.min(axis=1))


def fig3(out: Path, quick: bool) -> Computed:
    tau, gammas = 0.171, (0.032, 0.028)
    hopf = find_hopf("ctcp-red", "gamma", 0.005, 0.05, {"C": C_TILDE, "tau": tau})
    normal_form = lyapunov("ctcp-red", hopf.params, hopf.omega, param="gamma")
    # Three starting windows (0.7, 1.15 and 1.3 times w*; q and r at equilibrium) per γ, one batch.
    starts = (0.7, 1.15, 1.3)
    model = get_model("ctcp-red")
    params = {"C": C_TILDE, "tau": tau, "gamma": np.repeat(gammas, len(starts))}
    resolved, size = model.resolve(params)
    history = model.equilibrium(resolved, size)
    history[0] *= np.tile(starts, len(gammas))
    t_end, steps = (200.0, 10) if quick else (1000.0, 20)
    run = integrate(model, params, t_end=t_end, steps_per_delay=steps, history=history, max_samples=20000)
    times, w, w_lag = run.times, run.state("w"), run.lagged("w")
    early = amplitude_between(times, w, 0.1 * t_end, 0.3 * t_end)
    late = amplitude_between(times, w, 0.8 * t_end, t_end)
    w_star = float(history[0, 0] / starts[0])
    fig = figure(11, 4.5)
    axes = fig.subplots(1, 2, sharex=True, sharey=True)
    for axis, gamma, index in zip(axes, gammas, (0, len(starts)), strict=True):
        for j, start in enumerate(starts):
            axis.plot(w_lag[index + j], w[index + j], lw=0.6, label=f"w(0) = {start:g} w*")
        axis.plot([w_star], [w_star], "k*", ms=9, label="equilibrium w*")
        axis.set_title(f"γ = {gamma:g}, τ = {1000 * tau:.0f} ms", fontsize=10)
        axis.set_xlabel("w(t − τ) (packets)")
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("w(t) (packets)")
    axes[0].legend(fontsize=8)
    fig.savefig(out / "fig3.png")
    pq.write_table(
        pa.table(
            {
                "time_s": np.repeat(times[None, :], w.shape[0], axis=0).ravel(),
                "gamma": np.repeat(params["gamma"], times.size),
                "start_factor": np.repeat(np.tile(starts, len(gammas)), times.size),
                "w": w.ravel(),
            }
        ),
        out / "fig3.parquet",
    )
    stable, cycle = slice(0, len(starts)), slice(len(starts), 2 * len(starts))
    period = float(np.nanmean(run.period("w")[cycle]))
    values = {
        "hopf_gamma": hopf.value,
        "w_star": w_star,
        "stable_decay_largest": float(np.max(late[stable] / early[stable])),
        "cycle_amplitude_smallest": float(late[cycle].min()),
        "cycle_amplitude_spread_percent": float(100 * np.ptp(late[cycle]) / late[cycle].mean()),
    }
    notes = (
        f"Batch integration of eqs. (1), (3)-(9) (aqmlab.fluid, RK4, step τ/{steps}) for {t_end:.0f} s from three "
        "starting windows per γ; the phase portrait plots w(t) against w(t − τ). Normal form at the Hopf point "
        f"(aqmlab.stability.hopf.lyapunov, parameter γ): Re c1 = {normal_form.c1.real:.3g}, Re dλ/dγ = "
        f"{normal_form.dlam.real:.3g}, so the cycles exist below γ_c and are orbitally stable (β2 = "
        f"{normal_form.beta2:.3g} < 0); crossing period 2π/ω = {hopf.period:.2f} s."
    )
    data = {
        "hopf_gamma": hopf.value,
        "hopf_period_s": hopf.period,
        "w_star": w_star,
        "period_s": period,
        "amplitude_early": early.tolist(),
        "amplitude_late": late.tolist(),
        "c1": str(normal_form.c1),
        "beta2": normal_form.beta2,
    }
    return Computed(values, ["fig3.png"], notes, data)


declare("seed000-fig3", compute=fig3)


def fig4(out: Path, quick: bool) -> Computed:
    averaging, instantaneous = chart("fig2a", out, quick), chart("fig4a", out, quick)
    b_tau, b_alpha = chart("fig4b", out, quick), chart("fig4c", out, quick)
    capacity = instantaneous["C"].to_numpy()
    tau_avg, tau_inst = averaging["tau"].to_numpy(), instantaneous["tau"].to_numpy()
    b, taus = b_tau["b_min"].to_numpy(), b_tau["tau"].to_numpy()
    alphas = b_alpha["alpha"].to_numpy()
    ratio = tau_inst / tau_avg
    same_grid = bool(np.allclose(capacity, averaging["C"].to_numpy()))
    if not same_grid:
        raise ValueError("seed000-fig4: Figs. 2a and 4a were computed on different C̃ grids")
    values = {
        "tau_steps_not_decreasing_4a": float(np.sum(np.diff(tau_inst) >= 0)),
        "tau_ratio_smallest": float(ratio.min()),
        "tau_steps_not_decreasing_4b": float(np.sum(np.diff(taus) >= 0)),
        "alpha_b50": float(alphas[0]),
        "tau_b50_s": float(taus[0]),
    }
    notes = (
        "Hopf boundaries by continuation (docs/stability.md), "
        f"{'40' if quick else '200'} points each; 'b' in Figs. 4b-c is the minimum threshold (range [50, 150]). "
        "fig2a is recomputed here for the comparison (seed000-stability reproduces its Hopf point). Fig. 4c's "
        f"boundary α rises from {alphas[0]:.4f} to {alphas[-1]:.4f} over b ∈ [50, 150] (no direction stated in the "
        "paper)."
    )
    data = {
        "tau_ratio_min": float(ratio.min()),
        "tau_ratio_max": float(ratio.max()),
        "tau_b50": float(taus[0]),
        "tau_b150": float(taus[-1]),
        "alpha_b50": float(alphas[0]),
    }
    notes += (
        f" Fig. 4a: τ {tau_inst[0]:.4f} s (C̃ = {capacity[0]:g}) → {tau_inst[-1]:.4f} s (C̃ = {capacity[-1]:g}); "
        f"without / with averaging {ratio.min():.2f}-{ratio.max():.2f} times. Fig. 4b: τ {taus[0]:.4f} s (b = "
        f"{b[0]:g}) → {taus[-1]:.4f} s (b = {b[-1]:g})."
    )
    return Computed(values, ["fig4a.png", "fig2a.png", "fig4b.png", "fig4c.png"], notes, data)


declare("seed000-fig4", compute=fig4)


def fig14(out: Path, quick: bool) -> Computed:
    # Quick and full are the same: 91 thresholds in one batch take about a second.
    model = get_model("ctcp-threshold")
    thresholds = np.arange(10.0, 101.0)
    params = {"C": C_TILDE, "tau": 1.0, "q_th": thresholds}
    t_end = 600.0
    run = integrate(model, params, t_end=t_end, steps_per_delay=20, perturbation=0.05, max_samples=20000)
    w = run.state("w")
    late = amplitude_between(run.times, w, 0.8 * t_end, t_end)
    resolved, size = model.resolve(params)
    equilibrium = model.equilibrium(resolved, size)[0]
    hopf = find_hopf("ctcp-threshold", "q_th", 10, 100, {"C": C_TILDE, "tau": 1.0})
    normal_form = lyapunov("ctcp-threshold", hopf.params, hopf.omega, param="q_th")
    below, above = thresholds < 39, thresholds >= 39
    fig = figure(6.5, 4.5)
    axis = fig.subplots()
    tail = run.times >= 0.8 * t_end
    axis.plot(thresholds, w[:, tail].max(axis=1), "v", ms=3, color="C3", label="maximum of w")
    axis.plot(thresholds, w[:, tail].min(axis=1), "^", ms=3, color="C0", label="minimum of w")
    axis.plot(thresholds, equilibrium, "k-", lw=1, label="equilibrium w*")
    onset = np.linspace(hopf.value, 50, 60)
    predicted = 2 * abs(normal_form.q[0]) * np.sqrt((onset - hopf.value) / normal_form.mu2)
    for sign in (1, -1):
        axis.plot(
            onset,
            np.interp(onset, thresholds, equilibrium) + sign * predicted,
            "--",
            color="C2",
            lw=1,
            label=f"normal form, Hopf at q_th = {hopf.value:.2f}" if sign == 1 else None,
        )
    axis.set_xlabel("threshold q_th (packets)")
    axis.set_ylabel("window w (packets), last 120 s")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    fig.savefig(out / "fig14b.png")
    pq.write_table(
        pa.table({"q_th": thresholds, "amplitude_w": late, "equilibrium_w": equilibrium}), out / "fig14b.parquet"
    )
    values = {
        "amplitude_below_39_largest": float(late[below].max()),
        "amplitude_from_39_smallest": float(late[above].min()),
        "amplitude_steps_not_growing": float(np.sum(np.diff(late[above]) <= 0)),
        "equilibrium_steps_not_growing": float(np.sum(np.diff(equilibrium) <= 0)),
    }
    notes = (
        "Eq. (36) with p(w) = (w/(C̃τ))^q_th, α = 0.125, k = 0.75, β = 0.5, C̃ = 100, τ = 1 s; 91 thresholds "
        f"integrated in one batch (RK4, step τ/20) for {t_end:.0f} s from 1.05 w*; amplitude = half the peak-to-peak "
        "of w over the last 120 s. The dashed curve is the normal-form prediction 2|q_w| sqrt((q_th − q_c)/μ2) "
        "(aqmlab.stability.hopf.lyapunov)."
    )
    data = {
        "hopf_q_th": hopf.value,
        "mu2": normal_form.mu2,
        "beta2": normal_form.beta2,
        "amplitude_q39": float(late[thresholds == 39][0]),
        "amplitude_q38": float(late[thresholds == 38][0]),
    }
    notes += (
        f" Hopf point by the roots q_th = {hopf.value:.3f}; normal form μ2 = {normal_form.mu2:.3g} (supercritical "
        f"when > 0). Amplitude {late[above][0]:.2f} (39) → {late[thresholds == 60][0]:.2f} (60) → {late[-1]:.2f} "
        f"(100) packets; w* = {equilibrium[0]:.1f} (10) → {equilibrium[-1]:.1f} (100) packets."
    )
    return Computed(values, ["fig14b.png"], notes, data)


declare("seed000-fig14", compute=fig14)


def appendix(out: Path, quick: bool) -> Computed:
    hopf = find_hopf("ctcp-red-noavg", "tau", 0.01, 2.0, {"C": C_TILDE})
    printed = appendix_ctcp_noavg(hopf.params, omega=hopf.omega)  # eqs. (47)-(68), Table II
    general = lyapunov("ctcp-red-noavg", hopf.params, hopf.omega, param="kappa")
    agreement = abs(general.c1 - printed["c1"]) / abs(printed["c1"])
    # Fig. 20: μ2 and β2 against κ ∈ [1, 1.05], the Appendix's formulas evaluated with κ in place of κ_c.
    kappas = np.linspace(1.0, 1.05, 11 if quick else 51)
    sweep = [appendix_ctcp_noavg(hopf.params, kappa_c=float(kappa)) for kappa in kappas]
    mu2 = np.array([row["mu2"] for row in sweep])
    beta2 = np.array([row["beta2"] for row in sweep])
    fig = figure(10, 3.8)
    left, right = fig.subplots(1, 2)
    left.plot(kappas, mu2, "o-", ms=3)
    left.set_ylabel("μ2")
    right.plot(kappas, beta2, "o-", ms=3, color="C3")
    right.set_ylabel("β2")
    for axis, label in (
        (left, "(a) type of the Hopf bifurcation"),
        (right, "(b) orbital stability of the limit cycle"),
    ):
        axis.axhline(0, color="k", lw=0.8)
        axis.set_xlabel("κ")
        axis.set_title(label, fontsize=10)
        axis.grid(alpha=0.3)
    fig.savefig(out / "fig20.png")
    pq.write_table(pa.table({"kappa": kappas, "mu2": mu2, "beta2": beta2}), out / "fig20.parquet")
    values = {
        "hopf_tau_s": hopf.value,
        "mu2_smallest": float(mu2.min()),
        "beta2_largest": float(beta2.max()),
        "c1_relative_difference": float(agreement),
    }
    notes = (
        f"Defaults of Section IV-A (α = 0.125, k = 0.75, β = 0.5, b = 50, b̄ = 550, p̄ = 0.1), C̃ = 100, κ = 1. "
        f"At the Hopf point τ = {hopf.value:.4f} s, ω = {hopf.omega:.4f} rad/s: Re dλ/dκ = "
        f"{printed['dlam_dkappa'].real:.4g}, c1(0) = {printed['c1']:.4g}, T2 = {printed['T2']:.3g}. The Hopf point "
        f"sits at an almost constant product C̃τ ≈ {C_TILDE * hopf.value:.1f} packets; τ = 0.7751 would need "
        f"C̃ ≈ {C_TILDE * hopf.value / 0.7751:.0f} packets/s, so the paper's example cannot have used C̃ = 100 with "
        "these defaults. The Fig. 20 axes did not survive the text extraction; only the signs are compared. Fig. 20 "
        "evaluates the formulas with κ in place of κ_c (ω from eq. 32 with κ), as the Appendix describes."
    )
    data = {
        "hopf_tau_s": hopf.value,
        "omega": hopf.omega,
        "c1": str(printed["c1"]),
        "mu2": printed["mu2"],
        "beta2": printed["beta2"],
        "dlam_dkappa": str(printed["dlam_dkappa"]),
        "c1_general": str(general.c1),
    }
    notes += (
        f" μ2 from {mu2.min():.3g} to {mu2.max():.3g} and β2 from {beta2.min():.3g} to {beta2.max():.3g} over "
        f"κ ∈ [1, 1.05]; c1 = {printed['c1']:.4g} (eqs. 47-67) against {general.c1:.4g} (Kuznetsov's formula)."
    )
    return Computed(values, ["fig20.png"], notes, data)


declare("seed000-appendix", compute=appendix)
