"""The aqmlab -> ns-2 translation (benchmarks/ns2/ns2_mapping.py) and the records parser:
pure Python, no ns-2; plus one short run in ns-2 when `ns` is installed."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))

# imports below need the sys.path entry above (modules in benchmarks/ns2)
import aqmlab  # noqa: E402
import ns2_mapping  # noqa: E402
import ns2_run  # noqa: E402
from ns2_mapping import Unsupported, translate  # noqa: E402


def scenario(queue: dict | None = None, tcp: dict | None = None, count: int = 2, **extra) -> aqmlab.Scenario:
    group = {
        "name": "g",
        "count": count,
        "rtt": "40ms",
        "access_rate": "100Mbps",
        "tcp": tcp or {},
        "start": {"kind": "staggered", "first": "0s", "spacing": "100ms"},
        **extra,
    }
    return aqmlab.Scenario.from_dict(
        {
            "name": "t",
            "duration": "3s",
            "measure_start": "1s",
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {
                    "rate": "10Mbps",
                    "delay": "10ms",
                    "queue": queue or {"kind": "drop_tail", "limit": "20p"},
                },
                "groups": [group],
            },
        }
    )


def lines(s: aqmlab.Scenario, **kwargs) -> list[str]:
    return [line for line in translate(s.resolved(), **kwargs).lines if not line.startswith("#")]


def bottleneck_settings(s: aqmlab.Scenario) -> list[str]:
    """The lines configuring the bottleneck's forward queue (left -> right)."""
    out = lines(s)
    start = out.index("set q [[$ns link $n(left) $n(right)] queue]")
    end = next(i for i in range(start + 1, len(out)) if out[i].startswith("$ns simplex-link"))
    return out[start + 1 : end]


def test_droptail_limit_is_one_more_than_aqmlab_because_ns2_holds_limit_minus_one():
    assert bottleneck_settings(scenario({"kind": "drop_tail", "limit": "167p"})) == ["$q set limit_ 168"]


def test_droptail_byte_limit():
    assert bottleneck_settings(scenario({"kind": "drop_tail", "limit": "30000B"})) == [
        "$q set queue_in_bytes_ true",
        "$q set mean_pktsize_ 1",
        "$q set limit_ 30001",
    ]


def test_threshold_policy_is_a_droptail_holding_q_th():
    s = scenario({"kind": "threshold", "limit": "2084p", "q_th": 15})
    assert "$ns simplex-link $n(left) $n(right) 10000000 0.01 DropTail" in lines(s)
    assert bottleneck_settings(s) == ["$q set limit_ 16"]


def test_red_packet_mode_sets_every_ns2_variable():
    red = {"kind": "red", "limit": "2000p", "min_th": 50, "max_th": 150, "max_p": 0.1, "gentle": False}
    settings = bottleneck_settings(scenario(red))
    for expected in (
        "$q set limit_ 2000",
        "$q set bytes_ false",
        "$q set queue_in_bytes_ false",
        "$q set mean_pktsize_ 1500",
        "$q set thresh_ 50.0",
        "$q set maxthresh_ 150.0",
        "$q set linterm_ 10.0",
        "$q set q_weight_ -1.0",
        "$q set gentle_ false",
        "$q set wait_ true",
        "$q set setbit_ false",
        "$q set use_mark_p_ true",
    ):
        assert expected in settings


def test_red_byte_mode_scales_limit_and_thresholds_by_mean_packet_size():
    red = {
        "kind": "red",
        "limit": "2000p",
        "min_th": 25000,
        "max_th": 75000,
        "byte_mode": True,
        "queue_in_bytes": True,
        "mean_packet_size": "500B",
    }
    settings = bottleneck_settings(scenario(red))
    # red.cc: qlim = limit_ * mean_pktsize; th_min = thresh_ * mean_pktsize.
    assert "$q set limit_ 6000" in settings
    assert "$q set thresh_ 50.0" in settings
    assert "$q set maxthresh_ 150.0" in settings
    assert "$q set bytes_ true" in settings


def test_red_instantaneous_is_weight_one():
    settings = bottleneck_settings(scenario({"kind": "red", "min_th": 5, "max_th": 15, "instantaneous": True}))
    assert "$q set q_weight_ 1.0" in settings


