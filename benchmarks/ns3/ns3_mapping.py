"""Translate an aqmlab scenario into a spec for the ns-3 harness (`aqmlab_ns3.cc`).

Input: `Scenario.resolved()` (the engine's JSON, SI units). Output: an `Ns3Spec`, whose
`text()` is the plain-text spec that `build/aqmlab_ns3 --spec=FILE` builds and runs. Every
ns-3 attribute is set here, explicitly, with the aqmlab field it comes from written beside it
in the spec (`# from ...` comments); README.md in this directory tables the mapping and the
ns-3 defaults that differ from aqmlab's. What ns-3 cannot express raises `Unsupported`
naming the field, so no scenario is silently approximated.

Supported: dumbbell and network topologies (a parking lot resolves to a network) whose flow
paths are the unique hop-count shortest paths (ns-3's global routing); TCP groups (bulk or
finite transfers, forward direction, own access links, one RTT per group); queues
drop_tail, red, codel, pie on core links and drop_tail on access links; congestion control
reno (NewReno), cubic, highspeed, scalable.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from aqmlab import queues
from aqmlab._declarations import engine_field

#: ns-3's IPv4 + TCP header without options (the timestamp option is switched off).
NS3_TCP_IP_HEADER_BYTES = 40
#: PointToPointNetDevice adds a 2-byte PPP header to every frame.
PPP_HEADER_BYTES = 2
#: Floor of the TCP send/receive buffers (bytes): ns-3's default 128 KiB would cap windows.
MIN_SOCKET_BUFFER_BYTES = 4 << 20

CONGESTION_CONTROL = {
    "reno": "ns3::TcpNewReno",
    "cubic": "ns3::TcpCubic",
    "highspeed": "ns3::TcpHighSpeed",
    "scalable": "ns3::TcpScalable",
}
#: The one definition of each window law ns-3 implements (aqmlab's `definition` option):
#: `TcpHighSpeed` has RFC 3649 Appendix B's table built in, `TcpScalable` adds one segment per
#: min(cwnd, AIFactor) ACKs and always multiplies by 1 − MDFactor (docs/congestion/).
NS3_DEFINITIONS = {"highspeed": "linux_table", "scalable": "ns3"}


class Unsupported(ValueError):
    """The scenario uses something the ns-3 harness cannot reproduce; names the field."""


#: The queue kinds the harness maps onto ns-3 queue discs.
NS3_QUEUES = ("drop_tail", "red", "codel", "pie")

#: ns-3's spelling of each unit the engine counts quantities in (attribute values such as
#: `Target=5000000ns`; sizes and limits are plain numbers there).
NS3_UNITS = {"ns": "ns", "bps": "bps", "B": "", "": ""}


def declared(config: dict[str, Any], model: type, name: str) -> str:
    """A field of an engine config as an ns-3 attribute value: read under the key its
    declaration gives (`aqmlab._declarations`), with ns-3's spelling of its engine unit, so a
    renamed field or a changed unit changes here too."""
    field = engine_field(model, name)
    unit = field.engine_unit.symbol if field.engine_unit is not None else ""
    value = config[field.key]
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value!r}{NS3_UNITS[unit]}"


@dataclass
class AnnotatedProgram:
    """A reference simulator's input, line by line, each line under a comment naming the aqmlab
    field it comes from; shared by the ns-3 spec and the ns-2 Tcl program."""

    lines: list[str] = field(default_factory=list)
    #: aqmlab link names of the monitored links, in the order of the result's `links`.
    monitored: list[str] = field(default_factory=list)
    #: Nominal rate (bit/s) of each monitored link.
    monitored_rate_bps: dict[str, float] = field(default_factory=dict)
    #: Start time (s) of each flow, in aqmlab's flow order.
    start_times: list[float] = field(default_factory=list)

    def add(self, line: str, source: str = "") -> None:
        """A directive, with the aqmlab field it comes from as a comment line above it."""
        if source:
            self.lines.append(f"# from {source}")
        self.lines.append(line)

    def comment(self, text: str) -> None:
        self.lines.append(f"# {text}")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


@dataclass
class Ns3Spec(AnnotatedProgram):
    """The spec benchmarks/ns3/aqmlab_ns3.cc reads (rates of monitored links before PPP
    compensation)."""


#: Type names of the one-factor variants in ns3_variants.cc.
VARIANT_PREFIX = "ns3::Aqmlab"
#: Each variant and the ns-3 congestion control it modifies.
VARIANTS = {
    "ns3::AqmlabTcpScalableNoExitCredit": "ns3::TcpScalable",
    "ns3::AqmlabTcpCubicNoExitCredit": "ns3::TcpCubic",
    "ns3::AqmlabTcpNewRenoNoExitCredit": "ns3::TcpNewReno",
}


def with_variant(spec: Ns3Spec, variant: str | None) -> Ns3Spec:
    """`spec` with every sender of the congestion control `variant` modifies given `variant`
    instead (ns3_variants.cc); the spec itself when `variant` is None."""
    if variant is None:
        return spec
    if variant not in VARIANTS:
        raise ValueError(f"ns3_variant {variant!r}: not one of {sorted(VARIANTS)}")
    base = VARIANTS[variant]
    lines, replaced = [], 0
    for line in spec.lines:
        words = line.split()
        if len(words) == 3 and words[0] == "socket_type" and words[2] == base:
            lines.append(f"# one-factor variant (ns3_variants.cc) in place of {base}")
            line = f"socket_type {words[1]} {variant}"
            replaced += 1
        lines.append(line)
    if not replaced:
        raise ValueError(f"ns3_variant {variant!r}: the spec has no sender of {base}")
    return Ns3Spec(lines, list(spec.monitored), dict(spec.monitored_rate_bps), list(spec.start_times))


# --- Queues --------------------------------------------------------------------------------


def qdisc_limit(limit: dict[str, int], packet_bytes: int) -> str:
    """A core-link buffer as a queue-disc MaxSize. The device queue below the queue disc holds
    one more packet while the link is busy (its MaxSize is 1p), so the queue disc gets one
    packet less and the two together hold what aqmlab's queue holds."""
    if "packets" in limit:
        return f"{max(limit['packets'] - 1, 1)}p"
    return f"{max(limit['bytes'] - packet_bytes, packet_bytes)}B"


