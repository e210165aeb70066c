"""Seed 000 Fig. 15 (Section VI-C1): the threshold policy keeps the queue at or below q_th
where RED(8, 15) overshoots its maximum threshold.

The paper runs 60 Compound TCP flows; this runs 60 Reno flows (Compound is added by another
branch) for 60 s instead of 500 s, on the dumbbell of examples/seed000-fig6-rtt200.toml
(100 Mb/s, 2084-packet buffer, 2 Mb/s access links, RTT 200 ms).
"""

import aqmlab
import numpy as np
from scenarios import aqm_dumbbell, starts_within

#: The dumbbell of examples/seed000-fig6-rtt200.toml.
FIG6_PATH = {"rate": "100Mbps", "delay": "2ms", "rtt": "200ms", "access_rate": "2Mbps"}


def _run(queue):
    scenario = aqm_dumbbell(
        queue,
        flows=60,
        duration="60s",
        **FIG6_PATH,
        tcp={"cc": "reno", "packet_size": "1500B"},
        start=starts_within("10s"),
    )
    return aqmlab.simulate(scenario, seed=1)


def test_threshold_policy_holds_the_queue_below_q_th_where_red_overshoots():
    threshold = _run({"kind": "threshold", "limit": "2084p", "q_th": 15})
    red = _run({"kind": "red", "limit": "2084p", "min_th": 8, "max_th": 15, "max_p": 0.1, "q_weight": -1})
    q_threshold = threshold.link_samples()["queue_packets"]
    q_red = red.link_samples()["queue_packets"]
    # Deterministic dropping: an arrival is admitted only below q_th, so at most 15 packets.
    assert q_threshold.max() <= 15
    assert q_threshold.max() == 15  # and the threshold is actually reached
    # RED averages, so bursts pass its maximum threshold (the paper: up to 60 packets).
    assert q_red.max() > 30
    assert np.mean(q_red[red.link_samples()["time_s"] > 10] > 15) > 0.02
    s_threshold, s_red = threshold.summary(), red.summary()
    # Measured (seed 1): utilisation 0.989 vs 0.832 (paper: RED's drops to 38 %, threshold's to 79 %).
    assert s_threshold["utilisation_mean"] > s_red["utilisation_mean"]
    assert s_threshold["utilisation_min"] > s_red["utilisation_min"]
