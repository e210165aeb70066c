"""Which claims' verdicts changed between two sets of recorded pages (docs/reproduction/).

`python -m aqmlab.reproduce.flips BEFORE_DIR AFTER_DIR` prints a Markdown table of every claim
whose verdict differs, including claims that are new or gone; the pages are the ones
`aqmlab reproduce ID --record-into` writes. To compare with a commit:
`mkdir /tmp/before && for p in docs/reproduction/seed*.md; do git show REV:$p > /tmp/before/$(basename $p); done`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from aqmlab.reproduce.pages import sections

#: How a verdict of a row that is not a counted claim is shown (and told apart) in a flip.
KIND_MARK = {"consistency": " [consistency check, not counted]", "ours": " [aqmlab's finding, not counted]"}


def _ids_by_position(reproduction_id: str, count: int) -> list[str] | None:
    """The declared claim ids of a reproduction, for a page recorded before ids were printed
    (its rows are the full version's claims in declaration order); None when unknown."""
    from aqmlab.reproduce import REGISTRY

    declaration = REGISTRY.get(reproduction_id)
    if declaration is None or len(declaration.claims) != count:
        return None
    return [claim.id for claim in declaration.claims]


def _id_by_statement(reproduction_id: str, row) -> str:
    """The declared claim id whose statement is the row's, else the statement itself."""
    from aqmlab.reproduce import REGISTRY

    declaration = REGISTRY.get(reproduction_id)
    claims = declaration.claims if declaration is not None else ()
    return next((claim.id for claim in claims if claim.statement == row.statement), row.statement)


def claim_verdicts(page_text: str) -> dict[tuple[str, str], str]:
    """(reproduction id, claim id) -> verdict, for every claim row of one page. A page written
    before ids were printed gets them by position from the declarations (when the number of rows
    matches), else by a declared claim's identical statement, else its rows are keyed by their
    statement."""
    verdicts: dict[tuple[str, str], str] = {}
    for section in sections(page_text):
        rows = section["rows"]
        ids = [row.id for row in rows]
        if not all(ids):
            ids = _ids_by_position(section["id"], len(rows)) or [_id_by_statement(section["id"], row) for row in rows]
        for claim_id, row in zip(ids, rows, strict=True):
            verdicts[(section["id"], claim_id)] = row.verdict + KIND_MARK.get(row.kind, "")
    return verdicts


def directory_verdicts(pages: Path) -> dict[tuple[str, str], str]:
    verdicts: dict[tuple[str, str], str] = {}
    for page in sorted(Path(pages).glob("seed*.md")):
        verdicts.update(claim_verdicts(page.read_text()))
    return verdicts


def _agrees(verdict: str | None) -> tuple[bool, str] | None:
    """What a flip compares: agreement and kind (a claim becoming a consistency check is a flip)."""
    if verdict is None:
        return None
    return verdict.startswith("agrees"), next((mark for mark in KIND_MARK.values() if verdict.endswith(mark)), "")


def flips(before: dict[tuple[str, str], str], after: dict[tuple[str, str], str]) -> list[tuple[str, str, str, str]]:
    """(id, claim, before, after) for every claim whose agrees/differs changed, or that is
    new or gone, or whose kind changed (counted claim, consistency check, aqmlab's finding); a
    change of marginal mark alone is not a flip."""
    rows = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if _agrees(old) != _agrees(new):
            rows.append((key[0], key[1], old or "(not in the pages)", new or "(gone)"))
    return rows


def flip_table(rows: list[tuple[str, str, str, str]]) -> str:
    lines = ["| reproduction | claim id | before | after |", "|---|---|---|---|"]
    lines += [f"| `{rid}` | {claim} | {old} | {new} |" for rid, claim, old, new in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="directory of the earlier seedNNN.md pages")
    parser.add_argument("after", type=Path, help="directory of the later pages (e.g. docs/reproduction)")
    args = parser.parse_args(argv)
    for name in ("before", "after"):
        if not getattr(args, name).is_dir():
            parser.error(f"{name}: {getattr(args, name)} is not a directory of seedNNN.md pages")
    print(flip_table(flips(directory_verdicts(args.before), directory_verdicts(args.after))))


if __name__ == "__main__":
    main()
