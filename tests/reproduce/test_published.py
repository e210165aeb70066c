"""The published verdicts (issue 26): the pages' tables (docs/reproduction/seedNNN.md), the counts
of docs/reproduction.md, each page's generated summary and docs/reproduction/verdicts.json agree;
every declared claim id is on a page with the declaration's wording, location and criterion; the
quick guard (tests/reproduce/verdicts.json) covers every claim the quick versions check."""

from pathlib import Path

from aqmlab.reproduce import REGISTRY
from aqmlab.reproduce.pages import disagreements, page_rows, published
from aqmlab.results_io import read_json

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "reproduction"
INDEX = ROOT / "docs" / "reproduction.md"
QUICK = ROOT / "tests" / "reproduce" / "verdicts.json"
HINT = "regenerate with `python -m aqmlab.reproduce.pages docs/reproduction` (or re-judge: aqmlab.reproduce.rejudge)"


def test_pages_index_summaries_and_published_file_agree():
    problems = disagreements(INDEX, PAGES, QUICK)
    assert not problems, "\n".join(problems) + "\n" + HINT


def test_every_declared_claim_is_published_with_its_kind():
    declared = {f"{d.id}/{c.id}": c.kind for d in REGISTRY.values() for c in d.claims}
    file = read_json(PAGES / "verdicts.json")["verdicts"]
    assert set(file) == set(declared), (sorted(set(declared) - set(file)), sorted(set(file) - set(declared)))
    assert {key: entry["kind"] for key, entry in file.items()} == declared
    assert file == published(PAGES)


def test_pages_print_the_declarations_as_they_are():
    """A claim's wording, location, printed value and criterion changed in the code without its
    page being re-judged or rerun fails here."""
    from aqmlab.reproduce.rejudge import rejudged_entries  # the current declarations' rendering

    rows = {row.full_id: row for row in page_rows(PAGES)}
    problems = []
    for declaration in REGISTRY.values():
        recorded = [row for key, row in rows.items() if key.split("/", 1)[0] == declaration.id]
        for entry in rejudged_entries(declaration, recorded):
            row = rows[entry["id"]]
            criterion = f"{entry['criterion']} ({entry['why']})" if entry["why"] else entry["criterion"]
            for field, want, got in (
                ("statement", entry["claim"], row.statement),
                ("where", entry["where"], row.where),
                ("paper", entry["paper"], row.paper),
                ("criterion", criterion, row.criterion),
                ("verdict", entry["verdict"], row.verdict),
            ):
                if want != got:
                    problems.append(f"{entry['id']}: {field} on the page {got!r}, declared {want!r}")
    assert not problems, "\n".join(problems[:20]) + "\n" + HINT


def test_the_quick_guard_covers_every_claim_the_quick_versions_check():
    quick = read_json(QUICK)["verdicts"]
    expected = {key for d in REGISTRY.values() for key in d.claim_ids(quick=True)}
    assert set(quick) == expected, (sorted(expected - set(quick)), sorted(set(quick) - expected))
