"""Seed 000's stability charts located in packet simulations (issue 20), as declarations: the
packet boundary (`aqmlab.experiments.packet_chart`) beside the fluid Hopf curve of the same
axes, with seed 000's parameters and with the scenario's own.

* `seed000-fig2a-packets`: Fig. 2a's axes, RTT against per-flow capacity C̃, RED(50, 100)
  deciding on its average (model (9));
* `seed000-fig4a-packets`: the same without averaging (Fig. 4a, model (26));
* `seed000-threshold-packets`: the threshold policy's q_th against the RTT (Section VI,
  model (36); Fig. 14a is α against q_th at τ = 1 s).

Full versions: the Section V dumbbell (60 Compound TCP flows, RED(50, 100) with ns-2's
automatic weight, buffer 2084, 1500-byte packets) with the axis values set, 150 s runs
measured from 50 s, 5 seeds per probe (a unanimous verdict: 96.9 % by the sign test of
`aqmlab.analysis.oscillation`). Quick versions: 10 flows instead of 60 (C = 10 C̃), 40 s runs
measured from 10 s, 2 seeds, 2 x values and one bisection: a smoke test of the same code,
whose verdicts guard it in `make test`; the full version is the one whose numbers count.

The quantities are censored where the search finds no bracket, so they are always numbers:
the *onset* at an x is the smallest y probed whose seeds all oscillate (the range's top when
none does), the *last stable* y the largest one below it whose seeds are all stable (the
range's bottom when none is).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from aqmlab.reproduce.declare import AtLeast, Below, Check, Claim, Computed, Declaration
from aqmlab.reproduce.registry import register
from aqmlab.reproduce.seed000_mixed import THRESHOLD_15
from aqmlab.reproduce.seed000_packet import PAPER, variant

QUICK_FLOWS = 10
FULL_SEEDS = (1, 2, 3, 4, 5)
QUICK_SEEDS = (1, 2)


def dumbbell(quick: bool, *, instantaneous: bool = False, threshold: bool = False) -> dict[str, Any]:
    scenario = variant(False, name="packet-chart", instantaneous=instantaneous)
    if threshold:
        scenario["topology"]["bottleneck"]["queue"] = {**THRESHOLD_15, "q_th": 20}
    if quick:
        scenario["topology"]["groups"][0]["count"] = QUICK_FLOWS
    return scenario


def run_settings(quick: bool) -> dict[str, Any]:
    if quick:
        return {"seeds": QUICK_SEEDS, "duration_s": 40.0, "analysis_start_s": 10.0, "max_rounds": 1}
    return {"seeds": FULL_SEEDS, "duration_s": 150.0, "analysis_start_s": 50.0, "max_rounds": 6}


def onset_and_stable(boundary, y_range: tuple[float, float]) -> tuple[float, float]:
    """(onset, last stable y) at one x (module docstring), whichever side oscillates."""
    low, high = y_range
    oscillating = sorted(y for y, v in boundary.probes if v.verdict == "oscillating")
    onset = oscillating[0] if oscillating else high
    stable = sorted(y for y, v in boundary.probes if v.verdict == "stable" and y < onset)
    return onset, (stable[-1] if stable else low)


def chart_values(chart) -> dict[str, float]:
    """Per x (index i): onset_i, stable_i, the fluid Hopf y of both mappings and the periods;
    across x: the onset's change from the first x to the last, and the share of x bracketed."""
    values: dict[str, float] = {}
    rows = chart.rows()
    for i, (boundary, row) in enumerate(zip(chart.boundaries, rows, strict=True)):
        onset, stable = onset_and_stable(boundary, chart.y_range)
        values[f"onset_{i}"], values[f"stable_{i}"] = onset, stable
        values[f"packet_period_{i}"] = row["packet_period_s"]
        for mapping in ("paper", "mapped"):
            values[f"fluid_{mapping}_{i}"] = row[f"fluid_{mapping}_y"]
            values[f"fluid_{mapping}_period_{i}"] = row[f"fluid_{mapping}_period_s"]
        values[f"x_{i}"] = boundary.x
    last = len(rows) - 1
    values["onset_change"] = values[f"onset_{last}"] - values["onset_0"]
    values["bracketed_share"] = sum(b.bracketed for b in chart.boundaries) / len(rows)
    values["oscillating_above_share"] = sum(b.oscillating_above is True for b in chart.boundaries) / len(rows)
    values["stable_at_bottom_share"] = sum(
        b.verdict_at(chart.y_range[0]).verdict == "stable" for b in chart.boundaries
    ) / len(rows)
    fluid = values["fluid_paper_0"]
    values["paper_hopf_above_last_stable"] = fluid - values["stable_0"] if math.isfinite(fluid) else -math.inf
    values["paper_hopf_below_onset"] = values["onset_0"] - fluid if math.isfinite(fluid) else -math.inf
    return values


