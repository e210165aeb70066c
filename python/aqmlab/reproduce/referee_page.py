"""The referee column written into a page's claim tables (issue 27): paper | ns-2 2.35 | aqmlab
on every row, and the class of every claim of the paper aqmlab does not reproduce
(`aqmlab.reproduce.referee` computes both; `pages.generated_page` calls `with_referee`)."""

from __future__ import annotations

from aqmlab.reproduce.page_rows import CAUSE_MARK, HEADER_KIND, Row, _row, cell, cells
from aqmlab.reproduce.referee import CLASS_MARK, NS2_HEADER, Referee


def _verdict_cell(row: Row, referee_class: str) -> str:
    """The last cell of a row: the verdict, the class of a difference, its demonstrated cause."""
    text = row.verdict.replace("differs", "**differs**")
    if referee_class:
        text += CLASS_MARK + cell(referee_class)
    if row.cause:
        text += CAUSE_MARK + cell(row.cause)
    return text


def render_row(row: Row, referee: Referee) -> str:
    """A claim row with the referee column: paper | ns-2 2.35 | aqmlab, and on a claim of the
    paper that aqmlab does not reproduce, the class of the difference (aqmlab.reproduce.referee)."""
    ns2 = referee.ns2_cell(row.full_id)
    referee_class = referee.class_cell(row.full_id, row.cause) if row.kind == "claim" and not row.agrees else ""
    values = [row.statement, row.where, row.paper, row.criterion, ns2, row.aqmlab]
    return f"| `{row.id}` | {' | '.join(cell(v) for v in values)} | {_verdict_cell(row, referee_class)} |"


def with_referee(text: str, referee: Referee) -> str:
    """Every claim table of a page with the ns-2 2.35 column beside aqmlab's and the class on
    every differing claim, from `referee` (rows without ids are left as they are)."""
    out, reproduction_id, kind, with_id, with_ns2 = [], "", None, False, False
    for line in text.split("\n"):
        if line.startswith("### "):
            reproduction_id, kind = line.removeprefix("### ").partition(": ")[0].strip(), None
        elif line.startswith("## "):  # the summary or another part: no claim table
            reproduction_id, kind = "", None
        if not line.startswith("|") or not reproduction_id:
            out.append(line)
            continue
        values = cells(line)
        if set("".join(values)) <= {"-", ":"}:
            out.append("|---" * (8 if kind is not None and with_id else len(values)) + "|")
            continue
        if values[0] == "id" and len(values) > 1 and values[1] in HEADER_KIND:
            kind, with_id, with_ns2 = HEADER_KIND[values[1]], True, NS2_HEADER in values
            out.append(f"| id | {values[1]} | where | paper | criterion | {NS2_HEADER} | aqmlab | verdict |")
        elif values[0] in HEADER_KIND:
            kind, with_id, with_ns2 = HEADER_KIND[values[0]], False, NS2_HEADER in values
            out.append(line)
        elif kind is not None and with_id:
            out.append(render_row(_row(reproduction_id, kind, values, with_id, with_ns2), referee))
        else:
            out.append(line)
    return "\n".join(out)
