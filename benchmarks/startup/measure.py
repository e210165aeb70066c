"""Startup time of `import aqmlab` and `aqmlab --help` (issue 18 point 4; budget 0.3 s each).

Runs each command several times in fresh interpreters and records the median wall time and
the median CPU time (user + system of the child), with the machine and its load average:
on a shared machine the wall time includes waiting for a core, the CPU time does not.

    .venv/bin/python benchmarks/startup/measure.py            # prints and rewrites results.json
    .venv/bin/python benchmarks/startup/measure.py --runs 15 --no-write
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent
BIN = Path(sys.executable).parent
COMMANDS = {
    "import aqmlab": [sys.executable, "-c", "import aqmlab"],
    "aqmlab --help": [str(BIN / "aqmlab"), "--help"],
    "python -c pass (interpreter alone)": [sys.executable, "-c", "pass"],
}


def measure(command: list[str], runs: int) -> dict[str, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = os.times()
        began = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - began)
        after = os.times()
        cpus.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
    return {
        "runs": runs,
        "wall_median_s": round(statistics.median(walls), 4),
        "wall_min_s": round(min(walls), 4),
        "cpu_median_s": round(statistics.median(cpus), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    from aqmlab.machine import describe

    record = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": describe(load_average_1_5_15=[round(x, 2) for x in os.getloadavg()]),
        "budget_s": 0.3,
        "commands": {name: {"command": " ".join(cmd), **measure(cmd, args.runs)} for name, cmd in COMMANDS.items()},
    }
    record["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(record, indent=2))
    if not args.no_write:
        (HERE / "results.json").write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
