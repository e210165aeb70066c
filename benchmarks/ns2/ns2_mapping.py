"""Translate an aqmlab scenario into an ns-2 2.35 Tcl program (issue 27).

Input: `Scenario.resolved()` (the engine's JSON, SI units). Output: an `Ns2Program`, whose
`text()` is a Tcl script for `ns` (Debian package ns2, 2.35). Every ns-2 variable the harness
relies on is set explicitly, with the aqmlab field it comes from in a `# from ...` comment
above it; README.md in this directory tables the mapping and the defaults of the running
binary (`defaults.tcl`, `defaults.json`). What ns-2 has no counterpart for raises `Unsupported`
naming the field, so no scenario is silently approximated.

The script writes one text file of records (`RECORDS`):
  L <link> <t> <pkts_> <parrivals_> <pdrops_> <bdepartures_> <pmarks_>   every trace interval
  F <flow> <t> <ack_ or bytes_> <nrexmit_> <nrexmitpack_> <ncwndcuts_>    at measure start, end
`records.parse` turns them into the tables `metrics.summarise` (benchmarks/ns3/metrics.py,
the restatement of `Results.summary()` tested against it) takes.

ns-2 source cited below is ns-2.35 (ns-allinone-2.35, 2011): tcl/lib/ns-default.tcl,
queue/drop-tail.cc, queue/red.cc, tcp/tcp.cc, tcp/tcp-linux.cc, tcp/linux/src/*.c,
tools/queue-monitor.{h,cc}.
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "ns3"))

# The topology helpers are the ns-3 harness's (hop-count routes are what ns-2's static
# routing takes too, `$ns rtproto Static`, unit link costs).
import web_traffic  # noqa: E402
from aqmlab import queues  # noqa: E402
from aqmlab._declarations import engine_key, si_value  # noqa: E402
from aqmlab.transport import SACK_SCOREBOARD_DEFAULTS  # noqa: E402
from ns3_mapping import AnnotatedProgram, _core, _path_links, _start_times  # noqa: E402

#: ns-2's TCP/IP header (`Agent/TCP set tcpip_base_hdr_size_ 40`, read from the binary).
NS2_TCP_IP_HEADER_BYTES = 40
#: TCP-Linux congestion controls in ns-2.35 (`select_ca NAME`), by aqmlab `cc.kind`.
LINUX_CC = {"cubic": "cubic", "compound": "compound", "highspeed": "highspeed", "scalable": "scalable"}
#: ns-2.35's tcp_scalable.c (Linux 2.6.x): TCP_SCALABLE_AI_CNT 50U, TCP_SCALABLE_MD_SCALE 3.
NS2_SCALABLE_AI_CNT = 50
#: ns-2.35's tcp_compound.c constants (the Linux port; `get_ca_param compound`: no tunable
#: parameter): alpha 1/8, beta 1/2, k 3/4, ETA (zeta) 1, gamma 30 (tuned between 5 and 30).
NS2_COMPOUND = {"alpha": 0.125, "beta": 0.5, "k": 0.75, "zeta": 1.0, "gamma": 30.0}
#: Nodes above which `Options.manual_routing` is on: static routing's all-pairs computation
#: took > 3.5 min of CPU and 800 MB before the first packet at 4004 nodes (seed002-fig2-5's
#: 2000 flows).
MANUAL_ROUTING_NODES = 1000
#: Window and scoreboard sizes large enough never to bind (ns-2's `window_ 20` caps cwnd).
LARGE_WINDOW = 1_000_000
RECORDS = "records.txt"
#: `Options.trace_flows`: ns-2's packet trace (trace/trace.cc `Trace::format`, one line per
#: event: `+ - r d` time from to type size flags fid src dst seqno uid) and each traced
#: flow's window trace (tcp.cc `TcpAgent::traceVar`: time addr port daddr dport name value).
PACKET_TRACE = "packets.tr"
WINDOW_TRACE = "window-{flow}.tr"


class Unsupported(ValueError):
    """The scenario uses something ns-2 2.35 has no counterpart for; names the field."""


@dataclass
class Ns2Program(AnnotatedProgram):
    #: For each flow (aqmlab's order): the monitored links its data crosses.
    flow_links: list[list[str]] = field(default_factory=list)
    #: For each flow: payload bytes per packet, "tcp" or "udp".
    payload_bytes: list[int] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    #: For each flow: the Tcl reference of the router its access link enters.
    first_routers: list[str] = field(default_factory=list)
    #: Per web group index: its transfers as drawn (web_traffic.Transfers).
    web_transfers: dict[int, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Options:
    """Settings of the ns-2 side that aqmlab has no field for. The defaults match aqmlab
    (like with like); `ns2_defaults()` gives ns-2's own, for runs "as the paper printed"."""

    #: `Agent/TCP set tcpTick_` (s): ns-2's default 0.01; aqmlab's RTO has 1 ms granularity
    #: (crates/engine tcp/rto.rs). TCP-Linux sets 0.001 itself at `select_ca`.
    tick_s: float = 0.001
    #: Per-ACK RTT samples as aqmlab takes (`timestamps_ true` with `ts_option_size_ 0`, so the
    #: header stays 40 bytes); ns-2's default (false) times one segment per RTT (Karn).
    timestamps: bool = True
    #: `syn_`: ns-2.35 sends a 40-byte SYN as segment 0 (`syn_ true`); aqmlab starts with data.
    syn: bool = False
    #: `Agent/TCP set window_` when aqmlab's max_window is unlimited.
    window: int = LARGE_WINDOW
    #: Which agent runs aqmlab's `cc = reno` with `sack = true`: "sack1" (Agent/TCP/Sack1) or
    #: "linux" (Agent/TCP/Linux with select_ca reno).
    reno_sack_agent: str = "sack1"
    #: `Agent/TCP set singledup_`: None follows the scenario's `limited_transmit` (like with
    #: like); ns-2's default is 1 (ns-default.tcl), Limited Transmit on.
    singledup: int | None = None
    #: `Agent/TCP set SetCWRonRetransmit_`: None follows the scenario's `cwr_on_retransmit`
    #: (like with like); ns-2's default is true (ns-default.tcl): CWR on a retransmission too.
    cwr_on_retransmit: bool | None = None
    #: `$ns rtproto Manual` with each flow's route installed hop by hop (`$node add-route`,
    #: ns-node.tcl), the path aqmlab routes it on, instead of static routing (route.cc
    #: RouteLogic::compute_routes: every pair of nodes before the first packet). None: manual
    #: above `MANUAL_ROUTING_NODES` nodes. (NixVector routing, `set-nix-routing`, needs
    #: duplex links: with the harness's simplex links ns-2.35 stops at "Nix ... out of range".)
    manual_routing: bool | None = None
    #: Flows (aqmlab's order) ns-2 traces packet by packet, for benchmarks/ns2/trace_diff.py:
    #: `$ns trace-queue` (ns-lib.tcl) on each one's access link in both directions (its sends
    #: and the ACKs it receives) and on every monitored link (drops), into `PACKET_TRACE`;
    #: `tracevar cwnd_` and `ssthresh_` of its agent into `WINDOW_TRACE`. Passive: the
    #: trace objects forward every packet unchanged (trace.cc `Trace::recv`). Empty: no trace,
    #: and the program is the one without this option, line for line.
    trace_flows: tuple[int, ...] = ()