def device_limit(limit: dict[str, int]) -> str:
    """An edge-link buffer as the device's DropTailQueue MaxSize (no queue disc there)."""
    return f"{limit['packets']}p" if "packets" in limit else f"{limit['bytes']}B"


def queue_disc(
    queue: dict[str, Any], where: str, *, rate_bps: int, delay_ns: int, packet_bytes: int
) -> tuple[str, list[str]]:
    """(ns-3 TypeId, ["Attr=value", ...]) for an aqmlab queue on a core link."""
    kind = queue["kind"]
    if kind not in NS3_QUEUES:
        raise Unsupported(
            f"{where}.kind = {kind!r}: ns-3 3.44 has no equivalent the harness maps "
            f"(supported: {', '.join(NS3_QUEUES)})"
        )
    limit = qdisc_limit(queue["limit"], packet_bytes)
    if kind == "drop_tail":
        return "ns3::FifoQueueDisc", [f"MaxSize={limit}"]
    if kind == "red":
        for flag in ("byte_mode", "queue_in_bytes"):
            if queue[flag]:
                raise Unsupported(f"{where}.{flag} = true: the harness maps packet-mode RED only")
        # instantaneous: ns-3 RED has no such mode; QW = 1 makes its average the current
        # queue at every arrival (seed 000 eqs. (25)-(26)), except that after an idle period
        # the average decays to 0 rather than staying at the (empty) current queue.
        weight = 1.0 if queue["instantaneous"] else queue["q_weight"]
        if queue["ecn"] and queue["gentle"] and (queue.get("mark_p") or 1.0) < 1.0:
            # ns-2 (aqmlab's mark_p) drops ECN-capable packets where the law reaches mark_p;
            # ns-3's RED marks them there.
            raise Unsupported(f"{where}.mark_p with ecn and gentle: ns-3 RED has no mark_p; set mark_p = 1")
        return "ns3::RedQueueDisc", [
            f"MaxSize={limit}",
            f"MinTh={declared(queue, queues.Red, 'min_th')}",
            f"MaxTh={declared(queue, queues.Red, 'max_th')}",
            # ns-3 uses max_p = 1 / LInterm (ns-2's linterm).
            f"LInterm={1.0 / queue['max_p']!r}",
            # q_weight 0, -1, -2 select ns-2's automatic weights in both simulators, from the
            # link rate, the link delay and the mean packet size given here.
            f"QW={weight!r}",
            f"Gentle={declared(queue, queues.Red, 'gentle')}",
            f"Wait={declared(queue, queues.Red, 'wait')}",
            f"UseEcn={declared(queue, queues.Red, 'ecn')}",
            "UseHardDrop=true",
            f"MeanPktSize={declared(queue, queues.Red, 'mean_packet_size')}",
            # The nominal rate (not the PPP-compensated one): aqmlab's RED computes its
            # packet time constant (automatic weight, idle decay) from it.
            f"LinkBandwidth={rate_bps}bps",
            f"LinkDelay={queue['link_delay_ns']}ns",
        ]
    if kind == "codel":
        return "ns3::CoDelQueueDisc", [
            f"MaxSize={limit}",
            f"Target={declared(queue, queues.Codel, 'target')}",
            f"Interval={declared(queue, queues.Codel, 'interval')}",
            f"MinBytes={declared(queue, queues.Codel, 'mtu')}",
            f"UseEcn={declared(queue, queues.Codel, 'ecn')}",
        ]
    # pie (the kinds are checked above)
    mean = queue[engine_field(queues.Pie, "mean_packet_size").key] or packet_bytes

    def pie(name: str) -> str:
        return declared(queue, queues.Pie, name)

    return "ns3::PieQueueDisc", [
        f"MaxSize={limit}",
        f"QueueDelayReference={pie('target')}",
        f"Tupdate={pie('update_interval')}",
        f"A={pie('alpha')}",
        f"B={pie('beta')}",
        f"MaxBurstAllowance={pie('max_burst')}",
        f"UseEcn={pie('ecn')}",
        f"MarkEcnThreshold={pie('mark_ecn_threshold')}",
        f"UseDerandomization={pie('derandomize')}",
        f"UseCapDropAdjustment={pie('cap_drop_adjustment')}",
        # aqmlab measures latency by timestamps (RFC 8033 Section 4.3), as ns-3 does
        # unless its dequeue-rate estimator is switched on.
        "UseDequeueRateEstimator=false",
        f"MeanPktSize={mean}",
    ]


