"""The work estimate (`aqmlab.workload.estimate`) against the work the engine does, on every
scenario of `golden.py` (the examples, dumbbell-60, seed 002 large capacity, a 1000-flow
point; durations capped at `--cap` seconds). Work = events + packets created, the quantity the
estimate bounds and the engine's work limit counts. The estimate should stay above the work
(an upper bound) and of its order.

    PYTHONPATH=python .venv/bin/python benchmarks/scale/workload_check.py --cap 20 --json workload_check.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import aqmlab  # noqa: E402
import golden  # noqa: E402
from aqmlab import workload  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=20.0)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--old", type=Path, help="another workload.py to estimate with, beside this one")
    args = parser.parse_args()
    old = None
    if args.old:
        spec = importlib.util.spec_from_file_location("old_workload", args.old)
        old = importlib.util.module_from_spec(spec)
        sys.modules["old_workload"] = old
        spec.loader.exec_module(old)
    rows = {}
    for name, scenario in golden.scenarios(args.cap).items():
        results = aqmlab.simulate(scenario, seed=1, allow_large=True)
        work = results.counters["events"] + results.counters["packets_created"]
        estimate = workload.estimate(scenario).work
        rows[name] = {"work": work, "estimate": round(estimate), "estimate_over_work": round(estimate / work, 2)}
        line = f"{name:40s} work {work:12,d}  estimate {estimate:14,.0f}  ratio {estimate / work:6.2f}"
        if old is not None:
            rows[name]["old_estimate_over_work"] = round(old.estimate(scenario).work / work, 2)
            line += f"  (old {rows[name]['old_estimate_over_work']:6.2f})"
        print(line, flush=True)
    ratios = [row["estimate_over_work"] for row in rows.values()]
    print(f"estimate / work: min {min(ratios):.2f}, max {max(ratios):.2f}")
    if args.json:
        args.json.write_text(json.dumps({"cap_s": args.cap, "scenarios": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
