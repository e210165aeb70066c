"""The aqmlab -> ns-3 translation (benchmarks/ns3/ns3_mapping.py): pure Python, no ns-3."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns3"))

# imports below need the sys.path entry above (modules in benchmarks/ns3)
import aqmlab  # noqa: E402
import ns3_mapping  # noqa: E402
from ns3_mapping import Unsupported, translate  # noqa: E402


def directives(spec: ns3_mapping.Ns3Spec) -> list[list[str]]:
    return [line.split() for line in spec.lines if line and not line.startswith("#")]


def defaults(spec: ns3_mapping.Ns3Spec) -> dict[str, str]:
    return {words[1]: words[2] for words in directives(spec) if words[0] == "default"}


def dumbbell(**changes) -> aqmlab.Scenario:
    base = aqmlab.Scenario.from_toml(ROOT / "benchmarks" / "dumbbell-60" / "scenario.toml")
    return base.with_changes(**changes) if changes else base


def with_group(scenario: aqmlab.Scenario, **group_changes) -> dict:
    data = scenario.model_dump(mode="json")
    data["topology"]["groups"][0].update(group_changes)
    return aqmlab.Scenario.from_dict(data).resolved()


def with_queue(queue: dict) -> dict:
    data = dumbbell().model_dump(mode="json")
    data["topology"]["bottleneck"]["queue"] = queue
    return aqmlab.Scenario.from_dict(data).resolved()


def qdisc(spec: ns3_mapping.Ns3Spec, side: str = "a") -> tuple[str, dict[str, str]]:
    words = next(w for w in directives(spec) if w[0] == "qdisc" and w[2] == side)
    return words[3], dict(pair.split("=", 1) for pair in words[4:])


def test_tcp_set_to_aqmlab_defaults():
    values = defaults(translate(dumbbell().resolved()))
    assert values["ns3::TcpSocket::SegmentSize"] == "1460"  # 1500 B packets, 40 B headers, no options
    assert values["ns3::TcpSocketBase::Timestamp"] == "false"
    assert values["ns3::TcpSocketBase::Sack"] == "false"
    assert values["ns3::TcpSocket::DelAckCount"] == "1"
    assert values["ns3::TcpSocket::InitialCwnd"] == "2"
    assert values["ns3::TcpSocketBase::MinRto"] == "200000000ns"
    assert values["ns3::TcpSocketBase::LimitedTransmit"] == "false"
    assert values["ns3::TcpL4Protocol::RecoveryType"] == "ns3::TcpClassicRecovery"
    assert int(values["ns3::TcpSocket::RcvBufSize"]) >= 4 << 20


def test_red_attributes_and_limits():
    spec = translate(dumbbell().resolved())
    kind, attributes = qdisc(spec)
    assert kind == "ns3::RedQueueDisc"
    assert attributes["MaxSize"] == "2083p"  # + the 1-packet device queue = aqmlab's 2084
    assert float(attributes["LInterm"]) == pytest.approx(10.0)  # max_p = 0.1
    assert float(attributes["QW"]) == -1.0
    assert attributes["Gentle"] == "false" and attributes["Wait"] == "true"
    assert attributes["LinkBandwidth"] == "100000000bps"  # nominal, for the automatic weight
    assert attributes["LinkDelay"] == "48000000ns"
    reverse, reverse_attributes = qdisc(spec, "b")
    assert reverse == "ns3::FifoQueueDisc" and reverse_attributes["MaxSize"] == "99999p"


def test_links_rates_delays_and_ppp_compensation():
    spec = translate(dumbbell().resolved())
    links = {w[1]: w for w in directives(spec) if w[0] == "link"}
    assert links["bottleneck"][4:8] == [str(round(100e6 * 1502 / 1500)), "48000000", "1p", "1p"]
    # RTT 100 ms = 2 (48 + 1 + 1) ms: 1 ms on the access link and 1 ms on the receiver link.
    assert links["access0"][5] == "1000000" and links["receiver0"][5] == "1000000"
    assert links["access0"][6:8] == ["1000p", "1000p"]
    plain = translate(dumbbell().resolved(), ppp_compensation=False)
    assert next(w for w in directives(plain) if w[:2] == ["link", "bottleneck"])[4] == "100000000"
    assert sum(1 for w in directives(spec) if w[0] == "flow") == 60


def test_edge_delays_split_as_the_engine_does():
    # 2 * 48 ms core; 23.000001 ms left for the edges one way... odd nanoseconds split as the engine.
    resolved = with_group(dumbbell(), rtt="119.000003ms")
    links = {w[1]: w for w in directives(translate(resolved)) if w[0] == "link"}
    edge_one_way = (119_000_003 - 2 * 48_000_000) // 2
    assert int(links["access0"][5]) == edge_one_way // 2
    assert int(links["receiver0"][5]) == edge_one_way - edge_one_way // 2


def test_given_start_times_are_used_and_nan_never_starts():
    starts = [float(i) / 10 for i in range(60)]
    starts[3] = float("nan")
    spec = translate(dumbbell().resolved(), start_times=starts)
    flows = [w for w in directives(spec) if w[0] == "flow"]
    assert float(flows[1][4]) == pytest.approx(0.1)
    assert float(flows[3][4]) > 100.0  # after the end
    with pytest.raises(ValueError, match="start_times"):
        translate(dumbbell().resolved(), start_times=[0.0])


def test_staggered_starts_are_exact():
    resolved = with_group(dumbbell(), start={"kind": "staggered", "first": "1s", "spacing": "0.5s"})
    spec = translate(resolved)
    assert spec.start_times[:3] == pytest.approx([1.0, 1.5, 2.0])


def test_codel_and_pie():
    kind, attributes = qdisc(translate(with_queue({"kind": "codel", "limit": "2000p"})))
    assert kind == "ns3::CoDelQueueDisc"
    assert attributes == {
        "MaxSize": "1999p",
        "Target": "5000000ns",
        "Interval": "100000000ns",
        "MinBytes": "1500",
        "UseEcn": "false",
    }
    kind, attributes = qdisc(translate(with_queue({"kind": "pie", "limit": "2000p"})))
    assert kind == "ns3::PieQueueDisc"
    assert attributes["QueueDelayReference"] == "15000000ns" and attributes["Tupdate"] == "15000000ns"
    assert float(attributes["A"]) == 0.125 and float(attributes["B"]) == 1.25
    assert attributes["MeanPktSize"] == "1500"  # aqmlab: the scenario's packet size
    assert attributes["UseDequeueRateEstimator"] == "false"


def test_congestion_controls():
    cubic = translate(with_group(dumbbell(), tcp={"cc": "cubic"}))
    values = defaults(cubic)
    assert values["ns3::TcpCubic::HyStart"] == "false"
    assert float(values["ns3::TcpCubic::Beta"]) == 0.7 and float(values["ns3::TcpCubic::C"]) == 0.4
    assert any(w == ["socket_type", "2", "ns3::TcpCubic"] for w in directives(cubic))
    scalable = {"kind": "scalable", "definition": "ns3", "a": 0.02}
    values = defaults(translate(with_group(dumbbell(), tcp={"cc": scalable})))
    assert values["ns3::TcpScalable::AIFactor"] == "50" and float(values["ns3::TcpScalable::MDFactor"]) == 0.125
    highspeed = translate(with_group(dumbbell(), tcp={"cc": {"kind": "highspeed", "definition": "linux_table"}}))
    assert any(w == ["socket_type", "2", "ns3::TcpHighSpeed"] for w in directives(highspeed))


@pytest.mark.parametrize(
    ("cc", "message"),
    [
        ("highspeed", "definition = 'rfc3649': ns-3's TcpHighSpeed implements definition = 'linux_table' only"),
        ("scalable", "definition = 'kelly': ns-3's TcpScalable implements definition = 'ns3' only"),
        ("compound", "cc.kind = 'compound'"),
    ],
)
def test_definitions_ns3_does_not_implement_are_unsupported(cc, message):
    """aqmlab's default HighSpeed (RFC 3649 Section 5's formulas) and Scalable (Kelly's legacy
    window) are not what ns-3 runs: the mapping refuses them rather than approximate."""
    with pytest.raises(Unsupported, match=re.escape(message)):
        translate(with_group(dumbbell(), tcp={"cc": cc}))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rtt": {"kind": "uniform", "low": "100ms", "high": "150ms"}}, "rtt_spread_ns"),
        ({"direction": "reverse"}, "direction"),
        ({"tcp": {"recovery": "tahoe"}}, "Tahoe"),
        ({"tcp": {"initial_window": 1.5}}, "whole segments"),
        ({"stop": {"kind": "fixed", "at": "50s"}}, "stop"),
        # ns-3's SACK sender always sends by cwnd - pipe (RFC 6675 step (3)); its
        # LimitedTransmit attribute acts only without SACK.
        ({"tcp": {"sack": True}}, r"tcp\.limited_transmit = false with sack = true"),
        # ns-3 paces its ECN reduction only through TcpPrrRecovery (EnterCwr -> EnterRecovery).
        (
            {"tcp": {"sack": True, "limited_transmit": True, "ecn": True, "ecn_reduction": "prr"}},
            r"tcp\.ecn_reduction = 'prr' with sack_recovery = 'rfc6675'",
        ),
    ],
)
def test_unsupported_group_settings_are_named(change, message):
    with pytest.raises(Unsupported, match=message):
        translate(with_group(dumbbell(), **change))


def test_prr_ecn_reduction_maps_to_ns3_prr_recovery():
    """ns-3 has no setting for it: its PRR recovery paces the ECN reduction, so the spec is the
    same as without the option (stored ns-3 runs stay valid)."""
    tcp = {"sack": True, "limited_transmit": True, "ecn": True, "sack_recovery": "prr"}
    paced = translate(with_group(dumbbell(), tcp={**tcp, "ecn_reduction": "prr"}))
    assert defaults(paced)["ns3::TcpL4Protocol::RecoveryType"] == "ns3::TcpPrrRecovery"
    assert defaults(paced) == defaults(translate(with_group(dumbbell(), tcp=tcp)))


def test_sack_maps_with_limited_transmit_on():
    values = defaults(translate(with_group(dumbbell(), tcp={"sack": True, "limited_transmit": True})))
    assert values["ns3::TcpSocketBase::Sack"] == "true"
    # ns-3 ignores the attribute with SACK; the spec keeps the text stored runs were made with.
    assert values["ns3::TcpSocketBase::LimitedTransmit"] == "false"


def test_unsupported_queue_is_named():
    with pytest.raises(Unsupported, match=r"bottleneck\.queue\.kind = 'pi'"):
        translate(with_queue({"kind": "pi"}))


def test_parking_lot():
    scenario = aqmlab.Scenario.from_toml(ROOT / "benchmarks" / "ns3" / "scenarios" / "seed000-fig16-parking-lot.toml")
    spec = translate(scenario.resolved())
    words = directives(spec)
    assert [w[1:4] for w in words if w[0] == "link" and w[1].startswith("link")] == [
        ["link1", "0", "1"],
        ["link2", "1", "2"],
    ]
    assert spec.monitored == ["link1", "link2"]
    senders = {w[2]: w for w in words if w[0] == "link" and w[1].startswith("access")}
    receivers = {w[3]: w for w in words if w[0] == "link" and w[1].startswith("receiver")}
    flows = [w for w in words if w[0] == "flow"]
    assert len(flows) == 90
    # Group 1 crosses both links (r0 -> r2): RTT 100 ms = 2 (10 + 10 + edges) ms.
    first = flows[0]
    assert senders[first[2]][3] == "0" and receivers[first[3]][2] == "2"
    assert int(senders[first[2]][5]) + int(receivers[first[3]][5]) == 30_000_000
    # Group 3 crosses the second link only (r1 -> r2).
    last = flows[-1]
    assert senders[last[2]][3] == "1" and int(senders[last[2]][5]) + int(receivers[last[3]][5]) == 40_000_000


def test_network_paths_must_be_the_unique_hop_shortest():
    network = {
        "kind": "network",
        "routers": ["a", "b", "c"],
        "links": [
            {"name": "ab", "from": "a", "to": "b", "rate": "10Mbps", "delay": "5ms", "queue": {"kind": "drop_tail"}},
            {"name": "bc", "from": "b", "to": "c", "rate": "10Mbps", "delay": "5ms", "queue": {"kind": "drop_tail"}},
            {"name": "ac", "from": "a", "to": "c", "rate": "10Mbps", "delay": "50ms", "queue": {"kind": "drop_tail"}},
        ],
        "groups": [
            {
                "name": "g",
                "count": 2,
                "rtt": "200ms",
                "access_rate": "100Mbps",
                "path": {"kind": "routers", "routers": ["a", "b", "c"]},
            }
        ],
    }
    scenario = aqmlab.Scenario.from_dict({"duration": "10s", "topology": network})
    with pytest.raises(Unsupported, match="hop-count"):
        translate(scenario.resolved())
    network["groups"][0]["path"]["routers"] = ["a", "c"]
    spec = translate(aqmlab.Scenario.from_dict({"duration": "10s", "topology": network}).resolved())
    assert spec.monitored == ["ab", "bc", "ac"]
