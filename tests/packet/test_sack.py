"""SACK-based loss recovery (RFC 6675, blocks per RFC 2018) against NewReno on the dumbbell.

Each comparison runs the same scenario twice, once with `sack = false` (NewReno, RFC 6582)
and once with `sack = true`, same seed; numbers measured are recorded in docs/sack.md.
"""

from __future__ import annotations

import copy
from typing import Any

import aqmlab
import pytest
from scenarios import SACK_RECOVERY_RESOLVED, aqm_dumbbell, assert_packets_conserved, random_loss, with_path

#: Windows of ~30 segments that lose several segments at once: 4 flows share 10 Mb/s at RTT
#: 100 ms (BDP 83 packets) through a random-drop queue (p = 0.002) with a 20-packet buffer, so
#: each flow's window peaks near (83 + 20) / 4 ≈ 26 segments and buffer overflows drop bursts.
BURSTS = aqm_dumbbell(
    {"kind": "random_drop", "limit": "20p", "probability": 0.002},
    flows=4,
    rate="10Mbps",
    duration="60s",
    measure_start="10s",
    delay="40ms",
    tcp={"cc": "reno"},
)

#: Independent random drops at p = 0.02 on an uncongested 1 Gb/s path, 30 flows: Reno's
#: window settles near 1.22 / sqrt(p) ≈ 9 segments (Mathis et al.), not 30.
RANDOM_2_PERCENT = random_loss(0.02, flows=30, duration="100s", measure_start="10s", tcp={"cc": "reno"})
RANDOM_2_PERCENT["topology"]["groups"][0]["access_queue"] = {"kind": "drop_tail", "limit": "100000p"}


def _with_sack(scenario: dict[str, Any], sack: bool) -> dict[str, Any]:
    tcp = scenario["topology"]["groups"][0]["tcp"]
    return with_path(scenario, "topology.groups.0.tcp", {**tcp, "sack": sack})


def _totals(scenario: dict[str, Any], sack: bool, seed: int) -> dict[str, float]:
    results = aqmlab.simulate(_with_sack(scenario, sack), seed=seed)
    assert_packets_conserved(results)
    flows = results.to_pandas("flows")
    return {
        "goodput_bps": float(flows["goodput_bps"].sum()),
        "delivered": float(flows["bytes_delivered"].sum()),
        "median_delivered": float(flows["bytes_delivered"].median()),
        "timeouts": float(flows["timeouts"].sum()),
        "retransmits": float(flows["retransmits"].sum()),
        "fast_recoveries": float(flows["fast_recoveries"].sum()),
    }


def _with_partial_ack_timer(scenario: dict[str, Any], timer: str) -> dict[str, Any]:
    tcp = scenario["topology"]["groups"][0]["tcp"]
    return with_path(scenario, "topology.groups.0.tcp", {**tcp, "partial_ack_timer": timer})


def test_sack_has_fewer_timeouts_and_retransmissions_when_windows_lose_bursts():
    """RFC 6675's point: several losses in one window are repaired within one RTT, where
    NewReno repairs one per RTT. With the timer restarted on every partial ACK
    (Slow-but-Steady) NewReno then often times out and goes back N; with RFC 6582's Impatient
    timer (the default) a window of many losses ends in one timeout instead."""
    sack = [_totals(BURSTS, True, seed) for seed in (1, 2, 3)]
    sk_goodput = sum(r["goodput_bps"] for r in sack)
    for timer in ("impatient", "slow_but_steady"):
        newreno = [_totals(_with_partial_ack_timer(BURSTS, timer), False, seed) for seed in (1, 2, 3)]
        # Timeouts pooled over the seeds: per seed they are heavy-tailed (Slow-but-Steady 3 to
        # 76 over seeds 1-12, benchmarks/scale/README.md issue 28), so one seed may tie.
        # Measured: Impatient 8, 6, 7 and Slow-but-Steady 3, 56, 6 against SACK's 3, 1, 4.
        sk_timeouts = sum(r["timeouts"] for r in sack)
        assert sk_timeouts < sum(r["timeouts"] for r in newreno), (timer, newreno, sack)
        for nr, sk in zip(newreno, sack, strict=True):
            # Retransmissions: 623, 506, 605 and 954, 918, 1221 against 267, 209, 252.
            assert sk["retransmits"] < nr["retransmits"], (timer, nr, sk)
        nr_goodput = sum(r["goodput_bps"] for r in newreno)
        # Pooled over the three seeds, measured: SACK 26.13 Mb/s; Slow-but-Steady 23.89 (SACK
        # +9 %); Impatient 26.18, as much as SACK here.
        if timer == "slow_but_steady":
            assert sk_goodput > 1.02 * nr_goodput, (nr_goodput, sk_goodput)
        else:
            assert sk_goodput > 0.97 * nr_goodput, (nr_goodput, sk_goodput)


def test_sack_at_two_percent_random_loss_delivers_as_much_as_newreno():
    """At p = 0.02 with windows of ~9 segments, multiple losses per window are rare and
    RFC 6675 detects a second hole only after DupThresh segments above it are SACKed (new
    data has priority over NextSeg rule (3)), while NewReno's partial ACK retransmits it at
    once: SACK does not time out less here (docs/sack.md). It must not deliver less."""
    for seed in (1, 2):
        nr = _totals(RANDOM_2_PERCENT, False, seed)
        sk = _totals(RANDOM_2_PERCENT, True, seed)
        # The median flow: with seed 1 one NewReno flow delivers 3.3 times the others after
        # a timeout (go-back-N with fast retransmit blocked until `recover`), which skews sums.
        assert sk["median_delivered"] == pytest.approx(nr["median_delivered"], rel=0.03), (nr, sk)
        # One fast recovery per loss event either way (~125 per flow in 100 s).
        assert sk["fast_recoveries"] == pytest.approx(nr["fast_recoveries"], rel=0.03), (nr, sk)


