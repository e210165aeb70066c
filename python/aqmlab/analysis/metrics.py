"""Measures used to compare packet-level traces with the papers' qualitative statements."""

from __future__ import annotations

import numpy as np
from scipy.signal import periodogram


def oscillation_share(signal: np.ndarray, interval_s: float) -> tuple[float, float]:
    """Share of the signal's variance in its strongest frequency (± one bin), and that
    frequency in Hz. A limit cycle concentrates the variance in one peak (share near 1); a
    queue varying randomly spreads it (share near 0)."""
    values = np.asarray(signal, dtype=float)
    values = values[np.isfinite(values)]
    if values.size < 16 or np.ptp(values) == 0:
        return 0.0, float("nan")
    frequencies, power = periodogram(values - values.mean(), fs=1.0 / interval_s)
    frequencies, power = frequencies[1:], power[1:]
    peak = int(np.argmax(power))
    share = power[max(peak - 1, 0) : peak + 2].sum() / power.sum()
    return float(share), float(frequencies[peak])


def autocorrelation_period(signal: np.ndarray, interval_s: float) -> tuple[float, float]:
    """Period of the signal from its autocorrelation: after the first zero crossing, the
    maximum of the first positive lobe that reaches 80 % of the highest autocorrelation there
    (so a cycle is not mistaken for its multiple when the estimate's peaks differ a little),
    in seconds, and the autocorrelation at that lag (near 1 for a regular cycle, near 0 for
    noise). (nan, 0) when the autocorrelation never crosses zero or has no positive peak after
    it (a trend, a period longer than half the signal, or noise)."""
    values = np.asarray(signal, dtype=float)
    values = values[np.isfinite(values)] - np.nanmean(values)
    if values.size < 16 or not np.any(values):
        return float("nan"), 0.0
    size = 1 << int(np.ceil(np.log2(2 * values.size)))  # zero-padded FFT: linear, not circular, correlation
    spectrum = np.fft.rfft(values, size)
    acf = np.fft.irfft(spectrum * np.conj(spectrum), size)[: values.size // 2]
    acf /= acf[0]
    negative = np.nonzero(acf < 0)[0]
    if negative.size == 0:
        return float("nan"), 0.0
    tail = acf[negative[0] :]
    peaks = np.nonzero((tail[1:-1] > tail[:-2]) & (tail[1:-1] >= tail[2:]))[0] + 1
    if peaks.size == 0 or tail[peaks].max() <= 0:  # no positive lobe after the first zero crossing
        return float("nan"), 0.0
    start = int(np.argmax(tail >= 0.8 * tail[peaks].max()))
    below = np.nonzero(tail[start:] < 0)[0]
    lobe = tail[start : start + below[0]] if below.size else tail[start:]
    best = start + int(np.argmax(lobe))
    return float((negative[0] + best) * interval_s), float(tail[best])
