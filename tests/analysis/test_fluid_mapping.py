"""The packet-to-fluid parameter mapping and the autocorrelation period (issue 9 item 4)."""

import math

import numpy as np
import pytest
from aqmlab.analysis.fluid_mapping import fluid_parameters, red_weight
from aqmlab.analysis.metrics import autocorrelation_period


def test_ns2_automatic_weight_matches_the_formula_and_the_engine_test_values():
    # 100 Mb/s, 1500 B: ptc = 8333.3 packets/s; delay 2 ms gives rtt = max(3 (0.002 + 1/ptc), 0.1) = 0.1 s.
    assert red_weight(-1.0, 100e6, 1500, 0.002) == pytest.approx(
        1 - math.exp(-1 / (10 * 0.1 * 100e6 / 12000)), rel=1e-12
    )
    # a long link delay lifts the rtt above the 0.1 s floor: 3 (0.1 + 1.2e-4) = 0.30036 s
    assert red_weight(-1.0, 100e6, 1500, 0.1) == pytest.approx(
        1 - math.exp(-1 / (10 * 0.30036 * 100e6 / 12000)), rel=1e-12
    )
    assert red_weight(0.0, 100e6, 1500, 0.0) == pytest.approx(1 - math.exp(-12000 / 100e6), rel=1e-12)
    assert red_weight(0.002, 1e6, 1500, 0.0) == 0.002
    with pytest.raises(ValueError, match="q_weight = -3"):
        red_weight(-3.0, 1e6, 1500, 0.0)


def test_seed000_section_v_maps_to_per_flow_parameters():
    params = fluid_parameters(
        flows=60,
        rate_bps=100e6,
        packet_bytes=1500,
        min_th=50,
        max_th=100,
        max_p=0.1,
        buffer_packets=2084,
        q_weight=-1,
        link_delay_s=0.002,
        tau_s=0.1,
    )
    assert params["C"] == pytest.approx(100e6 / 12000 / 60)  # 138.9 packets/s per flow
    assert params["b_min"] == pytest.approx(50 / 60) and params["b_max"] == pytest.approx(100 / 60)
    assert params["buffer"] == pytest.approx(2084 / 60)
    # ns-2's q_weight = -1 averages with a time constant of 10 × 0.1 s: K = 1/s, so γ C̃ = 1.
    assert params["gamma"] * params["C"] == pytest.approx(1.0, rel=1e-6)
    assert params["tau"] == 0.1 and params["p_max"] == 0.1


def test_autocorrelation_finds_the_period_of_a_noisy_cycle_and_not_of_noise():
    rng = np.random.default_rng(3)
    t = np.arange(0.0, 400.0, 0.01)
    period, peak = autocorrelation_period(np.sin(2 * np.pi * t / 7.3) + 0.5 * rng.normal(size=t.size), 0.01)
    assert period == pytest.approx(7.3, rel=0.02) and peak > 0.5
    _, noise_peak = autocorrelation_period(rng.normal(size=t.size), 0.01)
    assert noise_peak < 0.1
    assert math.isnan(autocorrelation_period(t, 0.01)[0])  # a trend: no zero crossing in the first half
