"""Full-only claims of a reduced-size reproduction judged on its full-size ns-2 runs
(benchmarks/ns2/referee/full_size_claims.py), without ns-2: the stores are fixtures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2" / "referee"))
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))

import claims_run  # noqa: E402
import full_size_claims  # noqa: E402
from aqmlab.reproduce import REGISTRY  # noqa: E402

REPRODUCTION = "seed000-fig18-homogeneous"
DECLARATION = REGISTRY[REPRODUCTION]
GAP = next(c for c in DECLARATION.claims if c.id == "afct-gap-5-minutes")
SINGLEDUP = claims_run.ns2_mapping.ns2_defaults().singledup


def store(runs: Path, run: str, afct: dict[str, float], singledup: int = SINGLEDUP, **extra) -> None:
    """A store as full_size_run.py writes it: per seed the run's measures and ns-2's CPU."""
    seeds = {seed: {"measures": {"afct_s": value, "completed": 1.0}, "cpu_s": 53.0} for seed, value in afct.items()}
    body = {"id": REPRODUCTION, "run": run, "red_mode": "paper", "singledup_": singledup, "seeds": seeds, **extra}
    (runs / f"{REPRODUCTION}-full-size-{run}.json").write_text(json.dumps(body))


def test_the_afct_gap_reads_only_the_two_runs_at_200_ms_and_is_judged_from_them(tmp_path):
    store(tmp_path, "red-afct200", {"1": 2916.0, "2": 2918.0, "3": 2915.0})
    store(tmp_path, "threshold-afct200", {"1": 2616.0, "2": 2608.0, "3": 2625.0})
    store(tmp_path, "red-afct10", {"1": 900.0, "2": 901.0})  # stored, but not read by the gap
    entry = full_size_claims.judged_at_full_size(REPRODUCTION, GAP, tmp_path, SINGLEDUP, "byte mode")
    assert entry is not None and entry["status"] == "run"
    assert entry["full_size"] == {"runs": ["red-afct200", "threshold-afct200"], "seeds": [1, 2, 3]}
    assert entry["seeds"] == 3 and entry["verdict"] == "agrees"
    assert "300 s" in entry["ns2"]  # RED − threshold: (300 + 310 + 290) / 3
    assert entry["note"].startswith("byte mode; full size, 3 seeds, runs red-afct200, threshold-afct200")


def test_a_gap_outside_the_band_differs():
    stores = {"red-afct200": {"1": {"afct_s": 3000.0}, "2": {"afct_s": 3010.0}}}
    stores["threshold-afct200"] = {"1": {"afct_s": 2648.0}, "2": {"afct_s": 2657.0}}
    values, reads, seeds = full_size_claims.claim_values(DECLARATION, GAP, stores)
    assert values == {"afct_red_minus_threshold_last": [352.0, 353.0]} and seeds == ["1", "2"]


def test_a_quantity_reading_a_run_not_stored_is_not_computed():
    stores = {
        "red-afct200": {"1": {"afct_s": 3000.0}},
        "threshold-afct200": {"1": {"afct_s": 2650.0}},
        "red-afct10": {"1": {"afct_s": 900.0}},
    }
    seed1 = {name: seeds["1"] for name, seeds in stores.items()}
    # The largest gap over the RTTs reads every AFCT run (10, 100, 200 ms): not from these three.
    assert full_size_claims.quantity_at_seed(DECLARATION, "afct_gap_largest", seed1) is None
    value, reads = full_size_claims.quantity_at_seed(DECLARATION, "afct_rise_red", seed1)
    assert value == 2100.0 and reads == {"red-afct200", "red-afct10"}
    assert full_size_claims.quantity_at_seed(DECLARATION, "red-afct200.afct_s", {"red-afct200": {"afct_s": 1.0}}) == (
        1.0,
        {"red-afct200"},
    )


@pytest.mark.parametrize(
    ("threshold", "why"),
    [
        ({"1": 2616.0}, "one seed"),
        ({}, "no store"),
    ],
)
def test_fewer_than_two_seeds_of_a_read_run_give_no_verdict(tmp_path, threshold, why):
    store(tmp_path, "red-afct200", {"1": 2916.0, "2": 2918.0})
    if threshold:
        store(tmp_path, "threshold-afct200", threshold)
    assert full_size_claims.judged_at_full_size(REPRODUCTION, GAP, tmp_path, SINGLEDUP, "") is None, why


def test_failed_seeds_other_settings_and_other_files_are_left_out(tmp_path):
    store(tmp_path, "red-afct200", {"1": 2916.0, "2": 2918.0})
    store(tmp_path, "threshold-afct200", {"1": 2616.0, "2": 2608.0}, singledup=1 - SINGLEDUP)  # another singledup_
    packet = tmp_path / f"{REPRODUCTION}-full-size-threshold-afct200-packet.json"  # full_size_run.py --red-mode
    seeds = {seed: {"measures": {"afct_s": 2600.0}} for seed in ("1", "2")}
    body = {"id": REPRODUCTION, "run": "threshold-afct200", "singledup_": SINGLEDUP, "seeds": seeds}
    packet.write_text(json.dumps({**body, "red_mode": "packet"}))  # a one-factor variant, not as printed
    assert full_size_claims.judged_at_full_size(REPRODUCTION, GAP, tmp_path, SINGLEDUP, "") is None
    packet.unlink()
    failed = {"1": {"measures": {}, "error": "ValueError: x"}, "2": {"measures": {"afct_s": 2608.0}}}
    body = {"id": REPRODUCTION, "run": "threshold-afct200", "red_mode": "paper", "singledup_": SINGLEDUP}
    (tmp_path / f"{REPRODUCTION}-full-size-threshold-afct200.json").write_text(json.dumps({**body, "seeds": failed}))
    # a claims_run-style store of unfinished full-size runs (no "run") is not a full_size_run.py store
    (tmp_path / f"{REPRODUCTION}-full-size-unfinished.json").write_text(json.dumps({"id": REPRODUCTION, "seeds": {}}))
    stores = full_size_claims.load_stores(tmp_path, DECLARATION, SINGLEDUP)
    assert set(stores) == {"red-afct200", "threshold-afct200"} and list(stores["threshold-afct200"]) == ["2"]
    assert full_size_claims.judged_at_full_size(REPRODUCTION, GAP, tmp_path, SINGLEDUP, "") is None  # 1 common seed


def test_the_referee_column_takes_the_full_size_verdict_only_as_printed(tmp_path, monkeypatch):
    store(tmp_path, "red-afct200", {"1": 2916.0, "2": 2918.0})
    store(tmp_path, "threshold-afct200", {"1": 2616.0, "2": 2608.0})
    monkeypatch.setattr(claims_run, "RUNS", tmp_path)
    entries = claims_run.at_full_size(REPRODUCTION, "paper")
    assert list(entries) == [f"{REPRODUCTION}/afct-gap-5-minutes"]
    assert claims_run.at_full_size(REPRODUCTION, "packet") == {}  # a one-factor variant: not these runs
    assert claims_run.at_full_size("seed000-fig6", "paper") == {}  # not a reduced-size reproduction
