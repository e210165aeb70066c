"""Seed 003's RED configuration program (Sections III and IV).

Inputs: the line rate; ranges (or averages) of the flow count or per-flow throughput, the
packet size and the RTT (excluding this link's queue); a policy — drop-conservative
(given p_max) or delay-conservative (given the maximum queueing delay). Outputs the control
law and the estimator:

- drop-conservative: q_max = 1.2 G_max(p_max);
- delay-conservative: q_max = d_max · c, p_max = 1.2 G_max^{-1}(q_max);
- q_min = q_max / 3 (the ratio of seed 003's Fig. 8 example, Floyd's recommendation [2]);
- buffer B = 2 q_max, and a linear segment from (q_max, p_max) to (B, 1) instead of the
  jump to 1 — with B = 2 q_max this is gentle RED;
- averaging interval I = P, the TCP period of eq. (13) at the design point (G_max at p_max);
  sampling interval δ = R_o,min; weight w = 1 - a^(δ/I) (eq. (12)), a = 0.1; and the
  equivalent per-arrival weight of ns-2's RED, which samples at every packet arrival:
  q_weight = 1 - a^(1/(λ I)) with λ the line's packet rate.

G_max uses n_max, M_max and R_o,min; G_min uses n_min, M_min and R_o,max (Section III).
`tcp` sets the PFTK model's other inputs (b, T0, W_max); its packet size is replaced by
the range's ends.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace

from aqmlab.design.averaging import averaging_weight
from aqmlab.design.control_law import equilibrium, recommended
from aqmlab.design.pftk import TcpModel, period
from aqmlab.design.queue_law import QueueLaw

SAFETY = 1.2


@dataclass(frozen=True)
class Range:
    low: float
    high: float

    def __post_init__(self) -> None:
        if not (0 < self.low <= self.high):
            raise ValueError(f"range [{self.low}, {self.high}] must satisfy 0 < low <= high")


@dataclass(frozen=True)
class RedRecommendation:
    policy: str
    min_th: float
    max_th: float
    max_p: float
    buffer_packets: float
    averaging_interval_s: float
    sampling_interval_s: float
    weight_per_sample: float
    q_weight_per_arrival: float
    design_drop_probability: float
    design_queue_packets: float
    queue_law_max: QueueLaw = field(repr=False)
    queue_law_min: QueueLaw = field(repr=False)

    def queue_config(self) -> dict:
        """The scenario's queue table (`[topology.bottleneck] queue = ...`)."""
        return {
            "kind": "red",
            "limit": f"{math.ceil(self.buffer_packets)}p",
            "min_th": round(self.min_th, 3),
            "max_th": round(self.max_th, 3),
            "max_p": round(self.max_p, 6),
            "q_weight": float(f"{self.q_weight_per_arrival:.6g}"),
            "gentle": True,
            "wait": True,
        }

    def toml(self) -> str:
        items = ", ".join(f"{k} = {_toml_value(v)}" for k, v in self.queue_config().items())
        return f"queue = {{ {items} }}"

    def as_dict(self) -> dict:
        out = asdict(self)
        out.pop("queue_law_max"), out.pop("queue_law_min")
        return out


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def red_config(
    rate_bps: float,
    *,
    flows: Range | None = None,
    per_flow_bps: Range | None = None,
    packet_bytes: Range = Range(1500, 1500),
    rtt_s: Range,
    policy: str = "drop-conservative",
    max_p: float | None = None,
    max_delay_s: float | None = None,
    b: float = 1.0,
    tcp: TcpModel | None = None,
) -> RedRecommendation:
    """Recommend RED settings for a line (seed 003 Sections III-IV); see the module docstring."""
    if not rate_bps > 0:
        raise ValueError(f"rate_bps = {rate_bps}; allowed: > 0")
    if (flows is None) == (per_flow_bps is None):
        raise ValueError(
            "give either `flows` (a range of flow counts) or `per_flow_bps` (a range of per-flow throughputs)"
        )
    if per_flow_bps is not None:
        flows = Range(rate_bps / per_flow_bps.high, rate_bps / per_flow_bps.low)
    template = tcp if tcp is not None else TcpModel(b=b)
    big, small = replace(template, packet_bytes=packet_bytes.high), replace(template, packet_bytes=packet_bytes.low)
    g_max = QueueLaw(rate_bps, flows.high, rtt_s.low, math.inf, big)
    packet_time = 8.0 * packet_bytes.high / rate_bps
    if policy == "drop-conservative":
        if max_p is None or not 0 < max_p <= 1:
            raise ValueError(f"max_p = {max_p}; the drop-conservative policy needs max_p in (0, 1]")
        design_p = max_p
        design_queue = float(g_max.queue(max_p)[0])
        max_th = SAFETY * design_queue
        if max_th <= 0:
            raise ValueError(
                f"at p_max = {max_p} the largest queue law is empty (p_max above p0 = {g_max.p0():.4g}); lower max_p"
            )
    elif policy == "delay-conservative":
        if max_delay_s is None or not max_delay_s > 0:
            raise ValueError("the delay-conservative policy needs max_delay_s > 0")
        if max_delay_s < packet_time:
            raise ValueError(f"max_delay_s = {max_delay_s:g} s is shorter than one packet time ({packet_time:g} s)")
        max_th = max_delay_s * rate_bps / (8.0 * packet_bytes.high)
        design_queue = max_th
        design_p = g_max.inverse(max_th)
        max_p = SAFETY * design_p
        if max_p > 1:
            raise ValueError(
                f"the queue law needs p = {design_p:.3g} to hold the queue at {max_th:.1f} packets: "
                "no RED setting keeps the delay that low for these flows"
            )
    else:
        raise ValueError(f"policy = {policy!r}; allowed: 'drop-conservative', 'delay-conservative'")
    min_th = max_th / 3.0
    buffer = 2.0 * max_th
    design_rtt = rtt_s.low + design_queue * 8.0 * packet_bytes.high / rate_bps
    interval = float(period(design_p, design_rtt, big))  # eq. (13)
    sampling = rtt_s.low
    weight = averaging_weight(interval, sampling)  # eq. (12), a = 0.1
    packets_per_s = rate_bps / (8.0 * packet_bytes.high)
    q_weight = averaging_weight(interval, 1.0 / packets_per_s)  # eq. (12) with one sample per packet time
    law_max = QueueLaw(rate_bps, flows.high, rtt_s.low, buffer, big)
    law_min = QueueLaw(rate_bps, flows.low, rtt_s.high, buffer, small)
    return RedRecommendation(
        policy,
        min_th,
        max_th,
        max_p,
        buffer,
        interval,
        sampling,
        weight,
        q_weight,
        design_p,
        design_queue,
        law_max,
        law_min,
    )


def operating_points(recommendation: RedRecommendation) -> dict[str, tuple[float, float]]:
    """Equilibria (p, q) of the recommended law with the extreme queue laws."""
    law = recommended(recommendation.min_th, recommendation.max_th, recommendation.max_p, recommendation.buffer_packets)
    out = {}
    for name, queue_law in (("G_max", recommendation.queue_law_max), ("G_min", recommendation.queue_law_min)):
        point = equilibrium(queue_law, law)
        out[name] = (point.drop_probability, point.average_queue)
    return out
