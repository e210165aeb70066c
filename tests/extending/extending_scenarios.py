"""Shared by the extension tests: the guide's examples (docs/extending/) and a dumbbell-60-like
scenario (benchmarks/dumbbell-60/scenario.toml with RED(50, 100) at an explicit weight)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "extending"
RED_REFERENCE = f"{GUIDE / 'python_red.py'}:PythonRed"
AIMD_REFERENCE = f"{GUIDE / 'python_aimd.py'}:PythonAimd"
RED_PARAMS = {"min_th": 50, "max_th": 100, "max_p": 0.1, "q_weight": 0.002}


def dumbbell_60(duration: str = "20s", *, ecn: bool = False) -> dict[str, Any]:
    """benchmarks/dumbbell-60's scenario, shortened, with built-in RED(50, 100), w = 0.002, and
    the built-in `aimd` law at Reno's parameters (seed 002 Section IV-A)."""
    from aqmlab.scenario import load

    scenario = load(ROOT / "benchmarks" / "dumbbell-60" / "scenario.toml").model_dump(mode="json")
    scenario["duration"] = duration
    scenario["topology"]["bottleneck"]["queue"] = {
        "kind": "red",
        "limit": "2084p",
        **RED_PARAMS,
        "gentle": False,
        "wait": True,
        "ecn": ecn,
        "mark_p": None,
    }
    tcp = scenario["topology"]["groups"][0]["tcp"]
    tcp["cc"] = {"kind": "aimd", "a": 1.0, "n": -1.0, "b": 0.5, "m": 1.0}
    if ecn:
        tcp.update(ecn=True, ecn_echo="per_packet")
    return scenario


def with_python_red(scenario: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(scenario)
    ecn = out["topology"]["bottleneck"]["queue"]["ecn"]
    out["topology"]["bottleneck"]["queue"] = {
        "kind": "python",
        "limit": "2084p",
        "policy": RED_REFERENCE,
        "params": {**RED_PARAMS, "ecn": ecn},
    }
    return out


def with_python_aimd(scenario: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(scenario)
    out["topology"]["groups"][0]["tcp"]["cc"] = {
        "kind": "python",
        "law": AIMD_REFERENCE,
        "params": {"a": 1.0, "n": -1.0, "b": 0.5, "m": 1.0},
    }
    return out


def differences(a, b) -> list[str]:
    """Columns of the result tables that differ (NaN equal to NaN), with the first values."""
    out = []
    for name in ("flows", "links", "link_trace", "flow_trace"):
        left, right = getattr(a, name), getattr(b, name)
        assert left.column_names == right.column_names and left.num_rows == right.num_rows, name
        for column in left.column_names:
            x = left[column].to_numpy(zero_copy_only=False)
            y = right[column].to_numpy(zero_copy_only=False)
            if x.dtype.kind == "f":
                same = (x == y) | (np.isnan(x) & np.isnan(y))
            else:
                same = x == y
            if not np.all(same):
                out.append(f"{name}.{column}: {x[~same][:3]} vs {y[~same][:3]}")
    return out
