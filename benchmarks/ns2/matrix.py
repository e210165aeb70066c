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
  (`select_ca`, a SACK sender) against aqmlab with SACK and each law at its `ns2_linux`
  definition, the port's own integer arithmetic (cubic beta 0.7 as 717/1024; compound with
  the port's constants; highspeed md/256 table; scalable a = 1/50); the `-real-valued-law`
  experiments keep the real-valued definitions (cubic rfc9438, compound paper with zeta 1,
  highspeed linux_table, scalable ns3).
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

#: aqmlab's options with ns-2 2.35's semantics (never its defaults), so that each row compares
#: like with like (docs/validation-ns2.md): ns-2's fixed-point RTT estimator at the tick the
#: ns-2 side runs (`tcpTick_` 1 ms, per-ACK timestamps: ns2_mapping.Options), and for TCP-Linux
#: its own estimator and its rate halving (tcp-linux.cc).
NS2_AGENT_TCP = {"rtt_estimator": "ns2", "timer_tick": "1ms"}
#: ns-2's agents halve cwnd, not FlightSize, on a timeout (tcp.cc slowdown); aqmlab's SACK
#: recovery takes that FlightSize from its scoreboard (pipe), NewReno needs the option. ns-2's
#: Newreno starts a fast retransmit only from an ACK beyond `recover_` (tcp-newreno.cc
#: dupack_action, `highest_ack_ > recover_`; RFC 6582 Section 3.2's reading after step 4), and a
#: partial ACK deflates cwnd_ itself beyond `dupwnd_`, kept at the exit (partialnewack).
NS2_NEWRENO = {
    **NS2_AGENT_TCP,
    "timeout_flight_size": "cwnd",
    "fast_retransmit_guard": "ack_beyond_recover",
    "partial_ack_deflation": "ns2",
}
#: tcp-linux.cc `recv` calls `send_much` on every ACK and `packets_in_flight()` leaves SACKed
#: segments out, so in the Open state every SACK lets new data out (`singledup_` is not read):
#: aqmlab's pipe-governed Limited Transmit (RFC 6675 step 3, `limited_transmit = true`; the
#: `-no-limited-transmit` rows leave it out). TCP-Linux's scoreboard marks a segment lost
#: DupThresh + 1 below the highest SACKed one and starts recovery on that mark
#: (scoreboard1.cc `UpdateScoreBoard` line 168, tcp-linux.cc line 483: `loss_marking = "fack"`;
#: the `-rfc6675-loss-marking` rows leave it out). These were the matrix's TCP-Linux settings
#: until it took `LINUX_ALL_CHANGES` below. Taken one at a time against them, TCP-Linux's timer
#: restart on every ACK, its resending of retransmissions lost again, its scoreboard kept
#: across a timeout and its Loss state each agreed with fewer rows (rows `-every-ack-restart`,
#: `-lost-retransmit`, `-keep-scoreboard`, `-linux-loss-state`, ...; docs/validation-ns2.md,
#: causes 2d-2g): they act together, and all of them at once agree with 23 of 24 (cause 9).
NS2_LINUX_BEFORE = {
    "rtt_estimator": "ns2_linux",
    "timer_tick": "1ms",
    "rate_halving": True,
    "limited_transmit": True,
    "loss_marking": "fack",
}
#: Every other TCP-Linux behaviour aqmlab has an option for, each read from ns-2 2.35's source:
#: its Loss state after a timeout (tcp-linux.cc `tcp_fastretrans_alert` 459-509, `enter_loss`
#: 548-551: `timeout_recovery`), the scoreboard kept across a timeout (`MarkLoss`, no
#: `ClearScoreBoard`: `timeout_scoreboard`) and cleared when Recovery or Loss ends (line 462:
#: `recovery_exit_scoreboard`), the resending of a retransmission lost again (scoreboard1.cc
#: lines 212-222: `lost_retransmit`), the flight without SACKed segments (scoreboard1.h line
#: 162, `packets_in_flight()`: `flight_outside_recovery`), an RTT sample from every ACK
#: (tcp-linux.cc `time_processing`, tcp-sink.cc `Acker::update_ts`: `rtt_sampling`) and the
#: timer restarted on every ACK (`renew_timer`, `timerfix_ 1`: `rto_restart`). Taken together
#: as ns-2's TCP-Linux as far as aqmlab can express it (the `-linux-all` rows, run against the
#: settings before, `NS2_LINUX_BEFORE`: 23 of 24 TCP-Linux dumbbell rows agree, against 19);
#: the `-without-<option>` rows leave each one out (docs/validation-ns2.md, cause 9).
LINUX_ALL_CHANGES: dict[str, Any] = {
    "timeout_recovery": "linux_loss_state",
    "lost_retransmit": "sack_above",
    "timeout_scoreboard": "keep",
    "recovery_exit_scoreboard": "clear",
    "flight_outside_recovery": "minus_sacked",
    "rtt_sampling": "every_ack",
    "rto_restart": "every_ack",
}
#: Each of those options at aqmlab's default (the `-without-<option>` rows).
LINUX_ALL_DEFAULTS: dict[str, Any] = {
    "timeout_recovery": "rfc6675",
    "lost_retransmit": "rto",
    "timeout_scoreboard": "clear",
    "recovery_exit_scoreboard": "keep",
    "flight_outside_recovery": "rfc5681",
    "rtt_sampling": "new_data",
    "rto_restart": "new_data",
}
NS2_LINUX = {**NS2_LINUX_BEFORE, **LINUX_ALL_CHANGES}
#: ns-2's agents send every data packet ECT, retransmissions included (tcp.cc `output`, lines
#: 702-704); RFC 3168 Section 6.1.5, aqmlab's default, does not (`-not-ect-retransmit` rows).
#: They also set CWR on the first segment after a window reduction even if it is a retransmission
#: (`SetCWRonRetransmit_ true`, ns-2's default read from the binary, defaults.json; tcp.cc
#: TcpAgent::output, lines 694-696); RFC 3168 Section 6.1.2, aqmlab's default, on new data only.
NS2_ECN = {"ecn": True, "ecn_retransmit": "ect", "cwr_on_retransmit": True}
#: The matrix's TCPs that ns-2 runs as Agent/TCP/Linux (`NS2_LINUX`).
LINUX_TCPS = ("cubic", "compound", "highspeed", "scalable")

