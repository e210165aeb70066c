"""Seed 001 Section IV computations (seed001_analysis.py): the example after Lemma 4.1,
Lemmas 4.2-4.3, the largest delay-based N, Theorem 4.4."""

import math

import numpy as np
import pytest
from aqmlab.fluid import get_model
from aqmlab.reproduce.seed001_analysis import (
    leaves_region_b,
    max_delay_based_flows,
    network_fixed_points,
    single_bottleneck_equilibria,
)


def test_the_example_has_a_stable_region_a_and_an_unstable_region_b_equilibrium():
    # Comment after Lemma 4.1: C = 100 Mb/s, RTT 200 ms, N = 400 has one equilibrium in each region;
    # Lemma 4.2: the region-A one is stable; Lemma 4.3: the region-B one is not.
    rows = single_bottleneck_equilibria()
    assert [row["region"] for row in rows] == ["A", "B"]
    a, b = rows
    assert 0.005 < a["delay_s"] <= 0.020 < b["delay_s"] < 0.100
    assert a["max_real_eigenvalue"] < 0 < b["max_real_eigenvalue"]
    # Lemma 4.1: W* = sqrt(2/p(δ)) and N W*/(RTT + δ) = C at each.
    for row in rows:
        assert 400 * row["window"] / (0.2 + row["delay_s"]) == pytest.approx(12500, rel=1e-9)


def test_trajectories_leave_the_region_b_equilibrium():
    rows = {row["region"]: row for row in single_bottleneck_equilibria()}
    finals = leaves_region_b()
    assert finals["above"] > rows["B"]["delay_s"] + 0.01  # pushed towards δmax (Lemma 4.3's set S)
    assert finals["below"] == pytest.approx(rows["A"]["delay_s"], abs=1e-4)  # back to region A


def test_the_1500_byte_reading_has_no_region_a_equilibrium():
    # 100 Mb/s in 1500-byte packets: 8333 packets/s; N = 400 exceeds the largest delay-based N.
    assert max_delay_based_flows(1e8 / 12000, 0.2) < 400
    rows = single_bottleneck_equilibria({"C": 1e8 / 12000})
    assert "A" not in [row["region"] for row in rows]


@pytest.mark.parametrize(("capacity", "rtt"), [(12500.0, 0.2), (3125.0, 0.1)])
def test_max_delay_based_flows_is_where_region_a_ends(capacity, rtt):
    limit = max_delay_based_flows(capacity, rtt)
    below, above = math.floor(limit), math.ceil(limit)
    for count, has_a in ((below, True), (above, False)):
        model = get_model("cx-tcp", rtts=str(rtt), counts=str(count))
        P, _ = model.resolve({"C": capacity})
        _, regions = model.equilibria(P, 1)
        assert ("A" in list(regions[:, 0])) == has_a, count


def test_max_delay_based_flows_at_25_mbps_is_above_the_papers_packet_level_50_to_55():
    # Section III-A1 reports the packet-level switch between 50 and 55 flows; the fluid model's
    # bound lies above that range (the paper calls the model a coarse approximation).
    assert 55 < max_delay_based_flows(3125.0, 0.1) < 60


@pytest.mark.parametrize(
    "options",
    [{}, {"routing": "1 1; 0 1", "rtts": "0.1,0.06", "capacities": "1562.5,3125"}],
)
def test_theorem_4_4_one_stable_fixed_point_all_in_region_a(options):
    points = network_fixed_points(options)
    stable = [point for point in points if point.stable]
    assert len(stable) == 1 and set(stable[0].branches) == {"A"}
    others = [point for point in points if not point.stable]
    assert others, "the enumeration must find the region-B fixed points the theorem calls unstable"
    assert all(point.max_real_eigenvalue > 0 for point in others)
    # The stable one is the model's own region-A equilibrium.
    model = get_model("cx-tcp-network", **options)
    P, _ = model.resolve({})
    routes = model.A.shape[0]
    assert np.allclose(stable[0].queues, model.equilibrium(P, 1)[routes:, 0], rtol=1e-6)
