"""Bifurcation diagrams (limit-cycle amplitude against a parameter) from batch integration,
and the check of the square-root law near a supercritical Hopf point.

All parameter values are integrated in one call of :func:`aqmlab.fluid.integrate` (the batch
integrator), from the equilibrium perturbed by ``perturbation``; the amplitude is half the
peak-to-peak excursion of a state over the last ``tail`` of the run. Near a supercritical Hopf
point p_c the amplitude follows A ≈ K sqrt(p − p_c) with K = 2|q_j| / sqrt(μ2) from the normal
form (:class:`aqmlab.stability.hopf.Lyapunov`); :func:`sqrt_law_fit` fits A² = s (p − p0) by
least squares and returns s, p0 and the relative spread of A²/(p − p_c).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from aqmlab import _repr
from aqmlab.stability.linearise import StabilityError, resolve_model

__all__ = ["Diagram", "bifurcation_diagram", "sqrt_law_fit"]


@dataclass
class Diagram:
    model: str
    param: str
    state: str
    values: np.ndarray
    amplitude: np.ndarray
    mean: np.ndarray
    period: np.ndarray
    params: dict
    meta: dict = field(default_factory=dict)
    #: The collocated periodic-orbit branch from the Hopf point (aqmlab.stability.orbits), if computed.
    orbits: object | None = None

    def _repr_html_(self) -> str:
        """Jupyter: the Hopf point and the branch's end beside amplitude and period against the
        parameter (integration dots; orbit branch stable solid, unstable dashed)."""
        return _repr.html(self)

    def table(self):
        import pyarrow as pa

        return pa.table(
            {
                self.param: self.values,
                f"amplitude_{self.state}": self.amplitude,
                f"mean_{self.state}": self.mean,
                "period": self.period,
            }
        )


def bifurcation_diagram(
    model,
    param: str,
    values,
    params: Mapping[str, object] | None = None,
    *,
    state: str | None = None,
    options: Mapping[str, object] | None = None,
    t_end: float | None = None,
    tail: float = 0.2,
    perturbation: float = 0.05,
    steps_per_delay: int = 20,
    method: str = "rk4",
    orbits: bool = False,
) -> Diagram:
    """Amplitude of ``state`` (default: the first) against ``param`` = ``values`` (one batch).
    With ``orbits`` also the branch of periodic orbits from the Hopf point in the range of
    ``values`` (:func:`aqmlab.stability.orbits.orbit_branch`), shown by the notebook display."""
    from aqmlab.fluid.integrate import integrate

    model = resolve_model(model, options)
    if param not in model.params:
        raise StabilityError(
            f"param = {param!r} is not a parameter of {model.name}; allowed: {', '.join(model.params)}"
        )
    values = np.asarray(values, dtype=float).reshape(-1)
    if values.size < 1:
        raise StabilityError("values: empty; allowed: one or more parameter values")
    state = state or model.state_names[0]
    model.index(state)
    base = dict(params or {})
    base[param] = values
    if t_end is None:
        P, _ = model.resolve(base)
        tau = max(float(np.max(np.asarray(d))) for d in model.delays(P)) if model.delay_names else 1.0
        t_end = 600.0 * tau
    result = integrate(
        model,
        base,
        t_end=t_end,
        steps_per_delay=steps_per_delay,
        perturbation=perturbation,
        method=method,
        max_samples=20000,
    )
    amp = result.amplitude(state, tail=tail)
    mean = result.mean(state, tail=tail)
    period = result.period(state, tail=tail)
    branch = None
    if orbits:
        from aqmlab.stability.orbits import orbit_branch

        branch = orbit_branch(model, param, float(values.min()), float(values.max()), params)
    return Diagram(
        orbits=branch,
        model=model.name,
        param=param,
        state=state,
        values=values,
        amplitude=amp,
        mean=mean,
        period=period,
        params=dict(params or {}),
        meta={"t_end": t_end, "tail": tail, "h": result.meta.get("h"), "wall_time_s": result.meta.get("wall_time_s")},
    )


def sqrt_law_fit(values, amplitude, critical: float | None = None) -> dict:
    """Fit A² = s (p − p0) to the points with A > 0 on one side; with ``critical`` also the
    spread of A²/(p − p_c) (0 for an exact square-root law)."""
    v = np.asarray(values, dtype=float)
    a = np.asarray(amplitude, dtype=float)
    sel = np.isfinite(a) & (a > 0)
    if sel.sum() < 2:
        raise StabilityError("sqrt_law_fit: fewer than two oscillating points; allowed: values beyond the Hopf point")
    s, c = np.polyfit(v[sel], a[sel] ** 2, 1)
    out = {"slope": float(s), "p0": float(-c / s), "K": float(np.sqrt(abs(s)))}
    if critical is not None:
        ratio = a[sel] ** 2 / (v[sel] - critical)
        out["ratio"] = ratio
        out["spread"] = float((ratio.max() - ratio.min()) / abs(ratio.mean()))
    return out
