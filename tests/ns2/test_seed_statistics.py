"""benchmarks/ns2/seed_statistics.py: the pooled queue -> loss fit tells a loss that follows the
queue (same curve in both simulators) from one that differs at equal queue, and the spread
tests see a shift of the whole per-seed distribution."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))

# imports below need the sys.path entry above
from seed_statistics import loss_at_equal_queue, spread  # noqa: E402


def entry(aqmlab_queue, ns2_queue, loss_of, aqmlab_factor=1.0) -> dict:
    """Per-seed records: loss = loss_of(queue mean), aqmlab's times `aqmlab_factor`."""

    def record(queue: float, factor: float) -> dict:
        return {
            "queue_mean_packets": queue,
            "queue_std_packets": 2 * queue,
            "loss_percent": factor * loss_of(queue),
            "goodput_mbps": 90.0,
            "timeouts_per_flow": 30.0,
        }

    return {
        "per_seed": [
            {"aqmlab": record(a, aqmlab_factor), "ns2": record(n, 1.0)}
            for a, n in zip(aqmlab_queue, ns2_queue, strict=True)
        ]
    }


RNG = np.random.default_rng(7)
NS2_QUEUE = 65 + RNG.normal(0, 3, 10)
AQMLAB_QUEUE = 72 + RNG.normal(0, 3, 10)


def steep(queue: float) -> float:
    return 0.1 * math.exp(0.09 * (queue - 65)) * (1 + 0.05 * math.sin(queue))


def test_a_loss_on_the_same_curve_is_the_queue_seen_through_it():
    result = loss_at_equal_queue(entry(AQMLAB_QUEUE, NS2_QUEUE, steep))
    assert result["aqmlab_loss"] > 1.5 * result["ns2_loss"], result
    assert result["ci_low"] < 1.0 < result["ci_high"], result
    assert abs(result["aqmlab_over_ns2_at_equal_queue"] - 1.0) < 0.1, result
    assert abs(result["ns2_fit_predicts_aqmlab_loss"] / result["aqmlab_loss"] - 1) < 0.1, result


def test_a_loss_twice_as_high_at_equal_queue_is_found():
    result = loss_at_equal_queue(entry(NS2_QUEUE + 1, NS2_QUEUE, steep, aqmlab_factor=2.0))
    assert 1.8 < result["aqmlab_over_ns2_at_equal_queue"] < 2.2, result
    assert result["ci_low"] > 1.0 and result["p_simulator"] < 0.01, result


def test_spread_sees_a_shifted_distribution_and_not_an_equal_one():
    shifted = spread(entry(NS2_QUEUE + 30, NS2_QUEUE, steep), resamples=2000)
    assert shifted["queue_mean_packets"]["mann_whitney_p"] < 0.01
    same = spread(entry(NS2_QUEUE, NS2_QUEUE, steep), resamples=2000)
    assert same["queue_mean_packets"]["mann_whitney_p"] > 0.5
    assert 0 < same["loss_percent"]["ns2_relative_se"] < 1
