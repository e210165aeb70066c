"""The referee column of the pages (issue 27): beside the paper's value and aqmlab's, ns-2 2.35's
— the simulator all five papers used — and, on every claim where aqmlab differs from the paper,
the class of the difference and its evidence.

Where the values come from:
- `docs/reproduction/referee.json` (written by benchmarks/ns2/referee/claims_run.py): per claim
  id, ns-2's values judged by the claim's own checks on ns-2's runs of the scenario as the paper
  printed it ("run"), or why there is none ("no counterpart": the field ns-2 has no counterpart
  for; "not run": maps, but was not run, with why);
- `referee.toml` beside this module: per differing claim, the evidence for its class (one-factor
  experiments, what was ruled out), written by hand and checked against the computed class.

The class is computed from the verdicts, never typed: (a) ns-2 as printed also misses the paper;
(b) ns-2 agrees with the paper and aqmlab does not; (c) no ns-2 counterpart; "pending" when the
scenario maps to ns-2 but was not run (the cell says why).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from aqmlab._toml import loads

#: The file the runner writes, beside the pages.
REFEREE_NAME = "referee.json"
#: Hand-written evidence per differing claim.
EVIDENCE_FILE = Path(__file__).with_name("referee.toml")
#: Header of the ns-2 column.
NS2_HEADER = "ns-2 2.35"
#: Separates the verdict from the class of a difference in the last cell.
CLASS_MARK = "<br>class: "

CLASSES = {
    "a": "(a) ns-2 as printed also misses the paper",
    "b": "(b) ns-2 agrees with the paper, aqmlab does not",
    "c": "(c) no ns-2 counterpart",
    "pending": "pending: maps to ns-2, not run yet",
}
#: Prefixes of the ns-2 cell (the counts read them back from the pages).
NO_COUNTERPART = "no ns-2 counterpart: "
NOT_RUN = "not run: "


@dataclass(frozen=True)
class Referee:
    """ns-2 entries by claim id and the evidence by claim id."""

    entries: dict[str, dict[str, Any]]
    evidence: dict[str, dict[str, str]]
    #: Per paper ("seed000"): how its RED runs in ns-2 as printed, and why (byte or packet mode).
    red_mode: dict[str, str] = field(default_factory=dict)

    def red_line(self, paper: str) -> str:
        """The page's sentence on the RED mode of its paper's simulator ("" when unknown)."""
        why = self.red_mode.get(paper)
        return f"RED in ns-2 as this paper ran it: {why}." if why else ""

    def ns2_cell(self, claim_id: str) -> str:
        entry = self.entries.get(claim_id)
        if entry is None:
            return f"{NOT_RUN}not in {REFEREE_NAME} (run benchmarks/ns2/referee/claims_run.py --write)"
        if entry["status"] == "no counterpart":
            return NO_COUNTERPART + entry["reason"]
        if entry["status"] == "not run":
            return NOT_RUN + entry["reason"]
        text = f"{entry['verdict']}: {entry['ns2']}"
        if entry.get("note"):
            text += f" ({entry['note']})"
        if entry.get("unmeasured"):
            text += f" (not in ns-2's records: {', '.join(entry['unmeasured'])})"
        for label, variant in sorted(entry.get("variants", {}).items()):
            # A one-factor variant of the as-printed run (e.g. the other RED mode).
            text += f"; one factor, {label}: {variant['verdict']}: {variant['ns2']}"
        return text

    def class_of(self, claim_id: str) -> str:
        """The class key of a claim that differs from the paper in aqmlab (module docstring)."""
        entry = self.entries.get(claim_id, {"status": "not run"})
        if entry["status"] == "no counterpart":
            return "c"
        if entry["status"] != "run":
            return "pending"
        return "b" if entry["verdict"].startswith("agrees") else "a"

    def class_cell(self, claim_id: str, cause: str = "") -> str:
        """The class with its evidence: referee.toml's, else the ns-2 cell (a), the demonstrated
        cause beside it (c), or what is missing (said so, never filled in)."""
        key = self.class_of(claim_id)
        text = CLASSES[key]
        written = self.evidence.get(claim_id)
        if written is not None:
            if written["class"] != key:
                raise ValueError(
                    f"{EVIDENCE_FILE.name}: {claim_id}: class = {written['class']!r}, but the verdicts give "
                    f"{key!r} ({CLASSES[key]}): update its evidence"
                )
            return f"{text}; {written['evidence']}"
        if key == "a":
            return f"{text} (the ns-2 cell)"
        if key == "c":
            if cause:
                return f"{text}; evidence: the demonstrated cause (below)"
            return f"{text}; open: no one-factor experiment recorded yet"
        if key == "b":
            return f"{text}; difference not yet found"
        return text


def load_evidence(path: Path = EVIDENCE_FILE) -> dict[str, dict[str, str]]:
    """claim id → {"class", "evidence"} from referee.toml (`[[claim]]` id, class, evidence)."""
    if not path.exists():
        return {}
    data = loads(path.read_text())
    out: dict[str, dict[str, str]] = {}
    for index, entry in enumerate(data.get("claim", [])):
        where = f"{path.name}: claim[{index}]"
        unknown = set(entry) - {"id", "class", "evidence"}
        if unknown:
            raise ValueError(f"{where}: unknown fields {sorted(unknown)}; allowed: id, class, evidence")
        for name in ("id", "class", "evidence"):
            if not isinstance(entry.get(name), str) or not entry[name]:
                raise ValueError(f"{where}.{name}: required, a non-empty string")
        if entry["class"] not in CLASSES:
            raise ValueError(f"{where}.class = {entry['class']!r}; allowed: {', '.join(CLASSES)}")
        if entry["evidence"].startswith("refereed:") and entry["class"] != "a":
            raise ValueError(
                f"{where}.evidence: 'refereed:' is the ns-2 referee's finding of class (a) only "
                f"(ns-2 as printed misses the paper too); class {entry['class']!r} evidence starts with "
                "'explained:', 'exposed:', 'fixed' or 'open:'"
            )
        if entry["id"] in out:
            raise ValueError(f"{where}.id = {entry['id']!r}: given twice")
        out[entry["id"]] = {"class": entry["class"], "evidence": entry["evidence"]}
    return out


@cache
def _load(pages: str, mtime: float, evidence_mtime: float) -> Referee:
    file = Path(pages) / REFEREE_NAME
    body = json.loads(file.read_text()) if file.exists() else {}
    return Referee(body.get("claims", {}), load_evidence(), body.get("red_mode", {}))


def referee_for(pages: Path) -> Referee:
    """The referee data of the pages in `pages` (re-read when a file changes)."""
    file = Path(pages) / REFEREE_NAME
    mtime = file.stat().st_mtime if file.exists() else 0.0
    evidence = EVIDENCE_FILE.stat().st_mtime if EVIDENCE_FILE.exists() else 0.0
    return _load(str(Path(pages).resolve()), mtime, evidence)


def ns2_verdict(cell: str) -> str | None:
    """ "agrees" / "differs" from an ns-2 cell of a page; None without an ns-2 value."""
    if cell.startswith(NO_COUNTERPART) or cell.startswith(NOT_RUN) or not cell:
        return None
    return "agrees" if cell.startswith("agrees") else "differs"


def format_problems(rows: list[Any]) -> list[str]:
    """What a page's claim rows lack of issue 27's format: the three values (paper, ns-2 2.35,
    aqmlab) on every row, and on every claim of the paper that aqmlab does not reproduce, a
    class (a), (b), (c) or pending. `rows`: `aqmlab.reproduce.pages.Row`s."""
    problems = []
    for row in rows:
        for name, value in (("paper", row.paper), ("ns-2 2.35", row.ns2), ("aqmlab", row.aqmlab)):
            if not value.strip():
                problems.append(f"{row.full_id}: no {name} value")
        if row.kind == "claim" and not row.agrees:
            if not any(row.referee_class.startswith(text) for text in CLASSES.values()):
                problems.append(f"{row.full_id}: differs without a class (a), (b), (c) or pending")
            elif row.referee_class.startswith(CLASSES["b"]) and "difference not yet found" in row.referee_class:
                problems.append(f"{row.full_id}: class (b) without the difference found")
    return problems