def binary_default(name: str) -> str:
    """An ns-2 class default as the running binary has it (defaults.json, `defaults.py`)."""
    return json.loads((HERE / "defaults.json").read_text())["variables"][name]


def ns2_defaults() -> Options:
    """ns-2's own TCP defaults, for runs "as the paper printed": 10-ms tick, one RTT sample per
    RTT (Karn), a SYN, and `singledup_` and `SetCWRonRetransmit_` as the binary has them (1:
    Limited Transmit on; true: CWR on a retransmission too)."""
    return Options(
        tick_s=0.01,
        timestamps=False,
        syn=True,
        singledup=int(binary_default("Agent/TCP singledup_")),
        cwr_on_retransmit=binary_default("Agent/TCP SetCWRonRetransmit_") == "true",
    )


# --- Queues --------------------------------------------------------------------------------


def queue_lines(queue: dict[str, Any], where: str, var: str, rate_bps: int, packet_bytes: int) -> tuple[str, list]:
    """(ns-2 queue type, [(tcl line, source)]) for an aqmlab queue; `var` is the Tcl variable
    holding the queue object once the link exists."""
    kind = queue["kind"]
    limit = queue.get("limit", {})
    lines: list[tuple[str, str]] = []
    if kind == "random_drop":  # its buffer; its drops are an ErrorModel before it (random_drop_lines)
        return queue_lines({"kind": "drop_tail", "limit": limit}, where, var, rate_bps, packet_bytes)
    if kind in ("drop_tail", "threshold"):
        if kind == "threshold":
            if queue["ecn"]:
                raise Unsupported(
                    f"{where}.ecn = true: ns-2's DropTail cannot mark; the threshold policy maps to drops"
                )
            if queue["queue_in_bytes"]:
                raise Unsupported(f"{where}.queue_in_bytes = true: the harness maps q_th in packets")
            q_th = queue["q_th"]
            if q_th != int(q_th):
                raise Unsupported(f"{where}.q_th = {q_th}: a DropTail holding q_th packets needs a whole number")
            held = min(int(q_th), limit.get("packets", int(q_th)))
            source = f"{where}.q_th (drop an arrival finding >= q_th queued = a DropTail holding q_th)"
        elif "packets" in limit:
            held = limit["packets"]
            source = f"{where}.limit"
        else:
            # drop-tail.cc DropTail::enque, queue_in_bytes_: drop when byteLength + size >=
            # limit_ * mean_pktsize_; aqmlab admits while bytes + size <= limit: one byte more.
            lines.append((f"${var} set queue_in_bytes_ true", f"{where}.limit in bytes"))
            lines.append((f"${var} set mean_pktsize_ 1", f"{where}.limit in bytes (limit_ counts bytes)"))
            lines.append((f"${var} set limit_ {limit['bytes'] + 1}", f"{where}.limit + 1 byte (drop-tail.cc: >=)"))
            return "DropTail", lines
        # drop-tail.cc DropTail::enque: `(q_->length() + 1) >= qlim_` drops, so ns-2's DropTail
        # holds limit_ - 1 waiting packets; aqmlab's queue holds `limit` waiting packets (the
        # one on the wire is in neither): limit_ = limit + 1.
        lines.append((f"${var} set limit_ {held + 1}", f"{source} + 1 (ns-2's DropTail holds limit_ - 1)"))
        return "DropTail", lines
    if kind == "red":

        def red(name: str) -> Any:  # read under the key the declaration gives (aqmlab._declarations)
            return queue[engine_key(queues.Red, name)]

        mean = red("mean_packet_size")
        qib = red("queue_in_bytes")
        if "packets" in limit:
            if qib:
                # red.cc REDQueue::enque: qlim = limit_ * mean_pktsize with queue_in_bytes_; a
                # packet limit of full packets is that many packet_bytes.
                ns2_limit = math.ceil(limit["packets"] * packet_bytes / mean)
                source = f"{where}.limit x packet_size / mean_packet_size (queue_in_bytes)"
            else:
                # red.cc: `if (qlen >= qlim) droptype = DTYPE_FORCED`, qlen before the arrival:
                # RED holds limit_ waiting packets, as aqmlab.
                ns2_limit, source = limit["packets"], f"{where}.limit (RED holds limit_)"
        else:
            if not qib:
                raise Unsupported(f"{where}.limit in bytes without queue_in_bytes: ns-2's RED limit_ counts packets")
            ns2_limit = math.ceil(limit["bytes"] / mean)
            source = f"{where}.limit / mean_packet_size (queue_in_bytes)"
        scale = mean if qib else 1.0  # red.cc: th_min = thresh_ * mean_pktsize with qib_
        weight = 1.0 if red("instantaneous") else red("q_weight")
        lines += [
            (f"${var} set limit_ {ns2_limit}", source),
            (f"${var} set bytes_ {str(red('byte_mode')).lower()}", f"{where}.byte_mode"),
            (f"${var} set queue_in_bytes_ {str(qib).lower()}", f"{where}.queue_in_bytes"),
            (f"${var} set mean_pktsize_ {mean}", f"{where}.mean_packet_size"),
            (f"${var} set thresh_ {red('min_th') / scale!r}", f"{where}.min_th"),
            (f"${var} set maxthresh_ {red('max_th') / scale!r}", f"{where}.max_th"),
            (f"${var} set linterm_ {1.0 / red('max_p')!r}", f"{where}.max_p (= 1/linterm_)"),
            (
                f"${var} set q_weight_ {weight!r}",
                f"{where}.q_weight"
                + (" (instantaneous: weight 1, avg = current queue)" if red("instantaneous") else ""),
            ),
            (f"${var} set gentle_ {str(red('gentle')).lower()}", f"{where}.gentle"),
            (f"${var} set wait_ {str(red('wait')).lower()}", f"{where}.wait"),
            (f"${var} set setbit_ {str(red('ecn')).lower()}", f"{where}.ecn"),
            (f"${var} set targetdelay_ {si_value(queue, queues.Red, 'target_delay')!r}", f"{where}.target_delay"),
        ]
        mark_p = red("mark_p")
        if mark_p is None:
            lines.append((f"${var} set use_mark_p_ false", f"{where}.mark_p = None"))
        else:
            lines.append((f"${var} set use_mark_p_ true", f"{where}.mark_p"))
            lines.append((f"${var} set mark_p_ {mark_p!r}", f"{where}.mark_p"))
        lines.append((f"${var} set drop_tail_ true", "aqmlab drops the arrival (ns-2 default)"))
        lines.append((f"${var} set adaptive_ 0", "plain RED"))
        return "RED", lines
    names = {"ered": "E-RED", "red_vq": "REDvq", "adaptive_red": "Adaptive RED (aqmlab's variant)"}
    raise Unsupported(
        f"{where}.kind = {kind!r}: the harness maps drop_tail, random_drop, red and threshold only"
        + (f" ({names[kind]} has no ns-2.35 counterpart)" if kind in names else "")
    )


