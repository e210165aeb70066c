"""One-factor experiments in aqmlab alone, for the differing claims of class (c) (no ns-2
counterpart: Cx-TCP, E-RED, REDvq; issue 27): a reproduction's own runs with one scenario field
set to another value, judged by the reproduction's own claims.

    python benchmarks/ns2/referee/aqmlab_factors.py seed002-redvq \\
        'topology.bottleneck.queue.delay_scale="50ms"' --runs ered --seeds 2 [--quick]

The assignment is `path=value`: `path` a dotted scenario path (`[*]` for every element of a
list, `[2]` for one), `value` JSON (a bare word is a string); several assignments joined by
`;` are one factor when they set one thing (a later measurement window: its start and the run's
end). It is applied to the runs named by
`--runs` (default: every run whose scenario has the field's parent); the other runs of the
reproduction run unchanged, so that the claims that combine runs (differences, ratios) are judged
on the same seeds. Per (reproduction, factor, seed, run) the measures land in
`aqmlab_factors.json` as they finish, in the layout of `one_factor.json`; a factor run at the
reduced quick size is stored under "quick: <factor>". The factor `baseline` runs the
reproduction unchanged at the same seeds and size, the reference the factors are read against.
A run the factor leaves unchanged is the baseline's run (same scenario and seed: bit-identical,
the engine being deterministic), so where the baseline's measures of it at that seed and size are
stored they are copied rather than simulated again. Each finished run is merged into the store as
it is read at that moment, so that runs of several factors may proceed side by side.
"""

from __future__ import annotations

import argparse
import copy
import fcntl
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from aqmlab.reproduce import REGISTRY  # noqa: E402
from aqmlab.simulation import simulate  # noqa: E402
from one_factor import judge_seeds  # noqa: E402

STORE = HERE / "aqmlab_factors.json"
#: The reproduction's runs unchanged, at the factor runs' seeds (and size), to compare with.
BASELINE = "baseline"
_STEP = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[(\*|\d+)\])?$")


def parse_assignment(text: str) -> tuple[list[tuple[str, str | None]], Any]:
    """'a.b[*].c=value' → ([("a", None), ("b", "*"), ("c", None)], value)."""
    path, sep, raw = text.partition("=")
    if not sep or not path:
        raise ValueError(f"factor {text!r}: expected path=value, e.g. topology.bottleneck.queue.gamma=0.9")
    steps = []
    for part in path.split("."):
        match = _STEP.match(part)
        if match is None:
            raise ValueError(f"factor {text!r}: path step {part!r}: allowed: a name, name[*] or name[index]")
        steps.append((match.group(1), match.group(2)))
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return steps, value


def apply(scenario: dict[str, Any], steps: list[tuple[str, str | None]], value: Any) -> int:
    """Set the field in `scenario` (in place); the number of places set (0: the path's parent
    is absent, the run is left unchanged)."""

    def walk(node: Any, rest: list[tuple[str, str | None]]) -> int:
        (name, index), tail = rest[0], rest[1:]
        if not isinstance(node, dict):
            return 0
        if not tail and index is None:
            node[name] = value
            return 1
        if name not in node:
            return 0
        child = node[name]
        if index is None:
            return walk(child, tail)
        items = child if index == "*" else [child[int(index)]]
        if not tail:
            raise ValueError("a list element cannot be the field set; name the field inside it")
        return sum(walk(item, tail) for item in items)

    return walk(scenario, steps)


def link_summary(results: Any) -> dict[str, float]:
    """Per traced link, over the measurement window: utilisation and loss (`Results.summary`)
    and, where the queue keeps a virtual queue (E-RED, REDvq), its mean and coefficient of
    variation; recorded beside the run's own measures so that a metric's definition (which
    link, which quantity) can be compared too."""
    out = {}
    for link in results.traced_links:
        summary = results.summary(link)
        out[f"_link.{link}.utilisation_percent"] = 100.0 * float(summary["utilisation_mean"])
        out[f"_link.{link}.loss_percent"] = float(summary["loss_percent"])
        samples = results.link_samples(link)
        virtual = samples["virtual_queue"][samples["time_s"] >= results.measure_start_s]
        if virtual.size and np.isfinite(virtual).all() and virtual.mean() > 0:
            out[f"_link.{link}.virtual_mean"] = float(virtual.mean())
            out[f"_link.{link}.virtual_cv"] = float(virtual.std() / virtual.mean())
    return out


