"""The seed 000 fluid reproductions and the seed 001 HighSpeed ones agree with the paper in
quick mode, except the Appendix's Hopf point, which is known not to reproduce."""

import json

import pytest
from aqmlab.reproduce import reproduce


def comparison(reproduction_id, tmp_path):
    directory = reproduce(reproduction_id, tmp_path / reproduction_id, quick=True)
    return json.loads((directory / "reproduction.json").read_text())["comparison"]


@pytest.mark.parametrize(
    "reproduction_id",
    ["seed000-fig2", "seed000-fig3", "seed000-fig4", "seed000-fig14", "seed001-fig12", "seed001-fig15"],
)
def test_every_claim_agrees(reproduction_id, tmp_path):
    claims = comparison(reproduction_id, tmp_path)
    assert all(claim["agrees"] for claim in claims), claims


def test_appendix_type_agrees_and_hopf_point_does_not(tmp_path):
    claims = {claim["claim"]: claim for claim in comparison("seed000-appendix", tmp_path)}
    hopf = claims["the Hopf point of system (26) with the defaults and C = 100"]
    assert not hopf["agrees"] and "0.2718" in hopf["aqmlab"]
    assert claims["the Hopf bifurcation is supercritical"]["agrees"]
    assert claims["the limit cycles are asymptotically orbitally stable"]["agrees"]
    assert claims["the Appendix's formulas against a general computation"]["agrees"]
