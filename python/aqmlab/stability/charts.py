"""Stability charts: the Hopf boundary in a plane of two parameters.

:func:`hopf_chart` traces the boundary by natural-parameter continuation in x: the first point
comes from :func:`aqmlab.stability.hopf.find_hopf` (a scan of the spectral abscissa in y,
refined by Newton); each next point is predicted by secant extrapolation of (y, ω) and
corrected by Newton's method on det Δ(iω; x, y) = 0 (two real equations in y and ω); a step
that fails is halved. The crossing frequency ω and the period 2π/ω come with every point, and
every ``verify_every`` points the spectral abscissa at y(1 ± 1e-3) confirms that the rightmost
roots do change stability there. :func:`grid_chart` is the brute-force alternative (spectral
abscissa on a grid, boundary by interpolation), used for cross-checks and the benchmark.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from aqmlab.stability.hopf import find_hopf, hopf_newton, system_at
from aqmlab.stability.linearise import StabilityError, linearise_batch, resolve_model
from aqmlab.stability.roots import characteristic_roots

__all__ = ["Chart", "hopf_chart", "grid_chart", "stable_side"]


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
        from aqmlab.stability.notebook import chart_text

        return chart_text(self)

    def _repr_html_(self) -> str:
        from aqmlab.stability.notebook import chart_html

        return chart_html(self)


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
