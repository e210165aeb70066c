"""Seed 002 Sections V-A and V-D as computations: the REDvq argument and the γ threshold.

Section V-A, after Table I ("One may argue that the advantage of E-RED over RED is mainly due to
the use of a virtual queue"): at E-RED's equilibrium virtual queue b̃* ≈ 27 000 packets with
α = 1 the marking probability is p* = p_min e^{κ(b̃* − b_min)} = 0.0442 (p_min = 0.0005), and the
link adaptation speed that Theorem III.2 allows — the slope dp/db̃ = κ p* of E-RED's profile at
equilibrium — is 7.36·10⁻⁶ per packet. RED's linear profile has the slope
max_p/(max_th − min_th), so with max_p = 0.1 it needs max_th − min_th ≥ 0.1/7.36·10⁻⁶ = 13 584;
RED's thresholds (60, 180) give 120, and 120 times them give 14 400 > 13 584 (stable in the
paper's unshown runs). The symbols of the printed equations were lost (seed README); the
relations above are the ones the surviving numbers satisfy; `redvq_chain` computes them for
a given gain κ.

Section V-D: "there is a threshold value of γ, under which the system is stable"; the paper
gives 0.93 (150 Mb/s, 100 flows) and 0.97 (150 Mb/s, 250 flows). `gamma_threshold` reads the
threshold off a sweep the way the paper states it: the largest γ such that every γ up to it is
stable.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

#: Section V-A's printed values.
PAPER_VIRTUAL_QUEUE = 27_000.0
PAPER_P_MIN = 0.0005
PAPER_P_STAR = 0.0442
PAPER_SLOPE_BOUND = 7.36e-6
PAPER_RED_SPAN = 13_584.0
PAPER_SCALED_SPAN = 14_400.0
RED_MAX_P = 0.1


def red_thresholds(buffer_packets: float, scale: float = 1.0) -> tuple[float, float]:
    """Section V: RED's min_th = 1/5 of the buffer, max_th = 3 min_th; `scale` multiplies the
    virtual queue limit and so both thresholds (the paper's 120-fold run)."""
    low = scale * buffer_packets / 5.0
    return low, 3.0 * low


def ered_gain_from(p_star: float, virtual_queue: float, p_min: float, b_min: float) -> float:
    """κ of E-RED's profile p = p_min e^{κ(b̃ − b_min)} (eq. 35) through (b̃*, p*)."""
    if not (p_star > p_min > 0 and virtual_queue > b_min):
        raise ValueError(
            f"p_star = {p_star}, p_min = {p_min}, virtual_queue = {virtual_queue}, b_min = {b_min}: "
            "allowed: p_star > p_min > 0 and virtual_queue > b_min"
        )
    return math.log(p_star / p_min) / (virtual_queue - b_min)


def slope_bound(kappa_per_packet: float, p_star: float) -> float:
    """E-RED's slope dp/db̃ = κ p* at the equilibrium: Theorem III.2's allowed link speed at α = 1."""
    return kappa_per_packet * p_star


def red_span_needed(bound: float, max_p: float = RED_MAX_P) -> float:
    """max_th − min_th for RED's linear slope max_p/(max_th − min_th) to stay within `bound`."""
    if bound <= 0:
        raise ValueError(f"bound = {bound}: allowed: a positive slope (per packet)")
    return max_p / bound


def redvq_chain(
    kappa_per_packet: float,
    virtual_queue: float = PAPER_VIRTUAL_QUEUE,
    *,
    p_min: float = PAPER_P_MIN,
    buffer_packets: float = 300.0,
    max_p: float = RED_MAX_P,
) -> dict[str, float]:
    """Section V-A's chain for E-RED's gain κ (per packet) at the equilibrium virtual queue
    `virtual_queue` (1 Gb/s: buffer 300 packets, b_min = 60): p* (eq. 35), the slope bound κ p*,
    the span RED needs, RED's span (60, 180) and the 120-fold one (7 200, 21 600)."""
    b_min = buffer_packets / 5.0
    p_star = p_min * math.exp(kappa_per_packet * (virtual_queue - b_min))  # eq. (35)
    bound = slope_bound(kappa_per_packet, p_star)
    low, high = red_thresholds(buffer_packets)
    low120, high120 = red_thresholds(buffer_packets, 120.0)
    return {
        "p_star": p_star,
        "slope_bound": bound,
        "red_span_needed": red_span_needed(bound, max_p),
        "red_span": high - low,
        "red_span_120": high120 - low120,
    }


def gamma_threshold(stable: Mapping[float, bool]) -> float | None:
    """The largest γ of the sweep such that the run at it and at every smaller γ is stable (the
    paper's "threshold value of γ, under which the system is stable"); None if the smallest γ is
    already unstable."""
    threshold = None
    for gamma in sorted(stable):
        if not stable[gamma]:
            break
        threshold = gamma
    return threshold
