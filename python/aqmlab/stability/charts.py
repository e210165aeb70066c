"""Stability charts: the Hopf boundary in a plane of two parameters.

:func:`hopf_chart` traces the boundary by natural-parameter continuation in x: the first point
comes from :func:`aqmlab.stability.hopf.find_hopf` (a scan of the spectral abscissa in y,
refined by Newton); each next point is predicted by secant extrapolation of (y, ω) and
corrected by Newton's method on det Δ(iω; x, y) = 0 (two real equations in y and ω); a step
that fails is halved. The crossing frequency ω and the period 2π/ω come with every point, and
every ``verify_every`` points the spectral abscissa at y(1 ± 1e-3) confirms that the rightmost
roots do change stability there. :func:`grid_chart` is the brute-force alternative (spectral
abscissa on a grid, boundary by interpolation), used for cross-checks and the benchmark.
:func:`hopf_curve` continues the Hopf curve by pseudo-arclength in (x, y, ω) on a bordered
characteristic matrix, through folds where x turns back (issue 33).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from aqmlab import _repr
from aqmlab.stability.hopf import find_hopf, hopf_newton, system_at
from aqmlab.stability.linearise import StabilityError, linearise_batch, resolve_model
from aqmlab.stability.roots import char_matrix, char_matrix_derivative, characteristic_roots

__all__ = ["Chart", "hopf_chart", "hopf_curve", "grid_chart", "stable_side"]


@dataclass
class Chart:
    model: str
    x: str
    y: str
    xs: np.ndarray
    ys: np.ndarray
    omega: np.ndarray
    verified: np.ndarray
    stable_below: bool | None
    params: dict
    options: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    @property
    def period(self) -> np.ndarray:
        return 2.0 * np.pi / self.omega

    def table(self):
        import pyarrow as pa

        return pa.table(
            {self.x: self.xs, self.y: self.ys, "omega": self.omega, "period": self.period, "verified": self.verified}
        )

    def y_at(self, x: float) -> float:
        return float(np.interp(x, self.xs, self.ys))

    def __repr__(self) -> str:
        return _repr.text(self)

    def _repr_html_(self) -> str:
        return _repr.html(self)


def stable_side(model, base, x: str, y: str, xv: float, yv: float, eps: float = 0.05) -> bool:
    """True when the region below the boundary (smaller y) is the stable one."""
    systems = system_at(model, base, [{x: xv, y: yv * (1 - eps)}, {x: xv, y: yv * (1 + eps)}])
    below, above = (characteristic_roots(s, count=1).abscissa for s in systems)
    if (below < 0) == (above < 0):
        raise StabilityError(f"{model.name}: no change of stability across {y} = {yv:g} at {x} = {xv:g}")
    return below < 0


def _check(model, base, x, y, xv, yv, eps=1e-3):
    systems = system_at(model, base, [{x: xv, y: yv * (1 - eps)}, {x: xv, y: yv * (1 + eps)}])
    a = [characteristic_roots(s, count=1).abscissa for s in systems]
    return (a[0] < 0) != (a[1] < 0)


def hopf_chart(
    model,
    x: str,
    x_range: tuple[float, float],
    y: str,
    y_range: tuple[float, float] | None = None,
    params: Mapping[str, object] | None = None,
    *,
    options: Mapping[str, object] | None = None,
    points: int = 200,
    log_x: bool = False,
    verify_every: int = 25,
) -> Chart:
    """The Hopf boundary y(x) for x in ``x_range`` (``points`` values), by continuation."""
    started = time.perf_counter()
    model = resolve_model(model, options)
    base = dict(params or {})
    for name in (x, y):
        if name not in model.params:
            raise StabilityError(
                f"parameter {name!r} is not a parameter of {model.name}; allowed: {', '.join(model.params)}"
            )
    if x == y:
        raise StabilityError(f"x = y = {x!r}; allowed: two different parameters")
    lo, hi = map(float, x_range)
    if not hi > lo:
        raise StabilityError(f"x range {lo:g}:{hi:g}; allowed: LO < HI")
    if not (isinstance(points, int) and points >= 2):
        raise StabilityError(f"points = {points!r}; allowed: an integer >= 2")
    if y_range is None:
        d = model.params[y].default
        y_range = (d / 100.0, d * 100.0)
    xs = np.geomspace(lo, hi, points) if log_x else np.linspace(lo, hi, points)
    start = find_hopf(model, y, y_range[0], y_range[1], {**base, x: xs[0]})
    ys = [start.value]
    ws = [start.omega]
    done_x = [xs[0]]
    steps = 0
    for target in xs[1:]:
        x_prev = done_x[-1]
        sub = [target]
        while sub:
            xt = sub[0]
            if len(ys) >= 2:  # secant predictor in x
                t = (xt - done_x[-1]) / (done_x[-1] - done_x[-2])
                y_pred = ys[-1] + t * (ys[-1] - ys[-2])
                w_pred = ws[-1] + t * (ws[-1] - ws[-2])
                if y_pred <= 0:
                    y_pred = ys[-1]
            else:
                y_pred, w_pred = ys[-1], ws[-1]
            yv, wv, ok = hopf_newton(model, base, y, y_pred, w_pred, fixed={x: xt}, tol=1e-10, max_iter=12)
            steps += 1
            if ok and abs(yv - ys[-1]) <= 0.5 * abs(ys[-1]) + 1e-12 and wv > 0:
                if xt == target:
                    ys.append(yv)
                    ws.append(wv)
                    done_x.append(xt)
                    sub.pop(0)
                else:
                    ys.append(yv)
                    ws.append(wv)
                    done_x.append(xt)
                    sub.pop(0)
            else:
                mid = 0.5 * (done_x[-1] + xt)
                if abs(mid - done_x[-1]) < 1e-6 * max(abs(hi - lo), 1e-300):
                    sub = []
                    break
                sub.insert(0, mid)
        if done_x[-1] != target:
            break  # the boundary could not be continued (a fold or it left the y range)
        x_prev = target
    _ = x_prev
    # keep only the requested abscissae (drop the intermediate half-steps)
    done = np.array(done_x)
    keep = np.isin(done, xs)
    X, Y, W = done[keep], np.array(ys)[keep], np.array(ws)[keep]
    verified = np.zeros(X.size, dtype=bool)
    for i in list(range(0, X.size, max(1, verify_every))) + [X.size - 1]:
        verified[i] = _check(model, base, x, y, X[i], Y[i])
    mid = X.size // 2
    below = stable_side(model, base, x, y, X[mid], Y[mid])
    return Chart(
        model=model.name,
        x=x,
        y=y,
        xs=X,
        ys=Y,
        omega=W,
        verified=verified,
        stable_below=below,
        params=base,
        options=dict(getattr(model, "option_values", {})),
        meta={
            "method": "continuation",
            "newton_solves": steps,
            "wall_time_s": time.perf_counter() - started,
            "complete": bool(X.size == xs.size),
            "requested_points": int(points),
        },
    )


def grid_chart(
    model,
    x: str,
    x_range,
    y: str,
    y_range,
    params=None,
    *,
    options=None,
    nx: int = 200,
    ny: int = 40,
    log_y: bool = True,
    N: int = 16,
) -> Chart:
    """The boundary from a grid scan: spectral abscissa at nx × ny points (one batched
    linearisation), boundary by linear interpolation of the abscissa along y."""
    started = time.perf_counter()
    model = resolve_model(model, options)
    base = dict(params or {})
    xs = np.linspace(float(x_range[0]), float(x_range[1]), nx)
    ys = np.geomspace(float(y_range[0]), float(y_range[1]), ny) if log_y else np.linspace(*map(float, y_range), ny)
    XX, YY = np.meshgrid(xs, ys, indexing="ij")
    values = {k: v for k, v in base.items()}
    values[x], values[y] = XX.ravel(), YY.ravel()
    P, size = model.resolve(values)
    A0, A, delays, _ = linearise_batch(model, P, size)
    absc = np.empty(size)
    for b in range(size):
        absc[b] = characteristic_roots((A0[b], A[b], delays[b]), count=1, N=N, refine=False).abscissa
    absc = absc.reshape(nx, ny)
    out_y = np.full(nx, np.nan)
    for i in range(nx):
        s = np.sign(absc[i])
        ch = np.nonzero(s[:-1] * s[1:] < 0)[0]
        if ch.size:
            j = ch[0]
            a0, a1 = absc[i, j], absc[i, j + 1]
            out_y[i] = ys[j] + (ys[j + 1] - ys[j]) * a0 / (a0 - a1)
    return Chart(
        model=model.name,
        x=x,
        y=y,
        xs=xs,
        ys=out_y,
        omega=np.full(nx, np.nan),
        verified=np.zeros(nx, bool),
        stable_below=None,
        params=base,
        options=dict(getattr(model, "option_values", {})),
        meta={"method": f"grid {nx}x{ny}", "wall_time_s": time.perf_counter() - started},
    )


_ = math


def _bordered(D: np.ndarray, b: np.ndarray, c: np.ndarray):
    """The bordered system [[Δ, b], [cᴴ, 0]] [v; s] = [0; 1] and its adjoint: s = 0 exactly when
    Δ is singular, and ∂s = −wᴴ ∂Δ v (Govaerts, Numerical Methods for Bifurcations of
    Dynamical Equilibria, SIAM 2000, §3.4: bordered matrices). Returns (s, v, w)."""
    n = D.shape[0]
    M = np.zeros((n + 1, n + 1), dtype=complex)
    M[:n, :n] = D
    M[:n, n] = b
    M[n, :n] = c.conj()
    rhs = np.zeros(n + 1, dtype=complex)
    rhs[n] = 1.0
    vs = np.linalg.solve(M, rhs)
    wt = np.linalg.solve(M.conj().T, rhs)
    return vs[n], vs[:n], wt[:n]


def hopf_curve(
    model,
    x: str,
    y: str,
    start: tuple[float, float],
    params: Mapping[str, object] | None = None,
    *,
    options: Mapping[str, object] | None = None,
    omega: float | None = None,
    steps: int = 200,
    step: float = 0.02,
    max_step: float = 0.1,
    x_range=None,
    y_range=None,
) -> Chart:
    """The Hopf curve through ``start`` = (x, y) (a Hopf point, e.g. from :func:`find_hopf`,
    with crossing frequency ``omega``), continued by pseudo-arclength in (x, y, ω), so it passes
    folds (where x turns back) that :func:`hopf_chart` stops at.

    Equations: s(x, y, ω) = 0 with s the border of the bordered characteristic matrix
    (:func:`_bordered`; borders the null vectors at the previous point), the corrector on the
    hyperplane orthogonal to the secant in the scaled norm (x/|x_0|, y/|y_0|, ω/ω_0) (Keller's
    pseudo-arclength; Allgower and Georg 1990, ch. 2). ∂Δ/∂x and ∂Δ/∂y are 4-point central
    differences (h = 1e-4 relative) of the exact linearisations; ∂Δ/∂ω = iΔ'(iω). ``step`` is
    the first arclength step in the scaled norm; folds (x turning back) are listed in
    ``meta['folds']`` (indices). The points are in continuation order (``y_at`` assumes a
    monotone x: use ``xs``/``ys`` directly past a fold).
    """
    started = time.perf_counter()
    model = resolve_model(model, options)
    base = dict(params or {})
    x0, y0 = map(float, start)
    if omega is None:
        omega = find_hopf(model, y, y0 * (1 - 1e-3), y0 * (1 + 1e-3), {**base, x: x0}).omega
    scale = np.array([abs(x0) or 1.0, abs(y0) or 1.0, abs(omega)])
    xr = (-math.inf, math.inf) if x_range is None else tuple(map(float, x_range))
    yr = (-math.inf, math.inf) if y_range is None else tuple(map(float, y_range))

    def pieces(z):
        xv, yv, w = z
        hx, hy = 1e-4 * max(abs(xv), 1e-12), 1e-4 * max(abs(yv), 1e-12)
        pts = [{x: xv, y: yv}]
        pts += [{x: xv + o * hx, y: yv} for o in (1, -1, 2, -2)]
        pts += [{x: xv, y: yv + o * hy} for o in (1, -1, 2, -2)]
        systems = system_at(model, base, pts)
        lam = 1j * w
        C = [char_matrix(*s, lam) for s in systems]
        dx = (8 * (C[1] - C[2]) - (C[3] - C[4])) / (12 * hx)
        dy = (8 * (C[5] - C[6]) - (C[7] - C[8])) / (12 * hy)
        dw = 1j * char_matrix_derivative(*systems[0], lam)
        return C[0], dx, dy, dw, systems[0]

    def null(D):
        U, _, Vh = np.linalg.svd(D)
        return U[:, -1], Vh[-1].conj()

    def correct(z, b, c, tangent=None, z_pred=None, max_iter=12):
        for _ in range(max_iter):
            D, dx, dy, dw, _ = pieces(z)
            s, v, w = _bordered(D, b, c)
            grads = [-(w.conj() @ dM @ v) for dM in (dx, dy, dw)]
            J = np.array([[g.real for g in grads], [g.imag for g in grads], [0.0, 0.0, 0.0]])
            F = np.array([s.real, s.imag, 0.0])
            if tangent is None:  # x fixed
                J[2] = [1.0, 0.0, 0.0]
            else:
                J[2] = tangent / scale
                F[2] = float(tangent @ ((z - z_pred) / scale))
            try:
                dz = np.linalg.solve(J, -F)
            except np.linalg.LinAlgError:
                return z, False
            z = z + dz
            if np.all(np.abs(dz) <= 1e-11 * np.maximum(np.abs(z), 1e-300)):
                return z, True
        return z, False

    z = np.array([x0, y0, float(omega)])
    b, c = null(pieces(z)[0])
    z, ok = correct(z, b, c)
    if not ok:
        raise StabilityError(f"{model.name}: ({x} = {x0:g}, {y} = {y0:g}) is not a Hopf point (Newton failed)")
    points, folds = [z.copy()], []
    tangent = None
    h = float(step)
    # first tangent: the null direction of the 2 x 3 Jacobian of s (scaled)
    D, dx, dy, dw, _ = pieces(z)
    b, c = null(D)
    _, v, w = _bordered(D, b, c)
    g = [-(w.conj() @ dM @ v) for dM in (dx, dy, dw)]
    Jg = np.array([[q.real for q in g], [q.imag for q in g]]) * scale[None, :]
    tangent = np.linalg.svd(Jg)[2][-1]
    tangent *= np.sign(tangent[0]) or 1.0  # start towards increasing x
    stop = f"steps = {steps} reached"
    while len(points) < steps:
        for _ in range(10):
            z_pred = points[-1] + h * tangent * scale
            b, c = null(pieces(points[-1])[0])
            z_new, ok = correct(z_pred, b, c, tangent=tangent, z_pred=z_pred)
            if ok and z_new[2] > 0:
                break
            h *= 0.5
        else:
            stop = "Newton failed with the smallest step"
            break
        t_new = (z_new - points[-1]) / scale
        t_new /= np.linalg.norm(t_new)
        if np.sign(t_new[0]) != np.sign(tangent[0]) and tangent[0] != 0:
            folds.append(len(points) - 1)  # x turned back between this point and the next
        tangent = t_new
        points.append(z_new)
        h = min(1.5 * h, max_step)
        if not (xr[0] <= z_new[0] <= xr[1] and yr[0] <= z_new[1] <= yr[1]):
            stop = "the curve left the parameter ranges"
            break
    P = np.array(points)
    return Chart(
        model=model.name,
        x=x,
        y=y,
        xs=P[:, 0],
        ys=P[:, 1],
        omega=P[:, 2],
        verified=np.ones(len(P), dtype=bool),
        stable_below=None,
        params=base,
        options=dict(getattr(model, "option_values", {})),
        meta={
            "method": "pseudo-arclength",
            "folds": folds,
            "stop": stop,
            "wall_time_s": time.perf_counter() - started,
        },
    )
