"""Issue 20: the oscillation criterion on synthetic series, its verdict over seeds, and the
bracketing/bisection on a synthetic noisy system whose boundary is known."""

import math

import numpy as np
import pytest
from aqmlab.analysis.oscillation import classify, clopper_pearson, combine, ewma, measure_signal
from aqmlab.experiments.packet_chart.search import search_boundaries

DT = 0.01
T = np.arange(0.0, 100.0, DT)


def test_sine_spanning_the_band_oscillates_with_its_period():
    signal = 75.0 + 30.0 * np.sin(2 * np.pi * T / 4.0)  # swings 57 packets in a 50-packet band
    m = measure_signal(signal, 50.0, DT)
    assert m.verdict == "oscillating"
    assert m.period_s == pytest.approx(4.0, rel=0.01)
    assert m.spectral_share > 0.9


def test_noise_within_half_the_band_is_stable_and_has_no_dominant_frequency():
    rng = np.random.default_rng(7)
    m = measure_signal(75.0 + 5.0 * rng.standard_normal(T.size), 50.0, DT)  # 5-95 %: ≈ 16 packets
    assert m.verdict == "stable"
    assert m.spectral_share < 0.05


def test_constant_is_stable_with_no_period():
    m = measure_signal(np.full(T.size, 60.0), 50.0, DT)
    assert m.verdict == "stable" and m.relative_swing == 0.0 and math.isnan(m.period_s)


def test_swing_between_half_and_whole_band_is_undecided():
    m = measure_signal(75.0 + 12.0 * np.sin(2 * np.pi * T / 3.0), 50.0, DT)  # swing ≈ 24 of 50... r ≈ 0.47
    assert m.verdict == "stable"
    m = measure_signal(75.0 + 20.0 * np.sin(2 * np.pi * T / 3.0), 50.0, DT)  # r ≈ 0.79
    assert m.verdict == "undecided"
    assert [classify(r) for r in (0.5, 0.51, 0.99, 1.0, math.nan)] == [
        "stable",
        "undecided",
        "undecided",
        "oscillating",
        "undecided",
    ]


def test_bad_band_and_short_window_are_named():
    with pytest.raises(ValueError, match="band = 0"):
        measure_signal(np.ones(100), 0.0, DT)
    with pytest.raises(ValueError, match="at least 16"):
        measure_signal(np.ones(5), 50.0, DT)


def test_ewma_has_the_requested_time_constant():
    step = ewma(np.r_[np.zeros(1), np.ones(999)], DT, 1.0)
    assert step[100] == pytest.approx(1 - math.exp(-1.0), abs=0.01)  # one time constant after the step


def test_seed_verdict_is_unanimous_with_its_confidence():
    v = combine(["oscillating"] * 3)
    assert (v.verdict, v.confidence) == ("oscillating", 0.875)
    assert v.share_low == pytest.approx(0.025 ** (1 / 3)) and v.share_high == 1.0
    assert combine(["stable", "stable"]).confidence == 0.75
    mixed = combine(["stable", "oscillating", "stable"])
    assert (mixed.verdict, mixed.confidence, mixed.oscillating) == ("undecided", 0.0, 1)
    assert combine(["stable", "undecided"]).verdict == "undecided"
    assert clopper_pearson(0, 10) == (0.0, pytest.approx(0.3084, abs=1e-4))
    with pytest.raises(ValueError, match="allowed: stable, oscillating, undecided"):
        combine(["wobbly"])


def synthetic_probe(boundary, noise, seeds=3, rng_seed=0, calls=None):
    """A fake packet system: at (x, y) seed s 'runs' with relative swing r = y / boundary(x)
    times a deterministic seeded noise factor; verdicts as the real criterion gives them."""

    def probe(points):
        if calls is not None:
            calls.append(list(points))
        out = []
        for x, y in points:
            verdicts = []
            for seed in range(1, seeds + 1):
                rng = np.random.default_rng([rng_seed, seed, int(round(x * 1e6)), int(round(y * 1e9))])
                r = (y / boundary(x)) * (1.0 + noise * rng.standard_normal())
                verdicts.append(classify(r))
            out.append(combine(verdicts))
        return out

    return probe


