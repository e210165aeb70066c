"""A reproduction's scenario as its paper printed it, for ns-2 2.35 (issue 27: "ns-2's defaults
where the paper says 'default'; the paper's TCP agents").

What changes from aqmlab's reading, per paper (`PAPERS`), and why:
- **TCP agents.** Compound TCP is ns-2.35's TCP-Linux `compound` (tcp/linux/src/tcp_compound.c,
  the Linux port: ζ = ETA = 1, γ tuned between 5 and 30, a SACK sender); HighSpeed, CUBIC and
  Scalable are TCP-Linux's too (SACK senders); Reno without SACK stays ns-2's Newreno agent.
  ns-2's TCP defaults otherwise (`ns2_mapping.ns2_defaults()`: `tcpTick_` 10 ms, Karn RTT
  sampling, SYN), except `window_` (large: ns-2's 20 would cap every flow at 20 packets, which
  the papers' utilisations rule out) and `singledup_`, which the mapping sets from the
  scenario's `limited_transmit` (false: ns-2's default 1 is limited transmit; a known departure
  of these runs from "as printed", which moved aggregate metrics < 7 % in the matrix, issue 27).
- **RED.** Seed 000 Section V: "RED parameters are fixed at their default values, i.e.
  qweight = −1, linterm = 10 as given in the NS2 implementation": ns-2.35's defaults are byte
  mode (`bytes_ true`, `queue_in_bytes_ true`, `mean_pktsize_ 500`, read from the binary:
  benchmarks/ns2/defaults.json), so the printed thresholds and buffer count 500-byte units
  (min_th 50 = 25 000 bytes = 16.7 full packets). Seed 003 (2000) sets its RED parameters
  itself in packets and says nothing of byte mode: packet mode, as printed.
"""

from __future__ import annotations

import copy
from typing import Any

#: ns-2.35's `Queue/RED set mean_pktsize_` (benchmarks/ns2/defaults.json).
NS2_MEAN_PKTSIZE = 500
#: The Linux port's constants the mapping requires for `compound` (ns2_mapping.NS2_COMPOUND).
PORT_COMPOUND = {"kind": "compound", "zeta": 1.0}

#: Per paper: does it use ns-2's RED defaults (byte mode), and why (shown on the pages).
PAPERS: dict[str, dict[str, Any]] = {
    "seed000": {
        "red_defaults": True,
        "why": "the ns-2 column runs RED as printed, at ns-2.35's defaults (Section V: 'fixed at their default "
        "values ... as given in the NS2 implementation'; ns-2.35: byte mode, mean_pktsize_ 500, so the printed "
        "thresholds and buffer count 500-byte units). Settled from the referee runs: **packet mode**, which "
        "aqmlab's scenarios run — at RTT 10 ms ns-2's byte-mode defaults give 98.8 % utilisation over 5 seeds (Fig. 6 "
        "prints 100 %; aqmlab in byte mode 99.2 %, one_factor.py), ns-2 in packet mode 99.9 % and agrees "
        "with all four Fig. 6 claims, with values within a few packets of aqmlab's (the one-factor values "
        "in the ns-2 cells)",
    },
    "seed001": {"red_defaults": False, "why": "sets its RED parameters in packets"},
    "seed002": {"red_defaults": False, "why": "sets its RED parameters in packets"},
    "seed003": {"red_defaults": False, "why": "sets its RED parameters in packets (2000, ns of its time)"},
    "seed004": {"red_defaults": False, "why": "no RED"},
}


def _cc_kind(tcp: dict[str, Any]) -> str:
    cc = tcp.get("cc", "reno")
    return cc if isinstance(cc, str) else cc.get("kind", "reno")


def agents_as_paper(scenario: dict[str, Any]) -> dict[str, Any]:
    """TCP-Linux congestion controls as ns-2.35 has them (module docstring)."""
    for group in scenario["topology"]["groups"]:
        for entry in group.get("mix") or []:  # a mixed group: per-share congestion controls
            kind = entry["cc"] if isinstance(entry["cc"], str) else entry["cc"].get("kind")
            if kind == "compound":
                entry["cc"] = dict(PORT_COMPOUND)
            if kind in ("compound", "cubic", "highspeed", "scalable"):
                # The shares share the group's `tcp`: TCP-Linux senders are SACK senders.
                group.setdefault("tcp", {})["sack"] = True
        tcp = group.get("tcp")
        if tcp is None:
            continue
        kind = _cc_kind(tcp)
        if kind == "compound":
            tcp["cc"] = dict(PORT_COMPOUND)
        if kind in ("compound", "cubic", "highspeed", "scalable"):
            tcp["sack"] = True
        if kind == "highspeed":
            cc = tcp["cc"] if isinstance(tcp["cc"], dict) else {"kind": "highspeed"}
            tcp["cc"] = {**cc, "definition": "linux_table"}
    return scenario


def red_queues(scenario: dict[str, Any]) -> list[dict[str, Any]]:
    topology = scenario["topology"]
    links = [topology["bottleneck"]] if topology["kind"] == "dumbbell" else topology.get("links", [])
    return [link["queue"] for link in links if link.get("queue", {}).get("kind") == "red"]


def red_ns2_defaults(scenario: dict[str, Any]) -> dict[str, Any]:
    """RED as ns-2.35's defaults read the printed numbers: byte mode, thresholds and buffer in
    `mean_pktsize_` (500-byte) units."""
    for queue in red_queues(scenario):
        limit = str(queue["limit"])
        if not limit.rstrip("p").isdigit():
            raise ValueError(f"RED limit {limit!r}: expected a packet count as printed")
        queue.update(
            byte_mode=True,
            queue_in_bytes=True,
            mean_packet_size=f"{NS2_MEAN_PKTSIZE}B",
            min_th=queue["min_th"] * NS2_MEAN_PKTSIZE,
            max_th=queue["max_th"] * NS2_MEAN_PKTSIZE,
            limit=f"{int(limit.rstrip('p')) * NS2_MEAN_PKTSIZE}B",
        )
    return scenario


def as_printed(scenario: dict[str, Any], paper: str, *, red_mode: str = "paper") -> dict[str, Any]:
    """`scenario` (a reproduction run's dict) as its paper printed it for ns-2. `red_mode`:
    "paper" (`PAPERS`), "packet" (aqmlab's reading) or "byte" (ns-2.35's defaults)."""
    out = agents_as_paper(copy.deepcopy(scenario))
    byte = PAPERS[paper]["red_defaults"] if red_mode == "paper" else red_mode == "byte"
    return red_ns2_defaults(out) if byte else out
