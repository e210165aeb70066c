"""Hopf points, transversality and the first Lyapunov coefficient.

* :func:`find_hopf` — the critical value of one parameter where the rightmost pair of
  characteristic roots crosses the imaginary axis: a scan of the spectral abscissa
  (:mod:`aqmlab.stability.roots`) brackets it, Newton's method on det Δ(iω; p) = 0 (two real
  equations in p and ω) refines it.
* :func:`transversality` — dλ/dp at the Hopf point, by implicit differentiation of
  det Δ(λ; p) = 0 (seed 000 eqs. 23-24 and 34 do this by hand for κ).
* :func:`lyapunov` — the first Lyapunov coefficient of a Hopf point of any model, with the
  delay-equation formula c1 = ½ p^H [C(φ,φ,φ̄) + B(φ̄,h20) + 2B(φ,h11)], h20 = Δ(2iω)^(−1)B(φ,φ)
  e^(2iωθ), h11 = Δ(0)^(−1)B(φ,φ̄), φ(θ) = q e^(iωθ), Δ(iω)q = 0, p^H Δ(iω) = 0,
  p^H Δ'(iω) q = 1 (Kuznetsov, Elements of Applied Bifurcation Theory, §3.5, carried to delay
  equations as in Janssens' normal forms for DDEs / DDE-BIFTOOL). The multilinear forms B and C
  are directional derivatives of the model's right-hand side along history functions,
  evaluated at θ = 0 and θ = −τ_k, exact to rounding: second and third Taylor coefficients in
  truncated Taylor arithmetic (:mod:`aqmlab.stability.jets`) along complex directions,
  polarised, all in one batched call. With the eigenvector normalised to q_0 = 1 (seed 000 Appendix), Re c1 equals
  the Appendix's Re c1(0), and μ2 = −Re c1/Re λ'(p_c), β2 = 2 Re c1, T2 = −(Im c1 + μ2 Im λ')/ω
  (seed 000 eq. 68 and Hassard-Kazarinoff-Wan).
* :func:`appendix_ctcp_noavg` — seed 000 Appendix eqs. (47)-(68) for system (26), with the
  Taylor coefficients of Table II, implemented as printed (with the overbars the extraction
  lost restored; see docs/stability.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from aqmlab import _repr
from aqmlab.stability.jets import taylor_rhs
from aqmlab.stability.linearise import StabilityError, linearise_batch, resolve_model
from aqmlab.stability.roots import char_matrix, char_matrix_derivative, characteristic_roots

__all__ = [
    "HopfPoint",
    "find_hopf",
    "hopf_newton",
    "transversality",
    "Lyapunov",
    "lyapunov",
    "appendix_ctcp_noavg",
    "system_at",
]


def system_at(model, base: Mapping[str, object], points: list[dict]):
    """Linearise ``model`` at several parameter points (updates of ``base``) in one batched call;
    returns a list of (A0, A, taus) with zero delays folded into A0."""
    names = set(base) | set().union(*[set(p) for p in points])
    values = {}
    for key in names:
        values[key] = [float(p.get(key, base.get(key, model.params[key].default))) for p in points]
    P, size = model.resolve(values if len(points) > 1 else {k: v[0] for k, v in values.items()})
    A0, A, delays, _ = linearise_batch(model, P, size)
    out = []
    for b in range(size):
        a0 = A0[b].copy()
        keep = delays[b] > 0
        for Ak in A[b][~keep]:
            a0 += Ak
        out.append((a0, A[b][keep], delays[b][keep]))
    if len(points) > 1 and size == 1:  # all points identical
        out = out * len(points)
    return out


def _det_and_domega(sys, omega):
    A0, A, taus = sys
    lam = 1j * omega
    D = char_matrix(A0, A, taus, lam)
    det = np.linalg.det(D)
    dD = 1j * char_matrix_derivative(A0, A, taus, lam)
    try:
        ddet = det * np.trace(np.linalg.solve(D, dD))
    except np.linalg.LinAlgError:
        ddet = 0j
    return det, ddet


def hopf_newton(
    model,
    base: Mapping[str, object],
    param: str,
    value: float,
    omega: float,
    *,
    tol: float = 1e-11,
    max_iter: int = 25,
    fixed: Mapping[str, float] | None = None,
):
    """Newton's method on det Δ(iω; param) = 0 for (param, ω); returns (value, ω, converged)."""
    fixed = dict(fixed or {})
    p, w = float(value), float(omega)
    # the size tol is relative to: |p|, or the starting value's size for a root at p = 0
    size0 = abs(float(value))
    for _ in range(max_iter):
        hp = 1e-6 * max(abs(p), 1e-12)
        s0, s1 = system_at(model, base, [{**fixed, param: p}, {**fixed, param: p + hp}])
        d0, dw = _det_and_domega(s0, w)
        d1, _ = _det_and_domega(s1, w)
        dp = (d1 - d0) / hp
        # Converged already: the residual is zero, or smaller than a step of relative size tol
        # would remove. Checked before the solve, since at an exact root det Δ(iω) = 0 makes
        # Δ singular, _det_and_domega returns dDet/dω = 0 and the Newton matrix is singular.
        if abs(d0) <= tol * abs(dp) * max(abs(p), size0, 1e-300):
            return p, abs(w), True
        J = np.array([[dp.real, dw.real], [dp.imag, dw.imag]])
        try:
            step = np.linalg.solve(J, -np.array([d0.real, d0.imag]))
        except np.linalg.LinAlgError:
            return p, w, False
        # damp steps that would change the sign of a positive parameter (only: a parameter that
        # may be negative, e.g. a bifurcation parameter centred on 0, is not damped)
        scale = 1.0
        while p > 0 and p + scale * step[0] <= 0 and scale > 1e-6:
            scale *= 0.5
        p += scale * step[0]
        w += scale * step[1]
        if abs(step[0]) <= tol * max(abs(p), size0, 1e-300) and abs(step[1]) <= tol * max(abs(w), 1.0):
            return p, abs(w), True
    return p, abs(w), False


