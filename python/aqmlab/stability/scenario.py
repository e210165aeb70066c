"""Stability of a packet scenario, stated in its own terms (issue 30; docs/fluid-mapping.md).

:func:`of_scenario` maps a dumbbell scenario to its fluid model
(`aqmlab.analysis.fluid_mapping`: C̃ = C/N, thresholds on q = Q/N, γ from RED's weight),
sets τ by one of two readings (`TAU_READINGS`), and reads the linearisation: verdict and
margin (rightmost characteristic root), and for each physical knob (RTT, flows, link rate, RED's
min_th, max_th, max_p and weight w_q, the threshold q_th) the nearest value at which the verdict
changes (the Hopf boundary along that knob, each point re-mapped and its τ read again).
Beyond the RTT boundary the normal form (`aqmlab.stability.hopf.lyapunov`) predicts the limit
cycle's period and the queue's amplitude.

The engine's Compound TCP grows its delay window only while the window is at least its
`low_window` (41 packets by default) and is Reno below it; when the equilibrium window of the
Compound law is below `low_window`, the Reno law is used and the mapping says so.

τ. Seed 000 takes τ as the propagation round trip: remark (iii) below eq. (9), "one may assume
that the propagation delay is much larger than the queueing delay, and the round-trip time can
then be approximated by the propagation delay alone", and its Fig. 6 runs are set by their
designed RTT (10 and 200 ms). That is the default reading, ``tau="propagation"``. The other
reading, ``tau="closed"``, is the flows' mean round trip: propagation + one packet's
serialisation (access link and bottleneck) + the equilibrium queue's delay N q*/C, which
depends on τ through q* (a fixed point, `closed_loop`). docs/fluid-mapping.md compares the two
on seed 000's Fig. 6 with packet runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from aqmlab import _repr
from aqmlab.analysis.fluid_mapping import FluidMapping, Physical, fluid_mapping, physical_of
from aqmlab.stability.linearise import StabilityError, linearise, resolve_model
from aqmlab.stability.roots import Roots, characteristic_roots

__all__ = ["TAU_READINGS", "Boundary", "ScenarioStability", "of_scenario", "closed_loop", "with_tau_reading"]

#: How τ is read from a scenario (docs/fluid-mapping.md).
TAU_READINGS = {
    "propagation": "the two-way propagation delay (seed 000 remark (iii) below eq. (9): queueing neglected)",
    "closed": "propagation + serialisation + the equilibrium queue's delay (a fixed point in τ)",
}

#: Knobs along which the boundary is looked for: name → (label, unit shown, scale to the unit,
#: attribute of Physical, policies it applies to).
KNOBS = {
    "rtt": ("RTT", "ms", 1e3, "rtt_s", ("red", "red-instantaneous", "threshold")),
    "flows": ("flows", "", 1.0, "flows", ("red", "red-instantaneous", "threshold")),
    "rate": ("link rate", "Mb/s", 1e-6, "rate_bps", ("red", "red-instantaneous", "threshold")),
    "min_th": ("min_th", "packets", 1.0, "min_th", ("red", "red-instantaneous")),
    "max_th": ("max_th", "packets", 1.0, "max_th", ("red", "red-instantaneous")),
    "max_p": ("max_p", "", 1.0, "max_p", ("red", "red-instantaneous")),
    "q_weight": ("RED's weight w_q", "", 1.0, "q_weight", ("red",)),
    "q_th": ("q_th", "packets", 1.0, "q_th", ("threshold",)),
}


@dataclass
class Boundary:
    """Where the verdict changes along one knob: `value` (None: no change in the range
    searched), in SI units (rtt s, rate b/s, thresholds packets)."""

    knob: str
    current: float
    value: float | None
    searched: tuple[float, float]
    period_s: float | None = None  # 2π/ω of the crossing pair at the boundary

    def sentence(self, stable: bool) -> str:
        label, unit, scale, _, _ = KNOBS[self.knob]
        fmt = (lambda v: f"{v * scale:.0f}") if self.knob == "flows" else (lambda v: f"{v * scale:.4g}")
        unit = f" {unit}" if unit else ""
        if self.value is None:
            lo, hi = self.searched
            state = "stable" if stable else "unstable"
            return f"{label}: {state} throughout {fmt(lo)}-{fmt(hi)}{unit} (now {fmt(self.current)}{unit})"
        change = "loses stability" if stable else "becomes stable"
        side = "above" if self.value > self.current else "below"
        period = f"; period there {self.period_s:.3g} s" if self.period_s else ""
        return f"{label}: {change} {side} {fmt(self.value)}{unit} (now {fmt(self.current)}{unit}{period})"


@dataclass
class ScenarioStability:
    """The answer of :func:`of_scenario`."""

    name: str
    mapping: FluidMapping  # τ set (by `tau_reading`)
    equilibrium: dict[str, float]  # the fluid model's states (per flow)
    roots: Roots
    boundaries: list[Boundary] = field(default_factory=list)
    hopf_tau: float | None = None  # τ at the RTT boundary (the fluid model's own parameter)
    predicted: dict | None = None  # beyond the RTT boundary: period_s, queue_amplitude_packets, kind
    tau_reading: str = "propagation"  # how τ was read (TAU_READINGS)

    @property
    def verdict(self) -> str:
        return self.roots.verdict()

    @property
    def stable(self) -> bool:
        return self.verdict == "stable"

    @property
    def margin(self) -> float:
        return self.roots.margin

    def _repr_html_(self) -> str:
        return _repr.html(self)

    def summary(self) -> dict:
        return {
            "scenario": self.name,
            "model": self.mapping.model,
            "options": self.mapping.options,
            "params": self.mapping.params,
            "mapping": [row.__dict__ for row in self.mapping.rows],
            "notes": self.mapping.notes,
            "tau_reading": self.tau_reading,
            "equilibrium": self.equilibrium,
            "verdict": self.verdict,
            "margin": self.margin,
            "rightmost": [self.roots.rightmost.real, self.roots.rightmost.imag],
            "boundaries": [b.__dict__ | {"sentence": b.sentence(self.stable)} for b in self.boundaries],
            "predicted": self.predicted,
        }


def _queue_of(mapping: FluidMapping, states: np.ndarray, P) -> float:
    """The scaled equilibrium queue q* (packets per flow)."""
    if mapping.model == "ctcp-threshold":
        # The threshold policy's own assumption (seed 000 eq. 36, [27]): the whole queue is an
        # M/M/1/K queue with K = q_th and utilisation x = w/(C̃τ); its mean, per flow.
        x = min(float(states[0]) / (float(P["C"]) * float(P["tau"])), 0.999999)
        k = int(round(mapping.params["q_th"]))
        n = np.arange(k + 1)
        weights = x**n
        return float((n * weights).sum() / weights.sum()) / mapping.physical.flows
    return float(states[1])


def closed_loop(mapping: FluidMapping, *, iterations: int = 60) -> tuple[FluidMapping, np.ndarray]:
    """The mapping with τ = fixed delay + N q*(τ)/C (q* the model's equilibrium at τ), found by
    damped fixed-point iteration, and the equilibrium there."""
    model = resolve_model(mapping.model, mapping.options)
    fixed = mapping.physical.fixed_delay_s
    tau, queueing = fixed, 0.0
    for _ in range(iterations):
        P, _ = model.resolve({**mapping.params, "tau": tau})
        states = model.equilibrium(model.prepare(P), 1)[:, 0]
        queueing = mapping.queueing_delay_s(_queue_of(mapping, states, {**mapping.params, "tau": tau}))
        new = fixed + queueing
        if abs(new - tau) <= 1e-10 * tau:
            break
        tau = 0.5 * (tau + new)
    return mapping.with_tau(tau, queueing), states


def check_tau_reading(reading: str) -> str:
    if reading not in TAU_READINGS:
        raise StabilityError(
            f"tau = {reading!r}; allowed: " + ", ".join(f"{k!r} ({v})" for k, v in TAU_READINGS.items())
        )
    return reading


def with_tau_reading(mapping: FluidMapping, reading: str = "propagation") -> tuple[FluidMapping, np.ndarray]:
    """The mapping with τ set by `reading` (`TAU_READINGS`) and the model's equilibrium there."""
    if check_tau_reading(reading) == "closed":
        return closed_loop(mapping)
    model = resolve_model(mapping.model, mapping.options)
    tau = mapping.physical.rtt_s  # seed 000 remark (iii) below eq. (9): τ ≈ the propagation delay
    P, _ = model.resolve({**mapping.params, "tau": tau})
    states = model.equilibrium(model.prepare(P), 1)[:, 0]
    return mapping.with_tau(tau, None), states


def _choose_law(physical: Physical, reading: str = "propagation") -> tuple[FluidMapping, str | None]:
    """The engine's Compound TCP is Reno below `low_window`: the Compound law is kept only when
    its equilibrium window reaches it."""
    mapping = fluid_mapping(physical)
    if physical.cc != "compound":
        return mapping, None
    _, states = with_tau_reading(mapping, reading)
    if states[0] >= physical.low_window:
        return mapping, None
    note = (
        f"window law: Reno — the Compound law's equilibrium window w* = {states[0]:.3g} packets is below "
        f"the engine's low_window = {physical.low_window:g}, under which Compound TCP grows as Reno"
    )
    return fluid_mapping(physical, tcp="reno"), note


def _evaluate(physical: Physical, reading: str = "propagation") -> tuple[float, complex]:
    """Spectral abscissa and rightmost root of `physical` (mapped, τ read by `reading`)."""
    mapping, _ = _choose_law(physical, reading)
    mapped, _ = with_tau_reading(mapping, reading)
    lin = linearise(mapped.model, mapped.params, options=mapped.options)
    roots = characteristic_roots(lin, count=1)
    return roots.abscissa, roots.rightmost


def _grid(knob: str, physical: Physical) -> np.ndarray:
    now = float(getattr(physical, KNOBS[knob][3]))
    if knob == "rtt":
        return np.geomspace(1e-3, 2.0, 14)
    if knob == "flows":
        return np.unique(np.round(np.geomspace(1, max(20 * now, 100), 14)))
    if knob == "rate":
        return np.geomspace(now / 100, now * 100, 14)
    if knob == "min_th":
        return np.geomspace(max(physical.max_th / 200, 0.05), physical.max_th * 0.95, 12)
    if knob == "max_th":
        return np.geomspace(physical.min_th * 1.05 + 0.5, max(20 * now, 2 * physical.min_th + 1), 12)
    if knob == "max_p":
        return np.geomspace(1e-3, 1.0, 12)
    if knob == "q_weight":  # explicit weights; the scenario's may be ns-2's automatic one
        return np.geomspace(1e-7, 0.5, 12)
    return np.unique(np.round(np.geomspace(1, max(20 * now, 100), 16)))  # q_th


def _with(physical: Physical, knob: str, value: float) -> Physical:
    attr = KNOBS[knob][3]
    return physical.replace(**{attr: int(round(value)) if knob == "flows" else float(value)})


def _current(physical: Physical, knob: str) -> float:
    """The scenario's value of `knob`; for q_weight the weight in effect (ns-2's automatic
    weights resolved, `red_weight`)."""
    if knob == "q_weight":
        from aqmlab.analysis.fluid_mapping import red_weight

        return red_weight(physical.q_weight, physical.rate_bps, physical.packet_bytes, physical.link_delay_s)
    return float(getattr(physical, KNOBS[knob][3]))


def boundary_along(physical: Physical, knob: str, *, bisections: int = 8, tau: str = "propagation") -> Boundary:
    """The value of `knob` nearest to the scenario's at which the verdict changes (τ read by
    `tau`, `TAU_READINGS`)."""
    now = _current(physical, knob)
    values = _grid(knob, physical)
    signs = []
    for value in values:
        try:
            signs.append(np.sign(_evaluate(_with(physical, knob, value), tau)[0]))
        except (StabilityError, ValueError):
            signs.append(np.nan)  # no equilibrium there (e.g. the buffer below q*)
    signs = np.array(signs)
    changes = [
        i for i in range(len(values) - 1) if np.isfinite(signs[i] * signs[i + 1]) and signs[i] * signs[i + 1] < 0
    ]
    searched = (float(values[0]), float(values[-1]))
    if not changes:
        return Boundary(knob, now, None, searched)
    i = min(changes, key=lambda j: abs(math.log(math.sqrt(values[j] * values[j + 1]) / now)))
    lo, hi, sign_lo = float(values[i]), float(values[i + 1]), signs[i]
    integer = knob in ("flows", "q_th")
    for _ in range(bisections):
        if integer and hi - lo <= 1:
            break
        mid = math.sqrt(lo * hi)
        if integer:
            mid = float(round(mid))
            if mid in (lo, hi):
                mid = lo + 1
        try:
            a, _ = _evaluate(_with(physical, knob, mid), tau)
        except (StabilityError, ValueError):
            break
        if np.sign(a) == sign_lo:
            lo = mid
        else:
            hi = mid
    if integer:  # the first value with the other verdict, seen from the scenario's value
        value = hi if now <= lo else lo
    else:
        value = math.sqrt(lo * hi)
    _, root = _evaluate(_with(physical, knob, value), tau)
    period = 2 * math.pi / abs(root.imag) if abs(root.imag) > 1e-9 else None
    return Boundary(knob, now, value, searched, period)


def _beyond(result: ScenarioStability) -> None:
    """The RTT boundary in the model's τ and, if the scenario lies beyond it, the normal form's
    period and amplitude of the queue there (seed 000 eq. 68: amplitude 2|q_j| sqrt(Δτ/μ2))."""
    from aqmlab.stability.hopf import find_hopf, lyapunov

    mapping = result.mapping
    params = dict(mapping.params)
    tau = params.pop("tau")
    try:
        hopf = find_hopf(mapping.model, "tau", 1e-3, 3.0, params, options=mapping.options, scan=24)
    except StabilityError:
        return
    result.hopf_tau = hopf.value
    info = {"hopf_tau_s": hopf.value, "period_s": hopf.period}
    try:
        lyap = lyapunov(mapping.model, hopf.params, hopf.omega, param="tau", options=mapping.options)
        info["kind"] = lyap.kind
        model = resolve_model(mapping.model, mapping.options)
        if mapping.model != "ctcp-threshold":
            amplitude = lyap.amplitude(tau - hopf.value)[model.index("q")] * mapping.physical.flows
            if math.isfinite(amplitude):
                info["queue_amplitude_packets"] = float(amplitude)
                info["valid_near_boundary"] = abs(tau - hopf.value) <= 0.2 * hopf.value
        else:
            amplitude = lyap.amplitude(tau - hopf.value)[0]
            if math.isfinite(amplitude):
                info["window_amplitude_packets"] = float(amplitude)
                info["valid_near_boundary"] = abs(tau - hopf.value) <= 0.2 * hopf.value
    except (StabilityError, ValueError, np.linalg.LinAlgError):
        pass
    result.predicted = info


def _outside_the_affine_law(mapping: FluidMapping, equilibrium: dict[str, float]) -> list[str]:
    """Seed 000 analyses RED in b < r < b̄ (the affine law (7), "we assume that the system operates
    in the region b < r(t) < b̄"); an equilibrium outside it is said, in whole-queue packets."""
    if mapping.model not in ("ctcp-red", "ctcp-red-noavg"):
        return []
    physical = mapping.physical
    average = equilibrium.get("r", equilibrium.get("q"))
    whole = average * physical.flows
    if whole > physical.max_th:
        return [
            f"the equilibrium average queue N r* = {whole:.4g} packets is above max_th = {physical.max_th:g}: "
            "seed 000's affine law (7) holds between the thresholds only; there the packet RED drops every "
            "arrival (no gentle mode), so the packet queue cannot rest at this equilibrium"
        ]
    if whole < physical.min_th:
        return [
            f"the equilibrium average queue N r* = {whole:.4g} packets is below min_th = {physical.min_th:g}: "
            "seed 000's affine law (7) holds between the thresholds only"
        ]
    return []


def of_scenario(scenario, *, tau: str = "propagation", boundaries: bool = True, count: int = 4) -> ScenarioStability:
    """Stability of the packet `scenario` (a `Scenario`, a dict, a TOML path, or the name of a
    bundled example) through its fluid model: the mapping (τ read by `tau`: "propagation", seed
    000's reading, or "closed", `TAU_READINGS`), equilibrium, rightmost
    roots, and with `boundaries` the Hopf boundary along each physical knob and the normal
    form's prediction beyond the RTT one. Raises `NoFluidModel` (a `ScenarioError`) naming the
    field a scenario has no fluid model for."""
    from aqmlab.scenario import Scenario, load, load_scenario

    check_tau_reading(tau)
    scenario = load_scenario(scenario) if isinstance(scenario, str | Path) else load(scenario)
    physical = physical_of(scenario)
    mapping, note = _choose_law(physical, tau)
    closed, states = with_tau_reading(mapping, tau)
    if note:
        closed.notes.append(note)
    lin = linearise(closed.model, closed.params, options=closed.options)
    roots = characteristic_roots(lin, count=count)
    equilibrium = dict(zip(lin.state_names, map(float, lin.equilibrium), strict=True))
    closed.notes.extend(_outside_the_affine_law(closed, equilibrium))
    result = ScenarioStability(
        name=scenario.name if isinstance(scenario, Scenario) else str(scenario),
        mapping=closed,
        equilibrium=equilibrium,
        roots=roots,
        tau_reading=tau,
    )
    if boundaries:
        result.boundaries = [
            boundary_along(physical, knob, tau=tau) for knob, spec in KNOBS.items() if physical.policy in spec[4]
        ]
    _beyond(result)
    return result
