"""Fixtures of the per-packet trace tests: one small traced run (packet_trace_scenario.py)."""

import sys
from pathlib import Path

import pytest
from aqmlab import simulate

sys.path.insert(0, str(Path(__file__).parent))

from packet_trace_scenario import small_scenario  # noqa: E402


@pytest.fixture(scope="session")
def traced_run():
    return simulate(small_scenario())