@dataclass
class HopfPoint:
    param: str
    value: float
    omega: float
    params: dict
    verified: bool

    @property
    def period(self) -> float:
        return 2.0 * math.pi / self.omega

    def __repr__(self) -> str:
        return _repr.text(self)

    def _repr_html_(self) -> str:
        return _repr.html(self)


def _abscissa(model, base, param, values):
    systems = system_at(model, base, [{param: v} for v in values])
    roots = [characteristic_roots(s, count=1) for s in systems]
    return np.array([r.abscissa for r in roots]), [r.rightmost for r in roots]


def find_hopf(
    model,
    param: str,
    lo: float,
    hi: float,
    params: Mapping[str, object] | None = None,
    *,
    options: Mapping[str, object] | None = None,
    scan: int = 24,
    log: bool | None = None,
) -> HopfPoint:
    """The first Hopf point of ``param`` in [lo, hi] (the smallest value where the spectral
    abscissa changes sign, scanning ``scan`` values), refined by Newton."""
    model = resolve_model(model, options)
    base = dict(params or {})
    if param not in model.params:
        raise StabilityError(
            f"param = {param!r} is not a parameter of {model.name}; allowed: {', '.join(model.params)}"
        )
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
        raise StabilityError(f"range {param}:{lo:g}:{hi:g}; allowed: finite LO < HI")
    if log is None:
        log = lo > 0 and hi / lo > 20
    grid = np.geomspace(lo, hi, scan) if log else np.linspace(lo, hi, scan)
    a, right = _abscissa(model, base, param, grid)
    sign = np.sign(a)
    change = np.nonzero(sign[:-1] * sign[1:] < 0)[0]
    if change.size == 0:
        raise StabilityError(
            f"no Hopf point of {model.name} for {param} in [{lo:g}, {hi:g}] (the rightmost root stays "
            f"{'stable' if a[0] < 0 else 'unstable'}); allowed: a range in which stability changes"
        )
    i = int(change[0])
    x0, x1 = grid[i], grid[i + 1]
    # bisection on the spectral abscissa to a few digits, then Newton
    for _ in range(8):
        xm = math.sqrt(x0 * x1) if log else 0.5 * (x0 + x1)
        am, rm = _abscissa(model, base, param, [xm])
        if np.sign(am[0]) == sign[i]:
            x0 = xm
        else:
            x1 = xm
    xm = 0.5 * (x0 + x1)
    _, r = _abscissa(model, base, param, [xm])
    value, omega, ok = hopf_newton(model, base, param, xm, abs(r[0].imag))
    if not ok or not (min(x0, x1) - 1e-3 * abs(xm) <= value <= max(x0, x1) + 1e-3 * abs(xm)):
        value, omega = xm, abs(r[0].imag)  # Newton left the bracket (e.g. a real root crossing): keep the bisection
        ok = False
    if omega < 1e-9:
        raise StabilityError(
            f"{model.name}: the root crossing at {param} = {value:g} is real (λ = 0), not a Hopf point; "
            "allowed: a range with a complex-pair crossing"
        )
    return HopfPoint(
        param=param, value=float(value), omega=float(omega), params={**base, param: float(value)}, verified=bool(ok)
    )