def test_tcp_defaults_override_ns2s_window_and_tick():
    out = lines(scenario())
    assert "Agent/TCP set window_ 1000000" in out
    assert "Agent/TCP set packetSize_ 1460" in out
    assert "Agent/TCP set singledup_ 0" in out
    assert "Agent/TCP set tcpTick_ 0.001" in out
    assert "set a(0) [new Agent/TCP/Newreno]; set k(0) [new Agent/TCPSink]" in out
    assert "Agent/TCP set tcpTick_ 0.01" in lines(scenario(), options=ns2_mapping.ns2_defaults())


def test_timer_bounds_reach_tcp_linux_whose_class_defaults_hide_agent_tcps():
    out = lines(scenario(tcp={"sack": True, "cc": "cubic", "min_rto": "1s"}))
    for cls in ("Agent/TCP", "Agent/TCP/Linux"):
        assert f"{cls} set minrto_ 1.0" in out
        assert f"{cls} set maxrto_ 60.0" in out
        assert f"{cls} set rtxcur_init_ 1.0" in out


def test_limited_transmit_is_singledup():
    assert "Agent/TCP set singledup_ 1" in lines(scenario(tcp={"limited_transmit": True}))


def test_sack_and_linux_agents():
    out = lines(scenario(tcp={"sack": True}))
    assert "set a(0) [new Agent/TCP/Sack1]; set k(0) [new Agent/TCPSink/Sack1]" in out
    out = lines(scenario(tcp={"sack": True, "cc": "cubic"}))
    assert "set a(1) [new Agent/TCP/Linux]; set k(1) [new Agent/TCPSink/Sack1]" in out
    assert "$a(1) select_ca cubic" in out
    assert "$a(1) set_ca_param cubic beta 717" in out
    out = lines(scenario(tcp={"sack": True, "cc": {"kind": "highspeed", "definition": "linux_table"}}))
    assert "$a(0) select_ca highspeed" in out


def test_ns2_linux_definitions_write_the_same_program_as_the_real_valued_ones():
    """`ns2_linux` is the agent's own arithmetic on aqmlab's side: ns-2's program is the one
    of the real-valued definition (so its cached runs stay valid)."""
    for ours, real in (
        ({"kind": "cubic", "definition": "ns2_linux"}, {"kind": "cubic"}),
        (
            {"kind": "scalable", "definition": "ns2_linux", "a": 0.02},
            {"kind": "scalable", "definition": "ns3", "a": 0.02},
        ),
        ({"kind": "highspeed", "definition": "ns2_linux"}, {"kind": "highspeed", "definition": "linux_table"}),
        ({"kind": "compound", "definition": "ns2_linux", "zeta": 1.0}, {"kind": "compound", "zeta": 1.0}),
    ):
        assert lines(scenario(tcp={"sack": True, "cc": ours})) == lines(scenario(tcp={"sack": True, "cc": real}))


def test_recovery_kinds_choose_the_agent_and_the_timer_options_map():
    assert "set a(0) [new Agent/TCP/Reno]; set k(0) [new Agent/TCPSink]" in lines(scenario(tcp={"recovery": "reno"}))
    assert "set a(0) [new Agent/TCP]; set k(0) [new Agent/TCPSink]" in lines(scenario(tcp={"recovery": "tahoe"}))
    assert "Agent/TCP set tcpTick_ 0.01" in lines(scenario(tcp={"timer_tick": "10ms"}))
    linux = lines(scenario(tcp={"sack": True, "cc": "cubic", "rto_restart": "every_ack"}))
    assert "set a(0) [new Agent/TCP/Linux]; set k(0) [new Agent/TCPSink/Sack1]" in linux
    with pytest.raises(Unsupported, match="rto_restart"):
        lines(scenario(tcp={"rto_restart": "every_ack"}))
    with pytest.raises(Unsupported, match="sack_recovery = 'prr'"):
        lines(scenario(tcp={"sack": True, "sack_recovery": "prr"}))


def test_ecn_on_agent_and_red():
    out = lines(scenario({"kind": "red", "min_th": 5, "max_th": 15, "ecn": True}, tcp={"ecn": True}))
    assert "Agent/TCP set ecn_ 1" in out
    assert "$q set setbit_ true" in out