#: aqmlab's own settings (RFC 6298 estimator, new-data timer restart, RFC 6675's cwnd − pipe):
#: the rows as configured before the ns-2 options existed (the `-aqmlab-defaults` experiments).
AQMLAB_TCPS: dict[str, dict[str, Any]] = {
    "newreno": {"cc": "reno"},
    "sack": {"cc": "reno", "sack": True},
    "cubic": {"cc": "cubic", "sack": True},
    "compound": {"cc": {"kind": "compound", "zeta": 1.0}, "sack": True},
    "highspeed": {"cc": {"kind": "highspeed", "definition": "linux_table"}, "sack": True},
    "scalable": {"cc": {"kind": "scalable", "definition": "ns3", "a": 0.02}, "sack": True},
}
#: The matrix's TCPs: aqmlab's laws with the ns-2 agent's machinery (`NS2_NEWRENO` for
#: Agent/TCP/Newreno, `NS2_AGENT_TCP` for Sack1, `NS2_LINUX` for TCP-Linux).
#: The TCP-Linux laws in the port's own integer arithmetic (definition "ns2_linux": Linux
#: 2.6.22's tcp_cubic.c, tcp_scalable.c with TCP-Linux's window-limited growth, recovery entry
#: and exit; `cc/linux.rs`); the `-real-valued-law` experiment rows keep `AQMLAB_TCPS`' laws.
NS2_LINUX_LAWS: dict[str, dict[str, Any]] = {
    "cubic": {"kind": "cubic", "definition": "ns2_linux"},
    "scalable": {"kind": "scalable", "definition": "ns2_linux", "a": 0.02},
    "highspeed": {"kind": "highspeed", "definition": "ns2_linux"},
    "compound": {"kind": "compound", "definition": "ns2_linux", "zeta": 1.0},
}


