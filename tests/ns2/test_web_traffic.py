"""Web traffic and finite transfers in the ns-2 harness (benchmarks/ns2/web_traffic.py): the
transfers the Tcl carries follow aqmlab's model (count, arrival rate, size distribution —
Kolmogorov-Smirnov against aqmlab's own transfers), without ns-2; plus a smoke run in ns-2
when `ns` is installed comparing offered load, completed transfers and a finite transfer's
completion time with aqmlab's."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))

import aqmlab  # noqa: E402
import ns2_mapping  # noqa: E402
import web_traffic  # noqa: E402
from ns2_mapping import Unsupported, translate  # noqa: E402

HAS_NS = shutil.which("ns") is not None


def web_scenario(size: dict, rate: float = 40.0, duration: str = "30s", **web) -> aqmlab.Scenario:
    return aqmlab.Scenario.from_dict(
        {
            "name": "web",
            "duration": duration,
            "measure_start": "5s",
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {"rate": "10Mbps", "delay": "10ms", "queue": {"kind": "drop_tail", "limit": "50p"}},
                "groups": [
                    {
                        "name": "bulk",
                        "count": 2,
                        "rtt": "60ms",
                        "access_rate": "100Mbps",
                        "start": {"kind": "staggered", "first": "0s", "spacing": "100ms"},
                    },
                    {
                        "name": "web",
                        "kind": "web",
                        "arrival_rate": rate,
                        "size": size,
                        "rtt": "60ms",
                        "access_rate": "100Mbps",
                        **web,
                    },
                ],
            },
        }
    )


def tcl_transfers(program: ns2_mapping.Ns2Program, group: int) -> tuple[np.ndarray, np.ndarray]:
    """The arrival times and sizes the Tcl text carries for web group `group`."""
    text = program.text()
    times = re.search(rf"^set wt\({group}\) \{{([^}}]*)\}}", text, re.M)
    sizes = re.search(rf"^set wb\({group}\) \{{([^}}]*)\}}", text, re.M)
    assert times and sizes, "the web group's transfer lists are missing from the Tcl"
    return np.array(times.group(1).split(), dtype=float), np.array(sizes.group(1).split(), dtype=float)


def aqmlab_web_sizes(scenario: aqmlab.Scenario) -> np.ndarray:
    """aqmlab's own transfer sizes: the bytes of its completed web transfers."""
    flows = aqmlab.simulate(scenario, seed=3).to_pandas("flows")
    web = flows[(flows["kind"] == "web") & flows["fct_s"].notna()]
    return web["bytes_delivered"].to_numpy(dtype=float)


def test_tcl_transfers_have_the_poisson_count_rate_and_window():
    s = web_scenario({"kind": "pareto", "mean": "10kB", "shape": 1.2}, rate=50.0, duration="200s")
    times, sizes = tcl_transfers(translate(s.resolved(), seed=7), 1)
    expected = 50.0 * 200.0
    assert abs(times.size - expected) < 4 * np.sqrt(expected)  # Poisson count
    assert times.size == sizes.size
    assert np.all(np.diff(times) > 0) and times[0] >= 0.0 and times[-1] < 200.0
    gaps = np.diff(times)
    assert stats.kstest(gaps, stats.expon(scale=1 / 50.0).cdf).pvalue > 1e-3
    assert stats.kstest(times, stats.uniform(0, 200).cdf).pvalue > 1e-3


def test_web_window_follows_start_and_stop():
    s = web_scenario(
        {"kind": "fixed", "size": "3kB"}, start={"kind": "fixed", "at": "10s"}, stop={"kind": "fixed", "at": "20s"}
    )
    times, sizes = tcl_transfers(translate(s.resolved(), seed=1), 1)
    assert times.min() >= 10.0 and times.max() < 20.0
    assert set(sizes) == {3000.0}


@pytest.mark.parametrize(
    "size",
    [{"kind": "pareto", "mean": "10kB", "shape": 1.2}, {"kind": "exponential", "mean": "20kB"}],
    ids=["pareto", "exponential"],
)
def test_tcl_sizes_follow_aqmlabs_distribution(size):
    """Two-sample KS: the sizes in the Tcl against the sizes of aqmlab's own transfers."""
    s = web_scenario(size, rate=40.0, duration="60s")
    ours = aqmlab_web_sizes(s)
    big = web_scenario(size, rate=40.0, duration="300s")
    _, drawn = tcl_transfers(translate(big.resolved(), seed=5), 1)
    assert ours.size > 1500 and drawn.size > 10000
    assert stats.ks_2samp(ours, drawn).pvalue > 1e-3
    # And a wrong law is told apart: the same mean, the other distribution.
    other = {"kind": "exponential", "mean": "10kB"} if size["kind"] == "pareto" else {"kind": "fixed", "size": "20kB"}
    _, wrong = tcl_transfers(translate(web_scenario(other, rate=40.0, duration="300s").resolved(), seed=5), 1)
    assert stats.ks_2samp(ours, wrong).pvalue < 1e-6


