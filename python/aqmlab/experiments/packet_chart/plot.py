"""The figure of a packet stability chart: the packet boundary's brackets over the fluid Hopf
curves (top), and the packet oscillation period beside the fluid one (bottom)."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab.experiments.packet_chart.axes import AXES  # noqa: E402

FLUID_STYLE = {"paper": ("k-", "fluid Hopf, seed 000's parameters"), "mapped": ("C1--", "fluid Hopf, mapped")}


def _label(name: str) -> str:
    return f"{name} ({AXES[name].unit})"


def plot_packet_chart(chart, path: Path, *, title: str | None = None) -> Path:
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(7, 7.5), sharex=True, gridspec_kw={"height_ratios": [3, 1.4]}, constrained_layout=True
    )
    low, high = chart.y_range
    labelled = set()

    def once(label: str) -> str | None:
        if label in labelled:
            return None
        labelled.add(label)
        return label

    for b in chart.boundaries:
        if b.bracketed:
            top.plot([b.x, b.x], [b.stable_y, b.oscillating_y], "-", color="tab:blue", lw=2.5, alpha=0.6)
            top.plot(b.x, b.stable_y, "o", color="tab:green", label=once("packets: stable (all seeds)"))
            top.plot(b.x, b.oscillating_y, "s", color="tab:red", label=once("packets: oscillating (all seeds)"))
        elif b.status == "stable throughout":
            top.plot(b.x, high, "^", color="tab:green", ms=9, label=once("packets: stable over the whole range"))
        elif b.status == "oscillating throughout":
            top.plot(b.x, low, "v", color="tab:red", ms=9, label=once("packets: oscillating over the whole range"))
        for y, verdict in b.probes:
            if verdict.verdict == "undecided":
                top.plot(b.x, y, "x", color="0.4", label=once("packets: undecided probe"))
    for mapping, curve in chart.fluid.get("curves", {}).items():
        style, label = FLUID_STYLE[mapping]
        ys = np.array(curve["y"], dtype=float)
        if np.isfinite(ys).any():
            top.plot(curve["x"], ys, style, label=label)
            bottom.plot(curve["x"], curve["period_s"], style, label=label.replace("Hopf", "period at Hopf"))
        else:
            top.plot([], [], style, label=f"{label}: none in range ({curve['note'][0].split('; ')[-1]})")
    periods = [chart.packet_period(b) for b in chart.boundaries]
    xs = [b.x for b in chart.boundaries]
    if any(math.isfinite(p) for p in periods):
        bottom.plot(xs, periods, "s", color="tab:red", label="packets: period at the oscillating end")
    top.set_ylim(low - 0.05 * (high - low), high + 0.05 * (high - low))
    top.set_ylabel(_label(chart.y))
    top.grid(alpha=0.3)
    top.legend(fontsize=7, loc="best")
    top.set_title(title or f"{chart.scenario}: packet boundary (seeds {chart.settings['seeds']}) and fluid Hopf curve")
    bottom.set_yscale("log")
    bottom.set_ylabel("period (s)")
    bottom.set_xlabel(_label(chart.x))
    bottom.grid(alpha=0.3, which="both")
    if bottom.lines:
        bottom.legend(fontsize=7, loc="best")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
