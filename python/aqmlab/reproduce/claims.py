"""The reproductions and their claims as data: one TOML file per paper (`claims/seedNNN.toml`),
read here into the `Claim`s of `aqmlab.reproduce.declare` (issue 26: "the suite as data").

Each `[[reproduction]]` names one reproduction (id, paper, title, description, full_cost: the
rough wall time of its full version); `declared(id, runs=... or compute=..., ...)` builds its
`Declaration` from that and the code's experiment. Each `[[claim]]` holds what a reviewer reads
against the paper, and nothing that runs:

    [[claim]]
    reproduction = "seed000-fig6"              # the declaration it belongs to
    id = "rtt10-full-utilisation"              # unique within the reproduction
    kind = "claim"                             # or "consistency" / "ours" (not counted)
    statement = "rtt10: the link utilisation is 100 %"
    paper = "100 %"                            # the paper's value or words, as printed
    where = "Section V-A1, Fig. 6"             # section, figure or equation
    why = "mean over the last 25 s, at the printed precision (≥ 99.5 %)"
    cause = ""                                 # a differing claim's demonstrated cause
    full_only = false
    checks = [{ quantity = "rtt10.utilisation_mean", criterion = "near", value = 100.0, tolerance = 0.5,
                label = "mean utilisation", unit = "%" }]
    shows = [{ quantity = "rtt10.utilisation_min", label = "smallest 1 s bin", unit = "%" }]

Criteria: `near` (value, tolerance: |x − value| ≤ tolerance, the paper's printed precision),
`between` (low, high), `at_least` / `at_most` / `above` / `below` (bound). The Python modules
keep what only code can do: the experiments (runs, fluid computations) and the measures.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from aqmlab._toml import TOMLDecodeError, loads
from aqmlab.reproduce.declare import (
    KINDS,
    Above,
    AtLeast,
    AtMost,
    Below,
    Between,
    Check,
    Claim,
    Criterion,
    Declaration,
    Near,
)

#: The claim files, one per paper.
CLAIMS_DIR = Path(__file__).with_name("claims")

#: criterion name → (class, its fields in the TOML table).
CRITERIA: dict[str, tuple[type[Criterion], tuple[str, ...]]] = {
    "near": (Near, ("value", "tolerance")),
    "between": (Between, ("low", "high")),
    "at_least": (AtLeast, ("bound",)),
    "at_most": (AtMost, ("bound",)),
    "above": (Above, ("bound",)),
    "below": (Below, ("bound",)),
}
REPRODUCTION_FIELDS = {"id", "paper", "title", "description", "full_cost"}
CLAIM_FIELDS = {
    "reproduction",
    "id",
    "kind",
    "statement",
    "paper",
    "where",
    "why",
    "cause",
    "full_only",
    "checks",
    "shows",
}


class ClaimFileError(ValueError):
    """A claim file that cannot be read, naming the file, the claim and the field."""


def _text(entry: dict[str, Any], field: str, where: str, *, required: bool = True) -> str:
    value = entry.get(field, "" if not required else None)
    if not isinstance(value, str) or (required and not value):
        raise ClaimFileError(f"{where}: {field} = {value!r}; allowed: a non-empty string")
    return value


def _number(entry: dict[str, Any], field: str, where: str) -> float:
    value = entry.get(field)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ClaimFileError(f"{where}: {field} = {value!r}; allowed: a number")
    return float(value)


def _criterion(entry: dict[str, Any], where: str) -> Criterion:
    name = entry.get("criterion")
    if name not in CRITERIA:
        raise ClaimFileError(f"{where}: criterion = {name!r}; allowed: {', '.join(CRITERIA)}")
    kind, fields = CRITERIA[name]
    extra = set(entry) - {"quantity", "criterion", "label", "unit", *fields}
    if extra:
        raise ClaimFileError(f"{where}: unknown fields {sorted(extra)} for criterion {name!r}; allowed: {fields}")
    return kind(*(_number(entry, field, where) for field in fields))


def _check(entry: Any, where: str) -> Check:
    if not isinstance(entry, dict):
        raise ClaimFileError(f"{where}: a check must be a table with quantity and criterion")
    return Check(
        _text(entry, "quantity", where),
        _criterion(entry, where),
        _text(entry, "label", where, required=False),
        _text(entry, "unit", where, required=False),
    )


def _show(entry: Any, where: str) -> tuple[str, str, str]:
    if not isinstance(entry, dict) or set(entry) - {"quantity", "label", "unit"}:
        raise ClaimFileError(f"{where}: a show must be a table of quantity, label and unit")
    return (_text(entry, "quantity", where), _text(entry, "label", where), _text(entry, "unit", where, required=False))


def _load(text: str, source: str) -> dict[str, Any]:
    try:
        data = loads(text)
    except TOMLDecodeError as error:
        raise ClaimFileError(f"{source}: not TOML: {error}") from error
    if not set(data) <= {"claim", "reproduction"} or not isinstance(data.get("claim"), list):
        raise ClaimFileError(f"{source}: allowed: [[reproduction]] and [[claim]] tables only")
    return data


def parse_reproductions(text: str, source: str) -> dict[str, dict[str, str]]:
    """reproduction id → its paper, title, description and full_cost, from one file's text."""
    found = {}
    for index, entry in enumerate(_load(text, source).get("reproduction", []), start=1):
        where = f"{source}, reproduction {index} ({entry.get('id')})"
        unknown = set(entry) - REPRODUCTION_FIELDS
        if unknown:
            raise ClaimFileError(f"{where}: unknown fields {sorted(unknown)}; allowed: {sorted(REPRODUCTION_FIELDS)}")
        found[_text(entry, "id", where)] = {
            field: _text(entry, field, where, required=field != "full_cost") for field in REPRODUCTION_FIELDS - {"id"}
        }
    return found