# --- TCP -----------------------------------------------------------------------------------


def _tcp_settings(groups: list[dict[str, Any]]) -> dict[str, Any]:
    """The TCP settings shared by every group (ns-3 sets them as global defaults); the
    congestion control may differ per group (set per sender node)."""
    shared = None
    for index, group in enumerate(groups):
        tcp = {k: v for k, v in group["traffic"]["tcp"].items() if k != "cc"}
        if shared is None:
            shared = tcp
        elif tcp != shared:
            differing = sorted(k for k in set(tcp) | set(shared) if tcp.get(k) != shared.get(k))
            raise Unsupported(
                f"topology.groups[{index}].traffic.tcp: {differing} differ from groups[0]; "
                "the harness sets TCP options globally (only `cc` may differ)"
            )
    assert shared is not None
    return shared


def _cc_defaults(groups: list[dict[str, Any]], spec: Ns3Spec) -> None:
    """Attributes of the congestion-control classes (per class, so equal across groups)."""
    seen: dict[str, dict[str, Any]] = {}
    for index, group in enumerate(groups):
        cc = group["traffic"]["tcp"]["cc"]
        where = f"topology.groups[{index}].traffic.tcp.cc"
        if cc["kind"] not in CONGESTION_CONTROL:
            raise Unsupported(
                f"{where}.kind = {cc['kind']!r}: ns-3 has no equivalent the harness maps "
                f"(supported: {sorted(CONGESTION_CONTROL)})"
            )
        if cc["kind"] in seen and seen[cc["kind"]] != cc:
            raise Unsupported(f"{where}: two groups use {cc['kind']} with different parameters")
        seen[cc["kind"]] = cc
    for kind, cc in seen.items():
        source = f"cc = {kind}"
        if kind == "cubic":
            spec.add(f"default ns3::TcpCubic::C {cc['c']!r}", f"{source}.c")
            spec.add(f"default ns3::TcpCubic::Beta {cc['beta']!r}", f"{source}.beta")
            spec.add(
                f"default ns3::TcpCubic::FastConvergence {str(cc['fast_convergence']).lower()}",
                f"{source}.fast_convergence",
            )
            spec.add(
                f"default ns3::TcpCubic::TcpFriendliness {str(cc['reno_friendly']).lower()}", f"{source}.reno_friendly"
            )
            # aqmlab's CUBIC slow start is RFC 5681's (no HyStart); ns-3's default is on.
            spec.add("default ns3::TcpCubic::HyStart false", f"{source} (no HyStart in aqmlab)")
        elif kind in NS3_DEFINITIONS and cc["definition"] != NS3_DEFINITIONS[kind]:
            raise Unsupported(
                f"cc = {kind} with definition = {cc['definition']!r}: ns-3's "
                f"{CONGESTION_CONTROL[kind].removeprefix('ns3::')} implements definition = "
                f"{NS3_DEFINITIONS[kind]!r} only (docs/congestion/{kind}.md); set it in aqmlab to compare "
                "with ns-3"
            )
        elif kind == "highspeed":
            # definition = linux_table takes no parameters (checked by aqmlab): nothing to set.
            pass
        elif kind == "scalable":
            factor = 1.0 / cc["a"]
            if not math.isclose(factor, round(factor)):
                raise Unsupported(f"cc = scalable, a = {cc['a']}: ns-3's AIFactor is an integer (1/a)")
            spec.add(
                f"default ns3::TcpScalable::AIFactor {round(factor)}", f"{source}.a (AIFactor = 1/a, definition ns3)"
            )
            spec.add(f"default ns3::TcpScalable::MDFactor {cc['b']!r}", f"{source}.b")


