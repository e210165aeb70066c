"""The ns-2 agreement matrix of issue 27: rows of aqmlab scenarios run in aqmlab and in ns-2.

Core rows (36): {NewReno, SACK, CUBIC, Compound, HighSpeed, Scalable} × {DropTail, RED packet
mode, RED byte mode} × {RTT 20 ms, 200 ms}, on benchmarks/ns3/matrix.py's dumbbell: 50
long-lived flows, 100 Mb/s bottleneck, 1 Gb/s access links, starts uniform in [0, 10] s,
1500-byte packets, 100 s measured over [20, 100] s.
- DropTail: one bandwidth-delay product (167 or 1667 packets).
- RED packet mode: RED(50, 150) packets, max_p 0.1, ns-2's automatic q_weight (-1), wait,
  gentle off, a 2000-packet buffer, mean_packet_size 1500 B.
- RED byte mode: ns-2.35's defaults `bytes_ true`, `queue_in_bytes_ true`, `mean_pktsize_ 500`
  (aqmlab byte_mode, queue_in_bytes, mean_packet_size 500 B), thresholds the same 50 and 150
  full packets (75 000 and 225 000 bytes), the same 2000-packet buffer.
- TCPs: NewReno = ns-2 Agent/TCP/Newreno, aqmlab reno without SACK; SACK = Agent/TCP/Sack1,
  aqmlab reno with SACK (RFC 6675); CUBIC, Compound, HighSpeed, Scalable = ns-2's TCP-Linux
  (`select_ca`, a SACK sender) against aqmlab with SACK and each law set to the ns-2 port's
  definition (ns2_mapping: cubic beta 0.7 as 717/1024; compound zeta 1; highspeed
  linux_table; scalable definition ns3 with a = 1/50).
Extra rows: seed 000's access-limited dumbbell (60 flows behind 2 Mb/s access links, gentle
RED(50, 100), 2084 packets, RTT 100 ms) with NewReno and with SACK; ECN (RED marking, ECN
senders) with SACK and CUBIC at RTT 20 ms and on the access-limited dumbbell; the parking lot
(benchmarks/ns3/scenarios: RED(50, 150) with SACK and min RTO 1 s; seed 000 Fig. 16 RED(8, 15)
with NewReno), each link a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aqmlab import Scenario

ROOT = Path(__file__).resolve().parents[2]
FLOWS = 50
PACKET = 1500
RTTS = (20, 200)
EDGE_DELAY_MS = 1.0

TCPS: dict[str, dict[str, Any]] = {
    "newreno": {"cc": "reno"},
    "sack": {"cc": "reno", "sack": True},
    "cubic": {"cc": "cubic", "sack": True},
    "compound": {"cc": {"kind": "compound", "zeta": 1.0}, "sack": True},
    "highspeed": {"cc": {"kind": "highspeed", "definition": "linux_table"}, "sack": True},
    "scalable": {"cc": {"kind": "scalable", "definition": "ns3", "a": 0.02}, "sack": True},
}


def bdp_packets(rtt_ms: int) -> int:
    return round(100e6 * rtt_ms / 1000 / 8 / PACKET)


def queue(kind: str, rtt_ms: int) -> dict[str, Any]:
    red = {"kind": "red", "limit": "2000p", "max_p": 0.1, "q_weight": -1, "gentle": False, "wait": True}
    if kind == "droptail":
        return {"kind": "drop_tail", "limit": f"{bdp_packets(rtt_ms)}p"}
    if kind == "red":
        return {**red, "min_th": 50, "max_th": 150}
    if kind == "redbyte":
        return {
            **red,
            "min_th": 50 * PACKET,
            "max_th": 150 * PACKET,
            "byte_mode": True,
            "queue_in_bytes": True,
            "mean_packet_size": "500B",
        }
    raise ValueError(kind)


@dataclass(frozen=True)
class Row:
    name: str
    scenario: Scenario
    #: The link compared (its name in aqmlab's results and in the ns-2 program).
    link: str = "bottleneck"
    group: str = "core"
    #: What ns-2 is given when it is not `scenario` itself: a one-factor change on aqmlab's
    #: side only (an aqmlab option ns-2's agent has no switch for) against the same ns-2 run.
    ns2_scenario: Scenario | None = None


def dumbbell(name: str, tcp: dict[str, Any], queue_: dict[str, Any], rtt_ms: int, **tcp_extra: Any) -> Scenario:
    return Scenario.from_dict(
        {
            "name": name,
            "duration": "100s",
            "measure_start": "20s",
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {"rate": "100Mbps", "delay": f"{rtt_ms / 2 - 2 * EDGE_DELAY_MS:g}ms", "queue": queue_},
                "groups": [
                    {
                        "name": name,
                        "count": FLOWS,
                        "rtt": f"{rtt_ms}ms",
                        "access_rate": "1Gbps",
                        "tcp": {**tcp, "packet_size": f"{PACKET}B", **tcp_extra},
                        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
                    }
                ],
            },
            "trace": {"interval": "10ms", "flows": 0},
        }
    )


def access_limited(name: str, tcp: dict[str, Any], ecn: bool = False) -> Scenario:
    red = {"kind": "red", "limit": "2084p", "min_th": 50, "max_th": 100, "max_p": 0.1, "q_weight": -1, "ecn": ecn}
    return Scenario.from_dict(
        {
            "name": name,
            "duration": "100s",
            "measure_start": "20s",
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {"rate": "100Mbps", "delay": "2ms", "queue": red},
                "groups": [
                    {
                        "name": name,
                        "count": 60,
                        "rtt": "100ms",
                        "access_rate": "2Mbps",
                        "access_queue": {"kind": "drop_tail", "limit": "100p"},
                        "tcp": {**tcp, "packet_size": f"{PACKET}B", "ecn": ecn},
                        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
                    }
                ],
            },
            "trace": {"interval": "10ms", "flows": 0},
        }
    )


def rows() -> dict[str, Row]:
    out: list[Row] = []
    for tcp_name, tcp in TCPS.items():
        for queue_name in ("droptail", "red", "redbyte"):
            for rtt in RTTS:
                name = f"{tcp_name}-{queue_name}-rtt{rtt}"
                out.append(Row(name, dumbbell(name, tcp, queue(queue_name, rtt), rtt)))
    for tcp_name in ("newreno", "sack"):
        name = f"access2m-{tcp_name}-red"
        out.append(Row(name, access_limited(name, TCPS[tcp_name]), group="access"))
    for tcp_name in ("sack", "cubic"):
        name = f"{tcp_name}-red-ecn-rtt20"
        out.append(
            Row(name, dumbbell(name, TCPS[tcp_name], {**queue("red", 20), "ecn": True}, 20, ecn=True), group="ecn")
        )
    name = "access2m-sack-red-ecn"
    out.append(Row(name, access_limited(name, TCPS["sack"], ecn=True), group="ecn"))
    for path in (
        ROOT / "benchmarks" / "ns3" / "scenarios" / "parking-lot-red50-150-minrto1s-sack.toml",
        ROOT / "benchmarks" / "ns3" / "scenarios" / "seed000-fig16-parking-lot.toml",
    ):
        scenario = Scenario.from_toml(path)
        for link in ("link1", "link2"):
            out.append(Row(f"{path.stem}-{link}", scenario, link=link, group="parking"))
    return {row.name: row for row in out}


def experiment_rows() -> dict[str, Row]:
    """One-factor experiments on rows that differ (docs/validation-ns2.md): the same row with
    one setting changed in both simulators. `-minrto1s`: min RTO 1 s, which takes the
    retransmission timer's estimator (spurious timeouts) out of the comparison."""
    out = {}
    for name, row in rows().items():
        if row.group == "core" and name.endswith("rtt200"):
            data = row.scenario.model_dump(mode="json")
            data["topology"]["groups"][0]["tcp"]["min_rto"] = "1s"
            data["name"] = f"{name}-minrto1s"
            out[data["name"]] = Row(data["name"], Scenario.from_dict(data), group="experiment")
    # aqmlab-side only, against the unchanged ns-2 run of the row: TCP-Linux restarts its
    # retransmission timer on every ACK and halves by rate halving; aqmlab has neither, and
    # these are its closest settings: no timeouts in practice (min RTO 1 s), or PRR.
    base = rows()
    for name in ("cubic-droptail-rtt20", "cubic-red-rtt20", "highspeed-droptail-rtt20", "scalable-droptail-rtt20"):
        for suffix, change in (("aqmlab-minrto1s", {"min_rto": "1s"}), ("aqmlab-prr", {"sack_recovery": "prr"})):
            data = base[name].scenario.model_dump(mode="json")
            data["topology"]["groups"][0]["tcp"].update(change)
            data["name"] = f"{name}-{suffix}"
            out[data["name"]] = Row(
                data["name"], Scenario.from_dict(data), group="experiment", ns2_scenario=base[name].scenario
            )
    return out


#: make validate-ns2-quick: eight rows that tell — each ns-2 agent family (Newreno, Sack1,
#: TCP-Linux compound, highspeed, scalable), each queue semantics (DropTail's limit_ - 1, RED
#: packet and byte mode with mean_pktsize 500, ECN marking), the access-limited dumbbell and
#: RTT 200 ms with the RTO estimator taken out (min RTO 1 s) — chosen among rows that agree.
QUICK = [
    "newreno-droptail-rtt20",
    "sack-red-rtt20",
    "compound-redbyte-rtt20",
    "highspeed-red-rtt20",
    "scalable-redbyte-rtt20",
    "access2m-newreno-red",
    "sack-red-ecn-rtt20",
    "sack-red-rtt200-minrto1s",
]
