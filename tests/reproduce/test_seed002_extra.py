"""Seed 002 Section V-A's REDvq chain and Section V-D's γ threshold (seed002_analysis.py)."""

import pytest
from aqmlab.reproduce.seed002_analysis import (
    ered_gain_from,
    gamma_threshold,
    red_span_needed,
    red_thresholds,
    redvq_chain,
    slope_bound,
)

PACKETS_PER_S_1GBPS = 1e9 / (8 * 1040)


def test_the_printed_chain_from_27000_packets():
    # Section V-A: b̃* ≈ 27 000, p_min 0.0005, α = 1 → p* = 0.0442, bound 7.36e-6, span 13 584;
    # RED's (60, 180) spans 120, the 120-fold thresholds 14 400. κ = α/(C · 50 ms) (docs/queues/ered.md).
    chain = redvq_chain(1.0 / (PACKETS_PER_S_1GBPS * 0.05))
    assert round(chain["p_star"], 4) == 0.0442
    assert float(f"{chain['slope_bound']:.3g}") == 7.36e-6
    assert round(chain["red_span_needed"]) == 13584
    assert chain["red_span"] == 120 and chain["red_span_120"] == 14400 > 13584


def test_the_printed_pair_pins_the_gain():
    # κ through (27 000, 0.0442) from p_min 0.0005 and b_min 60: 1/κ ≈ C · 50 ms (within the
    # rounding of 27 000 and 0.0442).
    kappa = ered_gain_from(0.0442, 27_000, 0.0005, 60)
    assert 1 / (kappa * PACKETS_PER_S_1GBPS) == pytest.approx(0.05, rel=0.005)


def test_literal_alpha_over_c_cannot_give_the_printed_probability():
    # κ = α/C taken literally: p* stays at 0.0006 at 27 000 packets, far from 0.0442.
    assert redvq_chain(1.0 / PACKETS_PER_S_1GBPS)["p_star"] < 0.001


def test_thresholds_and_bounds():
    assert red_thresholds(300) == (60, 180)
    assert red_thresholds(300, 120) == (7200, 21600)
    assert red_span_needed(slope_bound(1e-4, 0.05)) == pytest.approx(0.1 / 5e-6)
    with pytest.raises(ValueError, match="bound"):
        red_span_needed(0.0)
    with pytest.raises(ValueError, match="p_star"):
        ered_gain_from(0.0001, 27_000, 0.0005, 60)


def test_gamma_threshold_is_the_end_of_the_stable_prefix():
    assert gamma_threshold({0.90: True, 0.91: True, 0.92: False, 0.93: True}) == 0.91
    assert gamma_threshold({0.90: True, 0.95: True}) == 0.95
    assert gamma_threshold({0.90: False, 0.95: True}) is None
