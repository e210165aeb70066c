"""A small traced run shared by the per-packet trace tests: three finite SACK + ECN transfers
over a RED bottleneck with a short buffer, so that it marks, drops (early and overflow) and
every transfer completes (nothing is left queued or in flight at the end)."""

from __future__ import annotations

from aqmlab.scenario import Scenario

SMALL = {
    "name": "traced",
    "duration": "3s",
    "seed": 5,
    "topology": {
        "kind": "dumbbell",
        "bottleneck": {
            "rate": "10Mbps",
            "delay": "5ms",
            "queue": {"kind": "red", "limit": "25p", "min_th": 3, "max_th": 12, "ecn": True},
        },
        "groups": [
            {
                "name": "sack",
                "count": 3,
                "rtt": "40ms",
                "access_rate": "100Mbps",
                "tcp": {"ecn": True, "sack": True},
                "transfer": {"kind": "finite", "size": "600KB"},
                "start": {"kind": "uniform", "low": "0s", "high": "0.2s"},
            }
        ],
    },
    "trace": {"packets": {"links": ["bottleneck", "bottleneck_reverse"]}},
}


def small_scenario(**trace_packets) -> Scenario:
    data = {**SMALL, "trace": {"packets": trace_packets or SMALL["trace"]["packets"]}}
    return Scenario.from_dict(data)
