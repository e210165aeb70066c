"""Seed 003 Section IV: averaging interval and weight (eqs. (11), (12)) and the sampled EWMA."""

import math

import numpy as np
import pytest
from aqmlab.design.averaging import averaging_interval, averaging_weight, sampled_average, significant_samples


def test_eq11_with_the_papers_weight_and_threshold():
    # Section II-D's w = 0.002 (Floyd and Jacobson) and Section IV-A's a = 0.1:
    # m = ln 0.1 / ln 0.998 = -2.302585093 / -0.002002002670 = 1150.14 samples.
    assert significant_samples(0.002, 0.1) == pytest.approx(1150.14, abs=0.01)
    # Sampled every 10 ms, those samples span I = 11.50 s (eq. (11)).
    assert averaging_interval(0.002, 0.01, 0.1) == pytest.approx(11.5014, abs=1e-4)


@pytest.mark.parametrize("interval, sampling", [(1.2, 0.1), (0.35, 0.001), (40.0, 0.2)])
def test_eq12_inverts_eq11(interval, sampling):
    weight = averaging_weight(interval, sampling)
    assert averaging_interval(weight, sampling) == pytest.approx(interval, rel=1e-12)
    # After I seconds of samples, the samples older than I weigh (1 - w)^(I/δ) = a in total.
    assert (1 - weight) ** (interval / sampling) == pytest.approx(0.1, rel=1e-12)


def test_sampled_average_of_a_step_reaches_one_minus_a_after_one_interval():
    time_s = np.arange(0.0, 20.0, 0.001)
    queue = np.where(time_s < 5.0, 0.0, 10.0)
    instants, average = sampled_average(time_s, queue, sampling_s=0.1, interval_s=2.0)
    assert instants[1] - instants[0] == pytest.approx(0.1)
    # Samples at 5.0, 5.1, ..., 6.9 s are the first 20 = I/δ samples of the new level.
    after = np.searchsorted(instants, 6.9 + 1e-9) - 1
    assert average[after] == pytest.approx(10.0 * (1 - 0.1), rel=1e-9)
    assert np.all(average[instants < 5.0 - 1e-9] == 0.0)


def test_sampled_average_holds_a_constant_and_uses_the_last_value_before_each_instant():
    instants, average = sampled_average(
        np.array([0.0, 0.25, 1.0]), np.array([3.0, 3.0, 3.0]), sampling_s=0.1, interval_s=1
    )
    assert len(instants) == 11 and np.all(average == 3.0)
    instants, average = sampled_average(np.array([0.0, 0.25]), np.array([0.0, 8.0]), sampling_s=0.1, interval_s=1e9)
    assert list(np.round(instants, 9)) == [0.0, 0.1, 0.2]
    assert math.isclose(average[-1], 0.0, abs_tol=1e-6)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: significant_samples(0.0), "weight = 0.0; allowed: 0 < w < 1"),
        (lambda: significant_samples(0.5, 1.0), "negligible = 1.0"),
        (lambda: averaging_weight(0.0, 0.1), "interval_s = 0.0; allowed: > 0"),
        (lambda: averaging_interval(0.1, -1.0), "sampling_s = -1.0; allowed: > 0"),
        (
            lambda: sampled_average(np.array([1.0, 0.0]), np.array([1.0, 2.0]), sampling_s=1, interval_s=1),
            "non-decreasing",
        ),
        (lambda: sampled_average(np.array([]), np.array([]), sampling_s=1, interval_s=1), "same, non-zero length"),
    ],
)
def test_bad_input_names_the_field(call, message):
    with pytest.raises(ValueError, match=message):
        call()
