"""benchmarks/ns2/referee/triangular_rtts.py: a uniform-RTT group becomes 8 contiguous uniform
pieces holding the triangle's mass 1:3:5:7:7:5:3:1, the other fields kept; a count that does not
split so is refused naming the group."""

from __future__ import annotations

import sys
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2" / "referee"))

# imports below need the sys.path entry above
from triangular_rtts import triangular_groups  # noqa: E402


def group(count: int) -> dict:
    return {"name": "reno", "count": count, "rtt": {"kind": "uniform", "low": "24ms", "high": "100ms"}, "ecn": True}


def test_the_pieces_tile_the_range_with_the_triangles_mass():
    pieces = triangular_groups([group(2000)])
    assert [p["count"] for p in pieces] == [62, 188, 312, 438, 438, 312, 188, 62]
    assert pieces[0]["rtt"] == {"kind": "uniform", "low": "24ms", "high": "33.5ms"}
    assert pieces[-1]["rtt"] == {"kind": "uniform", "low": "90.5ms", "high": "100ms"}
    assert all(a["rtt"]["high"] == b["rtt"]["low"] for a, b in pairwise(pieces))
    assert {p["name"] for p in pieces} == {f"reno-{i}" for i in range(1, 9)}
    assert all(p["ecn"] for p in pieces)


def test_a_fixed_rtt_group_is_kept_and_an_unsplittable_count_refused():
    fixed = {"name": "one", "count": 3, "rtt": "200ms"}
    assert triangular_groups([fixed]) == [fixed]
    with pytest.raises(ValueError, match="'reno'"):
        triangular_groups([group(7)])
