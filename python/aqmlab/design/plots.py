"""Figures of the design tools: queue laws against control laws (seed 003 Figs. 8, 11, 15)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab.design.control_law import recommended  # noqa: E402
from aqmlab.design.red_config import RedRecommendation  # noqa: E402


def plot_laws(axis, queue_laws: dict, control, buffer: float, measured: tuple[float, float] | None = None) -> None:
    """Queue laws q = G(p) and a control law p = H(q) in the (p, q) plane."""
    p = np.geomspace(1e-5, 1 - 1e-9, 400)
    for label, law in queue_laws.items():
        axis.plot(p, law.queue(p), label=f"queue law {label}")
    q = np.linspace(0, buffer, 400)
    axis.plot([control(v) for v in q], q, "k-", lw=1.5, label="control law")
    if measured is not None:
        axis.plot(*measured, "r*", ms=12, label="measured (engine)")
    axis.set_xscale("log")
    axis.set_xlabel("drop probability p")
    axis.set_ylabel("average queue (packets)")
    axis.set_ylim(0, buffer * 1.05)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)


def plot_design(recommendation: RedRecommendation, path: str | Path) -> Path:
    r = recommendation
    fig, axis = plt.subplots(figsize=(6.5, 4.5), constrained_layout=True)
    law = recommended(r.min_th, r.max_th, r.max_p, r.buffer_packets)
    plot_laws(axis, {"G_max": r.queue_law_max, "G_min": r.queue_law_min}, law, r.buffer_packets)
    axis.set_title(
        f"{r.policy}: q_min {r.min_th:.1f}, q_max {r.max_th:.1f}, p_max {r.max_p:.3g}, B {r.buffer_packets:.0f}"
    )
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)
