"""benchmarks/ns3/metrics.py restates `Results.summary()`; on aqmlab's own records the two
must agree, so ns-3's records go through the same arithmetic. With the ns-3 harness built
(`bash benchmarks/ns3/setup.sh --cxx`), a short ns-3 run is checked for packet conservation
and for the attributes its queue disc really used."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns3"))

# imports below need the sys.path entry above (modules in benchmarks/ns3)
import agreement  # noqa: E402
import aqmlab  # noqa: E402
import metrics  # noqa: E402
import ns3_mapping  # noqa: E402


def small_scenario(queue: dict) -> aqmlab.Scenario:
    return aqmlab.Scenario.from_dict(
        {
            "name": "small",
            "duration": "20s",
            "measure_start": "8s",
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {"rate": "10Mbps", "delay": "10ms", "queue": queue},
                "groups": [
                    {
                        "name": "g",
                        "count": 6,
                        "rtt": "40ms",
                        "access_rate": "100Mbps",
                        "start": {"kind": "uniform", "low": "0s", "high": "4s"},
                    }
                ],
            },
        }
    )


@pytest.mark.parametrize(
    "queue", [{"kind": "drop_tail", "limit": "40p"}, {"kind": "red", "limit": "200p", "min_th": 5, "max_th": 30}]
)
def test_metrics_reproduce_results_summary(queue):
    scenario = small_scenario(queue)
    results = aqmlab.simulate(scenario, seed=3)
    ours = metrics.summarise(
        *metrics.aqmlab_records(results, "bottleneck"), scenario.measure_start_s, scenario.duration_s
    )
    theirs = results.summary("bottleneck")
    assert ours["goodput_mbps"] == pytest.approx(theirs["throughput_bps"] / 1e6, rel=1e-12)
    assert ours["utilisation"] == pytest.approx(theirs["utilisation_mean"], rel=1e-12)
    assert ours["queue_mean_packets"] == pytest.approx(theirs["queue_mean_packets"], rel=1e-12)
    assert ours["queue_std_packets"] == pytest.approx(theirs["queue_std_packets"], rel=1e-12)
    assert ours["loss_percent"] == pytest.approx(theirs["loss_percent"], rel=1e-12)
    assert ours["jain_fairness"] == pytest.approx(theirs["jain_fairness"], rel=1e-12)
    assert ours["mark_percent"] == pytest.approx(theirs["mark_percent"], rel=1e-12, abs=0)
    assert ours["loss_percent"] > 0 and 0.5 < ours["utilisation"] <= 1.0 + 1e-12  # a sum of floats


def test_relative_difference_and_jain():
    assert metrics.relative_difference(110.0, 100.0) == pytest.approx(0.1)
    assert math.isnan(metrics.relative_difference(1.0, 0.0))
    assert metrics.jain_index(np.array([1.0, 1.0, 1.0])) == pytest.approx(1.0)
    assert metrics.jain_index(np.array([1.0, 0.0, 0.0, 0.0])) == pytest.approx(0.25)


@pytest.mark.skipif(not agreement.NS3_BINARY.is_file(), reason="ns-3 harness not built (setup.sh --cxx)")
def test_ns3_run_conserves_packets_and_uses_the_mapped_red():
    scenario = small_scenario({"kind": "red", "limit": "200p", "min_th": 5, "max_th": 30})
    resolved = scenario.resolved()
    spec = ns3_mapping.translate(resolved, trace_flows=2)
    raw = agreement.run_ns3(spec)
    link = raw["links"]["bottleneck"]
    queue_at_end = link["queue_packets"][-1]
    # Every packet offered to the bottleneck queue disc is sent, dropped, still queued, or
    # (at most one) being transmitted at the end.
    in_transmission = link["total_arrivals"] - (link["total_departures"] + link["total_drops"] + queue_at_end)
    assert in_transmission in (0, 1)
    assert sum(link["arrivals"]) == link["total_arrivals"]
    assert max(link["queue_packets"]) <= 200
    assert link["qdisc"] == "ns3::RedQueueDisc"
    # ns-2's automatic weight (q_weight = -1), resolved by ns-3 from the nominal rate and the
    # link delay: 1 - exp(-1 / (10 * max(3 (delay + 1/ptc), 0.1 s) * ptc)), ptc = C / (8 * 1500).
    ptc = 10e6 / (8 * 1500)
    expected = 1 - math.exp(-1 / (10 * max(3 * (0.010 + 1 / ptc), 0.1) * ptc))
    assert float(link["qdisc_attributes"]["QW"]) == pytest.approx(expected, rel=1e-5)
    crossing = np.ones(6, dtype=bool)
    summary = metrics.summarise(
        *agreement.ns3_records(raw, spec, "bottleneck", crossing), scenario.measure_start_s, scenario.duration_s
    )
    # Six flows on 10 Mb/s: the link is busy and every flow gets something.
    assert 0.8 < summary["utilisation"] <= 1.0 + 1e-9
    assert 0.8 * 10 * 1460 / 1500 < summary["goodput_mbps"] <= 10 * 1460 / 1500
    assert len(raw["flow_trace"]["cwnd"]) == 2