def _tcp_defaults(tcp: dict[str, Any], spec: Ns3Spec, buffer_bytes: int) -> int:
    """Global TCP defaults; returns the segment size (payload bytes)."""
    where = "tcp"
    # The engine's recovery table (crates/engine/src/tcp/recovery/): `kind` and its parameters.
    kind = tcp["recovery"]["kind"]
    sack = kind in ("sack", "prr")
    if kind not in ("new_reno", "sack", "prr"):
        raise Unsupported(f"{where}.recovery = {kind!r}: ns-3 has no {kind.capitalize()}")
    if tcp["header_bytes"] != NS3_TCP_IP_HEADER_BYTES:
        raise Unsupported(f"{where}.header_bytes = {tcp['header_bytes']}: ns-3's TCP/IP header is 40 bytes")
    if tcp["initial_window"] != int(tcp["initial_window"]):
        raise Unsupported(f"{where}.initial_window = {tcp['initial_window']}: ns-3 takes whole segments")
    if tcp.get("ecn_echo", "rfc3168") != "rfc3168":
        raise Unsupported(f"{where}.ecn_echo = {tcp['ecn_echo']!r}: ns-3 echoes ECN per RFC 3168 only")
    segment = tcp["packet_size_bytes"] - NS3_TCP_IP_HEADER_BYTES
    add = spec.add
    add(f"default ns3::TcpSocket::SegmentSize {segment}", f"{where}.packet_size_bytes - header_bytes")
    # aqmlab has no TCP options: no timestamps, so a 1500-byte packet carries 1460 bytes.
    add("default ns3::TcpSocketBase::Timestamp false", "aqmlab (no TCP options)")
    # RFC 6675's cwnd - pipe is ns-3's TcpClassicRecovery with SACK; RFC 6937's PRR is TcpPrrRecovery
    # (which counts DeliveredData its own way, whatever aqmlab's prr_delivered says: docs/sack.md).
    prr = kind == "prr"
    recovery_type, source = (
        ("TcpPrrRecovery", "sack_recovery = prr") if prr else ("TcpClassicRecovery", "recovery = new_reno")
    )
    add(f"default ns3::TcpL4Protocol::RecoveryType ns3::{recovery_type}", f"{where}.{source}")
    # ns-3's ECN reduction goes through its recovery algorithm (TcpSocketBase::EnterCwr calls
    # EnterRecovery, CA_CWR calls DoRecovery): at once with TcpClassicRecovery, paced with
    # TcpPrrRecovery. aqmlab's ecn_reduction = prr without PRR recovery has no ns-3 twin; the
    # other mismatch (PRR recovery, immediate ECN reduction) runs, a documented difference.
    if tcp.get("ecn_reduction", "immediate") == "prr" and not prr:
        raise Unsupported(
            f"{where}.ecn_reduction = 'prr' with sack_recovery = 'rfc6675': ns-3 paces "
            "its ECN reduction only with TcpPrrRecovery (set sack_recovery = 'prr')"
        )
    add(f"default ns3::TcpSocket::InitialCwnd {int(tcp['initial_window'])}", f"{where}.initial_window")
    add(
        f"default ns3::TcpSocket::InitialSlowStartThreshold {min(int(tcp['initial_ssthresh'] * segment), 2**32 - 1)}",
        f"{where}.initial_ssthresh",
    )
    add(f"default ns3::TcpSocketBase::MinRto {tcp['min_rto_ns']}ns", f"{where}.min_rto_ns")
    # ns-3 starts with a handshake: the SYN's timer is ConnTimeout; data RTOs start from the
    # handshake's RTT sample. aqmlab's initial RTO applies to the first data segment.
    add(f"default ns3::TcpSocket::ConnTimeout {tcp['initial_rto_ns']}ns", f"{where}.initial_rto_ns")
    add("default ns3::TcpSocketBase::ClockGranularity 1ms", "aqmlab tcp/rto.rs GRANULARITY_NS")
    add(f"default ns3::TcpSocket::DelAckCount {2 if tcp['delayed_ack'] else 1}", f"{where}.delayed_ack")
    add(f"default ns3::TcpSocket::DelAckTimeout {tcp['delayed_ack_timeout_ns']}ns", f"{where}.delayed_ack_timeout_ns")
    add(f"default ns3::TcpSocketBase::UseEcn {'On' if tcp['ecn'] else 'Off'}", f"{where}.ecn")
    add(f"default ns3::TcpSocketBase::ReTxThreshold {tcp['dupack_threshold']}", f"{where}.dupack_threshold")
    if sack and not tcp["limited_transmit"]:
        # ns-3's SACK sender sends by cwnd - pipe in every state (TcpSocketBase::SendPendingData,
        # AvailableWindow = cwnd - BytesInFlight(), RFC 6675's pipe): each SACK of a duplicate
        # ACK before fast retransmit lets a new segment out, i.e. RFC 6675 Section 5 step (3).
        # Its LimitedTransmit attribute acts only without SACK (DupAck, SendPendingData:
        # `!m_sackEnabled && m_limitedTx`), so it cannot be turned off (docs/sack.md).
        raise Unsupported(
            f"{where}.limited_transmit = false with sack = true: ns-3's SACK sender always does RFC 6675's "
            "Limited Transmit (step (3), cwnd - pipe); set limited_transmit = true"
        )
    # With SACK ns-3 ignores LimitedTransmit (above); the spec says `false` there, as it did
    # before the check, so that stored ns-3 runs stay valid: run 1 of access2m-newreno-sack-red
    # is bit-identical with true and false (docs/sack.md).
    limited = tcp["limited_transmit"] and not sack
    add(f"default ns3::TcpSocketBase::LimitedTransmit {str(limited).lower()}", f"{where}.limited_transmit")
    add(f"default ns3::TcpSocketBase::Sack {str(sack).lower()}", f"{where}.sack")
    # Window scaling on, and buffers large enough that neither the sender's buffer nor the
    # receiver's advertised window ever limits a flow (aqmlab: max_window).
    add("default ns3::TcpSocketBase::WindowScaling true", f"{where}.max_window (no receiver limit)")
    receive = buffer_bytes if tcp["max_window"] >= 1e6 else int(tcp["max_window"] * segment)
    add(f"default ns3::TcpSocket::SndBufSize {buffer_bytes}", f"{where}.max_window")
    add(f"default ns3::TcpSocket::RcvBufSize {receive}", f"{where}.max_window")
    # A flow never gives up in aqmlab (RTOs back off up to max_rto forever).
    add("default ns3::TcpSocket::DataRetries 100000", f"{where}.max_rto_ns (no give-up)")
    add("default ns3::TcpSocket::ConnCount 100000", f"{where}.max_rto_ns (no give-up)")
    return segment