def agreement_text(chart, values: dict[str, float]) -> str:
    """Where packets and fluid agree and where not, per x, from the numbers."""
    unit = {"rtt": "s", "q_th": "packets"}.get(chart.y, "")
    parts = []
    for i, b in enumerate(chart.boundaries):
        onset, stable = values[f"onset_{i}"], values[f"stable_{i}"]
        paper, mapped = values[f"fluid_paper_{i}"], values[f"fluid_mapped_{i}"]
        if not math.isfinite(paper):
            fluid_text = "has no Hopf point in the range"
        else:
            where = "inside" if stable <= paper <= onset else "outside"
            fluid_text = f"has its Hopf point at {paper:.4g}, {where} that interval"
        mapped_note = next(
            (n for n in chart.fluid["curves"]["mapped"]["note"][i : i + 1] if n), f"{chart.y} = {mapped:.4g}"
        )
        parts.append(
            f"{chart.x} = {b.x:g}: packets {b.status}, stable up to {stable:.4g} and oscillating from "
            f"{onset:.4g} {unit}; the fluid model with seed 000's parameters {fluid_text}; the mapped "
            f"model: {mapped_note}. Period: packets {values[f'packet_period_{i}']:.3g} s, "
            f"fluid (paper) {values[f'fluid_paper_period_{i}']:.3g} s."
        )
    return " ".join(parts)


def compute_chart(name: str, scenario, x_quick: str, x_full: str, y: str, **options):
    def compute(out: Path, quick: bool) -> Computed:
        from aqmlab.experiments.packet_chart import packet_chart

        chart = packet_chart(scenario(quick), x_quick if quick else x_full, y, **run_settings(quick), **options)
        chart.plot(out / f"{name}.png")
        values = chart_values(chart)
        return Computed(
            values={k: v for k, v in values.items() if not k.startswith("x_")},
            figures=[f"{name}.png"],
            notes=agreement_text(chart, values)
            + f" Runs: {chart.meta['runs_computed']} ({chart.meta['wall_time_s']:.0f} s).",
            data={"chart": chart.describe()},
        )

    return compute


def red_claims(figure: str, hopf_text: str) -> tuple[Claim, ...]:
    return (
        Claim(
            "boundary-falls-with-capacity",
            f"{figure}: as the per-flow capacity C̃ increases, the RTT at which the system loses stability falls",
            "τ at the Hopf boundary decreases with C̃",
            f"Section IV-A, {figure}",
            (Check("onset_change", Below(0), "onset RTT at the largest C̃ − at the smallest", "s"),),
            why="ours: the smallest probed RTT at which every seed oscillates (packet_chart), compared between "
            "the first and the last C̃ of the grid",
            shows=(("bracketed_share", "share of C̃ values with a bracket", ""),),
        ),
        Claim(
            "paper-hopf-in-packet-bracket",
            f"{figure}: the fluid Hopf point with the paper's parameters lies where the packet system starts to "
            "oscillate",
            hopf_text,
            f"Section IV-A, {figure}; Section V-A",
            (
                Check("paper_hopf_above_last_stable", AtLeast(0), "fluid Hopf τ − last stable packet RTT", "s"),
                Check("paper_hopf_below_onset", AtLeast(0), "packet onset RTT − fluid Hopf τ", "s"),
            ),
            why="ours: at the smallest C̃ the fluid Hopf τ (seed 000's parameters) between the largest RTT whose "
            "seeds are all stable and the smallest whose seeds all oscillate; the packet RTT is the propagation "
            "RTT (the fluid τ also holds the queueing delay, see the notes)",
            shows=(
                ("packet_period_0", "packet period at the onset", "s"),
                ("fluid_paper_period_0", "fluid period at the Hopf point", "s"),
                ("fluid_mapped_0", "mapped model's Hopf τ (nan: none in range)", "s"),
            ),
        ),
    )


