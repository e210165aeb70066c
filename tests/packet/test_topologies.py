"""Parking lot and general networks: routes, per-link traces, heterogeneous RTTs."""

import aqmlab
import numpy as np
import pytest
from aqmlab import Scenario, ScenarioError
from scenarios import aqm_dumbbell, assert_packets_conserved

RED = {"kind": "red", "limit": "300p", "min_th": 20, "max_th": 60, "q_weight": 0.002}


def group(name, count, crosses=None, path=None, rtt="100ms"):
    g = {
        "name": name,
        "count": count,
        "rtt": rtt,
        "access_rate": "100Mbps",
        "start": {"kind": "uniform", "low": "0s", "high": "2s"},
    }
    if crosses is not None:
        g["crosses"] = crosses
    if path is not None:
        g["path"] = path
    return g


def parking_lot(duration="30s"):
    # seed 000 Fig. 16, scaled: two bottlenecks in series, one class crosses both.
    link = {"rate": "10Mbps", "delay": "10ms", "queue": RED, "reverse_queue": {"kind": "drop_tail", "limit": "1000p"}}
    return {
        "name": "parking-lot",
        "duration": duration,
        "topology": {
            "kind": "parking_lot",
            "links": [link, link],
            "groups": [
                group("both", 5, ["link1", "link2"]),
                group("first", 5, ["link1"]),
                group("second", 5, ["link2"]),
            ],
        },
    }


def test_parking_lot_gives_each_class_its_bottlenecks():
    results = aqmlab.simulate(parking_lot(), seed=1)
    flows = results.to_pandas("flows")
    routes = flows.groupby("group_name").core_links.unique()
    assert list(routes["both"]) == ["link1,link2"]
    assert list(routes["first"]) == ["link1"] and list(routes["second"]) == ["link2"]
    summaries = results.summaries()
    assert set(summaries) == {"link1", "link2"}  # the reverse directions carry only ACKs
    for name in ("link1", "link2"):
        assert summaries[name]["utilisation_mean"] > 0.9
        assert summaries[name]["flows"] == 10
    goodput = flows.groupby("group_name").goodput_bps.mean()
    # Flows crossing two congested links get less than flows crossing one.
    assert goodput["both"] < 0.8 * goodput["first"] and goodput["both"] < 0.8 * goodput["second"]
    assert_packets_conserved(results)


def test_a_network_routes_by_explicit_and_shortest_paths():
    # a -- b -- d (2 x 5 ms) and a -- c -- d (2 x 20 ms): the shortest path goes via b.
    def link(name, src, dst, delay):
        return {
            "name": name,
            "from": src,
            "to": dst,
            "rate": "10Mbps",
            "delay": delay,
            "queue": RED,
            "reverse_queue": RED,
        }

    scenario = {
        "name": "square",
        "duration": "10s",
        "topology": {
            "kind": "network",
            "routers": ["a", "b", "c", "d"],
            "links": [
                link("ab", "a", "b", "5ms"),
                link("bd", "b", "d", "5ms"),
                link("ac", "a", "c", "20ms"),
                link("cd", "c", "d", "20ms"),
            ],
            "groups": [
                group("fast", 3, path={"kind": "shortest", "from": "a", "to": "d"}),
                group("slow", 3, path={"kind": "routers", "routers": ["a", "c", "d"]}),
                group("back", 2, path={"kind": "routers", "routers": ["d", "b"]}, rtt="60ms"),
            ],
        },
    }
    results = aqmlab.simulate(scenario, seed=2)
    flows = results.to_pandas("flows").set_index("group_name")
    assert set(flows.loc["fast"].core_links) == {"ab,bd"}
    assert set(flows.loc["slow"].core_links) == {"ac,cd"}
    assert set(flows.loc["back"].core_links) == {"bd_reverse"}
    assert "bd_reverse" in results.summaries()
    # RTT = 100 ms of propagation whatever the path (the edge links take up the difference),
    # plus queueing at the 10 Mb/s links.
    propagation = np.where(flows.index == "back", 0.06, 0.1)
    assert np.all(flows.rtt_mean_s >= propagation) and np.all(flows.rtt_mean_s < propagation + 0.1)
    # The saved scenario round-trips with its `from`/`to` aliases.
    assert Scenario.from_dict(results.scenario.model_dump(mode="json")) == results.scenario


def test_heterogeneous_rtts_are_uniform_in_the_range():
    # An uncongested 1 Gb/s bottleneck (40 x 10 Mb/s access): the RTT is the propagation delay.
    scenario = aqm_dumbbell(
        {"kind": "drop_tail", "limit": "5000p"},
        flows=40,
        duration="10s",
        **{"rate": "1Gbps", "delay": "5ms", "rtt": "30ms", "access_rate": "10Mbps"},
        tcp={"cc": "reno", "max_window": 20},
        trace_flows=100,
    )
    scenario["topology"]["groups"][0]["rtt"] = {"kind": "uniform", "low": "30ms", "high": "130ms"}
    results = aqmlab.simulate(scenario, seed=4)
    rtt = results.flows.column("rtt_mean_s").to_numpy()
    assert rtt.min() >= 0.030 and rtt.max() < 0.140
    assert np.ptp(rtt) > 0.07  # spread over most of the 100 ms range


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t["groups"][0].update(crosses=["link1", "link3"]), "unknown links"),
        (lambda t: t["groups"][0].update(crosses=["link2", "link1"]), "consecutive"),
        (lambda t: t["groups"][0].pop("crosses"), "needs `crosses`"),
        (lambda t: t["groups"][0].update(rtt="30ms"), "twice the one-way delay"),
    ],
)
def test_bad_parking_lots_are_named(change, message):
    scenario = parking_lot()
    change(scenario["topology"])
    with pytest.raises(ScenarioError, match=message):
        Scenario.from_dict(scenario)


def test_network_paths_are_checked_by_the_engine():
    scenario = {
        "name": "broken",
        "duration": "5s",
        "topology": {
            "kind": "network",
            "routers": ["a", "b", "c"],
            "links": [{"name": "ab", "from": "a", "to": "b", "rate": "10Mbps", "delay": "5ms", "queue": RED}],
            "groups": [group("g", 1, path={"kind": "routers", "routers": ["a", "c"]})],
        },
    }
    with pytest.raises(ScenarioError, match=r"path\.routers\[1\].*joined to a"):
        aqmlab.simulate(scenario)
