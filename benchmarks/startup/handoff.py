"""Hand-off of the first `aqmlab.simulate` in a fresh process (issue 28; target ≤ 0.12 s).

Hand-off = the wall time of a whole fresh interpreter running
`import aqmlab; aqmlab.simulate(SCENARIO, seed=1)` minus the engine's own run time
(`Results.wall_time_s`, the loop that advances the simulation): interpreter start, imports,
validating the scenario, building the engine, converting its results, and exit.

    .venv/bin/python benchmarks/startup/handoff.py               # prints and rewrites handoff.json
    .venv/bin/python benchmarks/startup/handoff.py --runs 7 --no-write --out other.json
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
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
#: The short scenario: 3 flows over RED for 1 simulated second (the engine takes a few ms).
SHORT = (
    "{'name': 'tiny', 'duration': '1s', 'topology': {'kind': 'dumbbell', 'bottleneck': "
    "{'rate': '10Mbps', 'delay': '5ms', 'queue': {'kind': 'red', 'limit': '100p', 'min_th': 5, 'max_th': 15}}, "
    "'groups': [{'name': 'g', 'count': 3, 'rtt': '40ms', 'access_rate': '100Mbps'}]}}"
)
SCENARIOS = {
    "seed000-fig6-rtt10 (500 s, 60 flows)": "'examples/seed000-fig6-rtt10.toml'",
    "short (1 s, 3 flows)": SHORT,
}


def code(scenario: str) -> str:
    return f"import aqmlab; r = aqmlab.simulate({scenario}, seed=1); print(repr(r.wall_time_s))"


def measure(scenario: str, runs: int) -> dict[str, float]:
    walls, engines, cpus = [], [], []
    for _ in range(runs):
        before = os.times()
        began = time.perf_counter()
        command = [sys.executable, "-c", code(scenario)]
        out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
        walls.append(time.perf_counter() - began)
        after = os.times()
        engines.append(float(out.stdout.split()[-1]))
        cpus.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
    handoffs = [w - e for w, e in zip(walls, engines, strict=True)]
    return {
        "runs": runs,
        "command": f'{Path(sys.executable).name} -c "{code(scenario)}"',
        "wall_median_s": round(statistics.median(walls), 4),
        "engine_median_s": round(statistics.median(engines), 4),
        "handoff_median_s": round(statistics.median(handoffs), 4),
        "handoff_min_s": round(min(handoffs), 4),
        "cpu_minus_engine_median_s": round(statistics.median(c - e for c, e in zip(cpus, engines, strict=True)), 4),
    }


def measure_run(runs: int, *flags: str) -> dict[str, object]:
    """`aqmlab run` of seed000-fig6-rtt10 (with `flags`): seconds until the "wrote" line (the
    results are on disk and reported) and until the process ends (the figure drawn, unless
    `--no-figures`), and the child's CPU time."""
    command = [
        str(Path(sys.executable).parent / "aqmlab"),
        *("run", "examples/seed000-fig6-rtt10.toml", "-q", "--force", *flags),
    ]
    wrote, total, cpus = [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(runs):
            began, before = time.perf_counter(), os.times()
            process = subprocess.Popen(
                [*command, "--out", f"{scratch}/out"],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            assert process.stdout is not None
            for line in process.stdout:
                if line.startswith("wrote "):
                    wrote.append(time.perf_counter() - began)
            process.wait()
            total.append(time.perf_counter() - began)
            after = os.times()
            cpus.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
            drawn = (Path(scratch) / "out" / "figure.png").is_file()
            assert process.returncode == 0 and drawn == ("--no-figures" not in flags)
    return {
        "runs": runs,
        "command": " ".join([*command[1:], "--out", "OUT"]),
        "until_wrote_median_s": round(statistics.median(wrote), 4),
        "until_exit_median_s": round(statistics.median(total), 4),
        "cpu_median_s": round(statistics.median(cpus), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--out", default="handoff.json")
    parser.add_argument("--run-only", action="store_true", help="only the `aqmlab run` rows, with and without figures")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "python", quiet=1)  # as installed: no fresh process compiles them
    from aqmlab.machine import describe

    record = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": describe(load_average_1_5_15=[round(x, 2) for x in os.getloadavg()]),
        "target_s": 0.12,
        "scenarios": {}
        if args.run_only
        else {name: measure(scenario, args.runs) for name, scenario in SCENARIOS.items()},
        "aqmlab run": measure_run(args.runs),
        "aqmlab run --no-figures": measure_run(args.runs, "--no-figures"),
    }
    record["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(record, indent=2))
    if not args.no_write:
        (HERE / args.out).write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
