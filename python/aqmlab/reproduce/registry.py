"""Registry of reproductions and the driver that runs one into a directory.

Two kinds are registered: declarations (`aqmlab.reproduce.declare.Declaration`, run by
`aqmlab.reproduce.runner`: seeds, intervals, verdicts as data) via `register`, and the older
functions `function(out_dir, quick) -> Outcome` via the `reproduction` decorator, whose
claims carry their own verdict (one run, no interval) until they are converted.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aqmlab
from aqmlab.reproduce.declare import Declaration
from aqmlab.reproduce.record import markdown_section, record_sections  # noqa: F401 (re-exported)
from aqmlab.results_io import write_reproduction


@dataclass
class Claim:
    """One statement of the paper, checked against aqmlab's numbers (older reproductions;
    declarations use `aqmlab.reproduce.declare.Claim`)."""

    claim: str
    paper: str
    aqmlab: str
    agrees: bool


@dataclass
class Outcome:
    """What an older reproduction returns: its claims, figure files (in the output
    directory) and notes."""

    claims: list[Claim]
    figures: list[str]
    notes: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reproduction:
    id: str
    paper: str
    title: str
    description: str
    run: Callable[[Path, bool], Outcome]
    #: Rough wall time of the full version on the benchmark machine, for `--list`.
    full_cost: str = ""


REGISTRY: dict[str, Reproduction | Declaration] = {}


def register(declaration: Declaration) -> Declaration:
    """Register a declared reproduction under its id."""
    if declaration.id in REGISTRY:
        raise ValueError(f"reproduction {declaration.id!r} registered twice")
    REGISTRY[declaration.id] = declaration
    return declaration


def reproduction(id: str, paper: str, title: str, description: str, full_cost: str = ""):
    """Register `function(out_dir, quick) -> Outcome` under `id` (older reproductions)."""

    def decorate(function: Callable[[Path, bool], Outcome]) -> Callable[[Path, bool], Outcome]:
        if id in REGISTRY:
            raise ValueError(f"reproduction {id!r} registered twice")
        REGISTRY[id] = Reproduction(id, paper, title, description, function, full_cost)
        return function

    return decorate


def legacy_body(item: Reproduction, out: Path, quick: bool) -> dict[str, Any]:
    """Run an older reproduction; its claims get ids by position ("claim-1", ...)."""
    outcome = item.run(out, quick)
    comparison = []
    for index, claim in enumerate(outcome.claims, start=1):
        entry = dict(claim.__dict__)
        entry.update(id=f"{item.id}/claim-{index}", verdict="agrees" if claim.agrees else "differs", seeds=1)
        entry.setdefault("where", "")
        entry.setdefault("criterion", "")
        entry["marginal"] = False
        comparison.append(entry)
    return {
        "seeds": 1,
        "comparison": comparison,
        "figures": outcome.figures,
        "notes": outcome.notes,
        "data": outcome.data,
    }


def reproduce(id: str, out: str | Path, *, quick: bool = False) -> Path:
    """Run reproduction `id` into `out` (replaced atomically when done)."""
    from aqmlab.reproduce.runner import run_declaration

    if id not in REGISTRY:
        raise KeyError(f"unknown reproduction {id!r}; `aqmlab reproduce --list` shows {len(REGISTRY)}")
    item = REGISTRY[id]
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        began = time.perf_counter()
        if isinstance(item, Declaration):
            body = run_declaration(item, staging, quick)
        else:
            body = legacy_body(item, staging, quick)
        meta = {
            "id": item.id,
            "paper": item.paper,
            "title": item.title,
            "description": item.description,
            "quick": quick,
            "wall_time_s": time.perf_counter() - began,
            "aqmlab": aqmlab.__version__,
            **body,
        }
        write_reproduction(staging, meta)
        (staging / "reproduction.md").write_text(markdown_section(meta))
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out