def test_transfers_depend_on_the_seed_and_repeat_with_it():
    s = web_scenario({"kind": "exponential", "mean": "5kB"}).resolved()
    a = tcl_transfers(translate(s, seed=1), 1)
    b = tcl_transfers(translate(s, seed=1), 1)
    c = tcl_transfers(translate(s, seed=2), 1)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0][:10], c[0][:10])


def test_web_agents_are_the_groups_tcp_on_one_shared_access():
    s = web_scenario({"kind": "fixed", "size": "3kB"}, tcp={"recovery": "new_reno"})
    text = translate(s.resolved(), seed=1).text()
    assert "set a [new Agent/TCP/Newreno]; set k [new Agent/TCPSink" in text
    assert text.count("set ws(1) [mk]; set wr(1) [mk]") == 1
    assert "$wapp($id) send $wbytes($id)" in text and "$wa($id) reset; $wk($id) reset" in text
    tahoe = translate(web_scenario({"kind": "fixed", "size": "3kB"}).resolved(), seed=1).text()
    assert "set a [new Agent/TCP]; set k [new Agent/TCPSink" in tahoe  # the web default: Tahoe


def test_quarantine_outlasts_a_packets_stay_in_the_network():
    drains = [web_traffic.drain_s({"limit": {"packets": 50}}, 10e6, 1500)]
    assert drains[0] == pytest.approx(0.06)
    assert web_traffic.quarantine_s(0.06, drains) == pytest.approx(1.0)
    assert web_traffic.quarantine_s(0.5, [0.3, 0.2]) == pytest.approx(2.0)


def test_web_start_must_be_fixed():
    s = web_scenario({"kind": "fixed", "size": "3kB"}).resolved()
    s["topology"]["groups"][1]["start"] = {"kind": "uniform", "low_ns": 0, "high_ns": 1}
    with pytest.raises(Unsupported, match=r"groups\[1\]\.start"):
        translate(s)


def test_finite_transfer_sends_its_size_and_records_completion():
    s = web_scenario({"kind": "fixed", "size": "3kB"}).model_dump(mode="json")
    s["topology"]["groups"] = s["topology"]["groups"][:1]
    s["topology"]["groups"][0]["transfer"] = {"kind": "finite", "size": "2MB"}
    lines = translate(aqmlab.Scenario.from_dict(s).resolved(), seed=1).lines
    assert any(line.endswith('"$app(0) send 2000000"') for line in lines)
    assert any('puts $out "D 0 [$ns now]"' in line for line in lines)
    assert not any('"$app(0) start"' in line for line in lines)
    assert list(web_traffic.completion_times("D 1 4.5\nF 0 1 2 0 0 0\n", 3)[1:2]) == [4.5]


def test_completed_transfers_reads_w_records():
    rows = web_traffic.completed_transfers("W 1 0.5 0.9 3000\nL x\nW 1 1.0 1.2 20\nW 2 3 4 5\n")
    assert rows[1].tolist() == [[0.5, 0.9, 3000.0], [1.0, 1.2, 20.0]]
    assert rows[2].shape == (1, 3)


def run_ns2(program: ns2_mapping.Ns2Program) -> str:
    with tempfile.TemporaryDirectory(prefix="aqmlab-ns2-web-") as tmp:
        (Path(tmp) / "run.tcl").write_text(program.text())
        subprocess.run(["ns", "run.tcl"], cwd=tmp, check=True, capture_output=True)
        return (Path(tmp) / ns2_mapping.RECORDS).read_text()


@pytest.mark.skipif(not HAS_NS, reason="ns-2 (`ns`, Debian package ns2) is not installed")
def test_smoke_ns2_runs_the_same_web_load_as_aqmlab():
    """Exponential sizes (a Pareto 1.2 sample mean is too noisy for a 30-s comparison)."""
    s = web_scenario({"kind": "exponential", "mean": "10kB"}, rate=40.0)
    ours = aqmlab.simulate(s, seed=1).to_pandas("flows")
    web = ours[ours["kind"] == "web"]
    program = translate(s.resolved(), seed=1)  # ns-2's TCP set as aqmlab's (Options(): no SYN, 1-ms tick)
    text = run_ns2(program)
    done = web_traffic.completed_transfers(text)[1]
    drawn = program.web_transfers[1]
    # The same offered load (application bytes per second over the run) within 10 %.
    offered_ns2 = drawn.sizes_bytes.sum() / 30.0
    offered_ours = web["bytes_delivered"].sum() / 30.0  # every aqmlab transfer but the last few completes
    assert offered_ns2 == pytest.approx(offered_ours, rel=0.10)
    # Completed transfers: as many (Poisson count, within 5 %), nearly all of those drawn.
    assert len(done) == pytest.approx(web["fct_s"].notna().sum(), rel=0.05)
    assert len(done) >= 0.97 * drawn.arrivals_s.size
    # Each completed transfer is a drawn one: its arrival time and its own size.
    drawn_size = {round(float(t), 6): int(b) for t, b in zip(drawn.arrivals_s, drawn.sizes_bytes, strict=True)}
    assert all(drawn_size.get(round(t, 6)) == int(b) for t, _, b in done)
    assert len({round(t, 6) for t, _, _ in done}) == len(done)


