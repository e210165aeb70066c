"""`aqmlab.reproduce.rejudge` leaves the pages whole: after re-judging a section it regenerates
what the pages generate (ns-2 column, summaries, index counts, published verdicts)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from aqmlab.reproduce.pages import disagreements
from aqmlab.reproduce.rejudge import NOTE, rejudge

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "tests" / "reproduce" / "verdicts.json"


def copied_pages(tmp_path: Path) -> tuple[Path, Path]:
    pages = tmp_path / "docs" / "reproduction"
    pages.mkdir(parents=True)
    for file in (ROOT / "docs" / "reproduction").iterdir():
        if file.suffix in (".md", ".json"):
            shutil.copy(file, pages / file.name)
    index = tmp_path / "docs" / "reproduction.md"
    shutil.copy(ROOT / "docs" / "reproduction.md", index)
    return pages, index


def test_rejudged_section_keeps_the_pages_generated_parts_up_to_date(tmp_path):
    pages, index = copied_pages(tmp_path)
    assert disagreements(index, pages, QUICK) == []
    assert rejudge(pages, ["seed004-fig6"], quick_file=QUICK) == ["seed004-fig6"]
    text = (pages / "seed004.md").read_text()
    section = text[text.index("seed004-fig6") :]
    assert NOTE in section
    # The rewritten section has its ns-2 column back and the summaries and counts follow it.
    assert disagreements(index, pages, QUICK) == []


def test_a_missing_index_is_named(tmp_path):
    pages, index = copied_pages(tmp_path)
    index.unlink()
    with pytest.raises(FileNotFoundError, match=r"index: .*reproduction\.md does not exist"):
        rejudge(pages, ["seed004-fig6"], quick_file=QUICK)