def ns2_tcps(linux: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The matrix's TCPs with `linux` as the TCP-Linux rows' machinery."""
    return {
        name: {
            **tcp,
            **{"newreno": NS2_NEWRENO, "sack": NS2_AGENT_TCP}.get(name, linux),
            **({"cc": NS2_LINUX_LAWS[name]} if name in NS2_LINUX_LAWS else {}),
        }
        for name, tcp in AQMLAB_TCPS.items()
    }


TCPS = ns2_tcps(NS2_LINUX)
#: The matrix's TCPs before it took `LINUX_ALL_CHANGES`: the one-factor rows recorded against
#: them (every row of experiment_rows but the `-without-<option>` ones) vary these.
TCPS_BEFORE = ns2_tcps(NS2_LINUX_BEFORE)


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
    #: Seeds per simulator when not the command's `--seeds` (rows whose seeds spread too wide
    #: for three, docs/validation-ns2.md cause 2f).
    seeds: int | None = None


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


def access_limited(name: str, tcp: dict[str, Any], ecn: bool = False, **tcp_extra: Any) -> Scenario:
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
                        "tcp": {**tcp, "packet_size": f"{PACKET}B", "ecn": ecn, **tcp_extra},
                        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
                    }
                ],
            },
            "trace": {"interval": "10ms", "flows": 0},
        }
    )


def with_tcp(scenario: Scenario, tcp: dict[str, Any], name: str | None = None) -> Scenario:
    """`scenario` with `tcp` set in every TCP group (and renamed)."""
    data = scenario.model_dump(mode="json")
    for group in data["topology"]["groups"]:
        if "tcp" in group:
            group["tcp"].update(tcp)
    if name is not None:
        data["name"] = name
    return Scenario.from_dict(data)


def rows(tcps: dict[str, dict[str, Any]] | None = None, *, ns2_like: bool | None = None) -> dict[str, Row]:
    """The matrix; `tcps=AQMLAB_TCPS`: the same rows with aqmlab's own TCP settings (and
    RFC 3168's ECN, aqmlab's parking-lot TCP), unless `ns2_like`."""
    ns2_like = tcps is None if ns2_like is None else ns2_like
    tcps = TCPS if tcps is None else tcps
    out: list[Row] = []
    for tcp_name, tcp in tcps.items():
        for queue_name in ("droptail", "red", "redbyte"):
            for rtt in RTTS:
                name = f"{tcp_name}-{queue_name}-rtt{rtt}"
                out.append(Row(name, dumbbell(name, tcp, queue(queue_name, rtt), rtt)))
    for tcp_name in ("newreno", "sack"):
        name = f"access2m-{tcp_name}-red"
        out.append(Row(name, access_limited(name, tcps[tcp_name]), group="access"))
    ecn = NS2_ECN if ns2_like else {"ecn": True}
    for tcp_name in ("sack", "cubic"):
        name = f"{tcp_name}-red-ecn-rtt20"
        out.append(Row(name, dumbbell(name, tcps[tcp_name], {**queue("red", 20), "ecn": True}, 20, **ecn), group="ecn"))
    name = "access2m-sack-red-ecn"
    out.append(Row(name, access_limited(name, tcps["sack"], **ecn), group="ecn"))
    for path, ns2_tcp in (
        (ROOT / "benchmarks" / "ns3" / "scenarios" / "parking-lot-red50-150-minrto1s-sack.toml", NS2_AGENT_TCP),
        (ROOT / "benchmarks" / "ns3" / "scenarios" / "seed000-fig16-parking-lot.toml", NS2_NEWRENO),
    ):
        scenario = Scenario.from_toml(path)
        if ns2_like:  # Sack1 and Newreno agents
            scenario = with_tcp(scenario, ns2_tcp)
        for link in ("link1", "link2"):
            out.append(Row(f"{path.stem}-{link}", scenario, link=link, group="parking"))
    return {row.name: row for row in out}


#: TCP-Linux's Loss state after a timeout (tcp-linux.cc 459-509), alone, with the resending of
#: lost retransmissions (which marks them lost in the Loss state too), and with the kept
#: scoreboard as well: ns-2's whole timeout path; its scoreboard cleared when recovery ends
#: (line 462), alone and with the rest (experiment rows of every TCP-Linux row).
LINUX_LOSS_STATE_CHANGES: dict[str, dict[str, Any]] = {
    "linux-loss-state": {"timeout_recovery": "linux_loss_state"},
    "linux-loss-state-lost-retransmit": {"timeout_recovery": "linux_loss_state", "lost_retransmit": "sack_above"},
    "linux-timeout-path": {
        "timeout_recovery": "linux_loss_state",
        "lost_retransmit": "sack_above",
        "timeout_scoreboard": "keep",
    },
    # ClearScoreBoard when Recovery or Loss ends (tcp-linux.cc line 462), alone and with the rest.
    "exit-clears-scoreboard": {"recovery_exit_scoreboard": "clear"},
    "linux-scoreboard-all": {
        "timeout_recovery": "linux_loss_state",
        "lost_retransmit": "sack_above",
        "timeout_scoreboard": "keep",
        "recovery_exit_scoreboard": "clear",
    },
}


#: Rows whose one-factor experiments on TCP-Linux's timeout path run at ten seeds per simulator
#: (their loss spreads 3x over ns-2's seeds; docs/validation-ns2.md causes 2f, 2g and 7).
TEN_SEED_ROWS = ("compound-redbyte-rtt200", "scalable-droptail-rtt200")
TEN_SEED_SUFFIXES = ("lost-retransmit", "keep-scoreboard", *LINUX_LOSS_STATE_CHANGES)


def experiment_rows() -> dict[str, Row]:
    """One-factor experiments (docs/validation-ns2.md), each against the same ns-2 run as its
    matrix row unless it changes both sides:
    - `-aqmlab-defaults`: every row with aqmlab's own TCP settings (`AQMLAB_TCPS`: RFC 6298
      estimator, timer restarted on new data, RFC 6675's sending) — the matrix as it was
      configured before the ns-2 options; its scenario keeps the row's name, so the results
      recorded then are these rows' own.
    - one ns-2 option back at aqmlab's default: `-rfc6298` (the estimator, every RTT-200 row),
      `-rfc5681-timeout` (NewReno's timeout FlightSize), `-no-rate-halving` (TCP-Linux, RTT
      20 ms); and TCP-Linux's timer restart added, `-every-ack-restart` (RTT 20 ms).
    - TCP-Linux's resending of lost retransmissions added, `-lost-retransmit` (every TCP-Linux
      row, and cubic-red-ecn-rtt20), and with the timer restart, `-lost-retransmit-every-ack`
      (RTT 20 ms).
    - `-not-ect-retransmit`: the ECN rows with RFC 3168's non-ECT retransmissions instead of
      ns-2's ECT ones.
    - `-real-valued-law`: each TCP-Linux law at its real-valued definition (cubic rfc9438 with
      beta 0.7, compound paper with zeta 1, highspeed linux_table, scalable ns3) instead of
      the port's integer arithmetic (`ns2_linux`), every other option the row's.
    - TCP-Linux's sending on SACKs in the Open state (aqmlab's pipe-governed Limited
      Transmit) taken out, `-no-limited-transmit` (every TCP-Linux row).
    - TCP-Linux's FACK loss marking back at RFC 6675's IsLost(), `-rfc6675-loss-marking`,
      and its scoreboard kept across a timeout added, `-keep-scoreboard` (every TCP-Linux row;
      the first also cubic-red-ecn-rtt20).
    - TCP-Linux's Loss state after a timeout added (`timeout_recovery = "linux_loss_state"`),
      `-linux-loss-state`; with the resending of lost retransmissions,
      `-linux-loss-state-lost-retransmit`; with that and the kept scoreboard,
      `-linux-timeout-path`; TCP-Linux's scoreboard cleared when recovery ends
      (`recovery_exit_scoreboard = "clear"`), `-exit-clears-scoreboard`, and with all the
      above, `-linux-scoreboard-all` (every TCP-Linux row and cubic-red-ecn-rtt20); every
      TCP-Linux option at once (`LINUX_ALL_CHANGES`), `-linux-all`.
    - TCP-Linux's flight without SACKed segments outside recovery, `-minus-sacked`, alone and
      with the resending of lost retransmissions, `-minus-sacked-lost-retransmit` (every
      TCP-Linux row; benchmarks/ns2/trace_diff.py found both); TCP-Linux's RTT sample from
      every ACK (`rtt_sampling = "every_ack"`), alone, `-every-ack-rtt`, and with both,
      `-every-ack-rtt-minus-sacked-lost-retransmit`, and with TCP-Linux's timer restart on every
      ACK too, `-every-ack-rtt-minus-sacked-lost-retransmit-every-ack`.
    - Since the matrix took `LINUX_ALL_CHANGES`: every row above varies `TCPS_BEFORE`, the
      settings before (the `-linux-all` rows: those settings plus `LINUX_ALL_CHANGES`, the
      matrix's own), and `-without-<option>` leaves one of `LINUX_ALL_CHANGES` out of the
      matrix's settings (every TCP-Linux row and cubic-red-ecn-rtt20).
    - `-minrto1s`: min RTO 1 s in both simulators on the RTT-200 rows with aqmlab's own
      settings, which takes the retransmission timer out of the comparison (a change of both
      sides; recorded before the ns-2 options existed)."""
    out = {}
    base = rows()
    # The one-factor rows recorded before the matrix took LINUX_ALL_CHANGES vary its settings
    # then (TCPS_BEFORE; the NewReno and Sack1 rows are the same in both); ns-2's program is
    # the row's either way.
    before = rows(TCPS_BEFORE, ns2_like=True)
    for name, row in rows(AQMLAB_TCPS).items():
        # ns-2's program is the row's (the mapping writes nothing for aqmlab-only options).
        out[f"{name}-aqmlab-defaults"] = Row(f"{name}-aqmlab-defaults", row.scenario, row.link, "experiment")
    for name, row in base.items():
        if row.group != "core":
            continue
        tcp_name, rtt200 = name.split("-")[0], name.endswith("rtt200")
        changes: dict[str, dict[str, Any]] = {}
        if rtt200:
            changes["rfc6298"] = {"rtt_estimator": "rfc6298", "timer_tick": None}
        if tcp_name == "newreno":
            changes["rfc5681-timeout"] = {"timeout_flight_size": "rfc5681"}
            changes["covers-recover"] = {"fast_retransmit_guard": "ack_covers_recover"}
            changes["rfc6582-deflation"] = {"partial_ack_deflation": "rfc6582"}
        elif tcp_name != "sack" and not rtt200:
            changes["no-rate-halving"] = {"rate_halving": False}
            changes["every-ack-restart"] = {"rto_restart": "every_ack"}
        if tcp_name in LINUX_TCPS:
            # The law back at its real-valued definition (the matrix before `ns2_linux`).
            changes["real-valued-law"] = {"cc": AQMLAB_TCPS[tcp_name]["cc"]}
            changes["lost-retransmit"] = {"lost_retransmit": "sack_above"}
            changes["no-limited-transmit"] = {"limited_transmit": False}
            # TCP-Linux's scoreboard: FACK loss marking back at RFC 6675's IsLost(), and the
            # scoreboard kept across a timeout. (The `-fack`, `-fack-keep-scoreboard` and
            # `-fack-lost-retransmit` rows of experiments.json were run before the matrix took
            # FACK, on the rows with RFC 6675's marking.)
            changes["rfc6675-loss-marking"] = {"loss_marking": "rfc6675"}
            changes["keep-scoreboard"] = {"timeout_scoreboard": "keep"}
            # TCP-Linux's Loss state after a timeout (tcp-linux.cc 459-509), alone, with the
            # resending of lost retransmissions (which marks them lost in the Loss state too),
            # and with the kept scoreboard as well: ns-2's whole timeout path.
            changes.update(LINUX_LOSS_STATE_CHANGES)
            changes["linux-all"] = LINUX_ALL_CHANGES
            # TCP-Linux's flight without SACKed segments in the Loss state (packets_in_flight(),
            # scoreboard1.h line 162), found by trace_diff.py; alone and with the resending of
            # lost retransmissions, the two differences the trace of scalable-droptail-rtt200
            # shows in that order.
            changes["minus-sacked"] = {"flight_outside_recovery": "minus_sacked"}
            changes["minus-sacked-lost-retransmit"] = {
                "flight_outside_recovery": "minus_sacked",
                "lost_retransmit": "sack_above",
            }
            # TCP-Linux's RTT sample from every ACK, its sink echoing TS.Recent (tcp-linux.cc
            # time_processing, tcp-sink.cc Acker::update_ts): alone, and with the two above.
            changes["every-ack-rtt"] = {"rtt_sampling": "every_ack"}
            changes["every-ack-rtt-minus-sacked-lost-retransmit"] = {
                "rtt_sampling": "every_ack",
                "flight_outside_recovery": "minus_sacked",
                "lost_retransmit": "sack_above",
            }
            # ... and the timer restarted on every ACK (the next difference the trace shows).
            changes["every-ack-rtt-minus-sacked-lost-retransmit-every-ack"] = {
                **changes["every-ack-rtt-minus-sacked-lost-retransmit"],
                "rto_restart": "every_ack",
            }
            if not rtt200:
                changes["lost-retransmit-every-ack"] = {"lost_retransmit": "sack_above", "rto_restart": "every_ack"}
        for suffix, change in changes.items():
            label = f"{name}-{suffix}"
            scenario = with_tcp(before[name].scenario, change, name=label)
            seeds = 10 if name in TEN_SEED_ROWS and suffix in TEN_SEED_SUFFIXES else None
            out[label] = Row(label, scenario, group="experiment", ns2_scenario=row.scenario, seeds=seeds)
        if tcp_name in LINUX_TCPS:
            for option, default in LINUX_ALL_DEFAULTS.items():
                label = f"{name}-without-{option.replace('_', '-')}"
                scenario = with_tcp(row.scenario, {option: default}, name=label)
                out[label] = Row(label, scenario, group="experiment", ns2_scenario=row.scenario)
    # TCP-Linux answers an ECN echo by entering Recovery with rate halving (tcp-linux.cc
    # tcp_fastretrans_alert, FLAG_ECE); aqmlab's closest setting paces the cut by PRR.
    label = "cubic-red-ecn-rtt20-ecn-prr"
    scenario = with_tcp(before["cubic-red-ecn-rtt20"].scenario, {"ecn_reduction": "prr"}, name=label)
    out[label] = Row(label, scenario, group="experiment", ns2_scenario=base["cubic-red-ecn-rtt20"].scenario)
    for name in ("sack-red-ecn-rtt20", "cubic-red-ecn-rtt20", "access2m-sack-red-ecn"):
        label = f"{name}-not-ect-retransmit"
        scenario = with_tcp(before[name].scenario, {"ecn_retransmit": "not_ect"}, name=label)
        out[label] = Row(label, scenario, group="experiment", ns2_scenario=base[name].scenario)
    label = "cubic-red-ecn-rtt20-real-valued-law"
    scenario = with_tcp(before["cubic-red-ecn-rtt20"].scenario, {"cc": AQMLAB_TCPS["cubic"]["cc"]}, name=label)
    out[label] = Row(label, scenario, group="experiment", ns2_scenario=base["cubic-red-ecn-rtt20"].scenario)
    for suffix, change in (
        ("lost-retransmit", {"lost_retransmit": "sack_above"}),
        ("rfc6675-loss-marking", {"loss_marking": "rfc6675"}),
        *LINUX_LOSS_STATE_CHANGES.items(),
        ("linux-all", LINUX_ALL_CHANGES),
    ):
        label = f"cubic-red-ecn-rtt20-{suffix}"
        scenario = with_tcp(before["cubic-red-ecn-rtt20"].scenario, change, name=label)
        out[label] = Row(label, scenario, group="experiment", ns2_scenario=base["cubic-red-ecn-rtt20"].scenario)
    for option, default in LINUX_ALL_DEFAULTS.items():
        label = f"cubic-red-ecn-rtt20-without-{option.replace('_', '-')}"
        scenario = with_tcp(base["cubic-red-ecn-rtt20"].scenario, {option: default}, name=label)
        out[label] = Row(label, scenario, group="experiment", ns2_scenario=base["cubic-red-ecn-rtt20"].scenario)
    for name, row in rows(AQMLAB_TCPS).items():
        if row.group == "core" and name.endswith("rtt200"):
            label = f"{name}-minrto1s"
            out[label] = Row(label, with_tcp(row.scenario, {"min_rto": "1s"}, name=label), group="experiment")
    return out


#: make validate-ns2-quick: eight rows that tell — each ns-2 agent family (Newreno, Sack1,
#: TCP-Linux compound, cubic, scalable), each queue semantics (DropTail's limit_ - 1, RED
#: packet and byte mode with mean_pktsize 500, ECN marking), the access-limited dumbbell, RTT
#: 200 ms with ns-2's RTT estimator on both sides (sack-red-rtt200) and TCP-Linux's rate halving
#: (cubic-red-rtt20, which differs without it) — chosen among rows that agree.
QUICK = [
    "newreno-droptail-rtt20",
    "sack-red-rtt20",
    "compound-redbyte-rtt20",
    "cubic-red-rtt20",
    "scalable-redbyte-rtt20",
    "access2m-newreno-red",
    "sack-red-ecn-rtt20",
    "sack-red-rtt200",
]
