"""Every reproduction runs in quick mode, writes its figures, data and comparison, and gives
every claim the verdict checked in to `tests/reproduce/verdicts.json` (issue 16: verdicts
guarded by CI; a deliberate change is recorded with `aqmlab reproduce ID --quick
--update-verdicts` and the reason goes in the commit message)."""

from pathlib import Path

import pytest
from aqmlab.report import write_report
from aqmlab.reproduce import REGISTRY, reproduce
from aqmlab.reproduce.verdicts import UPDATE_HINT, differences, load
from aqmlab.results_io import read_reproduction

VERDICTS = Path(__file__).with_name("verdicts.json")


@pytest.mark.parametrize("reproduction_id", sorted(REGISTRY))
def test_quick_reproduction_keeps_its_checked_in_verdicts(reproduction_id, tmp_path):
    directory = reproduce(reproduction_id, tmp_path / reproduction_id, quick=True)
    meta = read_reproduction(directory)
    assert meta["id"] == reproduction_id and meta["quick"] is True
    assert meta["comparison"], "a reproduction must check at least one claim"
    for claim in meta["comparison"]:
        assert claim["paper"] and claim["aqmlab"] and isinstance(claim["agrees"], bool)
        assert any(ch.isdigit() for ch in claim["aqmlab"]), "aqmlab's side must carry numbers"
    for figure in meta["figures"]:
        assert (directory / figure).stat().st_size > 10_000
    html = write_report(directory).read_text()
    assert html.count("data:image/png;base64,") == len(meta["figures"])
    problems = differences(load(VERDICTS), meta)
    assert not problems, (
        f"{reproduction_id}: quick-mode verdicts changed:\n  "
        + "\n  ".join(problems)
        + "\n"
        + UPDATE_HINT.format(id=reproduction_id)
    )


def test_every_verdict_belongs_to_a_registered_reproduction():
    stale = sorted(key for key in load(VERDICTS) if key.split("/", 1)[0] not in REGISTRY)
    assert not stale, f"verdicts of unregistered reproductions (remove them): {stale}"


def test_unknown_reproduction_is_named(tmp_path):
    with pytest.raises(KeyError, match="unknown reproduction 'seed999'"):
        reproduce("seed999", tmp_path / "x")
    assert not (tmp_path / "x").exists()
