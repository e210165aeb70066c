"""Issue 20: packet stability charts end to end on a small dumbbell: the store makes a rerun
skip every probe, the same seeds give the same chart, a 2-worker Dask cluster gives the same
chart as one process, and the CLI writes the chart and names bad input."""

import json

import pytest
from aqmlab.cli import app
from aqmlab.experiments.packet_chart import packet_chart
from typer.testing import CliRunner

SMALL = {
    "name": "small-red",
    "duration": "20s",
    "seed": 1,
    "topology": {
        "kind": "dumbbell",
        "bottleneck": {
            "rate": "12Mbps",
            "delay": "2ms",
            "queue": {"kind": "red", "limit": "400p", "min_th": 10, "max_th": 30, "max_p": 0.1, "q_weight": -1},
        },
        "groups": [
            {
                "name": "reno",
                "count": 10,
                "rtt": "20ms",
                "access_rate": "10Mbps",
                "tcp": {"cc": "reno", "packet_size": "1500B"},
            }
        ],
    },
}
SMALL_TOML = """
name = "small-red"
duration = "20s"
seed = 1
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "12Mbps"
delay = "2ms"
queue = { kind = "red", limit = "400p", min_th = 10, max_th = 30, max_p = 0.1, q_weight = -1 }
[[topology.groups]]
name = "reno"
count = 10
rtt = "20ms"
access_rate = "10Mbps"
tcp = { cc = "reno", packet_size = "1500B" }
"""
ARGS = ("per_flow_capacity=100,150", "rtt=0.01..0.4")
SETTINGS = {"seeds": (1, 2), "duration_s": 20.0, "analysis_start_s": 5.0, "max_rounds": 2, "fluid": False}


def measures(chart) -> str:
    """Every probe's measures except its wall time, as text (nan compares equal)."""
    return json.dumps([{k: v for k, v in row.items() if k != "wall_time_s"} for row in chart.probe_rows()])


def summary(chart):
    return [
        (b.x, b.status, b.stable_y, b.oscillating_y, [(y, v.verdict) for y, v in b.probes]) for b in chart.boundaries
    ]


def test_rerun_skips_stored_probes_and_gives_the_same_chart(tmp_path):
    first = packet_chart(SMALL, *ARGS, out=tmp_path / "store", **SETTINGS)
    assert first.meta["runs_computed"] > 0 and first.meta["runs_stored"] == 0
    again = packet_chart(SMALL, *ARGS, out=tmp_path / "store", **SETTINGS)
    assert again.meta["runs_computed"] == 0 and again.meta["runs_stored"] == first.meta["runs_computed"]
    assert summary(again) == summary(first) and measures(again) == measures(first)
    fresh = packet_chart(SMALL, *ARGS, out=tmp_path / "fresh", **SETTINGS)  # recomputed: bit-identical
    assert measures(fresh) == measures(first)
    with pytest.raises(Exception, match="holds a different packet chart"):
        packet_chart(SMALL, *ARGS, out=tmp_path / "store", **{**SETTINGS, "seeds": (1, 3)})


def test_two_dask_workers_and_two_processes_give_the_one_process_chart(tmp_path):
    pytest.importorskip("distributed")
    small = {**SETTINGS, "max_rounds": 1}  # 2 x, 3 probes each, 2 seeds: 12 runs of 20 s
    local = packet_chart(SMALL, *ARGS, out=tmp_path / "one", **small)
    pool = packet_chart(SMALL, *ARGS, out=tmp_path / "pool", workers=2, **small)
    dask = packet_chart(SMALL, *ARGS, out=tmp_path / "dask", cluster="local", workers=2, **small)
    assert summary(pool) == summary(local) == summary(dask)
    assert measures(pool) == measures(local) == measures(dask)


def test_fluid_overlay_reports_both_mappings():
    chart = packet_chart(
        SMALL, "per_flow_capacity=100", "rtt=0.01..0.4", **{**SETTINGS, "max_rounds": 0, "fluid": True}
    )
    curves = chart.fluid["curves"]
    assert chart.fluid["model"] == "ctcp-red" and set(curves) == {"paper", "mapped"}
    # seed 000's parameters at C̃ = 100: the Hopf point of Fig. 2a, 84.8 ms, period 63 s
    assert curves["paper"]["y"][0] == pytest.approx(0.0848, abs=5e-4)
    assert curves["paper"]["period_s"][0] == pytest.approx(63.2, abs=0.5)
    row = chart.rows()[0]
    assert row["fluid_paper_y"] == curves["paper"]["y"][0]