def parse_claims(text: str, source: str) -> dict[str, tuple[Claim, ...]]:
    """reproduction id → its claims, in file order, from the text of one claim file."""
    entries = _load(text, source)["claim"]
    found: dict[str, list[Claim]] = {}
    for index, entry in enumerate(entries, start=1):
        where = f"{source}, claim {index} ({entry.get('reproduction')}/{entry.get('id')})"
        unknown = set(entry) - CLAIM_FIELDS
        if unknown:
            raise ClaimFileError(f"{where}: unknown fields {sorted(unknown)}; allowed: {sorted(CLAIM_FIELDS)}")
        kind = entry.get("kind", "claim")
        if kind not in KINDS:
            raise ClaimFileError(f"{where}: kind = {kind!r}; allowed: {', '.join(KINDS)}")
        checks = entry.get("checks")
        if not isinstance(checks, list) or not checks:
            raise ClaimFileError(f"{where}: checks: allowed: a non-empty list of checks")
        full_only = entry.get("full_only", False)
        if not isinstance(full_only, bool):
            raise ClaimFileError(f"{where}: full_only = {full_only!r}; allowed: true or false")
        claim = Claim(
            _text(entry, "id", where),
            _text(entry, "statement", where),
            _text(entry, "paper", where),
            _text(entry, "where", where),
            tuple(_check(check, f"{where}, check {i}") for i, check in enumerate(checks, start=1)),
            why=_text(entry, "why", where, required=False),
            shows=tuple(_show(show, f"{where}, show {i}") for i, show in enumerate(entry.get("shows", []), start=1)),
            full_only=full_only,
            kind=kind,
            cause=_text(entry, "cause", where, required=False),
        )
        found.setdefault(_text(entry, "reproduction", where), []).append(claim)
    return {key: tuple(value) for key, value in found.items()}


def _path(paper: str) -> Path:
    path = CLAIMS_DIR / f"{paper}.toml"
    if not path.exists():
        raise ClaimFileError(f"{path}: no claim file for {paper}")
    return path


@cache
def paper_claims(paper: str) -> dict[str, tuple[Claim, ...]]:
    path = _path(paper)
    return parse_claims(path.read_text(), str(path))


@cache
def paper_reproductions(paper: str) -> dict[str, dict[str, str]]:
    path = _path(paper)
    return parse_reproductions(path.read_text(), str(path))


def declared(reproduction_id: str, **code: Any) -> Declaration:
    """The `Declaration` of `reproduction_id`: its paper, title, description, full cost and claims
    from its paper's file, what it runs and measures from `code` (runs or compute, derive,
    figures, notes, seeds)."""
    meta = paper_reproductions(reproduction_id.split("-", 1)[0]).get(reproduction_id)
    if meta is None:
        raise ClaimFileError(
            f"{CLAIMS_DIR}/{reproduction_id.split('-', 1)[0]}.toml: no [[reproduction]] {reproduction_id!r}"
        )
    return Declaration(id=reproduction_id, **meta, claims=claims_of(reproduction_id), **code)


def claims_of(reproduction_id: str) -> tuple[Claim, ...]:
    """The declared claims of one reproduction ("seedNNN-..."), from claims/seedNNN.toml."""
    claims = paper_claims(reproduction_id.split("-", 1)[0]).get(reproduction_id)
    if not claims:
        raise ClaimFileError(f"{CLAIMS_DIR}/{reproduction_id.split('-', 1)[0]}.toml: no claims of {reproduction_id!r}")
    return claims


def declare(reproduction_id: str, **code: Any) -> Declaration:
    """`declared(...)`, registered (`aqmlab.reproduce.registry.register`)."""
    from aqmlab.reproduce.registry import register

    return register(declared(reproduction_id, **code))
