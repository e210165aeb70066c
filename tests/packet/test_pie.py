"""PIE (RFC 8033) on the dumbbell: queueing delay near QDELAY_REF = 15 ms."""

import aqmlab
import numpy as np
import pytest
from scenarios import aqm_dumbbell


def scenario(queue, **kw):
    # 20 Reno flows, 50 Mb/s, RTT 100 ms, a 2000-packet buffer.
    return aqm_dumbbell(queue, flows=20, rate="50Mbps", duration="60s", measure_start="20s", **kw)


def test_pie_settles_the_queueing_delay_near_its_target():
    results = aqmlab.simulate(scenario({"kind": "pie", "limit": "2000p"}), seed=1)
    s = results.summary()
    # measured: 15.5 ms mean sojourn, utilisation 0.999
    assert s["sojourn_mean_s"] == pytest.approx(0.015, abs=0.004)
    assert s["utilisation_mean"] > 0.97
    samples = results.link_samples()
    p = samples["drop_probability"][samples["time_s"] > 20]
    assert np.all((p >= 0) & (p < 0.2)) and p.mean() > 0
    droptail = aqmlab.simulate(scenario({"kind": "drop_tail", "limit": "2000p"}), seed=1).summary()
    assert droptail["sojourn_mean_s"] > 5 * s["sojourn_mean_s"]


def test_pie_marks_ecn_capable_flows_below_the_mark_threshold():
    results = aqmlab.simulate(
        scenario({"kind": "pie", "limit": "2000p", "ecn": True}, tcp={"cc": "reno", "ecn": True}), seed=1
    )
    s = results.summary()
    assert s["mark_percent"] > 0
    assert s["loss_percent"] < 0.1 * s["mark_percent"]
    assert s["sojourn_mean_s"] == pytest.approx(0.015, abs=0.005)


def test_example_scenario_resolves():
    from pathlib import Path

    from aqmlab import Scenario

    path = Path(__file__).parents[2] / "examples" / "pie-dumbbell.toml"
    queue = Scenario.from_toml(path).resolved()["topology"]["bottleneck"]["queue"]
    assert queue["kind"] == "pie"