def test_cwr_on_retransmit_is_set_explicitly():
    """ns-2's SetCWRonRetransmit_ (default true, defaults.json) follows tcp.cwr_on_retransmit:
    false under aqmlab's default (RFC 3168 Section 6.1.2), true with the option."""
    red = {"kind": "red", "min_th": 5, "max_th": 15, "ecn": True}
    assert "Agent/TCP set SetCWRonRetransmit_ false" in lines(scenario(red, tcp={"ecn": True}))
    on = lines(scenario(red, tcp={"ecn": True, "cwr_on_retransmit": True}))
    assert "Agent/TCP set SetCWRonRetransmit_ true" in on
    # Runs "as the paper printed" take ns-2's own default, read from the binary (true).
    printed = lines(scenario(red, tcp={"ecn": True}), options=ns2_mapping.ns2_defaults())
    assert "Agent/TCP set SetCWRonRetransmit_ true" in printed


def test_start_times_are_scheduled():
    out = lines(scenario(), start_times=[0.25, 1.5])
    assert '$ns at 0.25 "$app(0) start"' in out
    assert '$ns at 1.5 "$app(1) start"' in out


def test_parking_lot_monitors_both_links_and_routes_groups():
    s = aqmlab.Scenario.from_toml(
        ROOT / "benchmarks" / "ns3" / "scenarios" / "parking-lot-red50-150-minrto1s-sack.toml"
    )
    program = translate(s.resolved())
    assert program.monitored == ["link1", "link2"]
    assert program.flow_links[0] == ["link1", "link2"]
    assert program.flow_links[30] == ["link1"]
    assert program.flow_links[60] == ["link2"]
    # Routers r0..r2 and the hosts' Tcl arrays s(), r() must not be confused.
    assert "$ns simplex-link $r(2) $n(r2) 1000000000 0.015 DropTail" in program.lines
    assert not any(line.startswith("$ns simplex-link $r(2) $r(2)") for line in program.lines)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"queue": {"kind": "ered", "delay_scale": "100ms"}}, "queue.kind = 'ered'"),
        ({"queue": {"kind": "red_vq"}}, "queue.kind = 'red_vq'"),
        ({"tcp": {"cc": "cx"}}, "traffic.tcp.cc.kind = 'cx'"),
        ({"tcp": {"cc": "pert"}}, "traffic.tcp.cc.kind = 'pert'"),
        ({"tcp": {"cc": "cubic"}}, "traffic.tcp.sack = false"),
        ({"tcp": {"sack": True, "cc": "highspeed"}}, "cc.definition = 'rfc3649'"),
        ({"tcp": {"sack": True, "cc": "scalable"}}, "traffic.tcp.cc (definition 'kelly'"),
        ({"tcp": {"sack": True, "cc": "compound"}}, "cc.zeta = 0.5"),
        ({"tcp": {"header_size": "52B"}}, "tcp.header_bytes = 52"),
    ],
)
def test_refusals_name_the_field(change, field):
    queue = change.get("queue")
    s = scenario(queue, tcp=change.get("tcp"))
    with pytest.raises(Unsupported, match=__import__("re").escape(field)):
        translate(s.resolved())


def test_parse_turns_cumulative_counters_into_intervals():
    program = translate(scenario().resolved(), start_times=[0.0, 2.0])
    text = "\n".join(
        [
            "L bottleneck 0.01 3 10 1 12000 0",
            "L bottleneck 0.02 5 25 2 27000 1",
            "F 0 1 99 0 0 0",
            "F 1 1 -1 0 0 0",
            "F 0 3 199 1 4 2",
            "F 1 3 9 0 1 1",
        ]
    )
    records = ns2_run.parse(text, program, 1.0)
    link = records.links["bottleneck"]
    assert list(link.arrivals) == [10, 15]
    assert list(link.drops) == [1, 1]
    assert list(link.departed_bytes) == [12000, 15000]
    assert list(link.marks) == [0, 1]
    assert list(records.flows.delivered_at_measure_start) == [100 * 1460, 0]
    assert list(records.flows.delivered) == [200 * 1460, 10 * 1460]
    assert list(records.timeouts) == [1, 0]
    assert list(records.reductions) == [2, 1]