def random_drop_lines(queue: dict[str, Any], where: str, source: str, target: str) -> list[tuple[str, str]]:
    """[(tcl line, source)] installing aqmlab's `random_drop` drops on the link `source` ->
    `target` (Tcl node references); [] for any other queue. ns-2.35's counterpart is an
    ErrorModel in packet units (errmodel.cc ErrorModel::CorruptPkt: `u < rate_`, u uniform, one
    draw per packet) installed with `$ns lossmodel` (ns-lib.tcl Simulator::lossmodel ->
    ns-link.tcl SimpleLink::errormodule: `add-to-head`, before the queue, its drop target the
    link's drophead_): every arrival is dropped with probability p before it can enter the
    buffer, as queue/random_drop.rs; the buffer is a DropTail (`queue_lines`). Installed before
    `monitor-queue`, whose own add-to-head then puts the monitor's in-snoop ahead of it, so a
    random drop is counted as an arrival and a drop (`parrivals_`, `pdrops_`), as aqmlab counts
    it. Not Queue/RED's `drop_rand_` (red.cc pickPacketToDrop: which queued packet a RED drop
    takes) nor DropTail's `drop_front_` (drop-tail.cc: overflow drops the head): neither drops
    with a fixed probability."""
    if queue["kind"] != "random_drop":
        return []
    if queue["ecn"]:
        raise Unsupported(
            f"{where}.ecn = true: ns-2's ErrorModel with markecn_ marks every packet it picks, ECN-capable "
            "or not (errmodel.cc); aqmlab still drops packets that are not ECN-capable"
        )
    return [
        ("set em [new ErrorModel]", f"{where}.kind = 'random_drop' (errmodel.cc)"),
        ("$em unit pkt", "one draw per packet"),
        (f"$em set rate_ {queue['probability']!r}", f"{where}.probability"),
        ("$em ranvar [new RandomVariable/Uniform]", "u uniform in [0, 1) from the run's RNG"),
        (f"$ns lossmodel $em {source} {target}", "before the queue, ahead of monitor-queue"),
    ]


# --- TCP -----------------------------------------------------------------------------------


def tcp_agent(tcp: dict[str, Any], where: str, options: Options) -> tuple[str, str, list[tuple[str, str]]]:
    """(agent class, sink class, per-agent [(setting, source)]) for a group's TCP."""
    agent, sink, settings = _agent_for(tcp, where, options)
    linux = agent == "Agent/TCP/Linux"
    # tcp.cc newack() restarts the retransmission timer on new data only (as aqmlab's default
    # rto_restart = "new_data"); tcp-linux.cc restarts it on every ACK (rto_restart = "every_ack").
    # tcp-linux.cc time_processing samples the RTT on every ACK (rtt_sampling = "every_ack");
    # tcp.cc's agents on ACKs of new data only.
    if tcp.get("rtt_sampling", "new_data") == "every_ack" and not linux:
        raise Unsupported(f"{where}.rtt_sampling = 'every_ack': only ns-2's Agent/TCP/Linux samples every ACK")
    if tcp.get("rto_restart", "new_data") == "every_ack" and not linux:
        raise Unsupported(f"{where}.rto_restart = 'every_ack': only ns-2's Agent/TCP/Linux restarts on every ACK")
    # aqmlab's ns-2 estimators (crates/engine tcp/rto.rs): tcp.cc's for Agent/TCP and its
    # subclasses, tcp-linux.cc's for Agent/TCP/Linux; ns-2 has no switch, so the right one.
    estimator = tcp.get("rtt_estimator", "rfc6298")
    wanted = "ns2_linux" if linux else "ns2"
    if estimator not in ("rfc6298", wanted):
        raise Unsupported(
            f"{where}.rtt_estimator = {estimator!r}: ns-2's {agent} estimates as rtt_estimator = {wanted!r}"
        )
    if linux and estimator == "ns2_linux" and tcp.get("timer_tick_ns") != 1_000_000:
        raise Unsupported(
            f"{where}.timer_tick = {tcp.get('timer_tick_ns')} ns: Agent/TCP/Linux ticks at 1 ms "
            "(select_ca sets tcpTick_ 0.001, tcp-linux.cc line 747)"
        )
    # recovery/sack.rs rate_halving is tcp-linux.cc send_much's next_pkts_in_flight_.
    if tcp["recovery"].get("rate_halving", False) and not linux:
        raise Unsupported(f"{where}.rate_halving = true: only ns-2's Agent/TCP/Linux halves by rate halving")
    # recovery/sack.rs lost_retransmit = "sack_above" is scoreboard1.cc's lost-retransmission
    # check (lines 212-222), TCP-Linux's own scoreboard.
    if tcp["recovery"].get("lost_retransmit", "rto") != "rto" and not linux:
        raise Unsupported(
            f"{where}.lost_retransmit = {tcp['recovery']['lost_retransmit']!r}: only ns-2's Agent/TCP/Linux "
            "resends lost retransmissions without a timeout (scoreboard1.cc)"
        )
    # recovery/sack.rs loss_marking = "fack", timeout_scoreboard = "keep" and timeout_recovery =
    # "linux_loss_state" are TCP-Linux's scoreboard and Loss state, recovery_exit_scoreboard =
    # "clear" its ClearScoreBoard at the end of Recovery (scoreboard1.cc UpdateScoreBoard line
    # 168; tcp-linux.cc enter_loss 548-551, tcp_fastretrans_alert 459-509, 462);
    # flight_outside_recovery = "minus_sacked" is its packets_in_flight() (scoreboard1.h line 162).
    for name, default in SACK_SCOREBOARD_DEFAULTS.items():
        value = tcp["recovery"].get(name, default)
        if value != default and not linux:
            raise Unsupported(
                f"{where}.{name} = {value!r}: only ns-2's Agent/TCP/Linux has this scoreboard (scoreboard1.cc); "
                f"{agent} behaves as {default!r}"
            )
    return agent, sink, settings