def run(reproduction_id: str, factor: str, runs: list[str] | None, seeds: int, quick: bool) -> dict[str, Any]:
    declaration = REGISTRY[reproduction_id]
    if declaration.runs is None:
        raise ValueError(f"{reproduction_id}: a computed reproduction (no packet runs); one-factor runs need runs")
    assignments = [parse_assignment(part.strip()) for part in factor.split(";")] if factor != BASELINE else []
    label = f"quick: {factor}" if quick else factor
    items = declaration.runs(quick)
    names = [item.name for item in items]
    for name in runs or []:
        if name not in names:
            raise ValueError(f"--runs: unknown run {name!r} of {reproduction_id}; allowed: {', '.join(names)}")
    scenarios = {}
    unchanged = set()
    changed = 0
    for item in items:
        scenarios[item.name] = copy.deepcopy(item.scenario)
        if factor != BASELINE and (runs is None or item.name in runs):
            places = min((apply(scenarios[item.name], steps, value) for steps, value in assignments), default=0)
            changed += places
        if scenarios[item.name] == item.scenario:
            unchanged.add(item.name)
    if factor != BASELINE and not changed:
        raise ValueError(f"factor {factor!r}: no run of {reproduction_id} has this field's parent")
    baseline_label = f"quick: {BASELINE}" if quick else BASELINE
    for seed in range(1, seeds + 1):
        for item in items:
            stored = load_store().get(reproduction_id, {})
            if item.name in stored.get(label, {}).get(str(seed), {}):
                continue
            baseline = stored.get(baseline_label, {}).get(str(seed), {}).get(item.name)
            if item.name in unchanged and baseline is not None:
                record(reproduction_id, label, seed, item.name, baseline)
                print(f"{reproduction_id} {label} seed {seed} {item.name}: unchanged, the baseline's", flush=True)
                continue
            scenario = copy.deepcopy(scenarios[item.name])
            scenario["seed"] = seed
            results = simulate(scenario)
            measures = {k: float(v) for k, v in item.measure(results).items()}
            measures.update(link_summary(results))
            record(reproduction_id, label, seed, item.name, measures)
            print(f"{reproduction_id} {label} seed {seed} {item.name}", flush=True)
    return judged(reproduction_id, label, quick)


def load_store() -> dict[str, Any]:
    return json.loads(STORE.read_text()) if STORE.is_file() else {}


def record(reproduction_id: str, label: str, seed: int, run_name: str, measures: dict[str, float]) -> None:
    """Merge one run's measures into the store as it is now (under an exclusive lock, so that
    factor runs in parallel do not overwrite each other's results)."""
    with open(Path(tempfile.gettempdir()) / "aqmlab_factors.json.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        store = load_store()
        store.setdefault(reproduction_id, {}).setdefault(label, {}).setdefault(str(seed), {})[run_name] = measures
        temporary = STORE.with_suffix(".tmp")
        temporary.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
        temporary.replace(STORE)


def judged(reproduction_id: str, label: str, quick: bool) -> dict[str, Any]:
    """claim id → verdict and values of the claim's own checks on the factor's runs."""
    return judge_seeds(reproduction_id, json.loads(STORE.read_text())[reproduction_id][label], quick)


def factor_parser(doc: str, example: str) -> argparse.ArgumentParser:
    """`REPRODUCTION path=value [--runs A,B] [--seeds N]`: this script's and ns2_printed_factor.py's."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reproduction")
    parser.add_argument("factor", help=f"path=value, e.g. {example}")
    parser.add_argument("--runs", help="comma-separated run names the factor changes (default: every run)")
    parser.add_argument("--seeds", type=int, default=2)
    return parser


def checked(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The parsed arguments, the reproduction and the seed count checked."""
    args = parser.parse_args()
    if args.reproduction not in REGISTRY:
        parser.error(f"reproduction: unknown id {args.reproduction!r}")
    if args.seeds < 1:
        parser.error("--seeds: at least 1")
    return args


def main() -> None:
    parser = factor_parser(__doc__, "topology.bottleneck.queue.gamma=0.9")
    parser.add_argument("--quick", action="store_true", help="the reproduction's reduced quick size")
    args = checked(parser)
    runs = args.runs.split(",") if args.runs else None
    try:
        result = run(args.reproduction, args.factor, runs, args.seeds, args.quick)
    except ValueError as error:
        parser.error(str(error))
    for claim_id, entry in result.items():
        print(f"{claim_id}: {entry['verdict']}: {entry['aqmlab']}")


if __name__ == "__main__":
    main()
