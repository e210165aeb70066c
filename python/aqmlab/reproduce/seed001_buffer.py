"""Seed 001, ours: Cx-TCP's coexistence with Reno against the buffer's drain time.

Not a claim of the paper: the paper reports fair coexistence (Fig. 5) with a 1-BDP buffer; we
do not get it there (seed001-fig5) and found it when the buffer drains in 1.5 δmax or more
(docs/congestion/cx.md, "Buffer size"). This reproduction states that finding as a claim and
checks it over seeds: the Fig. 5 mixes at 25 Mb/s with buffers draining in 100, 125, 150 and
200 ms (δmax = 100 ms fixed), everything else as seed001-fig5 (seed001.py's settings), fairness
judged with seed001-fig5's criterion (Cx/Reno mean throughput 0.7-1.05).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Evidence, Run
from aqmlab.reproduce.seed001 import NOTE, PACKET_BITS, fairness_measures, mix, save

RATE_BPS = 25e6
DRAIN_TIMES_MS = (100, 125, 150, 200)
MIXES = ((20, 10), (10, 20))


def buffer_for(drain_ms: float) -> int:
    """Packets of 1000 bytes that drain in `drain_ms` at 25 Mb/s (312 for 100 ms, as seed001.py)."""
    return int(round(RATE_BPS * drain_ms / 1000.0 / PACKET_BITS))


def drains(quick: bool) -> tuple[int, ...]:
    return (100, 150) if quick else DRAIN_TIMES_MS


def scenario(cx: int, reno: int, drain_ms: int, quick: bool) -> dict:
    result = mix(f"b{drain_ms}-{cx}-{reno}", cx, reno, duration=200.0 if quick else 500.0)
    result["topology"]["bottleneck"]["queue"]["limit"] = f"{buffer_for(drain_ms)}p"
    return result


def buffer_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    large = [d for d in drains(quick) if d >= 150]
    ratios = [m[f"b{d}-{c}-{r}"]["ratio"] for d in large for c, r in MIXES]
    return {
        "ratio_max_at_100": max(m[f"b100-{c}-{r}"]["ratio"] for c, r in MIXES),
        "ratio_min_from_150": min(ratios),
        "ratio_max_from_150": max(ratios),
    }


def buffer_figures(out: Path, evidence: Evidence) -> list[str]:
    points = drains(evidence.quick)
    fig, axis = plt.subplots(figsize=(6.5, 4), constrained_layout=True)
    for cx, reno in MIXES:
        quantities = [f"b{d}-{cx}-{reno}.ratio" for d in points]
        means = [evidence.mean(q) for q in quantities]
        bounds = [evidence.interval(q) for q in quantities]
        errors = [
            [m - lo for m, (lo, _) in zip(means, bounds, strict=True)],
            [hi - m for m, (_, hi) in zip(means, bounds, strict=True)],
        ]
        axis.errorbar(points, means, yerr=errors, marker="o", capsize=3, label=f"({cx}, {reno}) mix")
    axis.axhspan(0.7, 1.05, color="tab:green", alpha=0.1, label="seed001-fig5's fairness band")
    axis.set(xlabel="buffer drain time (ms); δmax = 100 ms", ylabel="Cx/Reno mean throughput (mean ± 95 % CI)")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    return [save(fig, out, "buffer.png")]


declare(
    "seed001-buffer",
    runs=lambda quick: [
        Run(f"b{d}-{c}-{r}", scenario(c, r, d, quick), fairness_measures) for d in drains(quick) for c, r in MIXES
    ],
    derive=buffer_derive,
    figures=buffer_figures,
    notes=lambda quick: (
        NOTE + f" Fig. 5's mixes (25 Mb/s, RTTs uniform in [30, 130] ms, 10 web transfers/s), {200 if quick else 500} "
        f"s, "
        "δmax fixed at 100 ms; buffers "
        + ", ".join(f"{buffer_for(d)} packets ({d} ms)" for d in drains(quick))
        + "."
        + (" Quick version: 100 and 150 ms, 200 s." if quick else "")
    ),
)
