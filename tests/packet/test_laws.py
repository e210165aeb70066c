"""Packet-level runs against closed-form laws: Mathis et al. and RED's control law."""

import math

import aqmlab
import pytest
from scenarios import dumbbell

MSS_BYTES = 1460
RTT_S = 0.1


@pytest.mark.parametrize("loss", [0.001, 0.01, 0.03])
def test_reno_goodput_follows_the_mathis_square_root_law(loss):
    """Mathis, Semke, Mahdavi, Ott (CCR 1997) eq. (3): B = MSS/RTT * sqrt(3/(2p)).

    Losses come from the random-drop queue (seed 003 Section II-B) on an uncongested 1 Gb/s
    bottleneck, so the RTT stays at its 100 ms propagation delay. The law models fast
    recovery only; RFC 3042 Limited Transmit is on so that small windows (p = 0.03, W ~ 7)
    still get three duplicate ACKs. Without it, ns-2-style Reno times out on ~10 % of loss
    events at p = 0.03 and reaches 0.82 of the law (measured; see docs/packet.md).
    """
    scenario = dumbbell(
        flows=20,
        duration="300s",
        measure_start="50s",
        rate="1Gbps",
        delay="10ms",
        rtt="100ms",
        access_rate="1Gbps",
        queue={"kind": "random_drop", "limit": "100000p", "probability": loss},
        tcp={"cc": "reno", "limited_transmit": True},
        trace_flows=0,
    )
    scenario["topology"]["groups"][0]["access_queue"] = {"kind": "drop_tail", "limit": "100000p"}
    results = aqmlab.simulate(scenario, seed=1)
    samples = results.link_samples()
    window = samples["time_s"] > 50
    measured_loss = samples["drops"][window].sum() / samples["arrivals"][window].sum()
    assert measured_loss == pytest.approx(loss, rel=0.1)
    goodput = results.flows.column("goodput_bps").to_numpy().mean()
    mathis = MSS_BYTES * 8 / RTT_S * math.sqrt(3 / (2 * loss))
    assert goodput / mathis == pytest.approx(1.0, abs=0.15), f"goodput {goodput:.4g} b/s, law {mathis:.4g} b/s"


def spaced_drop_rate(p_b: float) -> float:
    """Drops per arrival of ns-2 RED with `wait` at a constant base probability p_b.

    ns-2 red.cc: p_a = 0 while count * p_b < 1, p_b / (2 - count * p_b) while it is below
    2, else 1 (count = arrivals since the last drop); the rate is 1 / E[gap].
    """
    survive, mean_gap, count = 1.0, 0.0, 1
    while survive > 1e-15:
        if count * p_b < 1:
            p = 0.0
        elif count * p_b < 2:
            p = p_b / (2 - count * p_b)
        else:
            p = 1.0
        mean_gap += count * survive * p
        survive *= 1 - p
        count += 1
    return 1 / mean_gap


@pytest.mark.parametrize("flows", [5, 10, 20, 30])
def test_red_drop_rate_follows_its_control_law(flows):
    """At several operating points (more flows, higher average queue), the early drops per
    arrival match H(avg) = max_p (avg - min_th) / (max_th - min_th) (seed 003 eq. (10);
    seed 000 eq. (6)) evaluated at the average of each 10 ms sample and spaced by `wait`."""
    min_th, max_th, max_p = 20.0, 80.0, 0.1
    scenario = dumbbell(
        flows=flows,
        duration="100s",
        measure_start="20s",
        rate="20Mbps",
        delay="5ms",
        rtt="20ms",
        access_rate="10Mbps",
        queue={"kind": "red", "limit": "400p", "min_th": min_th, "max_th": max_th, "max_p": max_p, "q_weight": 0.002},
        trace_flows=0,
    )
    results = aqmlab.simulate(scenario, seed=4)
    samples = results.link_samples()
    steady = samples["time_s"] > 20
    average = samples["average_queue"][steady]
    arrivals, drops = samples["arrivals"][steady], samples["drops"][steady]
    between = (average > min_th) & (average < max_th)
    assert between.mean() > 0.95, "the operating point must lie between the thresholds"
    expected = sum(
        spaced_drop_rate(max_p * (a - min_th) / (max_th - min_th)) * n
        for a, n in zip(average[between], arrivals[between], strict=True)
    )
    assert expected > 500
    assert drops[between].sum() == pytest.approx(expected, rel=0.1)
    # Below min_th RED never drops early (and this buffer never overflows).
    assert drops[average < min_th].sum() == 0
