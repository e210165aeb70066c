"""The warm hand-over, two Python trees (each with its engine `.so`) alternated process by process
(issue 28, stop 4): in a fresh process per round and tree, after one warm-up `simulate`, the CPU
time (`time.process_time`) of `aqmlab.simulate` as `make bench-ns2` times it warm, of the
binding's `Simulation.results()` alone (the engine's columns handed to Python) and of dropping
what it returned. Medians over the rounds; written to `--out` beside this file.

    .venv/bin/python benchmarks/startup/handover_ab.py --before /tmp/before/python --rounds 5 --out handover-ab.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

SCENARIOS = {
    "dumbbell-60 (100 s, 60 flows)": "benchmarks/dumbbell-60/scenario.toml",
    "seed000-fig6-rtt10 (500 s, 60 flows)": "examples/seed000-fig6-rtt10.toml",
}

#: One round in a fresh process: prints {"simulate": s, "results": s, "drop": s} (CPU).
ROUND = """
import json, time
import aqmlab
from aqmlab import _engine
scenario = aqmlab.Scenario.from_toml({path!r})
aqmlab.simulate(scenario, seed=1)  # warm-up: imports, validators, first heap
began = time.process_time()
aqmlab.simulate(scenario, seed=1)
simulate = time.process_time() - began
simulation = _engine.Simulation(scenario.resolved_json(), 1)
simulation.run_until(simulation.duration_ns)
began = time.process_time()
raw = simulation.results()
handed = time.process_time()
del raw
print(json.dumps({{"simulate": simulate, "results": handed - began, "drop": time.process_time() - handed}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the other python/ tree (with its _engine .so)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", help="write the record here (in benchmarks/startup/)")
    args = parser.parse_args()
    from aqmlab.machine import describe

    trees = {"before": args.before, "after": str(ROOT / "python")}
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    record: dict = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": describe(load_average_at_start=[round(x, 2) for x in os.getloadavg()]),
        "trees": trees,
        "scenarios": {},
    }
    for name, path in SCENARIOS.items():
        rounds: dict[str, list[dict[str, float]]] = {tree: [] for tree in trees}
        for _ in range(args.rounds):
            for tree, pythonpath in trees.items():
                out = subprocess.run(
                    [sys.executable, "-c", ROUND.format(path=path)],
                    check=True,
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                    env=dict(env, PYTHONPATH=pythonpath),
                )
                rounds[tree].append(json.loads(out.stdout.splitlines()[-1]))
                print(name, tree, rounds[tree][-1], flush=True)
        record["scenarios"][name] = {
            tree: {key: round(statistics.median(r[key] for r in runs), 4) for key in runs[0]} | {"rounds": runs}
            for tree, runs in rounds.items()
        }
    record["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    summary = {
        name: {tree: {k: v for k, v in row.items() if k != "rounds"} for tree, row in rows.items()}
        for name, rows in record["scenarios"].items()
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        (HERE / args.out).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
