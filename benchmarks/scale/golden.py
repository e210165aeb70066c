"""Bit-identity guard for engine changes (issue 19): run every scenario of `examples/*.toml`
(durations capped at `--cap` seconds), dumbbell-60, the seed 002 full-size scenario of
`../large-scale` (capped too) and a 1000-flow point of the `flows` scale series through the bare
Rust runner `crates/engine/examples/dump_results.rs`, and record the SHA-256 of every result
column (link and flow traces, flow and link records, packet conservation counters) per scenario.

    cargo build --release --example dump_results
    PYTHONPATH=python .venv/bin/python benchmarks/scale/golden.py --record    # before a change
    PYTHONPATH=python .venv/bin/python benchmarks/scale/golden.py             # after: compare
    ... golden.py --runner OLD/dump_results --json before.json                  # CPU time of a build

The event count is recorded apart (a change of scheduling may change it without changing any
result) and reported when it differs. Exit status 1 if any table hash differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import aqmlab
from aqmlab.scenario import load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RUNNER = ROOT / "target" / "release" / "examples" / "dump_results"
GOLDEN = HERE / "golden.json"

sys.path.insert(0, str(HERE))
from bench_scale import scaled_dumbbell  # noqa: E402


def scenarios(cap_s: float) -> dict[str, aqmlab.Scenario]:
    found: dict[str, aqmlab.Scenario] = {}
    for path in sorted((ROOT / "examples").glob("*.toml")):
        found[path.stem] = load(path)
    found["dumbbell-60"] = load(ROOT / "benchmarks" / "dumbbell-60" / "scenario.toml")
    found["large-scale"] = load(ROOT / "benchmarks" / "large-scale" / "scenario.toml")
    found["scale-flows-1000"] = scaled_dumbbell(1000, 1e9, 10.0)
    capped = {}
    for name, scenario in found.items():
        if scenario.duration_s > cap_s:
            measure = min(scenario.measure_start_s, cap_s / 2)
            scenario = scenario.with_changes(duration=f"{cap_s}s", measure_start=f"{measure}s")
        capped[name] = scenario
    return capped


def run(scenario: aqmlab.Scenario, seed: int, runner: Path = RUNNER) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        spec, dump = Path(tmp) / "scenario.json", Path(tmp) / "results.bin"
        spec.write_text(json.dumps(scenario.resolved()))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([str(runner), str(spec), str(seed), str(dump)], check=True, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        info = json.loads(out.stdout)
        return {
            "sha256": hashlib.sha256(dump.read_bytes()).hexdigest(),
            "events": info["events"],
            "run_s": info["run_s"],
            "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="write golden.json instead of comparing")
    parser.add_argument("--cap", type=float, default=20.0, help="cap on simulated seconds per scenario")
    parser.add_argument("--only", nargs="*", help="scenario names to run (default: all)")
    parser.add_argument("--skip", nargs="*", default=[], help="scenario names not to run")
    parser.add_argument("--runner", type=Path, default=RUNNER, help="a dump_results build (e.g. an older one)")
    parser.add_argument("--json", type=Path, help="also write the runs (hashes, events, CPU s) here")
    args = parser.parse_args()
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() and not args.record else {}
    recorded: dict[str, dict] = {}
    failures = []
    for name, scenario in scenarios(args.cap).items():
        if (args.only and name not in args.only) or name in args.skip:
            continue
        result = run(scenario, scenario.seed, args.runner)
        recorded[name] = result
        expected = golden.get(name)
        if args.record or expected is None:
            status = "recorded" if args.record else "NEW"
        elif expected["sha256"] == result["sha256"]:
            same_events = expected["events"] == result["events"]
            status = "identical" + ("" if same_events else f" (events {expected['events']} -> {result['events']})")
        else:
            status = "DIFFERENT"
            failures.append(name)
        print(f"{name:45s} {result['cpu_s']:8.3f} s CPU  {result['events']:>11,d} events  {status}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(recorded, indent=1) + "\n")
    if args.record:
        GOLDEN.write_text(json.dumps({"cap_s": args.cap, **recorded}, indent=1) + "\n")
    if failures:
        print("results changed:", ", ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
