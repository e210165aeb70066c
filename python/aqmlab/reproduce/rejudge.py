"""Re-judge recorded full versions under the current declarations, without rerunning them.

    python -m aqmlab.reproduce.rejudge docs/reproduction [ID ...] [--index docs/reproduction.md]

A full version takes minutes to hours; when a claim's wording, kind, location or criterion
changes, its verdict is recomputed from the values its page recorded (each check's mean, the
half-width of its 95 % interval, the number of seeds and their range, printed at 4 significant
digits) with the current declaration, and the section is rewritten with a note saying so. A
claim whose checks need a quantity the page did not record cannot be re-judged: the command
names it, and that reproduction must be rerun (`make reproduce-full IDS=...`).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from aqmlab.reproduce.declare import Claim, Declaration
from aqmlab.reproduce.pages import Row, parse_values, regenerate, sections
from aqmlab.reproduce.record import claim_rows, locked, page_for, replace_section
from aqmlab.reproduce.runner import claim_entry, judge_stats

NOTE = (
    "Verdicts re-judged from the values recorded here (means and intervals at 4 significant digits) "
    "with the claims and criteria of issue 26; not rerun."
)


def recorded_quantities(claim: Claim) -> dict[str, tuple[str, str]]:
    """quantity → the (label, unit) it is printed under: the first check or show that names it
    (a quantity checked twice, e.g. against both ends of a reading, is printed under each label,
    and recorded at least under the first)."""
    found: dict[str, tuple[str, str]] = {}
    for check in claim.checks:
        found.setdefault(check.quantity, (check.label or check.quantity, check.unit))
    for quantity, label, unit in claim.shows:
        found.setdefault(quantity, (label, unit))
    return found


def match_rows(declaration: Declaration, rows: list[Row]) -> dict[str, Row]:
    """claim id → its recorded row: by id, or (a page written before ids were printed) by
    position, the statement as recorded checked against the declaration's."""
    if all(row.id for row in rows):
        return {row.id: row for row in rows}
    if len(rows) != len(declaration.claims):
        raise ValueError(f"{declaration.id}: {len(rows)} rows without ids against {len(declaration.claims)} claims")
    matched = {}
    for claim, row in zip(declaration.claims, rows, strict=True):
        if row.statement != claim.statement:
            print(
                f"note: {declaration.id}/{claim.id}: matched by position; recorded {row.statement!r}", file=sys.stderr
            )
        matched[claim.id] = row
    return matched


def rejudged_entries(declaration: Declaration, rows: list[Row]) -> list[dict[str, Any]]:
    recorded = match_rows(declaration, rows)
    entries, problems = [], []
    for claim in declaration.claims:
        row = recorded.get(claim.id)
        if row is None:
            problems.append(f"{declaration.id}/{claim.id}: not on the page (new claim: rerun the reproduction)")
            continue
        quantities = recorded_quantities(claim)
        try:
            stats = dict(zip(quantities, parse_values(row.aqmlab, list(quantities.values())), strict=True))
        except ValueError as error:
            problems.append(f"{declaration.id}/{claim.id}: {error}")
            continue
        checks = [judge_stats(check, stats[check.quantity]) for check in claim.checks]
        entries.append(claim_entry(declaration.id, claim, checks, [stats[q] for q, _, _ in claim.shows]))
    if problems:
        raise ValueError("cannot re-judge from the page:\n  " + "\n  ".join(problems))
    return entries


def rejudge_section(declaration: Declaration, section: dict[str, Any]) -> str:
    entries = rejudged_entries(declaration, section["rows"])
    paragraph = section["paragraph"].replace(f" {NOTE}", "").rstrip()
    paragraph = re.sub(r"\s+", " ", paragraph) if "\n" not in paragraph else paragraph
    lines = [section["heading"], "", f"{paragraph} {NOTE}".strip(), *claim_rows(entries)]
    return "\n".join(lines) + "\n"


def rejudge(
    pages: Path, ids: list[str] | None = None, *, index: Path | None = None, quick_file: Path | None = None
) -> list[str]:
    """Rewrite the sections of `ids` (default: every section of every page) from their recorded
    values, then regenerate what the pages generate (`pages.regenerate`: the ns-2 column and
    class of every row, each page's summary, the index `index` — default `<pages>.md`, e.g.
    docs/reproduction.md — and the published verdicts), so the pages never sit half-updated;
    returns the ids rewritten."""
    from aqmlab.reproduce import REGISTRY

    pages = Path(pages)
    index = Path(index) if index is not None else pages.with_suffix(".md")
    if not index.is_file():
        raise FileNotFoundError(f"index: {index} does not exist (the reproduction index the pages regenerate)")
    targets = ids or [s["id"] for page in sorted(pages.glob("seed*.md")) for s in sections(page.read_text())]
    done = []
    for reproduction_id in targets:
        page = page_for(reproduction_id, pages)
        with locked(page):
            text = page.read_text()
            found = [s for s in sections(text) if s["id"] == reproduction_id]
            if not found:
                raise KeyError(f"{reproduction_id}: no section on {page}")
            section = rejudge_section(REGISTRY[reproduction_id], found[0])
            page.write_text(replace_section(text, reproduction_id, section))
        done.append(reproduction_id)
    regenerate(index, pages, quick_file)
    return done


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", type=Path, help="directory of the seedNNN.md pages (docs/reproduction)")
    parser.add_argument("ids", nargs="*", help="reproduction ids (default: every section)")
    parser.add_argument("--index", type=Path, help="the reproduction index (default: <pages>.md)")
    args = parser.parse_args(argv)
    if not args.pages.is_dir():
        parser.error(f"pages: {args.pages} is not a directory")
    index = args.index if args.index is not None else args.pages.with_suffix(".md")
    if not index.is_file():
        parser.error(f"--index: {index} does not exist")
    print("re-judged (pages regenerated): " + ", ".join(rejudge(args.pages, args.ids, index=index)))


if __name__ == "__main__":
    main()