def _agent_for(tcp: dict[str, Any], where: str, options: Options) -> tuple[str, str, list[tuple[str, str]]]:
    cc = tcp["cc"]
    kind = cc["kind"]
    recovery = tcp["recovery"]  # the engine's table: the algorithm (`kind`) and its parameters
    sack = recovery["kind"] in ("sack", "prr")
    settings: list[tuple[str, str]] = []
    if tcp.get("ecn_echo", "rfc3168") != "rfc3168":
        raise Unsupported(f"{where}.ecn_echo = {tcp['ecn_echo']!r}: ns-2's TCPSink echoes per RFC 3168 only")
    if recovery["kind"] == "prr":
        raise Unsupported(f"{where}.sack_recovery = 'prr': ns-2.35's agents have no PRR (RFC 6937)")
    for name, value, default in (
        ("loss_flight_size", recovery.get("loss_flight_size", "rfc5681"), "rfc5681"),
        ("recovery_exit_credit", recovery.get("exit_credit", "none"), "none"),
        ("partial_ack_retransmit", recovery.get("partial_ack_retransmit", "rfc6675"), "rfc6675"),
        ("ecn_reduction", tcp.get("ecn_reduction", "immediate"), "immediate"),
    ):
        if value != default:
            raise Unsupported(f"{where}.{name} = {value!r}: an ns-3 comparison option with no ns-2 counterpart")
    if kind == "reno":
        if recovery["kind"] == "tahoe":
            return "Agent/TCP", "Agent/TCPSink", settings
        if recovery["kind"] == "reno":
            # tcp-reno.cc: RFC 5681 fast recovery, left on the first new ACK (partial ones included).
            return "Agent/TCP/Reno", "Agent/TCPSink", settings
        if not sack:
            if recovery["partial_ack_timer"] != "impatient":
                raise Unsupported(
                    f"{where}.partial_ack_timer = 'slow_but_steady': ns-2's Newreno restarts the timer "
                    "on the first partial ACK only (newreno_changes1_ 1)"
                )
            # tcp-newreno.cc: newreno_changes1_ 1 (RFC 2582 impatient variant, read from the binary).
            return "Agent/TCP/Newreno", "Agent/TCPSink", settings
        if options.reno_sack_agent == "linux":
            settings.append(("select_ca reno", f"{where}.cc = reno (TCP-Linux)"))
            return "Agent/TCP/Linux", "Agent/TCPSink/Sack1", settings
        return "Agent/TCP/Sack1", "Agent/TCPSink/Sack1", settings
    if kind not in LINUX_CC:
        raise Unsupported(
            f"{where}.cc.kind = {kind!r}: ns-2.35 has no counterpart the harness maps "
            f"(reno, {', '.join(sorted(LINUX_CC))}; Cx-TCP, PERT, AIMD laws are aqmlab's own)"
        )
    if not sack:
        # tcp-linux.cc: LinuxTcpAgent keeps a ScoreBoard1 and reads SACK blocks (UpdateScoreBoard).
        raise Unsupported(f"{where}.sack = false with cc = {kind}: ns-2's TCP-Linux is a SACK sender; set sack = true")
    settings.append((f"select_ca {LINUX_CC[kind]}", f"{where}.cc.kind"))
    if kind == "cubic":
        # "ns2_linux" is this agent's own arithmetic in aqmlab; "rfc9438" the law it approximates.
        if cc.get("definition", "rfc9438") not in ("rfc9438", "ns2_linux"):
            raise Unsupported(f"{where}.cc.definition = {cc['definition']!r}: ns-2's cubic is Linux 2.6's")
        # tcp_cubic.c: beta/1024 is the window kept on a loss; C = bic_scale * 10 / 1024.
        settings += [
            (f"set_ca_param cubic beta {round(cc['beta'] * 1024)}", f"{where}.cc.beta (x 1024)"),
            (f"set_ca_param cubic bic_scale {round(cc['c'] * 1024 / 10)}", f"{where}.cc.c (x 1024 / 10)"),
            (f"set_ca_param cubic fast_convergence {int(cc['fast_convergence'])}", f"{where}.cc.fast_convergence"),
            (f"set_ca_param cubic tcp_friendliness {int(cc['reno_friendly'])}", f"{where}.cc.reno_friendly"),
        ]
    elif kind == "highspeed":
        if cc["definition"] not in ("linux_table", "ns2_linux"):
            raise Unsupported(
                f"{where}.cc.definition = {cc['definition']!r}: ns-2's highspeed is Linux's "
                "(RFC 3649 Appendix B's table); set definition = 'linux_table'"
            )
    elif kind == "scalable":
        definition_ok = cc["definition"] in ("ns3", "ns2_linux")
        if not definition_ok or not math.isclose(1.0 / cc["a"], NS2_SCALABLE_AI_CNT) or cc["b"] != 0.125:
            raise Unsupported(
                f"{where}.cc (definition {cc['definition']!r}, a {cc['a']}, b {cc['b']}): ns-2.35's "
                f"tcp_scalable.c is definition = 'ns2_linux' (or its real-valued 'ns3') with "
                f"a = 1/{NS2_SCALABLE_AI_CNT}, b = 0.125"
            )
    elif kind == "compound":
        for name, value in NS2_COMPOUND.items():
            if not math.isclose(cc[name], value):
                raise Unsupported(
                    f"{where}.cc.{name} = {cc[name]}: ns-2.35's tcp_compound.c has {name} = {value} "
                    "(a constant; gamma is tuned between 5 and 30 there, aqmlab keeps it fixed)"
                )
        if cc["low_window"] != 41:
            raise Unsupported(
                f"{where}.cc.low_window = {cc['low_window']}: the port's integer arithmetic grows dwnd "
                "from w >= 41 only (issue 27); keep 41"
            )
    return "Agent/TCP/Linux", "Agent/TCPSink/Sack1", settings


