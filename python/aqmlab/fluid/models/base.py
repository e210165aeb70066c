"""The fluid-model protocol: a small object with state names, parameters (defaults, units),
delays, a right-hand side vectorised over a batch of parameter points, projections onto the
physical region, and an equilibrium.

Array conventions (used by every model and by :func:`aqmlab.fluid.integrate.integrate`):

* a batch of ``B`` parameter points; a parameter value is a Python float when it is the same
  for every point, otherwise a float array of shape ``(B,)``;
* states are *state-major*: ``y`` has shape ``(n_states, B)``, so ``y[0]`` is the first state
  for every point (contiguous, cheap to slice);
* delayed states: ``lag`` has shape ``(n_delays, n_states, B)``; ``lag[d]`` is the whole state
  at ``t - delays[d]`` (for each point its own delay value).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

__all__ = ["FluidError", "Param", "FluidModel", "DiscreteMap", "bisect_batch", "Params", "clip"]

Params = dict  # name -> float | np.ndarray of shape (B,)

try:  # the clip ufunc (one call instead of np.clip's Python wrapper: matters in the hot loop)
    clip = np._core.umath.clip  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - older numpy

    def clip(x, low, high, out=None):
        return np.minimum(np.maximum(x, low), high, out=out)


class FluidError(ValueError):
    """Bad input to a fluid model or the integrator; the message names the field, the value
    and what is allowed."""


@dataclass(frozen=True)
class Param:
    """A model parameter: default value, unit (SI or packets), meaning, and allowed range."""

    default: float
    unit: str
    doc: str
    low: float = -math.inf
    high: float = math.inf
    low_open: bool = False  # True: value must be > low (not >=)
    allow_inf: bool = False  # True: +inf is accepted (e.g. an unlimited buffer)

    def allowed(self) -> str:
        lo = "-inf" if self.low == -math.inf else f"{self.low:g}"
        hi = "inf" if self.high == math.inf else f"{self.high:g}"
        return f"{'(' if self.low_open else '['}{lo}, {hi}]"


class _ModelBase:
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    source: ClassVar[str] = ""
    #: Constructor options (name -> (default, allowed values or description)); for the CLI.
    options: ClassVar[dict[str, tuple[object, str]]] = {}

    state_names: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    params: dict[str, Param] = {}

    @property
    def n_states(self) -> int:
        return len(self.state_names)

    def index(self, state: str) -> int:
        try:
            return self.state_names.index(state)
        except ValueError:
            raise FluidError(
                f"state = {state!r} is not a state of {self.name}; allowed: {', '.join(self.state_names)}"
            ) from None

    # ---- parameters -------------------------------------------------------------------
    def resolve(self, values: Mapping[str, object] | None = None) -> tuple[Params, int]:
        """Validate parameter values and broadcast them to one batch.

        ``values`` maps names to numbers or 1-d sequences; sequences of length > 1 must all
        have the same length ``B`` (that is the batch); missing names take their defaults.
        Returns ``(P, B)`` where uniform values are floats and the others ``(B,)`` arrays.
        """
        values = dict(values or {})
        unknown = [key for key in values if key not in self.params]
        if unknown:
            raise FluidError(
                f"parameter {unknown[0]!r} is not a parameter of model {self.name}; allowed: {', '.join(self.params)}"
            )
        arrays: dict[str, np.ndarray] = {}
        size = 1
        for key, spec in self.params.items():
            raw = values.get(key, spec.default)
            try:
                array = np.asarray(raw, dtype=float).reshape(-1)
            except (TypeError, ValueError):
                raise FluidError(
                    f"parameter {key} = {raw!r} of model {self.name} is not a number; "
                    f"allowed: numbers in {spec.allowed()} {spec.unit}"
                ) from None
            if array.size == 0:
                raise FluidError(
                    f"parameter {key} of model {self.name} is empty; allowed: a number or a list of numbers"
                )
            bad = (
                (np.isnan(array) | (np.isinf(array) & ~(spec.allow_inf & (array > 0))))
                | (array < spec.low)
                | (array > spec.high)
                | ((array == spec.low) & spec.low_open)
            )
            if bad.any():
                raise FluidError(
                    f"parameter {key} = {array[bad][0]:g} of model {self.name} is out of range; "
                    f"allowed: {spec.allowed()} {spec.unit}"
                )
            if array.size > 1:
                if size > 1 and array.size != size:
                    raise FluidError(
                        f"parameter {key} has {array.size} values but another parameter has {size}; "
                        "allowed: one value or the same number of values for every swept parameter"
                    )
                size = array.size
            arrays[key] = array
        P: Params = {}
        for key, array in arrays.items():
            if array.size == 1 or np.all(array == array[0]):
                P[key] = float(array[0])
            else:
                P[key] = array
        self.check(P)
        return P, size

    def prepare(self, P: Params) -> Params:
        """Derived constants for the hot loop, added to a copy of ``P`` (keys start with '_');
        the integrator calls it once and passes the result to ``rhs``/``project``."""
        return P

    def bounds(self, P: Params):
        """Box constraints ``(low, high)``, each broadcastable to ``(n_states, B)``, or None;
        the default :meth:`project` clips onto them."""
        return None

    def project(self, y: np.ndarray, P: Params) -> None:
        """Project ``y`` onto the physical region, in place (default: clip onto :meth:`bounds`)."""
        box = self.bounds(P)
        if box is not None:
            np.maximum(y, box[0], out=y)
            np.minimum(y, box[1], out=y)

    def check(self, P: Params) -> None:
        """Cross-parameter validation (override); raise FluidError."""

    def describe(self) -> str:
        lines = [f"{self.name}: {self.title}", f"  source: {self.source}", f"  states: {', '.join(self.state_names)}"]
        for key, spec in self.params.items():
            lines.append(f"  {key} = {spec.default:g} {spec.unit}  {spec.doc}")
        return "\n".join(lines)

    def full_params(self, P: Params, size: int) -> dict[str, np.ndarray]:
        """Every parameter as a ``(B,)`` array (for results)."""
        return {key: np.broadcast_to(np.asarray(value, dtype=float), (size,)).copy() for key, value in P.items()}


class FluidModel(_ModelBase):
    """A delay-differential fluid model (override the methods below)."""

    kind: ClassVar[str] = "dde"
    delay_names: tuple[str, ...] = ()

    def delays(self, P: Params) -> list:
        """The delays (seconds), one entry per ``delay_names``: float or ``(B,)`` array."""
        raise NotImplementedError

    def rhs(self, t: float, y: np.ndarray, lag: np.ndarray, P: Params) -> np.ndarray:
        """dy/dt, shape ``(n_states, B)``."""
        raise NotImplementedError

    def equilibrium(self, P: Params, size: int) -> np.ndarray:
        """The equilibrium, shape ``(n_states, B)``."""
        raise NotImplementedError

    def outputs(self, states: np.ndarray, P: Params) -> dict[str, np.ndarray]:
        """Derived quantities from recorded states of shape ``(..., n_states, B)``."""
        return {}

    def default_step(self, P: Params):
        """A step for models without positive delays (override); None: the caller must give h."""
        return None

    def phase_delay(self, P: Params):
        """The delay used for phase portraits ``x(t)`` vs ``x(t - tau)``."""
        return self.delays(P)[0] if self.delay_names else 0.0

    def residual(self, y: np.ndarray, P: Params) -> np.ndarray:
        """|dy/dt| at a constant state ``y`` (history equal to ``y``), scaled per state by
        ``max(1, |y|)``: the equilibrium test."""
        size = y.shape[1]
        n_delays = len(self.delay_names)
        lag = np.broadcast_to(y, (n_delays, *y.shape)) if n_delays else np.empty((0, *y.shape))
        dy = self.rhs(0.0, y.copy(), np.ascontiguousarray(lag), self.prepare(P))
        return np.abs(dy) / np.maximum(1.0, np.abs(y)) if size else dy


class DiscreteMap(_ModelBase):
    """A discrete-time feedback map (one step per round-trip time)."""

    kind: ClassVar[str] = "map"

    def step(self, y: np.ndarray, P: Params) -> np.ndarray:
        raise NotImplementedError

    def period(self, P: Params):
        """Seconds per step."""
        raise NotImplementedError

    def equilibrium(self, P: Params, size: int) -> np.ndarray:
        raise NotImplementedError

    def outputs(self, states: np.ndarray, P: Params) -> dict[str, np.ndarray]:
        return {}

    def residual(self, y: np.ndarray, P: Params) -> np.ndarray:
        return np.abs(self.step(y.copy(), P) - y) / np.maximum(1.0, np.abs(y))


def bisect_batch(
    function: Callable[[np.ndarray], np.ndarray], low, high, *, iterations: int = 200, what: str = "equilibrium"
) -> np.ndarray:
    """Vectorised bracketing root finder for ``function(x) = 0`` on ``[low, high]`` (arrays of
    shape (B,)); the sign change is checked.

    Bisection until every bracket is within 1e-3 relative, then regula falsi with the Illinois
    modification (Dowell and Jarratt, BIT 11 (1971) 168-174: the value at an end point kept
    twice in a row is halved), which keeps the bracket and converges superlinearly, until the
    bracket or the step is within 4e-16 relative or an exact zero is hit: ~18 evaluations
    where bisection alone took ~55 (the stability tools recompute equilibria at every Newton
    step of a Hopf curve)."""
    low = np.array(low, dtype=float)
    high = np.array(high, dtype=float)
    f_low = function(low)
    f_high = function(high)
    if np.any(np.sign(f_low) == np.sign(f_high)):
        bad = int(np.argmax(np.sign(f_low) == np.sign(f_high)))
        raise FluidError(
            f"{what}: no sign change in [{low.flat[bad]:g}, {high.flat[bad]:g}] at point {bad}; "
            "allowed: parameters for which the equilibrium exists"
        )
    for _ in range(iterations):
        mid = 0.5 * (low + high)
        f_mid = function(mid)
        left = np.sign(f_mid) == np.sign(f_low)
        low = np.where(left, mid, low)
        f_low = np.where(left, f_mid, f_low)
        high = np.where(left, high, mid)
        f_high = np.where(left, f_high, f_mid)
        if np.all(high - low <= 1e-3 * np.maximum(1.0, np.abs(high))):
            break
    f_low = np.asarray(f_low, dtype=float)
    f_high = np.asarray(f_high, dtype=float)
    side = np.zeros(np.shape(low), dtype=int)  # the end point kept last: −1 low, +1 high
    exact = np.zeros(np.shape(low), dtype=bool)  # converged: an exact zero or a step below 4e-16
    root = 0.5 * (low + high)
    previous = np.full(np.shape(low), np.nan)
    for _ in range(iterations):
        tight = high - low <= 4e-16 * np.maximum(1.0, np.abs(high))
        if np.all(exact | tight):
            break
        with np.errstate(divide="ignore", invalid="ignore"):
            x = (low * f_high - high * f_low) / (f_high - f_low)  # regula falsi
        # the secant through the end points lands on one of them: that end is the root to rounding
        at_end = np.isfinite(x) & ((x <= low) | (x >= high)) & ~exact & ~tight
        root = np.where(at_end, np.clip(x, low, high), root)
        exact |= at_end
        x = np.where((x > low) & (x < high), x, 0.5 * (low + high))
        f_x = np.asarray(function(x), dtype=float)
        # done: f(x) = 0, or the step from the previous iterate is at rounding level (near the
        # root the values are rounding noise and the bracket would only shrink from one side)
        hit = ((f_x == 0) | (np.abs(x - previous) <= 4e-16 * np.maximum(1.0, np.abs(x)))) & ~exact & ~tight
        root = np.where(hit, x, root)
        exact |= hit
        previous = x
        left = np.sign(f_x) == np.sign(f_low)  # the root lies in [x, high]
        f_high = np.where(left & (side == 1), 0.5 * f_high, f_high)  # Illinois
        f_low = np.where(~left & (side == -1), 0.5 * f_low, f_low)
        side = np.where(left, 1, -1)
        low, f_low = np.where(left, x, low), np.where(left, f_x, f_low)
        high, f_high = np.where(left, high, x), np.where(left, f_high, f_x)
    return np.where(exact, root, 0.5 * (low + high))