def test_parse_unwraps_the_32_bit_byte_counter():
    # 1 Gb/s for 20 s passes 2^31 bytes: ns-2 prints bdepartures_ wrapped to a negative number.
    program = translate(scenario().resolved(), start_times=[0.0, 2.0])
    before, after = 2**31 - 4000, 2**31 - 4000 + 12500 - 2**32
    text = "\n".join(
        [
            f"L bottleneck 0.01 3 10 1 {before} 0",
            f"L bottleneck 0.02 5 25 2 {after} 1",
            "F 0 1 99 0 0 0",
            "F 1 1 -1 0 0 0",
            "F 0 3 199 1 4 2",
            "F 1 3 9 0 1 1",
        ]
    )
    link = ns2_run.parse(text, program, 1.0).links["bottleneck"]
    assert list(link.departed_bytes) == [before, 12500]


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`, Debian package ns2) is not installed")
def test_smoke_run_agrees_with_aqmlab_on_a_saturated_droptail():
    s = scenario({"kind": "drop_tail", "limit": "20p"}, count=4)
    results = aqmlab.simulate(s, seed=1)
    starts = list(results.flows.column("start_s").to_numpy())
    program = translate(s.resolved(), start_times=starts)
    records = ns2_run.run(program, 1.0)
    ns2 = ns2_run.summarise(records, program, "bottleneck", 1.0, 3.0)
    ours = ns2_run.aqmlab_summary(results, "bottleneck")
    assert ns2["utilisation"] > 0.95
    assert abs(ns2["goodput_mbps"] - ours["goodput_mbps"]) / ns2["goodput_mbps"] < 0.1
    # DropTail limit_ 21 holds 20 waiting packets, as aqmlab's 20p.
    assert np.max(records.links["bottleneck"].queue_packets) == 20


def test_ns2_options_go_with_their_agent():
    """aqmlab's ns-2 options map to no Tcl line (ns-2 has no switch) but only to their agent:
    tcp.cc's estimator with Agent/TCP, tcp-linux.cc's (at its 1-ms tick) and rate halving with
    Agent/TCP/Linux."""
    linux = {"sack": True, "cc": "cubic", "timer_tick": "1ms"}
    plain = lines(scenario(tcp=linux))
    ns2_linux = {
        **linux,
        "rtt_estimator": "ns2_linux",
        "rate_halving": True,
        "lost_retransmit": "sack_above",
        "loss_marking": "fack",
        "timeout_scoreboard": "keep",
        "timeout_recovery": "linux_loss_state",
        "recovery_exit_scoreboard": "clear",
    }
    assert lines(scenario(tcp=ns2_linux)) == plain
    assert lines(scenario(tcp={"sack": True, "rtt_estimator": "ns2", "timer_tick": "10ms"}))
    with pytest.raises(Unsupported, match="rtt_estimator = 'ns2_linux'"):
        lines(scenario(tcp={**linux, "rtt_estimator": "ns2"}))
    with pytest.raises(Unsupported, match="rtt_estimator = 'ns2'"):
        lines(scenario(tcp={"sack": True, "rtt_estimator": "ns2_linux", "timer_tick": "1ms"}))
    with pytest.raises(Unsupported, match="timer_tick"):
        lines(scenario(tcp={**linux, "rtt_estimator": "ns2_linux", "timer_tick": "10ms"}))
    with pytest.raises(Unsupported, match="rate_halving"):
        lines(scenario(tcp={"sack": True, "rate_halving": True}))
    with pytest.raises(Unsupported, match="lost_retransmit"):
        lines(scenario(tcp={"sack": True, "lost_retransmit": "sack_above"}))
    with pytest.raises(Unsupported, match="loss_marking = 'fack'"):
        lines(scenario(tcp={"sack": True, "loss_marking": "fack"}))
    with pytest.raises(Unsupported, match="timeout_scoreboard = 'keep'"):
        lines(scenario(tcp={"sack": True, "timeout_scoreboard": "keep"}))
    with pytest.raises(Unsupported, match="timeout_recovery = 'linux_loss_state'"):
        lines(scenario(tcp={"sack": True, "timeout_recovery": "linux_loss_state"}))
    with pytest.raises(Unsupported, match="recovery_exit_scoreboard = 'clear'"):
        lines(scenario(tcp={"sack": True, "recovery_exit_scoreboard": "clear"}))
