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

from dataclasses import dataclass
from pathlib import Path
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
                        "tcp": {
                            "cc": TCPS[tcp],
                            "packet_size": f"{PACKET_BYTES}B",
                            "min_rto": min_rto,
                            "sack": sack,
                            # ns-3's SACK sender always does RFC 6675's Limited Transmit.
                            "limited_transmit": sack,
                        },
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


# --- Issue 15: beyond 1 Gb/s access links ---------------------------------------------------

SCENARIO_FILES = Path(__file__).resolve().parent / "scenarios"
#: Seed 000's access-limited dumbbell (Section V): 60 flows behind 2 Mb/s access links with
#: 100-packet DropTail buffers, 100 Mb/s bottleneck with gentle RED(50, 100), max_p 0.02,
#: ns-2's automatic q_weight, a 2084-packet buffer; RTT 100 ms (bottleneck 2 ms one way, as
#: scenarios/access2m-newreno-sack-red.toml); 60 s measured over 20-60 s.
ACCESS_FLOWS = 60
ISSUE15_DURATION = "60s"
ISSUE15_MEASURE_START = "20s"
GENTLE_RED = {
    "kind": "red",
    "limit": "2084p",
    "min_th": 50,
    "max_th": 100,
    "max_p": 0.02,
    "q_weight": -1,
    "gentle": True,
}
#: "Matched" rows: SACK (RFC 6675 recovery in both) and min RTO 1 s (ns-3's RTO estimator out
#: of the comparison, README.md); the other settings (initial window, delayed ACKs, timestamps)
#: are made equal by the mapping in every row. Limited Transmit is on: ns-3's SACK sender
#: sends by cwnd - pipe in every state, RFC 6675 Section 5 step (3), whatever its
#: LimitedTransmit attribute says (ns3_mapping refuses sack without it; docs/sack.md).
MATCHED_TCP = {"sack": True, "min_rto": "1s", "limited_transmit": True}
#: A HighSpeed or Scalable definition other than the one ns-3 implements: the row's ns-3 side
#: is the ns-3 definition's (`Row.ns3_scenario`).
NS3_DEFINITION = {"highspeed": "linux_table", "scalable": "ns3"}
DEFAULT_DEFINITION = {"highspeed": "rfc3649", "scalable": "kelly"}


@dataclass(frozen=True)
class Row:
    """One comparison of the issue 15 matrix."""

    scenario: Scenario
    #: What ns-3 is given when it is not `scenario` itself: aqmlab's default HighSpeed or
    #: Scalable definition against ns-3's (which has only one), the same ns-3 run as the twin
    #: row with aqmlab set to ns-3's definition. A one-factor comparison on aqmlab's side.
    ns3_scenario: Scenario | None = None
    #: ns-3 runs: run k gets aqmlab seed k's flow start times and ns-3 run number k; with more
    #: than one, the means over the seeds of both simulators are compared.
    ns3_seeds: int = 1
    #: aqmlab seeds (the spread; the compared value when ns3_seeds > 1).
    aqmlab_seeds: int = 3
    #: A one-factor variant of ns-3's congestion control (`ns3_variants.cc`, e.g.
    #: "ns3::AqmlabTcpScalableNoExitCredit") in place of the mapped one: the row's one-factor
    #: experiment on ns-3's side.
    ns3_variant: str | None = None


def _named(base: dict[str, Any], name: str, description: str, **overrides: Any) -> Scenario:
    return Scenario.from_dict({**base, "name": name, "description": description, **overrides})


def _dumbbell(groups: list[dict[str, Any]], queue: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "duration": ISSUE15_DURATION,
        "measure_start": ISSUE15_MEASURE_START,
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": "100Mbps", "delay": "2ms", "queue": queue or GENTLE_RED},
            "groups": groups,
        },
    }


