"""Automatic linearisation of a fluid model about an equilibrium.

For a model ẋ(t) = f(x(t), x(t − τ_1), ..., x(t − τ_m); P) with equilibrium x*, the linear
delay system is

    u̇(t) = A_0 u(t) + Σ_k A_k u(t − τ_k),     A_0 = ∂f/∂x(t),  A_k = ∂f/∂x(t − τ_k)

(seed 000 eqs. 11 and 27 are this system written out by hand for the CTCP-RED models; the
tests compare the two). The derivatives are exact to rounding: the model's own vectorised right-hand side is
evaluated in first-order Taylor arithmetic (:mod:`aqmlab.stability.jets`, forward-mode
automatic differentiation; branches of ``np.clip``/``np.where`` are taken on the value), one
column per (argument, state) direction and parameter point, in one call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from aqmlab.fluid.models.base import FluidError, FluidModel
from aqmlab.stability.jets import jacobians

__all__ = ["Linearisation", "linearise", "linearise_batch", "StabilityError", "resolve_model"]


class StabilityError(FluidError):
    """Bad input to the stability tools; the message names the field, the value and what is allowed."""


def resolve_model(model, options: Mapping[str, object] | None = None) -> FluidModel:
    """A model instance from an instance or a registry name (with constructor options)."""
    from aqmlab.fluid.models import get_model

    if isinstance(model, str):
        model = get_model(model, **dict(options or {}))
    if not isinstance(model, FluidModel):
        raise StabilityError(
            f"model = {getattr(model, 'name', model)!r} is not a delay-differential fluid model; "
            "allowed: a FluidModel (discrete maps have no characteristic roots of this kind)"
        )
    return model


@dataclass
class Linearisation:
    """The linear delay system about one equilibrium: ``A0`` (n, n), ``A`` (m, n, n) for the
    delays ``delays`` (m,) seconds; ``equilibrium`` (n,) and the parameters used."""

    model: str
    state_names: tuple[str, ...]
    A0: np.ndarray
    A: np.ndarray
    delays: np.ndarray
    equilibrium: np.ndarray
    params: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        return self.A0.shape[0]

    def jacobian(self) -> np.ndarray:
        """A_0 + Σ A_k: the Jacobian of the delay-free system (Δ(0) = −J)."""
        return self.A0 + self.A.sum(axis=0)

    def collapsed(self, tol: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(A0 with zero-delay terms folded in, the A_k of positive delays merged by equal delay,
        those delays): the form the root finders use."""
        A0 = self.A0.copy()
        groups: dict[float, np.ndarray] = {}
        for tau, Ak in zip(self.delays, self.A, strict=True):
            if not np.any(Ak):
                continue
            if tau <= tol:
                A0 += Ak
                continue
            key = float(tau)
            groups[key] = groups.get(key, 0.0) + Ak
        taus = np.array(sorted(groups), dtype=float)
        mats = np.array([groups[t] for t in taus]) if taus.size else np.zeros((0, *A0.shape))
        return A0, mats, taus

    def characteristic_matrix(self, lam: complex) -> np.ndarray:
        """Δ(λ) = λI − A_0 − Σ A_k e^(−λ τ_k)."""
        out = lam * np.eye(self.n, dtype=complex) - self.A0
        for tau, Ak in zip(self.delays, self.A, strict=True):
            out = out - Ak * np.exp(-lam * tau)
        return out


def _params_at(P: dict, b: int) -> dict:
    return {key: (float(np.asarray(v).reshape(-1)[b]) if np.ndim(v) else float(v)) for key, v in P.items()}


def linearise_batch(model: FluidModel, P: dict, size: int, equilibrium: np.ndarray | None = None):
    """Linearise ``size`` parameter points at once (``P`` as from :meth:`FluidModel.resolve`).

    Returns ``(A0, A, delays, equilibrium)`` with shapes (B, n, n), (B, m, n, n), (B, m), (n, B).
    """
    n = model.n_states
    m = len(model.delay_names)
    y_eq = np.asarray(model.equilibrium(P, size) if equilibrium is None else equilibrium, dtype=float).reshape(n, size)
    if not np.all(np.isfinite(y_eq)):
        raise StabilityError(f"{model.name}: the equilibrium is not finite; allowed: parameters with an equilibrium")
    J = jacobians(model, P, size, y_eq)  # (B, m + 1, n, n), exact (Taylor arithmetic)
    A0 = np.ascontiguousarray(J[:, 0])
    A = np.ascontiguousarray(J[:, 1:])
    delays = (
        np.stack([np.broadcast_to(np.asarray(d, dtype=float), (size,)) for d in model.delays(P)], axis=1)
        if m
        else np.zeros((size, 0))
    )
    if not (np.all(np.isfinite(A0)) and np.all(np.isfinite(A))):
        raise StabilityError(
            f"{model.name}: the linearisation is not finite (a singular right-hand side at the "
            "equilibrium); allowed: parameters for which the model is smooth at its equilibrium"
        )
    return A0, A, delays, y_eq


def linearise(
    model, params: Mapping[str, object] | None = None, *, options: Mapping[str, object] | None = None, equilibrium=None
) -> Linearisation:
    """The linear delay system of ``model`` (instance or registry name) about its equilibrium
    at one parameter point ``params`` (missing names take defaults)."""
    model = resolve_model(model, options)
    P, size = model.resolve(params)
    if size != 1:
        raise StabilityError(
            f"params has {size} points; allowed: one parameter point (use linearise_batch for batches)"
        )
    eq = None if equilibrium is None else np.asarray(equilibrium, dtype=float).reshape(model.n_states, 1)
    A0, A, delays, y = linearise_batch(model, P, 1, eq)
    return Linearisation(
        model=model.name,
        state_names=tuple(model.state_names),
        A0=A0[0],
        A=A[0],
        delays=delays[0],
        equilibrium=y[:, 0],
        params=_params_at(P, 0),
    )