# --- Topology ------------------------------------------------------------------------------


def _unique_shortest_hop_path(adjacency: dict[str, list[str]], source: str, target: str) -> list[str] | None:
    """The hop-count shortest path if it is unique (ns-3's global routing has no tie-break
    we could predict), else None."""
    distance = {source: 0}
    ways = {source: 1}
    parent: dict[str, str] = {}
    todo = deque([source])
    while todo:
        node = todo.popleft()
        for nxt in adjacency[node]:
            if nxt not in distance:
                distance[nxt] = distance[node] + 1
                ways[nxt] = ways[node]
                parent[nxt] = node
                todo.append(nxt)
            elif distance[nxt] == distance[node] + 1:
                ways[nxt] += ways[node]
    if target not in distance or ways[target] != 1:
        return None
    path = [target]
    while path[-1] != source:
        path.append(parent[path[-1]])
    return path[::-1]


@dataclass
class _Core:
    """Routers and core links, and for each group the routers its data crosses."""

    routers: list[str]
    links: list[dict[str, Any]]  # each with from, to, rate_bps, delay_ns, queue, reverse_queue, name
    monitored: list[str]
    paths: list[list[str]]


def _core(topology: dict[str, Any]) -> _Core:
    if topology["kind"] == "dumbbell":
        neck = topology["bottleneck"]
        link = {"name": "bottleneck", "from": "left", "to": "right", **neck}
        return _Core(["left", "right"], [link], ["bottleneck"], [["left", "right"]] * len(topology["groups"]))
    if topology["kind"] != "network":
        raise Unsupported(f"topology.kind = {topology['kind']!r}: the harness maps dumbbell and network")
    adjacency: dict[str, list[str]] = {router: [] for router in topology["routers"]}
    for link in topology["links"]:
        adjacency[link["from"]].append(link["to"])
        adjacency[link["to"]].append(link["from"])
    paths = []
    for index, group in enumerate(topology["groups"]):
        path = group["path"]
        if path["kind"] != "routers":
            raise Unsupported(
                f"topology.groups[{index}].path.kind = {path['kind']!r}: give the routers "
                "explicitly (ns-3 routes by hop count, aqmlab's `shortest` by delay)"
            )
        routers = path["routers"]
        if _unique_shortest_hop_path(adjacency, routers[0], routers[-1]) != routers:
            raise Unsupported(
                f"topology.groups[{index}].path.routers = {routers}: not the unique hop-count "
                "shortest path, which is the route ns-3's global routing takes"
            )
        paths.append(routers)
    return _Core(
        list(topology["routers"]), list(topology["links"]), [link["name"] for link in topology["links"]], paths
    )


