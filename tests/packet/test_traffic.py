"""Traffic kinds: UDP sources, web arrivals, flows that enter and leave, reverse traffic,
mixes by share."""

import math

import aqmlab
import numpy as np
import pytest
from aqmlab import Scenario, ScenarioError
from aqmlab.traffic import split_by_share
from scenarios import assert_packets_conserved, dumbbell

RED = {"kind": "red", "limit": "300p", "min_th": 20, "max_th": 60, "q_weight": 0.002}


def with_groups(scenario, *groups):
    scenario["topology"]["groups"].extend(groups)
    scenario["topology"]["bottleneck"]["reverse_queue"] = {"kind": "drop_tail", "limit": "300p"}
    return scenario


def test_a_udp_flow_that_joins_and_leaves_is_visible_in_the_queue_trace():
    # seed 002 Section V-C: an unresponsive flow joins at 50 s and leaves at 70 s (scaled).
    udp = {
        "name": "udp",
        "kind": "udp",
        "count": 1,
        "rate": "4Mbps",
        "rtt": "60ms",
        "access_rate": "100Mbps",
        "start": {"kind": "fixed", "at": "10s"},
        "stop": {"kind": "fixed", "at": "20s"},
    }
    scenario = with_groups(dumbbell(flows=5, duration="30s", rate="10Mbps", rtt="60ms", queue=RED), udp)
    results = aqmlab.simulate(scenario, seed=1)
    samples = results.link_samples()
    time = samples["time_s"]
    during = (time > 11) & (time <= 20)
    outside = ((time > 3) & (time <= 10)) | (time > 21)
    drop_rate_during = samples["drops"][during].sum() / during.sum()
    drop_rate_outside = samples["drops"][outside].sum() / outside.sum()
    assert drop_rate_during > 2 * drop_rate_outside
    assert samples["average_queue"][during].mean() > samples["average_queue"][outside].mean()
    flows = results.to_pandas("flows").set_index("group_name")
    udp_row = flows.loc["udp"]
    assert udp_row.start_s == 10.0 and udp_row.end_s == pytest.approx(20.0, abs=0.01)
    # 4 Mb/s for 10 s of 1500-byte datagrams, less RED's drops
    assert udp_row.segments_sent == 3334
    assert 0.85 * 5e6 < udp_row.bytes_delivered <= 5.001e6


def test_flows_enter_and_leave_one_by_one():
    # seed 001 Table I: flows enter 0.5 s apart and leave 5 s apart (scaled).
    start = {"kind": "staggered", "first": "2s", "spacing": "0.5s"}
    scenario = dumbbell(flows=6, duration="30s", rate="10Mbps", rtt="60ms", queue=RED, start=start)
    scenario["topology"]["groups"][0]["stop"] = {"kind": "staggered", "first": "15s", "spacing": "2s"}
    results = aqmlab.simulate(scenario, seed=1)
    flows = results.to_pandas("flows")
    assert np.allclose(flows.start_s, 2 + 0.5 * np.arange(6))
    stops = 15 + 2 * np.arange(6)
    # Each flow finishes what it sent within a few RTTs of its stop time.
    assert np.all(flows.end_s >= stops) and np.all(flows.end_s < stops + 2)
    samples = results.link_samples()
    after = samples["time_s"] > 27
    assert samples["departures"][after].sum() == 0  # everyone has left


def test_web_transfers_arrive_as_a_poisson_process_with_pareto_sizes():
    web = {
        "name": "web",
        "kind": "web",
        "arrival_rate": 50,
        "size": {"kind": "pareto", "mean": "5kB", "shape": 1.2},
        "rtt": "60ms",
        "access_rate": "100Mbps",
    }
    scenario = with_groups(dumbbell(flows=2, duration="40s", rate="10Mbps", rtt="60ms", queue=RED), web)
    results = aqmlab.simulate(scenario, seed=3)
    flows = results.to_pandas("flows")
    web_flows = flows[flows.group_name == "web"]
    expected = 50 * 40
    assert abs(len(web_flows) - expected) < 4 * math.sqrt(expected)
    gaps = np.diff(np.sort(web_flows.start_s.to_numpy()))
    assert gaps.mean() == pytest.approx(1 / 50, rel=0.1)
    assert np.std(gaps) / gaps.mean() == pytest.approx(1.0, abs=0.15)  # exponential gaps
    started_early = web_flows[web_flows.start_s < 35]
    assert started_early.fct_s.notna().mean() > 0.99  # short transfers complete
    # Pareto(shape 1.2, mean 5000): scale 833.3 bytes, median scale * 2^(1/1.2) = 1485 bytes.
    payload = web_flows.bytes_delivered[web_flows.fct_s.notna()]
    assert np.median(payload) == pytest.approx(833.33 * 2 ** (1 / 1.2), rel=0.1)
    # They ride TCP Tahoe by default (seed 000 Section V-B).
    assert Scenario.from_dict(scenario).topology.groups[1].tcp.recovery == "tahoe"


def test_reverse_traffic_loads_the_ack_path():
    reverse = {"name": "reverse", "count": 3, "direction": "reverse", "rtt": "60ms", "access_rate": "100Mbps"}
    scenario = with_groups(dumbbell(flows=3, duration="20s", rate="10Mbps", rtt="60ms", queue=RED), reverse)
    results = aqmlab.simulate(scenario, seed=1)
    backward = results.link_samples("bottleneck_reverse")
    assert backward["utilisation"][backward["time_s"] > 10].mean() > 0.8
    flows = results.to_pandas("flows").groupby("group_name").goodput_bps.sum()
    assert flows["reverse"] > 5e6 and flows["g"] > 3e6
    assert_packets_conserved(results)


def test_a_group_mixes_algorithms_by_share():
    assert split_by_share(60, [0.8, 0.2]) == [48, 12]
    assert split_by_share(55, [27 / 55, 28 / 55]) == [27, 28]
    assert sum(split_by_share(7, [1 / 3, 1 / 3, 1 / 3])) == 7
    scenario = dumbbell(flows=10)
    scenario["topology"]["groups"][0]["mix"] = [{"share": 0.8, "cc": "reno"}]
    with pytest.raises(ScenarioError, match="add up to 1"):
        Scenario.from_dict(scenario)
    scenario["topology"]["groups"][0]["mix"] = [{"share": 1.0, "cc": "reno"}]
    resolved = Scenario.from_dict(scenario).resolved()["topology"]["groups"]
    assert [(g["name"], g["traffic"]["count"]) for g in resolved] == [("g/reno", 10)]


@pytest.mark.parametrize(
    ("group", "message"),
    [
        (
            {
                "kind": "web",
                "arrival_rate": 10,
                "size": {"kind": "pareto", "mean": "5kB"},
                "start": {"kind": "uniform"},
            },
            "start",
        ),
        ({"kind": "web", "arrival_rate": 0, "size": {"kind": "pareto", "mean": "5kB"}}, "arrival_rate"),
        ({"kind": "web", "arrival_rate": 10, "size": {"kind": "pareto", "mean": "5kB", "shape": 1.0}}, "shape"),
        ({"kind": "udp", "count": 1}, "rate"),
        ({"kind": "video", "count": 1}, "'video'"),
    ],
)
def test_bad_groups_are_named(group, message):
    scenario = dumbbell()
    scenario["topology"]["groups"].append({"name": "x", "rtt": "60ms", "access_rate": "10Mbps", **group})
    with pytest.raises(ScenarioError, match=message):
        Scenario.from_dict(scenario)
