"""One run of a reproduction at its full size in ns-2 2.35 as the paper printed it, where the
referee column runs the reproduction at a reduced size (`claims_run.REDUCED`): the run's own
measures, to compare with aqmlab's full-size page value (issue 27, class evidence).

    python benchmarks/ns2/referee/full_size_run.py seed002-fig2-5 lc-red --seeds 2

Writes runs/<id>-full-size-<run>.json (per seed the measures and ns-2's CPU seconds), resuming.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import as_printed  # noqa: E402
import claims_run  # noqa: E402
from aqmlab.reproduce import REGISTRY  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reproduction", choices=sorted(claims_run.REDUCED))
    parser.add_argument("run")
    parser.add_argument("--seeds", type=int, default=2)
    args = parser.parse_args()
    runs = {run.name: run for run in REGISTRY[args.reproduction].runs(False)}
    if args.run not in runs:
        parser.error(f"run {args.run!r}: allowed: {', '.join(sorted(runs))}")
    run = runs[args.run]
    scenario = as_printed.as_printed(run.scenario, claims_run.paper_of(args.reproduction), red_mode="paper")
    path = claims_run.RUNS / f"{args.reproduction}-full-size-{args.run}.json"
    store = json.loads(path.read_text()) if path.is_file() else {}
    singledup = claims_run.ns2_mapping.ns2_defaults().singledup
    store.update({"id": args.reproduction, "run": args.run, "red_mode": "paper", "singledup_": singledup})
    seeds = store.setdefault("seeds", {})
    for seed in range(1, args.seeds + 1):
        if str(seed) in seeds:
            continue
        began = time.process_time()
        seeds[str(seed)] = claims_run.one_run(run, scenario, seed)
        seeds[str(seed)]["python_cpu_s"] = time.process_time() - began
        path.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
        print(f"{args.reproduction} {args.run} seed {seed}: {seeds[str(seed)]}", flush=True)


if __name__ == "__main__":
    main()
