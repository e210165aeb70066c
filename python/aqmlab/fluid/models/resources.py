"""Resource (marking) functions p(y) of seed 004: the M/M/1-type (y/C)^B (eq. 11), the
large-buffer overflow [y − C]^+/y (eq. 12) and the reflected-Brownian-motion form
exp(−2B(C − y)/(yσ²)) (eq. 15), each with y·p(y) (the marking rate) and its derivative."""

from __future__ import annotations

import numpy as np

from aqmlab.fluid.models.base import FluidError, Param

RESOURCES = ("mm1", "overflow", "gaussian")

RESOURCE_PARAMS = {
    "mm1": {"B": Param(10.0, "packets", "marking threshold B of the M/M/1 resource (eq. 11)", 0.0, low_open=True)},
    "overflow": {},
    "gaussian": {
        "B": Param(10.0, "packets", "workload threshold B (eq. 15)", 0.0, low_open=True),
        "sigma2": Param(1.0, "packets", "workload variance per unit of arrivals σ² (eq. 15)", 0.0, low_open=True),
    },
}


def check_resource(name: str) -> str:
    if name not in RESOURCES:
        raise FluidError(f"resource = {name!r}; allowed: {', '.join(RESOURCES)}")
    return name


def marking(resource: str, y, C, P):
    """p(y) for capacity C."""
    if resource == "mm1":
        return (np.minimum(np.maximum(y, 0.0) / C, 1.0)) ** P["B"]  # eq. (11), capped at 1
    if resource == "overflow":
        return np.maximum(y - C, 0.0) / np.maximum(y, 1e-300)  # eq. (12)
    yy = np.maximum(y, 1e-12 * C)
    return np.minimum(np.exp(-2.0 * P["B"] * (C - yy) / (yy * P["sigma2"])), 1.0)  # eq. (15)


def marking_rate(resource: str, y, C, P):
    """y·p(y) (marks per second)."""
    if resource == "overflow":
        return np.maximum(y - C, 0.0)  # y·[y − C]^+/y, eq. (12)
    return y * marking(resource, y, C, P)


def gain_at(resource: str, x, C, P):
    """p + x p' at x: the loop gain per unit κτ in the linearisation (seed 004 eq. 14)."""
    p = marking(resource, x, C, P)
    if resource == "mm1":
        # condition κτp(1 + B) < π/2 below C; above C, p = 1 is flat and (x p)' = 1 (κτ < π/2)
        return np.where(np.asarray(x) > C, 1.0, p * (1.0 + P["B"]))
    if resource == "overflow":
        return np.where(x > C, 1.0, 0.0)  # condition κτ < π/2
    return p * (1.0 + 2.0 * P["B"] * C / (x * P["sigma2"]))  # eq. (16)
