"""Scenario shapes several reproductions share."""

from __future__ import annotations

from typing import Any


def scenario(
    name: str, topology: dict[str, Any], *, duration: float, measure_start: float, trace_interval: str
) -> dict[str, Any]:
    """A scenario of `topology`, seed 1 (the runner sets each seed), links traced every
    `trace_interval`, measured from `measure_start`."""
    return {
        "name": name,
        "duration": f"{duration}s",
        "measure_start": f"{measure_start}s",
        "seed": 1,
        "topology": topology,
        "trace": {"interval": trace_interval, "flows": 0},
    }


def parking_lot(name: str, links: list[dict[str, Any]], groups: list[dict[str, Any]], **timing: Any) -> dict[str, Any]:
    """A parking lot of `links` (in order) crossed by `groups` (`scenario`'s timing keywords)."""
    return scenario(name, {"kind": "parking_lot", "links": links, "groups": groups}, **timing)