def tcp_globals(tcp: dict[str, Any], where: str, program: Ns2Program, options: Options) -> int:
    """Class defaults every TCP agent shares; returns the payload bytes per packet."""
    add = program.add
    if tcp["header_bytes"] != NS2_TCP_IP_HEADER_BYTES:
        raise Unsupported(f"{where}.header_bytes = {tcp['header_bytes']}: ns-2's TCP/IP header is 40 bytes")
    if tcp["initial_window"] != int(tcp["initial_window"]):
        raise Unsupported(f"{where}.initial_window = {tcp['initial_window']}: ns-2's windowInit_ is whole packets")
    if tcp["initial_ssthresh"] < 1e9:
        raise Unsupported(f"{where}.initial_ssthresh: ns-2 starts ssthresh_ at window_ (tcp.cc reset)")
    payload = tcp["packet_size_bytes"] - NS2_TCP_IP_HEADER_BYTES
    # tcp.cc TcpAgent::output: the wire size is size_ (packetSize_) + headersize().
    add(f"Agent/TCP set packetSize_ {payload}", f"{where}.packet_size - header_size")
    add(f"Agent/TCP set tcpip_base_hdr_size_ {NS2_TCP_IP_HEADER_BYTES}", f"{where}.header_size")
    add(f"Agent/TCP set windowInit_ {int(tcp['initial_window'])}", f"{where}.initial_window")
    window = options.window if tcp["max_window"] >= 1e6 else int(tcp["max_window"])
    add(f"Agent/TCP set window_ {window}", f"{where}.max_window (ns-2's window_ 20 caps cwnd)")
    add("Agent/TCP set maxcwnd_ 0", "no cap")
    # ns-default.tcl gives Agent/TCP/Linux its own minrto_, maxrto_ (120) and rtxcur_init_ (3):
    # a subclass's class default hides Agent/TCP's, so both are set (defaults.json, read).
    for cls in ("Agent/TCP", "Agent/TCP/Linux"):
        add(f"{cls} set minrto_ {tcp['min_rto_ns'] / 1e9!r}", f"{where}.min_rto")
        add(f"{cls} set maxrto_ {tcp['max_rto_ns'] / 1e9!r}", f"{where}.max_rto")
        add(f"{cls} set rtxcur_init_ {tcp['initial_rto_ns'] / 1e9!r}", f"{where}.initial_rto")
    if "timer_tick_ns" in tcp:  # aqmlab's timer_tick is ns-2's tcpTick_
        add(f"Agent/TCP set tcpTick_ {tcp['timer_tick_ns'] / 1e9!r}", f"{where}.timer_tick")
    else:
        add(f"Agent/TCP set tcpTick_ {options.tick_s!r}", "timer granularity (Options.tick_s; ns-2 default 0.01)")
    add(f"Agent/TCP set timestamps_ {str(options.timestamps).lower()}", "Options.timestamps (RTT sampling)")
    add("Agent/TCP set ts_option_size_ 0", "aqmlab has no TCP options (40-byte header)")
    add(f"Agent/TCP set syn_ {str(options.syn).lower()}", "Options.syn (aqmlab starts with data)")
    # ns-default.tcl `singledup_ 1`: tcp.cc sends a new segment on each of the first
    # numdupacks_-1 duplicate ACKs, i.e. Limited Transmit (RFC 3042).
    if options.singledup is None:
        add(f"Agent/TCP set singledup_ {int(tcp['limited_transmit'])}", f"{where}.limited_transmit")
    else:
        add(f"Agent/TCP set singledup_ {options.singledup}", "Options.singledup (ns-2's default: 1)")
    add(f"Agent/TCP set numdupacks_ {tcp['dupack_threshold']}", f"{where}.dupack_threshold")
    add(f"Agent/TCP set ecn_ {int(tcp['ecn'])}", f"{where}.ecn")
    # tcp.cc TcpAgent::output: `if (cong_action_ && (!is_retransmit || SetCWRonRetransmit_))`
    # sets CWR; ns-default.tcl has it true (defaults.json), RFC 3168 Section 6.1.2 (aqmlab's
    # default) sets CWR on new data only.
    if options.cwr_on_retransmit is None:
        cwr_on_retransmit = str(tcp.get("cwr_on_retransmit", False)).lower()
        add(f"Agent/TCP set SetCWRonRetransmit_ {cwr_on_retransmit}", f"{where}.cwr_on_retransmit")
    else:
        on = str(options.cwr_on_retransmit).lower()
        add(f"Agent/TCP set SetCWRonRetransmit_ {on}", "Options.cwr_on_retransmit (ns-2's default: true)")
    add("Agent/TCP set maxburst_ 0", "no burst limit (as aqmlab)")
    add("Agent/TCP set overhead_ 0", "no random send delay")
    add(f"Agent/TCPSink/DelAck set interval_ {tcp['delayed_ack_timeout_ns'] / 1e9!r}", f"{where}.delayed_ack_timeout")
    add(
        f"Agent/TCPSink/Sack1/DelAck set interval_ {tcp['delayed_ack_timeout_ns'] / 1e9!r}",
        f"{where}.delayed_ack_timeout",
    )
    return payload


def _shared_tcp(groups: list[dict[str, Any]]) -> dict[str, Any] | None:
    shared = None
    for index, group in enumerate(groups):
        if group["traffic"]["kind"] not in ("tcp", "web"):
            continue
        tcp = {k: v for k, v in group["traffic"]["tcp"].items() if k not in ("cc", "recovery")}
        if shared is None:
            shared = tcp
        elif tcp != shared:
            differing = sorted(k for k in set(tcp) | set(shared) if tcp.get(k) != shared.get(k))
            raise Unsupported(
                f"topology.groups[{index}].traffic.tcp: {differing} differ from the first TCP group; "
                "the harness sets them as ns-2 class defaults"
            )
    return shared


# --- Groups --------------------------------------------------------------------------------


