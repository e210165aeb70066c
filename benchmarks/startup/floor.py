"""What the first `aqmlab.simulate` of `make bench-ns2`'s dumbbell-60 costs beyond the engine, and
how much of it any process that validates one pydantic model pays (issue 28, stop 6).

Fresh processes, alternated run by run (so the load falls on each alike), CPU time of the child
(user + system, `getrusage`), medians:
- "interpreter alone": `python -c pass`;
- "pydantic floor": `import json`, one one-field pydantic model created and validated once, exit —
  pydantic's own import, its first validator (with its plugin lookup, `importlib.metadata`) and
  its teardown, which no use of pydantic avoids;
- "dumbbell-60 validated": `import json, aqmlab; aqmlab.Scenario.from_dict(json.load(open(F)))`;
- "dumbbell-60 whole process": `make bench-ns2`'s command (`benchmarks/ns2/bench.py`), which also
  prints the CPU time of the `simulate` call and the engine loop's wall time, so that "beyond the
  engine" is the child's CPU minus the engine loop (as `handoff.py`) and, robust to the load,
  minus the whole `simulate` call;
- the same, "aqmlab not byte-compiled": run from a copy of `python/` without `__pycache__` with
  PYTHONDONTWRITEBYTECODE set (this environment sets it), as `make bench-ns2` ran it in a tree
  whose `__pycache__` was absent or stale (it now byte-compiles `python/` first).
`--steps` more fresh processes time the floor's parts in-process (`time.process_time`); "exit" is
the child's CPU after the last line (an `atexit` hook registered first runs last). aqmlab's
modules are byte-compiled first, as installed.

    .venv/bin/python benchmarks/startup/floor.py --runs 11 --steps 7 --out floor-stop6.json
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from handoff_ab import finish, one_run  # noqa: E402

FLOOR = "import json\nfrom pydantic import BaseModel\nclass M(BaseModel):\n    x: int\nM(x=1)\n"

#: The floor's parts, in-process, each process printing its steps' CPU times as JSON.
FLOOR_STEPS = """
import atexit, json, sys, time
T = time.process_time
steps = lambda: dict(zip(names, (round(b - a, 4) for a, b in zip(t, t[1:]))))
atexit.register(lambda: print(json.dumps(steps() | {{"at exit": T()}})))
names = ["interpreter start, json", "import pydantic (pydantic_core)", "from pydantic import BaseModel (pydantic.main)",
         "pydantic.fields (types, json_schema, annotated_types)", "importlib.metadata (pydantic's plugin loader)",
         "one model class created", "first validation (plugin scan, validator built)", "{last}"]
t = [0.0, T()]
import pydantic; t.append(T())
from pydantic import BaseModel; t.append(T())
import pydantic.fields; t.append(T())
import importlib.metadata; t.append(T())
class M(BaseModel):
    model_config = {{"defer_build": True}}
    x: int
t.append(T())
M(x=1); t.append(T())
{then}
t.append(T())
"""


def _median(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: round(statistics.median(row[key] for row in rows), 4) for key in rows[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--steps", type=int, default=7, help="fresh processes timing the steps in-process")
    parser.add_argument("--out", help="write the record here (in benchmarks/startup/)")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "python", quiet=1)
    import aqmlab
    from aqmlab.machine import describe

    scenario = aqmlab.Scenario.from_toml(ROOT / "benchmarks" / "dumbbell-60" / "scenario.toml")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(scenario.model_dump(mode="json"), file)
    load = f"aqmlab.Scenario.from_dict(json.load(open({file.name!r})))"
    # The same work as bench.py's command, the `simulate` call timed apart.
    whole = (
        f"import json, aqmlab, time; scenario = {load}; simulate = aqmlab.simulate; "
        "began = time.process_time(); r = simulate(scenario, seed=1); "
        "print(time.process_time() - began, r.wall_time_s)"
    )
    python = str(ROOT / "python")
    source_only = tempfile.mkdtemp()
    shutil.copytree(python, source_only, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # for the children: the copy stays without bytecode
    #: name -> (PYTHONPATH, program)
    programs = {
        "interpreter alone": (python, "pass"),
        "pydantic floor": (python, FLOOR),
        "dumbbell-60 validated": (python, f"import json, aqmlab; {load}"),
        "dumbbell-60 whole process": (python, whole),
        "dumbbell-60 whole process, aqmlab not byte-compiled": (source_only, whole),
    }
    record: dict = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": describe(load_average_1_5_15=[round(x, 2) for x in os.getloadavg()]),
        "target_s": 0.12,
        "programs": {name: program for name, (_, program) in programs.items()},
    }
    cpu: dict[str, list[float]] = {name: [] for name in programs}
    calls: list[dict[str, float]] = []
    steps: dict[str, list[dict[str, float]]] = {"pydantic floor": [], "dumbbell-60 validated": []}
    try:
        for _ in range(args.runs):
            for name, (path, program) in programs.items():
                _, seconds, out = one_run(path, program)
                cpu[name].append(seconds)
                if name == "dumbbell-60 whole process":
                    call, engine = map(float, out.split())
                    calls.append(
                        {
                            "simulate call": call,
                            "engine loop (wall)": engine,
                            "beyond the engine loop": seconds - engine,
                            "beyond the simulate call": seconds - call,
                        }
                    )
        for _ in range(args.steps):
            for name, last, then in (
                ("pydantic floor", "(nothing)", "pass"),
                ("dumbbell-60 validated", "import aqmlab; dumbbell-60 validated", f"import aqmlab; {load}"),
            ):
                _, seconds, out = one_run(python, FLOOR_STEPS.format(last=last, then=then))
                step = json.loads(out)
                step["exit (child CPU after the last line)"] = round(seconds - step.pop("at exit"), 4)
                step["child CPU"] = seconds
                steps[name].append(step)
    finally:
        os.unlink(file.name)
        shutil.rmtree(source_only)
    record["child_cpu_median_s"] = {name: round(statistics.median(values), 4) for name, values in cpu.items()}
    record["whole_process_split_median_s"] = _median(calls)
    record["steps_median_s"] = {name: _median(rows) for name, rows in steps.items()}
    finish(record, args.out)


if __name__ == "__main__":
    main()
