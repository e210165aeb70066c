"""The agreement matrix's rows (benchmarks/ns3/matrix.py, agreement.py): every row maps to
ns-3, the issue 15 rows are the scenarios they say, the ns-3 cache key and the verdicts.
Pure Python: no ns-3 is run."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns3"))

# imports below need the sys.path entry above (modules in benchmarks/ns3)
import agreement  # noqa: E402
import aqmlab  # noqa: E402
import metrics  # noqa: E402
import ns3_mapping  # noqa: E402
from matrix import NS3_DEFINITION, issue15_matrix, sack_matrix  # noqa: E402

ROWS = agreement.all_rows(3)
#: Rows whose one factor is on aqmlab's side only, or on ns-3's only (`Row.ns3_variant`).
SAME_NS3_SPEC = (
    "-pipe",
    "-ns3delivered",
    "-exitcredit",
    "-ns3noexitcredit",
    "cubic-sack-red-ns3",
    "-prrecn",
    "-sack-ns3",
    "-partialack",
)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_every_row_maps_to_ns3(name):
    row = ROWS[name]
    spec = ns3_mapping.translate((row.ns3_scenario or row.scenario).resolved(), trace_flows=0)
    assert any(line.startswith("flow ") for line in spec.lines)
    if row.ns3_scenario is not None and name.endswith(SAME_NS3_SPEC):
        # loss_flight_size = pipe, recovery_exit_credit = cumulative, ecn_reduction = prr (with
        # TcpPrrRecovery) and CUBIC's ns3 definition are what ns-3 always does, and an ns-3
        # variant is applied to the mapped spec: the same spec, nothing to map.
        assert spec.text() == ns3_mapping.translate(row.scenario.resolved(), trace_flows=0).text()
    elif row.ns3_scenario is not None:
        # aqmlab's own definition is not ns-3's: the row compares it with ns-3's definition.
        with pytest.raises(ns3_mapping.Unsupported, match="definition"):
            ns3_mapping.translate(row.scenario.resolved())
        cc = row.ns3_scenario.resolved()["topology"]["groups"][0]["traffic"]["tcp"]["cc"]
        assert cc["definition"] == NS3_DEFINITION[cc["kind"]]
        assert (
            row.ns3_scenario.resolved()["topology"]["bottleneck"] == row.scenario.resolved()["topology"]["bottleneck"]
        )


def test_issue15_rows_cover_the_issue_with_matched_and_default_settings():
    rows = issue15_matrix()
    for name, row in rows.items():
        tcp = row.scenario.resolved()["topology"]["groups"][0]["traffic"]["tcp"]
        # "-sack-" / "-sack" at the end: matched (SACK, min RTO 1 s); "-sack200ms": SACK only.
        matched = re.search(r"-sack(-|$)", name) is not None
        # "-sack200ms", and one-factor rows on the 1 Gb/s SACK matrix (min RTO 200 ms): SACK only.
        if name.endswith("-sack200ms") or name.removesuffix("-ns3") in sack_matrix():
            assert tcp["recovery"]["kind"] in ("sack", "prr") and tcp["min_rto_ns"] == 200_000_000
            continue
        sack = tcp["recovery"]["kind"] in ("sack", "prr")
        assert sack == matched and tcp["min_rto_ns"] == (1_000_000_000 if matched else 200_000_000)
        # ns-3's SACK sender always does RFC 6675's Limited Transmit (ns3_mapping refuses sack without it).
        assert tcp["limited_transmit"] == matched
    assert rows["access2m-newreno-sack-red"].ns3_seeds == 2 and rows["access2m-newreno-sack-red-ecn"].ns3_seeds == 2
    group = rows["access2m-newreno-red"].scenario.resolved()["topology"]["groups"][0]
    assert group["access_rate_bps"] == 2_000_000 and group["access_queue"]["limit"] == {"packets": 100}
    rtts = {g["rtt_ns"] for g in rows["rtt20-200-newreno-red"].scenario.resolved()["topology"]["groups"]}
    assert rtts == {20_000_000, 50_000_000, 100_000_000, 200_000_000}
    assert {"parking-lot-red50-150-minrto1s-sack", "seed000-fig16-parking-lot-minrto1s-sack"} <= set(ROWS)
    assert set(agreement.QUICK) <= set(ROWS)


@pytest.mark.parametrize("name", ["access2m-newreno-sack-red", "access2m-newreno-sack-red-ecn"])
def test_the_issue_scenario_files_are_the_matrix_rows(name):
    """scenarios/NAME.toml (the scenario of issue 15 findings 1 and 2) is the row the matrix
    generates, up to names."""

    def physical(scenario: aqmlab.Scenario) -> dict:
        resolved = scenario.resolved()
        for group in resolved["topology"]["groups"]:
            group.pop("name")
        return {k: v for k, v in resolved.items() if k not in ("name", "description")}

    from_file = aqmlab.Scenario.from_toml(ROOT / "benchmarks" / "ns3" / "scenarios" / f"{name}.toml")
    assert physical(from_file) == physical(ROWS[name].scenario)


def test_quick_rows_are_40_s_with_the_window_from_20_s():
    row = agreement.quick_row(ROWS["highspeed20-sack-red"])
    assert (row.scenario.duration_s, row.scenario.measure_start_s) == (40.0, 20.0)
    assert row.ns3_scenario is not None and row.ns3_scenario.duration_s == 40.0


def test_the_ns3_cache_key_is_the_directives_not_the_comments():
    spec = ns3_mapping.translate(ROWS["access2m-newreno-red"].scenario.resolved(), trace_flows=0)
    key = agreement.spec_key(spec)
    spec.lines.append("# a comment changes nothing")
    assert agreement.spec_key(spec) == key
    spec.lines.append("default ns3::TcpSocketBase::Sack true")
    assert agreement.spec_key(spec) != key


def test_disagreements_use_the_issue_15_thresholds():
    ns3 = {key: 100.0 for key in metrics.METRICS}
    assert metrics.disagreements(dict(ns3), ns3) == []
    near = {**ns3, "goodput_mbps": 109.0, "queue_mean_packets": 124.0, "queue_std_packets": 134.0, "jain_fairness": 10}
    assert metrics.disagreements(near, ns3) == []
    far = {**ns3, "utilisation": 111.0, "queue_std_packets": 136.0, "loss_percent": 74.0}
    assert metrics.disagreements(far, ns3) == ["utilisation", "queue_std_packets", "loss_percent"]
    assert metrics.disagreements({**ns3, "loss_percent": 0.5}, {**ns3, "loss_percent": 0.0}) == ["loss_percent"]


def test_an_ns3_variant_replaces_only_the_congestion_control_it_modifies():
    row = ROWS["scalable50-sack-red-ns3-ns3noexitcredit"]
    assert row.ns3_variant == "ns3::AqmlabTcpScalableNoExitCredit"
    plain = ns3_mapping.translate(row.ns3_scenario.resolved(), trace_flows=0)
    variant = ns3_mapping.with_variant(plain, row.ns3_variant)
    changed = [
        (a, b)
        for a, b in zip(
            [line for line in plain.lines if not line.startswith("#")],
            [line for line in variant.lines if not line.startswith("#")],
            strict=True,
        )
        if a != b
    ]
    assert len(changed) == 50
    assert all(a.endswith(" ns3::TcpScalable") and b.endswith(f" {row.ns3_variant}") for a, b in changed)
    assert ns3_mapping.with_variant(plain, None) is plain
    # The variant's source is part of the cache key of the specs that name it, only.
    assert agreement.spec_key(variant) != agreement.spec_key(plain)
    with pytest.raises(ValueError, match="ns3_variant"):
        ns3_mapping.with_variant(plain, "ns3::AqmlabTcpCubicNoExitCredit")
    with pytest.raises(ValueError, match="not one of"):
        ns3_mapping.with_variant(plain, "ns3::TcpBic")


def test_one_factor_rows_change_one_setting():
    def tcp(name):
        return ROWS[name].scenario.resolved()["topology"]["groups"][0]["traffic"]["tcp"]

    base, twin = tcp("access2m-cubic-sack-red"), tcp("access2m-cubic-sack-red-nofriendly")
    assert {k for k in base if base[k] != twin[k]} == {"cc"} and twin["cc"]["reno_friendly"] is False
    assert tcp("access2m-cubic-sack-red-ns3")["cc"]["definition"] == "ns3"
    assert "definition" not in base["cc"]
    base, twin = tcp("access2m-newreno-red"), tcp("access2m-newreno-red-sack200ms")
    # SACK in both simulators: ns-3's SACK sender always does limited transmit, so aqmlab's
    # twin turns it on with SACK (one factor: ns-3's recovery without SACK taken out).
    assert {k for k in set(base) | set(twin) if base.get(k) != twin.get(k)} == {"recovery", "limited_transmit"}
    assert twin["recovery"]["kind"] == "sack"
    assert tcp("scalable50-sack-red-ns3-exitcredit")["recovery"]["exit_credit"] == "cumulative"
