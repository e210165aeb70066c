"""Python start-up and hand-off of a short run (issue 19): CPU time (user + system) and wall
time of whole processes, median of `--runs`, for `aqmlab run handoff-1s.toml` (data, summary
and figure) and for the Python API (simulate, summaries, save; no figure).

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
SCENARIO = HERE / "handoff-1s.toml"
API = (
    "import sys, tempfile, aqmlab\n"
    "results = aqmlab.simulate(aqmlab.Scenario.from_toml(sys.argv[1]), seed=1)\n"
    "results.summaries(); results.save(tempfile.mkdtemp() + '/out')\n"
)


#: Byte-compiled modules are written and reused, as after a normal install: with
#: PYTHONDONTWRITEBYTECODE set, every edited module would be compiled again in each process.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def measure(command: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    aqmlab_cli = str(Path(sys.executable).with_name("aqmlab"))
    out = Path(tempfile.mkdtemp()) / "run"
    commands = {
        "aqmlab run (data, summary, figure)": [aqmlab_cli, "run", str(SCENARIO), "-o", str(out), "--force", "-q"],
        "API: simulate, summaries, save": [sys.executable, "-c", API, str(SCENARIO)],
    }
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for command in commands.values():
        measure(command)  # warm-up: byte-compiled modules, the file cache
    for _ in range(args.runs):
        for name, command in commands.items():
            samples[name].append(measure(command))
    print(f"load average {os.getloadavg()}, {args.runs} runs each, alternating")
    for name, values in samples.items():
        cpu = statistics.median(v[0] for v in values)
        wall = statistics.median(v[1] for v in values)
        print(f"{name}: CPU {cpu:.2f} s, wall {wall:.2f} s (medians)")


if __name__ == "__main__":
    main()
