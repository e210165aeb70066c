"""Recording reproduction results into a Markdown document replaces sections by id."""

from aqmlab.reproduce.registry import markdown_section, record_sections


def _run(tmp_path, reproduction_id, verdict):
    meta = {
        "id": reproduction_id,
        "title": f"Fig. {reproduction_id[-1]}",
        "quick": False,
        "wall_time_s": 12.3,
        "aqmlab": "0.1.0",
        "notes": "n",
        "comparison": [{"claim": "c | d", "paper": "p", "aqmlab": "1.5 packets", "agrees": verdict}],
    }
    directory = tmp_path / reproduction_id
    directory.mkdir()
    (directory / "reproduction.md").write_text(markdown_section(meta))
    return directory


def test_sections_are_replaced_by_id_and_new_ones_appended(tmp_path):
    document = tmp_path / "doc.md"
    document.write_text("# Doc\n\n## Results\n\n### s-1: old\n\nold text\n\n### s-2: keep\n\nkept\n\n## Tail\n\nend\n")
    assert record_sections(document, [_run(tmp_path, "s-1", True), _run(tmp_path, "s-3", False)]) == ["s-1", "s-3"]
    text = document.read_text()
    assert "old text" not in text and "### s-1: Fig. 1" in text
    assert text.index("### s-1") < text.index("### s-2: keep") < text.index("## Tail") < text.index("### s-3")
    assert "kept" in text and "end" in text
    assert "c \\| d" in text and "**differs**" in text and "| agrees |" in text
    assert "Full version, 12 s of wall time" in text