def _check_group(group: dict[str, Any], index: int) -> None:
    where = f"topology.groups[{index}]"
    traffic = group["traffic"]
    if traffic["kind"] != "tcp":
        raise Unsupported(f"{where}.traffic.kind = {traffic['kind']!r}: the harness maps TCP groups only")
    checks = [
        (group["direction"] == "forward", "direction", "forward only"),
        (not group["shared_access"], "shared_access", "own access links only"),
        (group["rtt_spread_ns"] == 0, "rtt_spread_ns", "one RTT per group (aqmlab draws the spread)"),
        (
            group["stop"]["kind"] == "never",
            "stop",
            "flows that never stop (ns-3's BulkSend stops by closing, which still sends what is buffered)",
        ),
        (group["access_queue"]["kind"] == "drop_tail", "access_queue", "drop_tail edge queues"),
    ]
    for ok, name, allowed in checks:
        if not ok:
            raise Unsupported(f"{where}.{name}: the harness supports {allowed}")


def _start_times(groups: list[dict[str, Any]], seed: int) -> list[float]:
    """Start times when none are given: exact for fixed and staggered starts; uniform starts
    are drawn here (numpy, from `seed`), the same distribution as aqmlab's, not its draws."""
    rng = np.random.default_rng(seed)
    starts = []
    for group in groups:
        start, count = group["start"], group["traffic"]["count"]
        if start["kind"] == "uniform":
            starts += list(rng.uniform(start["low_ns"], start["high_ns"], count) / 1e9)
        elif start["kind"] == "fixed":
            starts += [start["at_ns"] / 1e9] * count
        else:
            starts += [(start["first_ns"] + i * start["spacing_ns"]) / 1e9 for i in range(count)]
    return starts


