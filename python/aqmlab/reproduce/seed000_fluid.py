"""Seed 000 Sections III-VI: the fluid model's stability charts and Hopf points (Figs. 2, 4,
14a), computed by `aqmlab.stability` (characteristic roots and continuation of the Hopf
boundary) — the half of the seed 000 story that the packet-level reproductions confirm."""

from __future__ import annotations

from pathlib import Path

from aqmlab.reproduce.registry import Claim, Outcome, reproduction
from aqmlab.stability.figures import seed000_figure
from aqmlab.stability.hopf import find_hopf

PAPER = "seed 000 (Compound TCP with RED)"


@reproduction("seed000-stability", PAPER, "Figs. 2a, 4a, 14a: stability charts and Hopf points of the fluid models",
              "CTCP-RED loses stability through a Hopf bifurcation as the RTT grows: at τ = 84.8 ms with queue "
              "averaging (defaults, C̃ = 100), at τ = 0.273 s without; the threshold policy at q_th = 39.", "≈5 s")
def stability(out: Path, quick: bool) -> Outcome:
    points = 60 if quick else 200
    figures = []
    for name in ("fig2a", "fig4a", "fig14a"):
        seed000_figure(name, out, points=points)
        figures.append(f"{name}.png")
    averaging = find_hopf("ctcp-red", "tau", 0.01, 1.0, {"C": 100})
    instantaneous = find_hopf("ctcp-red-noavg", "tau", 0.01, 2.0, {"C": 100})
    threshold = find_hopf("ctcp-threshold", "q_th", 10, 100)
    claims = [
        Claim("with averaging, the Hopf point in the RTT", "τ = 84.8 ms (Fig. 2)",
              f"τ = {1000 * averaging.value:.2f} ms (characteristic roots; criterion: within 1 %)",
              bool(abs(averaging.value - 0.0848) < 0.01 * 0.0848)),
        Claim("without averaging, the Hopf point in the RTT", "τ = 0.273 s (Fig. 4)",
              f"τ = {instantaneous.value:.4f} s (criterion: within 1 %)",
              bool(abs(instantaneous.value - 0.273) < 0.01 * 0.273)),
        Claim("averaging makes the loop lose stability at a smaller RTT", "stable to larger RTT without averaging",
              f"{1000 * averaging.value:.1f} ms with averaging against {1000 * instantaneous.value:.0f} ms without",
              bool(instantaneous.value > averaging.value)),
        Claim("threshold policy: stability lost at q_th = 39", "Hopf at q_th = 39 (Fig. 14a)",
              f"q_th = {threshold.value:.2f} (criterion: between 38 and 39)", bool(38 < threshold.value <= 39)),
    ]
    notes = ("Parameters as in seed 000 Section IV (γ = 1e-4, b = 50, b̄ = 550, p̄ = 0.1, C̃ = 100 packets/s; "
             "threshold policy α = 0.125, k = 0.75, β = 0.5, C̃ = 100, τ = 1). See docs/stability.md.")
    return Outcome(claims, figures, notes)
