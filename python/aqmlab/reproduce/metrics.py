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