def access_limited(tcp: str, *, matched: bool, ecn: bool = False, sack_recovery: str | None = None) -> Scenario:
    """The seed 000 access-limited dumbbell with `tcp` (newreno, cubic) over gentle RED;
    `matched`: SACK and min RTO 1 s; `ecn`: RED marks and the senders use ECN;
    `sack_recovery`: "prr" for Proportional Rate Reduction (ns-3's TcpPrrRecovery)."""
    settings: dict[str, Any] = {"cc": TCPS[tcp], **(MATCHED_TCP if matched else {})}
    if ecn:
        settings["ecn"] = True
    if sack_recovery:
        settings["sack_recovery"] = sack_recovery
    group = {
        "name": f"{tcp}{'-sack' if matched else ''}",
        "count": ACCESS_FLOWS,
        "rtt": "100ms",
        "access_rate": "2Mbps",
        "access_queue": {"kind": "drop_tail", "limit": "100p"},
        "tcp": settings,
        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
    }
    # mark_p = 1: gentle RED marks ECN-capable packets up to 2 max_th as ns-3's RED does (ns-2's
    # default mark_p_ 0.1 would drop them above max_th, which ns-3 cannot express).
    queue = {**GENTLE_RED, "ecn": True, "mark_p": 1.0} if ecn else GENTLE_RED
    name = f"access2m-{tcp}{'-sack' if matched else ''}-red{'-ecn' if ecn else ''}"
    name += f"-{sack_recovery}" if sack_recovery else ""
    return _named(
        _dumbbell([group], queue),
        name,
        f"issue 15: {ACCESS_FLOWS} {tcp} flows behind 2 Mb/s access links, gentle RED"
        + (", ECN" if ecn else "")
        + (", SACK, min RTO 1 s" if matched else ", aqmlab's TCP defaults"),
    )


def window_law(cc: str, flows: int, definition: str, *, matched: bool) -> Scenario:
    """HighSpeed or Scalable: `flows` flows on 1 Gb/s access links sharing the 100 Mb/s gentle
    RED bottleneck at RTT 100 ms, with the window-law `definition`; about 833/flows + a few
    segments per flow (20 HighSpeed flows: ~45, inside the table's 38 < w <= 118 row where
    a = 2, b = 0.44; 50 Scalable flows: ~18, between Kelly's lwnd = 16 and AIFactor = 100)."""
    group = {
        "name": cc,
        "count": flows,
        "rtt": "100ms",
        "access_rate": "1Gbps",
        "tcp": {"cc": {"kind": cc, "definition": definition}, **(MATCHED_TCP if matched else {})},
        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
    }
    suffix = "" if definition == DEFAULT_DEFINITION[cc] else f"-{definition.replace('_', '-')}"
    return _named(
        _dumbbell([group]),
        f"{cc}{flows}{'-sack' if matched else ''}-red{suffix}",
        f"issue 15: {flows} {cc} flows ({definition}), gentle RED, RTT 100 ms"
        + (", SACK, min RTO 1 s" if matched else ", aqmlab's TCP defaults"),
    )


HETEROGENEOUS_RTTS_MS = (20, 50, 100, 200)


def heterogeneous_rtt(*, matched: bool) -> Scenario:
    """Four groups of 15 NewReno flows with RTTs 20, 50, 100 and 200 ms on 1 Gb/s access
    links, sharing the 100 Mb/s gentle RED bottleneck."""
    groups = [
        {
            "name": f"rtt{rtt}",
            "count": 15,
            "rtt": f"{rtt}ms",
            "access_rate": "1Gbps",
            "tcp": {"cc": "reno", **(MATCHED_TCP if matched else {})},
            "start": {"kind": "uniform", "low": "0s", "high": "10s"},
        }
        for rtt in HETEROGENEOUS_RTTS_MS
    ]
    return _named(
        _dumbbell(groups),
        f"rtt20-200-newreno{'-sack' if matched else ''}-red",
        "issue 15: 4 x 15 NewReno flows, RTT 20/50/100/200 ms, gentle RED"
        + (", SACK, min RTO 1 s" if matched else ", aqmlab's TCP defaults"),
    )


