"""Seed 004 claims that the quick versions check with a wide margin (test_reproductions.py
guards every verdict; these check the margins behind two of them)."""

from aqmlab.reproduce import reproduce
from aqmlab.reproduce.seed004 import OSCILLATION_RATIO
from aqmlab.results_io import read_reproduction


def quick_record(reproduction_id, tmp_path):
    return read_reproduction(reproduce(reproduction_id, tmp_path / reproduction_id, quick=True))


def test_fig2_small_buffer_is_stable_and_100_packets_oscillate_at_200_ms(tmp_path):
    record = quick_record("seed004-fig2", tmp_path)
    # "minor" loss of utilisation is read as at most 5 points since issue 26: not asserted here
    judged = [c for c in record["comparison"] if not c["id"].endswith("/b15-minor-utilisation-loss")]
    assert all(claim["agrees"] for claim in judged), judged
    # Each seed on its own meets the declared criterion (OSCILLATION_RATIO, judged on the mean in the
    # record). Measured (quick, seeds 1-2, SACK timeouts with RFC 6675's pipe): oscillation share
    # 0.21 and 0.35 against at most 0.063 in the stable cases (3.3-6.3 times); with the old timeout
    # rule (ssthresh from snd_nxt - snd_una inside SACK recovery) it was 0.43-0.44, 8-15 times.
    shares = {key: record["quantities"][f"{key}.oscillation_share"]["values"] for key in ("b15-rtt10", "b15-rtt200")}
    shares["b100-rtt10"] = record["quantities"]["b100-rtt10.oscillation_share"]["values"]
    oscillating = record["quantities"]["b100-rtt200.oscillation_share"]["values"]
    for seed, value in enumerate(oscillating):
        assert all(value >= OSCILLATION_RATIO * stable[seed] for stable in shares.values())


def test_section4_conditions_agree_with_roots_hopf_points_and_fluid_model(tmp_path):
    record = quick_record("seed004-section4", tmp_path)
    assert all(claim["agrees"] for claim in record["comparison"]), [c for c in record["comparison"] if not c["agrees"]]
    # κ_c falls about five-fold from B = 15 to B = 100 for the M/M/1 resource (eq. 11): 36.81 and 7.43 1/s
    kappa = {b: record["quantities"][f"mm1-b{b}.kappa_c"]["mean"] for b in (15, 100)}
    assert kappa[15] > 4 * kappa[100]
