"""PI controller (Hollot, Misra, Towsley, Gong, INFOCOM 2001) on the dumbbell."""

import aqmlab
import numpy as np
import pytest
from scenarios import aqm_dumbbell

PI = {"kind": "pi", "limit": "800p"}  # the paper's a, b, 160 Hz and q_ref = 200 by default


def paper_scenario(queue, **top):
    """Hollot et al. 2001 Section V: N = 60 Reno flows, C = 3750 packets/s (15 Mb/s of
    500-byte packets), propagation RTT 200 ms (R+ = 0.246 s with queueing), 800-packet
    buffer. The paper also runs 180 HTTP sessions; we run the 60 long-lived flows only.
    min_rto = 1 s: with the engine's 200 ms minimum, RTT-200-ms flows time out spuriously
    (RTO ~ srtt) and never fill the link, with any queue (see docs/queues/pi.md)."""
    return aqm_dumbbell(
        queue,
        flows=60,
        rate="15Mbps",
        duration="100s",
        measure_start="50s",
        rtt="200ms",
        tcp={"cc": "reno", "packet_size": "500B", "min_rto": "1s"},
        **top,
    )


def test_pi_settles_the_queue_near_q_ref_with_reno_flows():
    results = aqmlab.simulate(paper_scenario(PI), seed=1)
    summary = results.summary()
    # measured: mean 201.6, std 45.0 packets; utilisation 1.0
    assert summary["queue_mean_packets"] == pytest.approx(200, abs=25)
    assert summary["utilisation_mean"] > 0.97
    samples = results.link_samples()
    p = samples["drop_probability"]
    assert np.all((p >= 0) & (p <= 1)) and p[samples["time_s"] > 50].mean() > 0
    # The same buffer without AQM fills up (measured: mean 550 packets).
    droptail = aqmlab.simulate(paper_scenario({"kind": "drop_tail", "limit": "800p"}), seed=1).summary()
    assert droptail["queue_mean_packets"] > 2 * summary["queue_mean_packets"]


def test_pi_marks_ecn_capable_flows_instead_of_dropping():
    scenario = aqm_dumbbell(
        {"kind": "pi", "limit": "800p", "q_ref": 50, "ecn": True},
        flows=20,
        rate="10Mbps",
        duration="30s",
        tcp={"cc": "reno", "ecn": True},
    )
    summary = aqmlab.simulate(scenario, seed=1).summary()
    assert summary["mark_percent"] > 0.1
    assert summary["loss_percent"] < 0.1 * summary["mark_percent"]


def test_example_scenario_resolves():
    from pathlib import Path

    from aqmlab import Scenario

    path = Path(__file__).parents[2] / "examples" / "pi-hollot2001.toml"
    queue = Scenario.from_toml(path).resolved()["topology"]["bottleneck"]["queue"]
    assert queue["kind"] == "pi"
