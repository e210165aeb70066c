"""One run of a reproduction at its full size in ns-2 2.35 as the paper printed it, where the
referee column runs the reproduction at a reduced size (`claims_run.REDUCED`): the run's own
measures, to compare with aqmlab's full-size page value (issue 27, class evidence).

    python benchmarks/ns2/referee/full_size_run.py seed002-fig2-5 lc-red --seeds 2
    python benchmarks/ns2/referee/full_size_run.py seed000-fig18-homogeneous red-afct200 --red-mode packet

Writes runs/<id>-full-size-<run>.json (per seed the measures and ns-2's CPU seconds), resuming;
`--red-mode packet|byte` is the one-factor variant (`as_printed`), runs/<id>-full-size-<run>-<mode>.json,
never read by the referee column (`full_size_claims` judges the as-printed stores only).
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
    parser.add_argument("--red-mode", choices=("paper", "packet", "byte"), default="paper")
    args = parser.parse_args()
    runs = {run.name: run for run in REGISTRY[args.reproduction].runs(False)}
    if args.run not in runs:
        parser.error(f"run {args.run!r}: allowed: {', '.join(sorted(runs))}")
    run = runs[args.run]
    if args.red_mode != "paper" and not as_printed.red_queues(run.scenario):
        parser.error(f"--red-mode {args.red_mode}: run {args.run!r} has no RED queue")
    scenario = as_printed.as_printed(run.scenario, claims_run.paper_of(args.reproduction), red_mode=args.red_mode)
    suffix = "" if args.red_mode == "paper" else f"-{args.red_mode}"
    path = claims_run.RUNS / f"{args.reproduction}-full-size-{args.run}{suffix}.json"
    store = json.loads(path.read_text()) if path.is_file() else {}
    singledup = claims_run.ns2_mapping.ns2_defaults().singledup
    store.update({"id": args.reproduction, "run": args.run, "red_mode": args.red_mode, "singledup_": singledup})
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