def _path_links(core: _Core, index: int) -> list[dict[str, Any]]:
    """The core links a group's data crosses, each in its forward direction."""
    forward = {(link["from"], link["to"]): link for link in core.links}
    path = core.paths[index]
    hops = []
    for a, b in itertools.pairwise(path):
        if (a, b) not in forward:
            raise Unsupported(
                f"topology.groups[{index}].path: {a} -> {b} is not a link's forward direction "
                "(the harness monitors and maps forward queues only)"
            )
        hops.append(forward[(a, b)])
    return hops


def _socket_buffer(core: _Core, groups: list[dict[str, Any]], packet: int) -> int:
    """Bytes enough for any window: twice (the largest path's buffers + its bandwidth-delay
    product), at least MIN_SOCKET_BUFFER_BYTES."""
    largest = 0.0
    for index, group in enumerate(groups):
        hops = _path_links(core, index)
        limits = [hop["queue"]["limit"] for hop in hops] + [group["access_queue"]["limit"]] * 2
        buffered = sum(lim.get("packets", 0) * packet + lim.get("bytes", 0) for lim in limits)
        rate = min([hop["rate_bps"] for hop in hops] + [group["access_rate_bps"]])
        largest = max(largest, buffered + rate * group["rtt_ns"] / 1e9 / 8)
    return max(MIN_SOCKET_BUFFER_BYTES, int(2 * largest))