register(
    Declaration(
        id="seed000-fig2a-packets",
        paper=PAPER,
        title="Fig. 2a from packets: the RTT at which RED with averaging starts to oscillate, against C̃",
        description="The stability boundary of Fig. 2a located by bisection in packet simulations (several seeds "
        "per probe), beside the fluid Hopf curve with the paper's parameters and with the scenario's own.",
        compute=compute_chart(
            "fig2a-packets", dumbbell, "per_flow_capacity=100,200", "per_flow_capacity=100..450:8", "rtt=0.01..0.31"
        ),
        claims=red_claims("Fig. 2a", "τ = 84.8 ms at C̃ = 100 (Hopf point, γ = 1e-4)"),
        notes="Packet RTTs are propagation RTTs; the fluid τ is the mean RTT, propagation plus queueing "
        "(≈ 6-12 ms more here: a queue of 50-100 packets at 100 Mb/s).",
        full_cost="≈12 min (estimated: 240 runs of 150 s)",
    )
)

register(
    Declaration(
        id="seed000-fig4a-packets",
        paper=PAPER,
        title="Fig. 4a from packets: the RTT at which RED without averaging starts to oscillate, against C̃",
        description="As seed000-fig2a-packets with RED deciding on the instantaneous queue (model (26)).",
        compute=compute_chart(
            "fig4a-packets",
            lambda quick: dumbbell(quick, instantaneous=True),
            "per_flow_capacity=100,200",
            "per_flow_capacity=100..450:8",
            "rtt=0.02..0.82",
        ),
        claims=red_claims("Fig. 4a", "τ = 0.273 s at C̃ = 100 (Hopf point without averaging)"),
        notes="The oscillation is judged on RED's average, traced also when RED decides on the instantaneous "
        "queue (docs/stability.md). Packet RTTs are propagation RTTs.",
        full_cost="≈15 min (estimated: up to 320 runs of 150 s)",
    )
)


register(
    Declaration(
        id="seed000-threshold-packets",
        paper=PAPER,
        title="Threshold policy from packets: the q_th at which the queue starts to oscillate, against the RTT",
        description="Seed 000's threshold policy (drop when the queue holds q_th packets) on the Section V "
        "dumbbell: the q_th boundary located by bisection in packet simulations, beside the Hopf q_th of model (36).",
        compute=compute_chart(
            "threshold-packets",
            lambda quick: dumbbell(quick, threshold=True),
            "rtt=0.05,0.2",
            "rtt=0.05,0.1,0.2,0.5,1.0",
            "q_th=20..800",
            log_y=True,
            tolerance=1.25,
        ),
        claims=(
            Claim(
                "few-tens-stable",
                "a threshold of a few tens of packets keeps the system stable",
                "q_th 'fixed at a few tens of packets to ensure system stability'",
                "Section VI",
                (Check("stable_at_bottom_share", AtLeast(1), "share of RTTs stable at q_th = 20", ""),),
                why="every seed stable at q_th = 20 packets at every RTT of the grid",
            ),
            Claim(
                "larger-threshold-oscillates",
                "the system loses stability as q_th increases",
                "stable for q_th below the Hopf value (q_th = 39 at α = 0.125, C̃ = 100, τ = 1 s)",
                "Section VI-A, eq. (40), Fig. 14a",
                (Check("oscillating_above_share", AtLeast(1), "share of RTTs oscillating above a stable q_th", ""),),
                why="ours: at every RTT of the grid a bracket with the oscillating end above the stable one "
                "(q_th up to 800 packets)",
                shows=(
                    ("fluid_paper_0", "fluid Hopf q_th (seed 000's C̃ = 100) at the first RTT", "packets"),
                    ("fluid_mapped_0", "mapped (C̃ of the scenario)", "packets"),
                    ("onset_0", "packet onset q_th at the first RTT (800: none)", "packets"),
                ),
            ),
        ),
        notes="The threshold policy's queue is read through an EWMA of 1 s (docs/stability.md); its band is "
        "[0, q_th]. The fluid model's paper set is C̃ = 100 with τ the axis RTT.",
        full_cost="≈5 min (estimated: up to 175 runs of 150 s)",
    )
)
