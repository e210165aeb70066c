"""PFTK, queue law, control laws, equilibrium, the RTT map, the configuration program."""

import math

import numpy as np
import pytest
from aqmlab.design import (
    QueueLaw,
    Range,
    TcpModel,
    equilibrium,
    gentle_red,
    operating_points,
    p_for,
    period,
    recommended,
    red,
    red_config,
    rtt_for,
    rtt_map,
    throughput,
)
from aqmlab.design.buffers import (
    bandwidth_delay_product,
    gaussian_stability_bound,
    largest_stable_threshold,
    mm1_stability,
    stanford_buffer,
)


def test_pftk_matches_a_hand_computed_case():
    # p = 0.01, R = 0.1 s, b = 1, M = 1500 B, T0 = 1 s, unlimited window:
    # W = 1 + sqrt(8 * 0.99 / 0.03 + 1) = 1 + sqrt(265) = 17.278820596
    # Q = min(1, (1 - 0.99^3)(1 + 0.99^3 (1 - 0.99^14.2788)) / (1 - 0.99^17.2788)) = 0.21047907
    # F = 1.0102040816 (1 + p + 2p^2 + ... + 32p^6)
    # packets per cycle = 99 + W/2 + Q = 107.849889
    # cycle = 0.1 (W/2 + 1) + Q F T0 / 0.99 = 0.963941 + 0.214775 = 1.178716 s
    # T = 12000 bits x 107.849889 / 1.178716 s = 1 097 973.66 b/s
    model = TcpModel(packet_bytes=1500, b=1, t0=1.0)
    window = 1 + math.sqrt(265)
    q = (1 - 0.99**3) * (1 + 0.99**3 * (1 - 0.99 ** (window - 3))) / (1 - 0.99**window)
    f = 1 + 0.01 + 2e-4 + 4e-6 + 8e-8 + 16e-10 + 32e-12
    expected = 12000 * (99 + window / 2 + q) / (0.1 * (window / 2 + 1) + q * f / 0.99)
    assert float(throughput(0.01, 0.1, model)) == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(1_097_973.66, rel=1e-8)
    assert float(period(0.01, 0.1, model)) == pytest.approx(0.1 * (window / 2 + 1) + q * f / 0.99, rel=1e-12)


def test_pftk_window_limited_branch():
    # W_max = 10 < E[W] = 17.28: R(W_max/8 + (1-p)/(p W_max) + 2) = 0.1 (1.25 + 9.9 + 2) = 1.315 s per cycle.
    model = TcpModel(packet_bytes=1500, b=1, t0=1.0, w_max=10)
    q = (1 - 0.99**3) * (1 + 0.99**3 * (1 - 0.99**7)) / (1 - 0.99**10)
    f = 1.0102040816
    expected = 12000 * (99 + 5 + min(1.0, q)) / (1.315 + min(1.0, q) * f / 0.99)
    assert float(throughput(0.01, 0.1, model)) == pytest.approx(expected, rel=1e-9)
    assert float(throughput(0.01, 0.1, model)) < float(throughput(0.01, 0.1, TcpModel(t0=1.0)))


@pytest.mark.parametrize("model", [TcpModel(), TcpModel(packet_bytes=500, b=2, t0=0.5), TcpModel(w_max=20)])
def test_inverses_round_trip(model):
    for p in np.geomspace(1e-5, 0.5, 9):
        for rtt in (0.005, 0.1, 0.7):
            rate = float(throughput(p, rtt, model))
            assert rtt_for(p, rate, model) == pytest.approx(rtt, rel=1e-9)
            assert p_for(rate, rtt, model) == pytest.approx(p, rel=1e-9)


def test_no_inverse_is_a_clear_error():
    with pytest.raises(ValueError, match="no drop probability"):
        p_for(1e12, 0.1)
    with pytest.raises(ValueError, match="no RTT gives"):
        rtt_for(0.3, 1e9, TcpModel(t0=1.0))
    with pytest.raises(ValueError, match=r"p must lie in \(0, 1\)"):
        throughput(0.0, 0.1)


def test_queue_law_shape():
    law = QueueLaw(1.5e6, 10, 0.1, 75, TcpModel(packet_bytes=500))
    p0 = law.p0()
    assert law.queue(p0 * 1.01)[0] == 0 and law.utilisation(p0 * 2)[0] < 1
    queue = law.queue(np.geomspace(1e-4, p0, 20))
    assert np.all(np.diff(queue) <= 1e-9) and queue[0] == 75  # falls with p, capped at B
    assert law.queue(law.inverse(30.0))[0] == pytest.approx(30.0, rel=1e-6)