def transversality(
    model, params: Mapping[str, object], param: str, omega: float, *, options: Mapping[str, object] | None = None
) -> complex:
    """dλ/dp at the root λ = iω of det Δ(λ; p) = 0. Re > 0 means the pair crosses into the right
    half-plane as p increases (seed 000 eqs. 23-24, 34).

    For a simple root, implicit differentiation of Δ(λ(p); p) q(p) = 0 gives
    dλ/dp = −(pᴴ ∂Δ/∂p q)/(pᴴ ∂Δ/∂λ q) with q, p the right and left null vectors of Δ(iω)
    (Kuznetsov, Elements of Applied Bifurcation Theory, 3rd ed., §3.5 / Lemma 3.6 for the ODE
    case; the same bordering argument holds for the characteristic matrix of a DDE). The null
    vectors come from the SVD, so an exactly singular Δ(iω) (an accurate Hopf point) is the
    ordinary case, not a LinAlgError. ∂Δ/∂p (through the equilibrium, the exact Jacobians and
    the delays) is a 4-point central difference (O(h⁴)) with h = 1e-4·|p|.
    """
    model = resolve_model(model, options)
    p = float(params[param]) if param in params else model.params[param].default
    hp = 1e-4 * max(abs(p), 1e-12)
    lam = 1j * omega
    s0, s1, s_1, s2, s_2 = system_at(model, dict(params), [{param: p + o * hp} for o in (0.0, 1.0, -1.0, 2.0, -2.0)])
    dD = (8.0 * (char_matrix(*s1, lam) - char_matrix(*s_1, lam)) - (char_matrix(*s2, lam) - char_matrix(*s_2, lam))) / (
        12.0 * hp
    )
    left, right = _null_vectors(s0, omega)
    num = left.conj() @ dD @ right
    den = left.conj() @ char_matrix_derivative(*s0, lam) @ right
    return complex(-num / den)


# ---------------------------------------------------------------------------------------------
# first Lyapunov coefficient (general, numerical)


