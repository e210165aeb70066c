"""Issue 28's target "no example slower": every scenario of `golden.py` (the examples with
durations capped at 20 s, dumbbell-60, large-scale, the 1000-flow point) through the bare
runner `dump_results` of two builds, each fed the scenario as its own tree resolves it (the
schema gained fields during the issue), the builds alternated run by run.

Per scenario: CPU time (user + system of the child, setup and the results' dump included)
median of `--runs`, and, with `--callgrind`, the instructions executed (valgrind's Ir, one run
each: deterministic, unlike the time on a shared machine).

    git worktree add --detach /work/wt/base28 feec624   # the engine before issue 28
    (cd /work/wt/base28 && cargo build --release --example dump_results -p aqmlab-engine)
    cargo build --release --example dump_results -p aqmlab-engine
    PYTHONPATH=python .venv/bin/python benchmarks/scale/issue28/stop7_lead/examples_vs_base.py \\
        --base /work/wt/base28 --runs 7 --callgrind --json benchmarks/scale/issue28/stop7_lead/examples_vs_base.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
RESOLVE = (
    "import json, sys; sys.path.insert(0, 'benchmarks/scale'); import golden; "
    "print(json.dumps({n: [s.resolved(), s.seed] for n, s in golden.scenarios(20.0).items()}))"
)


def resolved_specs(tree: Path) -> dict[str, list]:
    """{name: [resolved scenario, seed]} as `tree`'s own Python package resolves them."""
    env = {**os.environ, "PYTHONPATH": str(tree / "python")}
    out = subprocess.run([sys.executable, "-c", RESOLVE], cwd=tree, env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def cpu_seconds(runner: Path, spec: Path, seed: int, dump: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(runner), str(spec), str(seed), str(dump)], check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(runner: Path, spec: Path, seed: int, dump: Path, tmp: Path) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp / 'cg.out'}"]
        + [str(runner), str(spec), str(seed), str(dump)],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(re.search(r"Collected : (\d+)", out.stderr).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the older tree, its dump_results built")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    trees = {"base": args.base.resolve(), "main": ROOT}
    specs = {label: resolved_specs(tree) for label, tree in trees.items()}
    runners = {label: tree / "target" / "release" / "examples" / "dump_results" for label, tree in trees.items()}
    names = [n for n in specs["main"] if n in specs["base"] and (not args.only or n in args.only)]
    report: dict = {"base": str(args.base), "runs": args.runs, "load_before": os.getloadavg(), "scenarios": {}}
    print(f"{'scenario':44} {'base s':>8} {'main s':>8} {'ratio':>6} {'base Ir':>13} {'main Ir':>13} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for name in names:
            files = {}
            for label in trees:
                files[label] = tmp / f"{label}.json"
                files[label].write_text(json.dumps(specs[label][name][0]))
            seed = specs["main"][name][1]
            times: dict[str, list[float]] = {label: [] for label in trees}
            for _ in range(args.runs):
                for label in trees:
                    times[label].append(cpu_seconds(runners[label], files[label], seed, tmp / "dump.bin"))
            entry = {label: {"cpu_s": times[label], "median_s": statistics.median(times[label])} for label in trees}
            if args.callgrind:
                for label in trees:
                    dump = tmp / "dump.bin"
                    entry[label]["instructions"] = instructions(runners[label], files[label], seed, dump, tmp)
            report["scenarios"][name] = entry
            ratio = entry["main"]["median_s"] / entry["base"]["median_s"]
            ir = ""
            if args.callgrind:
                b, m = entry["base"]["instructions"], entry["main"]["instructions"]
                ir = f"{b:>13} {m:>13} {m / b:>6.2f}"
            base_s, main_s = entry["base"]["median_s"], entry["main"]["median_s"]
            print(f"{name:44} {base_s:8.4f} {main_s:8.4f} {ratio:6.2f} {ir}", flush=True)
    total = {label: sum(e[label]["median_s"] for e in report["scenarios"].values()) for label in trees}
    report["total_median_s"] = total
    report["load_after"] = os.getloadavg()
    print(f"total {total['base']:.3f} s → {total['main']:.3f} s ({total['main'] / total['base']:.2f})")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
