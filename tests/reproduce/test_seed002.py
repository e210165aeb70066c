"""Seed 002 claims that the quick versions check with a wide margin."""

import json

import pytest
from aqmlab.reproduce import reproduce


@pytest.mark.parametrize("reproduction_id", ["seed002-fig7", "seed002-fig8"])
def test_transient_response_and_alpha_claims_agree(reproduction_id, tmp_path):
    meta = json.loads((reproduce(reproduction_id, tmp_path / "r", quick=True) / "reproduction.json").read_text())
    assert all(claim["agrees"] for claim in meta["comparison"]), meta["comparison"]
