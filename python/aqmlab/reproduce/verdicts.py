"""The checked-in verdicts of the quick reproductions (`tests/reproduce/verdicts.json`).

Every claim's quick-mode verdict ("agrees" or "differs"; "(marginal)" is shown in the record
but not guarded) is kept under its id "reproduction/claim". The test suite reruns every
quick reproduction and fails when a verdict changes; a deliberate change is recorded with

    aqmlab reproduce ID --quick --update-verdicts      (or `all`)

and the reason goes in the commit message.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from aqmlab.results_io import read_json, write_json

#: Default location, relative to the repository root.
VERDICTS_FILE = Path("tests/reproduce/verdicts.json")

UPDATE_HINT = (
    "if the change is deliberate, record it with `aqmlab reproduce {id} --quick --update-verdicts` "
    "(from the repository root) and give the reason in the commit message"
)


def verdicts_of(record: dict[str, Any]) -> dict[str, str]:
    """claim id → "agrees" / "differs" for one reproduction record."""
    return {claim["id"]: "agrees" if claim["agrees"] else "differs" for claim in record["comparison"]}


def load(path: str | Path = VERDICTS_FILE) -> dict[str, str]:
    path = Path(path)
    return read_json(path)["verdicts"] if path.exists() else {}


def differences(expected: dict[str, str], record: dict[str, Any]) -> list[str]:
    """What changed in one reproduction's verdicts against the checked-in ones."""
    prefix = f"{record['id']}/"
    want = {key: value for key, value in expected.items() if key.startswith(prefix)}
    got = verdicts_of(record)
    problems = []
    for key in sorted(set(want) | set(got)):
        if key not in got:
            problems.append(f"{key}: expected {want[key]!r}, the claim is gone")
        elif key not in want:
            problems.append(f"{key}: new claim ({got[key]}) not in the verdict file")
        elif want[key] != got[key]:
            claim = next(c for c in record["comparison"] if c["id"] == key)
            problems.append(f"{key}: expected {want[key]!r}, got {got[key]!r} ({claim['aqmlab']})")
    return problems


def update(
    path: str | Path, records: list[dict[str, Any]], *, registered: Collection[str] | None = None
) -> dict[str, str]:
    """Replace the entries of these reproductions (all their claim ids) in the file. With
    `registered` (every reproduction id, as `reproduce all` passes), entries of reproductions that
    no longer exist are removed too."""
    path = Path(path)
    current = load(path)
    if registered is not None:
        current = {key: value for key, value in current.items() if key.split("/", 1)[0] in set(registered)}
    for record in records:
        prefix = f"{record['id']}/"
        current = {key: value for key, value in current.items() if not key.startswith(prefix)}
        current.update(verdicts_of(record))
    write_json(
        path,
        {
            "about": "Quick-mode verdict of every reproduction claim; tests/reproduce/test_reproductions.py compares "
            "each quick run with it. Update deliberately: aqmlab reproduce ID --quick --update-verdicts, and give "
            "the reason in the commit message.",
            "verdicts": dict(sorted(current.items())),
        },
    )
    return current
