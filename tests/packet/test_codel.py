"""CoDel (RFC 8289) on the dumbbell: a standing queue near TARGET in a large buffer."""

import aqmlab
import pytest
from scenarios import aqm_dumbbell


def scenario(queue, **kw):
    # 10 Reno flows, 20 Mb/s, RTT 100 ms, a 2000-packet buffer (about 12 BDP).
    return aqm_dumbbell(queue, flows=10, rate="20Mbps", duration="60s", measure_start="20s", **kw)


def test_codel_keeps_the_sojourn_time_near_target_where_droptail_does_not():
    codel = aqmlab.simulate(scenario({"kind": "codel", "limit": "2000p"}), seed=1)
    droptail = aqmlab.simulate(scenario({"kind": "drop_tail", "limit": "2000p"}), seed=1)
    c, d = codel.summary(), droptail.summary()
    # measured: CoDel 5.7 ms, utilisation 0.97; DropTail 537 ms
    assert 0.003 < c["sojourn_mean_s"] < 0.010
    assert d["sojourn_mean_s"] > 20 * c["sojourn_mean_s"]
    assert c["utilisation_mean"] > 0.93
    # CoDel drops at the head; the buffer never overflows.
    links = codel.links.to_pandas().set_index("role")
    bottleneck = links.loc["bottleneck"]
    assert bottleneck["dropped_on_dequeue"] > 0
    assert bottleneck["dropped"] == bottleneck["dropped_on_dequeue"]


def test_codel_marks_ecn_capable_flows():
    results = aqmlab.simulate(
        scenario({"kind": "codel", "limit": "2000p", "ecn": True}, tcp={"cc": "reno", "ecn": True}), seed=1
    )
    s = results.summary()
    assert s["mark_percent"] > 0
    assert s["loss_percent"] == pytest.approx(0, abs=0.01)
    assert s["sojourn_mean_s"] < 0.010


def test_example_scenario_resolves():
    from pathlib import Path

    from aqmlab import Scenario

    path = Path(__file__).parents[2] / "examples" / "codel-dumbbell.toml"
    queue = Scenario.from_toml(path).resolved()["topology"]["bottleneck"]["queue"]
    assert queue["kind"] == "codel"
