"""Loss recovery as a component (issue 32): the scenario's TCP fields resolve to the engine's
`recovery` table, and the ns-2 options (plain Reno, the timer restarted on every ACK, the
timer tick) reach the engine and change what it does (docs/packet.md, "Loss recovery")."""

from __future__ import annotations

from typing import Any

import aqmlab
import pytest
from scenarios import SACK_RECOVERY_RESOLVED, aqm_dumbbell

#: Windows of ~26 segments losing bursts (4 flows, 10 Mb/s, RTT 100 ms, random drops at
#: p = 0.002 behind a 20-packet buffer): several losses per window.
QUEUE = {"kind": "random_drop", "limit": "20p", "probability": 0.002}


def _bursts(**tcp: Any) -> dict[str, Any]:
    return aqm_dumbbell(
        QUEUE, flows=4, rate="10Mbps", duration="60s", measure_start="10s", delay="40ms", tcp={"cc": "reno", **tcp}
    )


def _tcp(scenario: dict[str, Any]) -> dict[str, Any]:
    return aqmlab.Scenario.model_validate(scenario).resolved()["topology"]["groups"][0]["traffic"]["tcp"]


@pytest.mark.parametrize(
    ("tcp", "recovery"),
    [
        (
            {},
            {
                "kind": "new_reno",
                "partial_ack_timer": "impatient",
                "timeout_flight_size": "rfc5681",
                "exit_credit": "none",
            },
        ),
        (
            {"sack": True},
            SACK_RECOVERY_RESOLVED,
        ),
        ({"recovery": "reno"}, {"kind": "reno", "exit_credit": "none"}),
        ({"recovery": "tahoe", "recovery_exit_credit": "cumulative"}, {"kind": "tahoe"}),
        (
            {"sack": True, "sack_recovery": "prr", "prr_delivered": "ns3", "recovery_exit_credit": "cumulative"},
            {
                "kind": "prr",
                "delivered": "ns3",
                "loss_flight_size": "rfc5681",
                "partial_ack_retransmit": "rfc6675",
                "exit_credit": "cumulative",
            },
        ),
    ],
)
def test_tcp_fields_resolve_to_one_recovery_table(tcp, recovery):
    assert _tcp(_bursts(**tcp))["recovery"] == recovery


def test_sack_with_reno_is_rejected_naming_the_field():
    with pytest.raises(Exception, match="sack"):
        _tcp(_bursts(recovery="reno", sack=True))


def test_timer_options_are_resolved_only_when_set():
    default = _tcp(_bursts())
    assert "rto_restart" not in default and "timer_tick_ns" not in default
    ns2 = _tcp(_bursts(rto_restart="every_ack", timer_tick="10ms"))
    assert (ns2["rto_restart"], ns2["timer_tick_ns"]) == ("every_ack", 10_000_000)


#: Per seed these counts are heavy-tailed (timeouts with rto_restart = "every_ack": 0 to 86
#: over seeds 1-6), and a change of same-nanosecond event order moves single seeds a lot
#: (issue 28), so the one-factor comparisons pool six seeds.
SEEDS = range(1, 7)


def _totals(**tcp: Any) -> dict[str, float]:
    totals = dict.fromkeys(("timeouts", "retransmits", "fast_recoveries"), 0.0)
    for seed in SEEDS:
        flows = aqmlab.simulate(_bursts(**tcp), seed=seed).to_pandas("flows")
        for key in totals:
            totals[key] += float(flows[key].sum())
    return totals


def test_plain_reno_waits_for_the_timer_where_newreno_retransmits_on_partial_acks():
    """Measured (seeds 1-6 pooled): NewReno 41 timeouts, 3172 retransmissions; Reno 76 and 2070."""
    newreno, reno = _totals(), _totals(recovery="reno")
    assert reno["timeouts"] > 1.5 * newreno["timeouts"], (newreno, reno)
    assert reno["retransmits"] < 0.8 * newreno["retransmits"], (newreno, reno)


def test_timer_restarted_on_every_ack_keeps_newreno_in_recovery():
    """Measured (seeds 1-6 pooled): 205 timeouts, 7666 retransmissions and 569 fast recoveries
    against 41, 3172 and 895: duplicate ACKs keep restarting the timer, so a burst is repaired
    one hole per RTT (docs/packet.md)."""
    default, every_ack = _totals(), _totals(rto_restart="every_ack")
    assert every_ack["retransmits"] > 1.5 * default["retransmits"], (default, every_ack)
    assert every_ack["fast_recoveries"] < default["fast_recoveries"], (default, every_ack)
