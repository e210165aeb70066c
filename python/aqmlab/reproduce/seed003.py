"""Seed 003 (RED as a feedback system): the queue law against the packet engine (Figs. 4-6)
and RED's operating point (Figs. 8, 11-13). Models in `aqmlab.design`."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab.design import QueueLaw, equilibrium, recommended, red, rtt_map  # noqa: E402
from aqmlab.design.plots import plot_laws  # noqa: E402
from aqmlab.design.validation import bottleneck_scenario, engine_tcp, measure  # noqa: E402
from aqmlab.reproduce.registry import Claim, Outcome, reproduction  # noqa: E402

PAPER = "seed 003 (A study of AQM: RED as a feedback system)"
RTT, PACKET = 0.1, 500
TOLERANCE_OF_BUFFER = 0.2


@reproduction(
    "seed003-fig4-6",
    PAPER,
    "Figs. 4-6: the queue law G(p) against measured average queues",
    "Random drop with fixed p on one bottleneck (c = 1.5, 45, 150 Mb/s; c/n from 12.5 to 750 kb/s; "
    "R_o = 100 ms; 500-byte packets; B = 2 c R_o): the predicted average queue (eq. (7)) is close to "
    "the measured one.",
    "≈15 min (150 Mb/s with 12 000 flows dominates)",
)
def queue_law(out: Path, quick: bool) -> Outcome:
    rates = [1.5e6] if quick else [1.5e6, 45e6, 150e6]
    per_flow = [750e3, 300e3, 100e3, 50e3, 25e3, 12.5e3] if not quick else [750e3, 150e3, 25e3]
    duration = 300.0  # a 1.5 Mb/s run takes well under a second; few flows need long averages
    rows, worst = [], 0.0
    fig, axes = plt.subplots(1, len(rates), figsize=(5.2 * len(rates), 4), constrained_layout=True, squeeze=False)
    for axis, rate in zip(axes[0], rates, strict=True):
        buffer = round(2 * rate * RTT / (8 * PACKET))
        for throughput in per_flow:
            flows = max(1, round(rate / throughput))
            law = QueueLaw(rate, flows, RTT, buffer, engine_tcp(PACKET))
            ps = np.geomspace(law.inverse(0.95 * buffer), law.p0(), 5)[1:-1]
            measured = [
                measure(
                    bottleneck_scenario(
                        rate,
                        flows,
                        {"kind": "random_drop", "limit": f"{buffer}p", "probability": float(p)},
                        duration_s=duration,
                    ),
                    buffer,
                ).average_queue
                for p in ps
            ]
            curve = np.geomspace(ps[0] / 3, law.p0() * 1.2, 200)
            (line,) = axis.plot(curve, law.queue(curve), lw=1)
            axis.plot(ps, measured, "o", color=line.get_color(), label=f"c/n = {throughput / 1e3:g} kb/s")
            for p, m in zip(ps, measured, strict=True):
                error = abs(m - float(law.queue(p)[0])) / buffer
                worst = max(worst, error)
                rows.append(
                    {
                        "rate_bps": rate,
                        "flows": flows,
                        "p": float(p),
                        "measured": m,
                        "predicted": float(law.queue(p)[0]),
                        "error_of_buffer": error,
                    }
                )
        axis.set_xscale("log")
        axis.set_title(f"c = {rate / 1e6:g} Mb/s, B = {buffer} packets")
        axis.set_xlabel("drop probability p")
        axis.set_ylabel("average queue (packets)")
        axis.legend(fontsize=7)
        axis.grid(alpha=0.3)
    fig.savefig(out / "queue-law.png", dpi=110)
    plt.close(fig)
    claim = Claim(
        "the queue law predicts the measured average queue",
        "close agreement (Figs. 4-6)",
        f"largest error {100 * worst:.1f} % of the buffer over {len(rows)} runs "
        f"(criterion: below {100 * TOLERANCE_OF_BUFFER:.0f} %)",
        bool(worst < TOLERANCE_OF_BUFFER),
    )
    note = (
        "Model: PFTK with b = 1 (no delayed ACKs in the engine) and T0 = max(200 ms, 2 R), the engine's RTO "
        "floor with RTTVAR ≈ R/4; seed 003's 'typical' T0 = 5 R underestimates the queue at high loss. The "
        "largest errors are with 2 flows close to p0, where the model's mean-throughput argument breaks down "
        "(two sawtooth windows keep the queue high)."
    )
    return Outcome([claim], ["queue-law.png"], note, {"runs": rows})


@reproduction(
    "seed003-fig8-13",
    PAPER,
    "Figs. 8-13: RED's operating point, converging and beyond p_max",
    "RED(12.5, 37.5, 0.1), B = 75, M = 500 B: with few flows the operating point is the intersection "
    "of G and H and the queue converges; when the intersection lies on the jump beyond p_max, the "
    "queue oscillates between empty and full.",
    "≈15 s",
)
def operating_point(out: Path, quick: bool) -> Outcome:
    buffer = 75
    duration = 100.0 if quick else 300.0
    queue = {
        "kind": "red",
        "limit": "75p",
        "min_th": 12.5,
        "max_th": 37.5,
        "max_p": 0.1,
        "q_weight": 0.002,
        "mean_packet_size": "500B",
        # The paper's H (eq. 10) jumps from p_max to 1 at max_th: RED as in ns-2 before gentle_
        # became its default (ns-default.tcl line 146, April 2001; the paper is from 2000).
        "gentle": False,
    }
    control = red(12.5, 37.5, 0.1)
    # The paper gives neither the link rate nor the flow count of Figs. 8-13. B = 75 packets of
    # 500 B is 2 c R_o (Section II-B's buffer rule) at c = 1.5 Mb/s, R_o = 100 ms, so we take
    # 1.5 Mb/s: 10 flows converge (Figs. 8-10); 60 flows put the equilibrium on H's jump (Fig. 11).
    cases = ((1.5e6, 10), (1.5e6, 60))
    fig, axes = plt.subplots(1, len(cases), figsize=(11, 4.2), constrained_layout=True)
    traces, trace_axes = plt.subplots(len(cases), 1, figsize=(10, 5.5), constrained_layout=True)
    claims, data = [], {}
    for axis, trace_axis, (rate, flows) in zip(axes, trace_axes, cases, strict=True):
        label = f"{flows} flows at {rate / 1e6:g} Mb/s"
        # Seed 003 Section II-D: the RTT-step map averages with the weight of one RTT's packets.
        per_rtt_weight = 1 - (1 - 0.002) ** (rate / (8 * PACKET) * RTT)
        law = QueueLaw(rate, flows, RTT, buffer, engine_tcp(PACKET))
        point = equilibrium(law, control)
        trace = rtt_map(law, control, per_rtt_weight)
        measured = measure(bottleneck_scenario(rate, flows, queue, duration_s=duration), buffer)
        plot_laws(axis, {f"n = {flows}": law}, control, buffer, (measured.drop_rate, measured.average_queue))
        axis.set_title(
            f"{label}: predicted p = {point.drop_probability:.3f}, q = {point.average_queue:.1f}", fontsize=9
        )
        shown = measured.trace_time_s < measured.trace_time_s[0] + 10
        trace_axis.plot(measured.trace_time_s[shown], measured.trace_queue[shown], lw=0.7)
        trace_axis.set(ylabel="queue (packets)", ylim=(0, buffer * 1.05), title=label)
        data[label] = {
            "rate_bps": rate,
            "flows": flows,
            "predicted": [point.drop_probability, point.average_queue],
            "on_jump": point.on_discontinuity,
            "map_converges": trace.converges,
            "measured": [measured.drop_rate, measured.average_queue],
            "empty_fraction": measured.empty_fraction,
            "full_fraction": measured.full_fraction,
            "swing": measured.swing,
        }
        if not point.on_discontinuity:
            claims.append(
                Claim(
                    f"{label}: the operating point is the intersection of G and H",
                    "measured point close to the intersection (Fig. 8)",
                    f"predicted (p, q) = ({point.drop_probability:.4f}, {point.average_queue:.1f}), "
                    f"measured ({measured.drop_rate:.4f}, {measured.average_queue:.1f}) (criterion: "
                    f"queue within 20 % of B)",
                    bool(abs(measured.average_queue - point.average_queue) < 0.2 * buffer),
                )
            )
            continue
        claims.append(
            Claim(
                f"{label}: the equilibrium lies beyond p_max and the map oscillates",
                "no steady state (Figs. 11-12)",
                f"G meets H on its jump at q = {point.average_queue:.1f} (needs p = "
                f"{point.drop_probability:.3f} > p_max = 0.1); the RTT map "
                f"{'converges' if trace.converges else 'oscillates'} (last swing "
                f"{np.ptp(trace.queue[-50:]):.0f} packets)",
                bool(point.on_discontinuity and not trace.converges),
            )
        )
        smooth = equilibrium(law, recommended(12.5, 37.5, 0.1, buffer))
        settled = measure(bottleneck_scenario(rate, flows, dict(queue, gentle=True), duration_s=duration), buffer)
        data[label]["gentle"] = {"measured": [settled.drop_rate, settled.average_queue], "swing": settled.swing}
        claims.append(
            Claim(
                f"{label}: the queue oscillates between empty and full",
                "oscillation between 0 and B that does not decay (Fig. 13)",
                f"median range of the queue in 1 s windows {100 * measured.swing:.0f} % of B (empty "
                f"{100 * measured.empty_fraction:.0f} %, above 0.9 B {100 * measured.full_fraction:.0f} % "
                f"of the time); drop rate {measured.drop_rate:.3f} (criterion: at least 60 % of B)",
                bool(measured.swing >= 0.6),
            )
        )
        claims.append(
            Claim(
                f"{label}: the recommended continuous law removes the problem",
                "a linear segment from (q_max, p_max) to (B, 1) (Section III)",
                f"predicted q = {smooth.average_queue:.1f}, measured {settled.average_queue:.1f} with "
                f"gentle RED, median 1 s range {100 * settled.swing:.0f} % of B "
                f"against {100 * measured.swing:.0f} % with the jump (criterion: within 20 % of B, "
                "range at most half the jump's)",
                bool(
                    abs(settled.average_queue - smooth.average_queue) < 0.2 * buffer
                    and settled.swing <= 0.5 * measured.swing
                ),
            )
        )
    trace_axes[-1].set_xlabel("time (s)")
    fig.savefig(out / "operating-points.png", dpi=110)
    traces.savefig(out / "queue-traces.png", dpi=110)
    plt.close(fig)
    plt.close(traces)
    note = (
        "The paper gives neither the link rate nor the flow count of Figs. 8-13; B = 75 is 2 c R_o at "
        "1.5 Mb/s, so we run 1.5 Mb/s. With the equilibrium beyond p_max (60 flows) RED's average rides "
        "q_max (forced drops alternate with early ones, drop rate about 0.27 against p_max = 0.1) while "
        "the queue swings in a sawtooth of about 0.7 s from near empty to near full: it spends little "
        "time at either end (the share of time empty or above 0.9 B is a few per cent), so the "
        "oscillation is judged by the queue's range in 1 s windows, not by time at the extremes. "
        "Gentle RED (the recommended continuous law) removes most of the swing. At higher rates with "
        "the same B (10 Mb/s, 150-400 flows) the queue swings with gentle RED too: the buffer is then "
        "well under one bandwidth-delay product, and the swing is the small buffer's, not the jump's."
    )
    return Outcome(claims, ["operating-points.png", "queue-traces.png"], note, data)