def translate(
    resolved: dict[str, Any],
    *,
    start_times: list[float] | None = None,
    seed: int = 1,
    run: int = 1,
    trace_flows: int = 0,
    ppp_compensation: bool = True,
) -> Ns3Spec:
    """The ns-3 spec of `resolved` (a `Scenario.resolved()`). `start_times`: each flow's start
    (s, aqmlab's flow order; NaN = never starts), e.g. aqmlab's own from its flows table, so
    both simulators start the same flows at the same instants. `ppp_compensation` raises every
    link's rate by (packet + 2)/packet so that a data packet's serialisation time equals
    aqmlab's despite ns-3's 2-byte PPP header."""
    topology = resolved["topology"]
    groups = topology["groups"]
    for index, group in enumerate(groups):
        _check_group(group, index)
    tcp = _tcp_settings(groups)
    packet = tcp["packet_size_bytes"]
    core = _core(topology)
    spec = Ns3Spec()
    spec.comment(
        "ns-3 spec written by benchmarks/ns3/ns3_mapping.py from an aqmlab scenario; "
        "run with build/aqmlab_ns3 --spec=FILE"
    )
    duration = resolved["duration_ns"] / 1e9
    spec.add(f"duration_s {duration!r}", "duration_ns")
    spec.add(f"measure_start_s {resolved['measure_start_ns'] / 1e9!r}", "measure_start_ns")
    spec.add(f"trace_interval_s {resolved['trace']['interval_ns'] / 1e9!r}", "trace.interval_ns")
    spec.add(f"rng_seed {seed}", "the run's seed (ns-3 draws: queue randomness only)")
    spec.add(f"rng_run {run}")
    spec.add(f"trace_flows {trace_flows}")
    segment = _tcp_defaults(tcp, spec, _socket_buffer(core, groups, packet))
    _cc_defaults(groups, spec)

    def ns3_rate(rate_bps: int) -> int:
        return round(rate_bps * (packet + PPP_HEADER_BYTES) / packet) if ppp_compensation else rate_bps

    node_of = {router: i for i, router in enumerate(core.routers)}
    flow_count = sum(group["traffic"]["count"] for group in groups)
    spec.add(f"nodes {len(core.routers) + 2 * flow_count}", "routers, then a sender and a receiver per flow")
    for link in core.links:
        name, a, b = link["name"], node_of[link["from"]], node_of[link["to"]]
        spec.add(
            f"link {name} {a} {b} {ns3_rate(link['rate_bps'])} {link['delay_ns']} 1p 1p",
            f"core link {name} (rate x {packet + PPP_HEADER_BYTES}/{packet} for PPP)",
        )
        for side, key in (("a", "queue"), ("b", "reverse_queue")):
            kind, attributes = queue_disc(
                link[key], f"{name}.{key}", rate_bps=link["rate_bps"], delay_ns=link["delay_ns"], packet_bytes=packet
            )
            spec.add(f"qdisc {name} {side} {kind} {' '.join(attributes)}", f"{name}.{key}")
    for name in core.monitored:
        spec.add(f"monitor {name} a {name} {PPP_HEADER_BYTES}")
        spec.monitored.append(name)
        spec.monitored_rate_bps[name] = float(
            next(core_link["rate_bps"] for core_link in core.links if core_link["name"] == name)
        )

    starts = list(start_times) if start_times is not None else _start_times(groups, seed)
    if len(starts) != flow_count:
        raise ValueError(f"start_times has {len(starts)} entries for {flow_count} flows")
    next_node = len(core.routers)
    flow = 0
    for index, (group, path) in enumerate(zip(groups, core.paths, strict=True)):
        cc = group["traffic"]["tcp"]["cc"]["kind"]
        core_delay = sum(link["delay_ns"] for link in _path_links(core, index))
        # As the engine (topology.rs attach_group): what the RTT leaves beyond the core is split
        # equally between the access link and the receiver link, integer nanoseconds.
        edge_one_way = (group["rtt_ns"] - 2 * core_delay) // 2
        access_delay = edge_one_way // 2
        receiver_delay = edge_one_way - access_delay
        edge_queue = device_limit(group["access_queue"]["limit"])
        transfer = group["traffic"]["transfer"]
        max_bytes = transfer["bytes"] if transfer["kind"] == "finite" else 0
        spec.comment(
            f"group {group['name']}: {group['traffic']['count']} flows, {cc}, access delay "
            f"{access_delay} ns, receiver delay {receiver_delay} ns"
        )
        for _ in range(group["traffic"]["count"]):
            sender, receiver = next_node, next_node + 1
            next_node += 2
            spec.add(
                f"link access{flow} {sender} {node_of[path[0]]} {ns3_rate(group['access_rate_bps'])} "
                f"{access_delay} {edge_queue} {edge_queue}"
            )
            spec.add(
                f"link receiver{flow} {node_of[path[-1]]} {receiver} {ns3_rate(group['receiver_rate_bps'])} "
                f"{receiver_delay} {edge_queue} {edge_queue}"
            )
            spec.add(f"socket_type {sender} {CONGESTION_CONTROL[cc]}")
            start = starts[flow]
            start = duration + 1.0 if start is None or not math.isfinite(start) else float(start)
            spec.start_times.append(start)
            spec.add(f"flow {flow} {sender} {receiver} {start!r} {max_bytes} {segment}")
            flow += 1
    return spec
