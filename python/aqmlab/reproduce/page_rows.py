"""A claim row of the reproduction pages (docs/reproduction/seedNNN.md) and its cells: what
the page reader (`pages`) and the referee column (`referee_page`) share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from aqmlab.reproduce.referee import CLASS_MARK


def cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


#: The tables of a section, by claim kind: (header of the first column, title above the table).
TABLES = {
    "claim": ("claim", ""),
    "consistency": (
        "consistency check",
        "Consistency checks (true by construction: a definition, an identity, a transcription; not counted "
        "among the claims):",
    ),
    "ours": ("aqmlab's finding", "aqmlab's own findings (not statements of the paper; not counted among its claims):"),
}
HEADER_KIND = {header: kind for kind, (header, _) in TABLES.items()}
#: Separates the verdict from the demonstrated cause of a difference in the last cell.
CAUSE_MARK = "<br>cause: "


@dataclass(frozen=True)
class Row:
    """One claim row of a page, as printed."""

    reproduction: str
    id: str  # short id ("claim"), "" on a page written before ids were printed
    kind: str
    statement: str
    where: str
    paper: str
    criterion: str
    aqmlab: str
    verdict: str  # "agrees", "differs (marginal)", ... without the Markdown emphasis
    cause: str
    #: ns-2 2.35's cell (issue 27's referee column), "" on a table without it.
    ns2: str = ""
    #: The class of a difference from the paper with its evidence, "" when none is printed.
    referee_class: str = ""

    @property
    def full_id(self) -> str:
        return f"{self.reproduction}/{self.id}"

    @property
    def agrees(self) -> bool:
        return self.verdict.startswith("agrees")


def cells(row: str) -> list[str]:
    """The cells of a Markdown table row; `\\|` inside a cell is not a separator."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def unescape(cell: str) -> str:
    return cell.replace("\\|", "|")


def _row(reproduction: str, kind: str, values: list[str], with_id: bool, with_ns2: bool = False) -> Row:
    if with_id:
        short, values = values[0].strip("`"), values[1:]
    else:
        short = ""
    ns2 = ""
    if with_ns2:
        if len(values) != 7:
            raise ValueError(f"{reproduction}: a claim row has {len(values)} cells after the id, expected 7: {values}")
        ns2, values = unescape(values[4]), values[:4] + values[5:]
    if len(values) != 6:
        raise ValueError(f"{reproduction}: a claim row has {len(values)} cells after the id, expected 6: {values}")
    verdict, _, cause = values[5].partition(CAUSE_MARK)
    verdict, _, referee_class = verdict.partition(CLASS_MARK)
    return Row(
        reproduction,
        short,
        kind,
        *(unescape(v) for v in values[:5]),
        verdict=verdict.replace("**", "").strip(),
        cause=unescape(cause.strip()),
        ns2=ns2,
        referee_class=unescape(referee_class.strip()),
    )
