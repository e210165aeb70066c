"""End-to-end runs through the Python API: conservation, determinism, results."""

import math

import aqmlab
import numpy as np
import pyarrow as pa
import pytest
from aqmlab import Results, ResultsError, SimulationInterrupted
from scenarios import CONSERVATION_SCENARIOS, aqm_dumbbell, assert_packets_conserved


@pytest.mark.parametrize("name", sorted(CONSERVATION_SCENARIOS))
def test_packets_are_conserved(name):
    results = aqmlab.simulate(CONSERVATION_SCENARIOS[name], seed=7)
    assert results.counters["packets_created"] > 1000
    assert_packets_conserved(results)


def test_finite_transfers_complete_with_fct():
    results = aqmlab.simulate(CONSERVATION_SCENARIOS["finite"], seed=3)
    flows = results.to_pandas("flows")
    assert flows["fct_s"].notna().all()
    assert (flows["bytes_delivered"] == 200_000).all()
    assert (flows["fct_s"] > 0.06).all()  # at least one RTT
    assert results.summary()["flows_completed"] == 6


def _tables_equal(a: Results, b: Results) -> bool:
    """Bit-identical columns (NaN included)."""
    for name in ("link_trace", "flow_trace", "flows", "links"):
        left, right = a.table(name), b.table(name)
        if left.column_names != right.column_names or left.num_rows != right.num_rows:
            return False
        for column in left.column_names:
            x, y = left.column(column).to_numpy(), right.column(column).to_numpy()
            same = x.tobytes() == y.tobytes() if x.dtype != object else list(x) == list(y)
            if not same:
                return False
    return True


def test_same_seed_is_bit_identical_and_other_seed_differs():
    scenario = CONSERVATION_SCENARIOS["red"]
    first, again, other = (aqmlab.simulate(scenario, seed=s) for s in (11, 11, 12))
    assert _tables_equal(first, again)
    assert first.counters == again.counters
    assert not _tables_equal(first, other)


def test_single_reno_flow_fills_one_bdp_droptail_link_with_a_sawtooth():
    # 10 Mb/s, RTT 100 ms: BDP = 83.3 packets of 1500 B; buffer of one BDP (84 packets).
    scenario = aqm_dumbbell(
        {"kind": "drop_tail", "limit": "84p"},
        flows=1,
        rate="10Mbps",
        duration="60s",
        delay="40ms",
        start={"kind": "fixed", "at": "0s"},
        measure_start="20s",
        trace_flows=100,
    )
    results = aqmlab.simulate(scenario, seed=1)
    summary = results.summary()
    assert summary["utilisation_min"] > 0.98, summary
    trace = results.flow_trace.to_pandas()
    cwnd = trace[trace.time_s > 20].cwnd.to_numpy()
    # Sawtooth: repeated halvings from about 2 BDP (167) to about 1 BDP, linear growth between.
    drops = np.flatnonzero(np.diff(cwnd) < -20)
    assert len(drops) >= 3
    assert 140 < cwnd.max() < 175 and 70 < cwnd.min() < 95
    assert summary["loss_percent"] < 1.0


def test_summary_statistics_are_consistent_with_the_traces():
    results = aqmlab.simulate(CONSERVATION_SCENARIOS["red"], seed=2)
    summary = results.summary()
    samples = results.link_samples()
    window = samples["time_s"] > results.measure_start_s
    assert summary["queue_max_packets"] == samples["queue_packets"][window].max()
    assert math.isclose(summary["queue_mean_packets"], samples["queue_packets"][window].mean())
    assert 0.0 < summary["utilisation_min"] <= summary["utilisation_mean"] <= 1.0 + 1e-9
    goodput = results.flows.column("goodput_bps").to_numpy()
    assert math.isclose(summary["throughput_bps"], goodput.sum())
    # Payload goodput stays below the 10 Mb/s bottleneck, up to the out-of-order data a
    # receiver held at the window start and delivered in order inside it.
    assert 0.5 * 10e6 < summary["throughput_bps"] < 1.05 * 10e6
    assert 0.25 <= summary["jain_fairness"] <= 1.0


def test_jain_index():
    assert aqmlab.results.jain_index(np.array([1.0, 1.0, 1.0])) == 1.0
    assert math.isclose(aqmlab.results.jain_index(np.array([1.0, 0.0, 0.0, 0.0])), 0.25)


def test_save_and_load_round_trip(tmp_path):
    results = aqmlab.simulate(CONSERVATION_SCENARIOS["red"], seed=5)
    out = results.save(tmp_path / "run")
    assert sorted(p.name for p in out.iterdir()) == [
        "flow_trace.parquet",
        "flows.parquet",
        "link_trace.parquet",
        "links.parquet",
        "run.json",  # the sha256 of every other file (issue 29)
        "scenario.json",
        "summary.json",
    ]
    loaded = Results.load(out)
    assert _tables_equal(results, loaded)
    assert loaded.seed == 5 and loaded.scenario == results.scenario
    assert loaded.summary() == results.summary()
    assert isinstance(loaded.to_polars("flows").shape, tuple)


def test_save_never_clobbers_or_half_writes(tmp_path):
    results = aqmlab.simulate(CONSERVATION_SCENARIOS["droptail"], seed=5)
    out = results.save(tmp_path / "run")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(ResultsError, match="not empty"):
        results.save(out)

    def failing_figure(staging):
        (staging / "figure.png").write_bytes(b"partial")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        results.save(out, overwrite=True, extra=failing_figure)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # no staging directory left behind


def test_ctrl_c_stops_cleanly_with_partial_results():
    calls = []

    def progress(now_s, total_s):
        calls.append(now_s)
        if now_s >= 5.0:
            raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as stopped:
        aqmlab.simulate(CONSERVATION_SCENARIOS["droptail"], seed=1, progress=progress)
    partial = stopped.value.partial
    assert not partial.finished
    assert 5.0 <= partial.end_s < 20.0
    assert partial.link_trace.column("time_s").to_numpy().max() <= partial.end_s + 1e-9
    assert calls == sorted(calls)


def test_bad_seed_is_rejected():
    with pytest.raises(ValueError, match="seed"):
        aqmlab.simulate(CONSERVATION_SCENARIOS["droptail"], seed=-1)


def test_tables_are_arrow():
    results = aqmlab.simulate(CONSERVATION_SCENARIOS["droptail"], seed=1)
    assert all(isinstance(results.table(n), pa.Table) for n in ("link_trace", "flow_trace", "flows", "links"))
    assert results.links.column("role").to_pylist()[:2] == ["bottleneck", "bottleneck_reverse"]


def test_validate_checks_without_running():
    """`aqmlab.simulation.validate` (what `aqmlab validate` calls): the work estimate, and a
    scenario above the limits refused before the engine allocates, unless `allow_large`."""
    import copy

    from aqmlab import workload
    from aqmlab.errors import WorkLimitExceeded
    from aqmlab.simulation import validate

    scenario = aqmlab.Scenario.from_dict(CONSERVATION_SCENARIOS["droptail"])
    assert validate(scenario) == workload.estimate(scenario)
    huge = copy.deepcopy(CONSERVATION_SCENARIOS["droptail"])
    huge["topology"]["groups"][0]["count"] = 1_000_000
    with pytest.raises(WorkLimitExceeded, match="count"):
        validate(huge)
