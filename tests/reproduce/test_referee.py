"""Issue 27's referee column on the pages: every claim row shows the paper's value, ns-2 2.35's
and aqmlab's; every claim aqmlab does not reproduce carries its class, computed from the
verdicts (never typed), with the evidence of referee.toml checked against it."""

from pathlib import Path

import pytest
from aqmlab.reproduce.pages import page_rows, sections
from aqmlab.reproduce.referee import CLASSES, Referee, format_problems, load_evidence, ns2_verdict
from aqmlab.reproduce.referee_page import render_row

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "reproduction"


def test_every_published_row_has_three_values_and_every_difference_a_class():
    rows = page_rows(PAGES)
    assert rows
    problems = format_problems(rows)
    assert not problems, "\n".join(problems[:20])


def test_every_evidence_entry_is_for_a_published_claim_that_differs():
    """Evidence for a claim the pages no longer show as differing (a rerun turned it, or the id
    was renamed) is never rendered: it must be removed, not left to go stale."""
    differing = {row.full_id for row in page_rows(PAGES) if row.kind == "claim" and not row.agrees}
    stale = sorted(set(load_evidence()) - differing)
    assert not stale, f"referee.toml has evidence for claims that do not differ on the pages: {stale}"


ROW = (
    "| id | claim | where | paper | criterion | aqmlab | verdict |\n|---|---|---|---|---|---|---|\n"
    "| `c1` | s | Fig. 1 | 100 % | x ≥ 99.5% | mean 90% | **differs** |\n"
    "| `c2` | s | Fig. 1 | 100 % | x ≥ 99.5% | mean 99.9% | agrees |\n"
)


def rows_of(referee: Referee):
    text = "### r-1: title\n\nnote\n\n" + ROW
    rendered = "\n".join(render_row(row, referee) for row in sections(text)[0]["rows"])
    header = "| id | claim | where | paper | criterion | ns-2 2.35 | aqmlab | verdict |\n" + "|---" * 8 + "|\n"
    return sections("### r-1: title\n\nnote\n\n" + header + rendered + "\n")[0]["rows"]


def test_a_row_without_its_ns2_value_or_class_fails_the_format_check():
    rows = sections("### r-1: title\n\nnote\n\n" + ROW)[0]["rows"]  # a page before the referee column
    problems = format_problems(rows)
    assert "r-1/c1: no ns-2 2.35 value" in problems and "r-1/c2: no ns-2 2.35 value" in problems
    assert "r-1/c1: differs without a class (a), (b), (c) or pending" in problems


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"status": "run", "verdict": "differs", "ns2": "mean 91%", "seeds": 2}, "a"),
        ({"status": "run", "verdict": "agrees (marginal)", "ns2": "mean 99.6%", "seeds": 2}, "b"),
        ({"status": "no counterpart", "reason": "topology.bottleneck.queue.kind = 'ered'"}, "c"),
        ({"status": "not run", "reason": "budget"}, "pending"),
    ],
)
def test_the_class_comes_from_the_verdicts(entry, expected):
    referee = Referee({"r-1/c1": entry, "r-1/c2": entry}, {})
    rows = rows_of(referee)
    assert rows[0].referee_class.startswith(CLASSES[expected])
    assert rows[1].referee_class == ""  # aqmlab agrees with the paper: no class
    assert rows[0].ns2 and rows[1].ns2
    if expected == "b":  # a class-(b) claim without the difference found fails the check
        assert format_problems(rows) == ["r-1/c1: class (b) without the difference found"]
    else:
        assert format_problems(rows) == []
    assert ns2_verdict(rows[0].ns2) == (None if entry["status"] != "run" else entry["verdict"].split()[0])


def test_evidence_of_another_class_than_the_verdicts_give_is_refused():
    entry = {"status": "run", "verdict": "differs", "ns2": "mean 91%", "seeds": 2}
    referee = Referee({"r-1/c1": entry}, {"r-1/c1": {"class": "b", "evidence": "x"}})
    with pytest.raises(ValueError, match="r-1/c1: class = 'b', but the verdicts give 'a'"):
        rows_of(referee)


def test_refereed_evidence_is_for_class_a_only(tmp_path):
    bad = tmp_path / "referee.toml"
    bad.write_text('[[claim]]\nid = "r-1/c1"\nclass = "c"\nevidence = "refereed: ns-2 misses too"\n')
    with pytest.raises(
        ValueError, match=r"claim\[0\]\.evidence: 'refereed:' is the ns-2 referee's finding of class \(a\)"
    ):
        load_evidence(bad)
    bad.write_text('[[claim]]\nid = "r-1/c1"\nclass = "a"\nevidence = "refereed: paper 1 | ns-2 2 | aqmlab 2"\n')
    assert load_evidence(bad)["r-1/c1"]["class"] == "a"


def test_the_evidence_file_reads_and_names_bad_fields(tmp_path):
    assert isinstance(load_evidence(), dict)
    bad = tmp_path / "referee.toml"
    bad.write_text('[[claim]]\nid = "r-1/c1"\nclass = "d"\nevidence = "x"\n')
    with pytest.raises(ValueError, match=r"claim\[0\]\.class = 'd'"):
        load_evidence(bad)


@pytest.mark.parametrize(
    ("cause", "referee_class", "shown"),
    [
        ("", "(c) no ns-2 counterpart; explained: E-RED's delay D", True),
        ("", "(b) ns-2 agrees with the paper, aqmlab does not; exposed: the RED mode", True),
        ("", "(b) ns-2 agrees with the paper, aqmlab does not; fixed as an option", True),
        ("", "(c) no ns-2 counterpart; explained in part: the delay", False),
        ("", "(c) no ns-2 counterpart; open: ruled out the weight", False),
        ("", "(a) ns-2 as printed also misses the paper (the ns-2 cell)", False),
        ("", "(a) ns-2 as printed also misses the paper; refereed: paper 0.9 | ns-2 0.7 | aqmlab 0.72", True),
        ("", "(c) no ns-2 counterpart; refereed: no referee here", False),
        ("", "(a) ns-2 as printed also misses the paper; open: refereed: later", False),
        ("the buffer is 2x the paper's", "(c) no ns-2 counterpart; open: nothing", True),
    ],
)
def test_a_cause_counts_as_demonstrated_only_when_shown(cause, referee_class, shown):
    from aqmlab.reproduce.page_rows import Row
    from aqmlab.reproduce.pages import cause_shown

    row = Row(
        "seed000-x", "y", "claim", "s", "w", "p", "c", "a", verdict="differs", cause=cause, referee_class=referee_class
    )
    assert cause_shown(row) is shown
