"""The agreement matrix of issue 9 item 2: {NewReno, CUBIC} × {DropTail, RED, CoDel, PIE} ×
{RTT 20 ms, 200 ms}, 50 flows, a 100 Mb/s dumbbell, 100 s; 16 aqmlab scenarios.

Choices (the issue fixes only the ranges):
- 50 long-lived flows, each with its own 1 Gb/s access link (the bottleneck is the only
  constraint), starting uniformly in [0, 10] s; 1500-byte packets; aqmlab's TCP defaults
  (initial window 2, no SACK, no delayed ACKs, min RTO 200 ms).
- The RTT is the two-way propagation delay: bottleneck 8 ms or 98 ms one way, 1 ms on
  each edge link.
- DropTail buffer = one bandwidth-delay product (167 or 1667 packets). The AQMs get a 2000-
  packet buffer (the AQM, not the buffer, sets the queue): RED(50, 150) with max_p 0.1,
  ns-2's automatic q_weight (-1), wait on, gentle off (set explicitly: aqmlab's default is
  ns-2's gentle on since this matrix was recorded); CoDel and PIE
  with their RFC defaults (5 ms/100 ms; 15 ms/15 ms).
- Measured over [20 s, 100 s], after the start-up. The first 5 flows' windows are traced.

A second set, `-minrto1s`, repeats the 16 with min_rto = 1 s in both simulators (ns-3's
default): ns-3's RTT estimator applies RFC 6298's gains to every ACK's sample, so its RTTVAR
collapses and its RTO falls to about SRTT + 1 ms (see README.md); a 1 s floor takes the
retransmission timer's estimator out of the comparison and shows what remains.

A third set, `-sack`, repeats the 16 with SACK on in both simulators (min RTO 200 ms), and a
fourth, `-minrto1s-sack`, with SACK and min RTO 1 s.
"""

from __future__ import annotations

from typing import Any

from aqmlab import Scenario

FLOWS = 50
RATE_BPS = 100e6
PACKET_BYTES = 1500
RTTS_MS = (20, 200)
EDGE_DELAY_MS = 1.0
AQM_BUFFER = "2000p"
TCPS = {"newreno": "reno", "cubic": "cubic"}


def bdp_packets(rtt_ms: float) -> int:
    return round(RATE_BPS * rtt_ms / 1000 / 8 / PACKET_BYTES)


def queues(rtt_ms: float) -> dict[str, dict[str, Any]]:
    return {
        "droptail": {"kind": "drop_tail", "limit": f"{bdp_packets(rtt_ms)}p"},
        "red": {
            "kind": "red",
            "limit": AQM_BUFFER,
            "min_th": 50,
            "max_th": 150,
            "max_p": 0.1,
            "q_weight": -1,
            "gentle": False,
            "wait": True,
        },
        "codel": {"kind": "codel", "limit": AQM_BUFFER},
        "pie": {"kind": "pie", "limit": AQM_BUFFER},
    }


def scenario(tcp: str, queue: str, rtt_ms: int, min_rto: str = "200ms", sack: bool = False) -> Scenario:
    name = (
        f"{tcp}-{queue}-rtt{rtt_ms}" + ("" if min_rto == "200ms" else f"-minrto{min_rto}") + ("-sack" if sack else "")
    )
    bottleneck_delay_ms = rtt_ms / 2 - 2 * EDGE_DELAY_MS
    return Scenario.from_dict(
        {
            "name": name,
            "description": f"issue 9 agreement matrix: {FLOWS} {tcp} flows, {queue}, RTT {rtt_ms} ms",
            "duration": "100s",
            "measure_start": "20s",
            "seed": 1,
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {
                    "rate": "100Mbps",
                    "delay": f"{bottleneck_delay_ms:g}ms",
                    "queue": queues(rtt_ms)[queue],
                },
                "groups": [
                    {
                        "name": tcp,
                        "count": FLOWS,
                        "rtt": f"{rtt_ms}ms",
                        "access_rate": "1Gbps",
                        "tcp": {"cc": TCPS[tcp], "packet_size": f"{PACKET_BYTES}B", "min_rto": min_rto, "sack": sack},
                        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
                    }
                ],
            },
            "trace": {"interval": "10ms", "flows": 5},
        }
    )


def matrix(min_rto: str = "200ms") -> dict[str, Scenario]:
    """Every scenario of the matrix by name, TCP-major, then queue, then RTT."""
    scenarios = [scenario(tcp, queue, rtt, min_rto) for tcp in TCPS for queue in queues(RTTS_MS[0]) for rtt in RTTS_MS]
    return {s.name: s for s in scenarios}


def min_rto_1s_matrix() -> dict[str, Scenario]:
    return matrix("1s")


def sack_matrix(min_rto: str = "200ms") -> dict[str, Scenario]:
    """The 16 with SACK (RFC 2018 / RFC 6675) in both simulators: takes NewReno's
    one-hole-per-RTT recovery (and ns-3's Reno-SACK emulation without SACK) out of the
    comparison; with min RTO 1 s, ns-3's RTO estimator too."""
    scenarios = [
        scenario(tcp, queue, rtt, min_rto, sack=True) for tcp in TCPS for queue in queues(RTTS_MS[0]) for rtt in RTTS_MS
    ]
    return {s.name: s for s in scenarios}
