"""Means and 95 % Student-t intervals over the seeds of a reproduction."""

from __future__ import annotations

import math
from typing import Any

from scipy.stats import t as student_t

#: Confidence level of the intervals shown and used for "marginal".
CONFIDENCE = 0.95


def confidence_interval(values: list[float]) -> tuple[float, float]:
    """The mean's 95 % Student-t interval; (mean, mean) for one value, (nan, nan) when a
    value is not finite."""
    n = len(values)
    if n == 0 or not all(math.isfinite(v) for v in values):
        return math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, mean
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = float(student_t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * std / math.sqrt(n)
    return mean - half, mean + half


def statistics(values: list[float]) -> dict[str, Any]:
    """Mean, 95 % interval, standard deviation, range and the values themselves."""
    n = len(values)
    finite = n > 0 and all(math.isfinite(v) for v in values)
    mean = sum(values) / n if finite else math.nan
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if finite and n > 1 else 0.0
    low, high = confidence_interval(values)
    return {
        "n": n,
        "mean": mean,
        "ci_low": low,
        "ci_high": high,
        "std": std if finite else math.nan,
        "min": min(values) if finite else math.nan,
        "max": max(values) if finite else math.nan,
        "values": list(values),
    }
