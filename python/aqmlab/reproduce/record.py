"""The per-paper record: a reproduction's results as a Markdown section, sections replaced
by id in `docs/reproduction/seedNNN.md`, and the counts of `docs/reproduction.md` recomputed
from those pages (`make reproduce-full`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from aqmlab.reproduce.page_rows import (  # noqa: F401 (re-exported)
    CAUSE_MARK,
    TABLES,
)
from aqmlab.reproduce.page_rows import (
    cell as _cell,
)
from aqmlab.reproduce.pages import (  # noqa: F401 (re-exported)
    INDEX_BEGIN,
    INDEX_END,
    every_reproduction,
    locked,
    page_sections,
    regenerate,
    slug,
)


def _replace(path: Path, text: str) -> None:
    staging = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    staging.write_text(text)
    staging.replace(path)


def _verdict_cell(claim: dict[str, Any]) -> str:
    verdict = claim.get("verdict") or ("agrees" if claim["agrees"] else "differs")
    cell = verdict.replace("differs", "**differs**")
    if claim.get("cause") and not claim["agrees"]:
        cell += CAUSE_MARK + _cell(claim["cause"])
    return cell


def claim_rows(comparison: list[dict[str, Any]]) -> list[str]:
    """The Markdown lines of a section's claim tables: the paper's claims, then the consistency
    checks and aqmlab's own findings, each in its own table (only when there are some)."""
    lines: list[str] = []
    for kind, (header, title) in TABLES.items():
        rows = [claim for claim in comparison if claim.get("kind", "claim") == kind]
        if not rows:
            continue
        if title:
            lines += ["", title]
        lines += [
            "",
            f"| id | {header} | where | paper | criterion | aqmlab | verdict |",
            "|---|---|---|---|---|---|---|",
        ]
        for claim in rows:
            criterion = claim.get("criterion", "")
            if claim.get("why"):
                criterion = f"{criterion} ({claim['why']})" if criterion else claim["why"]
            cells = [claim["claim"], claim.get("where", ""), claim["paper"], criterion, claim["aqmlab"]]
            short = claim["id"].split("/", 1)[-1]
            lines.append(f"| `{short}` | {' | '.join(_cell(c) for c in cells)} | {_verdict_cell(claim)} |")
    return lines


def markdown_section(meta: dict[str, Any]) -> str:
    """The results of one reproduction as a section of docs/reproduction/seedNNN.md: per
    claim its id, where in the paper, the paper's value, the criterion, aqmlab's mean ± the
    half-width of its 95 % interval over the seeds (and the seeds' range), and the verdict;
    consistency checks and aqmlab's own findings in tables of their own."""
    version = "Quick" if meta["quick"] else "Full"
    seeds = meta.get("seeds", 1)
    runs = f"{seeds} seeds" if seeds > 1 else "deterministic or one run"
    lines = [
        f"### {meta['id']}: {meta['title']}",
        "",
        f"{version} version, {runs}, {meta['wall_time_s']:.0f} s of wall time (aqmlab {meta['aqmlab']}). "
        f"{meta['notes']}".rstrip(),
        *claim_rows(meta["comparison"]),
    ]
    return "\n".join(lines) + "\n"


def record_sections(document: str | Path, directories: list[Path]) -> list[str]:
    """Put each run's `reproduction.md` into `document`: a section with the same id is replaced,
    a new one is appended at the end. Returns the ids written. The file is replaced atomically."""
    document = Path(document)
    with locked(document):
        return _record_sections(document, directories)


def replace_section(text: str, reproduction_id: str, section: str) -> str:
    """`text` with the section "### reproduction_id: ..." replaced by `section` (appended at the
    end when there is none)."""
    start = text.find(f"### {reproduction_id}: ")
    if start < 0:
        return text.rstrip("\n") + "\n\n" + section
    following = [i for i in (text.find("\n### ", start + 1), text.find("\n## ", start + 1)) if i >= 0]
    end = min(following) + 1 if following else len(text)
    return text[:start] + section + ("\n" if end < len(text) else "") + text[end:]


def _record_sections(document: Path, directories: list[Path]) -> list[str]:
    text = document.read_text() if document.exists() else "# Reproduction results\n"
    written = []
    for directory in directories:
        section = (Path(directory) / "reproduction.md").read_text().rstrip("\n") + "\n"
        reproduction_id = section.split(":", 1)[0].removeprefix("### ").strip()
        text = replace_section(text, reproduction_id, section)
        written.append(reproduction_id)
    _replace(document, text)
    return written


def page_for(reproduction_id: str, pages: Path) -> Path:
    """docs/reproduction/seedNNN.md for "seedNNN-..."."""
    return Path(pages) / f"{reproduction_id.split('-', 1)[0]}.md"


def update_index(index: str | Path, pages: str | Path) -> None:
    """Regenerate from the pages: docs/reproduction.md's per-paper counts and table of every
    reproduction, each page's summary, and the published verdicts (docs/reproduction/verdicts.json)."""
    regenerate(Path(index), Path(pages))
