"""Python start-up and hand-off (issue 19): CPU time (user + system) and wall time of whole
processes, median of `--runs`, for `aqmlab run SCENARIO` (data, summary and figure) and for
the Python API (simulate, summaries, save; no figure), on `handoff-1s.toml` (1 s simulated,
~4 ms of engine time: nothing but fixed cost) and `handoff-240s.toml` (the same run for 240 s:
about 1 s of engine time, what the issue's budget is about). The API process prints the
engine's own wall time (`Results.wall_time_s`), reported beside.

    .venv/bin/python benchmarks/scale/handoff.py --runs 5
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCENARIOS = [HERE / "handoff-1s.toml", HERE / "handoff-240s.toml"]
API = (
    "import sys, tempfile, aqmlab\n"
    "results = aqmlab.simulate(aqmlab.Scenario.from_toml(sys.argv[1]), seed=1)\n"
    "results.summaries(); results.save(tempfile.mkdtemp() + '/out')\n"
    "print(results.wall_time_s)\n"
)


#: Byte-compiled modules are written and reused, as after a normal install: with
#: PYTHONDONTWRITEBYTECODE set, every edited module would be compiled again in each process.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def measure(command: list[str]) -> tuple[float, float, str]:
    """CPU time, wall time and standard output of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    aqmlab_cli = str(Path(sys.executable).with_name("aqmlab"))
    out = Path(tempfile.mkdtemp()) / "run"
    print(f"{args.runs} runs each, alternating")
    for scenario in SCENARIOS:
        commands = {
            "aqmlab run (data, summary, figure)": [aqmlab_cli, "run", str(scenario), "-o", str(out), "--force", "-q"],
            "API: simulate, summaries, save": [sys.executable, "-c", API, str(scenario)],
        }
        samples: dict[str, list[tuple[float, float, str]]] = {name: [] for name in commands}
        for command in commands.values():
            measure(command)  # warm-up: byte-compiled modules, the file cache
        for _ in range(args.runs):
            for name, command in commands.items():
                samples[name].append(measure(command))
        engine = statistics.median(float(v[2].split()[-1]) for v in samples["API: simulate, summaries, save"])
        print(f"{scenario.name}: engine run {engine:.3f} s wall (median), load average {os.getloadavg()}")
        for name, values in samples.items():
            cpu = statistics.median(v[0] for v in values)
            wall = statistics.median(v[1] for v in values)
            print(f"  {name}: CPU {cpu:.2f} s, wall {wall:.2f} s (medians)")


if __name__ == "__main__":
    main()
