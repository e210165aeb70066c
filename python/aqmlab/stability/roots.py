"""Characteristic roots of linear delay systems u̇ = A_0 u(t) + Σ_k A_k u(t − τ_k).

The roots are the zeros of det Δ(λ), Δ(λ) = λI − A_0 − Σ_k A_k e^(−λτ_k). They are the
eigenvalues of the infinitesimal generator of the solution semigroup on C([−τ_max, 0]), which
is discretised by Chebyshev collocation (Breda, Maset and Vermiglio, SIAM J. Sci. Comput. 27,
2005): a function on [−τ_max, 0] is represented by its values at the N + 1 Chebyshev points
θ_j = τ_max (cos(jπ/N) − 1)/2; rows j >= 1 of the generator differentiate the interpolant
(the Chebyshev differentiation matrix), row j = 0 is the "splicing condition"
φ'(0) = A_0 φ(0) + Σ A_k φ(−τ_k), with φ(−τ_k) from barycentric Lagrange interpolation. The
eigenvalues of this n(N+1) matrix converge spectrally to the rightmost characteristic roots;
each is then refined by Newton's method on det Δ(λ) (the step 1/tr(Δ(λ)^(−1)Δ'(λ))) and
checked by the residual σ_min(Δ(λ))/‖Δ(λ)‖.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from aqmlab import _repr
from aqmlab.stability.linearise import Linearisation, StabilityError

__all__ = [
    "Roots",
    "characteristic_roots",
    "chebyshev",
    "generator_matrix",
    "newton_root",
    "rightmost_root",
    "char_matrix",
    "char_matrix_derivative",
]


def chebyshev(N: int) -> tuple[np.ndarray, np.ndarray]:
    """Chebyshev points x_j = cos(jπ/N), j = 0..N, and the differentiation matrix (Trefethen,
    Spectral Methods in MATLAB, cheb.m)."""
    if N == 0:
        return np.array([1.0]), np.zeros((1, 1))
    x = np.cos(np.pi * np.arange(N + 1) / N)
    c = np.ones(N + 1)
    c[0] = c[-1] = 2.0
    c *= (-1.0) ** np.arange(N + 1)
    X = np.tile(x, (N + 1, 1)).T
    dX = X - X.T
    D = np.outer(c, 1.0 / c) / (dX + np.eye(N + 1))
    D -= np.diag(D.sum(axis=1))
    return x, D


def _barycentric_row(x: np.ndarray, s: float) -> np.ndarray:
    """Weights l_j(s) of the Lagrange interpolant through Chebyshev points x (second kind)."""
    N = x.size - 1
    w = (-1.0) ** np.arange(N + 1)
    w[0] *= 0.5
    w[-1] *= 0.5
    diff = s - x
    exact = np.isclose(diff, 0.0, atol=1e-14)
    if exact.any():
        row = np.zeros(N + 1)
        row[np.argmax(exact)] = 1.0
        return row
    t = w / diff
    return t / t.sum()


def generator_matrix(A0: np.ndarray, A: np.ndarray, taus: np.ndarray, N: int) -> np.ndarray:
    """The n(N+1) × n(N+1) Chebyshev collocation of the infinitesimal generator."""
    n = A0.shape[0]
    tau_max = float(np.max(taus))
    x, D = chebyshev(N)
    M = np.kron(D * (2.0 / tau_max), np.eye(n))
    top = np.zeros((n, n * (N + 1)))
    top[:, :n] += A0
    for tau, Ak in zip(taus, A, strict=True):
        s = 1.0 - 2.0 * tau / tau_max  # θ = −τ ↦ x
        row = _barycentric_row(x, s)
        top += np.kron(row[None, :], Ak)
    M[:n, :] = top
    return M


def char_matrix(A0, A, taus, lam):
    out = lam * np.eye(A0.shape[0], dtype=complex) - A0
    for tau, Ak in zip(taus, A, strict=True):
        out = out - Ak * np.exp(-lam * tau)
    return out


def char_matrix_derivative(A0, A, taus, lam):
    out = np.eye(A0.shape[0], dtype=complex)
    for tau, Ak in zip(taus, A, strict=True):
        out = out + tau * Ak * np.exp(-lam * tau)
    return out


def newton_root(A0, A, taus, lam0: complex, *, tol: float = 1e-13, max_iter: int = 30) -> tuple[complex, bool, float]:
    """Refine a characteristic root by Newton's method on det Δ: λ ← λ − 1/tr(Δ^(−1)Δ').
    Returns (λ, converged, relative residual σ_min(Δ)/max(1, ‖Δ‖))."""
    lam = complex(lam0)
    converged = False
    for _ in range(max_iter):
        Dl = char_matrix(A0, A, taus, lam)
        try:
            step = np.trace(np.linalg.solve(Dl, char_matrix_derivative(A0, A, taus, lam)))
        except np.linalg.LinAlgError:
            converged = True
            break
        if step == 0 or not np.isfinite(step):
            break
        delta = 1.0 / step
        lam -= delta
        if abs(delta) <= tol * max(1.0, abs(lam)):
            converged = True
            break
    Dl = char_matrix(A0, A, taus, lam)
    sv = np.linalg.svd(Dl, compute_uv=False)
    residual = float(sv[-1] / max(1.0, sv[0]))
    return lam, converged, residual


@dataclass
class Roots:
    """Characteristic roots sorted by decreasing real part (one of each conjugate pair with
    Im >= 0 is kept when ``upper_only``), with Newton convergence flags."""

    roots: np.ndarray
    converged: np.ndarray
    residual: np.ndarray
    N: int

    @property
    def rightmost(self) -> complex:
        return complex(self.roots[0])

    @property
    def abscissa(self) -> float:
        """Spectral abscissa: max Re λ."""
        return float(self.roots[0].real)

    @property
    def stable(self) -> bool:
        return self.abscissa < 0.0

    @property
    def margin(self) -> float:
        """Stability margin −max Re λ (1/s): positive when stable."""
        return -self.abscissa

    def verdict(self, tol: float = 1e-9) -> str:
        a = self.abscissa
        scale = max(1.0, abs(self.rightmost))
        if abs(a) <= tol * scale:
            return "critical"
        return "stable" if a < 0 else "unstable"

    def __repr__(self) -> str:
        return _repr.text(self)

    def _repr_html_(self) -> str:
        return _repr.html(self)


def _default_N(A0, A, taus) -> int:
    return 24 if taus.size else 0


def characteristic_roots(
    lin: Linearisation | tuple,
    *,
    N: int | None = None,
    count: int = 12,
    refine: bool = True,
    region: float | None = None,
) -> Roots:
    """The rightmost ``count`` characteristic roots (one per conjugate pair).

    ``lin`` is a :class:`Linearisation` or a tuple (A0, A, taus). ``N`` is the Chebyshev degree
    (default 24; with no positive delay the roots are the eigenvalues of A_0). Roots of the
    discretisation with |Im λ| τ_max > N/2 are discarded as unresolved (the collocation
    is accurate for the low-frequency part of the spectrum, which contains the rightmost roots).
    """
    if isinstance(lin, Linearisation):
        A0, A, taus = lin.collapsed()
    else:
        A0, A, taus = (np.asarray(v, dtype=float) for v in lin)
        A0 = A0.copy()
        keep = taus > 0
        for Ak in A[~keep]:
            A0 += Ak
        A, taus = A[keep], taus[keep]
    if N is None:
        N = _default_N(A0, A, taus)
    if not (isinstance(N, (int, np.integer)) and 2 <= N <= 400) and taus.size:
        raise StabilityError(f"N = {N!r}; allowed: an integer Chebyshev degree in [2, 400]")
    if count < 1:
        raise StabilityError(f"count = {count!r}; allowed: an integer >= 1")
    if taus.size == 0:
        ev = np.linalg.eigvals(A0)
        refine_here = False
    else:
        ev = scipy.linalg.eigvals(generator_matrix(A0, A, taus, int(N)), check_finite=False)
        tau_max = float(taus.max())
        limit = region if region is not None else 0.5 * N / tau_max
        ev = ev[np.abs(ev.imag) <= limit]
        refine_here = refine
    ev = ev[ev.imag >= -1e-9 * np.maximum(1.0, np.abs(ev))]
    ev = ev[np.argsort(-ev.real)][: max(count * 2, count + 4)]
    out, conv, res = [], [], []
    for lam in ev:
        if refine_here:
            lam, ok, r = newton_root(A0, A, taus, lam)
            if abs(lam.imag) < 1e-10 * max(1.0, abs(lam)):
                lam = complex(lam.real, 0.0)
        else:
            ok, r = True, 0.0
        if lam.imag < 0:
            lam = lam.conjugate()
        if refine_here and r > 1e-8:
            continue  # Newton did not reach a root of det Δ: an artefact of the discretisation
        if any(abs(lam - o) <= 1e-6 * max(1.0, abs(lam)) for o in out):
            continue
        out.append(lam)
        conv.append(ok)
        res.append(r)
    order = np.argsort(-np.real(out))[:count]
    return Roots(
        roots=np.asarray(out, dtype=complex)[order],
        converged=np.asarray(conv)[order],
        residual=np.asarray(res)[order],
        N=int(N),
    )


def rightmost_root(lin, **kw) -> complex:
    return characteristic_roots(lin, count=1, **kw).rightmost


def spectral_abscissa(lin, **kw) -> float:
    return characteristic_roots(lin, count=1, **kw).abscissa


__all__.append("spectral_abscissa")
_ = math
