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


@reproduction("seed003-fig4-6", PAPER, "Figs. 4-6: the queue law G(p) against measured average queues",
              "Random drop with fixed p on one bottleneck (c = 1.5, 45, 150 Mb/s; c/n from 12.5 to 750 kb/s; "
              "R_o = 100 ms; 500-byte packets; B = 2 c R_o): the predicted average queue (eq. (7)) is close to "
              "the measured one.", "≈15 min (150 Mb/s with 12 000 flows dominates)")
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
            measured = [measure(bottleneck_scenario(rate, flows, {"kind": "random_drop", "limit": f"{buffer}p",
                                                                  "probability": float(p)}, duration_s=duration),
                                buffer).average_queue for p in ps]
            curve = np.geomspace(ps[0] / 3, law.p0() * 1.2, 200)
            line, = axis.plot(curve, law.queue(curve), lw=1)
            axis.plot(ps, measured, "o", color=line.get_color(), label=f"c/n = {throughput / 1e3:g} kb/s")
            for p, m in zip(ps, measured, strict=True):
                error = abs(m - float(law.queue(p)[0])) / buffer
                worst = max(worst, error)
                rows.append({"rate_bps": rate, "flows": flows, "p": float(p), "measured": m,
                             "predicted": float(law.queue(p)[0]), "error_of_buffer": error})
        axis.set_xscale("log")
        axis.set_title(f"c = {rate / 1e6:g} Mb/s, B = {buffer} packets")
        axis.set_xlabel("drop probability p")
        axis.set_ylabel("average queue (packets)")
        axis.legend(fontsize=7)
        axis.grid(alpha=0.3)
    fig.savefig(out / "queue-law.png", dpi=110)
    plt.close(fig)
    claim = Claim("the queue law predicts the measured average queue", "close agreement (Figs. 4-6)",
                  f"largest error {100 * worst:.1f} % of the buffer over {len(rows)} runs "
                  f"(criterion: below {100 * TOLERANCE_OF_BUFFER:.0f} %)", bool(worst < TOLERANCE_OF_BUFFER))
    note = ("Model: PFTK with b = 1 (no delayed ACKs in the engine) and T0 = max(200 ms, 2 R), the engine's RTO "
            "floor with RTTVAR ≈ R/4; seed 003's 'typical' T0 = 5 R underestimates the queue at high loss. The "
            "largest errors are with 2 flows close to p0, where the model's mean-throughput argument breaks down "
            "(two sawtooth windows keep the queue high).")
    return Outcome([claim], ["queue-law.png"], note, {"runs": rows})


@reproduction("seed003-fig8-13", PAPER, "Figs. 8-13: RED's operating point, converging and beyond p_max",
              "RED(12.5, 37.5, 0.1), B = 75, M = 500 B: with few flows the operating point is the intersection "
              "of G and H and the queue converges; when the intersection lies on the jump beyond p_max, the "
              "queue oscillates between empty and full.", "≈10 s")
def operating_point(out: Path, quick: bool) -> Outcome:
    rate, buffer = 1.5e6, 75
    duration = 100.0 if quick else 300.0
    queue = {"kind": "red", "limit": "75p", "min_th": 12.5, "max_th": 37.5, "max_p": 0.1, "q_weight": 0.002,
             "mean_packet_size": "500B"}
    control = red(12.5, 37.5, 0.1)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), constrained_layout=True)
    claims, data = [], {}
    per_rtt_weight = 1 - (1 - 0.002) ** (rate / (8 * PACKET) * RTT)
    for axis, flows in zip(axes, (10, 60), strict=True):
        law = QueueLaw(rate, flows, RTT, buffer, engine_tcp(PACKET))
        point = equilibrium(law, control)
        trace = rtt_map(law, control, per_rtt_weight)
        measured = measure(bottleneck_scenario(rate, flows, queue, duration_s=duration), buffer)
        plot_laws(axis, {f"n = {flows}": law}, control, buffer, (measured.drop_rate, measured.average_queue))
        axis.set_title(f"{flows} flows: predicted p = {point.drop_probability:.3f}, q = {point.average_queue:.1f}")
        data[flows] = {"predicted": [point.drop_probability, point.average_queue], "on_jump": point.on_discontinuity,
                       "map_converges": trace.converges, "measured": [measured.drop_rate, measured.average_queue],
                       "empty_fraction": measured.empty_fraction, "full_fraction": measured.full_fraction}
        if not point.on_discontinuity:
            claims.append(Claim(f"{flows} flows: the operating point is the intersection of G and H",
                                "measured point close to the intersection (Fig. 8)",
                                f"predicted (p, q) = ({point.drop_probability:.4f}, {point.average_queue:.1f}), "
                                f"measured ({measured.drop_rate:.4f}, {measured.average_queue:.1f}) (criterion: "
                                f"queue within 20 % of B)",
                                bool(abs(measured.average_queue - point.average_queue) < 0.2 * buffer)))
        else:
            claims.append(Claim(f"{flows} flows: the equilibrium lies beyond p_max and the map oscillates",
                                "no steady state (Figs. 11-12)",
                                f"G meets H on its jump at q = {point.average_queue:.1f} (needs p = "
                                f"{point.drop_probability:.3f} > p_max = 0.1); the RTT map "
                                f"{'converges' if trace.converges else 'oscillates'} (last swing "
                                f"{np.ptp(trace.queue[-50:]):.0f} packets)",
                                bool(point.on_discontinuity and not trace.converges)))
            claims.append(Claim(f"{flows} flows: the queue oscillates between empty and full",
                                "oscillation between 0 and B (Fig. 13)",
                                f"queue empty {100 * measured.empty_fraction:.0f} % and above 0.9 B "
                                f"{100 * measured.full_fraction:.0f} % of the time; drop rate {measured.drop_rate:.3f} "
                                "(criterion: each at least 10 %)",
                                bool(measured.empty_fraction >= 0.1 and measured.full_fraction >= 0.1)))
            smooth = equilibrium(law, recommended(12.5, 37.5, 0.1, buffer))
            settled = measure(bottleneck_scenario(rate, flows, dict(queue, gentle=True), duration_s=duration), buffer)
            claims.append(Claim(f"{flows} flows: the recommended continuous law removes the problem",
                                "a linear segment from (q_max, p_max) to (B, 1) (Section III)",
                                f"predicted q = {smooth.average_queue:.1f}, measured {settled.average_queue:.1f} with "
                                "gentle RED (criterion: within 20 % of B)",
                                bool(abs(settled.average_queue - smooth.average_queue) < 0.2 * buffer)))
    fig.savefig(out / "operating-points.png", dpi=110)
    plt.close(fig)
    note = ("At 1.5 Mb/s with 60 flows (25 kb/s each, windows of a few packets) the engine holds RED's average at "
            "q_max with forced drops instead of swinging between empty and full: the map's oscillation is not "
            "reproduced here. The paper does not give the link rate and flow count of Figs. 11-13.")
    return Outcome(claims, ["operating-points.png"], note, {str(k): v for k, v in data.items()})
