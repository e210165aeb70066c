"""`trace.packets` in a scenario: validation, the memory bound, determinism, the Parquet file
of a run directory and `aqmlab trace`."""

from __future__ import annotations

import pytest
from aqmlab import simulate, workload
from aqmlab.cli import app
from aqmlab.errors import ScenarioError, WorkLimitExceeded
from aqmlab.results import Results
from packet_trace_scenario import SMALL, small_scenario
from typer.testing import CliRunner

runner = CliRunner()


def test_an_empty_choice_is_refused_naming_the_field():
    with pytest.raises(ScenarioError, match=r"trace\.packets.*give links, flows or groups"):
        small_scenario(links=[], flows=[], groups=[])


def test_an_unknown_group_is_refused_naming_the_field():
    with pytest.raises(ScenarioError, match=r"trace\.packets\.groups\[0\] = 'web' is not a flow group"):
        small_scenario(groups=["web"])
    with pytest.raises(ScenarioError, match=r"trace\.packets\.groups\[0\] = 3 is not a group index"):
        small_scenario(groups=[3])


def test_an_unknown_link_or_flow_is_refused_by_the_engine_naming_the_field():
    with pytest.raises(ScenarioError, match=r"trace\.packets\.links\[0\].*bottleneck_reverse"):
        simulate(small_scenario(links=["core"]))
    with pytest.raises(ScenarioError, match=r"trace\.packets\.flows\[0\]"):
        simulate(small_scenario(flows=[7]))


def test_groups_by_name_choose_their_flows():
    results = simulate(small_scenario(groups=["sack"], links=["bottleneck"]))
    assert sorted(set(results.packet_trace.column("flow").to_pylist())) == [0, 1, 2]
    one = simulate(small_scenario(flows=[1]))
    assert set(one.packet_trace.column("flow").to_pylist()) == {1}
    assert "access" in set(one.packet_trace.column("link_name").to_pylist()), "no links: every link the flow crosses"


def test_the_same_seed_gives_the_same_trace(traced_run):
    assert simulate(small_scenario()).packet_trace.equals(traced_run.packet_trace)


def test_a_trace_beyond_the_memory_bound_is_refused_naming_the_field(monkeypatch):
    scenario = small_scenario().with_changes(duration="2000s")
    estimate = workload.estimate(scenario)
    assert estimate.packet_trace_rows > 0
    without = workload.estimate(without_packet_trace(scenario))
    monkeypatch.setenv("AQMLAB_MAX_MEMORY", str((without.memory_bytes + estimate.memory_bytes) / 2))
    workload.check(without_packet_trace(scenario))  # the same run without the packet trace fits
    with pytest.raises(WorkLimitExceeded, match=r"mostly from trace\.packets"):
        workload.check(scenario)


def without_packet_trace(scenario):
    """The scenario without its packet trace."""
    return scenario.with_changes(trace={"interval": "10ms"})


def test_a_run_directory_holds_the_parquet_trace_and_aqmlab_trace_writes_the_others(tmp_path):
    path = tmp_path / "traced.toml"
    topology = SMALL["topology"]
    group = topology["groups"][0]
    path.write_text(
        f"""name = "traced"
duration = "{SMALL["duration"]}"
seed = {SMALL["seed"]}
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "10Mbps"
delay = "5ms"
queue = {{ kind = "red", limit = "25p", min_th = 3, max_th = 12, ecn = true }}
[[topology.groups]]
name = "{group["name"]}"
count = 3
rtt = "40ms"
access_rate = "100Mbps"
tcp = {{ ecn = true, sack = true }}
transfer = {{ kind = "finite", size = "600KB" }}
start = {{ kind = "uniform", low = "0s", high = "0.2s" }}
[trace.packets]
links = ["bottleneck", "bottleneck_reverse"]
"""
    )
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", str(path), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    saved = Results.load(out)
    assert saved.packet_trace.to_pylist() == simulate(small_scenario()).packet_trace.to_pylist()
    result = runner.invoke(app, ["trace", str(out), "--format", "ns2"])
    assert result.exit_code == 0, result.output
    assert (out / "packet_trace.tr").read_text().startswith("+ ")
    result = runner.invoke(
        app, ["trace", str(out), "-f", "pcap", "--link", "bottleneck", "-o", str(tmp_path / "b.pcap")]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "b.pcap").read_bytes()[:4] == bytes.fromhex("4d3cb2a1")  # nanosecond pcap, little-endian
    again = runner.invoke(app, ["trace", str(out), "--format", "ns2"])
    assert again.exit_code == 2 and "pass --force" in again.output
    assert Results.load(out).packet_trace is not None, "the run directory is still intact"


def test_aqmlab_trace_of_a_run_without_one_says_how_to_get_one(tmp_path):
    plain = simulate(without_packet_trace(small_scenario()))
    assert plain.packet_trace is None
    with pytest.raises(KeyError, match="sets no trace.packets"):
        plain.table("packet_trace")
    plain.save(tmp_path / "run")
    result = runner.invoke(app, ["trace", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert "no per-packet trace" in result.output and "trace.packets" in result.output
