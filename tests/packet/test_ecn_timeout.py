"""ECN after a retransmission timeout (docs/packet.md, "ECN after a retransmission timeout").

seed002-fig9 (three HighSpeed TCP flows over E-RED, ECN) with a 721-packet buffer, seed 1: the
slow start overshoots by hundreds of segments and every flow times out. The go-back-N that
follows sends only retransmissions, which carry no CWR (RFC 3168 Section 6.1.2), so the
receiver echoes ECE on every ACK. The engine used to take the first echo as a new mark (ssthresh
= 2) and grow the window on no echo: the flows crept at two segments per RTT for the rest of
the run (utilisation 0.8 % over 10-20 s). A timeout now answers its window's marks and slow
start goes on through the echoes (crates/engine tcp/shared.rs, `on_timeout`,
`ecn_echo_once_per_window`). `cwr_on_retransmit` (ns-2's `SetCWRonRetransmit_`) puts CWR on
the first retransmission after the timeout instead.
"""

from typing import Any

import pyarrow.compute as pc
import pytest
from aqmlab.reproduce.seed002_dynamics import highspeed_scenario
from aqmlab.simulation import simulate


def _fig9_721(**tcp: Any) -> dict[str, Any]:
    scenario = highspeed_scenario()
    scenario["topology"]["bottleneck"]["queue"]["limit"] = "721p"
    scenario["topology"]["groups"][0]["tcp"].update(tcp)
    scenario["duration"], scenario["measure_start"] = "20s", "10s"
    scenario["trace"]["packets"] = {"links": ["bottleneck"]}
    return scenario


@pytest.fixture(scope="module")
def runs() -> dict[bool, Any]:
    return {option: simulate(_fig9_721(cwr_on_retransmit=option), seed=1) for option in (False, True)}


def _cwr_segments(results: Any, retransmit: bool) -> int:
    trace = results.packet_trace
    enqueued = pc.equal(trace.column("event").cast("string"), "enqueue")
    kind = trace.column("retransmit") if retransmit else pc.invert(trace.column("retransmit"))
    return int(pc.sum(pc.and_(enqueued, pc.and_(trace.column("cwr"), kind))).as_py() or 0)


def test_ecn_newreno_does_not_stall_after_a_timeout(runs):
    results = runs[False]
    assert min(results.flows.column("timeouts").to_pylist()) >= 1, "the scenario must time out"
    # Before the fix: 0.8 % (cwnd 2 on every flow from 3.4 s on).
    assert results.summary()["utilisation_mean"] > 0.5


def test_cwr_goes_on_new_data_only_unless_cwr_on_retransmit(runs):
    # RFC 3168 Section 6.1.2 (default): never on a retransmission, on new data after reductions.
    assert _cwr_segments(runs[False], retransmit=True) == 0
    assert _cwr_segments(runs[False], retransmit=False) > 0
    # ns-2's SetCWRonRetransmit_: the timeouts' retransmissions carry it.
    assert _cwr_segments(runs[True], retransmit=True) >= 3


def test_cwr_on_retransmit_is_sent_only_when_set():
    from aqmlab.scenario import Scenario

    def tcp(**options: Any) -> dict[str, Any]:
        resolved = Scenario.model_validate(_fig9_721(**options)).resolved()
        return resolved["topology"]["groups"][0]["traffic"]["tcp"]

    assert "cwr_on_retransmit" not in tcp()
    assert tcp(cwr_on_retransmit=True)["cwr_on_retransmit"] is True
