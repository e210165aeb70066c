"""Seed 003's queue law and RED operating points against the packet engine."""

import numpy as np
import pytest
from aqmlab.design import QueueLaw, Range, equilibrium, recommended, red, red_config, rtt_map
from aqmlab.design.validation import bottleneck_scenario, engine_tcp, measure

RATE, RTT, PACKET = 1.5e6, 0.1, 500
BUFFER = round(2 * RATE * RTT / (8 * PACKET))  # B = 2 c R_o = 75 packets
#: Stated tolerance: the predicted average queue within 20 % of the buffer of the measured one.
TOLERANCE = 0.2 * BUFFER


@pytest.mark.parametrize("flows", [2, 5, 10, 30, 60, 120])  # c/n from 750 to 12.5 kb/s
def test_queue_law_predicts_the_average_queue_under_random_drop(flows):
    law = QueueLaw(RATE, flows, RTT, BUFFER, engine_tcp(PACKET))
    low, high = law.inverse(0.95 * BUFFER), law.p0()
    for p in np.geomspace(low, high, 4)[1:-1]:
        queue = {"kind": "random_drop", "limit": f"{BUFFER}p", "probability": float(p)}
        measured = measure(bottleneck_scenario(RATE, flows, queue), BUFFER)
        predicted = float(law.queue(p)[0])
        assert measured.utilisation > 0.98
        assert abs(measured.average_queue - predicted) < TOLERANCE, (p, measured.average_queue, predicted)


def test_red_operating_point_of_fig8_is_predicted():
    # seed 003 Fig. 8: p_max 0.1, q_min 12.5, q_max 37.5, B = 75, M = 500 B (10 flows here).
    law = QueueLaw(RATE, 10, RTT, BUFFER, engine_tcp(PACKET))
    point = equilibrium(law, red(12.5, 37.5, 0.1))
    queue = {
        "kind": "red",
        "limit": "75p",
        "min_th": 12.5,
        "max_th": 37.5,
        "max_p": 0.1,
        "q_weight": 0.002,
        "mean_packet_size": "500B",
        "gentle": False,  # the paper's H (eq. 10)
    }
    measured = measure(bottleneck_scenario(RATE, 10, queue), BUFFER)
    assert not point.on_discontinuity
    assert abs(measured.average_queue - point.average_queue) < TOLERANCE
    assert measured.drop_rate == pytest.approx(point.drop_probability, rel=0.3)
    assert measured.empty_fraction < 0.05 and measured.full_fraction < 0.05


def test_an_equilibrium_beyond_max_p_cannot_hold_on_the_linear_part():
    # seed 003 Fig. 11: with 60 flows the laws meet on RED's jump from p_max to 1.
    law = QueueLaw(RATE, 60, RTT, BUFFER, engine_tcp(PACKET))
    assert equilibrium(law, red(12.5, 37.5, 0.1)).on_discontinuity
    queue = {
        "kind": "red",
        "limit": "75p",
        "min_th": 12.5,
        "max_th": 37.5,
        "max_p": 0.1,
        "q_weight": 0.002,
        "mean_packet_size": "500B",
        "gentle": False,  # the paper's H with its jump at max_th (aqmlab's default is ns-2's gentle)
    }
    measured = measure(bottleneck_scenario(RATE, 60, queue), BUFFER)
    assert measured.drop_rate > 2 * 0.1  # forced drops: far beyond the control law's p_max
    # Figs. 12-13: the RTT map does not converge, and the engine's queue swings from near
    # empty to near full (a sawtooth: median range over 1 s windows at least 60 % of B).
    assert not rtt_map(law, red(12.5, 37.5, 0.1), 1 - (1 - 0.002) ** (RATE / (8 * PACKET) * RTT)).converges
    assert measured.swing >= 0.6
    # The recommended continuous law (linear from (37.5, 0.1) to (75, 1)) has an equilibrium
    # on its slope, and the engine settles there.
    smooth = equilibrium(law, recommended(12.5, 37.5, 0.1, BUFFER))
    gentle = dict(queue, gentle=True)
    settled = measure(bottleneck_scenario(RATE, 60, gentle), BUFFER)
    assert not smooth.on_discontinuity and smooth.average_queue > 37.5
    assert abs(settled.average_queue - smooth.average_queue) < TOLERANCE
    assert settled.swing <= 0.5 * measured.swing  # and most of the swing is gone


@pytest.mark.parametrize("policy", ["drop-conservative", "delay-conservative"])
def test_the_recommendation_holds_the_queue_near_its_design_point(policy):
    kwargs = {"max_p": 0.03} if policy == "drop-conservative" else {"max_delay_s": 0.15}
    advice = red_config(
        RATE,
        flows=Range(5, 20),
        packet_bytes=Range(PACKET, PACKET),
        rtt_s=Range(RTT, RTT),
        policy=policy,
        tcp=engine_tcp(PACKET),
        **kwargs,
    )
    advice_queue = dict(advice.queue_config(), mean_packet_size="500B")
    buffer = advice.buffer_packets
    for flows in (5, 20):  # the ends of the range
        law = QueueLaw(RATE, flows, RTT, buffer, engine_tcp(PACKET))
        point = equilibrium(law, recommended(advice.min_th, advice.max_th, advice.max_p, buffer))
        measured = measure(bottleneck_scenario(RATE, flows, advice_queue), buffer)
        assert abs(measured.average_queue - point.average_queue) < 0.2 * buffer
        assert measured.average_queue <= advice.max_th * 1.1
        assert measured.empty_fraction < 0.1 and measured.full_fraction < 0.05
