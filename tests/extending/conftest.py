"""The extension tests' fixtures; their scenarios are in extending_scenarios.py."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def user_file(tmp_path):
    """Write a user's Python file; returns its path."""

    def write(source: str, name: str = "user_code.py") -> Path:
        path = tmp_path / name
        path.write_text(source)
        return path

    return write