def issue15_matrix() -> dict[str, Row]:
    """The rows issue 15 adds, each matched (SACK, min RTO 1 s) and with aqmlab's defaults."""
    rows: list[Row] = []
    for matched in (True, False):
        for tcp in TCPS:
            seeds = 2 if (tcp == "newreno" and matched) else 1
            rows.append(Row(access_limited(tcp, matched=matched), ns3_seeds=seeds))
        rows.append(Row(access_limited("newreno", matched=matched, ecn=True), ns3_seeds=2 if matched else 1))
        for cc, flows in (("highspeed", 20), ("scalable", 50)):
            reference = window_law(cc, flows, NS3_DEFINITION[cc], matched=matched)
            rows.append(Row(reference))
            rows.append(Row(window_law(cc, flows, DEFAULT_DEFINITION[cc], matched=matched), ns3_scenario=reference))
        rows.append(Row(heterogeneous_rtt(matched=matched)))
    # Proportional Rate Reduction (RFC 6937; ns-3's default TcpPrrRecovery) against ns-3's:
    # the matched access-limited rows with the other recovery algorithm in both simulators.
    for tcp, ecn in (("newreno", False), ("newreno", True), ("cubic", False)):
        rows.append(Row(access_limited(tcp, matched=True, ecn=ecn, sack_recovery="prr")))
    # `loss_flight_size = "pipe"`: ssthresh from RFC 6675's pipe when SACK recovery starts, as
    # ns-3 (GetSsThresh(tcb, BytesInFlight())) always does: one factor on aqmlab's side, the
    # same ns-3 runs (the mapping has nothing to set).
    by_name = {row.scenario.name: row for row in rows}
    for name in (
        "access2m-newreno-sack-red",
        "access2m-newreno-sack-red-prr",
        "access2m-cubic-sack-red",
        "scalable50-sack-red-ns3",
    ):
        row = by_name[name]
        rows.append(Row(with_pipe_flight_size(row.scenario), ns3_scenario=row.scenario, ns3_seeds=row.ns3_seeds))
    # `prr_delivered = "ns3"` on top of pipe: PRR's DeliveredData as ns-3's TcpPrrRecovery
    # counts it (docs/sack.md); again the same ns-3 runs.
    for name in ("access2m-newreno-sack-red-prr", "access2m-newreno-sack-red-ecn-prr"):
        row = by_name[name]
        rows.append(Row(with_ns3_prr_delivered(row.scenario), ns3_scenario=row.scenario, ns3_seeds=row.ns3_seeds))
    # `ecn_reduction = "prr"` on top: the ECN reduction paced by PRR, as ns-3's EnterCwr does
    # with TcpPrrRecovery (docs/sack.md); the same ns-3 run.
    row = by_name["access2m-newreno-sack-red-ecn-prr"]
    rows.append(
        Row(
            with_prr_ecn_reduction(with_ns3_prr_delivered(row.scenario)),
            ns3_scenario=row.scenario,
            ns3_seeds=row.ns3_seeds,
        )
    )
    rows.extend(one_factor_rows(by_name))
    return {row.scenario.name: row for row in rows}


def with_ns3_prr_delivered(scenario: Scenario) -> Scenario:
    """`scenario` (with sack_recovery = "prr") with ns-3's ssthresh base and PRR counting."""
    data = with_pipe_flight_size(scenario).model_dump(mode="json", exclude_none=True)
    for group in data["topology"]["groups"]:
        group["tcp"]["prr_delivered"] = "ns3"
    data["name"] = f"{scenario.name}-pipe-ns3delivered"
    return Scenario.from_dict(data)


