"""The estimator of the average queue (seed 003 Section IV): averaging interval and weight
(eqs. (11), (12)), the TCP period that sets the interval (eq. (13), `pftk.period`), and an
exponentially weighted moving average sampled every δ seconds, to apply to a queue trace.

Section IV-A: with samples every δ seconds and weight w, a sample m samples old weighs
(1 − w)^m; below a threshold a it is negligible, so m = ln a / ln(1 − w) samples are
significant and the averaging interval is I = m δ (eq. (11)); conversely w = 1 − a^(δ/I)
(eq. (12)). Section IV-B recommends I = P, the mean TCP period E[S] (eq. (13)); Section
IV-C recommends sampling once per round-trip time, δ = R_o,min.
"""

from __future__ import annotations

import math

import numpy as np

#: Section IV-A's example threshold below which a sample's weight is negligible.
NEGLIGIBLE_WEIGHT = 0.1


def significant_samples(weight: float, negligible: float = NEGLIGIBLE_WEIGHT) -> float:
    """m = ln a / ln(1 − w): the number of samples whose weight is at least a (Section IV-A)."""
    _check_weight(weight)
    _check_negligible(negligible)
    return math.log(negligible) / math.log1p(-weight)


def averaging_interval(weight: float, sampling_s: float, negligible: float = NEGLIGIBLE_WEIGHT) -> float:
    """I = δ ln a / ln(1 − w), s (seed 003 eq. (11))."""
    _check_positive("sampling_s", sampling_s)
    return sampling_s * significant_samples(weight, negligible)


def averaging_weight(interval_s: float, sampling_s: float, negligible: float = NEGLIGIBLE_WEIGHT) -> float:
    """w = 1 − a^(δ/I) (seed 003 eq. (12))."""
    _check_positive("interval_s", interval_s)
    _check_positive("sampling_s", sampling_s)
    _check_negligible(negligible)
    return 1.0 - negligible ** (sampling_s / interval_s)


def sampled_average(
    time_s: np.ndarray,
    queue: np.ndarray,
    *,
    sampling_s: float,
    interval_s: float,
    negligible: float = NEGLIGIBLE_WEIGHT,
) -> tuple[np.ndarray, np.ndarray]:
    """Sample `queue` (given at increasing `time_s`) every `sampling_s` seconds (the last value
    at or before each sampling instant) and average the samples with q̄_{k+1} = w q_k +
    (1 − w) q̄_k (Section IV-A), w from eq. (12). The average starts at the first sample.
    Returns the sampling instants and the average after each sample."""
    time_s, queue = np.asarray(time_s, dtype=float), np.asarray(queue, dtype=float)
    if time_s.ndim != 1 or time_s.shape != queue.shape or time_s.size == 0:
        raise ValueError("time_s and queue must be one-dimensional arrays of the same, non-zero length")
    if np.any(np.diff(time_s) < 0):
        raise ValueError("time_s must be non-decreasing")
    weight = averaging_weight(interval_s, sampling_s, negligible)
    instants = np.arange(time_s[0], time_s[-1] + 1e-12, sampling_s)
    samples = queue[np.searchsorted(time_s, instants, side="right") - 1]
    average = np.empty_like(samples)
    value = samples[0]
    for k, sample in enumerate(samples):
        value = weight * sample + (1.0 - weight) * value
        average[k] = value
    return instants, average


def _check_weight(weight: float) -> None:
    if not 0.0 < weight < 1.0:
        raise ValueError(f"weight = {weight}; allowed: 0 < w < 1")


def _check_negligible(negligible: float) -> None:
    if not 0.0 < negligible < 1.0:
        raise ValueError(f"negligible = {negligible}; allowed: 0 < a < 1")


def _check_positive(name: str, value: float) -> None:
    if not value > 0:
        raise ValueError(f"{name} = {value}; allowed: > 0")