def test_equilibrium_on_the_linear_part_and_on_the_jump():
    law = QueueLaw(1.5e6, 10, 0.1, 75, TcpModel(packet_bytes=500))
    point = equilibrium(law, red(12.5, 37.5, 0.1))
    assert not point.on_discontinuity and 12.5 < point.average_queue < 37.5
    assert law.queue(point.drop_probability)[0] == pytest.approx(point.average_queue, rel=1e-6)
    crowded = QueueLaw(1.5e6, 60, 0.1, 75, TcpModel(packet_bytes=500))
    beyond = equilibrium(crowded, red(12.5, 37.5, 0.1))
    assert beyond.on_discontinuity and beyond.drop_probability > 0.1
    smooth = equilibrium(crowded, recommended(12.5, 37.5, 0.1, 75))
    assert not smooth.on_discontinuity and smooth.average_queue > 37.5


def test_rtt_map_converges_or_oscillates_between_empty_and_full():
    law = QueueLaw(1.5e6, 10, 0.1, 75, TcpModel(packet_bytes=500))
    assert rtt_map(law, red(12.5, 37.5, 0.1), weight=0.02).converges
    crowded = QueueLaw(1.5e6, 60, 0.1, 75, TcpModel(packet_bytes=500))
    trace = rtt_map(crowded, red(12.5, 37.5, 0.1), weight=0.07)
    assert not trace.converges and trace.queue[-100:].min() == 0 and trace.queue[-100:].max() > 0.8 * 75
    assert rtt_map(crowded, gentle_red(12.5, 37.5, 0.1), weight=0.02).converges


def test_red_config_policies():
    drop = red_config(
        45e6, per_flow_bps=Range(100e3, 1e6), packet_bytes=Range(500, 1500), rtt_s=Range(0.05, 0.2), max_p=0.1
    )
    assert drop.max_th == pytest.approx(1.2 * drop.queue_law_max.queue(0.1)[0], rel=1e-9)
    assert drop.min_th == pytest.approx(drop.max_th / 3) and drop.buffer_packets == pytest.approx(2 * drop.max_th)
    assert drop.weight_per_sample == pytest.approx(1 - 0.1 ** (0.05 / drop.averaging_interval_s))
    points = operating_points(drop)
    assert points["G_max"][1] <= drop.max_th and points["G_min"][1] >= drop.min_th * 0.9
    delay = red_config(
        45e6, flows=Range(45, 450), rtt_s=Range(0.05, 0.2), policy="delay-conservative", max_delay_s=0.02
    )
    assert delay.max_th == pytest.approx(0.02 * 45e6 / 12000)
    assert delay.max_p == pytest.approx(1.2 * delay.queue_law_max.inverse(delay.max_th), rel=1e-9)
    assert 'kind = "red"' in delay.toml() and "gentle = true" in delay.toml()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_p": 0.0}, r"max_p in \(0, 1\]"),
        ({"max_p": 1.5}, r"max_p in \(0, 1\]"),
        ({"policy": "delay-conservative", "max_delay_s": 1e-5}, "shorter than one packet time"),
        ({"policy": "greedy", "max_p": 0.1}, "allowed: 'drop-conservative'"),
    ],
)
def test_red_config_rejects_bad_inputs(kwargs, message):
    with pytest.raises(ValueError, match=message):
        red_config(45e6, flows=Range(10, 100), rtt_s=Range(0.05, 0.1), **kwargs)
    with pytest.raises(ValueError, match="low <= high"):
        Range(0.2, 0.1)


def test_buffer_sizing():
    assert math.ceil(bandwidth_delay_product(100e6, 0.25)) == 2084  # seed 000's buffer: 2084 packets (C·RTT)
    assert stanford_buffer(100e6, 0.25, 100) == pytest.approx(208.333, rel=1e-4)
    # seed 004: the larger B, the closer to the Hopf boundary kappa tau p (1 + B) = pi/2.
    margins = [mm1_stability(1.0, 0.1, 0.9, 1.0, b) for b in (1, 10, 100)]
    assert margins == sorted(margins)
    bound = largest_stable_threshold(1.0, 0.1, 2.0)
    assert gaussian_stability_bound(1.0, 0.1, bound, 2.0) == pytest.approx(math.pi / 2)
