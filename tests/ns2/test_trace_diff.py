"""The packet-by-packet comparison (benchmarks/ns2/trace_diff.py) and the ns-2 trace option it
uses (ns2_mapping.Options.trace_flows), without ns-2; one short run where `ns` is installed."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))

import ns2_mapping  # noqa: E402
import trace_diff  # noqa: E402
from trace_diff import Events, first_divergence  # noqa: E402


def scalable_scenario(flows: int = 2):
    return trace_diff.reduced_scenario("scalable-droptail-rtt20", flows, 4.0, {})


def program_text(flows: tuple[int, ...]) -> str:
    scenario = scalable_scenario()
    options = ns2_mapping.Options(trace_flows=flows)
    return ns2_mapping.translate(scenario.resolved(), start_times=[0.0, 0.5], options=options).text()


def test_no_trace_flows_writes_the_program_without_traces_line_for_line():
    text = program_text(())
    assert "trace-queue" not in text and "tracevar" not in text
    assert '"close $out; exit 0"' in text


def test_trace_flows_trace_the_access_link_both_ways_the_bottleneck_and_the_window():
    lines = program_text((1,)).splitlines()
    traces = [line for line in lines if "trace-queue" in line]
    # flow 1's access link, its reverse (ACKs), and the monitored bottleneck
    assert len(traces) == 3
    assert any(line.startswith("$ns trace-queue $s(1) ") for line in traces)
    assert any(line.endswith("$s(1) $tf") for line in traces)
    assert any('puts $tf "# sender [$s(1) id] 1"' in line for line in lines)
    assert any("$a(1) attach $wf(1); $a(1) tracevar cwnd_; $a(1) tracevar ssthresh_" in line for line in lines)
    assert not any("$a(0) attach $wf" in line for line in lines)
    end = next(line for line in lines if "exit 0" in line)
    assert "close $out; close $tf; close $wf(1); exit 0" in end


def test_trace_flows_refuse_a_flow_that_is_not_there():
    with pytest.raises(ValueError, match=r"Options.trace_flows: 2 is not a TCP flow"):
        program_text((2,))


def test_ns2_packet_trace_lines_become_sends_acks_and_drops():
    text = "\n".join(
        [
            "# sender 4 0",
            "+ 1.0 4 0 tcp 1500 ------- 0 4.0 5.0 0 1",
            "- 1.0 4 0 tcp 1500 ------- 0 4.0 5.0 0 1",
            "+ 1.00012 4 0 tcp 1500 ------- 0 4.0 5.0 1 2",
            "+ 1.00012 0 1 tcp 1500 ------- 0 4.0 5.0 0 1",
            "d 1.00024 0 1 tcp 1500 ------- 0 4.0 5.0 1 2",
            "r 1.02 0 4 ack 40 ------- 0 5.0 4.0 0 3",
            "r 1.02 0 6 ack 40 ------- 1 7.0 6.0 0 4",  # flow 1: not traced here
        ]
    )
    (flow0,) = trace_diff.parse_ns2_packets(text, 1)
    assert flow0 == [(1.0, "send", 0.0), (1.00012, "send", 1.0), (1.00024, "drop", 1.0), (1.02, "ack", 1.0)]


def test_ns2_window_trace_keeps_changes_only():
    text = "1.00000 4 0 5 0 cwnd_ 2.000\n1.00100 4 0 5 0 cwnd_ 2.000\n1.00200 4 0 5 0 cwnd_ 3.000\n"
    text += "1.00200 4 0 5 0 ssthresh_ 10.000\n"
    rows = trace_diff.parse_ns2_window(text)
    assert rows == [(1.0, "cwnd", 2.0), (1.002, "cwnd", 3.0), (1.002, "ssthresh", 10.0)]


def events(sends: list[tuple[float, int]], drops: list[tuple[float, int]] = ()) -> Events:
    return Events.of([(t, "send", float(s)) for t, s in sends] + [(t, "drop", float(s)) for t, s in drops])


def test_events_mark_a_segment_sent_again_as_a_retransmission():
    e = events([(0.0, 0), (0.1, 1), (0.2, 0), (0.3, 2)])
    assert e.retransmit.tolist() == [False, False, True, False]


def test_first_divergence_is_none_when_every_send_and_drop_agrees_within_the_tolerance():
    a = events([(0.0, 0), (0.1, 1)], [(0.15, 1)])
    b = events([(0.0004, 0), (0.1, 1)], [(0.15, 1)])
    assert first_divergence(a, b, 0, 0.001) is None


def test_first_divergence_finds_the_earliest_differing_send_or_drop():
    ns2 = events([(0.0, 0), (0.1, 1), (0.2, 2), (0.3, 3)], [(0.12, 1)])
    ours = events([(0.0, 0), (0.1, 1), (0.2, 1), (0.3, 3)], [(0.12, 1)])
    found = first_divergence(ns2, ours, 0, 0.001)
    assert (found.kind, found.index, found.ns2, found.aqmlab) == ("send", 2, (0.2, 2.0), (0.2, 1.0))
    late = events([(0.0, 0), (0.1, 1), (0.2, 2), (0.3, 3)], [(0.125, 1)])
    found = first_divergence(ns2, late, 0, 0.001)
    assert (found.kind, found.time_s) == ("drop", 0.12)
    fewer = events([(0.0, 0), (0.1, 1)], [(0.12, 1)])
    found = first_divergence(ns2, fewer, 0, 0.001)
    assert (found.kind, found.index, found.ns2, found.aqmlab) == ("send", 2, (0.2, 2.0), None)


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) not installed")
def test_one_flow_sends_the_same_segments_at_the_same_instants_in_both_simulators():
    """One Scalable flow on the row's DropTail dumbbell, 5 s (it starts at 3.48 s): slow start, the first overflow
    and its recovery (rate halving) are the same in both simulators, segment for segment
    (ns-2's and aqmlab's DropTail, links, sink and TCP-Linux sender are deterministic). ns-2
    runs a few microseconds ahead: without a SYN its segment 0 carries no header (tcp.cc
    `TcpAgent::output` adds `headersize()` only when seqno != 0), 40 bytes = 3.2 us less on
    the bottleneck, and the ACK clock keeps that lead."""
    scenario = trace_diff.reduced_scenario("scalable-droptail-rtt20", 1, 5.0, {})
    import aqmlab

    results = aqmlab.simulate(scenario, seed=1)
    starts = [float(x) for x in results.flows.column("start_s").to_numpy()]
    (ours,) = trace_diff.aqmlab_events(results, 1)
    (ns2,) = trace_diff.ns2_events(scenario, starts, 1, 1)
    ns2 = ns2.until(5.0)
    assert trace_diff.counts(ns2)["drops"] > 100 and trace_diff.counts(ns2)["sends"] > 10_000
    # Every send and drop, to 20 us (before rate halving sent the fast retransmit alone, the
    # ACK that starts recovery also let a new segment out in aqmlab: send 1339 differed).
    assert first_divergence(ns2, ours, 0, 2e-5) is None
    assert trace_diff.counts(ns2) == trace_diff.counts(ours)
