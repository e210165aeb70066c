"""Seed 004 claims that the quick versions check with a wide margin (the parametrised test in
test_reproductions.py checks that every quick version runs; these check that they agree)."""

import json

from aqmlab.reproduce import reproduce


def comparison(reproduction_id, tmp_path):
    directory = reproduce(reproduction_id, tmp_path / reproduction_id, quick=True)
    meta = json.loads((directory / "reproduction.json").read_text())
    return meta["comparison"], meta["data"]


def test_fig2_small_buffer_is_stable_and_100_packets_oscillate_at_200_ms(tmp_path):
    claims, data = comparison("seed004-fig2", tmp_path)
    assert all(claim["agrees"] for claim in claims), claims
    # measured (seed 1, quick): oscillation share 0.43 against 0.02-0.05; the margin is wide
    oscillating = data["B = 100, RTT 200 ms"][0]["share"]
    assert all(
        oscillating >= 4 * data[case][0]["share"]
        for case in ("B = 15, RTT 10 ms", "B = 15, RTT 200 ms", "B = 100, RTT 10 ms")
    )


def test_section4_conditions_agree_with_roots_hopf_points_and_fluid_model(tmp_path):
    claims, data = comparison("seed004-section4", tmp_path)
    assert all(claim["agrees"] for claim in claims), [claim for claim in claims if not claim["agrees"]]
    # κ_c falls about five-fold from B = 15 to B = 100 for the M/M/1 resource (eq. 11)
    assert data["(11) M/M/1, B = 15"]["kappa_c"] > 4 * data["(11) M/M/1, B = 100"]["kappa_c"]
