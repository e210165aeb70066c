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

The quantities are per seed, judged on their mean and 95 % interval like every packet-level
claim: at an x, a seed's *onset* is the smallest probed y at which that seed's run oscillates
and its *last stable* y the largest probed y below it at which its run is stable. A seed whose
runs never oscillate in the range has no onset (nan): "no boundary in the range" is its own
outcome, and a claim that needs the boundary cannot agree with it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Computed
from aqmlab.reproduce.seed000_mixed import THRESHOLD_15
from aqmlab.reproduce.seed000_packet import variant

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
    """(onset, last stable y) at one x over the seeds together (every seed oscillating / stable),
    censored at the range's ends: for the notes, not for verdicts."""
    low, high = y_range
    oscillating = sorted(y for y, v in boundary.probes if v.verdict == "oscillating")
    onset = oscillating[0] if oscillating else high
    stable = sorted(y for y, v in boundary.probes if v.verdict == "stable" and y < onset)
    return onset, (stable[-1] if stable else low)


def per_seed(chart, boundary) -> dict[int, tuple[float, float, str]]:
    """seed → (onset, last stable y, verdict at the range's bottom) at one x (module docstring);
    nan where the seed has none."""
    found = {}
    probed = sorted(y for y, _ in boundary.probes)
    seeds = sorted({record["seed"] for y in probed for record in chart.runs[(boundary.x, y)]})
    for seed in seeds:
        verdicts = {y: next(r["verdict"] for r in chart.runs[(boundary.x, y)] if r["seed"] == seed) for y in probed}
        oscillating = [y for y in probed if verdicts[y] == "oscillating"]
        onset = oscillating[0] if oscillating else math.nan
        stable = [y for y in probed if verdicts[y] == "stable" and not y >= onset]
        found[seed] = (onset, stable[-1] if stable else math.nan, verdicts[probed[0]])
    return found


def chart_values(chart) -> dict[str, float | list[float]]:
    """Per x (index i), per seed: onset_i, stable_i; per x: the fluid Hopf y of both mappings
    and the periods; per seed across x: the onset's change from the first x to the last, whether
    the seed has a boundary at the first x, the shares of x stable at the bottom and with an
    oscillating onset above a stable y; and the share of x the seeds together bracket."""
    values: dict[str, float | list[float]] = {}
    rows = chart.rows()
    seeds_of = [per_seed(chart, boundary) for boundary in chart.boundaries]
    seeds = sorted(seeds_of[0])
    for i, (boundary, row, found) in enumerate(zip(chart.boundaries, rows, seeds_of, strict=True)):
        values[f"onset_{i}"] = [found[s][0] for s in seeds]
        values[f"stable_{i}"] = [found[s][1] for s in seeds]
        values[f"packet_period_{i}"] = row["packet_period_s"]
        for mapping in ("paper", "mapped"):
            values[f"fluid_{mapping}_{i}"] = row[f"fluid_{mapping}_y"]
            values[f"fluid_{mapping}_period_{i}"] = row[f"fluid_{mapping}_period_s"]
        values[f"x_{i}"] = boundary.x
    last = len(rows) - 1
    values["onset_change"] = [seeds_of[last][s][0] - seeds_of[0][s][0] for s in seeds]
    values["boundary_0"] = [float(math.isfinite(seeds_of[0][s][0])) for s in seeds]
    values["bracketed_share"] = sum(b.bracketed for b in chart.boundaries) / len(rows)
    values["oscillating_above_share"] = [
        sum(math.isfinite(f[s][0]) and math.isfinite(f[s][1]) for f in seeds_of) / len(rows) for s in seeds
    ]
    values["stable_at_bottom_share"] = [sum(f[s][2] == "stable" for f in seeds_of) / len(rows) for s in seeds]
    fluid = values["fluid_paper_0"]
    values["paper_hopf_above_last_stable"] = [fluid - seeds_of[0][s][1] for s in seeds]
    values["paper_hopf_below_onset"] = [seeds_of[0][s][0] - fluid for s in seeds]
    return values


def agreement_text(chart, values: dict[str, float]) -> str:
    """Where packets and fluid agree and where not, per x, from the numbers."""
    unit = {"rtt": "s", "q_th": "packets"}.get(chart.y, "")
    parts = []
    for i, b in enumerate(chart.boundaries):
        onset, stable = onset_and_stable(b, chart.y_range)
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


#: (reproduction, figure name, scenario, x (quick), x (full), y, search options, notes).
CHARTS = (
    (
        "seed000-fig2a-packets",
        "fig2a-packets",
        dumbbell,
        "per_flow_capacity=100,200",
        "per_flow_capacity=100..450:8",
        "rtt=0.01..0.31",
        {},
        "Packet RTTs are propagation RTTs; the fluid τ is the mean RTT, propagation plus queueing "
        "(≈ 6-12 ms more here: a queue of 50-100 packets at 100 Mb/s).",
    ),
    (
        "seed000-fig4a-packets",
        "fig4a-packets",
        lambda quick: dumbbell(quick, instantaneous=True),
        "per_flow_capacity=100,200",
        "per_flow_capacity=100..450:8",
        "rtt=0.02..0.82",
        {},
        "The oscillation is judged on RED's average, traced also when RED decides on the instantaneous "
        "queue (docs/stability.md). Packet RTTs are propagation RTTs.",
    ),
    (
        "seed000-threshold-packets",
        "threshold-packets",
        lambda quick: dumbbell(quick, threshold=True),
        "rtt=0.05,0.2",
        "rtt=0.05,0.1,0.2,0.5,1.0",
        "q_th=20..800",
        {"log_y": True, "tolerance": 1.25},
        "The threshold policy's queue is read through an EWMA of 1 s (docs/stability.md); its band is "
        "[0, q_th]. The fluid model's paper set is C̃ = 100 with τ the axis RTT.",
    ),
)
for reproduction_id, name, scenario, x_quick, x_full, y, options, notes in CHARTS:
    declare(reproduction_id, compute=compute_chart(name, scenario, x_quick, x_full, y, **options), notes=notes)
