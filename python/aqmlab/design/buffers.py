"""Buffer sizing: the rules of seed 004 Section III and its ECN-model stability conditions
(seed 004 eqs. (11)-(17)) as functions of the buffer or marking threshold B."""

from __future__ import annotations

import math

from scipy.optimize import brentq

#: The small-buffer regime of seed 004's experiments (15 and 100 packets).
SMALL_BUFFERS_PACKETS = (15, 100)


def bandwidth_delay_product(rate_bps: float, rtt_s: float, packet_bytes: float = 1500) -> float:
    """C · RTT, packets (the rule of thumb; seed 000 uses it with RTT 250 ms: 2084 packets)."""
    _positive(rate_bps=rate_bps, rtt_s=rtt_s, packet_bytes=packet_bytes)
    return rate_bps * rtt_s / (8.0 * packet_bytes)


def stanford_buffer(rate_bps: float, rtt_s: float, flows: int, packet_bytes: float = 1500) -> float:
    """C · RTT / sqrt(N), packets (Appenzeller, Keslassy, McKeown 2004; seed 004 Section III)."""
    _positive(flows=flows)
    return bandwidth_delay_product(rate_bps, rtt_s, packet_bytes) / math.sqrt(flows)


def mm1_equilibrium(weight: float, capacity: float, buffer: float) -> float:
    """Total rate x with x p(x) = w for p(y) = min(y/C, 1)^B (seed 004 eqs. (11), (13)): below
    C the root of x (x/C)^B = w; for w >= C, p = 1 and x = w (fluid model `ecn`)."""
    _positive(weight=weight, capacity=capacity, buffer=buffer)
    if weight >= capacity:
        return float(weight)
    return float(brentq(lambda x: x * (x / capacity) ** buffer - weight, 0.0, capacity, xtol=1e-12))


def mm1_stability(gain: float, rtt_s: float, weight: float, capacity: float, buffer: float) -> float:
    """κ τ (p + x p′) at the equilibrium, κ τ p (1 + B) below C and κ τ where p = 1 is flat
    (w > C): below π/2 the system is locally stable, at π/2 a Hopf bifurcation gives
    oscillations of period 4τ (seed 004, after eq. (14))."""
    x = mm1_equilibrium(weight, capacity, buffer)
    if x > capacity:
        return gain * rtt_s
    return gain * rtt_s * (x / capacity) ** buffer * (1.0 + buffer)


def gaussian_stability_bound(gain: float, rtt_s: float, buffer: float, variance: float) -> float:
    """κ τ (1 + 2B/σ²): below π/2 the Gaussian-workload resource is stable for any w < C
    (seed 004 eq. (17))."""
    _positive(gain=gain, rtt_s=rtt_s, variance=variance)
    if buffer < 0:
        raise ValueError(f"buffer = {buffer}; allowed: >= 0")
    return gain * rtt_s * (1.0 + 2.0 * buffer / variance)


def largest_stable_threshold(gain: float, rtt_s: float, variance: float) -> float:
    """The largest B that eq. (17) guarantees stable: (π/(2κτ) - 1) σ²/2 (0 if none)."""
    _positive(gain=gain, rtt_s=rtt_s, variance=variance)
    return max(0.0, (math.pi / (2.0 * gain * rtt_s) - 1.0) * variance / 2.0)


def _positive(**values: float) -> None:
    for name, value in values.items():
        if not value > 0:
            raise ValueError(f"{name} = {value}; allowed: > 0")
