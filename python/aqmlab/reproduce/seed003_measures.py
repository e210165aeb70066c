"""Quantities that seed 003's statements are judged by, as plain functions of a run's traces
(used by `seed003*.py`; tested in tests/reproduce/test_seed003_measures.py).

- Fig. 13, "the queue size oscillates between 0 and full buffer size B, and the oscillations
  do not decrease over time": `full_swings` (the share of windows in which the queue goes
  from empty to full) and `swing_trend` (the range late in the run against early on).
- Fig. 10, "moderate variation around the equilibrium point": `share_between` (the share of
  RED's average between the thresholds, i.e. on the linear part of the control law).
- Fig. 12, the average "drops below q_max, the drop rate becomes less than 1, and the queue
  grows again": `crossings_per_second` of q_max by the average.
- Section IV-B, "if I = P the moving average is close to the long-term average":
  `average_deviation` of a sampled EWMA (`design.averaging.sampled_average`) from the mean.
- Section IV-B, eq. (13): `loss_period`, the measured mean time between a flow's loss
  indications (fast recoveries and timeouts) to compare with E[S].
"""

from __future__ import annotations

import numpy as np

from aqmlab.design.averaging import sampled_average


def _windows(time_s: np.ndarray, window_s: float) -> np.ndarray:
    if not window_s > 0:
        raise ValueError(f"window_s = {window_s}; allowed: > 0")
    return np.floor((time_s - time_s[0]) / window_s).astype(int)


def full_swings(
    time_s: np.ndarray, queue: np.ndarray, buffer_packets: float, *, window_s: float = 2.0, slack_packets: float = 1.0
) -> float:
    """Share of the complete `window_s` windows in which the queue is at most `slack_packets`
    (empty) at some sample and at least B − `slack_packets` (full) at another."""
    time_s, queue = np.asarray(time_s, dtype=float), np.asarray(queue, dtype=float)
    if time_s.size == 0:
        raise ValueError("an empty trace has no windows")
    bins = _windows(time_s, window_s)
    complete = [b for b in np.unique(bins) if time_s[0] + (b + 1) * window_s <= time_s[-1] + 1e-9]
    if not complete:
        raise ValueError(f"the trace ({time_s[-1] - time_s[0]:g} s) is shorter than one window ({window_s:g} s)")
    hits = [
        queue[bins == b].min() <= slack_packets and queue[bins == b].max() >= buffer_packets - slack_packets
        for b in complete
    ]
    return float(np.mean(hits))


def swing_trend(time_s: np.ndarray, queue: np.ndarray, *, window_s: float = 2.0) -> float:
    """Median range (max − min) of the queue over the windows of the last quarter of the trace
    divided by that over the first quarter: below 1 when the oscillation decays."""
    time_s, queue = np.asarray(time_s, dtype=float), np.asarray(queue, dtype=float)
    bins = _windows(time_s, window_s)
    ranges = np.array([np.ptp(queue[bins == b]) for b in np.unique(bins)])
    quarter = len(ranges) // 4
    if quarter < 1:
        raise ValueError(f"the trace needs at least 4 windows of {window_s:g} s")
    first = float(np.median(ranges[:quarter]))
    return float(np.median(ranges[-quarter:])) / first if first > 0 else float("inf")


def share_between(values: np.ndarray, low: float, high: float) -> float:
    """Share of `values` within [low, high]."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        raise ValueError("no values")
    return float(np.mean((values >= low) & (values <= high)))


def crossings_per_second(time_s: np.ndarray, values: np.ndarray, level: float) -> float:
    """Upward crossings of `level` per second."""
    time_s, values = np.asarray(time_s, dtype=float), np.asarray(values, dtype=float)
    span = time_s[-1] - time_s[0]
    if not span > 0:
        raise ValueError("the trace spans no time")
    above = values > level
    return float(np.count_nonzero(above[1:] & ~above[:-1]) / span)


def average_deviation(time_s: np.ndarray, queue: np.ndarray, *, sampling_s: float, interval_s: float) -> float:
    """Root-mean-square deviation of the sampled EWMA (interval I, sampling δ) from the trace's
    long-term mean, as a share of that mean; the first I seconds (the EWMA's start) are left out."""
    instants, average = sampled_average(time_s, queue, sampling_s=sampling_s, interval_s=interval_s)
    settled = instants >= instants[0] + interval_s
    if np.count_nonzero(settled) < 2:
        raise ValueError(f"the trace is shorter than the averaging interval ({interval_s:g} s) plus two samples")
    mean = float(np.mean(np.asarray(queue, dtype=float)))
    if not mean > 0:
        raise ValueError("the queue's long-term mean is zero")
    return float(np.sqrt(np.mean((average[settled] - mean) ** 2)) / mean)


def loss_period(fast_recoveries: np.ndarray, timeouts: np.ndarray, active_s: np.ndarray) -> float:
    """Mean time between a flow's loss indications, s: total active time over total loss
    indications (a fast recovery is a triple-duplicate indication; each timeout counts as one,
    so a backed-off sequence counts more than once and the period is a slight underestimate)."""
    events = float(np.sum(fast_recoveries) + np.sum(timeouts))
    if events == 0:
        raise ValueError("no loss indications: the period is unbounded")
    return float(np.sum(active_s)) / events


def window_extremes(time_s: np.ndarray, queue: np.ndarray, *, window_s: float = 2.0) -> tuple[float, float]:
    """Median over the `window_s` windows of the queue's smallest and of its largest value:
    where a typical cycle of the queue starts and ends."""
    time_s, queue = np.asarray(time_s, dtype=float), np.asarray(queue, dtype=float)
    if time_s.size == 0:
        raise ValueError("an empty trace has no windows")
    bins = _windows(time_s, window_s)
    keys = np.unique(bins)
    return (
        float(np.median([queue[bins == b].min() for b in keys])),
        float(np.median([queue[bins == b].max() for b in keys])),
    )
