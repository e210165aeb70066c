"""The seed 001 HighSpeed reproductions agree with the paper in quick mode. (The seed 000
ones are guarded claim by claim by tests/reproduce/verdicts.json.)"""

import json

import pytest
from aqmlab.reproduce import reproduce


def comparison(reproduction_id, tmp_path):
    directory = reproduce(reproduction_id, tmp_path / reproduction_id, quick=True)
    return json.loads((directory / "reproduction.json").read_text())["comparison"]


@pytest.mark.parametrize("reproduction_id", ["seed001-fig12", "seed001-fig15"])
def test_every_claim_agrees(reproduction_id, tmp_path):
    claims = comparison(reproduction_id, tmp_path)
    assert all(claim["agrees"] for claim in claims), claims
