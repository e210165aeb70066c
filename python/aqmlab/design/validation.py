"""Packet-engine checks of seed 003's models: the queue law under random drop (Section
II-B, Figs. 4-6) and RED operating points (Section II-C, Fig. 8).

The engine's TCP is NewReno without delayed ACKs, so the model uses b = 1. Its
retransmission timeout is max(200 ms, SRTT + 4 RTTVAR); the model's T0 is taken as
max(200 ms, 2 R), i.e. RTTVAR ≈ R/4 (`ENGINE_TCP`). With seed 003's "typical" T0 = 5 R the
predicted queue at high drop rates is far too low (docs/design.md has both).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from aqmlab.design.pftk import TcpModel
from aqmlab.simulation import simulate


def engine_tcp(packet_bytes: float) -> TcpModel:
    return TcpModel(packet_bytes=packet_bytes, b=1.0, t0_rtts=2.0, min_t0=0.2)


@dataclass(frozen=True)
class Measurement:
    average_queue: float
    drop_rate: float
    utilisation: float
    empty_fraction: float
    full_fraction: float
    #: Median over the measurement's 1 s windows of the queue's range (max - min) as a share
    #: of B: near 1 when the queue "oscillates between 0 and B" (seed 003 Fig. 13), whatever
    #: the cycle's shape (a sawtooth spends little time at either end).
    swing: float
    #: The sampled queue over the measurement window (time in s, packets), for figures.
    trace_time_s: np.ndarray
    trace_queue: np.ndarray


def bottleneck_scenario(
    rate_bps: float,
    flows: int,
    queue: dict[str, Any],
    *,
    rtt_s: float = 0.1,
    packet_bytes: int = 500,
    duration_s: float = 300.0,
) -> dict[str, Any]:
    """Seed 003 Section II-B: one bottleneck, fast edge links, long-lived flows, R_o = rtt_s."""
    return {
        "name": "seed003",
        "duration": duration_s,
        "measure_start": min(50.0, duration_s / 2),
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {
                "rate": rate_bps,
                "delay": rtt_s / 10,
                "queue": queue,
                "reverse_queue": {"kind": "drop_tail", "limit": "100000p"},
            },
            "groups": [
                {
                    "name": "ftp",
                    "count": flows,
                    "rtt": rtt_s,
                    "access_rate": 10 * rate_bps,
                    "receiver_rate": 10 * rate_bps,
                    "access_queue": {"kind": "drop_tail", "limit": "1000000p"},
                    "tcp": {"packet_size": f"{packet_bytes}B"},
                }
            ],
        },
        "trace": {"flows": 0},
    }


def measure(scenario: dict[str, Any], buffer_packets: float, seed: int = 1) -> Measurement:
    results = simulate(scenario, seed=seed)
    summary = results.summary()
    samples = results.link_samples()
    window = samples["time_s"] > results.measure_start_s
    queue = samples["queue_packets"][window]
    time_s = samples["time_s"][window]
    return Measurement(
        summary["queue_mean_packets"],
        summary["loss_percent"] / 100.0,
        summary["utilisation_mean"],
        float(np.mean(queue <= 1)),
        float(np.mean(queue >= 0.9 * buffer_packets)),
        swing(time_s, queue, buffer_packets),
        time_s,
        queue,
    )


def swing(time_s: np.ndarray, queue: np.ndarray, buffer_packets: float, window_s: float = 1.0) -> float:
    """Median over `window_s` windows of the queue's range (max - min), as a share of the buffer."""
    if len(time_s) == 0:
        return 0.0
    bins = np.floor((time_s - time_s[0]) / window_s).astype(int)
    ranges = [np.ptp(queue[bins == b]) for b in np.unique(bins)]
    return float(np.median(ranges) / buffer_packets)