def with_prr_ecn_reduction(scenario: Scenario) -> Scenario:
    """`scenario` (with ecn) with the ECN window reduction paced by PRR."""
    data = scenario.model_dump(mode="json", exclude_none=True)
    for group in data["topology"]["groups"]:
        group["tcp"]["ecn_reduction"] = "prr"
    data["name"] = f"{scenario.name}-prrecn"
    return Scenario.from_dict(data)


def _modified(scenario: Scenario, suffix: str, tcp: dict[str, Any] | None = None, cc: dict[str, Any] | None = None):
    """`scenario` renamed NAME-`suffix`, with `tcp` settings and `cc` parameters changed in every group."""
    data = scenario.model_dump(mode="json", exclude_none=True)
    for group in data["topology"]["groups"]:
        group["tcp"].update(tcp or {})
        if cc:
            law = group["tcp"]["cc"]
            group["tcp"]["cc"] = {**({"kind": law} if isinstance(law, str) else law), **cc}
    data["name"] = f"{scenario.name}-{suffix}"
    return Scenario.from_dict(data)


def one_factor_rows(by_name: dict[str, Row]) -> list[Row]:
    """The one-factor experiments of docs/validation.md ("What the issue 15 rows show"): one
    setting changed on aqmlab's side against the same ns-3 run (`ns3_scenario`), in both
    simulators (no `ns3_scenario`), or on ns-3's side only (`ns3_variant`)."""
    cubic = by_name["access2m-cubic-sack-red"].scenario
    reno_default = by_name["access2m-newreno-red"].scenario
    scalable = by_name["scalable50-sack-red-ns3"].scenario
    cubic_rtt20 = sack_matrix()["cubic-red-rtt20-sack"]
    return [
        # CUBIC: ns-3's TcpCubic definition on aqmlab's side (the Reno-friendly alpha above
        # all), and the Reno-friendly region off in both simulators.
        Row(_modified(cubic, "ns3", cc={"definition": "ns3"}), ns3_scenario=cubic),
        # The same definition on the 1 Gb/s matrix row whose queue std sits at the threshold.
        Row(_modified(cubic_rtt20, "ns3", cc={"definition": "ns3"}), ns3_scenario=cubic_rtt20),
        Row(_modified(cubic, "nofriendly", cc={"reno_friendly": False})),
        # aqmlab's defaults behind 2 Mb/s access links with SACK on in both (min RTO 200 ms):
        # ns-3's recovery without SACK (TcpTxBuffer::AddRenoSack) taken out.
        Row(_modified(reno_default, "sack200ms", tcp={"sack": True, "limited_transmit": True})),
        # Scalable: ns-3's credit of the ACK ending recovery on aqmlab's side, and ns-3
        # without it (ns3_variants.cc).
        Row(_modified(scalable, "exitcredit", tcp={"recovery_exit_credit": "cumulative"}), ns3_scenario=scalable),
        # Scalable: ns-3's at-once retransmission on a partial ACK in SACK recovery.
        Row(_modified(scalable, "partialack", tcp={"partial_ack_retransmit": "ns3"}), ns3_scenario=scalable),
        Row(
            _modified(scalable, "ns3noexitcredit"),
            ns3_scenario=scalable,
            ns3_variant="ns3::AqmlabTcpScalableNoExitCredit",
        ),
    ]


def with_pipe_flight_size(scenario: Scenario) -> Scenario:
    data = scenario.model_dump(mode="json", exclude_none=True)
    for group in data["topology"]["groups"]:
        group["tcp"]["loss_flight_size"] = "pipe"
    data["name"] = f"{scenario.name}-pipe"
    return Scenario.from_dict(data)


def parking_lot_files() -> list[Path]:
    """The parking-lot scenarios compared as files: seed 000 Fig. 16 (examples/) and its twins
    in scenarios/."""
    example = SCENARIO_FILES.parents[2] / "examples" / "seed000-fig16-parking-lot.toml"
    return [example, *sorted(SCENARIO_FILES.glob("*parking-lot*.toml"))]