@pytest.mark.parametrize(
    ("x", "y", "extra", "message"),
    [
        ("speed=1,2", "rtt=0.01..0.1", {}, "x = 'speed'; allowed: rtt, per_flow_capacity, q_th"),
        ("rtt=0.02,0.1", "rtt=0.01..0.1", {}, "two different axes"),
        ("per_flow_capacity=1..2:0", "rtt=0.01..0.1", {}, "N >= 1"),
        ("per_flow_capacity=100", "q_th=5..50", {}, "queue.kind = 'threshold'"),
        ("per_flow_capacity=100", "rtt=0.01..0.1", {"seeds": (0,)}, "seeds = \\(0,\\)"),
        ("per_flow_capacity=100", "rtt=0.01..0.1", {"duration_s": 5.0}, "analysis_start_s = 5.0"),
    ],
)
def test_bad_input_is_named(x, y, extra, message):
    with pytest.raises(ValueError, match=message):
        packet_chart(SMALL, x, y, **{**SETTINGS, **extra})


def unwrapped(output: str) -> str:
    """The CLI's message with rich's line wrapping undone (where it wraps depends on the length
    of the temporary directory's path)."""
    return " ".join(output.split())


def test_cli_packet_chart_writes_and_resumes(tmp_path):
    toml = tmp_path / "small.toml"
    toml.write_text(SMALL_TOML)
    out = tmp_path / "chart"
    command = ["chart", str(toml), "--packet", "--x", ARGS[0], "--y", ARGS[1], "--seeds", "1,2"]
    command += ["--duration", "20", "--analysis-start", "5", "--max-rounds", "1", "--out", str(out)]
    runner = CliRunner()
    result = runner.invoke(app, command)
    assert result.exit_code == 0, result.output
    for name in ("chart.png", "result.json", "boundaries.parquet", "probes.parquet", "chart.json"):
        assert (out / name).is_file()
    record = json.loads((out / "result.json").read_text())
    assert [row["per_flow_capacity"] for row in record["boundaries"]] == [100.0, 150.0]
    again = runner.invoke(app, command)
    assert again.exit_code == 0 and "0 runs computed" in again.output
    other = runner.invoke(app, [*command[:-1], str(tmp_path), "--seeds", "1"])  # not a chart directory
    assert other.exit_code == 2 and "holds no packet chart to resume; pass --force" in unwrapped(other.output)
    changed = runner.invoke(app, [*command, "--seeds", "1"])
    assert changed.exit_code == 2 and "holds a different packet chart" in unwrapped(changed.output)
    bad = runner.invoke(app, ["chart", str(toml), "--packet", "--x", "speed=1", "--y", ARGS[1]])
    assert bad.exit_code == 2 and "allowed: rtt, per_flow_capacity, q_th" in unwrapped(bad.output)
    bad = runner.invoke(app, ["chart", str(toml), "--packet", "--x", ARGS[0], "--y", ARGS[1], "--seeds", "a"])
    assert bad.exit_code == 2 and "--seeds = 'a'" in unwrapped(bad.output)


SIMULATED: list[tuple[str, int]] = []


def counting_simulate(scenario, *, seed):
    """A stand-in for another simulator (ns-2 in the referee): aqmlab's run, counted."""
    from aqmlab.simulation import simulate

    SIMULATED.append((scenario["name"], seed))
    return simulate(scenario, seed=seed)


def test_probes_run_on_the_simulator_given_and_its_store_says_so(tmp_path):
    SIMULATED.clear()
    small = {**SETTINGS, "max_rounds": 1}
    chart = packet_chart(SMALL, *ARGS, out=tmp_path / "other", simulator=counting_simulate, **small)
    assert len(SIMULATED) == chart.meta["runs_computed"] > 0
    assert chart.settings["simulator"].endswith("counting_simulate")
    assert measures(chart) == measures(packet_chart(SMALL, *ARGS, out=tmp_path / "aqmlab", **small))
    with pytest.raises(Exception, match="holds a different packet chart"):  # one simulator per store
        packet_chart(SMALL, *ARGS, out=tmp_path / "other", **small)
