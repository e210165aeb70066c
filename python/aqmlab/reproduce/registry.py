"""Registry of reproductions and the driver that runs one into a directory."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aqmlab


@dataclass
class Claim:
    """One statement of the paper, checked against aqmlab's numbers."""

    claim: str
    paper: str
    aqmlab: str
    agrees: bool


@dataclass
class Outcome:
    """What a reproduction returns: its claims, figure files (in the output directory) and notes."""

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


REGISTRY: dict[str, Reproduction] = {}


def reproduction(id: str, paper: str, title: str, description: str, full_cost: str = ""):
    """Register `function(out_dir, quick) -> Outcome` under `id`."""

    def register(function: Callable[[Path, bool], Outcome]) -> Callable[[Path, bool], Outcome]:
        if id in REGISTRY:
            raise ValueError(f"reproduction {id!r} registered twice")
        REGISTRY[id] = Reproduction(id, paper, title, description, function, full_cost)
        return function

    return register


def reproduce(id: str, out: str | Path, *, quick: bool = False) -> Path:
    """Run reproduction `id` into `out` (replaced atomically when done)."""
    if id not in REGISTRY:
        raise KeyError(f"unknown reproduction {id!r}; `aqmlab reproduce --list` shows {len(REGISTRY)}")
    item = REGISTRY[id]
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        began = time.perf_counter()
        outcome = item.run(staging, quick)
        meta = {
            "id": item.id,
            "paper": item.paper,
            "title": item.title,
            "description": item.description,
            "quick": quick,
            "wall_time_s": time.perf_counter() - began,
            "aqmlab": aqmlab.__version__,
            "comparison": [claim.__dict__ for claim in outcome.claims],
            "figures": outcome.figures,
            "notes": outcome.notes,
            "data": outcome.data,
        }
        (staging / "reproduction.json").write_text(json.dumps(meta, indent=2, default=str))
        (staging / "reproduction.md").write_text(markdown_section(meta))
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out


def markdown_section(meta: dict[str, Any]) -> str:
    """The results of one reproduction as a section of docs/reproduction*.md."""
    version = "Quick" if meta["quick"] else "Full"
    lines = [
        f"### {meta['id']}: {meta['title']}",
        "",
        f"{version} version, {meta['wall_time_s']:.0f} s of wall time (aqmlab {meta['aqmlab']}). {meta['notes']}",
        "",
        "| claim | paper | aqmlab | |",
        "|---|---|---|---|",
    ]
    for claim in meta["comparison"]:
        cells = [str(claim[key]).replace("|", "\\|").replace("\n", " ") for key in ("claim", "paper", "aqmlab")]
        lines.append(f"| {' | '.join(cells)} | {'agrees' if claim['agrees'] else '**differs**'} |")
    return "\n".join(lines) + "\n"


def record_sections(document: str | Path, directories: list[Path]) -> list[str]:
    """Put each run's `reproduction.md` into `document`: a section with the same id is replaced,
    a new one is appended at the end. Returns the ids written. The file is replaced atomically."""
    document = Path(document)
    text = document.read_text() if document.exists() else "# Reproduction results\n"
    written = []
    for directory in directories:
        section = (Path(directory) / "reproduction.md").read_text().rstrip("\n") + "\n"
        reproduction_id = section.split(":", 1)[0].removeprefix("### ").strip()
        start = text.find(f"### {reproduction_id}: ")
        if start < 0:
            text = text.rstrip("\n") + "\n\n" + section
        else:
            following = [i for i in (text.find("\n### ", start + 1), text.find("\n## ", start + 1)) if i >= 0]
            end = min(following) + 1 if following else len(text)
            text = text[:start] + section + ("\n" if end < len(text) else "") + text[end:]
        written.append(reproduction_id)
    staging = document.with_name(f".{document.name}.tmp")
    staging.write_text(text)
    staging.replace(document)
    return written
