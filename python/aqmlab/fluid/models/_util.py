"""Small helpers shared by the network models: parsing vector and matrix options."""

from __future__ import annotations

import numpy as np

from aqmlab.fluid.models.base import FluidError


def floats(name: str, value, *, positive: bool = True, length: int | None = None) -> np.ndarray:
    """A 1-d float vector option, from a sequence or a comma-separated string."""
    if isinstance(value, str):
        value = [part for part in value.replace(";", ",").split(",") if part.strip()]
    try:
        array = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise FluidError(f"{name} = {value!r} is not a list of numbers; allowed: e.g. 0.1,0.2") from None
    if array.size == 0 or not np.all(np.isfinite(array)) or (positive and np.any(array <= 0)):
        raise FluidError(
            f"{name} = {value!r}; allowed: a non-empty list of {'positive ' if positive else ''}finite numbers"
        )
    if length is not None and array.size != length:
        raise FluidError(f"{name} has {array.size} entries; allowed: {length} (one per route/link)")
    return array


def routing(name: str, value) -> np.ndarray:
    """A 0/1 routing matrix (routes x links) from nested lists or 'r0l0 r0l1; r1l0 r1l1'
    (rows separated by ';' or '/', entries by ',' or spaces)."""
    if isinstance(value, str):
        rows = [row.replace(",", " ").split() for row in value.replace("/", ";").split(";") if row.strip()]
        value = rows
    try:
        matrix = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise FluidError(
            f"{name} = {value!r} is not a 0/1 matrix; allowed: e.g. '1 1; 1 0; 0 1' (routes x links)"
        ) from None
    if matrix.ndim != 2 or matrix.size == 0 or not np.all((matrix == 0) | (matrix == 1)):
        raise FluidError(f"{name} = {value!r}; allowed: a non-empty 0/1 matrix, routes x links")
    if np.any(matrix.sum(axis=1) == 0) or np.any(matrix.sum(axis=0) == 0):
        raise FluidError(f"{name}: every route must use a link and every link must carry a route")
    return matrix
