"""Benchmark dumbbell-60: wall time, bottleneck packets per wall-clock second, peak memory.

Runs the packet engine in a bare Rust process (`crates/engine/examples/run_scenario.rs`,
so peak memory is the engine's, not Python's) and through `aqmlab.simulate` (the Python
API, Arrow tables included), each `--runs` times; reports medians and writes
`results.json` beside this file. With `--ns3`, runs benchmarks/ns3/dumbbell60.py in the same
session so the ratio is measured side by side. Each is timed in wall time and in CPU time
(user + system: the runner process's, `time.process_time` of the warm API call and of ns-3's
`Simulator::Run`); on a shared machine the CPU ratio is the one to quote (issue 28).

    make bench                      # or: .venv/bin/python benchmarks/dumbbell-60/bench.py
    .venv/bin/python benchmarks/dumbbell-60/bench.py --runs 5 --ns3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aqmlab
from aqmlab.machine import describe

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RUNNER = ROOT / "target" / "release" / "examples" / "run_scenario"


def machine() -> dict[str, str]:
    return describe(load_at_start=" ".join(map(str, os.getloadavg())))


def children_cpu_s() -> float:
    """User + system CPU time of this process's finished children (`getrusage`, microseconds)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def engine_runs(resolved: dict, runs: int, seed: int) -> list[dict]:
    """The bare runner's own report per run, with `cpu_s`: the runner process's CPU time
    (user + system; includes building the simulation, which `run_s` leaves out)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(resolved, file)
    samples = []
    try:
        for _ in range(runs):
            cpu = children_cpu_s()
            sample = json.loads(subprocess.check_output([str(RUNNER), file.name, str(seed)], text=True))
            samples.append(sample | {"cpu_s": children_cpu_s() - cpu})
        return samples
    finally:
        os.unlink(file.name)


def python_runs(scenario: aqmlab.Scenario, runs: int, seed: int) -> tuple[list[float], list[float]]:
    """Wall and CPU time (`time.process_time`) of each warm `aqmlab.simulate`."""
    walls, cpus = [], []
    for _ in range(runs):
        began, cpu = time.perf_counter(), time.process_time()
        aqmlab.simulate(scenario, seed=seed)
        walls.append(time.perf_counter() - began)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def ns3_runs(runs: int) -> dict | None:
    script = ROOT / "benchmarks" / "ns3" / "dumbbell60.py"
    python = ROOT / "benchmarks" / "ns3" / ".venv" / "bin" / "python"
    if not script.is_file() or not python.is_file():
        print("ns-3 not set up: run `make bench-ns3` (benchmarks/ns3/README.md) first", file=sys.stderr)
        return None
    out = HERE / "ns3-side-by-side.json"
    subprocess.check_call([str(python), str(script), "--runs", str(runs), "--json", str(out)])
    return json.loads(out.read_text())


def summarise(samples: list[dict], key: str) -> float:
    return statistics.median(sample[key] for sample in samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ns3", action="store_true", help="also run the ns-3 reference (slow: ~75 s a run)")
    parser.add_argument(
        "--scenario",
        type=Path,
        default=HERE / "scenario.toml",
        help="another benchmark's scenario (e.g. benchmarks/large-scale/scenario.toml)",
    )
    parser.add_argument("--no-python", action="store_true", help="skip the Python API timing")
    args = parser.parse_args()

    subprocess.check_call(["cargo", "build", "--quiet", "--release", "--example", "run_scenario"], cwd=ROOT)
    scenario = aqmlab.Scenario.from_toml(args.scenario)
    out_dir = args.scenario.resolve().parent
    traced = scenario.resolved()
    bare = json.loads(json.dumps(traced))
    bare["trace"]["flows"] = 0
    report = {
        "machine": machine(),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "scenario": scenario.model_dump(mode="json"),
        "runs": args.runs,
    }
    for label, resolved in (("engine_no_flow_trace", bare), ("engine_default_trace", traced)):
        samples = engine_runs(resolved, args.runs, args.seed)
        report[label] = {
            "wall_s_median": summarise(samples, "run_s"),
            "cpu_s_median": summarise(samples, "cpu_s"),
            "bottleneck_packets_per_s_median": summarise(samples, "bottleneck_packets_per_s"),
            "peak_rss_mib_median": summarise(samples, "peak_rss_mib"),
            "events": samples[0]["events"],
            "bottleneck_departures": samples[0]["bottleneck_departures"],
            "samples": samples,
        }
    if not args.no_python:
        walls, cpus = python_runs(scenario, args.runs, args.seed)
        report["python_api_default_trace"] = {
            "wall_s_median": statistics.median(walls),
            "cpu_s_median": statistics.median(cpus),
            "wall_s": walls,
            "cpu_s": cpus,
        }
    if args.ns3:
        ns3 = ns3_runs(args.runs)
        if ns3 is not None:
            report["ns3"] = ns3
            ns3_wall = ns3.get("median_run_s") or ns3.get("wall_s_median")
            if ns3_wall:
                report["speedup_vs_ns3"] = ns3_wall / report["engine_no_flow_trace"]["wall_s_median"]
            ns3_cpu = ns3.get("median_run_cpu_s")
            if ns3_cpu:
                # CPU time of ns-3's Simulator::Run against the runner process's CPU time: the
                # ratio that does not depend on the other jobs of a shared machine.
                report["cpu_speedup_vs_ns3"] = ns3_cpu / report["engine_no_flow_trace"]["cpu_s_median"]
            ns3_rate = ns3.get("median_bottleneck_packets_per_s")
            if ns3_rate:
                report["packet_rate_ratio_vs_ns3"] = (
                    report["engine_no_flow_trace"]["bottleneck_packets_per_s_median"] / ns3_rate
                )
    report["machine"]["load_at_end"] = " ".join(map(str, os.getloadavg()))
    (out_dir / "results.json").write_text(json.dumps(report, indent=2))
    for key in ("engine_no_flow_trace", "engine_default_trace", "python_api_default_trace"):
        if key in report:
            print(key, {k: v for k, v in report[key].items() if k not in ("samples", "wall_s")})
    if "cpu_speedup_vs_ns3" in report:
        print(f"speed-up over ns-3 in CPU time: {report['cpu_speedup_vs_ns3']:.0f}x")
    if "speedup_vs_ns3" in report:
        print(
            f"speed-up over ns-3: {report['speedup_vs_ns3']:.0f}x wall time, "
            f"{report.get('packet_rate_ratio_vs_ns3', float('nan')):.0f}x bottleneck packets per wall second"
        )


if __name__ == "__main__":
    main()
