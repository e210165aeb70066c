"""Seed 003 Section III: the drop-conservative and delay-conservative RED configurations
(`aqmlab.design.red_config`), checked in the model (G_min ≤ G ≤ G_max; the operating points
at the range's ends on the linear part) and with the packet engine (`seed003-section3`).

The paper's rules: q_max = 1.2 G_max(p_max) given p_max (drop-conservative); q_max = d_max c
and p_max = 1.2 G_max^{-1}(q_max) given d_max, "for example d_max = 0.2 R_o,ave"
(delay-conservative); a linear segment from (q_max, p_max) to (B, 1); B = 2 q_max. G_max uses
n_max, M_max (or M_ave), R_o,min; G_min uses n_min, M_min (or M_ave), R_o,max.

The paper's example traffic, used here: a WAN with predominantly dial-up traffic,
τ = 28.8-56 kb/s per flow, M_ave = 512 B, R_o,min = 50 ms, R_o,max = 200 ms (the paper:
"200-500 ms"), R_o,ave = 100 ms; a LAN with τ = 100 kb/s-1 Mb/s, R_o = 2-15 ms, R_o,ave = 10 ms.
Ours, where the paper is silent: the line rates (1.5 Mb/s for the WAN, a T1 carrying dial-up
users; 10 Mb/s for the LAN in the model check), p_max = 0.1 for the drop-conservative policy
(Fig. 8's value), q_min = q_max/3 (Fig. 8's ratio), and the engine's TCP in the model
(`engine_tcp`). The packet runs use the WAN at 1.5 Mb/s with n_max = 52 flows at R_o,min
(the traffic of G_max) and n_min = 27 flows at R_o,max (that of G_min).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from aqmlab.design import QueueLaw, Range, operating_points, red_config
from aqmlab.design.validation import bottleneck_scenario, engine_tcp
from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Computed, Run

PAPER = "seed 003 (A study of AQM: RED as a feedback system)"
PACKET_BYTES = 512  # the paper's example M_ave
#: Section III's examples: (name, line rate (ours), per-flow throughput range, R_o range, R_o,ave).
ENVIRONMENTS = (
    ("wan", 1.5e6, Range(28.8e3, 56e3), Range(0.05, 0.2), 0.1),
    ("lan", 10e6, Range(100e3, 1e6), Range(0.002, 0.015), 0.01),
)
DROP_CONSERVATIVE_MAX_P = 0.1  # ours: Fig. 8's p_max; the paper gives none for the policy
DELAY_SHARE_OF_RTT = 0.2  # "for example d_max = 0.2 R_o,ave"
POLICIES = ("drop-conservative", "delay-conservative")


def recommendation(environment: str, policy: str):
    _, rate, per_flow, rtt, rtt_ave = next(e for e in ENVIRONMENTS if e[0] == environment)
    extra = (
        {"max_p": DROP_CONSERVATIVE_MAX_P}
        if policy == "drop-conservative"
        else {"max_delay_s": DELAY_SHARE_OF_RTT * rtt_ave}
    )
    return red_config(
        rate,
        per_flow_bps=per_flow,
        packet_bytes=Range(PACKET_BYTES, PACKET_BYTES),
        rtt_s=rtt,
        policy=policy,
        tcp=engine_tcp(PACKET_BYTES),
        **extra,
    )


# --- the model: G_min <= G <= G_max, and the operating points at the ends ----------------------


def queue_delay(rate: float, flows: float, packet_bytes: float, rtt: float, p: np.ndarray) -> np.ndarray:
    """G(p) as a queueing delay, s (packet counts differ with M; the delay q/c does not)."""
    law = QueueLaw(rate, flows, rtt, math.inf, engine_tcp(packet_bytes))
    return law.queue(p) * 8.0 * packet_bytes / rate


def ordering_share(environment: str) -> float:
    """Share of (n, M, R_o, p) grid points, n, M (256-1500 B, the paper's example) and R_o
    within the ranges, where G_min(p) ≤ G(p) ≤ G_max(p) (Section III: "it is easy to show")."""
    _, rate, per_flow, rtt, _ = next(e for e in ENVIRONMENTS if e[0] == environment)
    n_min, n_max = rate / per_flow.high, rate / per_flow.low
    p = np.geomspace(1e-4, 0.5, 25)
    upper = queue_delay(rate, n_max, 1500, rtt.low, p)
    lower = queue_delay(rate, n_min, 256, rtt.high, p)
    ok = []
    for n in np.linspace(n_min, n_max, 4):
        for m in (256, 512, 1500):
            for r in np.linspace(rtt.low, rtt.high, 4):
                g = queue_delay(rate, n, m, r, p)
                ok.append((g <= upper * (1 + 1e-9) + 1e-12) & (g >= lower * (1 - 1e-9) - 1e-12))
    return float(np.mean(ok))


def compute_laws(out: Path, quick: bool) -> Computed:
    values, lines = {}, []
    for environment, *_ in ENVIRONMENTS:
        values[f"{environment}.ordering"] = ordering_share(environment)
        for policy in POLICIES:
            r = recommendation(environment, policy)
            points = operating_points(r)
            for end, (_, q) in points.items():
                values[f"{environment}.{policy}.{end}.headroom"] = r.max_th - q
            lines.append(
                f"{environment} {policy}: q_min {r.min_th:.3g}, q_max {r.max_th:.4g}, p_max {r.max_p:.3g}, "
                f"B {r.buffer_packets:.4g} packets; operating points (p, q): "
                + ", ".join(f"{end} ({p:.3g}, {q:.3g})" for end, (p, q) in points.items())
            )
    return Computed(values, notes="Configurations (512-byte packets): " + "; ".join(lines) + ".")


declare(
    "seed003-section3-laws",
    compute=compute_laws,
    notes="Line rates ours (1.5 Mb/s WAN, 10 Mb/s LAN); p_max = 0.1 (drop-conservative, Fig. 8's value); "
    "d_max = 0.2 R_o,ave (delay-conservative, the paper's example).",
)


# --- the packet engine: the WAN at 1.5 Mb/s ---------------------------------------------------

#: The extremes of the WAN range: (run suffix, flows, R_o). n_max = ⌊c/τ_min⌋, n_min = ⌈c/τ_max⌉.
EXTREMES = (("gmax", math.floor(1.5e6 / 28.8e3), 0.05), ("gmin", math.ceil(1.5e6 / 56e3), 0.2))


def run_name(policy: str, extreme: str) -> str:
    return f"{policy.split('-')[0]}-{extreme}"


def scenario(policy: str, flows: int, rtt: float, quick: bool) -> dict[str, Any]:
    queue = dict(recommendation("wan", policy).queue_config(), mean_packet_size=f"{PACKET_BYTES}B")
    built = bottleneck_scenario(
        1.5e6, flows, queue, rtt_s=rtt, packet_bytes=PACKET_BYTES, duration_s=100.0 if quick else 300.0
    )
    return built


def measures(results) -> dict[str, float]:
    summary = results.summary()
    return {
        "average": summary["average_queue_mean"],
        "drop_rate": summary["loss_percent"] / 100.0,
        "delay_ms": 1e3 * summary["queueing_delay_mean_s"],
    }


def runs(quick: bool) -> list[Run]:
    return [
        Run(run_name(policy, extreme), scenario(policy, flows, rtt, quick), measures)
        for policy in POLICIES
        for extreme, flows, rtt in EXTREMES
    ]


def derive(measured: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    out = {}
    for policy in POLICIES:
        r = recommendation("wan", policy)
        for extreme, *_ in EXTREMES:
            run = run_name(policy, extreme)
            out[f"{run}.queue_headroom"] = r.max_th - measured[run]["average"]
            out[f"{run}.p_headroom"] = r.max_p - measured[run]["drop_rate"]
    out["drop-over-delay.p"] = measured["drop-gmax"]["drop_rate"] / measured["delay-gmax"]["drop_rate"]
    out["drop-over-delay.queue"] = measured["drop-gmax"]["average"] / measured["delay-gmax"]["average"]
    return out


declare(
    "seed003-section3",
    runs=runs,
    derive=derive,
    notes=lambda quick: (
        ("100 s runs measured over [50, 100] s (quick)" if quick else "300 s runs measured over [50, 300] s")
        + "; the configurations are in seed003-section3-laws' notes. RED runs with the program's per-arrival "
        "weight, gentle (the linear segment to (B, 1) with B = 2 q_max) and ns-2's wait."
    ),
)
