"""benchmarks/ns2/referee/ered_excursions.py: b_max of seed 002's large-capacity E-RED queue from
docs/queues/ered.md's κ = α/(C·D), and a clear refusal of a run without an E-RED-iq bottleneck."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2" / "referee"))

# imports below need the sys.path entry above
from aqmlab.reproduce.seed002 import ered_queue, network  # noqa: E402
from ered_excursions import b_max_packets, excursions  # noqa: E402


@pytest.mark.parametrize(("delay_scale", "expected"), [("100ms", 63742), ("50ms", 31901)])
def test_b_max_of_the_large_capacity_queue(delay_scale, expected):
    queue = ered_queue(1e9, gamma=0.95, alpha=1.0, p_min=0.0005, p_max=0.1, delay_scale=delay_scale)
    capacity = 1e9 / (8 * 1040)
    assert b_max_packets(queue, 1e9, 1040) == pytest.approx(
        60 + math.log(200) * capacity * float(delay_scale[:-2]) / 1e3
    )
    assert round(b_max_packets(queue, 1e9, 1040)) == expected


def test_a_red_bottleneck_is_refused_naming_the_field():
    with pytest.raises(ValueError, match="topology.bottleneck.queue"):
        excursions(network("lc", "red", True))