def _check_group(group: dict[str, Any], index: int) -> None:
    where = f"topology.groups[{index}]"
    kind = group["traffic"]["kind"]
    if kind not in ("tcp", "udp", "web"):
        raise Unsupported(f"{where}.traffic.kind = {kind!r}: the harness maps tcp, udp and web groups")
    checks = [
        (group["direction"] == "forward", "direction", "forward only"),
        (group["access_queue"]["kind"] == "drop_tail", "access_queue", "drop_tail edge queues"),
    ]
    if kind == "web":  # one shared access link and one RTT for all its transfers (web_traffic.py)
        checks.append((group["rtt_spread_ns"] == 0, "rtt", "one RTT per web group"))
    else:  # per-flow RTT spreads: each flow's own edge links (_flow_rtts)
        checks.append((not group["shared_access"], "shared_access", "own access links only"))
    stop = group["stop"]["kind"]
    allowed_stop = stop == "never" or (kind in ("udp", "web") and stop == "fixed")
    checks.append((allowed_stop, "stop", "never (UDP, web: fixed)"))
    for ok, name, allowed in checks:
        if not ok:
            raise Unsupported(f"{where}.{name}: the harness supports {allowed}")
    if kind == "web" and group["start"]["kind"] != "fixed":
        raise Unsupported(f"{where}.start: web arrivals begin at a fixed time")


def _web_group(
    program: Ns2Program,
    group: dict[str, Any],
    index: int,
    path: list[str],
    hops: list[dict[str, Any]],
    packet: int,
    options: Options,
    seed: int,
    duration: float,
) -> None:
    """A web group (web_traffic.py): one shared sender and receiver node with the group's access
    and receiver links, and its transfers drawn from aqmlab's distributions."""
    where = f"topology.groups[{index}]"
    add = program.add
    agent, sink, settings = tcp_agent(group["traffic"]["tcp"], f"{where}.traffic.tcp", options)
    if group["traffic"]["tcp"]["delayed_ack"]:
        sink += "/DelAck"
    core_delay = sum(hop["delay_ns"] for hop in hops)
    edge_one_way = (group["rtt_ns"] - 2 * core_delay) // 2  # as topology.rs attach_group
    access_delay = edge_one_way // 2
    program.comment(f"group {group['name']}: web transfers (web_traffic.py)")
    add(f"set ws({index}) [mk]; set wr({index}) [mk]", f"{where}: one shared access (topology.rs attach_group)")
    first, last = f"$n({path[0]})", f"$n({path[-1]})"
    edge = group["access_queue"]
    for na, nb, rate, delay, label in (
        (f"$ws({index})", first, group["access_rate_bps"], access_delay, "access"),
        (first, f"$ws({index})", group["access_rate_bps"], access_delay, "access (ACKs)"),
        (last, f"$wr({index})", group["receiver_rate_bps"], edge_one_way - access_delay, "receiver"),
        (f"$wr({index})", last, group["receiver_rate_bps"], edge_one_way - access_delay, "receiver (ACKs)"),
    ):
        qtype, qsettings = queue_lines(edge, f"{where}.access_queue", "q", rate, packet)
        add(f"$ns simplex-link {na} {nb} {rate} {delay / 1e9!r} {qtype}", f"{where} {label} link")
        add(f"set q [[$ns link {na} {nb}] queue]")
        for line, source in qsettings:
            add(line, source)
    try:
        first_s, last_s = web_traffic.web_window(group, duration, where)
    except ValueError as error:
        raise Unsupported(str(error)) from None
    transfers = web_traffic.draw_transfers(group["traffic"], first_s, last_s, seed, index)
    drains = [web_traffic.drain_s(hop["queue"], hop["rate_bps"], packet) for hop in hops]
    drains += [web_traffic.drain_s(edge, group[key], packet) for key in ("access_rate_bps", "receiver_rate_bps")]
    quarantine = web_traffic.quarantine_s(group["rtt_ns"] / 1e9, drains)
    for line, source in web_traffic.web_group_tcl(index, agent, sink, settings, transfers, quarantine):
        add(line, source)
    if transfers.arrivals_s.size:
        add(f'$ns at {float(transfers.arrivals_s[0])!r} "web_arrive {index} 0"', f"{where}: the first arrival")
    program.web_transfers[index] = transfers


def manual_routes(sender: str, receiver: str, routers: list[str]) -> list[str]:
    """`$node add-route` lines (ns-node.tcl Node::add-route: destination id, the head of the
    link to take) for one flow: its data from `sender` along `routers` to `receiver`, its ACKs
    back the same way (Tcl node references)."""
    nodes = [sender, *routers, receiver]
    lines = []
    for route in (nodes, nodes[::-1]):
        for here, after in itertools.pairwise(route):
            lines.append(f"{here} add-route [{route[-1]} id] [[$ns link {here} {after}] head]")
    return lines


def aqmlab_flow_rtts(resolved: dict[str, Any], seed: int) -> dict[int, list[int]]:
    """Group index -> its flows' two-way propagation delays (ns) as aqmlab draws them for
    `seed`: a group with an RTT spread gives each flow its own RTT, uniform in [rtt, rtt +
    spread] (topology.rs attach_group). The engine builds the run (nothing is simulated) and
    reads them off the flows' routes (`Simulation.propagation_rtts_ns`), so both simulators run
    the same RTTs."""
    from aqmlab import _engine

    simulation = _engine.Simulation(json.dumps(resolved, sort_keys=True), seed)
    out: dict[int, list[int]] = {}
    for group, rtt in zip(simulation.results()["flows"]["group"], simulation.propagation_rtts_ns, strict=True):
        out.setdefault(int(group), []).append(int(rtt))
    return out


def _flow_rtts(resolved: dict[str, Any], seed: int, given: dict[int, list[int]] | None) -> dict[int, list[int]]:
    """Per group with an RTT spread, its flows' RTTs (ns) for the edge links: `given`, else
    aqmlab's draws for `seed`; a group without a spread takes its `rtt`."""
    groups = resolved["topology"]["groups"]
    spread = [index for index, group in enumerate(groups) if group["rtt_spread_ns"]]
    if given is None:
        given = aqmlab_flow_rtts(resolved, seed) if spread else {}
    for index in spread:
        count = groups[index]["traffic"]["count"]
        if len(given.get(index, [])) != count:
            raise ValueError(f"flow_rtts_ns[{index}]: {len(given.get(index, []))} RTTs for the group's {count} flows")
    return {index: list(given[index]) for index in spread}


