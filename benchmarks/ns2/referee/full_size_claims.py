"""Full-only claims of a reduced-size reproduction judged on its full-size runs in ns-2 (issue 27).

`claims_run.REDUCED` runs some reproductions at a reduced size in both simulators; their full-only
claims (e.g. seed000-fig18-homogeneous's 5-minute AFCT gap of 500-MB transfers) cannot be judged
there. `full_size_run.py` runs single runs of such a reproduction at their full size in ns-2 as
printed (`runs/<id>-full-size-<run>.json`). A full-only claim is judged on those stores when every
quantity it reads can be computed from them alone, on at least 2 seeds.

Which runs a quantity reads is derived, never declared: a run's own measure ("run.key") reads that
run; a derived one (the reproduction's `derive`, at the full size) is evaluated per seed with the
stored runs' measures and every other run of the full size filled in with each of `FILLS` (NaN,
large positive and negative numbers distinct per run and measure, small ones). The quantity reads
only the stored runs when it comes out finite and the same under every fill; the runs it reads
are the stored runs whose replacement by the fills changes it.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from aqmlab.reproduce import REGISTRY
from aqmlab.reproduce.declare import Claim, Declaration
from aqmlab.reproduce.runner import judge_claim

#: Stand-ins for a run's measures that were not run: (run index, measure name) → value. Any
#: dependence on such a run changes the quantity under at least one of them (NaN poisons
#: arithmetic; the large ones win every max and min and move every sum, ratio and difference).
FILLS: tuple[Callable[[int, str], float], ...] = (
    lambda run, key: math.nan,
    lambda run, key: 1e9 * (1 + run) + zlib.crc32(key.encode()) % 997,
    lambda run, key: -1e9 * (1 + run) - zlib.crc32(key.encode()) % 991,
    lambda run, key: 0.5 + run + (zlib.crc32(key.encode()) % 89) / 100,
)


class _FilledRow(dict):
    """A run's measures that were not run: every measure name gives the fill's value."""

    def __init__(self, run: int, fill: Callable[[int, str], float]) -> None:
        super().__init__()
        self._run, self._fill = run, fill

    def __missing__(self, key: str) -> float:
        return self._fill(self._run, key)


def store_paths(runs: Path, reproduction_id: str) -> list[Path]:
    return sorted(runs.glob(f"{reproduction_id}-full-size-*.json"))


def load_stores(runs: Path, declaration: Declaration, singledup: int) -> dict[str, dict[str, dict[str, float]]]:
    """run name → seed → measures, from `full_size_run.py`'s stores of `declaration`: runs of its
    full size only, as printed (RED as the paper, ns-2's `singledup_` default `singledup`), and
    only the seeds whose run finished with measures."""
    assert declaration.runs is not None
    names = {run.name for run in declaration.runs(False)}
    out: dict[str, dict[str, dict[str, float]]] = {}
    for path in store_paths(runs, declaration.id):
        store = json.loads(path.read_text())
        if store.get("run") not in names or store.get("red_mode") != "paper" or store.get("singledup_") != singledup:
            continue
        seeds = {
            seed: entry["measures"]
            for seed, entry in store["seeds"].items()
            if entry.get("measures") and "error" not in entry
        }
        if seeds:
            out[store["run"]] = seeds
    return out


def _value(declaration: Declaration, quantity: str, measures: dict[str, dict[str, float]]) -> float | None:
    """`quantity` from one seed's `measures` (every run of the full size; filled rows for those
    not run); None when computing it fails."""
    if "." in quantity:
        run, key = quantity.split(".", 1)
        return measures[run].get(key) if run in measures else None
    assert declaration.derive is not None
    try:
        value = declaration.derive(measures, False).get(quantity)
    except (ArithmeticError, KeyError, ValueError):
        return None
    return None if value is None else float(value)


def _same(values: Iterable[float | None]) -> float | None:
    """The common value when every one is the same finite number, else None."""
    listed = list(values)
    first = listed[0]
    if first is None or not math.isfinite(first) or any(v is None or v != first for v in listed[1:]):
        return None
    return first


def quantity_at_seed(
    declaration: Declaration, quantity: str, stored: dict[str, dict[str, float]]
) -> tuple[float, set[str]] | None:
    """`quantity` at one seed from the `stored` runs' measures alone, and the stored runs it
    reads (module docstring); None when it reads a run not stored."""
    assert declaration.runs is not None
    names = [run.name for run in declaration.runs(False)]

    def filled(present: dict[str, dict[str, float]], fill: Callable[[int, str], float]) -> dict[str, Any]:
        return {name: present[name] if name in present else _FilledRow(i, fill) for i, name in enumerate(names)}

    value = _same(_value(declaration, quantity, filled(stored, fill)) for fill in FILLS)
    if value is None:
        return None
    reads = set()
    for run in stored:
        without = {name: row for name, row in stored.items() if name != run}
        if _same(_value(declaration, quantity, filled(without, fill)) for fill in FILLS) != value:
            reads.add(run)
    return value, reads


def claim_values(
    declaration: Declaration, claim: Claim, stores: dict[str, dict[str, dict[str, float]]]
) -> tuple[dict[str, list[float]], list[str], list[str]] | None:
    """The claim's quantities per seed from the full-size `stores`, the runs they read and the
    seeds used: every seed at which every quantity reads only runs stored at that seed. None when
    fewer than 2 seeds give all of them."""
    quantities = [check.quantity for check in claim.checks] + [q for q, _, _ in claim.shows]
    seeds = sorted({seed for seeds in stores.values() for seed in seeds}, key=int)
    values: dict[str, list[float]] = {q: [] for q in quantities}
    reads: set[str] = set()
    used = []
    for seed in seeds:
        stored = {run: seeds_of[seed] for run, seeds_of in stores.items() if seed in seeds_of}
        found = {q: quantity_at_seed(declaration, q, stored) for q in quantities}
        complete = {q: f for q, f in found.items() if f is not None}
        if len(complete) < len(found):
            continue
        used.append(seed)
        for quantity, (value, read) in complete.items():
            values[quantity].append(value)
            reads |= read
    if len(used) < 2:
        return None
    return values, sorted(reads), used


def full_size_note(reads: list[str], seeds: list[str], reproduction_id: str) -> str:
    stores = ", ".join(f"runs/{reproduction_id}-full-size-{run}.json" for run in reads)
    return (
        f"full size, {len(seeds)} seeds, runs {', '.join(reads)} in ns-2 as printed "
        f"(full_size_run.py; {stores}): the only runs its quantities read"
    )


def judged_at_full_size(reproduction_id: str, claim: Claim, runs: Path, singledup: int, note: str) -> dict | None:
    """The referee entry of full-only `claim` judged on the full-size stores in `runs` (its
    own checks, `runner.judge_claim`), or None when they do not give every quantity it reads on
    at least 2 seeds."""
    declaration = REGISTRY[reproduction_id]
    found = claim_values(declaration, claim, load_stores(runs, declaration, singledup))
    if found is None:
        return None
    values, reads, seeds = found
    entry = judge_claim(reproduction_id, claim, values)
    return {
        "status": "run",
        "ns2": entry["aqmlab"],
        "verdict": entry["verdict"],
        "seeds": entry["seeds"],
        "unmeasured": [],
        "note": "; ".join(part for part in (note, full_size_note(reads, seeds, reproduction_id)) if part),
        "full_size": {"runs": reads, "seeds": [int(seed) for seed in seeds]},
    }
