"""The measures seed 003's reproductions judge by, on synthetic traces with known answers."""

import numpy as np
import pytest
from aqmlab.reproduce.seed003_measures import (
    average_deviation,
    crossings_per_second,
    full_swings,
    loss_period,
    share_between,
    swing_trend,
    window_extremes,
)

TIME = np.arange(0.0, 40.0, 0.01)


def sawtooth(period_s: float, low: float, high: float) -> np.ndarray:
    return low + (high - low) * ((TIME / period_s) % 1.0)


def test_full_swings_counts_windows_that_go_from_empty_to_full():
    # Sampled every 10 ms, a 0.7 s sawtooth from 0 to 75 peaks at 73.9: within 3.75 packets (5 % of B).
    assert full_swings(TIME, sawtooth(0.7, 0.0, 75.0), 75, slack_packets=3.75) == 1.0
    assert full_swings(TIME, sawtooth(0.7, 0.0, 75.0), 75, slack_packets=1.0) == 0.0
    # A sawtooth between 10 and 65 packets never empties: no window counts.
    assert full_swings(TIME, sawtooth(0.7, 10.0, 65.0), 75, slack_packets=3.75) == 0.0
    # Full only in the first half of the run: half the windows.
    half = np.where(TIME < 20.0, sawtooth(0.7, 0.0, 75.0), sawtooth(0.7, 0.0, 40.0))
    # 19 complete 2 s windows (the trace ends at 39.99 s), the first 10 of them in the first half.
    assert full_swings(TIME, half, 75, slack_packets=3.75) == pytest.approx(10 / 19)
    with pytest.raises(ValueError, match="shorter than one window"):
        full_swings(TIME[:50], sawtooth(0.7, 0, 75)[:50], 75)


def test_swing_trend_sees_a_decaying_oscillation():
    steady = sawtooth(0.7, 0.0, 75.0)
    assert swing_trend(TIME, steady) == pytest.approx(1.0, abs=0.02)
    decaying = 37.5 + 37.5 * np.exp(-TIME / 10.0) * np.sin(2 * np.pi * TIME / 0.7)
    assert swing_trend(TIME, decaying) < 0.1


def test_share_between_and_crossings():
    values = np.array([10.0, 20.0, 30.0, 40.0])
    assert share_between(values, 12.5, 37.5) == 0.5
    wave = 37.5 + 5 * np.sin(2 * np.pi * TIME / 2.0)  # crosses 37.5 upwards once per 2 s
    assert crossings_per_second(TIME, wave, 37.5) == pytest.approx(0.5, abs=0.03)


def test_average_deviation_shrinks_with_the_interval():
    queue = sawtooth(1.0, 10.0, 30.0)  # mean 20, period P = 1 s
    short = average_deviation(TIME, queue, sampling_s=0.01, interval_s=0.1)
    matched = average_deviation(TIME, queue, sampling_s=0.01, interval_s=1.0)
    long = average_deviation(TIME, queue, sampling_s=0.01, interval_s=4.0)
    assert short > matched > long
    # The unaveraged sawtooth deviates by (30 - 10) / sqrt(12) / 20 = 0.289 of its mean.
    assert short < 0.289 and short > 0.2
    with pytest.raises(ValueError, match="shorter than the averaging interval"):
        average_deviation(TIME[:100], queue[:100], sampling_s=0.01, interval_s=5.0)


def test_loss_period():
    assert loss_period(np.array([3, 5]), np.array([1, 1]), np.array([50.0, 50.0])) == pytest.approx(10.0)
    with pytest.raises(ValueError, match="no loss indications"):
        loss_period(np.array([0]), np.array([0]), np.array([5.0]))


def test_window_extremes_are_the_typical_cycle_ends():
    low, high = window_extremes(TIME, sawtooth(0.7, 8.0, 66.0))
    assert low == pytest.approx(8.0, abs=0.1) and high == pytest.approx(66.0, abs=1.0)
