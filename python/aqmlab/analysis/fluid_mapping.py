"""The seed 000 fluid model's parameters for a packet-level dumbbell with RED (issue 9 item 4).

Seed 000 writes the model per flow (Section II-B): the link serves C = N C̃ packets/s, the
"scaled queue" is q = Q/N (eq. 4), and RED acts on the average r of q (eqs. 5-7). A packet
dumbbell of N flows on a C packets/s bottleneck with RED(min_th, max_th, max_p) on the whole
queue Q therefore maps to

* C̃ = C/N (eq. 3: "the packets are served at a rate of C = N C̃");
* b = min_th/N, b̄ = max_th/N, buffer B/N (thresholds on Q are thresholds on q = Q/N);
* p̄ = max_p (eq. 6);
* γ from ns-2's EWMA: avg ← (1 − w_q) avg + w_q Q at every arrival, about C arrivals a
  second, is ṙ = −K (r − q) with K = −C ln(1 − w_q) per second (the fluid limit used by
  Misra, Gong and Towsley, seed 000 ref. [32]); eq. (5) writes K = γ C̃, so γ = K / C̃. The
  ns-2 default q_weight = −1 sets w_q from the link (`red_weight`, as the engine's
  `queue/red.rs::automatic_q_weight`);
* τ: the flows' mean round-trip time (eq. 1 "τ can be regarded as the average round-trip
  time"), which the caller measures (propagation + serialisation + queueing).

Not mapped, and so differences between the two models (measured in
benchmarks/fluid-vs-packet/README.md): RED's drop spacing by `count` and `wait` (the fluid model
drops independently with probability p), the forced drops above max_th (the affine law (7)
extends past b̄), slow start and timeouts, and the engine's Compound TCP being Reno below
its low_wnd of 41 packets.
"""

from __future__ import annotations

import math


def red_weight(q_weight: float, rate_bps: float, mean_packet_bytes: float, link_delay_s: float) -> float:
    """ns-2's RED EWMA weight (`REDQueue::initialize_params`); ptc = packets per second.
    q_weight = −1: w = 1 − exp(−1/(10 rtt ptc)), rtt = max(3 (delay + 1/ptc), 0.1 s);
    0: w = 1 − exp(−1/ptc); −2: w = 1 − exp(−10/ptc); a value in (0, 1] is used as given."""
    ptc = rate_bps / (8.0 * mean_packet_bytes)
    if 0.0 < q_weight <= 1.0:
        return q_weight
    if q_weight == 0.0:
        return 1.0 - math.exp(-1.0 / ptc)
    if q_weight == -1.0:
        rtt = max(3.0 * (link_delay_s + 1.0 / ptc), 0.1)
        return 1.0 - math.exp(-1.0 / (10.0 * rtt * ptc))
    if q_weight == -2.0:
        return 1.0 - math.exp(-10.0 / ptc)
    raise ValueError(f"q_weight = {q_weight}; allowed: a weight in (0, 1], or 0, -1, -2 (ns-2's automatic weights)")


def fluid_parameters(
    *,
    flows: int,
    rate_bps: float,
    packet_bytes: float,
    min_th: float,
    max_th: float,
    max_p: float,
    buffer_packets: float,
    q_weight: float,
    link_delay_s: float,
    tau_s: float,
) -> dict[str, float]:
    """Parameters of `ctcp-red` / `ctcp-red-noavg` (aqmlab.fluid) for the packet dumbbell
    (mapping in the module docstring). `ctcp-red-noavg` ignores `gamma`."""
    capacity = rate_bps / (8.0 * packet_bytes)  # C, packets/s
    per_flow = capacity / flows  # C̃ (seed 000 eq. 3)
    weight = red_weight(q_weight, rate_bps, packet_bytes, link_delay_s)
    averaging_rate = -capacity * math.log1p(-weight)  # K, 1/s: one EWMA step per arrival, ≈ C arrivals/s
    return {
        "C": per_flow,
        "tau": tau_s,
        "b_min": min_th / flows,  # thresholds on the scaled queue q = Q/N (seed 000 eq. 4)
        "b_max": max_th / flows,
        "p_max": max_p,
        "gamma": averaging_rate / per_flow,  # eq. (5): γ C̃ = K
        "buffer": buffer_packets / flows,
    }
