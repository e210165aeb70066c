"""Small scenarios the packet-engine tests share (dicts, as a user would write in TOML)."""

from __future__ import annotations

import copy
from typing import Any

#: `tcp.sack = true` resolved: the recovery the engine receives (RFC 6675's parameters).
SACK_RECOVERY_RESOLVED = {
    "kind": "sack",
    "loss_flight_size": "rfc5681",
    "partial_ack_retransmit": "rfc6675",
    "rate_halving": False,
    "lost_retransmit": "rto",
    "exit_credit": "none",
}


def dumbbell(
    *,
    flows: int = 4,
    duration: str = "20s",
    rate: str = "10Mbps",
    delay: str = "10ms",
    rtt: str = "60ms",
    access_rate: str = "100Mbps",
    queue: dict[str, Any] | None = None,
    tcp: dict[str, Any] | None = None,
    start: dict[str, Any] | None = None,
    transfer: Any = "bulk",
    trace_flows: int = 100,
    **top: Any,
) -> dict[str, Any]:
    return {
        "name": "test",
        "duration": duration,
        **top,
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": rate, "delay": delay, "queue": queue or {"kind": "drop_tail", "limit": "100p"}},
            "groups": [
                {
                    "name": "g",
                    "count": flows,
                    "rtt": rtt,
                    "access_rate": access_rate,
                    "tcp": tcp or {"cc": "reno"},
                    "start": start or {"kind": "uniform", "low": "0s", "high": "1s"},
                    "transfer": transfer,
                }
            ],
        },
        "trace": {"flows": trace_flows},
    }


def starts_within(high: str) -> dict[str, Any]:
    """Start times uniform in [0, high]."""
    return {"kind": "uniform", "low": "0s", "high": high}


def assert_packets_conserved(results: Any) -> None:
    """Every packet created was delivered, dropped, queued or in flight; per link, every
    arrival was enqueued or dropped, departures never exceed enqueues, and the drops add up."""
    c = results.counters
    assert (
        c["packets_created"]
        == c["packets_delivered"] + c["packets_dropped"] + c["packets_queued"] + c["packets_in_flight"]
    )
    links = results.links
    arrivals, enqueued, dropped = (links.column(k).to_numpy() for k in ("arrivals", "enqueued", "dropped"))
    on_dequeue = links.column("dropped_on_dequeue").to_numpy()
    assert (arrivals == enqueued + dropped - on_dequeue).all()
    assert (links.column("departures").to_numpy() <= enqueued).all()
    assert c["packets_dropped"] == dropped.sum()


def with_path(scenario: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A deep copy with `a.b.0.c` set to value."""
    result = copy.deepcopy(scenario)
    node = result
    parts = path.split(".")
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return result


#: Every scenario the conservation test runs (name -> scenario dict).
CONSERVATION_SCENARIOS = {
    "droptail": dumbbell(),
    "red": dumbbell(queue={"kind": "red", "limit": "200p", "min_th": 10, "max_th": 30, "q_weight": 0.01}),
    "red_gentle_ecn": dumbbell(
        queue={"kind": "red", "limit": "200p", "min_th": 10, "max_th": 30, "gentle": True, "ecn": True},
        tcp={"cc": "reno", "ecn": True},
    ),
    "red_instantaneous_bytes": dumbbell(
        queue={
            "kind": "red",
            "limit": "150kB",
            "min_th": 15000,
            "max_th": 45000,
            "queue_in_bytes": True,
            "byte_mode": True,
            "instantaneous": True,
        },
    ),
    "random_drop": dumbbell(queue={"kind": "random_drop", "limit": "100p", "probability": 0.01}),
    "tahoe_delayed_ack": dumbbell(tcp={"cc": "reno", "recovery": "tahoe", "delayed_ack": True}),
    "finite": dumbbell(flows=6, transfer={"kind": "finite", "size": "200kB"}),
    "tiny_buffer": dumbbell(flows=8, queue={"kind": "drop_tail", "limit": "3p"}),
    "pi_bytes": dumbbell(
        queue={
            "kind": "pi",
            "limit": "150kB",
            "q_ref": 30000,
            "a": 1.822e-5 / 1500,
            "b": 1.816e-5 / 1500,
            "queue_in_bytes": True,
        }
    ),
    "rem_ecn": dumbbell(queue={"kind": "rem", "limit": "200p", "ecn": True}, tcp={"cc": "reno", "ecn": True}),
    "codel": dumbbell(queue={"kind": "codel", "limit": "200p"}),
    "codel_ecn_bytes": dumbbell(
        queue={"kind": "codel", "limit": "150kB", "ecn": True}, tcp={"cc": "reno", "ecn": True}
    ),
    "pie_derandomized": dumbbell(queue={"kind": "pie", "limit": "200p", "derandomize": True}),
}


def aqm_dumbbell(queue: dict[str, Any], *, flows: int, rate: str, duration: str, **kw: Any) -> dict[str, Any]:
    """The AQM testbed of the queue tests: `dumbbell` with a 10 ms bottleneck, RTT 100 ms,
    100 Mb/s access links and no flow traces, unless `kw` says otherwise."""
    testbed: dict[str, Any] = {"delay": "10ms", "rtt": "100ms", "access_rate": "100Mbps", "trace_flows": 0}
    return dumbbell(flows=flows, rate=rate, duration=duration, queue=queue, **{**testbed, **kw})


def random_loss(probability: float, *, flows: int, duration: str, ecn: bool = False, **kw: Any) -> dict[str, Any]:
    """Independent random drops (CE marks with `ecn`) with `probability` on an uncongested
    1 Gb/s path (1 Gb/s access, RTT 100 ms, a buffer that never fills): the loss rate is the
    queue's."""
    path: dict[str, Any] = {"rate": "1Gbps", "delay": "10ms", "rtt": "100ms", "access_rate": "1Gbps", "trace_flows": 0}
    queue = {"kind": "random_drop", "limit": "100000p", "probability": probability, **({"ecn": True} if ecn else {})}
    return dumbbell(flows=flows, duration=duration, queue=queue, **{**path, **kw})
