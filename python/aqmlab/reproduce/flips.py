"""Which claims' verdicts changed between two sets of recorded pages (docs/reproduction/).

`python -m aqmlab.reproduce.flips BEFORE_DIR AFTER_DIR` prints a Markdown table of every claim
whose verdict differs, including claims that are new or gone; the pages are the ones
`aqmlab reproduce ID --record-into` writes. To compare with a commit:
`mkdir /tmp/before && for p in docs/reproduction/seed*.md; do git show REV:$p > /tmp/before/$(basename $p); done`.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

CLAIM_HEADER = "| claim |"


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table row; `\\|` inside a cell is not a separator."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def claim_verdicts(page_text: str) -> dict[tuple[str, str], str]:
    """(reproduction id, claim statement) -> verdict, for every claim row of one page."""
    verdicts: dict[tuple[str, str], str] = {}
    for block in re.split(r"\n(?=### )", page_text):
        if not block.startswith("### "):
            continue
        reproduction_id = block.splitlines()[0].removeprefix("### ").partition(": ")[0].strip()
        for row in block.splitlines():
            if row.startswith("| ") and not row.startswith(CLAIM_HEADER):
                cells = _cells(row)
                if len(cells) >= 2 and not set(cells[0]) <= {"-"}:
                    verdicts[(reproduction_id, cells[0])] = cells[-1].replace("**", "")
    return verdicts


def directory_verdicts(pages: Path) -> dict[tuple[str, str], str]:
    verdicts: dict[tuple[str, str], str] = {}
    for page in sorted(Path(pages).glob("seed*.md")):
        verdicts.update(claim_verdicts(page.read_text()))
    return verdicts


def _agrees(verdict: str | None) -> bool | None:
    return None if verdict is None else verdict.startswith("agrees")


def flips(before: dict[tuple[str, str], str], after: dict[tuple[str, str], str]) -> list[tuple[str, str, str, str]]:
    """(id, claim, before, after) for every claim whose agrees/differs changed, or that is
    new or gone; a change of marginal mark alone is not a flip."""
    rows = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if _agrees(old) != _agrees(new):
            rows.append((key[0], key[1], old or "(not in the pages)", new or "(gone)"))
    return rows


def flip_table(rows: list[tuple[str, str, str, str]]) -> str:
    lines = ["| reproduction | claim | before | after |", "|---|---|---|---|"]
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