def translate(
    resolved: dict[str, Any],
    *,
    start_times: list[float] | None = None,
    seed: int = 1,
    records: str = RECORDS,
    options: Options | None = None,
    flow_rtts_ns: dict[int, list[int]] | None = None,
) -> Ns2Program:
    """The ns-2 program of `resolved` (a `Scenario.resolved()`). `start_times`: each flow's
    start (s, aqmlab's flow order), e.g. aqmlab's own, so both simulators start the same flows
    at the same instants. `seed`: ns-2's `defaultRNG` seed (RED's draws), and the seed whose
    per-flow RTTs aqmlab draws for a group with an RTT spread (`aqmlab_flow_rtts`), unless
    `flow_rtts_ns` gives them (group index -> each of its flows' RTT, ns)."""
    options = options or Options()
    topology = resolved["topology"]
    groups = topology["groups"]
    for index, group in enumerate(groups):
        _check_group(group, index)
    flow_rtts = _flow_rtts(resolved, seed, flow_rtts_ns)
    core = _core(topology)
    program = Ns2Program()
    program.comment("ns-2 2.35 program written by benchmarks/ns2/ns2_mapping.py from an aqmlab scenario")
    add = program.add
    add("set ns [new Simulator]")
    # Each flow a sender and a receiver node; a web group one shared pair (web_traffic.py).
    nodes = len(core.routers) + 2 * sum(group["traffic"].get("count", 1) for group in groups)
    manual = options.manual_routing if options.manual_routing is not None else nodes > MANUAL_ROUTING_NODES
    webs = [index for index, group in enumerate(groups) if group["traffic"]["kind"] == "web"]
    if manual and webs:
        raise Unsupported(
            f"topology.groups[{webs[0]}].traffic.kind = 'web' with manual routing ({nodes} nodes): the harness "
            "installs manual routes for long-lived flows only"
        )
    if manual:
        add("$ns rtproto Manual", f"{nodes} nodes: each flow's route installed (Options.manual_routing)")
    add(f"$defaultRNG seed {seed}", "the run's seed (ns-2 draws: RED only)")
    duration = resolved["duration_ns"] / 1e9
    measure = resolved["measure_start_ns"] / 1e9
    interval = resolved["trace"]["interval_ns"] / 1e9
    shared = _shared_tcp(groups)
    if shared is not None:
        tcp_globals(shared, "tcp", program, options)
    first_tcp = next((g["traffic"]["tcp"] for g in groups if g["traffic"]["kind"] in ("tcp", "web")), None)
    packet = first_tcp["packet_size_bytes"] if first_tcp else groups[0]["traffic"]["packet_size_bytes"]

    add("proc mk {} { global ns; return [$ns node] }")
    for router in core.routers:
        add(f"set n({router}) [mk]")

    def link(a: str, b: str, rate: int, delay_ns: int, queue: dict[str, Any], where: str) -> None:
        qtype, settings = queue_lines(queue, where, "q", rate, packet)
        add(f"$ns simplex-link $n({a}) $n({b}) {rate} {delay_ns / 1e9!r} {qtype}", where)
        add(f"set q [[$ns link $n({a}) $n({b})] queue]")
        for line, source in settings + random_drop_lines(queue, where, f"$n({a})", f"$n({b})"):
            add(line, source)

    for core_link in core.links:
        name, a, b = core_link["name"], core_link["from"], core_link["to"]
        field_of = "topology.bottleneck" if topology["kind"] == "dumbbell" else f"topology.links[{name}]"
        link(a, b, core_link["rate_bps"], core_link["delay_ns"], core_link["queue"], f"{field_of}.queue")
        link(
            b, a, core_link["rate_bps"], core_link["delay_ns"], core_link["reverse_queue"], f"{field_of}.reverse_queue"
        )
    for name in core.monitored:
        core_link = next(cl for cl in core.links if cl["name"] == name)
        add(f'set qm({name}) [$ns monitor-queue $n({core_link["from"]}) $n({core_link["to"]}) ""]')
        program.monitored.append(name)
        program.monitored_rate_bps[name] = float(core_link["rate_bps"])

    flow_groups = [group for group in groups if group["traffic"]["kind"] != "web"]  # web: web_traffic.py
    flow_count = sum(group["traffic"]["count"] for group in flow_groups)
    starts = list(start_times) if start_times is not None else _start_times(flow_groups, seed)
    if len(flow_groups) < len(groups):
        add(web_traffic.WEB_PROCS, "web arrivals, pool and completions (web_traffic.py)")
    if len(starts) != flow_count:
        raise ValueError(f"start_times has {len(starts)} entries for {flow_count} flows")
    flow = 0
    for index, (group, path) in enumerate(zip(groups, core.paths, strict=True)):
        where = f"topology.groups[{index}]"
        traffic = group["traffic"]
        hops = _path_links(core, index)
        core_delay = sum(hop["delay_ns"] for hop in hops)
        edge_queue = group["access_queue"]
        if traffic["kind"] == "web":
            _web_group(program, group, index, path, hops, packet, options, seed, duration)
            continue
        if traffic["kind"] == "tcp":
            agent, sink, settings = tcp_agent(traffic["tcp"], f"{where}.traffic.tcp", options)
            if traffic["tcp"]["delayed_ack"]:
                sink += "/DelAck"
        program.comment(f"group {group['name']}: {traffic['count']} {traffic['kind']} flows")
        for member in range(traffic["count"]):
            # As the engine (topology.rs attach_group) and ns3_mapping: the rest of the flow's
            # RTT (the group's, or its own draw with a spread) split equally between the access
            # and the receiver link, integer nanoseconds.
            rtt = flow_rtts[index][member] if index in flow_rtts else group["rtt_ns"]
            edge_one_way = (rtt - 2 * core_delay) // 2
            access_delay = edge_one_way // 2
            receiver_delay = edge_one_way - access_delay
            add(f"set s({flow}) [mk]; set r({flow}) [mk]")
            # Tcl node references (a router may be named like a host, e.g. "r0": no lookup by name).
            sender, receiver, first, last = f"$s({flow})", f"$r({flow})", f"$n({path[0]})", f"$n({path[-1]})"
            for na, nb, rate, delay, label in (
                (sender, first, group["access_rate_bps"], access_delay, "access"),
                (first, sender, group["access_rate_bps"], access_delay, "access (ACKs)"),
                (last, receiver, group["receiver_rate_bps"], receiver_delay, "receiver"),
                (receiver, last, group["receiver_rate_bps"], receiver_delay, "receiver (ACKs)"),
            ):
                qtype, qsettings = queue_lines(edge_queue, f"{where}.access_queue", "q", rate, packet)
                add(f"$ns simplex-link {na} {nb} {rate} {delay / 1e9!r} {qtype}", f"{where} {label} link")
                add(f"set q [[$ns link {na} {nb}] queue]")
                for line, source in qsettings:
                    add(line, source)
            if manual:
                for line in manual_routes(sender, receiver, [f"$n({router})" for router in path]):
                    add(line, f"{where}: the flow's route, hop by hop (Options.manual_routing)")
            start = starts[flow]
            start = duration + 1.0 if start is None or not math.isfinite(start) else float(start)
            program.start_times.append(start)
            program.flow_links.append([hop["name"] for hop in hops if hop["name"] in program.monitored])
            program.kinds.append(traffic["kind"])
            program.first_routers.append(first)
            if traffic["kind"] == "tcp":
                add(f"set a({flow}) [new {agent}]; set k({flow}) [new {sink}]")
                for setting, source in settings:
                    add(f"$a({flow}) {setting}", source)
                add(f"$a({flow}) set fid_ {flow}")
                add(f"$ns attach-agent $s({flow}) $a({flow}); $ns attach-agent $r({flow}) $k({flow})")
                add(f"$ns connect $a({flow}) $k({flow})")
                add(f"set app({flow}) [$a({flow}) attach-app FTP]")
                if traffic["transfer"]["kind"] == "finite":
                    for line, source in web_traffic.finite_start(flow, traffic["transfer"]["bytes"], start):
                        add(line, f"{where}.{source}")
                else:
                    add(f'$ns at {start!r} "$app({flow}) start"')
                program.payload_bytes.append(traffic["tcp"]["packet_size_bytes"] - NS2_TCP_IP_HEADER_BYTES)
            else:
                size = traffic["packet_size_bytes"]
                add(f"set a({flow}) [new Agent/UDP]; set k({flow}) [new Agent/LossMonitor]")
                add(f"$a({flow}) set packetSize_ {size}; $a({flow}) set fid_ {flow}", f"{where}.packet_size")
                add(f"$ns attach-agent $s({flow}) $a({flow}); $ns attach-agent $r({flow}) $k({flow})")
                add(f"$ns connect $a({flow}) $k({flow})")
                add(f"set app({flow}) [new Application/Traffic/CBR]; $app({flow}) attach-agent $a({flow})")
                add(f"$app({flow}) set packetSize_ {size}", f"{where}.packet_size")
                add(f"$app({flow}) set rate_ {traffic['rate_bps']}", f"{where}.rate")
                add(f"$app({flow}) set random_ 0")
                add(f'$ns at {start!r} "$app({flow}) start"')
                if group["stop"]["kind"] == "fixed":
                    add(f'$ns at {group["stop"]["at_ns"] / 1e9!r} "$app({flow}) stop"', f"{where}.stop")
                program.payload_bytes.append(size)
            flow += 1

    add(f"set out [open {records} w]")
    monitored = " ".join(program.monitored)
    add(
        "proc sample {i} {\n"
        f"    global ns out qm; set t [expr $i * {interval!r}]\n"
        f'    foreach l {{{monitored}}} {{ set m $qm($l); puts $out "L $l $t [$m set pkts_] '
        '[$m set parrivals_] [$m set pdrops_] [$m set bdepartures_] [$m set pmarks_]" }\n'
        f"    if {{[expr ($i + 1) * {interval!r}] <= {duration!r} + 1e-9}} "
        f'{{ $ns at [expr ($i + 1) * {interval!r}] "sample [expr $i + 1]" }}\n'
        "}",
        "trace.interval (queue monitor: tools/queue-monitor.h)",
    )
    add(
        "proc flows {} {\n"
        f"    global ns out a k; set t [$ns now]\n"
        f"    for {{set i 0}} {{$i < {flow_count}}} {{incr i}} {{\n"
        '        if {[$k($i) info class] == "Agent/LossMonitor"} {\n'
        '            puts $out "F $i $t [$k($i) set bytes_] 0 0 0"\n'
        "        } else {\n"
        '            puts $out "F $i $t [$a($i) set ack_] [$a($i) set nrexmit_] '
        '[$a($i) set nrexmitpack_] [$a($i) set ncwndcuts_]"\n'
        "        }\n"
        "    }\n"
        "}",
        "per-flow: ack_ (highest cumulative ACK), timeouts, retransmitted packets, window cuts",
    )
    add(f'$ns at {interval!r} "sample 1"')
    add(f"$ns at {measure!r} flows", "measure_start")
    add(f"$ns at {duration!r} flows", "duration")
    closing = trace_lines(program, core, options.trace_flows, flow_count)
    add(f'$ns at {duration + interval / 2!r} "close $out{closing}; exit 0"')
    add("$ns run")
    return program