@dataclass
class Lyapunov:
    """Normal-form quantities at a Hopf point; ``q`` is the eigenvector normalised to q_0 = 1."""

    omega: float
    c1: complex
    l1: float
    q: np.ndarray
    dlam: complex | None = None
    extra: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        if self.l1 < 0:
            return "supercritical"
        return "subcritical" if self.l1 > 0 else "degenerate"

    @property
    def mu2(self) -> float:
        """μ2 = −Re c1 / Re λ'(p_c) (seed 000 eq. 68): > 0 supercritical, < 0 subcritical."""
        return -self.c1.real / self.dlam.real

    @property
    def beta2(self) -> float:
        """β2 = 2 Re c1 (seed 000 eq. 68): < 0 means the cycles are orbitally stable."""
        return 2.0 * self.c1.real

    @property
    def T2(self) -> float:
        """Period correction (Hassard-Kazarinoff-Wan): T ≈ 2π/ω (1 + T2 ε²), ε² = μ/μ2."""
        return -(self.c1.imag + self.mu2 * self.dlam.imag) / self.omega

    def amplitude(self, delta: float) -> np.ndarray:
        """Predicted half peak-to-peak amplitude of each state at p = p_c + delta:
        2|q_j| sqrt(delta/μ2) (NaN on the side without a cycle)."""
        ratio = delta / self.mu2
        return 2.0 * np.abs(self.q) * (math.sqrt(ratio) if ratio > 0 else float("nan"))


def _null_vectors(sys, omega):
    D = char_matrix(*sys, 1j * omega)
    U, s, Vh = np.linalg.svd(D)
    q = Vh[-1].conj()
    p = U[:, -1]  # p^H D = 0  <=>  D^H p = 0
    return p, q


