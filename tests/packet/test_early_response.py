"""Delay-based early response on the dumbbell: Cx-TCP (seed 001) and PERT (Bhandarkar et al.
2007) in seed 001's Fig. 2 setting.

Seed 001 Table I ("Low delays" column and common parameters): 25 Mbps bottleneck, RTT
100 ms for all flows, 1-BDP buffers (313 packets of 1000 B), 500 s runs. Fig. 2 plots the
average queueing delay against the number of flows and Section III-A1 says it stays below
the threshold δth = 20 ms up to 50-55 flows, with 95-97 % link utilisation (Section III-A3).
The measured numbers are in docs/congestion/cx.md and docs/congestion/pert.md.
"""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

import numpy as np
import pytest
from aqmlab import _toml as tomllib
from aqmlab import simulate
from aqmlab.errors import ScenarioError
from aqmlab.scenario import Scenario

EXAMPLES = Path(__file__).parents[2] / "examples"


def fig2(example: str, *, flows: int = 30, cc=None, duration: str = "150s", measure: str = "50s") -> dict:
    """The example scenario, shortened (the paper runs 500 s; 100 s measured suffice here)."""
    scenario = tomllib.loads((EXAMPLES / example).read_text())
    scenario = copy.deepcopy(scenario)
    scenario["duration"], scenario["measure_start"] = duration, measure
    group = scenario["topology"]["groups"][0]
    group["count"] = flows
    if cc is not None:
        group["tcp"]["cc"] = cc
    return scenario


@pytest.fixture(scope="module")
def reno_fig2():
    return simulate(fig2("cx-tcp-fig2.toml", cc="reno")).summary()


def test_thirty_cx_flows_keep_the_queueing_delay_below_delta_th(reno_fig2):
    summary = simulate(fig2("cx-tcp-fig2.toml")).summary()
    delay = summary["queueing_delay_mean_s"]
    # Seed 001 Fig. 2: below δth = 20 ms; the fluid equilibrium (eqs. (2)-(5)) with
    # W = (313 + q)/30 and p(δ)·W²/2 = 1 puts it near 9.6 ms: in Region A, above δmin.
    assert 0.005 < delay < 0.020, summary
    assert summary["utilisation_mean"] >= 0.93, summary  # paper: 95-97 %
    assert summary["loss_percent"] < 0.01, summary  # delay-based: no buffer overflow
    assert summary["jain_fairness"] > 0.98, summary
    # Reno fills the 1-BDP buffer instead
    assert reno_fig2["queueing_delay_mean_s"] > 3 * delay, reno_fig2
    assert reno_fig2["loss_percent"] > 0.1, reno_fig2


def test_thirty_pert_flows_keep_the_queueing_delay_below_t_max(reno_fig2):
    summary = simulate(fig2("pert.toml")).summary()
    delay = summary["queueing_delay_mean_s"]
    # PERT's curve reaches pmax at Tmax = 10 ms and 1 at 20 ms: the queue settles below Tmax.
    assert 0.003 < delay < 0.010, summary
    assert summary["utilisation_mean"] >= 0.90, summary
    assert summary["loss_percent"] < 0.01, summary
    assert reno_fig2["queueing_delay_mean_s"] > 5 * delay, reno_fig2


def test_cx_windows_share_the_pipe_and_the_queue():
    results = simulate(fig2("cx-tcp-fig2.toml", duration="80s", measure="40s"))
    trace = results.flow_trace.to_pandas()
    late = trace[trace["time_s"] > 40.0]
    # delay-based operation: no timeouts once started (a timeout takes cwnd to 1; backoffs and
    # halvings floor it at 2). The slow-start overshoot may end in one: NewReno's timer restarts
    # on the first partial ACK only (RFC 6582 Section 3.2 step 4).
    assert late["cwnd"].min() >= 2.0, late["cwnd"].min()
    flows = results.flows.to_pandas()
    assert flows["timeouts"].sum() <= 3, flows["timeouts"].tolist()
    # mean window ≈ (BDP + queue)/N: 313 packets in the pipe plus the measured queue
    summary = results.summary()
    expected = (312.5 + summary["queue_mean_packets"]) / 30
    assert abs(late["cwnd"].mean() - expected) / expected < 0.15, (late["cwnd"].mean(), expected)