def test_sack_runs_are_deterministic():
    scenario = _with_sack(BURSTS, True)
    a = aqmlab.simulate(scenario, seed=5).to_pandas("flows")
    b = aqmlab.simulate(scenario, seed=5).to_pandas("flows")
    assert a.equals(b)


def _resolved_recovery(scenario: dict[str, Any]) -> dict[str, Any]:
    return aqmlab.Scenario.model_validate(scenario).resolved()["topology"]["groups"][0]["traffic"]["tcp"]["recovery"]


def test_sack_is_off_by_default_and_resolved_as_the_recovery_kind():
    assert _resolved_recovery(copy.deepcopy(BURSTS))["kind"] == "new_reno"
    assert _resolved_recovery(_with_sack(BURSTS, True)) == SACK_RECOVERY_RESOLVED


def test_sack_with_tahoe_is_rejected_naming_the_field():
    scenario = with_path(BURSTS, "topology.groups.0.tcp", {"cc": "reno", "recovery": "tahoe", "sack": True})
    with pytest.raises(Exception, match="sack"):
        aqmlab.Scenario.model_validate(scenario)


def _with_sack_recovery(scenario: dict[str, Any], sack_recovery: str, sack: bool = True) -> dict[str, Any]:
    tcp = scenario["topology"]["groups"][0]["tcp"]
    return with_path(scenario, "topology.groups.0.tcp", {**tcp, "sack": sack, "sack_recovery": sack_recovery})


def test_prr_is_resolved_as_its_own_recovery_kind_and_needs_sack():
    assert _resolved_recovery(_with_sack_recovery(BURSTS, "rfc6675"))["kind"] == "sack"
    prr = _resolved_recovery(_with_sack_recovery(BURSTS, "prr"))
    assert (prr["kind"], prr["delivered"]) == ("prr", "rfc6937")
    with pytest.raises(Exception, match="sack_recovery"):
        aqmlab.Scenario.model_validate(_with_sack_recovery(BURSTS, "prr", sack=False))
    with pytest.raises(Exception, match="sack_recovery"):
        aqmlab.Scenario.model_validate(_with_sack_recovery(BURSTS, "fack"))


def test_prr_recovers_the_bursts_as_rfc_6675_does_and_is_deterministic():
    # Same losses repaired by both; PRR only changes when the recovery's segments go out
    # (unit tests: tcp/prr.rs, sender_recovery_tests.rs). Deliveries within 5 %.
    classic = aqmlab.simulate(_with_sack_recovery(BURSTS, "rfc6675"), seed=1).to_pandas("flows")
    prr_scenario = _with_sack_recovery(BURSTS, "prr")
    prr = aqmlab.simulate(prr_scenario, seed=1).to_pandas("flows")
    assert prr.equals(aqmlab.simulate(prr_scenario, seed=1).to_pandas("flows"))
    assert not prr.equals(classic)
    assert prr["fast_recoveries"].sum() > 0
    assert prr["bytes_delivered"].sum() == pytest.approx(classic["bytes_delivered"].sum(), rel=0.05)


def test_loss_flight_size_pipe_is_a_sack_recovery_parameter_and_needs_sack():
    tcp = BURSTS["topology"]["groups"][0]["tcp"]
    assert _resolved_recovery(_with_sack(BURSTS, True))["loss_flight_size"] == "rfc5681"
    pipe = with_path(BURSTS, "topology.groups.0.tcp", {**tcp, "sack": True, "loss_flight_size": "pipe"})
    assert _resolved_recovery(pipe)["loss_flight_size"] == "pipe"
    with pytest.raises(Exception, match="loss_flight_size"):
        aqmlab.Scenario.model_validate(with_path(BURSTS, "topology.groups.0.tcp", {**tcp, "loss_flight_size": "pipe"}))


def test_prr_delivered_ns3_is_a_prr_parameter_and_needs_prr():
    tcp = {**BURSTS["topology"]["groups"][0]["tcp"], "sack": True}
    prr = {**tcp, "sack_recovery": "prr"}
    assert _resolved_recovery(with_path(BURSTS, "topology.groups.0.tcp", prr))["delivered"] == "rfc6937"
    ns3 = with_path(BURSTS, "topology.groups.0.tcp", {**prr, "prr_delivered": "ns3"})
    assert _resolved_recovery(ns3)["delivered"] == "ns3"
    with pytest.raises(Exception, match="prr_delivered = 'ns3' needs sack_recovery = 'prr'"):
        aqmlab.Scenario.model_validate(with_path(BURSTS, "topology.groups.0.tcp", {**tcp, "prr_delivered": "ns3"}))


def test_partial_ack_retransmit_ns3_is_a_sack_recovery_parameter_and_needs_sack():
    tcp = {**BURSTS["topology"]["groups"][0]["tcp"], "sack": True}
    assert _resolved_recovery(with_path(BURSTS, "topology.groups.0.tcp", tcp))["partial_ack_retransmit"] == "rfc6675"
    ns3 = with_path(BURSTS, "topology.groups.0.tcp", {**tcp, "partial_ack_retransmit": "ns3"})
    assert _resolved_recovery(ns3)["partial_ack_retransmit"] == "ns3"
    with pytest.raises(Exception, match="partial_ack_retransmit = 'ns3' needs sack = true"):
        aqmlab.Scenario.model_validate(
            with_path(BURSTS, "topology.groups.0.tcp", {**tcp, "sack": False, "partial_ack_retransmit": "ns3"})
        )
