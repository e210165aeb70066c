"""The referee runner's bookkeeping (benchmarks/ns2/referee/claims_run.py), without ns-2: what
maps now (per-flow RTT spreads, random drop), stores that never mix two `singledup_`, and runs
whose measure needs what ns-2's records do not hold."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2" / "referee"))
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))

import claims_run  # noqa: E402
from aqmlab.reproduce import REGISTRY  # noqa: E402


def test_rtt_spreads_and_random_drop_map_cx_tcp_and_ered_do_not():
    section4 = claims_run.mapped(REGISTRY["seed003-section4"], "paper")
    assert all(isinstance(s, dict) for s in section4.values())  # random_drop: ErrorModel
    fig11 = claims_run.mapped(REGISTRY["seed001-fig11"], "paper")
    assert isinstance(fig11["red"], dict)  # RTTs uniform in [30, 130] ms
    assert "cc.kind = 'cx'" in fig11["cx"]
    assert claims_run.refusal_entry(fig11["cx"], "cx")["status"] == "no counterpart"


def test_a_store_never_mixes_two_singledup_and_fresh_keeps_the_old_one(tmp_path):
    path = tmp_path / "seed000-fig6.json"
    old = {"id": "seed000-fig6", "red_mode": "paper", "seeds": {"1": {"rtt10": {"measures": {}}}}}
    path.write_text(json.dumps(old))
    with pytest.raises(SystemExit, match="singledup_ None, the runs now use 1; --fresh"):
        claims_run.open_store(path, "seed000-fig6", "paper", 1, fresh=False)
    new = claims_run.open_store(path, "seed000-fig6", "paper", 1, fresh=True)
    assert new["seeds"] == {} and new["singledup_"] == 1
    kept = tmp_path / "seed000-fig6-limited-transmit-from-scenario.json"
    assert json.loads(kept.read_text()) == old and not path.exists()
    path.write_text(json.dumps({**new, "seeds": {"1": {}}}))
    assert claims_run.open_store(path, "seed000-fig6", "paper", 1, fresh=False)["seeds"] == {"1": {}}


def test_claims_on_a_run_whose_measure_failed_say_so():
    store = {
        "red_mode": "paper",
        "singledup_": 1,
        "seeds": {
            str(seed): {
                "c1500k": {"measures": {}, "error": "ValueError: interval_s = nan; allowed: > 0", "cpu_s": 1.0},
                "c45000k": {"measures": {}, "error": "ValueError: interval_s = nan; allowed: > 0", "cpu_s": 1.0},
            }
            for seed in (1, 2)
        },
    }
    entries = claims_run.judged("seed003-section4", store, {})
    assert entries and all(e["status"] == "not run" for e in entries.values())
    assert all(
        "ns-2's records do not hold" in e["reason"] and "interval_s = nan" in e["reason"] for e in entries.values()
    )


def test_flow_rtts_are_sampled_from_measure_start_and_averaged():
    import ns2_mapping
    import ns2_results
    from aqmlab.scenario import Scenario

    scenario = Scenario.from_dict(
        {
            "name": "t",
            "duration": "5s",
            "measure_start": "2s",
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {"rate": "10Mbps", "delay": "10ms", "queue": {"kind": "drop_tail", "limit": "20p"}},
                "groups": [{"name": "g", "count": 2, "rtt": "40ms", "access_rate": "100Mbps"}],
            },
        }
    )
    resolved = scenario.resolved()
    program = ns2_mapping.translate(resolved)
    ns2_results.with_flow_rtts(program, resolved)
    assert '$ns at 2.0 "flowrtts 2.0"' in program.lines
    assert program.lines[-1] == "$ns run"
    text = "R 0 1.0 9.0\nR 0 2.0 0.04\nR 0 3.0 0.05\nR 1 2.0 0\nL bottleneck 2.0 0 0 0 0 0"
    means = ns2_results.mean_flow_rtts(text, 2, 2.0)
    assert means[0] == pytest.approx(0.045) and np.isnan(means[1])


def test_fig17_reduced_size_runs_both_traffic_mixes_and_judges_the_homogeneous_claims():
    """seed000-fig17's quick version has no homogeneous runs; the referee's reduced size adds
    them at the same size, so its homogeneous claims get a verdict there (and only those of
    its full-only claims)."""
    runs = claims_run.runs_of(REGISTRY["seed000-fig17"])
    names = {run.name for run in runs}
    quick = {run.name for run in REGISTRY["seed000-fig17"].runs(True)}
    assert quick < names and {n.removeprefix("homogeneous-") for n in names - quick} == {
        n.removeprefix("heterogeneous-") for n in quick
    }
    full_only = {c.id for c in REGISTRY["seed000-fig17"].claims if c.full_only}
    assert set(claims_run.REDUCED_JUDGED["seed000-fig17"]) == full_only
    afct = {c.id for c in REGISTRY["seed000-fig18-homogeneous"].claims if c.full_only}
    assert "afct-gap-5-minutes" in afct and "seed000-fig18-homogeneous" not in claims_run.REDUCED_JUDGED


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`, Debian package ns2) is not installed")
def test_ns2_link_trace_has_the_engines_utilisation_and_virtual_queue_columns():
    """seed002's measures read the per-interval utilisation and the virtual queue (NaN for a
    policy without one, as the engine's); a short ns-2 run of its RED network carries both."""
    from aqmlab.reproduce import seed002

    scenario = seed002.network("ld", "red", quick=True)
    scenario.update(duration="3s", measure_start="1s")
    results, _ = claims_run.ns2_run(scenario, 1)
    samples = results.link_samples()
    rate = scenario["topology"]["bottleneck"]["rate"]
    expected = samples["departed_bytes"] * 8.0 / (rate * 0.1)
    one_packet = seed002.PACKET_BYTES * 8.0 / (rate * 0.1)  # a departure counted at an interval's edge
    assert np.allclose(samples["utilisation"], expected) and 0.0 < samples["utilisation"].max() <= 1.0 + one_packet
    assert np.isnan(samples["virtual_queue"]).all()
    measures = seed002.measures(results)
    assert "virtual_mean" not in measures and 0.0 < measures["throughput_mean"] <= 100.0
