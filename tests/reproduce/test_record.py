"""Recording reproduction results: sections replaced by id in a per-paper page, and the counts
of the index recomputed from the pages."""

from aqmlab.reproduce.pages import PAPERS_BEGIN, disagreements
from aqmlab.reproduce.record import INDEX_BEGIN, markdown_section, page_sections, record_sections, update_index
from aqmlab.results_io import read_json


def _run(tmp_path, reproduction_id, verdicts, seeds=5):
    meta = {
        "id": reproduction_id,
        "title": f"Fig. {reproduction_id[-1]}",
        "quick": False,
        "seeds": seeds,
        "wall_time_s": 12.3,
        "aqmlab": "0.1.0",
        "notes": "n",
        "comparison": [
            {
                "id": f"{reproduction_id}/c{i}",
                "kind": kind,
                "claim": "c | d",
                "where": "Section V",
                "paper": "p",
                "criterion": "x ≥ 1",
                "why": "ours",
                "aqmlab": "1.5 packets ± 0.2 (95 % CI of the mean; 5 seeds, range 1.3 to 1.7)",
                "agrees": v.startswith("agrees") or v == "identity",
                "verdict": "agrees" if v == "identity" else v.replace(" caused", ""),
                "cause": "shown" if v.endswith("caused") else "",
            }
            for i, (v, kind) in enumerate((v, "consistency" if v == "identity" else "claim") for v in verdicts)
        ],
    }
    directory = tmp_path / reproduction_id
    directory.mkdir()
    (directory / "reproduction.md").write_text(markdown_section(meta))
    return directory


def test_sections_are_replaced_by_id_and_new_ones_appended(tmp_path):
    document = tmp_path / "doc.md"
    document.write_text("# Doc\n\n## Results\n\n### s-1: old\n\nold text\n\n### s-2: keep\n\nkept\n\n## Tail\n\nend\n")
    written = record_sections(document, [_run(tmp_path, "s-1", ["agrees"]), _run(tmp_path, "s-3", ["differs"])])
    assert written == ["s-1", "s-3"]
    text = document.read_text()
    assert "old text" not in text and "### s-1: Fig. 1" in text
    assert text.index("### s-1") < text.index("### s-2: keep") < text.index("## Tail") < text.index("### s-3")
    assert "kept" in text and "end" in text
    assert "c \\| d" in text and "**differs**" in text and "| agrees |" in text
    assert "Full version, 5 seeds, 12 s of wall time" in text
    assert "| `c0` | c \\| d | Section V | p | x ≥ 1 (ours) | 1.5 packets ± 0.2" in text


def test_counts_come_from_the_pages_and_consistency_checks_are_not_counted(tmp_path):
    pages = tmp_path / "reproduction"
    pages.mkdir()
    record_sections(
        pages / "seed000.md",
        [
            _run(tmp_path, "seed000-a", ["agrees", "agrees (marginal)", "differs", "differs caused"]),
            _run(tmp_path, "seed000-b", ["differs (marginal)", "identity"]),
        ],
    )
    sections = page_sections(pages / "seed000.md")
    assert [(s["id"], s["agrees"], s["marginal"], s["total"], s["wall_s"]) for s in sections] == [
        ("seed000-a", 2, 1, 4, 12),
        ("seed000-b", 0, 1, 1, 12),
    ]
    index = tmp_path / "reproduction.md"
    index.write_text("# Index\n\n## Every reproduction\n\nTail.\n")
    update_index(index, pages)
    text = index.read_text()
    # claims 5, agree 2, differ 3, of which 2 without a demonstrated cause; no ns-2 value (no
    # referee.json here), so none where aqmlab is ns-2 nor agreeing with both; 1 consistency check
    assert (
        "| seed 000: Compound TCP with RED, threshold policy, Hopf bifurcations "
        "| 2 | 5 | 2 | 3 | 2 | 0 | 0 | 0 | 1 | 0 |" in text
    )
    assert INDEX_BEGIN in text and "| `seed000-b` | Fig. b | 0 of 1 (1 marginal) (+1 not counted) | 12 s |" in text
    update_index(index, pages)  # idempotent: the generated tables are replaced, not repeated
    assert index.read_text().count(INDEX_BEGIN) == 1 and index.read_text().count(PAPERS_BEGIN) == 1
    published = read_json(pages / "verdicts.json")["verdicts"]
    assert published["seed000-b/c1"] == {"kind": "consistency", "verdict": "agrees"}
    assert published["seed000-a/c3"] == {"kind": "claim", "verdict": "differs"}
    page = (pages / "seed000.md").read_text()
    assert (
        "**5 claims of the paper, 2 agree, 3 differ**" in page
        and "| `seed000-a/c2` | pending: maps to ns-2, not run yet | not demonstrated |" in page
    )
    assert "| `seed000-a/c3` | pending: maps to ns-2, not run yet | shown |" in page
    assert disagreements(index, pages, quick_file=tmp_path / "none.json") == []
    (pages / "seed000.md").write_text(
        page.replace("| `c0` | c \\| d", "| `c0` | c \\| e").replace("| agrees |", "| **differs** |", 1)
    )
    assert len(disagreements(index, pages, quick_file=tmp_path / "none.json")) == 3  # page summary, index, file
