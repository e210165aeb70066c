"""Seed 003 (RED as a feedback system) Sections II-C and II-D: RED's operating point where
the queue law G meets the control law H (Fig. 8), the instantaneous and average queue in
time when it converges (Fig. 10), and when the equilibrium lies on H's jump beyond p_max
(Figs. 11-13); and Section III's continuous law in the Fig. 11 case. Models in
`aqmlab.design`; the measures in `seed003_measures`.

The paper's RED: q_min = 12.5, q_max = 37.5 packets, p_max = 0.1, B = 75, M = 500 B,
w = 0.002 (Section II-D, "as recommended in [3]"). Ours, where the paper is silent: neither
the link rate nor the flow counts of Figs. 8-13 are given. B = 75 packets of 500 B is
2 c R_o (Section II-B's buffer rule) at c = 1.5 Mb/s, R_o = 100 ms, so we take 1.5 Mb/s:
10 flows converge (Figs. 8-10); 60 flows put the equilibrium on H's jump (Fig. 11).

Importing this module also registers seed 003's other reproductions (queue law, Section
III, Section IV), which live in their own files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab.design import QueueLaw, equilibrium, recommended, red, rtt_map  # noqa: E402
from aqmlab.design.plots import plot_laws  # noqa: E402
from aqmlab.design.validation import bottleneck_scenario, engine_tcp  # noqa: E402
from aqmlab.reproduce import seed003_config, seed003_estimator, seed003_queue_law  # noqa: E402, F401
from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Evidence, Run  # noqa: E402
from aqmlab.reproduce.seed003_measures import (  # noqa: E402
    crossings_per_second,
    full_swings,
    share_between,
    swing_trend,
    window_extremes,
)

PAPER = "seed 003 (A study of AQM: RED as a feedback system)"
RTT_S, PACKET_BYTES, RATE_BPS = 0.1, 500, 1.5e6
MIN_TH, MAX_TH, MAX_P, BUFFER, WEIGHT = 12.5, 37.5, 0.1, 75, 0.002
#: Our reading of "close" (no number in the paper), as in seed003_queue_law.
CLOSE = 0.10
#: "Between 0 and B" at the resolution of a queue plot: within 5 % of B of either end.
ENDS = 0.05 * BUFFER
#: (run, flows, gentle): Figs. 8-10, Figs. 11-13, and Section III's continuous law.
CASES = (("converging", 10, False), ("beyond-pmax", 60, False), ("continuous", 60, True))

RED_QUEUE = {
    "kind": "red",
    "limit": f"{BUFFER}p",
    "min_th": MIN_TH,
    "max_th": MAX_TH,
    "max_p": MAX_P,
    "q_weight": WEIGHT,
    "mean_packet_size": f"{PACKET_BYTES}B",
}


def queue_law(flows: int) -> QueueLaw:
    return QueueLaw(RATE_BPS, flows, RTT_S, BUFFER, engine_tcp(PACKET_BYTES))


def control(gentle: bool):
    return recommended(MIN_TH, MAX_TH, MAX_P, BUFFER) if gentle else red(MIN_TH, MAX_TH, MAX_P)


def scenario(flows: int, gentle: bool, quick: bool) -> dict[str, Any]:
    built = bottleneck_scenario(
        RATE_BPS,
        flows,
        # gentle explicit: the paper's H (eq. 10) jumps from p_max to 1 at q_max (ns-2 before gentle_
        # became its default in April 2001; aqmlab's default is ns-2's gentle); True is Section III's law.
        dict(RED_QUEUE, gentle=gentle),
        rtt_s=RTT_S,
        packet_bytes=PACKET_BYTES,
        duration_s=100.0 if quick else 300.0,
    )
    built["trace"]["interval"] = "1ms"  # a packet time is 2.7 ms: the trace sees the queue's extremes
    return built


def measures(results) -> dict[str, float]:
    """Over the measurement window: the means of the queue and of RED's average, the drop
    rate, the average's share between the thresholds and its upward crossings of q_max per
    second, and the instantaneous queue's typical cycle (median smallest and largest value
    in 2 s windows), the share of 2 s windows that go from empty to full, and the range late
    in the run against early on (`seed003_measures`)."""
    samples = results.link_samples()
    window = samples["time_s"] > results.measure_start_s
    time_s, queue, average = (
        samples["time_s"][window],
        samples["queue_packets"][window],
        samples["average_queue"][window],
    )
    summary = results.summary()
    low, high = window_extremes(time_s, queue)
    return {
        "queue": summary["queue_mean_packets"],
        "average": float(np.mean(average)),
        "drop_rate": summary["loss_percent"] / 100.0,
        "average_between_thresholds": share_between(average, MIN_TH, MAX_TH),
        "average_crossings_per_s": crossings_per_second(time_s, average, MAX_TH),
        "cycle_low": low,
        "cycle_high": high,
        "empty_to_full_share": full_swings(time_s, queue, BUFFER, slack_packets=ENDS),
        "swing_trend": swing_trend(time_s, queue),
    }


def runs(quick: bool) -> list[Run]:
    return [Run(run, scenario(flows, gentle, quick), measures, keep=True) for run, flows, gentle in CASES]


def derive(measured: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """The model's operating points (deterministic) and the measured points' relative errors."""
    out = {}
    for run, flows, gentle in CASES:
        point = equilibrium(queue_law(flows), control(gentle))
        out[f"{run}.predicted_queue"] = point.average_queue
        out[f"{run}.predicted_p"] = point.drop_probability
        out[f"{run}.on_jump"] = float(point.on_discontinuity)
        out[f"{run}.queue_error"] = measured[run]["average"] / point.average_queue - 1.0
        out[f"{run}.p_error"] = measured[run]["drop_rate"] / point.drop_probability - 1.0
    # Section II-D's RTT-step map with the weight of one RTT's packets (w per arrival, c R_o / M arrivals).
    per_rtt = 1 - (1 - WEIGHT) ** (RATE_BPS / (8 * PACKET_BYTES) * RTT_S)
    trace = rtt_map(queue_law(60), control(False), per_rtt)
    out["beyond-pmax.map_oscillates"] = float(not trace.converges)
    out["beyond-pmax.map_last_swing"] = float(np.ptp(trace.queue[-50:]))
    return out


def figures(out: Path, evidence: Evidence) -> list[str]:
    fig, axes = plt.subplots(1, len(CASES), figsize=(5.2 * len(CASES), 4.2), constrained_layout=True)
    traces, trace_axes = plt.subplots(len(CASES), 1, figsize=(10, 7.5), constrained_layout=True)
    for axis, trace_axis, (run, flows, gentle) in zip(axes, trace_axes, CASES, strict=True):
        measured = (evidence.mean(f"{run}.drop_rate"), evidence.mean(f"{run}.average"))
        plot_laws(axis, {f"n = {flows}": queue_law(flows)}, control(gentle), BUFFER, measured)
        axis.set_title(f"{run}: {flows} flows, {'continuous law' if gentle else 'RED (10)'}", fontsize=9)
        samples = evidence.kept[run].link_samples()
        start = evidence.kept[run].measure_start_s
        shown = (samples["time_s"] > start) & (samples["time_s"] < start + 10)
        trace_axis.plot(samples["time_s"][shown], samples["queue_packets"][shown], lw=0.6, label="queue")
        trace_axis.plot(samples["time_s"][shown], samples["average_queue"][shown], lw=1.4, label="average (w = 0.002)")
        for level in (MIN_TH, MAX_TH):
            trace_axis.axhline(level, color="grey", lw=0.6, ls="--")
        trace_axis.set(ylabel="packets", ylim=(0, BUFFER * 1.05), title=f"{run} ({flows} flows), seed 1")
        trace_axis.legend(fontsize=7, loc="upper right")
    trace_axes[-1].set_xlabel("time (s)")
    fig.savefig(out / "operating-points.png", dpi=110)
    traces.savefig(out / "queue-and-average.png", dpi=110)
    plt.close(fig)
    plt.close(traces)
    return ["operating-points.png", "queue-and-average.png"]


def note(quick: bool) -> str:
    length = "100 s runs measured over [50, 100] s (quick)" if quick else "300 s runs measured over [50, 300] s"
    return (
        f"1.5 Mb/s (the paper gives neither rate nor flow counts; B = 75 is 2 c R_o there), R_o = 100 ms, {length}, "
        "queue traced every 1 ms. With the equilibrium beyond p_max (60 flows) RED's average rides q_max (forced "
        "drops alternate with early ones) while the queue swings in a sawtooth of about 0.7 s whose typical cycle "
        "runs from about a tenth of B to about nine tenths: wide, but not from 0 to B. The continuous law (gentle "
        "RED, B = 2 q_max) removes the swing."
    )


declare("seed003-fig8-13", runs=runs, derive=derive, figures=figures, notes=note)
