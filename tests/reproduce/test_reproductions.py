"""Every reproduction runs in quick mode and writes its figures, data and comparison."""

import json

import pytest
from aqmlab.report import write_report
from aqmlab.reproduce import REGISTRY, reproduce


@pytest.mark.parametrize("reproduction_id", sorted(REGISTRY))
def test_quick_reproduction_writes_figures_data_and_comparison(reproduction_id, tmp_path):
    directory = reproduce(reproduction_id, tmp_path / reproduction_id, quick=True)
    meta = json.loads((directory / "reproduction.json").read_text())
    assert meta["id"] == reproduction_id and meta["quick"] is True
    assert meta["comparison"], "a reproduction must check at least one claim"
    for claim in meta["comparison"]:
        assert claim["paper"] and claim["aqmlab"] and isinstance(claim["agrees"], bool)
        assert any(ch.isdigit() for ch in claim["aqmlab"]), "aqmlab's side must carry numbers"
    for figure in meta["figures"]:
        assert (directory / figure).stat().st_size > 10_000
    html = write_report(directory).read_text()
    assert html.count("data:image/png;base64,") == len(meta["figures"])


def test_fig6_quick_agrees_with_the_paper(tmp_path):
    meta = json.loads((reproduce("seed000-fig6", tmp_path / "fig6", quick=True) / "reproduction.json").read_text())
    assert all(claim["agrees"] for claim in meta["comparison"]), meta["comparison"]


def test_unknown_reproduction_is_named(tmp_path):
    with pytest.raises(KeyError, match="unknown reproduction 'seed999'"):
        reproduce("seed999", tmp_path / "x")
    assert not (tmp_path / "x").exists()
