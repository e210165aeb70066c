"""Issue 17's reproducers, one test each: bad input is a clean aqmlab error naming the field
(CLI: one `error:` line, exit 2, nothing written), oversized scenarios are refused before
anything is allocated, and partial or empty results say so."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import aqmlab
import pytest
from aqmlab import _engine
from aqmlab.cli import app
from aqmlab.errors import AqmlabError, EmptyWindowError, ScenarioError, WorkLimitExceeded
from aqmlab.results import Results
from robust_helpers import EXAMPLES, short, to_toml
from typer.testing import CliRunner

runner = CliRunner()


def write(tmp_path: Path, data: dict, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(to_toml(data))
    return path


def assert_clean_cli_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    assert result.output.count("error:") == 1 and "Traceback" not in result.output, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


def dumbbell(**changes) -> dict:
    data = short("seed000-fig6-rtt10.toml")
    group = data["topology"]["groups"][0]
    group["count"] = 2
    for key, value in changes.items():
        node = data
        *parents, last = key.split(".")
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
        node[last] = value
    return data


# --- Unhandled exceptions ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["validate", "run"])
def test_toml_nested_500_deep_is_a_clean_error(tmp_path, command):
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 500 + "]" * 500 + "\n")
    args = [command, str(path)] + (["--out", str(tmp_path / "out"), "-q"] if command == "run" else [])
    assert_clean_cli_error(runner.invoke(app, args), "nested too deeply")
    assert not (tmp_path / "out").exists()
    with pytest.raises(ScenarioError):
        aqmlab.Scenario.from_dict({"name": {"x": [[[[[[]]]]]]}} | _nested(1000))


def _nested(depth: int) -> dict:
    node: dict = {}
    root = node
    for _ in range(depth):
        node["a"] = {}
        node = node["a"]
    return {"topology": root}


def test_non_utf8_byte_is_a_clean_error(tmp_path):
    text = (EXAMPLES / "seed000-fig6-rtt10.toml").read_bytes().replace(b'name = "', b'name = "\xff', 1)
    path = tmp_path / "bad.toml"
    path.write_bytes(text)
    assert_clean_cli_error(runner.invoke(app, ["validate", str(path)]), "0xff", "UTF-8")


def test_a_directory_as_scenario_is_a_clean_error(tmp_path):
    assert_clean_cli_error(runner.invoke(app, ["validate", str(tmp_path)]), "cannot read")


@pytest.mark.parametrize("duration", ["1.8e299s", "1e300s", "1e9s", 1e300, "1e20 ms"])
def test_huge_durations_are_refused_by_the_bounds(duration):
    # units.nanoseconds overflowed (OverflowError) from ~1.8e299 s (issue 17; units.py is
    # issue 18's): the duration bound rejects such values before any conversion.
    with pytest.raises(ScenarioError, match="duration"):
        aqmlab.simulate(dumbbell(duration=duration))


@pytest.mark.parametrize("seed", ["-1", str(2**64), str(2**70)])
def test_out_of_range_seeds_are_clean_cli_errors(tmp_path, seed):
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(write(tmp_path, dumbbell())), "--out", str(out), "-q", f"--seed={seed}"])
    assert_clean_cli_error(result, "seed")
    assert not out.exists()


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "1"])
def test_out_of_range_seeds_are_scenario_errors(seed):
    with pytest.raises(ScenarioError, match="seed"):
        aqmlab.simulate(dumbbell(), seed=seed)


def _network(*names: str) -> dict:
    data = short("seed002-fig11-network.toml")
    links = data["topology"]["links"]
    for link, name in zip(links, names, strict=False):
        old = link["name"]
        link["name"] = name
        for group in data["topology"]["groups"]:
            path = group.get("path", {})
            if path.get("kind") == "routers":
                pass  # routers, not links: names do not appear in paths
        assert old
    return data


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("a/b",), "a link name is"),
        (("..",), "a link name is"),
        (("x" * 300,), "a link name is"),
        (("ab", "ab_reverse"), "would name two links"),
        (("access",), "reserved"),
    ],
)
def test_link_names_are_checked_before_running(tmp_path, names, message):
    out = tmp_path / "out"
    began = time.perf_counter()
    result = runner.invoke(app, ["run", str(write(tmp_path, _network(*names))), "--out", str(out), "-q"])
    assert_clean_cli_error(result, message)
    assert not out.exists() and time.perf_counter() - began < 30


def test_parking_lot_reverse_name_clash_is_refused():
    data = short("seed000-fig16-parking-lot.toml")
    data["topology"]["links"][0]["name"] = "link2_reverse"
    with pytest.raises(ScenarioError, match="would name two links"):
        aqmlab.Scenario.from_dict(data)


# --- Resource guard -------------------------------------------------------------------------


def test_validate_of_a_million_flows_is_refused_without_allocating(tmp_path):
    path = write(tmp_path, dumbbell(**{"topology.groups.0.count": 1_000_000}))
    # VmHWM is this process image's peak RSS. ru_maxrss would not do: Linux carries the peak of the
    # image before exec (the forked pytest process, hundreds of MB late in the suite) into it.
    code = (
        "import re, sys\n"
        "from aqmlab.cli import main\n"
        f"sys.argv = ['aqmlab', 'validate', {str(path)!r}]\n"
        "try:\n    main()\n"
        "except SystemExit as exit:\n"
        "    peak = re.search(r'VmHWM:\\s+(\\d+) kB', open('/proc/self/status').read()).group(1)\n"
        "    print('rss', peak, 'code', exit.code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert "rss" in done.stdout, done.stderr
    rss_kib, exit_code = int(done.stdout.split()[1]), int(done.stdout.split()[3])
    assert exit_code == 2 and "too large" in done.stderr and "count" in done.stderr, done.stderr
    assert rss_kib < 600 * 1024  # the interpreter and its imports only (2 GB before)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"topology.groups.0.tcp": {"initial_window": 1e12}}, "initial_window"),
        ({"topology.groups.0.tcp": {"initial_window": 1e300, "max_window": 1e300}}, "window"),
        ({"topology.groups.0.tcp": {"cc": {"kind": "scalable", "a": 1e300}}}, "cc.a"),
        ({"duration": "1e9s"}, "duration"),
        ({"duration": "1000s", "trace": {"interval": "1us"}}, "trace.interval"),
        ({"duration": "100000s"}, "trace.interval"),
        (
            {"duration": "1000000s", "trace": {"interval": "1000s"}, "topology.groups.0.access_rate": "1Gbps"},
            "access_rate",
        ),
    ],
)
def test_oversized_scenarios_are_refused_naming_the_field(change, field):
    began = time.perf_counter()
    with pytest.raises(ScenarioError, match=field.replace(".", r"\.")):
        aqmlab.simulate(dumbbell(**change))
    assert time.perf_counter() - began < 10


def test_fast_udp_and_web_groups_are_refused():
    udp = short("udp-joins-and-leaves.toml")
    source = next(group for group in udp["topology"]["groups"] if group.get("kind") == "udp")
    source["rate"] = 1e13
    udp["duration"] = "100s"
    with pytest.raises(WorkLimitExceeded, match="rate"):
        aqmlab.simulate(udp)
    source["rate"] = 1e18
    with pytest.raises(ScenarioError, match="rate"):
        aqmlab.simulate(udp)
    web = short("seed000-fig10-mixed.toml")
    for group in web["topology"]["groups"]:
        if group.get("kind") == "web":
            group["arrival_rate"] = 1e9
    with pytest.raises(ScenarioError, match="arrival_rate"):
        aqmlab.simulate(web)


def test_allow_large_lets_a_refused_run_go(tmp_path, monkeypatch):
    # The scenario's estimate is ~700 events and packets (issue 28's per-packet costs).
    monkeypatch.setenv("AQMLAB_MAX_WORK", "100")
    scenario = dumbbell()
    with pytest.raises(WorkLimitExceeded, match="allow_large"):
        aqmlab.simulate(scenario)
    assert aqmlab.simulate(scenario, allow_large=True).finished
    path = write(tmp_path, scenario)
    assert_clean_cli_error(runner.invoke(app, ["validate", str(path)]), "--allow-large")
    assert runner.invoke(app, ["validate", str(path), "--allow-large"]).exit_code == 0


def test_a_run_that_outgrows_its_estimate_stops_at_the_work_limit(monkeypatch):
    from aqmlab import workload

    scenario = aqmlab.Scenario.from_dict(dumbbell(duration="3s"))
    monkeypatch.setenv("AQMLAB_MAX_WORK", "3000")
    real = workload.estimate(scenario)
    monkeypatch.setattr(workload, "estimate", lambda s: real.__class__(**{**real.__dict__, "work": 1.0}))
    with pytest.raises(WorkLimitExceeded, match="stopped at") as caught:
        aqmlab.simulate(scenario)
    partial = caught.value.partial
    assert partial.partial and 3000 <= partial.counters["events"] + partial.counters["packets_created"] < 3100


def test_engine_bounds_hold_without_the_python_layer():
    resolved = aqmlab.Scenario.from_dict(dumbbell()).resolved()
    tcp = resolved["topology"]["groups"][0]["traffic"]["tcp"]
    for field, value in [("initial_window", 1e300), ("max_window", 1e12), ("initial_ssthresh", float("inf"))]:
        bad = json.loads(json.dumps(resolved))
        bad["topology"]["groups"][0]["traffic"]["tcp"] = {**tcp, field: value}
        with pytest.raises(ScenarioError, match=field):
            _engine.Simulation(json.dumps(bad), 1)
    bad = json.loads(json.dumps(resolved))
    bad["topology"]["bottleneck"]["rate_bps"] = 10**18
    with pytest.raises(ScenarioError, match="rate_bps"):
        _engine.Simulation(json.dumps(bad), 1)
    bad = json.loads(json.dumps(resolved))
    bad["topology"]["groups"][0]["start"] = {"kind": "staggered", "first_ns": 1, "spacing_ns": 10**17}
    bad["topology"]["groups"][0]["traffic"]["count"] = 1000
    with pytest.raises(ScenarioError, match="last flow"):
        _engine.Simulation(json.dumps(bad), 1)


# --- Nonsense accepted ----------------------------------------------------------------------


def test_a_run_shorter_than_one_trace_interval_is_refused():
    with pytest.raises(ScenarioError, match="trace.interval"):
        aqmlab.simulate(dumbbell(duration="5ms"))
    with pytest.raises(ScenarioError, match="no trace sample"):
        aqmlab.simulate(dumbbell(duration="1s", measure_start="0.95s", trace={"interval": "0.3s"}))


def test_partial_results_with_a_collapsed_window_say_so(tmp_path):
    scenario = aqmlab.Scenario.from_dict(dumbbell(duration="2s", measure_start="1.5s"))
    simulation = _engine.Simulation(scenario.resolved_json(), 1)
    simulation.run_until(500_000_000)
    partial = Results.from_engine(scenario, 1, simulation.results(), end_s=0.5, finished=False, wall_time_s=0.1)
    assert partial.partial
    with pytest.raises(EmptyWindowError, match="stopped at t = 0.5 s of 2 s, before the measurement window"):
        partial.summary()
    out = partial.save(tmp_path / "partial")
    record = json.loads((out / "summary.json").read_text())["bottleneck"]
    assert record["partial"] is True and record["samples"] == 0 and "no samples" in record["error"]
    shown = runner.invoke(app, ["summary", str(out)])
    assert shown.exit_code == 1 and "partial" in shown.output and "no samples" in shown.output


def test_partial_results_with_samples_are_flagged_and_summary_exits_1(tmp_path):
    scenario = aqmlab.Scenario.from_dict(dumbbell(duration="2s", measure_start="0.5s"))
    simulation = _engine.Simulation(scenario.resolved_json(), 1)
    simulation.run_until(1_000_000_000)
    partial = Results.from_engine(scenario, 1, simulation.results(), end_s=1.0, finished=False, wall_time_s=0.1)
    summary = partial.summary()
    assert summary["partial"] is True and summary["samples"] == 50 and summary["window_end_s"] == 1.0
    out = partial.save(tmp_path / "partial")
    assert json.loads((out / "summary.json").read_text())["bottleneck"]["partial"] is True
    shown = runner.invoke(app, ["summary", str(out)])
    assert shown.exit_code == 1 and "PARTIAL" in shown.output and "stopped at t = 1 s of 2 s" in shown.output


def test_link_id_finds_only_traced_links():
    data = _network("ab", "bc")
    results = aqmlab.simulate(data)
    names = results.links.column("name").to_pylist()
    assert names.count("access") > 1
    with pytest.raises(KeyError):
        results.link_id("access")
    assert names[results.link_id("ab")] == "ab"


def test_every_error_class_is_an_aqmlab_error():
    for error in (ScenarioError, WorkLimitExceeded, EmptyWindowError, aqmlab.ResultsError, _engine.ScenarioError):
        assert issubclass(error, AqmlabError)
    assert issubclass(ScenarioError, ValueError) and _engine.ScenarioError is ScenarioError


def test_unreadable_results_are_a_results_error(tmp_path):
    (tmp_path / "scenario.json").write_text("{not json")
    with pytest.raises(aqmlab.ResultsError, match="unreadable"):
        Results.load(tmp_path)
    assert_clean_cli_error(runner.invoke(app, ["summary", str(tmp_path)]), "unreadable")


def test_rss_of_this_process_is_sane():
    # The tests above ran refused scenarios in this process: none of them allocated.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 3 * 1024 * 1024


def test_aqmlab_run_writes_partial_results_interrupted_before_the_window(tmp_path, monkeypatch):
    # Found by the SIGINT test: the figures asked for summaries, which a window without
    # samples cannot give, and the partial results were lost (exit 2).
    import aqmlab.cli
    from aqmlab.errors import SimulationInterrupted

    scenario = aqmlab.Scenario.from_dict(dumbbell(duration="2s", measure_start="1.5s"))
    simulation = _engine.Simulation(scenario.resolved_json(), 1)
    simulation.run_until(500_000_000)
    partial = Results.from_engine(scenario, 1, simulation.results(), end_s=0.5, finished=False, wall_time_s=0.1)

    def interrupted(*args, **kwargs):
        raise SimulationInterrupted(partial)

    monkeypatch.setattr(aqmlab.cli, "run_with_progress", interrupted)
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(write(tmp_path, dumbbell(duration="2s"))), "--out", str(out), "-q"])
    assert result.exit_code == 130, result.output
    assert "PARTIAL" in result.output and (out / "figure.png").is_file()
    assert json.loads((out / "summary.json").read_text())["bottleneck"]["partial"] is True
