"""The fresh process of `make bench-ns2` on dumbbell-60 (`python -c "import json, aqmlab;
aqmlab.simulate(aqmlab.Scenario.from_dict(json.load(open(F))), seed=1)"`) with two Python trees
alternated run by run (issue 28: the hand-off's share of the whole process). CPU time of each
child (user + system, `getrusage`), medians; written to `whole-process-ab.json` (or `--out`) beside this file.

    git archive main python | tar -x -C /tmp/before && cp python/aqmlab/_engine.abi3.so /tmp/before/python/aqmlab/
    .venv/bin/python -m compileall -q /tmp/before/python python
    .venv/bin/python benchmarks/dumbbell-60/whole_process_ab.py --before /tmp/before/python --runs 7
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import aqmlab
from aqmlab.machine import describe

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the other python/ tree (with its _engine .so)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--out", default="whole-process-ab.json", help="the record's file name, beside this script")
    args = parser.parse_args()
    scenario = aqmlab.Scenario.from_toml(HERE / "scenario.toml")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(scenario.model_dump(mode="json"), file)
    code = f"import json, aqmlab; aqmlab.simulate(aqmlab.Scenario.from_dict(json.load(open({file.name!r}))), seed=1)"
    trees = {"before": args.before, "after": str(ROOT / "python")}
    # Byte-compiled modules are reused, as after an install (this environment may disable writing them).
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    record: dict = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": describe(load_average_at_start=[round(x, 2) for x in os.getloadavg()]),
        "command": f'{Path(sys.executable).name} -c "{code}"',
        "trees": trees,
    }
    samples: dict[str, list[float]] = {tree: [] for tree in trees}
    try:
        for _ in range(args.runs):
            for tree, path in trees.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([sys.executable, "-c", code], check=True, env=dict(env, PYTHONPATH=path), cwd=ROOT)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                samples[tree].append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    finally:
        os.unlink(file.name)
    record["cpu_s"] = samples
    record["median_cpu_s"] = {tree: statistics.median(values) for tree, values in samples.items()}
    record["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    (HERE / args.out).write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record["median_cpu_s"]), record["machine"]["load_average_at_end"])


if __name__ == "__main__":
    main()
