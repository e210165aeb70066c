"""Periodic orbits of the fluid delay equations by collocation, continued in a parameter, with
their Floquet multipliers (the method of DDE-BIFTOOL).

* **Collocation** (Engelborghs, Luzyanina, in 't Hout and Roose, SIAM J. Sci. Comput. 22 (2000)
  1593-1609; DDE-BIFTOOL manual, Engelborghs, Luzyanina and Samaey, TW-330, 2001, §5): time is
  scaled to s = t/T ∈ [0, 1]; the profile x(s) is a continuous piecewise polynomial of degree
  d on L equal mesh intervals (values at d + 1 equidistant representation points per interval,
  shared at the mesh points, periodic: x(1) = x(0)). The equations x'(c) = T f(x(c),
  x(c − τ_1/T), ...) are imposed at the d Gauss-Legendre points c of each interval, with the
  delayed states evaluated on the periodic profile (c − τ_k/T taken mod 1). Unknowns: the
  profile, the period T and (in continuation) the parameter. The phase is fixed by the
  integral condition ∫ x(s)·x̃'(s) ds = 0 against the previous orbit x̃ (Doedel's phase
  condition; DDE-BIFTOOL's p_tori). Newton's method with the exact Jacobians of the right-hand
  side along the orbit (:func:`aqmlab.stability.jets.jacobians_at`); the T and p columns are
  central differences of the residual.
* **Start from a Hopf point** (Kuznetsov §3.5): x(s) ≈ x* + ε·2 Re(q e^(2πis)) with q the
  critical eigenvector and ε the normal-form amplitude; the first two orbits are solved with
  the amplitude (the projection on the eigenfunction) fixed and the parameter free, so the
  side of the branch (super- or subcritical) comes out of the equations, not the sign of l1.
* **Pseudo-arclength continuation** (Keller 1977; Allgower and Georg, Introduction to Numerical
  Continuation Methods, 1990, ch. 2): secant predictor, the corrector on the hyperplane
  orthogonal to the secant in a scaled norm (profile /max(1, |x*_j|), T/T_0, p/p_c); step
  control by the number of Newton iterations. Folds of cycles are where the parameter
  component of the secant changes sign.
* **Floquet multipliers** (Engelborghs et al. 2000, §4; Luzyanina and Engelborghs, Int. J.
  Bifurcation Chaos 12 (2002)): the linearisation about the orbit, u' = T[A_0(s) u(s) +
  Σ A_k(s) u(s − τ_k/T)], is collocated on [−r, 1] (r = τ_max/T rounded up to whole mesh
  intervals) with the history on [−r, 0] as input; the map from the history to the profile on
  [1 − r, 1] is the discretised monodromy operator, whose eigenvalues approximate the
  multipliers. One of them is the trivial multiplier 1; the orbit is stable when all the others
  lie inside the unit circle.
* **Box constraints**: the models are smooth only inside the region of :meth:`bounds`
  (q ≥ 0, q ≤ buffer, w ≥ floor: seed 000 eqs. 3-4, where the projections switch on). A cycle
  that reaches them is not a solution of the smooth equations; the branch marks the point
  (``constrained``) and stops there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from aqmlab.fluid.models.base import FluidError
from aqmlab.stability.hopf import find_hopf, lyapunov
from aqmlab.stability.jets import jacobians_at
from aqmlab.stability.linearise import StabilityError, resolve_model

__all__ = ["Orbit", "OrbitBranch", "Collocation", "orbit_branch", "correct_orbit", "floquet"]


def _lagrange(nodes: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values and derivatives of the Lagrange basis on ``nodes`` at points ``x``: (len(x), len(nodes))."""
    x = np.asarray(x, dtype=float)
    k = nodes.size
    diff = x[:, None] - nodes[None, :]  # (len(x), k)
    V = np.empty((x.size, k))
    dV = np.zeros((x.size, k))
    for j in range(k):
        others = np.arange(k) != j
        denom = np.prod(nodes[j] - nodes[others])
        V[:, j] = np.prod(diff[:, others], axis=1) / denom
        for a in np.nonzero(others)[0]:
            keep = others.copy()
            keep[a] = False
            dV[:, j] += np.prod(diff[:, keep], axis=1) / denom
    return V, dV


