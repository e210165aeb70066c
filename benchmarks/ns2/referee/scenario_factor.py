"""One-factor experiments in both simulators at once (issue 27, class (a)): a reduced-size
reproduction's runs (claims_run.REDUCED) in ns-2 2.35 (`claims_run.ns2_run`, ns-2's TCP defaults
as printed) and in aqmlab, with one scenario field set on the named runs, judged by the
reproduction's own claims with both simulators' values (claims_run.judged).

    python benchmarks/ns2/referee/scenario_factor.py seed000-fig18-homogeneous \\
        'duration="500s";measure_start="475s"' --red-mode packet --runs red-rtt10,red-rtt200 --seeds 2

The assignment is aqmlab_factors.py's (`path=value`, `;` joining the parts of one factor), set on
the ns-2 scenario as printed (`claims_run.mapped`, RED in `--red-mode`) and on aqmlab's own. The
runs it does not change are the base store's (`runs/<id>[-mode].json`, the same seed, RED mode
and `singledup_`: both simulators are deterministic, so they are those runs' results) or run here
when the base store has none. Each (seed, run) lands in `runs/<id>-<mode>-factor-<slug>.json` as
it finishes; `claims_run.py --write` does not read these stores (they are one-factor evidence for
referee.toml, not the as-printed column).
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import aqmlab_factors  # noqa: E402
import claims_run  # noqa: E402
import ns2_mapping  # noqa: E402
from aqmlab.reproduce import REGISTRY  # noqa: E402


def store_path(reproduction_id: str, red_mode: str, factor: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", factor).strip("-")
    return claims_run.RUNS / f"{reproduction_id}-{red_mode}-factor-{slug}.json"


def changed_scenarios(scenarios: dict[str, Any], factor: str, runs: list[str]) -> dict[str, Any]:
    assignments = [aqmlab_factors.parse_assignment(part.strip()) for part in factor.split(";")]
    out = {}
    for name in runs:
        scenario = copy.deepcopy(scenarios[name])
        if not all(aqmlab_factors.apply(scenario, steps, value) for steps, value in assignments):
            raise ValueError(f"factor {factor!r}: run {name} has no such field's parent")
        out[name] = scenario
    return out


def run(reproduction_id: str, factor: str, red_mode: str, runs: list[str], seeds: int) -> dict[str, Any]:
    if reproduction_id not in claims_run.REDUCED:
        raise ValueError(f"reproduction {reproduction_id!r}; allowed: {', '.join(claims_run.REDUCED)}")
    declaration = REGISTRY[reproduction_id]
    items = {item.name: item for item in declaration.runs(True)}
    for name in runs:
        if name not in items:
            raise ValueError(f"--runs: unknown run {name!r}; allowed: {', '.join(items)}")
    ns2_scenarios = claims_run.mapped(declaration, red_mode)
    ns2_changed = changed_scenarios(ns2_scenarios, factor, runs)
    ours_changed = changed_scenarios({n: item.scenario for n, item in items.items()}, factor, runs)
    options = ns2_mapping.ns2_defaults()
    base_path = claims_run.store_path(reproduction_id, red_mode)
    base = json.loads(base_path.read_text()) if base_path.is_file() else {}
    if claims_run.store_singledup(base) != options.singledup:
        base = {}  # run with another singledup_: not the same runs
    path = store_path(reproduction_id, red_mode, factor)
    store = json.loads(path.read_text()) if path.is_file() else {}
    store.update(
        {"id": reproduction_id, "red_mode": red_mode, "singledup_": options.singledup, "factor": factor, "runs": runs}
    )
    store["reduced"] = f"{claims_run.REDUCED_SIZE}; one factor in both: {factor} on {', '.join(runs)}"
    for seed in range(1, seeds + 1):
        key = str(seed)
        done = store.setdefault("seeds", {}).setdefault(key, {})
        ours = store.setdefault("aqmlab", {}).setdefault(key, {})
        for name, item in items.items():
            if isinstance(ns2_scenarios[name], str):
                continue
            if name not in done:
                stored = base.get("seeds", {}).get(key, {}).get(name)
                if name in ns2_changed or stored is None:
                    done[name] = claims_run.one_run(item, ns2_changed.get(name, ns2_scenarios[name]), seed, options)
                else:
                    done[name] = {**stored, "from": base_path.name}
            if name not in ours:
                stored = base.get("aqmlab", {}).get(key, {}).get(name)
                if name in ours_changed or stored is None:
                    scenario = {**copy.deepcopy(ours_changed.get(name, item.scenario)), "seed": seed}
                    from aqmlab.simulation import simulate

                    ours[name] = {"measures": {k: float(v) for k, v in item.measure(simulate(scenario)).items()}}
                else:
                    ours[name] = {**stored, "from": base_path.name}
            path.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
            print(f"{reproduction_id} {factor} seed {seed} {name}", flush=True)
    refusals = {name: s for name, s in ns2_scenarios.items() if isinstance(s, str)}
    complete = claims_run.complete_seeds(path, len(ns2_scenarios) - len(refusals))
    return claims_run.judged(reproduction_id, complete, refusals) if complete else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reproduction", choices=claims_run.REDUCED)
    parser.add_argument("factor", help='path=value, e.g. duration="500s";measure_start="475s"')
    parser.add_argument("--red-mode", choices=("paper", "packet"), default="paper")
    parser.add_argument("--runs", required=True, help="comma-separated run names the factor changes")
    parser.add_argument("--seeds", type=int, default=2)
    args = parser.parse_args()
    if args.seeds < 2:
        parser.error("--seeds: at least 2 (claims are judged on 2 or more)")
    try:
        result = run(args.reproduction, args.factor, args.red_mode, args.runs.split(","), args.seeds)
    except ValueError as error:
        parser.error(str(error))
    for claim_id, entry in result.items():
        if entry.get("status") == "run":
            print(f"{claim_id}: ns-2 {entry['verdict']}: {entry['ns2']} ({entry.get('note', '')})")


if __name__ == "__main__":
    main()