class _Forms:
    """Multilinear forms of the right-hand side along history functions (values at θ = 0 and
    θ = −τ_k for every model delay, zero delays included)."""

    def __init__(self, model, P, y_eq, all_delays):
        self.model, self.P, self.y = model, P, y_eq
        self.delays = np.asarray(all_delays, dtype=float)
        self.n = model.n_states
        self.m = len(all_delays)

    def values(self, vec_fn):
        """Stack a history function (callable θ -> (n,) complex) into (m+1, n)."""
        return np.array([vec_fn(0.0)] + [vec_fn(-t) for t in self.delays])

    def taylor(self, dirs: np.ndarray, order: int) -> np.ndarray:
        """Taylor coefficient ``order`` of t ↦ f(x* + t d) for each history direction d
        (k, m+1, n) (complex allowed), exact (:mod:`aqmlab.stability.jets`); shape (k, n)."""
        dirs = np.asarray(dirs, dtype=complex)
        k = dirs.shape[0]
        Y = np.repeat(self.y[:, None], k, axis=1)
        L = np.repeat(Y[None], self.m, axis=0)
        dY = np.ascontiguousarray(dirs[:, 0, :].T)
        dL = np.ascontiguousarray(np.transpose(dirs[:, 1:, :], (1, 2, 0)))
        Q = self.model.prepare(dict(self.P))
        return taylor_rhs(self.model, Q, Y, L, dY, dL, order)[order].T

    def quad(self, dirs: np.ndarray) -> np.ndarray:
        """B(v, v) = f''[v, v] = 2 × the second Taylor coefficient, for directions v (k, m+1, n)."""
        return 2.0 * self.taylor(dirs, 2)

    def cubic(self, dirs: np.ndarray) -> np.ndarray:
        """C(v, v, v) = 6 × the third Taylor coefficient."""
        return 6.0 * self.taylor(dirs, 3)

    def B(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Symmetric bilinear B(u, v) = (Q(u + v) − Q(u − v))/4 (polarisation; complex
        directions are the bilinear extension, so no split into real and imaginary parts)."""
        Q = self.quad(np.array([u + v, u - v]))
        return (Q[0] - Q[1]) / 4.0

    def C_uub(self, u: np.ndarray) -> np.ndarray:
        """C(u, u, ū) = [K(u + ū) − K(u − ū) − 2K(ū)]/6 with K(x) = C(x, x, x) (polarisation of a
        symmetric trilinear form)."""
        ub = u.conj()
        K = self.cubic(np.array([u + ub, u - ub, ub]))
        return (K[0] - K[1] - 2.0 * K[2]) / 6.0


def lyapunov(
    model,
    params: Mapping[str, object],
    omega: float,
    *,
    param: str | None = None,
    options: Mapping[str, object] | None = None,
) -> Lyapunov:
    """First Lyapunov coefficient at a Hopf point (``params`` on the boundary, crossing
    frequency ``omega``). With ``param`` also dλ/dparam, μ2, β2 and T2."""
    model = resolve_model(model, options)
    P, size = model.resolve(params)
    if size != 1:
        raise StabilityError("params: one parameter point; allowed: scalars only")
    A0, A, delays, y = linearise_batch(model, P, 1)
    A0, A, delays, y = A0[0], A[0], delays[0], y[:, 0]
    sys = (A0, A, delays)
    p, q = _null_vectors(sys, omega)
    if abs(q[0]) < 1e-12 * np.max(np.abs(q)):
        q = q / q[np.argmax(np.abs(q))]
    else:
        q = q / q[0]
    norm = p.conj() @ char_matrix_derivative(*sys, 1j * omega) @ q
    p = p / norm.conjugate()  # p^H Δ'(iω) q = 1
    forms = _Forms(model, P, y, delays)
    phi = forms.values(lambda th: q * np.exp(1j * omega * th))
    B_pp = forms.B(phi, phi)
    B_pc = forms.B(phi, phi.conj())
    v20 = np.linalg.solve(char_matrix(*sys, 2j * omega), B_pp)
    v11 = np.linalg.solve(char_matrix(*sys, 0.0), B_pc)
    h20 = forms.values(lambda th: v20 * np.exp(2j * omega * th))
    h11 = forms.values(lambda th: v11 + 0 * th)
    C = forms.C_uub(phi)
    B1 = forms.B(phi.conj(), h20)
    B2 = forms.B(phi, h11)
    c1 = 0.5 * (p.conj() @ (C + B1 + 2.0 * B2))
    dlam = transversality(model, params, param, omega, options=None) if param else None
    return Lyapunov(
        omega=float(omega), c1=complex(c1), l1=float(c1.real / omega), q=q, dlam=dlam, extra={"equilibrium": y, "p": p}
    )


# ---------------------------------------------------------------------------------------------
# seed 000 Appendix (system 26, Table II, eqs. 47-68)


class _Poly:
    """Truncated polynomials in (z, z̄) up to total degree 3: {(i, j): coefficient}."""

    def __init__(self, c=None):
        self.c = dict(c or {})

    def __add__(self, o):
        out = dict(self.c)
        for k, v in o.c.items():
            out[k] = out.get(k, 0) + v
        return _Poly(out)

    def __mul__(self, o):
        if not isinstance(o, _Poly):
            return _Poly({k: v * o for k, v in self.c.items()})
        out = {}
        for (a, b), u in self.c.items():
            for (c, d), v in o.c.items():
                if a + b + c + d <= 3:
                    out[(a + c, b + d)] = out.get((a + c, b + d), 0) + u * v
        return _Poly(out)

    __rmul__ = __mul__

    def get(self, k):
        return self.c.get(k, 0)


def appendix_ctcp_noavg(
    params: Mapping[str, object] | None = None, *, kappa_c: float = 1.0, omega: float | None = None
):
    """Seed 000 Appendix for Compound TCP-RED without averaging, system (26), at a Hopf point.

    ``params`` (C, tau, alpha, k, beta, b_min, b_max, p_max) must lie on the Hopf boundary at
    κ = ``kappa_c`` (e.g. from :func:`find_hopf`); ``omega`` is the crossing frequency (computed
    from (32) if omitted). Returns a dict with the Table II coefficients, φ1, φ2, B, g20, g11,
    g02, g21, c1(0) (eq. 67), α'(0) = Re dλ/dκ (eq. 34), μ2, β2 (eq. 68) and T2.
    """
    from aqmlab.fluid.models import get_model

    model = get_model("ctcp-red-noavg")
    P, _ = model.resolve(params)
    al, k, be = P["alpha"], P["k"], P["beta"]
    tau, C = P["tau"], P["C"]
    rho = P["p_max"] / (P["b_max"] - P["b_min"])
    y = model.equilibrium(P, 1)[:, 0]
    w = y[0]
    p = 1.0 - C * tau / w
    i0, i1 = al * w ** (k - 1), al * (k - 1) * w ** (k - 2)
    i2, i3 = al * (k - 1) * (k - 2) * w ** (k - 3), al * (k - 1) * (k - 2) * (k - 3) * w ** (k - 4)
    d0, d1 = be * w, be
    pp = rho  # p'(q*) for the affine law (25)
    # Table II (Taylor coefficients of (26) about (w*, q*); p'' = 0, d'' = 0)
    xi = {
        "x": (i1 * (1 - p) - d1 * p) * w / tau,
        "s": -pp * (i0 + d0) * w / tau,
        "xx": 0.5 * i2 * (1 - p) * w / tau,
        "xr": (i1 * (1 - p) - d1 * p) / tau,
        "xs": -pp * (i1 + d1) * w / tau,
        "rs": -pp * (i0 + d0) / tau,
        "xxx": i3 * (1 - p) * w / (6 * tau),
        "xxr": 0.5 * i2 * (1 - p) / tau,
        "xxs": -0.5 * pp * i2 * w / tau,
        "xrs": -pp * (i1 + d1) / tau,  # Table II prints a factor 1/2; the Taylor coefficient has none
    }
    chi = {"x": (1 - p) / tau, "y": -pp * w / tau, "xy": -pp / tau}
    kap = kappa_c
    if omega is None:  # eq. (32): ω+ with κ
        a1 = (pp * w + (2 - k) * i0 * (1 - p)) / tau
        a2 = pp * C * (2 - k) * i0 / tau
        a3 = pp * C * i0 / (p * tau)
        s = a1 * a1 - 2 * a2
        omega = kap * math.sqrt((-s + math.sqrt(s * s - 4 * (a2 * a2 - a3 * a3))) / 2)
    om = omega
    E1t = np.exp(-1j * om * tau)
    phi1 = kap * chi["x"] / (1j * om - kap * chi["y"])
    phi2 = -kap * chi["x"] / (kap * xi["x"] + 1j * om)
    Bn = 1.0 / (phi2 * (1 + kap * np.conj(phi1) * tau * xi["s"] * np.exp(1j * om * tau)) + np.conj(phi1))  # <q*, q> = 1
    qv = np.array([1.0, phi1])

    def F_of(u1, u1r, u2r, u2):
        F1 = (
            xi["xx"] * u1 * u1
            + xi["xr"] * u1 * u1r
            + xi["xs"] * u1 * u2r
            + xi["rs"] * u1r * u2r
            + xi["xxx"] * u1 * u1 * u1
            + xi["xxr"] * u1 * u1 * u1r
            + xi["xxs"] * u1 * u1 * u2r
            + xi["xrs"] * u1 * u1r * u2r
        ) * kap  # eq. (47), first line (nonlinear part)
        F2 = (chi["xy"] * u1 * u2) * kap  # eq. (47), second line
        return F1, F2

    def coeffs(F):
        return {"20": 2 * F.get((2, 0)), "11": F.get((1, 1)), "02": 2 * F.get((0, 2)), "21": 2 * F.get((2, 1))}

    def lin(c):  # z c + z̄ c̄
        return _Poly({(1, 0): c, (0, 1): np.conj(c)})

    u1, u1r = lin(qv[0]), lin(qv[0] * E1t)
    u2, u2r = lin(qv[1]), lin(qv[1] * E1t)
    F1, F2 = F_of(u1, u1r, u2r, u2)
    c1f, c2f = coeffs(F1), coeffs(F2)
    qs_bar = np.conj(Bn) * np.array([np.conj(phi2), 1.0])  # q̄*(0)

    def g(key):  # eq. (57)
        return qs_bar[0] * c1f[key] + qs_bar[1] * c2f[key]

    g20, g11, g02 = g("20"), g("11"), g("02")
    # eqs. (65)-(66): E and F
    A1, A2, B1, B2 = (
        kap * xi["x"] - 2j * om,
        kap * chi["x"],
        kap * xi["s"] * np.exp(-2j * om * tau),
        kap * chi["y"] - 2j * om,
    )
    Cc1, Cc2 = -c1f["20"], -c2f["20"]
    E = np.array([Cc1 * B2 - Cc2 * B1, Cc2 * A1 - Cc1 * A2]) / (A1 * B2 - A2 * B1)
    J1, J2, K1, K2, L1, L2 = -c1f["11"], -c2f["11"], kap * xi["x"], kap * chi["x"], kap * xi["s"], kap * chi["y"]
    Fv = np.array([J1 * L2 - J2 * L1, J2 * K1 - J1 * K2]) / (K1 * L2 - K2 * L1)

    def w20(th):  # eq. (62)
        return (
            (-g20 / (1j * om)) * qv * np.exp(1j * om * th)
            - (np.conj(g02) / (3j * om)) * np.conj(qv) * np.exp(-1j * om * th)
            + E * np.exp(2j * om * th)
        )

    def w11(th):
        return (
            (g11 / (1j * om)) * qv * np.exp(1j * om * th)
            - (np.conj(g11) / (1j * om)) * np.conj(qv) * np.exp(-1j * om * th)
            + Fv
        )

    def full(j, th):
        e = np.exp(1j * om * th)
        a, b = w20(th)[j], w11(th)[j]
        return _Poly({(1, 0): qv[j] * e, (0, 1): np.conj(qv[j] * e), (2, 0): a / 2, (1, 1): b, (0, 2): np.conj(a) / 2})

    F1, F2 = F_of(full(0, 0.0), full(0, -tau), full(1, -tau), full(1, 0.0))
    c1f, c2f = coeffs(F1), coeffs(F2)
    g21 = g("21")
    c1 = 1j / (2 * om) * (g20 * g11 - 2 * abs(g11) ** 2 - abs(g02) ** 2 / 3) + g21 / 2  # eq. (67)
    # α'(0) = Re dλ/dκ at κ_c, eq. (34) inverted:
    # Re(dλ/dκ)^(−1) = (2ω²κτ + τκ³(a1² − 2a2)) / (4ω²τ... ) — here from (28)
    a1 = (pp * w + (2 - k) * i0 * (1 - p)) / tau
    a2 = pp * C * (2 - k) * i0 / tau
    a3 = pp * C * i0 / (p * tau)
    lam = 1j * om
    ex = np.exp(-lam * tau)
    dF_dl = 2 * lam + kap * a1 - kap**2 * a3 * tau * ex  # d/dλ of (28)
    dF_dk = lam * a1 + 2 * kap * a2 + 2 * kap * a3 * ex  # d/dκ of (28)
    dlam = -dF_dk / dF_dl
    mu2 = -c1.real / dlam.real  # eq. (68)
    beta2 = 2 * c1.real  # eq. (68)
    T2 = -(c1.imag + mu2 * dlam.imag) / om
    return {
        "xi": xi,
        "chi": chi,
        "omega": om,
        "phi1": phi1,
        "phi2": phi2,
        "B": Bn,
        "g20": g20,
        "g11": g11,
        "g02": g02,
        "g21": g21,
        "c1": complex(c1),
        "dlam_dkappa": complex(dlam),
        "mu2": float(mu2),
        "beta2": float(beta2),
        "T2": float(T2),
        "equilibrium": y,
        "a": (a1, a2, a3),
    }
