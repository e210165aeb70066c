"""Shared helpers of the robustness tests: short example scenarios and a small TOML writer."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import tomllib

EXAMPLES = Path(__file__).parents[2] / "examples"

#: Examples the generated scenarios start from (one of each topology and traffic kind).
BASES = (
    "seed000-fig6-rtt10.toml",
    "udp-joins-and-leaves.toml",
    "seed000-fig16-parking-lot.toml",
    "seed002-fig11-network.toml",
    "codel-dumbbell.toml",
    "pi-hollot2001.toml",
    "seed000-fig10-mixed.toml",
)


def short(name: str, duration: str = "0.3s") -> dict[str, Any]:
    """Example `name` cut to `duration` (no measure_start, stops and starts within it)."""
    data = tomllib.loads((EXAMPLES / name).read_text())
    data["duration"] = duration
    data.pop("measure_start", None)
    return _within(data, float(duration.removesuffix("s")))


def _within(node: Any, seconds: float) -> Any:
    """Start and stop times of groups squeezed into the run, so the short run does something."""
    if isinstance(node, dict):
        for key in ("start", "stop"):
            value = node.get(key)
            if isinstance(value, dict) and value.get("kind") in ("uniform", "fixed", "staggered"):
                node[key] = {"kind": "fixed", "at": f"{seconds / 3:g}s"} if key == "stop" else {"kind": "fixed"}
                if key == "stop" and value.get("kind") == "fixed":
                    node[key] = {"kind": "fixed", "at": f"{seconds / 2:g}s"}
        for value in node.values():
            _within(value, seconds)
    elif isinstance(node, list):
        for value in node:
            _within(value, seconds)
    return node


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")


def toml_key(key: str) -> str:
    return key if _BARE.fullmatch(key) else json.dumps(key)


def to_toml(data: dict[str, Any]) -> str:
    """A TOML document with every table inline (enough for scenarios)."""
    return "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in data.items())
