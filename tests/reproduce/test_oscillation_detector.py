"""The packet-chart oscillation detector validated on synthetic signals of known amplitude and
period before it decides anything (issue 26): per signal, the cut-offs of
`aqmlab.analysis.oscillation` classify sinusoids and full-band cycles as their
amplitude says, and the period is recovered."""

import math

import numpy as np
import pytest
from aqmlab.analysis.oscillation import CUTOFFS, classify, ewma, measure_signal

DT = 0.01  # the packet runs' trace interval, s
T = np.arange(0.0, 100.0, DT)
BAND = 50.0  # RED(50, 100)
Q_TH = 40.0


def red_average(amplitude: float, period: float, noise: float = 0.0, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return 75.0 + amplitude * np.sin(2 * np.pi * T / period) + noise * rng.standard_normal(T.size)


def smoothed_square(period: float, depth: float = 1.0) -> np.ndarray:
    """The threshold policy's queue alternately at q_th and at q_th(1 − depth), through the
    detector's 1 s EWMA."""
    queue = np.where(np.sin(2 * np.pi * T / period) >= 0, Q_TH, Q_TH * (1 - depth))
    return ewma(queue, DT, 1.0)


@pytest.mark.parametrize(
    ("amplitude", "expected"),
    [
        (0.1, "stable"),
        (0.25, "stable"),
        (0.35, "undecided"),
        (0.45, "undecided"),
        (0.52, "oscillating"),
        (1.0, "oscillating"),
    ],
)
def test_red_average_sinusoids_are_classified_by_their_amplitude(amplitude, expected):
    # a sinusoid's 5-95 % swing is 2 A sin(0.45 π) = 1.975 A: oscillating from A = 0.506 band, stable up to 0.253
    m = measure_signal(red_average(amplitude * BAND, 3.0, noise=0.5), BAND, DT, kind="red-average")
    assert m.relative_swing == pytest.approx(1.975 * amplitude, abs=0.03)
    assert m.verdict == expected


@pytest.mark.parametrize("period", [1.0, 3.0, 8.0])
def test_the_period_of_a_regular_cycle_is_recovered(period):
    m = measure_signal(red_average(0.8 * BAND, period, noise=2.0), BAND, DT)
    assert m.period_s == pytest.approx(period, rel=0.05)


@pytest.mark.parametrize(
    ("period", "depth", "expected"),
    [
        (10.0, 1.0, "oscillating"),  # the queue empties every 10 s: tanh(2.5) of the band
        (4.0, 1.0, "oscillating"),  # tanh(1) = 0.76
        (0.5, 1.0, "stable"),  # a fast flicker between empty and full: tanh(0.125) = 0.12
        (10.0, 0.2, "stable"),  # a slow cycle within the top fifth of the band
    ],
)
def test_threshold_policy_full_band_cycles_fire_and_flicker_does_not(period, depth, expected):
    m = measure_signal(smoothed_square(period, depth), Q_TH, DT, kind="smoothed-queue")
    assert m.verdict == expected, m.relative_swing
    if depth == 1.0 and period >= 4.0:
        assert m.relative_swing == pytest.approx(math.tanh(period / 4.0), abs=0.1)


def test_under_red_cut_offs_a_full_band_threshold_cycle_could_never_oscillate():
    """The defect issue 26 names: r ≥ 1 on the smoothed queue of the threshold policy."""
    m = measure_signal(smoothed_square(20.0), Q_TH, DT, kind="smoothed-queue")
    assert m.relative_swing < CUTOFFS["red-average"][1] and m.verdict == "oscillating"


def test_cut_offs_are_stated_per_signal_and_an_unknown_signal_is_named():
    assert CUTOFFS == {"red-average": (0.5, 1.0), "smoothed-queue": (0.25, 0.5)}
    with pytest.raises(ValueError, match="signal = 'queue'; allowed: red-average, smoothed-queue"):
        classify(0.7, "queue")
