"""The axes of a packet stability chart: what a value sets in a dumbbell scenario, and which
parameter of seed 000's fluid model it is.

* `rtt` (s): every group's `rtt` (propagation round-trip time); fluid τ.
* `per_flow_capacity` (packets/s): the bottleneck `rate` = value × flows × packet size, access
  links raised to at least twice the per-flow rate so that the bottleneck stays the
  bottleneck; fluid C̃ (seed 000 eq. 3: C = N C̃).
* `q_th` (packets): the threshold policy's `q_th` (seed 000 Section VI); fluid q_th (eq. 36).

The fluid side (`fluid_setting`) names the model that matches the scenario's queue (RED
deciding on its average: `ctcp-red`, eq. 9; on the instantaneous queue: `ctcp-red-noavg`,
eq. 26; the threshold policy: `ctcp-threshold`, eq. 36) and its parameters in two mappings:
"paper", seed 000's defaults (Section IV-A: C̃ = 100, γ = 1e-4, b = 50, b̄ = 550, p̄ = 0.1), and
"mapped", the scenario's own (`aqmlab.analysis.fluid_mapping.fluid_parameters`; for the
threshold policy only C̃ = C/N and q_th). The axis values then replace their fluid parameters.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aqmlab import units

__all__ = ["AXES", "Axis", "apply_axes", "fluid_setting", "parse_axis"]

#: Seed 000's fluid defaults (Section IV-A) for the RED models.
PAPER_RED = {"C": 100.0, "gamma": 1e-4, "b_min": 50.0, "b_max": 550.0, "p_max": 0.1}
#: Seed 000's threshold-policy setting (Section VI-A, Fig. 14): C̃ = 100, τ = 1 s.
PAPER_THRESHOLD = {"C": 100.0, "tau": 1.0}


def _groups(scenario: dict[str, Any]) -> list[dict[str, Any]]:
    return scenario["topology"]["groups"]


def _queue(scenario: dict[str, Any]) -> dict[str, Any]:
    return scenario["topology"]["bottleneck"]["queue"]


def _packet_bits(scenario: dict[str, Any]) -> float:
    sizes = {units.bytes_(group.get("tcp", {}).get("packet_size", "1500B")) for group in _groups(scenario)}
    if len(sizes) != 1:
        raise ValueError(f"groups' tcp.packet_size {sorted(sizes)}; allowed: one packet size for per-flow capacity")
    return 8.0 * sizes.pop()


def flows(scenario: dict[str, Any]) -> int:
    return sum(int(group.get("count", 1)) for group in _groups(scenario))


def set_rtt(scenario: dict[str, Any], value: float) -> None:
    for group in _groups(scenario):
        group["rtt"] = f"{round(value * 1e9)}ns"


def set_per_flow_capacity(scenario: dict[str, Any], value: float) -> None:
    per_flow_bps = value * _packet_bits(scenario)
    scenario["topology"]["bottleneck"]["rate"] = f"{round(per_flow_bps * flows(scenario))}bps"
    for group in _groups(scenario):
        if "access_rate" in group and units.bits_per_second(group["access_rate"]) < 2 * per_flow_bps:
            group["access_rate"] = f"{round(2 * per_flow_bps)}bps"


def set_q_th(scenario: dict[str, Any], value: float) -> None:
    queue = _queue(scenario)
    if queue.get("kind") != "threshold":
        raise ValueError(f"axis q_th needs topology.bottleneck.queue.kind = 'threshold'; got {queue.get('kind')!r}")
    queue["q_th"] = value


@dataclass(frozen=True)
class Axis:
    name: str
    unit: str
    fluid: str  # the fluid model's parameter
    apply: Callable[[dict[str, Any], float], None]
    integer: bool = False


AXES = {
    "rtt": Axis("rtt", "s", "tau", set_rtt),
    "per_flow_capacity": Axis("per_flow_capacity", "packets/s", "C", set_per_flow_capacity),
    "q_th": Axis("q_th", "packets", "q_th", set_q_th, integer=True),
}


def axis(name: str, field: str) -> Axis:
    if name not in AXES:
        raise ValueError(f"{field} = {name!r}; allowed: {', '.join(AXES)}")
    return AXES[name]


def parse_axis(text: str, field: str, *, points: bool) -> tuple[str, list[float]]:
    """ "NAME=V1,V2,..." or "NAME=LOW..HIGH" (with `points`: "NAME=LOW..HIGH:N", N evenly
    spaced values) into (name, values); errors name `field`."""
    if "=" not in text:
        raise ValueError(f"{field} = {text!r}; allowed: NAME=LOW..HIGH{':N' if points else ''} or NAME=V1,V2,...")
    name, spec = (part.strip() for part in text.split("=", 1))
    axis(name, field)
    try:
        if ".." in spec:
            span, _, count = spec.partition(":")
            low, high = (float(v) for v in span.split(".."))
            if not points:
                if count:
                    raise ValueError
                return name, [low, high]
            n = int(count or 8)
            if n < 1:
                raise ValueError
            return name, [low] if n == 1 else [low + (high - low) * i / (n - 1) for i in range(n)]
        values = [float(v) for v in spec.split(",")]
    except ValueError:
        raise ValueError(
            f"{field} = {text!r}; allowed: NAME=LOW..HIGH{':N (N >= 1)' if points else ''} or NAME=V1,V2,..."
        ) from None
    if not points and len(values) != 2:
        raise ValueError(f"{field} = {text!r}; allowed: NAME=LOW..HIGH (two values)")
    return name, values


def apply_axes(scenario: dict[str, Any], settings: dict[str, float]) -> dict[str, Any]:
    """A copy of `scenario` with every axis value of `settings` set."""
    out = copy.deepcopy(scenario)
    for name, value in settings.items():
        AXES[name].apply(out, value)
    return out


def fluid_setting(scenario: dict[str, Any], settings: dict[str, float]) -> tuple[str, dict[str, dict[str, float]]]:
    """(fluid model, {"paper": params, "mapped": params}) at the axis values `settings`."""
    from aqmlab.analysis.fluid_mapping import fluid_parameters

    scenario = apply_axes(scenario, settings)
    queue = _queue(scenario)
    bottleneck = scenario["topology"]["bottleneck"]
    rate = units.bits_per_second(bottleneck["rate"])
    per_flow = rate / _packet_bits(scenario) / flows(scenario)
    if queue.get("kind") == "threshold":
        model = "ctcp-threshold"
        sets = {"paper": dict(PAPER_THRESHOLD), "mapped": {"C": per_flow, "q_th": float(queue["q_th"])}}
    elif queue.get("kind") == "red":
        instantaneous = bool(queue.get("instantaneous", False))
        model = "ctcp-red-noavg" if instantaneous else "ctcp-red"
        rtts = {units.seconds(group["rtt"]) for group in _groups(scenario)}
        mapped = fluid_parameters(
            flows=flows(scenario),
            rate_bps=rate,
            packet_bytes=_packet_bits(scenario) / 8.0,
            min_th=queue["min_th"],
            max_th=queue["max_th"],
            max_p=queue.get("max_p", 0.1),
            buffer_packets=units.queue_limit(queue["limit"])["packets"],
            q_weight=queue.get("q_weight", -1),
            link_delay_s=units.seconds(bottleneck["delay"]),
            tau_s=max(rtts),
        )
        mapped.pop("buffer")
        sets = {"paper": dict(PAPER_RED), "mapped": mapped}
        if instantaneous:
            for params in sets.values():
                params.pop("gamma")
    else:
        raise ValueError(
            f"topology.bottleneck.queue.kind = {queue.get('kind')!r}; allowed for a fluid overlay: red, threshold"
        )
    for params in sets.values():
        for name, value in settings.items():
            params[AXES[name].fluid] = float(value)
    return model, sets
