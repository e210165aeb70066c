"""One-factor experiments in ns-2 as the paper printed it, for claims of class (a) (ns-2 as
printed misses the paper too; issue 27): the referee's own runs (claims_run.py: the paper's
agents, ns-2's defaults, singledup_ 1) with one scenario field set to another value, judged by
the reproduction's own claims — the closest setup a one-factor search finds in the paper's own
simulator.

    python benchmarks/ns2/referee/ns2_printed_factor.py seed004-fig2 \\
        'topology.bottleneck.queue.limit="14p"' --runs b15-rtt10,b15-rtt200 --seeds 5

The assignment is aqmlab_factors.py's (`path=value`, `;` joins the parts of one factor) and is
applied to the as-printed scenario (`claims_run.mapped`) of the runs named by `--runs`
(default: every run with the field's parent); the other runs are those of the as-printed store
(`runs/<id>.json`, same seeds), so claims that combine runs are judged on the same seeds. Each
(seed, run) lands in `runs/<id>-printed-<factor>.json` (claims_run's store format) as it finishes.
"""

from __future__ import annotations

import copy
import json
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import claims_run  # noqa: E402
from aqmlab.reproduce import REGISTRY  # noqa: E402
from aqmlab_factors import apply, checked, factor_parser, parse_assignment  # noqa: E402


def store_path(reproduction_id: str, factor: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", factor).strip("-")
    return claims_run.RUNS / f"{reproduction_id}-printed-{slug}.json"


def main() -> None:
    parser = factor_parser(__doc__, 'topology.bottleneck.queue.limit="14p"')
    args = checked(parser)
    declaration = REGISTRY[args.reproduction]
    runs = {run.name: run for run in declaration.runs(False)}
    scenarios = claims_run.mapped(declaration, "paper")
    chosen = args.runs.split(",") if args.runs else list(scenarios)
    for name in chosen:
        if name not in scenarios:
            parser.error(f"--runs: unknown run {name!r} of {args.reproduction}; allowed: {', '.join(scenarios)}")
    try:
        assignments = [parse_assignment(part.strip()) for part in args.factor.split(";")]
    except ValueError as error:
        parser.error(str(error))
    printed = json.loads(claims_run.store_path(args.reproduction, "paper").read_text())
    path = store_path(args.reproduction, args.factor)
    store = json.loads(path.read_text()) if path.is_file() else {}
    singledup = claims_run.ns2_mapping.ns2_defaults().singledup
    store.update({"id": args.reproduction, "red_mode": "paper", "singledup_": singledup})
    store.update({"factor": args.factor, "runs_changed": chosen})
    for seed, done, name, scenario in claims_run.pending_runs(store, scenarios, args.seeds):
        if name not in chosen:  # unchanged: the as-printed run at this seed, with the same singledup_
            if claims_run.store_singledup(printed) != singledup:
                parser.error(f"{name}: the as-printed store ran singledup_ {printed.get('singledup_')}; rerun it")
            done[name] = {**printed["seeds"][str(seed)][name], "from": f"{args.reproduction} as printed"}
            continue
        changed = copy.deepcopy(scenario)
        if not min(apply(changed, steps, value) for steps, value in assignments):
            parser.error(f"factor {args.factor!r}: run {name} has no such field's parent")
        began = time.process_time()
        done[name] = claims_run.one_run(runs[name], changed, seed)
        done[name]["python_cpu_s"] = time.process_time() - began
        path.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
        cpu = done[name]["cpu_s"]
        print(f"{args.reproduction} {args.factor} seed {seed} {name}: ns-2 {cpu:.0f} s CPU", flush=True)
    path.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
    refusals = {name: s for name, s in scenarios.items() if isinstance(s, str)}
    for claim_id, entry in claims_run.judged(args.reproduction, store, refusals).items():
        print(f"{claim_id}: {entry.get('verdict', entry['status'])}: {entry.get('ns2', entry.get('reason'))}")


if __name__ == "__main__":
    main()
