"""A batch integrator for delay-differential equations with constant delays.

Method of steps with the classical fixed-step Runge-Kutta method of order 4 and a cubic
Hermite (dense) history: every step stores the state ``y_k`` and its derivative ``f_k``, so a
delayed value at any time ``s`` in ``[t_j, t_{j+1}]`` is the cubic Hermite interpolant of
``(y_j, f_j, y_{j+1}, f_{j+1})`` (local error O(h^4), which keeps the global order 4 as long as
the derivative discontinuities propagated from t = 0 fall on grid points, e.g. delays that are
multiples of ``h``). Times ``s <= 0`` are taken from the history (constant or a function).

* Several delays per system, each either one value for the whole batch or one per point.
  Zero delays are allowed (the stage value is used); non-zero delays must be ``>= h``.
* The whole batch advances together: one call integrates thousands of parameter points.
* Projections onto the physical region (queues in [0, B], probabilities in [0, 1], ...) are
  applied to every stage value and to every accepted step, consistently.
* Only a ring buffer covering the longest delay is kept; states are recorded every
  ``record_dt`` seconds from ``record_from`` on.
* Deterministic: no randomness, fixed step, fixed operation order.
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Callable, Mapping

import numpy as np

from aqmlab.fluid.models.base import DiscreteMap, FluidError, FluidModel, Params, clip
from aqmlab.fluid.result import FluidResult

__all__ = ["integrate", "iterate_map", "grid", "make_history"]


def grid(**axes) -> dict[str, np.ndarray]:
    """The Cartesian product of parameter axes, as a batch: ``grid(gamma=[...], tau=[...])``."""
    names = list(axes)
    values = [np.asarray(axes[name], dtype=float).reshape(-1) for name in names]
    mesh = np.meshgrid(*values, indexing="ij")
    return {name: array.reshape(-1) for name, array in zip(names, mesh, strict=True)}


def _hermite(theta):
    theta2 = theta * theta
    theta3 = theta2 * theta
    return (2 * theta3 - 3 * theta2 + 1, theta3 - 2 * theta2 + theta, -2 * theta3 + 3 * theta2, theta3 - theta2)


def make_history(model: FluidModel, P: Params, size: int, history, perturbation: float):
    """Turn ``history`` into ``(constant (n, B) array or None, callable or None)``."""
    n = model.n_states
    if callable(history):

        def function(t):
            value = np.asarray(history(t), dtype=float)
            return np.ascontiguousarray(np.broadcast_to(value, (n, size)))

        return None, function
    if isinstance(history, str):
        if history not in ("equilibrium", "perturbed"):
            raise FluidError(
                f"history = {history!r}; allowed: 'equilibrium', 'perturbed', a constant state "
                "(n_states,) or (n_states, B), or a function of t"
            )
        y = np.array(model.equilibrium(P, size), dtype=float)
        if history == "perturbed":
            y *= 1.0 + perturbation
            model.project(y, P)
        return y, None
    value = np.asarray(history, dtype=float)
    if value.ndim == 1:
        if value.shape != (n,):
            raise FluidError(
                f"history has shape {value.shape}; allowed: ({n},) for states {model.state_names}, or ({n}, {size})"
            )
        value = np.repeat(value[:, None], size, axis=1)
    if value.shape != (n, size):
        raise FluidError(f"history has shape {value.shape}; allowed: ({n},) or ({n}, {size})")
    value = value.copy()
    model.project(value, P)
    return value, None


class _LagPlan:
    """Where the delayed value for one (stage offset c, delay) pair sits in the ring buffer:
    index ``k + off`` (step k), Hermite weights for ``theta``."""

    __slots__ = ("zero", "uniform", "off", "theta", "w", "off_min", "off_max", "seconds", "zero_mask")

    def __init__(self, c: float, delay, h: float, size: int):
        ratio = np.asarray(delay, dtype=float) / h
        snapped = np.round(ratio)
        ratio = np.where(np.abs(ratio - snapped) < 1e-9 * np.maximum(1.0, ratio), snapped, ratio)
        self.seconds = np.asarray(delay, dtype=float)
        self.zero = bool(np.all(ratio == 0))
        # points whose delay is 0 while others' is not: they take the stage value
        self.zero_mask = None if self.zero or not np.any(ratio == 0) else np.broadcast_to(ratio == 0, (size,)).copy()
        shift = c - ratio
        off = np.floor(shift)
        theta = shift - off
        self.uniform = ratio.ndim == 0 or bool(np.all(ratio == ratio.flat[0]))
        if self.uniform:
            self.off = int(off.flat[0])
            self.theta = float(theta.flat[0])
            self.w = tuple(float(v) * s for v, s in zip(_hermite(self.theta), (1.0, h, 1.0, h), strict=True))
            self.off_min = self.off_max = self.off
        else:
            self.off = np.broadcast_to(off.astype(np.int64), (size,)).copy()
            self.theta = np.broadcast_to(theta, (size,)).copy()
            self.w = tuple(v * s for v, s in zip(_hermite(self.theta), (1.0, h, 1.0, h), strict=True))
            self.off_min, self.off_max = int(self.off.min()), int(self.off.max())


def integrate(
    model: FluidModel | DiscreteMap,
    params: Mapping[str, object] | None = None,
    *,
    t_end: float = 200.0,
    h: float | None = None,
    steps_per_delay: int = 20,
    history="perturbed",
    perturbation: float = 0.1,
    record_dt: float | None = None,
    record_from: float = 0.0,
    max_samples: int = 4000,
    method: str = "rk4",
    progress: Callable[[float, float], None] | None = None,
) -> FluidResult:
    """Integrate ``model`` for a batch of parameter points from t = 0 to ``t_end`` seconds.

    ``params`` maps parameter names to values; list values are the batch (see
    :meth:`FluidModel.resolve`; :func:`grid` builds Cartesian products). ``h`` defaults to
    the smallest non-zero delay of the batch divided by ``steps_per_delay``. ``history`` is
    'perturbed' (the equilibrium times ``1 + perturbation``), 'equilibrium', a constant state,
    or a function ``history(t) -> (n_states, B)`` for ``t <= 0``. The result keeps samples every
    ``record_dt`` seconds (default: at most ``max_samples`` samples) from ``record_from`` on.
    ``method`` is 'rk4' (classical Runge-Kutta, order 4) or 'rk3' (Kutta's order-3 method,
    three right-hand-side evaluations per step instead of four).
    """
    if isinstance(model, DiscreteMap):
        steps = None if t_end is None else t_end
        return iterate_map(model, params, steps=steps, history=history, perturbation=perturbation)
    started = _time.perf_counter()
    if method not in ("rk4", "rk3"):
        raise FluidError(f"method = {method!r}; allowed: 'rk4' (classical, order 4), 'rk3' (Kutta, order 3)")
    P, size = model.resolve(params)
    if not (isinstance(t_end, (int, float)) and t_end > 0 and math.isfinite(t_end)):
        raise FluidError(f"t_end = {t_end!r}; allowed: a positive number of seconds")
    delays = [np.broadcast_to(np.asarray(d, dtype=float), (size,)) if np.ndim(d) else float(d) for d in model.delays(P)]
    positive = [float(np.min(np.asarray(d)[np.asarray(d) > 0])) for d in delays if np.any(np.asarray(d) > 0)]
    if any(np.any(np.asarray(d) < 0) for d in delays):
        raise FluidError("a delay is negative; allowed: delays >= 0")
    if h is None and not positive:
        h = model.default_step(P)
    if h is None:
        if not positive:
            raise FluidError(f"model {model.name} has no positive delay here; allowed: give the step h explicitly")
        h = min(positive) / steps_per_delay
    if not (h > 0 and math.isfinite(h)):
        raise FluidError(f"h = {h!r}; allowed: a positive step in seconds")
    for d in positive:
        if d < h * (1 - 1e-9):
            raise FluidError(f"h = {h:g} s is longer than the delay {d:g} s; allowed: h <= the smallest non-zero delay")
    n_steps = int(math.ceil(t_end / h - 1e-9))
    if record_dt is None:
        record_every = max(1, int(math.ceil(n_steps / max_samples)))
    else:
        if not record_dt > 0:
            raise FluidError(f"record_dt = {record_dt!r}; allowed: a positive number of seconds")
        record_every = max(1, int(round(record_dt / h)))
    first_record = int(math.ceil(max(0.0, record_from) / h - 1e-9))
    first_record = int(math.ceil(first_record / record_every) * record_every)
    record_steps = np.arange(first_record, n_steps + 1, record_every)
    if record_steps.size == 0:
        raise FluidError(f"record_from = {record_from:g} s is after t_end = {t_end:g} s; allowed: record_from <= t_end")

    n = model.n_states
    constant, hist_fn = make_history(model, P, size, history, perturbation)
    y = constant.copy() if constant is not None else hist_fn(np.zeros(size))
    model.project(y, P)
    Q = model.prepare(P)

    max_ratio = max((float(np.max(d)) / h for d in delays), default=0.0)
    ring = int(math.ceil(max_ratio)) + 3
    Y = np.zeros((ring, n, size))
    F = np.zeros((ring, n, size))
    plans = {c: [_LagPlan(c, d, h, size) for d in delays] for c in (0.0, 0.5, 1.0)}
    n_delays = len(delays)
    arange = np.arange(size)

    def history_at(seconds):
        if constant is not None:
            return constant
        return hist_fn(seconds)

    def lags(k: int, c: float, stage: np.ndarray, out: np.ndarray) -> np.ndarray:
        t_stage = (k + c) * h
        for d, plan in enumerate(plans[c]):
            target = out[d]
            if plan.zero:
                target[...] = stage
                continue
            if plan.uniform:
                j = k + plan.off
                if j < 0:
                    target[...] = history_at(np.full(size, t_stage) - plan.seconds)
                    continue
                a0, b0, a1, b1 = plan.w
                i0 = j % ring
                if plan.theta == 0.0:
                    target[...] = Y[i0]
                    continue
                i1 = (j + 1) % ring
                np.multiply(Y[i0], a0, out=target)
                target += b0 * F[i0]
                target += a1 * Y[i1]
                target += b1 * F[i1]
                continue
            j = k + plan.off
            i0 = j % ring
            i1 = (j + 1) % ring
            a0, b0, a1, b1 = plan.w
            value = (
                a0 * Y[i0, :, arange].T + b0 * F[i0, :, arange].T + a1 * Y[i1, :, arange].T + b1 * F[i1, :, arange].T
            )
            if k + plan.off_min < 0:
                early = j < 0
                value = np.where(early, history_at(t_stage - plan.seconds), value)
            if plan.zero_mask is not None:
                value = np.where(plan.zero_mask, stage, value)
            target[...] = value
        return out

    lag0 = np.empty((n_delays, n, size))
    lag_half = np.empty((n_delays, n, size))
    lag1 = np.empty((n_delays, n, size))
    stage = np.empty((n, size))
    acc = np.empty((n, size))
    samples = np.empty((record_steps.size, n, size))
    record_index = 0
    if record_steps[0] == 0:
        samples[0] = y
        record_index = 1
    rhs = model.rhs
    project = _projector(model, Q, n, size)
    half = 0.5 * h
    sixth = h / 6.0
    report_every = max(1, n_steps // 200)
    # delayed values that are really the current stage (zero delays, for all or some points)
    zero0 = [(d, plan.zero_mask) for d, plan in enumerate(plans[0.0]) if plan.zero or plan.zero_mask is not None]
    zero_half = [(d, plan.zero_mask) for d, plan in enumerate(plans[0.5]) if plan.zero or plan.zero_mask is not None]
    Y[0] = y
    lags(0, 0.0, y, lag0)
    rk4 = method == "rk4"
    for k in range(n_steps):
        t = k * h
        k1 = rhs(t, y, lag0, Q)
        F[k % ring] = k1
        np.multiply(k1, half, out=stage)
        stage += y
        project(stage)
        lags(k, 0.5, stage, lag_half)  # the same delayed values serve both mid-point stages
        k2 = rhs(t + half, stage, lag_half, Q)
        if rk4:
            np.multiply(k2, 2.0, out=acc)
            acc += k1
            np.multiply(k2, half, out=stage)
            stage += y
            project(stage)
            _refresh(zero_half, stage, lag_half)
            k3 = rhs(t + half, stage, lag_half, Q)
            k3 *= 2.0
            acc += k3
            np.multiply(k3, half, out=stage)  # k3 is doubled: h/2 * 2 k3 = h k3
        else:  # Kutta's third-order method: y + h(-k1 + 2 k2) for the last stage
            np.multiply(k2, 4.0, out=acc)
            acc += k1
            np.multiply(k2, 2.0 * h, out=stage)
            stage -= h * k1
        stage += y
        project(stage)
        lags(k, 1.0, stage, lag1)
        k4 = rhs(t + h, stage, lag1, Q)
        acc += k4
        acc *= sixth
        y = y + acc
        project(y)
        Y[(k + 1) % ring] = y
        lag0, lag1 = lag1, lag0  # the delayed values at t + h serve the next step's first stage
        _refresh(zero0, y, lag0)
        if record_index < record_steps.size and record_steps[record_index] == k + 1:
            samples[record_index] = y
            record_index += 1
        if progress is not None and (k + 1) % report_every == 0:
            progress((k + 1) * h, n_steps * h)
    if not np.all(np.isfinite(y)):
        bad = int(np.argmax(~np.all(np.isfinite(y), axis=0)))
        raise FluidError(
            f"integration of {model.name} diverged (non-finite state) at point {bad}; "
            "allowed: a smaller step h or parameters inside the model's range"
        )
    times = record_steps * h
    states = np.ascontiguousarray(samples.transpose(2, 0, 1))  # (B, T, n)
    derived = {key: np.ascontiguousarray(np.asarray(value).T) for key, value in model.outputs(samples, P).items()}
    return FluidResult(
        model=model.name,
        state_names=tuple(model.state_names),
        times=times,
        states=states,
        params=model.full_params(P, size),
        derived=derived,
        delays={
            name: np.broadcast_to(np.asarray(d, dtype=float), (size,)).copy()
            for name, d in zip(model.delay_names, delays, strict=True)
        },
        phase_delay=np.broadcast_to(np.asarray(model.phase_delay(P), dtype=float), (size,)).copy(),
        meta={
            "method": f"{method.upper()} + cubic Hermite history (method of steps)",
            "h": h,
            "record_dt": record_every * h,
            "t_end": n_steps * h,
            "steps": n_steps,
            "points": size,
            "wall_time_s": _time.perf_counter() - started,
            "options": getattr(model, "option_values", {}),
            "units": dict(zip(model.state_names, model.units, strict=False)),
        },
    )


def _refresh(entries, stage, out) -> None:
    for d, mask in entries:
        if mask is None:
            out[d] = stage
        else:
            np.copyto(out[d], stage, where=mask)


def _projector(model: FluidModel, Q: Params, n: int, size: int):
    """The projection as a one-argument in-place function; box constraints are applied with
    two ufunc calls on the whole state (one if there is no finite upper bound)."""
    box = model.bounds(Q)
    if box is None or type(model).project is not FluidModel.project:
        return lambda y: model.project(y, Q)
    low = np.ascontiguousarray(np.broadcast_to(np.asarray(box[0], dtype=float), (n, size)))
    high = np.ascontiguousarray(np.broadcast_to(np.asarray(box[1], dtype=float), (n, size)))
    if np.all(np.isinf(high)):
        return lambda y: np.maximum(y, low, out=y)
    return lambda y: clip(y, low, high, out=y)


def iterate_map(
    model: DiscreteMap,
    params: Mapping[str, object] | None = None,
    *,
    steps=200,
    history="perturbed",
    perturbation: float = 0.1,
) -> FluidResult:
    """Iterate a discrete feedback map ``steps`` times (one step per round-trip time)."""
    started = _time.perf_counter()
    P, size = model.resolve(params)
    steps = int(steps)
    if steps < 1:
        raise FluidError(f"steps = {steps}; allowed: >= 1")
    constant, hist_fn = make_history(model, P, size, history, perturbation)  # type: ignore[arg-type]
    y = constant if constant is not None else hist_fn(np.zeros(size))
    samples = np.empty((steps + 1, model.n_states, size))
    samples[0] = y
    for k in range(steps):
        y = model.step(y, P)
        samples[k + 1] = y
    period = np.broadcast_to(np.asarray(model.period(P), dtype=float), (size,))
    times = np.arange(steps + 1, dtype=float)
    return FluidResult(
        model=model.name,
        state_names=tuple(model.state_names),
        times=times,
        states=np.ascontiguousarray(samples.transpose(2, 0, 1)),
        params=model.full_params(P, size),
        derived={key: np.ascontiguousarray(np.asarray(v).T) for key, v in model.outputs(samples, P).items()},
        delays={"rtt": period.copy()},
        phase_delay=np.ones(size),
        meta={
            "method": "discrete map (time axis in steps of one RTT)",
            "steps": steps,
            "points": size,
            "time_unit": "rtt",
            "wall_time_s": _time.perf_counter() - started,
            "options": getattr(model, "option_values", {}),
            "units": dict(zip(model.state_names, model.units, strict=False)),
        },
    )