@pytest.mark.skipif(not HAS_NS, reason="ns-2 (`ns`, Debian package ns2) is not installed")
def test_smoke_ns2_transfers_take_as_long_as_aqmlabs_on_an_idle_path():
    """Without the long-lived flows (no loss): the transfer's TCP mechanics alone. Per size
    class (1, 2, 3-4, 5+ segments of 1460 bytes) the median completion time within 3 %."""
    data = web_scenario({"kind": "exponential", "mean": "10kB"}, rate=40.0).model_dump(mode="json")
    data["topology"]["groups"] = data["topology"]["groups"][1:]
    s = aqmlab.Scenario.from_dict(data)
    flows = aqmlab.simulate(s, seed=1).to_pandas("flows")
    ours = flows[flows["fct_s"].notna()]
    done = web_traffic.completed_transfers(run_ns2(translate(s.resolved(), seed=1)))[0]
    for low, high in ((0, 1460), (1460, 2920), (2920, 5840), (5840, 10**9)):
        in_ns2 = (done[:, 2] > low) & (done[:, 2] <= high)
        in_ours = (ours["bytes_delivered"] > low) & (ours["bytes_delivered"] <= high)
        assert in_ns2.sum() > 50 and in_ours.sum() > 50
        ns2_fct = np.median(done[in_ns2, 1] - done[in_ns2, 0])
        assert ns2_fct == pytest.approx(ours.loc[in_ours, "fct_s"].median(), rel=0.03), (low, high)


@pytest.mark.skipif(not HAS_NS, reason="ns-2 (`ns`, Debian package ns2) is not installed")
def test_smoke_ns2_finite_transfer_completes_as_aqmlabs():
    data = web_scenario({"kind": "fixed", "size": "3kB"}, duration="20s").model_dump(mode="json")
    data["topology"]["groups"] = data["topology"]["groups"][:1]
    data["topology"]["groups"][0]["transfer"] = {"kind": "finite", "size": "5MB"}
    s = aqmlab.Scenario.from_dict(data)
    ours = aqmlab.simulate(s, seed=1).to_pandas("flows")
    program = translate(s.resolved(), seed=1, start_times=list(ours["start_s"]))
    done = web_traffic.completion_times(run_ns2(program), 2)
    fct_ns2 = done - np.array(program.start_times)
    # Two 5-MB transfers sharing 10 Mb/s: both done after about 9 s (10 MB at the link's
    # rate plus slow start); how the two share it on the way is each simulator's own race.
    assert np.all(np.isfinite(fct_ns2))
    assert np.max(done) == pytest.approx(np.max(ours["start_s"] + ours["fct_s"]), rel=0.05)
    assert np.all(fct_ns2 > 10e6 * 8 / 10e6 / 2)


@pytest.mark.skipif(not HAS_NS, reason="ns-2 (`ns`, Debian package ns2) is not installed")
def test_smoke_ns2_results_carry_completions_into_the_flows_table():
    """The referee's path (benchmarks/ns2/referee/ns2_results.py): an ns-2 run as an
    aqmlab Results whose flows table has the finite transfers' completion times."""
    sys.path.insert(0, str(ROOT / "benchmarks" / "ns2" / "referee"))
    import ns2_results

    data = web_scenario({"kind": "fixed", "size": "3kB"}, duration="15s").model_dump(mode="json")
    data["topology"]["groups"][0]["transfer"] = {"kind": "finite", "size": "1MB"}
    s = aqmlab.Scenario.from_dict(data)
    resolved = s.resolved()
    program = translate(resolved, seed=1)
    ns2_results.with_link_state(program, resolved)
    text, _ = ns2_results.run_ns2(program)
    results = ns2_results.results_from_ns2(text, program, s, [0, 0], 1)
    flows = results.to_pandas("flows")
    assert list(flows["kind"]) == ["tcp", "tcp"]  # web transfers are not flows rows in ns-2
    assert flows["fct_s"].between(0.8, 5.0).all()  # 1 MB over a shared 10 Mb/s link
    summary = results.summary()
    assert 0.0 < summary["utilisation_mean"] <= 1.0
    assert summary["flows_completed"] == 2
