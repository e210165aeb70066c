"""Benchmark python-hooks (issue 31): the guide's Python RED (docs/extending/python_red.py)
against the built-in `red` on dumbbell-60 (benchmarks/dumbbell-60/scenario.toml, 100 s).

The Python RED is given the weight the built-in computes for `q_weight = -1` (ns-2's automatic
weight, red.cc `initialize_params`), so both runs are the same run: the script checks that every
result table is identical before it reports a time. Runs alternate (built-in, Python, ...) so
that a change of load hits both alike; wall and CPU time of `aqmlab.simulate` (engine run and
Arrow tables), medians. Writes results.json beside this file.

    .venv/bin/python benchmarks/python-hooks/bench.py --runs 5
    .venv/bin/python benchmarks/python-hooks/bench.py --runs 3 --law    # the window law instead

With `--law`, the flows' window law is timed instead: the built-in `aimd` at Reno's parameters
against docs/extending/python_aimd.py (one Python call per ACK, ~1.5 M of them), the queue the
built-in RED; results go to results-law.json.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

import aqmlab
from aqmlab.machine import describe
from aqmlab.scenario import load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests" / "extending"))
from extending_scenarios import AIMD_REFERENCE, RED_REFERENCE, differences  # noqa: E402


def ns2_automatic_weight(rate_bps: float, delay_s: float, mean_packet_bytes: int = 1500) -> float:
    """ns-2 red.cc `q_weight_ = -1`: 1 − exp(−1/(10 · rtt · ptc)), rtt = max(3 (delay + 1/ptc), 0.1 s)
    (the engine's `automatic_q_weight`, crates/engine/src/queue/red.rs)."""
    ptc = rate_bps / (8.0 * mean_packet_bytes)
    rtt = max(3.0 * (delay_s + 1.0 / ptc), 0.1)
    return 1.0 - math.exp(-1.0 / (10.0 * rtt * ptc))


def scenarios() -> tuple[dict, dict]:
    built_in = load(ROOT / "benchmarks" / "dumbbell-60" / "scenario.toml").model_dump(mode="json")
    red = built_in["topology"]["bottleneck"]["queue"]
    python = copy.deepcopy(built_in)
    python["topology"]["bottleneck"]["queue"] = {
        "kind": "python",
        "limit": red["limit"],
        "policy": RED_REFERENCE,
        "params": {
            "min_th": red["min_th"],
            "max_th": red["max_th"],
            "max_p": red["max_p"],
            "q_weight": ns2_automatic_weight(100e6, 0.048),
        },
    }
    return built_in, python


def law_scenarios() -> tuple[dict, dict]:
    """dumbbell-60 with the built-in `aimd` at Reno's parameters, and with the Python AIMD."""
    built_in, _ = scenarios()
    tcp = built_in["topology"]["groups"][0]["tcp"]
    tcp["cc"] = {"kind": "aimd", "a": 1.0, "n": -1.0, "b": 0.5, "m": 1.0}
    python = copy.deepcopy(built_in)
    python["topology"]["groups"][0]["tcp"]["cc"] = {
        "kind": "python",
        "law": AIMD_REFERENCE,
        "params": {"a": 1.0, "n": -1.0, "b": 0.5, "m": 1.0},
    }
    return built_in, python


def timed(scenario: dict) -> tuple[float, float, aqmlab.Results]:
    wall, cpu = time.perf_counter(), time.process_time()
    results = aqmlab.simulate(scenario)
    return time.perf_counter() - wall, time.process_time() - cpu, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--law", action="store_true", help="time the window law instead of the queue policy")
    args = parser.parse_args()
    built_in, python = law_scenarios() if args.law else scenarios()
    timed(built_in)  # warm up: imports, page cache
    samples: dict[str, dict[str, list[float]]] = {
        "built_in": {"wall": [], "cpu": []},
        "python": {"wall": [], "cpu": []},
    }
    load_at_start = " ".join(f"{x:.2f}" for x in os.getloadavg())
    for run in range(args.runs):
        results = {}
        for name, scenario in (("built_in", built_in), ("python", python)):
            wall, cpu, results[name] = timed(scenario)
            samples[name]["wall"].append(wall)
            samples[name]["cpu"].append(cpu)
            print(f"run {run}: {name} wall {wall:.3f} s, cpu {cpu:.3f} s", flush=True)
        diff = differences(results["built_in"], results["python"])
        if diff:
            raise SystemExit(f"the Python class's run differs from the built-in's: {diff[:5]}")
    median = {name: {k: statistics.median(v) for k, v in s.items()} for name, s in samples.items()}
    report = {
        "machine": describe(load_at_start=load_at_start, load_at_end=" ".join(f"{x:.2f}" for x in os.getloadavg())),
        "command": f"benchmarks/python-hooks/bench.py --runs {args.runs}" + (" --law" if args.law else ""),
        "scenario": "benchmarks/dumbbell-60/scenario.toml (100 s): "
        + (
            "built-in aimd vs docs/extending/python_aimd.py"
            if args.law
            else "built-in red vs docs/extending/python_red.py"
        ),
        "identical_results": True,
        "samples": samples,
        "median": median,
        "ratio_wall": median["python"]["wall"] / median["built_in"]["wall"],
        "ratio_cpu": median["python"]["cpu"] / median["built_in"]["cpu"],
        "bottleneck_arrivals": next(
            row["arrivals"] for row in results["python"].links.to_pylist() if row["role"] == "bottleneck"
        ),
    }
    (HERE / ("results-law.json" if args.law else "results.json")).write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps({k: report[k] for k in ("median", "ratio_wall", "ratio_cpu")}, indent=2))


if __name__ == "__main__":
    main()