def trace_lines(program: Ns2Program, core: Any, flows: tuple[int, ...], flow_count: int) -> str:
    """Adds the packet and window traces of `flows` (`Options.trace_flows`) to `program`;
    returns the Tcl that closes their files at the end of the run ("" without traces)."""
    if not flows:
        return ""
    for flow in flows:
        if not 0 <= flow < flow_count or program.kinds[flow] != "tcp":
            raise ValueError(f"Options.trace_flows: {flow} is not a TCP flow of the scenario (0..{flow_count - 1})")
    add = program.add
    add(f"set tf [open {PACKET_TRACE} w]", "Options.trace_flows: packet trace (trace.cc Trace::format)")
    for flow in flows:
        first = program.first_routers[flow]
        add(f'puts $tf "# sender [$s({flow}) id] {flow}"', f"flow {flow}: its sender's node id, for the parser")
        add(f"$ns trace-queue $s({flow}) {first} $tf", f"flow {flow}: its sends (+) on its access link")
        add(f"$ns trace-queue {first} $s({flow}) $tf", f"flow {flow}: the ACKs it receives (r)")
    for name in program.monitored:
        link = next(cl for cl in core.links if cl["name"] == name)
        add(f"$ns trace-queue $n({link['from']}) $n({link['to']}) $tf", f"{name}: its drops (d)")
    closing = " close $tf;"
    for flow in flows:
        file = WINDOW_TRACE.format(flow=flow)
        add(f"set wf({flow}) [open {file} w]", f"flow {flow}: cwnd_ and ssthresh_ (tcp.cc TcpAgent::traceVar)")
        add(f"$a({flow}) attach $wf({flow}); $a({flow}) tracevar cwnd_; $a({flow}) tracevar ssthresh_")
        closing += f" close $wf({flow});"
    return ";" + closing.rstrip(";")
