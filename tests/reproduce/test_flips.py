"""aqmlab.reproduce.flips: the verdicts that changed between two sets of recorded pages."""

from pathlib import Path

import pytest
from aqmlab.reproduce.flips import claim_verdicts, flip_table, flips, main

PAGE = """# Seed 9

Preamble with a table that is not a reproduction's:

| claim | before | after |
|---|---|---|
| ignored | agrees | differs |

### seed009-fig1: Fig. 1

Full version, 5 seeds, 12 s of wall time.

| id | claim | where | paper | criterion | aqmlab | verdict |
|---|---|---|---|---|---|---|
| `low` | the queue \\| average stays low | Fig. 1 | low | x ≤ 5 | 4 ± 1 | agrees |
| `used` | the link is used | Fig. 1 | 100 % | x ≥ 99.5 % | 99.1 % | **differs** |
| `fragile` | the link is used | Fig. 1 | 3 | ± 0.5 | 3.4 ± 0.2 | agrees (marginal) |

Consistency checks (true by construction; not counted among the claims):

| id | consistency check | where | paper | criterion | aqmlab | verdict |
|---|---|---|---|---|---|---|
| `identity` | a sum | eq. 1 | x | x ≤ 1e-9 | 0 | agrees |
"""

OLD_PAGE = """### seed009-fig1: Fig. 1

| claim | where | paper | criterion | aqmlab | |
|---|---|---|---|---|---|
| the link is used | Fig. 1 | 100 % | x ≥ 99.5 % | 99.1 % | **differs** |
"""


def test_claim_verdicts_are_keyed_by_claim_id_not_wording():
    verdicts = claim_verdicts(PAGE)
    assert verdicts == {
        ("seed009-fig1", "low"): "agrees",
        ("seed009-fig1", "used"): "differs",
        ("seed009-fig1", "fragile"): "agrees (marginal)",
        ("seed009-fig1", "identity"): "agrees [consistency check, not counted]",
    }
    # A page recorded before ids were printed, of an unknown reproduction: keyed by statement.
    assert claim_verdicts(OLD_PAGE) == {("seed009-fig1", "the link is used"): "differs"}


def test_a_claim_becoming_a_consistency_check_is_a_flip():
    before = {("a", "x"): "agrees"}
    after = {("a", "x"): "agrees [consistency check, not counted]"}
    assert flips(before, after) == [("a", "x", "agrees", "agrees [consistency check, not counted]")]


def test_flips_are_changes_of_agreement_and_new_or_gone_claims():
    before = {("a", "x"): "agrees", ("a", "y"): "differs", ("a", "z"): "agrees", ("a", "gone"): "agrees"}
    after = {("a", "x"): "differs", ("a", "y"): "agrees", ("a", "z"): "agrees (marginal)", ("a", "new"): "differs"}
    assert flips(before, after) == [
        ("a", "gone", "agrees", "(gone)"),
        ("a", "new", "(not in the pages)", "differs"),
        ("a", "x", "agrees", "differs"),
        ("a", "y", "differs", "agrees"),
    ]
    assert flip_table(flips(before, after)).splitlines()[2] == "| `a` | gone | agrees | (gone) |"


def test_command_line_compares_two_directories(tmp_path: Path, capsys):
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "seed009.md").write_text(PAGE)
    (tmp_path / "new" / "seed009.md").write_text(PAGE.replace("| 99.1 % | **differs** |", "| 99.6 % | agrees |"))
    main([str(tmp_path / "old"), str(tmp_path / "new")])
    assert "| `seed009-fig1` | used | differs | agrees |" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing"), str(tmp_path / "new")])
