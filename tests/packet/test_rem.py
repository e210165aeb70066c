"""REM (Athuraliya, Low, Li, Yin, IEEE Network 2001) on the dumbbell."""

import aqmlab
import numpy as np
import pytest
from scenarios import aqm_dumbbell

REM = {"kind": "rem", "limit": "800p"}  # phi 1.001, gamma 0.001, alpha 0.1, b* = 20, 2 ms


def test_rem_settles_the_queue_near_its_target_backlog():
    # 40 Reno flows on 20 Mb/s, RTT 100 ms. The price takes tens of seconds to recover from
    # the slow-start overshoot (gamma = 0.001 per 2 ms), so we measure the last 50 of 100 s.
    scenario = aqm_dumbbell(REM, flows=40, rate="20Mbps", duration="100s", measure_start="50s")
    results = aqmlab.simulate(scenario, seed=1)
    summary = results.summary()
    # measured: mean 18.9, std 13.2 packets, utilisation 0.99
    assert summary["queue_mean_packets"] == pytest.approx(20, abs=5)
    assert summary["utilisation_mean"] > 0.95
    samples = results.link_samples()
    window = samples["time_s"] > 50
    p = samples["drop_probability"][window]
    # The price settles: the marking probability is steady over the window.
    assert p.min() > 0 and p.max() < 1.5 * p.min(), (p.min(), p.max())


def test_rem_marks_with_ecn():
    scenario = aqm_dumbbell(
        {**REM, "ecn": True}, flows=20, rate="10Mbps", duration="40s", rtt="60ms", tcp={"cc": "reno", "ecn": True}
    )
    summary = aqmlab.simulate(scenario, seed=1).summary()
    assert summary["mark_percent"] > 0.1
    assert summary["loss_percent"] < 0.1 * summary["mark_percent"]
    assert np.isfinite(summary["queue_mean_packets"])


def test_example_scenario_resolves():
    from pathlib import Path

    from aqmlab import Scenario

    path = Path(__file__).parents[2] / "examples" / "rem-dumbbell.toml"
    queue = Scenario.from_toml(path).resolved()["topology"]["bottleneck"]["queue"]
    assert queue["kind"] == "rem"
