"""Hand-off of the first `aqmlab.simulate`, two Python trees alternated run by run (issue 28).

The same command as `handoff.py` (a fresh `python -c "import aqmlab; aqmlab.simulate(...)"`),
run alternately with `PYTHONPATH=BEFORE` and with this worktree's `python/`, so both see the
same load. CPU time (the child's user + system, `getrusage`, to the microsecond) minus the engine's own run time is
the number to compare on a shared machine; wall time minus the engine is printed beside it.
`--steps` more fresh processes per tree time the steps in-process (CPU, `time.process_time`);
"interpreter start + exit" is the child's CPU minus the in-process total. The long scenario's
CPU minus engine is meaningful only on an idle machine (its engine time is wall time).

    .venv/bin/python benchmarks/startup/handoff_ab.py --before /tmp/main/python --runs 11 --out handoff-ab.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from handoff import SCENARIOS, code  # noqa: E402

#: In-process times of the steps of the short scenario's hand-off (a fresh process each).
STEPS = """
import sys, time, json
t = [time.process_time()]
import pydantic; t.append(time.process_time())
import aqmlab.scenario; t.append(time.process_time())
scenario = aqmlab.scenario.load({scenario}); t.append(time.process_time())
import aqmlab.simulation; t.append(time.process_time())
results = aqmlab.simulation.simulate(scenario, seed=1); t.append(time.process_time())
steps = ["import pydantic", "scenario models (class creation)", "first validation",
         "aqmlab.simulation and what it imports", "simulate (engine build, run, hand-over)"]
record = {{name: round(b - a, 4) for name, a, b in zip(steps, t, t[1:])}}
record["in-process total"] = round(t[-1], 4)
record["numpy loaded"] = "numpy" in sys.modules
record["pyarrow loaded"] = "pyarrow" in sys.modules
record["engine run"] = round(results.wall_time_s, 4)
print(json.dumps(record))
"""


def one_run(pythonpath: str, program: str) -> tuple[float, float, str]:
    env = dict(os.environ, PYTHONPATH=pythonpath)
    # getrusage: microseconds (os.times counts the children's CPU in 10-ms clock ticks)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", program], check=True, capture_output=True, text=True, cwd=ROOT, env=env)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout


def finish(record: dict, out: str | None) -> None:
    """Add the load average at the end to `record`, print it, and write it to `out` (in
    benchmarks/startup/) if given."""
    record["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(record, indent=2))
    if out:
        (HERE / out).write_text(json.dumps(record, indent=2) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the other python/ tree (with its _engine .so)")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--steps", type=int, default=5, help="fresh processes per tree timing the steps")
    parser.add_argument("--out", help="write the record here (in benchmarks/startup/)")
    args = parser.parse_args()
    from aqmlab.machine import describe

    trees = {"before": args.before, "after": str(ROOT / "python")}
    record: dict[str, object] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": describe(load_average_1_5_15=[round(x, 2) for x in os.getloadavg()]),
        "target_s": 0.12,
        "trees": trees,
        "scenarios": {},
    }
    for name, scenario in SCENARIOS.items():
        rows: dict[str, dict[str, list[float]]] = {tree: {"wall": [], "cpu": [], "engine": []} for tree in trees}
        for _ in range(args.runs):
            for tree, path in trees.items():
                wall, cpu, out = one_run(path, code(scenario))
                engine = float(out.split()[-1])
                rows[tree]["wall"].append(wall - engine)
                rows[tree]["cpu"].append(cpu - engine)
                rows[tree]["engine"].append(engine)
        record["scenarios"][name] = {
            tree: {
                "runs": args.runs,
                "cpu_minus_engine_median_s": round(statistics.median(r["cpu"]), 4),
                "wall_minus_engine_median_s": round(statistics.median(r["wall"]), 4),
                "engine_median_s": round(statistics.median(r["engine"]), 4),
            }
            for tree, r in rows.items()
        }
    steps: dict[str, list[dict[str, object]]] = {tree: [] for tree in trees}
    for _ in range(args.steps):
        for tree, path in trees.items():
            _, cpu, out = one_run(path, STEPS.format(scenario=SCENARIOS["short (1 s, 3 flows)"]))
            step = json.loads(out)
            step["interpreter start + exit"] = round(cpu - step["in-process total"], 4)
            steps[tree].append(step)
    record["steps_short_median_s"] = {
        tree: {
            key: (statistics.median(r[key] for r in runs) if isinstance(runs[0][key], float) else runs[0][key])
            for key in runs[0]
        }
        for tree, runs in steps.items()
    }
    finish(record, args.out)


if __name__ == "__main__":
    main()
