"""The ECN window reduction at once (RFC 3168 Section 6.1.2, the default) or paced by
Proportional Rate Reduction (`ecn_reduction = "prr"`, as Linux's CWR state and ns-3 with
TcpPrrRecovery). The window arithmetic is unit-tested in crates/engine/src/tcp/sender_ecn_tests.rs;
here: the setting end to end, its validation and its resolved form."""

from __future__ import annotations

import aqmlab
import pytest
from scenarios import dumbbell, with_path

#: 8 ECN Reno flows through RED marking at 10 Mb/s: every flow's window is cut by marks.
MARKED = dumbbell(
    flows=8,
    duration="30s",
    measure_start="10s",
    queue={"kind": "red", "limit": "200p", "min_th": 10, "max_th": 30, "gentle": True, "ecn": True},
    tcp={"cc": "reno", "ecn": True},
    trace_flows=0,
)


def _with_tcp(**tcp: object) -> dict:
    return with_path(MARKED, "topology.groups.0.tcp", {**MARKED["topology"]["groups"][0]["tcp"], **tcp})


def test_prr_ecn_reduction_is_resolved_only_when_chosen():
    default = aqmlab.Scenario.model_validate(MARKED)
    assert "ecn_reduction" not in default.resolved()["topology"]["groups"][0]["traffic"]["tcp"]
    paced = aqmlab.Scenario.model_validate(_with_tcp(ecn_reduction="prr"))
    assert paced.resolved()["topology"]["groups"][0]["traffic"]["tcp"]["ecn_reduction"] == "prr"


@pytest.mark.parametrize(
    ("tcp", "message"),
    [
        ({"ecn": False, "ecn_reduction": "prr"}, "ecn_reduction = 'prr' needs ecn = true"),
        (
            {"cc": {"kind": "aimd"}, "ecn_echo": "per_packet", "ecn_reduction": "prr"},
            "ecn_reduction = 'prr' does not apply to aimd",
        ),
        ({"ecn_reduction": "halve"}, "ecn_reduction"),
    ],
)
def test_prr_ecn_reduction_refuses_settings_it_cannot_apply_to(tcp, message):
    with pytest.raises(Exception, match=message):
        aqmlab.Scenario.model_validate(_with_tcp(**tcp))


def test_prr_ecn_reduction_changes_the_run_and_is_deterministic():
    immediate = aqmlab.simulate(MARKED, seed=3).flows.to_pandas()
    paced_runs = [aqmlab.simulate(_with_tcp(ecn_reduction="prr"), seed=3).flows.to_pandas() for _ in range(2)]
    assert paced_runs[0].equals(paced_runs[1])
    paced = paced_runs[0]
    # Marks, not losses, drive both: each flow reduces many times.
    assert immediate["ecn_reductions"].min() > 10 and paced["ecn_reductions"].min() > 10
    assert not paced[["segments_sent", "ecn_reductions"]].equals(immediate[["segments_sent", "ecn_reductions"]])