def test_toml_forms_of_the_algorithms(tmp_path):
    text = (EXAMPLES / "cx-tcp-fig2.toml").read_text()
    short = text.replace(
        'tcp = { cc = { kind = "cx", delta_min = "5ms", delta_threshold = "20ms", p_max = 0.05, '
        'delta_max = "100ms", averaging_time = "100ms" }, packet_size = "1000B" }',
        'tcp = { cc = "cx", packet_size = "1000B" }',
    )
    assert short != text
    path = tmp_path / "short.toml"
    path.write_text(short)
    full = Scenario.from_toml(EXAMPLES / "cx-tcp-fig2.toml").resolved()
    assert Scenario.from_toml(path).resolved() == full, "cc = 'cx' gives the paper's defaults"
    cc = full["topology"]["groups"][0]["traffic"]["tcp"]["cc"]
    assert cc == {
        "kind": "cx",
        "delta_min_ns": 5_000_000,
        "delta_threshold_ns": 20_000_000,
        "delta_max_ns": 100_000_000,
        "delta_max_observed": False,
        "p_max": 0.05,
        "averaging_time_ns": 100_000_000,
        "once_per_rtt": False,
    }
    path.write_text(short.replace('cc = "cx"', 'cc = { kind = "cx", p_max = 0.1 }'))
    assert Scenario.from_toml(path).resolved()["topology"]["groups"][0]["traffic"]["tcp"]["cc"]["p_max"] == 0.1
    path.write_text(short.replace('cc = "cx"', 'cc = { kind = "cx", pmax = 0.1 }'))
    with pytest.raises(ScenarioError, match="pmax"):
        Scenario.from_toml(path)
    path.write_text(short.replace('cc = "cx"', 'cc = { kind = "cx", delta_max = "10ms" }'))
    with pytest.raises(ScenarioError, match="delta_max"):
        Scenario.from_toml(path)
    # δmax = observed RTTmax − RTTmin (seed 001 Section II); the fixed value is then unused
    path.write_text(short.replace('cc = "cx"', 'cc = { kind = "cx", delta_max = "observed" }'))
    observed = Scenario.from_toml(path).resolved()["topology"]["groups"][0]["traffic"]["tcp"]["cc"]
    assert observed == {**cc, "delta_max_observed": True}
    for bad in ('"observd"', "true", '"-5ms"', "0"):
        path.write_text(short.replace('cc = "cx"', f'cc = {{ kind = "cx", delta_max = {bad} }}'))
        with pytest.raises(ScenarioError, match=r'delta_max must be a positive duration .* or "observed"'):
            Scenario.from_toml(path)
    pert = Scenario.from_toml(EXAMPLES / "pert.toml").resolved()["topology"]["groups"][0]["traffic"]["tcp"]["cc"]
    assert pert == {
        "kind": "pert",
        "t_min_ns": 5_000_000,
        "t_max_ns": 10_000_000,
        "p_max": 0.05,
        "srtt_weight": 0.99,
        "beta": 0.35,
    }


def test_observed_delta_max_keeps_cx_alone_delay_based():
    """With δmax = each flow's RTTmax − RTTmin (`delta_max = "observed"`, seed 001 Section II)
    30 Cx flows alone still stay in Region A (Fig. 2): the option only moves Region B's end."""
    fixed = simulate(fig2("cx-tcp-fig2.toml", duration="60s", measure="30s"))
    observed = simulate(
        fig2("cx-tcp-fig2.toml", cc={"kind": "cx", "delta_max": "observed"}, duration="60s", measure="30s")
    )
    summary = observed.summary()
    assert 0.005 < summary["queueing_delay_mean_s"] < 0.020, summary
    assert summary["loss_percent"] < 0.01, summary
    assert summary["utilisation_mean"] >= 0.93, summary
    queues = [run.link_trace.column("queue_packets").to_numpy() for run in (fixed, observed)]
    assert not np.array_equal(*queues), "the option reaches the engine"


@pytest.mark.parametrize("example", ["cx-tcp-fig2.toml", "pert.toml"])
def test_same_seed_same_run(example):
    scenario = fig2(example, flows=10, duration="20s", measure="10s")
    a, b = simulate(scenario, seed=3), simulate(scenario, seed=3)
    c = simulate(scenario, seed=4)

    def queue(r):
        return r.link_trace.column("queue_packets").to_numpy()

    assert np.array_equal(queue(a), queue(b))
    assert not np.array_equal(queue(a), queue(c))


@pytest.mark.slow
def test_cx_delay_against_the_number_of_flows_fig2():
    """Seed 001 Fig. 2 and Section III-A1: below δth up to 50-55 flows, loss-based beyond
    ("between 50 and 55 flows for a 25-Mb/s bottleneck"). The fluid model puts the limit
    where p = pmax: W = sqrt(2/0.05) = 6.3 packets, N = (313 + 62.5)/6.3 ≈ 59 flows."""
    delays = {}
    for flows in (10, 20, 30, 40, 50, 55, 70):
        summary = simulate(fig2("cx-tcp-fig2.toml", flows=flows, duration="500s", measure="250s")).summary()
        delays[flows] = summary["queueing_delay_mean_s"]
    ordered = [delays[n] for n in sorted(delays)]
    assert all(a < b for a, b in itertools.pairwise(ordered)), delays
    assert all(delays[n] < 0.020 for n in (10, 20, 30, 40, 50, 55)), delays
    assert delays[70] > 0.040, delays  # loss-based operation: the buffer fills