def test_bisection_brackets_a_known_boundary_despite_noise():
    # oscillation (r ≥ 1) from y = b(x), stability (r ≤ 1/2) below b(x)/2: the true transition
    # of the verdicts lies in [b/2, b]; noise of 5 % blurs its edges.
    def boundary(x):
        return 0.05 + 0.001 * x

    xs = [50.0, 100.0, 200.0, 400.0]
    found = search_boundaries(synthetic_probe(boundary, 0.05), xs, (0.005, 1.0), tolerance=0.01, max_rounds=10)
    for b in found:
        assert b.bracketed and b.oscillating_above
        assert b.stable_y < b.oscillating_y
        true = boundary(b.x)
        assert b.stable_y <= true * 1.2 and b.oscillating_y >= true * 0.5 * 0.8  # contains the blurred edge
        assert b.status in ("converged", "undecided probe")
        assert b.confidence == pytest.approx(0.75)  # two unanimous ends of 3 seeds: 1 − 2 · 1/8
        if b.status == "converged":
            assert b.width <= 0.01


def test_noise_free_bisection_converges_to_the_edges_of_the_undecided_band():
    # Without noise the stable side ends at b/2 and the oscillating side starts at b; with
    # the band r ∈ (1/2, 1) undecided the search stops inside [b/2, b] at an undecided probe
    # or converges onto b/2 or b.
    def boundary(x):
        return 0.2

    (b,) = search_boundaries(synthetic_probe(boundary, 0.0), [1.0], (0.01, 1.0), tolerance=0.001, max_rounds=20)
    assert b.stable_y <= 0.1 + 1e-12 and b.oscillating_y >= 0.2 - 1e-12
    assert b.status in ("undecided probe", "converged")
    assert any(v.verdict == "undecided" for _, v in b.probes) == (b.status == "undecided probe")


def test_reversed_direction_and_ranges_without_a_boundary():
    # oscillating at small y (as the threshold policy can be): r = b / y
    def probe(points):
        return [combine([classify(0.3 / y)] * 2) for _, y in points]

    (b,) = search_boundaries(probe, [0.0], (0.1, 1.0), tolerance=0.02)
    assert b.bracketed and b.oscillating_above is False and b.stable_y >= 0.6 and b.oscillating_y <= 0.3
    assert b.status == "undecided probe" and b.probes[-1][0] == 0.55  # r = 0.545: undecided
    stable = search_boundaries(lambda pts: [combine(["stable"])] * len(pts), [1.0, 2.0], (1.0, 2.0), tolerance=0.1)
    assert [b.status for b in stable] == ["stable throughout"] * 2 and not stable[0].bracketed


def test_search_is_deterministic_and_probes_every_x_in_one_batch_per_round():
    calls_a, calls_b = [], []

    def boundary(x):
        return 0.1 * x

    first = search_boundaries(synthetic_probe(boundary, 0.1, calls=calls_a), [1.0, 2.0], (0.01, 1.0), tolerance=0.01)
    second = search_boundaries(synthetic_probe(boundary, 0.1, calls=calls_b), [1.0, 2.0], (0.01, 1.0), tolerance=0.01)
    assert calls_a == calls_b and [b.__dict__ for b in first] == [b.__dict__ for b in second]
    assert len(calls_a[0]) == 4  # both ends of both x in the first round


def test_log_and_integer_bisection():
    def probe(points):
        return [combine(["oscillating" if y >= 37 else "stable"] * 3) for _, y in points]

    (b,) = search_boundaries(probe, [0.0], (5, 200), tolerance=1.01, integer=True)
    assert (b.stable_y, b.oscillating_y, b.status) == (36.0, 37.0, "converged")
    assert all(float(y).is_integer() for y, _ in b.probes)
    (g,) = search_boundaries(probe, [0.0], (5, 200), tolerance=1.1, log=True)
    assert g.stable_y < 37 <= g.oscillating_y and g.oscillating_y / g.stable_y <= 1.1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"y_range": (1.0, 1.0)}, "allowed: LOW < HIGH"),
        ({"y_range": (0.0, 1.0), "log": True}, "allowed: LOW > 0"),
        ({"tolerance": 0.0}, "tolerance = 0.0"),
        ({"y_range": (0.5, 3.0), "integer": True}, "whole numbers"),
    ],
)
def test_bad_search_settings_are_named(kwargs, message):
    settings = {"y_range": (1.0, 2.0), "tolerance": 0.1, **kwargs}
    with pytest.raises(ValueError, match=message):
        search_boundaries(lambda pts: [], [1.0], settings.pop("y_range"), **settings)
