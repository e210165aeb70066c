"""Speed side by side: ns-2 2.35 against aqmlab on the same scenarios, in one sitting (issue 27).

    make bench-ns2      # = python benchmarks/ns2/bench.py --runs 5

Scenarios: benchmarks/dumbbell-60 (60 NewReno flows, RED, RTT 100 ms, 100 s) and seed 000's
Fig. 6 setup at RTT 200 ms (examples/seed000-fig6-rtt200.toml: 60 Compound flows behind
2 Mb/s access links, RED(50, 100), 500 s), with Compound's zeta = 1 and SACK so that both
simulators run the same law (ns-2's tcp_compound.c; ns2_mapping refuses otherwise).

Per scenario, `--runs` rounds, each running in turn (interleaved, so machine load falls on
every measurement alike):
- ns-2: the whole `ns` process on the harness's Tcl program (queue monitor sampled every
  trace interval, as the agreement runs);
- aqmlab engine: the bare Rust runner (target/release/examples/run_scenario, its `run_s`:
  the engine's run, no Python, no per-flow traces);
- aqmlab `simulate()` warm: in this process after a first call (Arrow tables included);
- aqmlab whole process: a fresh `python -c "import aqmlab; aqmlab.simulate(...)"`.
The last two run twice: with aqmlab's default traces (the first 100 flows' windows every 10 ms:
more than ns-2's program records) and, like with like, with `trace.flows = 0` as the runner
(ns-2's program samples the queue monitor and traces no flow: `*_untraced_cpu_s`).
Each is timed twice: wall time, and CPU time (user + system: of the child process for ns-2,
the runner and the fresh interpreter, `time.process_time` for the warm call), which does not
depend on the other jobs of a shared machine (issue 28: ratios of CPU times are the ones to
quote when the load average is above the core count). The runner's CPU time includes building
the simulation (parsing, allocation), which its `run_s` leaves out.
Medians go to bench.json beside this file, with the machine and the command.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import aqmlab  # noqa: E402
import ns2_mapping  # noqa: E402
import ns2_run  # noqa: E402
from aqmlab.machine import describe  # noqa: E402

RUNNER = ROOT / "target" / "release" / "examples" / "run_scenario"


def scenarios() -> dict[str, aqmlab.Scenario]:
    fig6 = aqmlab.Scenario.from_toml(ROOT / "examples" / "seed000-fig6-rtt200.toml").model_dump(mode="json")
    fig6["topology"]["groups"][0]["tcp"] = {
        "cc": {"kind": "compound", "zeta": 1.0},
        "sack": True,
        "packet_size": "1500B",
    }
    return {
        "dumbbell-60": aqmlab.Scenario.from_toml(ROOT / "benchmarks" / "dumbbell-60" / "scenario.toml"),
        "seed000-fig6-rtt200 (compound zeta 1, SACK)": aqmlab.Scenario.from_dict(fig6),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=None, help="one scenario (a prefix of its name)")
    args = parser.parse_args()
    subprocess.check_call(["cargo", "build", "--quiet", "--release", "--example", "run_scenario"], cwd=ROOT)
    # The whole process runs aqmlab's modules byte-compiled, as installed (pip compiles them): with
    # PYTHONDONTWRITEBYTECODE set and no current __pycache__, every fresh process would compile them
    # again (+0.017 s of CPU on dumbbell-60; benchmarks/startup/README.md, stop 6).
    compileall.compile_dir(ROOT / "python", quiet=1)
    report: dict = {
        "machine": describe(ns2=ns2_run.NS, load_at_start=" ".join(map(str, os.getloadavg()))),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "scenarios": {},
    }
    for name, scenario in scenarios().items():
        if args.only and not name.startswith(args.only):
            continue
        resolved = scenario.resolved()
        bare = json.loads(json.dumps(resolved))
        bare["trace"]["flows"] = 0
        results = aqmlab.simulate(scenario, seed=args.seed)  # warm-up, and the start times
        starts = [float(x) for x in results.flows.column("start_s").to_numpy()]
        program = ns2_mapping.translate(resolved, start_times=starts, seed=args.seed)
        samples: dict[str, list[float]] = {
            "ns2_process_s": [],
            "engine_s": [],
            "simulate_warm_s": [],
            "python_process_s": [],
            "ns2_process_cpu_s": [],
            "engine_runner_cpu_s": [],
            "simulate_warm_cpu_s": [],
            "python_process_cpu_s": [],
            "simulate_warm_untraced_cpu_s": [],
            "python_process_untraced_cpu_s": [],
        }
        loads = []
        with tempfile.TemporaryDirectory() as tmp:
            spec = Path(tmp) / "scenario.json"
            spec.write_text(json.dumps(bare))
            toml = Path(tmp) / "scenario.json.full"
            toml.write_text(json.dumps(scenario.model_dump(mode="json")))
            # Like with like: ns-2's program records the link samples and no per-flow window trace
            # (ns2_mapping: `Options.trace_flows` empty), as the runner's scenario (trace.flows 0);
            # aqmlab's default traces its first 100 flows every 10 ms. Both are timed.
            untraced = scenario.model_dump(mode="json")
            untraced["trace"]["flows"] = 0
            untraced_file = Path(tmp) / "scenario.untraced.json"
            untraced_file.write_text(json.dumps(untraced))
            untraced_scenario = aqmlab.Scenario.from_dict(untraced)
            code, code_untraced = (
                "import json, aqmlab; "
                f"aqmlab.simulate(aqmlab.Scenario.from_dict(json.load(open({str(file)!r}))), seed={args.seed})"
                for file in (toml, untraced_file)
            )
            for round_ in range(args.runs):
                loads.append(os.getloadavg()[0])
                cpu = _children_cpu()
                records = ns2_run.run(program, results.measure_start_s)
                samples["ns2_process_cpu_s"].append(_children_cpu() - cpu)
                samples["ns2_process_s"].append(records.wall_s)
                cpu = _children_cpu()
                out = subprocess.check_output([str(RUNNER), str(spec), str(args.seed)], text=True)
                samples["engine_runner_cpu_s"].append(_children_cpu() - cpu)
                samples["engine_s"].append(json.loads(out)["run_s"])
                began, cpu = time.perf_counter(), time.process_time()
                aqmlab.simulate(scenario, seed=args.seed)
                samples["simulate_warm_cpu_s"].append(time.process_time() - cpu)
                samples["simulate_warm_s"].append(time.perf_counter() - began)
                began, cpu = time.perf_counter(), _children_cpu()
                subprocess.check_call([sys.executable, "-c", code])
                samples["python_process_cpu_s"].append(_children_cpu() - cpu)
                samples["python_process_s"].append(time.perf_counter() - began)
                cpu = time.process_time()
                aqmlab.simulate(untraced_scenario, seed=args.seed)
                samples["simulate_warm_untraced_cpu_s"].append(time.process_time() - cpu)
                cpu = _children_cpu()
                subprocess.check_call([sys.executable, "-c", code_untraced])
                samples["python_process_untraced_cpu_s"].append(_children_cpu() - cpu)
                print(name, round_, {k: round(v[-1], 3) for k, v in samples.items()}, flush=True)
        medians = {k: statistics.median(v) for k, v in samples.items()}
        report["scenarios"][name] = {
            "samples": samples,
            "medians": medians,
            "load_1min_at_each_round": loads,
            "ratio_ns2_process_over_engine": medians["ns2_process_s"] / medians["engine_s"],
            "ratio_ns2_process_over_python_process": medians["ns2_process_s"] / medians["python_process_s"],
            "ratio_ns2_process_over_simulate_warm": medians["ns2_process_s"] / medians["simulate_warm_s"],
            "cpu_ratio_ns2_process_over_engine_runner": medians["ns2_process_cpu_s"] / medians["engine_runner_cpu_s"],
            "cpu_ratio_ns2_process_over_simulate_warm": medians["ns2_process_cpu_s"] / medians["simulate_warm_cpu_s"],
            "cpu_ratio_ns2_process_over_python_process": medians["ns2_process_cpu_s"] / medians["python_process_cpu_s"],
            "cpu_ratio_ns2_process_over_simulate_warm_untraced": medians["ns2_process_cpu_s"]
            / medians["simulate_warm_untraced_cpu_s"],
            "cpu_ratio_ns2_process_over_python_process_untraced": medians["ns2_process_cpu_s"]
            / medians["python_process_untraced_cpu_s"],
        }
        print(json.dumps(report["scenarios"][name]["medians"]), flush=True)
    (HERE / "bench.json").write_text(json.dumps(report, indent=1) + "\n")


def _children_cpu() -> float:
    """User + system CPU time of this process's finished children, s."""
    times = os.times()
    return times.children_user + times.children_system


if __name__ == "__main__":
    main()