class Collocation:
    """The mesh: ``intervals`` equal intervals on [0, 1], degree ``degree``; N = L·d profile
    nodes (node L·d is node 0: periodic)."""

    def __init__(self, intervals: int = 40, degree: int = 4):
        self.L, self.d = int(intervals), int(degree)
        self.N = self.L * self.d
        self.local = np.linspace(0.0, 1.0, self.d + 1)  # representation points (DDE-BIFTOOL: equidistant)
        g, w = np.polynomial.legendre.leggauss(self.d)  # Gauss-Legendre collocation points
        self.c = ((np.arange(self.L)[:, None] + (g[None, :] + 1.0) / 2.0) / self.L).ravel()
        self.weights = np.tile(w / 2.0 / self.L, self.L)  # quadrature on [0, 1] at the points c
        self.nodes = np.arange(self.N) / self.N  # positions of the profile nodes
        self.E0, self.D = self.matrices(self.c)

    def matrices(self, s: np.ndarray, periodic: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Interpolation and d/ds matrices (len(s), N) at points s (mod 1 when periodic)."""
        s = np.mod(s, 1.0) if periodic else np.asarray(s, dtype=float)
        i = np.minimum(np.floor(s * self.L).astype(int), self.L - 1)
        xi = s * self.L - i
        V, dV = _lagrange(self.local, xi)
        E = np.zeros((s.size, self.N))
        D = np.zeros((s.size, self.N))
        cols = (i[:, None] * self.d + np.arange(self.d + 1)[None, :]) % self.N
        rows = np.repeat(np.arange(s.size)[:, None], self.d + 1, axis=1)
        np.add.at(E, (rows, cols), V)
        np.add.at(D, (rows, cols), dV * self.L)
        return E, D

    def fine(self, per_interval: int = 16) -> np.ndarray:
        return self.matrices(np.arange(self.L * per_interval) / (self.L * per_interval))[0]


@dataclass
class Orbit:
    """One periodic orbit: ``profile`` (N, n) at the collocation mesh nodes over one period."""

    value: float
    period: float
    profile: np.ndarray
    amplitude: np.ndarray  # half peak-to-peak per state
    low: np.ndarray
    high: np.ndarray
    multipliers: np.ndarray | None = None
    stable: bool | None = None
    constrained: str = ""  # non-empty: which box constraint the cycle reaches
    newton_iterations: int = 0

    @property
    def max_multiplier(self) -> float:
        """|μ| of the largest nontrivial multiplier (the one nearest 1 removed)."""
        if self.multipliers is None or self.multipliers.size < 2:
            return float("nan")
        mu = self.multipliers
        trivial = int(np.argmin(np.abs(mu - 1.0)))
        return float(np.max(np.abs(np.delete(mu, trivial))))


@dataclass
class OrbitBranch:
    model: str
    param: str
    state_names: tuple[str, ...]
    hopf_value: float
    hopf_omega: float
    l1: float
    orbits: list[Orbit]
    params: dict
    folds: list[int] = field(default_factory=list)  # indices i: a fold between orbits i and i + 1
    stop: str = ""
    mesh: tuple[int, int] = (40, 4)

    @property
    def values(self) -> np.ndarray:
        return np.array([o.value for o in self.orbits])

    @property
    def periods(self) -> np.ndarray:
        return np.array([o.period for o in self.orbits])

    def amplitudes(self, state: str | int = 0) -> np.ndarray:
        j = state if isinstance(state, int) else self.state_names.index(state)
        return np.array([o.amplitude[j] for o in self.orbits])

    @property
    def stable(self) -> np.ndarray:
        return np.array([bool(o.stable) for o in self.orbits])

    def table(self):
        import pyarrow as pa

        cols = {self.param: self.values, "period": self.periods}
        for j, name in enumerate(self.state_names):
            cols[f"amplitude_{name}"] = self.amplitudes(j)
        cols["max_multiplier"] = np.array([o.max_multiplier for o in self.orbits])
        cols["stable"] = self.stable
        cols["constrained"] = np.array([o.constrained for o in self.orbits])
        return pa.table(cols)


class _Problem:
    """Residual and Jacobian of the periodic boundary-value problem at one mesh."""

    def __init__(self, model, base: Mapping[str, object], param: str, mesh: Collocation, p_scale: float = 0.0):
        self.model, self.base, self.param, self.mesh = model, dict(base), param, mesh
        self.p_scale = p_scale  # the parameter's size where |p| itself is ~0 (difference steps, tolerances)
        self.n = model.n_states
        self.m = len(model.delay_names)

    def params(self, p: float) -> dict:
        P, _ = self.model.resolve({**self.base, self.param: p})
        return P

    def _states(self, X, T, P):
        mesh = self.mesh
        taus = [float(t) for t in self.model.delays(P)]
        Xc = mesh.E0 @ X  # (N, n)
        Es = [mesh.matrices(mesh.c - tau / T)[0] for tau in taus]
        lag = np.array([(E @ X).T for E in Es]) if taus else np.empty((0, self.n, mesh.N))
        return Xc, lag, Es

    def residual(self, X, T, p) -> np.ndarray:
        P = self.params(p)
        Xc, lag, _ = self._states(X, T, P)
        f = np.asarray(self.model.rhs(0.0, np.ascontiguousarray(Xc.T), lag, self.model.prepare(P)))
        return (self.mesh.D @ X - T * f.T).ravel()  # x'(c) = T f(x(c), x(c − τ_k/T))

    def jacobian_X(self, X, T, p) -> np.ndarray:
        P = self.params(p)
        Xc, lag, Es = self._states(X, T, P)
        J = jacobians_at(self.model, P, np.ascontiguousarray(Xc.T), lag)  # (N, m + 1, n, n), exact
        N, n = self.mesh.N, self.n
        out = np.einsum("cg,ij->cigj", self.mesh.D, np.eye(n))
        for a, E in enumerate([self.mesh.E0, *Es]):
            out -= T * np.einsum("cij,cg->cigj", J[:, a], E)
        return out.reshape(N * n, N * n)


def _sparse_solve(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Solve with a sparse LU (SuperLU): the collocation matrices are banded apart from the
    delayed columns and the bordering rows, and a sparse factorisation does not depend on the
    multithreaded dense LAPACK, which on a shared machine was 40x slower for these sizes."""
    import scipy.sparse
    import scipy.sparse.linalg

    return scipy.sparse.linalg.splu(scipy.sparse.csc_matrix(A)).solve(b)


def _amplitude(mesh: Collocation, X: np.ndarray):
    F = mesh.fine() @ X
    return 0.5 * (F.max(axis=0) - F.min(axis=0)), F.min(axis=0), F.max(axis=0)


def _box(model, P, low, high) -> str:
    box = model.bounds(P)
    if box is None:
        return ""
    lo = np.broadcast_to(np.asarray(box[0], dtype=float).reshape(-1), (model.n_states,))
    hi = np.broadcast_to(np.asarray(box[1], dtype=float).reshape(-1), (model.n_states,))
    for j, name in enumerate(model.state_names):
        if low[j] <= lo[j]:
            return f"{name} reaches its lower bound {lo[j]:g} (seed 000 eqs. 3-4: the projection switches on)"
        if high[j] >= hi[j]:
            return f"{name} reaches its upper bound {hi[j]:g} (seed 000 eq. 3: the buffer)"
    return ""


def floquet(model, params: Mapping[str, object], param: str, value: float, period: float, profile, mesh: Collocation):
    """Floquet multipliers of the orbit (``profile`` on ``mesh``) from the collocated monodromy
    operator on [−r, 1] (Engelborghs et al. 2000, §4), sorted by decreasing modulus."""
    model = resolve_model(model)
    prob = _Problem(model, params, param, mesh)
    P = prob.params(value)
    T = float(period)
    X = np.asarray(profile, dtype=float)
    n, L, d = model.n_states, mesh.L, mesh.d
    taus = [float(t) for t in model.delays(P)]
    tau_max = max(taus) if taus else 0.0
    h = max(1, math.ceil(tau_max / T * L - 1e-12))  # history intervals
    # extended mesh: nodes at s = (k − h d)/(L d), k = 0 .. (h + L) d; history k <= h d, unknown k > h d
    total = (h + L) * d + 1
    start = -h / L

    def ext_matrices(s):
        i = np.minimum(np.floor((s - start) * L).astype(int), h + L - 1)
        xi = (s - start) * L - i
        V, dV = _lagrange(mesh.local, xi)
        E = np.zeros((s.size, total))
        D = np.zeros((s.size, total))
        cols = i[:, None] * d + np.arange(d + 1)[None, :]
        rows = np.repeat(np.arange(s.size)[:, None], d + 1, axis=1)
        np.add.at(E, (rows, cols), V)
        np.add.at(D, (rows, cols), dV * L)
        return E, D

    c = mesh.c
    Xc, lag, _ = prob._states(X, T, P)
    J = jacobians_at(model, P, np.ascontiguousarray(Xc.T), lag)  # along the orbit, periodic lags
    E0, D = ext_matrices(c)
    M = np.einsum("cg,ij->cigj", D, np.eye(n)) - T * np.einsum("cij,cg->cigj", J[:, 0], E0)
    for a, tau in enumerate(taus, start=1):
        Ek, _ = ext_matrices(c - tau / T)  # u(c − τ/T): on [−r, 1], not wrapped
        M -= T * np.einsum("cij,cg->cigj", J[:, a], Ek)
    M = M.reshape(L * d * n, total * n)
    hist = (h * d + 1) * n
    new = _sparse_solve(M[:, hist:], -M[:, :hist])  # profile on (0, 1] from the history
    full = np.vstack([np.eye(hist), new])  # all extended nodes from the history
    shift = L * d * n  # node k ↦ node k + L d (s ↦ s + 1)
    monodromy = full[shift : shift + hist]
    mu = np.linalg.eigvals(monodromy)
    return mu[np.argsort(-np.abs(mu))]


def _newton(prob: _Problem, z0: np.ndarray, extra, max_iter: int = 15, tol: float = 1e-10):
    """Newton on [collocation; phase; extra] for z = (X, T, p); ``extra(z)`` returns (value, gradient)."""
    N, n = prob.mesh.N, prob.n
    z = z0.copy()
    ref = z0[: N * n].reshape(N, n)
    dref = prob.mesh.D @ ref  # x̃'(c)
    wts = prob.mesh.weights
    p_size = max(prob.p_scale, 1e-300)
    for it in range(1, max_iter + 1):
        X, T, p = z[: N * n].reshape(N, n), z[-2], z[-1]
        hT = 1e-7 * abs(T)
        hp = 1e-7 * max(abs(p), p_size)
        try:  # a wild Newton iterate may leave the parameters' allowed range: a failed step
            R = prob.residual(X, T, p)
            JX = prob.jacobian_X(X, T, p)
            dT = (prob.residual(X, T + hT, p) - prob.residual(X, T - hT, p)) / (2 * hT)
            dp = (prob.residual(X, T, p + hp) - prob.residual(X, T, p - hp)) / (2 * hp)
        except FluidError:
            return z, False, it
        if not (np.all(np.isfinite(R)) and np.all(np.isfinite(JX))):
            return z, False, it
        # phase: ∫ x·x̃' ds by Gauss quadrature at the collocation points
        phase_grad = np.einsum("c,cg,cj->gj", wts, prob.mesh.E0, dref).ravel()
        phase = float(phase_grad @ z[: N * n])
        e_val, e_grad = extra(z)
        A = np.zeros((N * n + 2, N * n + 2))
        A[: N * n, : N * n] = JX
        A[: N * n, -2] = dT
        A[: N * n, -1] = dp
        A[-2, : N * n] = phase_grad
        A[-1] = e_grad
        rhs = -np.concatenate([R, [phase, e_val]])
        try:
            step = _sparse_solve(A, rhs)
        except RuntimeError:  # SuperLU: exactly singular
            return z, False, it
        z = z + step
        if z[-2] <= 0:
            return z, False, it
        scale = np.concatenate([np.maximum(np.abs(z[: N * n]), 1.0), [abs(z[-2]), max(abs(z[-1]), p_size)]])
        if np.max(np.abs(step) / scale) <= tol:
            X, T, p = z[: N * n].reshape(N, n), z[-2], z[-1]
            try:
                res = float(np.max(np.abs(prob.residual(X, T, p))))
            except FluidError:
                return z, False, it
            return z, bool(res <= 1e-7 * max(1.0, float(np.max(np.abs(X))))), it
    return z, False, max_iter


def _make_orbit(prob: _Problem, z: np.ndarray, iters: int, with_floquet: bool) -> Orbit:
    N, n = prob.mesh.N, prob.n
    X, T, p = z[: N * n].reshape(N, n).copy(), float(z[-2]), float(z[-1])
    amp, low, high = _amplitude(prob.mesh, X)
    P = prob.params(p)
    mu = floquet(prob.model, prob.base, prob.param, p, T, X, prob.mesh) if with_floquet else None
    stable = None
    if mu is not None:
        trivial = int(np.argmin(np.abs(mu - 1.0)))
        others = np.delete(mu, trivial)
        stable = bool(others.size == 0 or np.max(np.abs(others)) < 1.0)
    return Orbit(
        value=p,
        period=T,
        profile=X,
        amplitude=amp,
        low=low,
        high=high,
        multipliers=mu,
        stable=stable,
        constrained=_box(prob.model, P, low, high),
        newton_iterations=iters,
    )


def correct_orbit(
    model,
    params: Mapping[str, object],
    param: str,
    value: float,
    guess: Orbit,
    *,
    mesh: Collocation | None = None,
    with_floquet: bool = True,
) -> Orbit:
    """The periodic orbit at ``param`` = ``value`` (fixed), from a nearby orbit ``guess``."""
    model = resolve_model(model)
    mesh = mesh or Collocation()
    prob = _Problem(model, params, param, mesh, p_scale=abs(float(value)) or 1.0)
    N, n = mesh.N, model.n_states
    z0 = np.concatenate([guess.profile.ravel(), [guess.period, guess.value]])
    grad = np.zeros(N * n + 2)
    grad[-1] = 1.0
    z, ok, it = _newton(prob, z0, lambda z: (z[-1] - value, grad))
    if not ok:
        raise StabilityError(f"{model.name}: no periodic orbit found at {param} = {value:g} from the guess")
    return _make_orbit(prob, z, it, with_floquet)


def orbit_branch(
    model,
    param: str,
    lo: float,
    hi: float,
    params: Mapping[str, object] | None = None,
    *,
    options: Mapping[str, object] | None = None,
    hopf=None,
    intervals: int = 40,
    degree: int = 4,
    max_points: int = 60,
    first_amplitude: float = 0.01,
    max_step: float = 0.2,
    with_floquet: bool = True,
) -> OrbitBranch:
    """The branch of periodic orbits born at the Hopf point of ``param`` in [lo, hi]
    (:func:`find_hopf`, or ``hopf``), continued by pseudo-arclength while the parameter stays in
    [lo, hi], for at most ``max_points`` orbits, until a cycle reaches a box constraint.

    ``first_amplitude``: relative amplitude (to max(1, |x*_j|)) of the first orbit; the later
    steps are chosen by the continuation (``max_step`` bounds them in the scaled norm).
    """
    model = resolve_model(model, options)
    base = dict(params or {})
    h = hopf or find_hopf(model, param, lo, hi, base)
    pc, omega = float(h.value), float(h.omega)
    Lya = lyapunov(model, h.params, omega)
    mesh = Collocation(intervals, degree)
    # the parameter's size: |p_c|, or 1 % of the window [lo, hi] when p_c is nearer 0 than that
    p_scale = max(abs(pc), 0.01 * abs(hi - lo))
    prob = _Problem(model, base, param, mesh, p_scale=p_scale)
    N, n = mesh.N, model.n_states
    P = prob.params(pc)
    y_eq = model.equilibrium(P, 1)[:, 0]
    scale = np.maximum(1.0, np.abs(y_eq))
    q = Lya.q / np.max(np.abs(Lya.q) / scale)  # the critical eigenvector, max relative component 1
    V = 2.0 * np.real(q[None, :] * np.exp(2j * np.pi * mesh.nodes)[:, None])  # 2 Re(q e^(2πis)), (N, n)
    T0 = 2.0 * math.pi / omega
    profile_weights = np.repeat(1.0 / scale[None, :], N, axis=0).ravel() / math.sqrt(N)
    # the scaled norm: states by max(1, |x*_j|), T by T_0, the parameter by p_scale
    wvec = np.concatenate([profile_weights, [1.0 / T0, 1.0 / p_scale]])

    def amplitude_condition(eps):
        # ⟨x − x*, V⟩ / ⟨V, V⟩ = ε: the amplitude along the Hopf eigenfunction fixed, p free
        g = np.zeros(N * n + 2)
        g[: N * n] = V.ravel() / float(np.sum(V * V))
        shift = float(g[: N * n] @ np.repeat(y_eq[None, :], N, axis=0).ravel())
        return lambda z: (float(g @ z) - shift - eps, g)

    def _constant(z) -> bool:  # amplitude at the level of the Newton tolerance
        amp = _amplitude(mesh, z[: N * n].reshape(N, n))[0]
        return bool(np.max(amp / scale) <= 1e-8)

    orbits: list[Orbit] = []
    zs: list[np.ndarray] = []
    for eps in (first_amplitude, 2.0 * first_amplitude):
        X0 = y_eq[None, :] + eps * V
        z0 = np.concatenate([X0.ravel(), [T0, pc]]) if not zs else zs[-1].copy()
        if zs:  # scale the previous profile's deviation to the new amplitude
            Xp = zs[-1][: N * n].reshape(N, n)
            z0[: N * n] = (y_eq[None, :] + 2.0 * (Xp - y_eq[None, :])).ravel()
        z, ok, it = _newton(prob, z0, amplitude_condition(eps))
        if not ok:
            raise StabilityError(
                f"{model.name}: the first periodic orbits near the Hopf point {param} = {pc:g} did not converge; "
                "allowed: a smaller first_amplitude or a finer mesh (intervals)"
            )
        zs.append(z)
        orbits.append(_make_orbit(prob, z, it, with_floquet))
    folds: list[int] = []
    stop = f"max_points = {max_points} reached"
    step = float(np.linalg.norm((zs[1] - zs[0]) * wvec))
    tangent = (zs[1] - zs[0]) * wvec / step
    while len(orbits) < max_points:
        if orbits[-1].constrained:
            stop = f"the cycle leaves the smooth model: {orbits[-1].constrained}"
            break
        z_prev = zs[-1]
        for _ in range(12):
            z_pred = z_prev + step * tangent / wvec
            g = tangent * wvec
            z, ok, it = _newton(prob, z_pred, lambda z, g=g, zp=z_pred: (float(g @ (z - zp)), g))
            # accept only a corrector that moved less than the step itself (the predictor stayed
            # within the curve's radius of curvature; Allgower and Georg 1990, §6.1) and did not
            # land on a constant profile: the equilibrium solves the collocation equations for
            # every T and p, so a jump onto it (e.g. over a fold) is not a cycle
            if ok and float(np.linalg.norm((z - z_pred) * wvec)) <= step and not _constant(z):
                break
            step *= 0.5
        else:
            stop = "the continuation step became too small (Newton failed)"
            break
        new_tangent = (z - z_prev) * wvec
        new_tangent /= np.linalg.norm(new_tangent)
        if np.sign(new_tangent[-1]) != np.sign(tangent[-1]) and tangent[-1] != 0:
            folds.append(len(orbits) - 1)  # the parameter turned back: a fold of cycles
        tangent = new_tangent
        zs.append(z)
        orbits.append(_make_orbit(prob, z, it, with_floquet))
        step = min(step * (1.5 if it <= 4 else 1.0 if it <= 7 else 0.6), max_step)
        if not (min(lo, hi) <= z[-1] <= max(lo, hi)):
            stop = f"{param} left [{lo:g}, {hi:g}]"
            break
    return OrbitBranch(
        model=model.name,
        param=param,
        state_names=tuple(model.state_names),
        hopf_value=pc,
        hopf_omega=omega,
        l1=Lya.l1,
        orbits=orbits,
        params=base,
        folds=folds,
        stop=stop,
        mesh=(intervals, degree),
    )
