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
    share = power[max(peak - 1, 0): peak + 2].sum() / power.sum()
    return float(share), float(frequencies[peak])


def autocorrelation_period(signal: np.ndarray, interval_s: float) -> tuple[float, float]:
    """Period of the signal from its autocorrelation: the lag of the highest autocorrelation
    peak after the first zero crossing, in seconds, and the autocorrelation there (near 1 for
    a regular cycle, near 0 for noise). (nan, 0) when the autocorrelation never crosses zero
    or has no peak after it (a trend, or a period longer than half the signal)."""
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
    tail = acf[negative[0]:]
    peaks = np.nonzero((tail[1:-1] > tail[:-2]) & (tail[1:-1] >= tail[2:]))[0] + 1
    if peaks.size == 0:
        return float("nan"), 0.0
    best = peaks[np.argmax(tail[peaks])]
    return float((negative[0] + best) * interval_s), float(tail[best])
