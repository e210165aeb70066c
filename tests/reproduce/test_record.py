"""Recording reproduction results: sections replaced by id in a per-paper page, and the counts
of the index recomputed from the pages."""

from aqmlab.reproduce.record import INDEX_BEGIN, markdown_section, page_sections, record_sections, update_index


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
                "claim": "c | d",
                "where": "Section V",
                "paper": "p",
                "criterion": "x ≥ 1",
                "why": "ours",
                "aqmlab": "1.5 packets ± 0.2 (95 % CI, 5 seeds: 1.3–1.7)",
                "agrees": verdict.startswith("agrees"),
                "verdict": verdict,
            }
            for verdict in verdicts
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
    assert "| Section V | p | x ≥ 1 (ours) | 1.5 packets ± 0.2" in text


def test_counts_come_from_the_pages_and_marginal_verdicts_are_counted(tmp_path):
    pages = tmp_path / "reproduction"
    pages.mkdir()
    record_sections(
        pages / "seed000.md",
        [
            _run(tmp_path, "seed000-a", ["agrees", "agrees (marginal)", "differs"]),
            _run(tmp_path, "seed000-b", ["differs (marginal)"]),
        ],
    )
    sections = page_sections(pages / "seed000.md")
    assert [(s["id"], s["agrees"], s["marginal"], s["total"], s["wall_s"]) for s in sections] == [
        ("seed000-a", 2, 1, 3, 12),
        ("seed000-b", 0, 1, 1, 12),
    ]
    index = tmp_path / "reproduction.md"
    index.write_text(
        "| paper | reproductions | claims agreeing (full versions) | results |\n|---|---|---|---|\n"
        "| seed 000: x | 19 | 56 of 71 | [seed000.md](reproduction/seed000.md) |\n\nTail.\n"
    )
    update_index(index, pages)
    text = index.read_text()
    assert "| seed 000: x | 2 | 2 of 4 (2 marginal) | [seed000.md](reproduction/seed000.md) |" in text
    assert INDEX_BEGIN in text and "| `seed000-a` | Fig. a | 2 of 3 (1 marginal) | 12 s |" in text
    update_index(index, pages)  # idempotent: the generated table is replaced, not repeated
    assert index.read_text().count(INDEX_BEGIN) == 1
