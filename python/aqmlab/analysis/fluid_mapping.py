"""A packet-level dumbbell as seed 000's fluid model (issue 9 item 4, issue 30): the page is
docs/fluid-mapping.md; `aqmlab stability SCENARIO.toml` prints the mapping of a scenario.

Seed 000 writes the model per flow (Section II-B): the link serves C = N C̃ packets/s, the
"scaled queue" is q = Q/N (eq. 4), and RED acts on the average r of q (eqs. 5-7). A packet
dumbbell of N flows on a C packets/s bottleneck with RED(min_th, max_th, max_p) on the whole
queue Q therefore maps to

* C̃ = C/N (eq. 3: "the packets are served at a rate of C = N C̃");
* b = min_th/N, b̄ = max_th/N, buffer B/N (thresholds on Q are thresholds on q = Q/N);
* p̄ = max_p (eq. 6);
* γ from ns-2's EWMA: avg ← (1 − w_q) avg + w_q Q at every arrival, about C arrivals a
  second, is ṙ = −K (r − q) with K = −C ln(1 − w_q) per second (the fluid limit used by
  Misra, Gong and Towsley, seed 000 ref. [32]); eq. (5) writes K = γ C̃, so γ = K / C̃. The
  ns-2 default q_weight = −1 sets w_q from the link (`red_weight`, as the engine's
  `queue/red.rs::automatic_q_weight`);
* τ: the round trip. Seed 000 reads it as the propagation delay (remark (iii) below eq. (9),
  the queueing delay neglected), as `aqmlab.stability.of_scenario` does by default; its
  ``tau="closed"`` reading adds serialisation and the equilibrium queue's delay (eq. 1, "the
  average round-trip time").

Not mapped, and so differences between the two models (measured in
benchmarks/fluid-vs-packet/README.md): RED's drop spacing by `count` and `wait` (the fluid model
drops independently with probability p), the forced drops above max_th (the affine law (7)
extends past b̄), slow start and timeouts, and the engine's Compound TCP being Reno below
its low_wnd of 41 packets (`aqmlab.stability.of_scenario` then uses the Reno law).

`physical_of` reads these knobs from a whole scenario, `fluid_mapping` maps them (RED with or
without averaging, the threshold policy of Section VI, whose q_th stays a whole-queue count),
and `NoFluidModel` names the field of a scenario that has no fluid counterpart.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

from aqmlab.errors import ScenarioError


def red_weight(q_weight: float, rate_bps: float, mean_packet_bytes: float, link_delay_s: float) -> float:
    """ns-2's RED EWMA weight (`REDQueue::initialize_params`); ptc = packets per second.
    q_weight = −1: w = 1 − exp(−1/(10 rtt ptc)), rtt = max(3 (delay + 1/ptc), 0.1 s);
    0: w = 1 − exp(−1/ptc); −2: w = 1 − exp(−10/ptc); a value in (0, 1] is used as given."""
    ptc = rate_bps / (8.0 * mean_packet_bytes)
    if 0.0 < q_weight <= 1.0:
        return q_weight
    if q_weight == 0.0:
        return 1.0 - math.exp(-1.0 / ptc)
    if q_weight == -1.0:
        rtt = max(3.0 * (link_delay_s + 1.0 / ptc), 0.1)
        return 1.0 - math.exp(-1.0 / (10.0 * rtt * ptc))
    if q_weight == -2.0:
        return 1.0 - math.exp(-10.0 / ptc)
    raise ValueError(f"q_weight = {q_weight}; allowed: a weight in (0, 1], or 0, -1, -2 (ns-2's automatic weights)")


def fluid_parameters(
    *,
    flows: int,
    rate_bps: float,
    packet_bytes: float,
    min_th: float,
    max_th: float,
    max_p: float,
    buffer_packets: float,
    q_weight: float,
    link_delay_s: float,
    tau_s: float,
) -> dict[str, float]:
    """Parameters of `ctcp-red` / `ctcp-red-noavg` (aqmlab.fluid) for the packet dumbbell
    (mapping in the module docstring). `ctcp-red-noavg` ignores `gamma`."""
    capacity = rate_bps / (8.0 * packet_bytes)  # C, packets/s
    per_flow = capacity / flows  # C̃ (seed 000 eq. 3)
    weight = red_weight(q_weight, rate_bps, packet_bytes, link_delay_s)
    averaging_rate = -capacity * math.log1p(-weight)  # K, 1/s: one EWMA step per arrival, ≈ C arrivals/s
    return {
        "C": per_flow,
        "tau": tau_s,
        "b_min": min_th / flows,  # thresholds on the scaled queue q = Q/N (seed 000 eq. 4)
        "b_max": max_th / flows,
        "p_max": max_p,
        "gamma": averaging_rate / per_flow,  # eq. (5): γ C̃ = K
        "buffer": buffer_packets / flows,
    }


# ---------------------------------------------------------------------------------------------
# A whole packet scenario → the fluid model (issue 30; docs/fluid-mapping.md)


class NoFluidModel(ScenarioError):
    """The scenario has no fluid model here; the message names the field, its value and what is
    supported."""


#: What each per-flow parameter of the seed 000 models is in a packet scenario's terms (the
#: `--set` help of `aqmlab fluid ctcp-red` and `aqmlab stability`).
PER_FLOW = {
    "C": "PER FLOW: link rate in packets/s divided by the number of flows N (100 Mb/s, 1500 B, 60 flows: 138.9)",
    "b_min": "PER FLOW: RED's min_th divided by N (the thresholds act on the scaled queue q = Q/N, eq. 4)",
    "b_max": "PER FLOW: RED's max_th divided by N",
    "buffer": "PER FLOW: the buffer B (packets) divided by N",
    "gamma": "γ = K/C̃ with K = −C ln(1 − w_q) per second, C the whole link in packets/s (ns-2 q_weight −1 at "
    "100 Mb/s, 60 flows: 0.0072)",
    "tau": "the flows' round-trip time; seed 000 takes the two-way propagation delay (queueing neglected)",
    "q_th": "packets of the WHOLE queue (not per flow: the exponent of the M/M/1 law)",
}
#: The models these descriptions apply to.
PER_FLOW_MODELS = ("ctcp-red", "ctcp-red-noavg", "ctcp-threshold")

#: Queue kinds with a fluid model, and the model each maps to.
SUPPORTED_QUEUES = {"red": "ctcp-red (ctcp-red-noavg with instantaneous = true)", "threshold": "ctcp-threshold"}
#: Congestion controls with a window law (seed 000 Table I) in the fluid models.
SUPPORTED_CC = ("compound", "reno")


@dataclass(frozen=True)
class Physical:
    """The physical knobs of a dumbbell scenario that the fluid model reads. Everything the
    Hopf boundaries are stated in (`aqmlab.stability.of_scenario`)."""

    flows: int  # N, long-lived TCP flows through the bottleneck
    rate_bps: float  # bottleneck rate
    packet_bytes: float  # the flows' packet size
    rtt_s: float  # two-way propagation delay (the flows' mean), queueing excluded
    link_delay_s: float  # the bottleneck's one-way delay (ns-2's automatic RED weight reads it)
    access_rate_bps: float  # the flows' access links (their serialisation adds to τ)
    buffer_packets: float  # the bottleneck buffer B
    policy: str  # "red", "red-instantaneous" or "threshold"
    min_th: float = math.nan  # RED thresholds, packets of the whole queue (ns-2's automatic ones resolved)
    max_th: float = math.nan
    max_p: float = math.nan
    q_weight: float = math.nan  # as written in the scenario (−1, 0, −2: ns-2's automatic weights)
    q_th: float = math.nan  # threshold policy, packets of the whole queue
    cc: str = "reno"  # "compound" or "reno"
    cc_params: tuple = ()  # (name, value) pairs: compound's alpha, beta, k
    low_window: float = 0.0  # compound: the delay window grows only above this window, packets

    @property
    def capacity(self) -> float:
        """C, packets/s."""
        return self.rate_bps / (8.0 * self.packet_bytes)

    @property
    def fixed_delay_s(self) -> float:
        """The round-trip time without the bottleneck queue: propagation plus one packet's
        serialisation at the access link and at the bottleneck (ACKs neglected)."""
        bits = 8.0 * self.packet_bytes
        return self.rtt_s + bits / self.access_rate_bps + bits / self.rate_bps

    def replace(self, **changes) -> Physical:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class MappingRow:
    symbol: str  # the fluid model's parameter
    value: float
    unit: str
    physical: str  # what it is made of, in the scenario's terms
    source: str  # the paper's equation


@dataclass
class FluidMapping:
    """A packet scenario as a fluid model: `model` with `options` at `params` (τ included once
    `with_tau` has set it), the rows that explain each value, and the `physical` knobs."""

    physical: Physical
    model: str
    options: dict[str, str]
    params: dict[str, float]
    rows: list[MappingRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def queueing_delay_s(self, scaled_queue: float) -> float:
        """Q*/C = N q*/C: the bottleneck queue's delay at a scaled equilibrium queue q* (eq. 4)."""
        return self.physical.flows * scaled_queue / self.physical.capacity

    def with_tau(self, tau_s: float, queueing_s: float | None) -> FluidMapping:
        """The mapping with τ set. `queueing_s` None: τ is the propagation round trip (seed 000
        remark (iii) below eq. (9): "the round-trip time can then be approximated by the
        propagation delay alone"); otherwise the fixed delay plus the equilibrium queueing delay
        (eq. 1: "τ can be regarded as the average round-trip time")."""
        if queueing_s is None:
            physical = (
                f"RTT {self.physical.rtt_s * 1e3:.4g} ms two-way propagation (queueing and"
                f" serialisation, {1e3 * (self.physical.fixed_delay_s - self.physical.rtt_s):.3g} ms, neglected)"
            )
            source = "eq. (1), remark (iii)"
        else:
            physical = (
                f"RTT {self.physical.rtt_s * 1e3:.4g} ms propagation"
                f" + {1e3 * (self.physical.fixed_delay_s - self.physical.rtt_s):.3g} ms serialisation"
                f" + {queueing_s * 1e3:.3g} ms queueing at equilibrium"
            )
            source = "eq. (1)"
        row = MappingRow("tau", tau_s, "s", physical, source)
        rows = [r for r in self.rows if r.symbol != "tau"]
        return FluidMapping(
            self.physical, self.model, dict(self.options), {**self.params, "tau": tau_s}, [row, *rows], list(self.notes)
        )


def automatic_thresholds(rate_bps: float, mean_packet_bytes: float, target_delay_s: float) -> tuple[float, float]:
    """ns-2's thresholds for `min_th = 0`: min_th = max(5, target_delay · C / 2) packets,
    max_th = 3 min_th (`REDQueue::initialize_params`, as the engine's queue/red.rs)."""
    low = max(5.0, target_delay_s * rate_bps / (8.0 * mean_packet_bytes) / 2.0)
    return low, 3.0 * low


def physical_of(scenario) -> Physical:
    """The knobs of `scenario` (a `Scenario`, a dict or a TOML path) the fluid model reads, or
    `NoFluidModel` naming the first field that has no fluid counterpart."""
    from aqmlab import units
    from aqmlab.scenario import load
    from aqmlab.traffic import Bulk, TcpGroup, UniformRtt

    scenario = load(scenario)
    topology = scenario.topology
    if topology.kind != "dumbbell":
        raise NoFluidModel(
            f"topology.kind: {topology.kind!r} has no fluid model here; supported: 'dumbbell' "
            "(one bottleneck shared by long-lived TCP flows, seed 000 Section II)"
        )
    bottleneck = topology.bottleneck
    flows, rtts, sizes, ccs, access = 0, [], set(), set(), []
    cc_model = None
    for index, group in enumerate(topology.groups):
        where = f"topology.groups[{index}]"
        if not isinstance(group, TcpGroup):
            raise NoFluidModel(
                f"{where}.kind: {group.kind!r} has no fluid model here; supported: 'tcp' groups of long-lived flows"
            )
        if group.direction != "forward":
            raise NoFluidModel(f"{where}.direction: {group.direction!r}; supported: 'forward' (through the bottleneck)")
        if not isinstance(group.transfer, Bulk):
            raise NoFluidModel(f"{where}.transfer: {group.transfer.kind!r}; supported: 'bulk' (long-lived flows)")
        if group.mix is not None:
            raise NoFluidModel(f"{where}.mix: a mix of congestion controls; supported: one `tcp.cc` for every flow")
        cc = group.tcp.cc
        if cc.kind not in SUPPORTED_CC:
            raise NoFluidModel(
                f"{where}.tcp.cc: {cc.kind!r} has no window law in the fluid models; supported: "
                + ", ".join(repr(name) for name in SUPPORTED_CC)
            )
        rtt = group.rtt
        mean_rtt = (
            (units.seconds(rtt.low) + units.seconds(rtt.high)) / 2
            if isinstance(rtt, UniformRtt)
            else units.seconds(rtt)
        )
        flows += group.count
        rtts.append((group.count, mean_rtt))
        access.append((group.count, units.bits_per_second(group.access_rate)))
        sizes.add(units.bytes_(group.tcp.packet_size))
        ccs.add(cc.model_dump_json())
        cc_model = cc
    if len(sizes) > 1:
        raise NoFluidModel(
            f"topology.groups: packet sizes {sorted(sizes)} differ; supported: one packet_size for every flow"
        )
    if len(ccs) > 1:
        raise NoFluidModel(
            "topology.groups: the groups' tcp.cc differ; supported: one congestion control for every flow"
        )
    packet = float(sizes.pop())
    rate = float(units.bits_per_second(bottleneck.rate))
    link_delay = units.seconds(bottleneck.delay)
    queue = bottleneck.queue
    where = "topology.bottleneck.queue"
    if queue.kind not in SUPPORTED_QUEUES:
        raise NoFluidModel(
            f"{where}.kind: {queue.kind!r} has no fluid model here; supported: "
            + ", ".join(f"{kind!r} → {model}" for kind, model in SUPPORTED_QUEUES.items())
        )
    if getattr(queue, "queue_in_bytes", False):
        raise NoFluidModel(f"{where}.queue_in_bytes: true; supported: false (the fluid queue counts packets)")
    if getattr(queue, "ecn", False):
        raise NoFluidModel(
            f"{where}.ecn: true; supported: false (the fluid models drop; ECN marking is seed 004's model)"
        )
    limit = units.queue_limit(queue.limit)
    buffer = float(limit["packets"]) if "packets" in limit else limit["bytes"] / packet
    weight = lambda total, pairs: sum(n * v for n, v in pairs) / total  # noqa: E731
    common = dict(
        flows=flows,
        rate_bps=rate,
        packet_bytes=packet,
        rtt_s=weight(flows, rtts),
        link_delay_s=link_delay,
        access_rate_bps=weight(flows, access),
        buffer_packets=buffer,
        cc=cc_model.kind,
        cc_params=tuple((k, getattr(cc_model, k)) for k in ("alpha", "beta", "k"))
        if cc_model.kind == "compound"
        else (),
        low_window=float(getattr(cc_model, "low_window", 0.0)),
    )
    if queue.kind == "threshold":
        return Physical(policy="threshold", q_th=float(queue.q_th), **common)
    min_th, max_th = queue.min_th, queue.max_th
    if min_th == 0 or max_th == 0:
        auto_min, auto_max = automatic_thresholds(
            rate, units.bytes_(queue.mean_packet_size), units.seconds(queue.target_delay)
        )
        min_th = min_th or auto_min
        max_th = max_th or 3.0 * min_th
    return Physical(
        policy="red-instantaneous" if queue.instantaneous else "red",
        min_th=float(min_th),
        max_th=float(max_th),
        max_p=float(queue.max_p),
        q_weight=float(queue.q_weight),
        **common,
    )


def fluid_mapping(physical: Physical, *, tcp: str | None = None) -> FluidMapping:
    """The fluid model of `physical` and its parameters except τ (set by `with_tau` once the
    equilibrium queue is known). `tcp`: the window law ("compound" or "reno"; default: the
    scenario's congestion control)."""
    n, capacity = physical.flows, physical.capacity
    law = tcp or physical.cc
    options = {"tcp": law}
    per_flow = capacity / n  # C̃ (seed 000 eq. 3: the link serves C = N C̃)
    rows = [
        MappingRow(
            "C",
            per_flow,
            "packets/s",
            f"C̃ = C/N = {capacity:.6g}/{n} (link rate {physical.rate_bps / 1e6:.6g} Mb/s,"
            f" {physical.packet_bytes:g} B packets)",
            "eq. (3)",
        ),
    ]
    params = {"C": per_flow}
    if law == "compound":
        for key, value in physical.cc_params:
            params[key] = float(value)
        rows.append(
            MappingRow(
                "alpha, beta, k",
                math.nan,
                "1",
                ", ".join(f"{k} = {v:g}" for k, v in physical.cc_params) + " (tcp.cc)",
                "eq. (2)",
            )
        )
    if physical.policy == "threshold":
        # p(w) = (w/(C̃τ))^q_th is the M/M/1 probability that an arrival finds q_th packets in the
        # whole queue (w/(C̃τ) = N w/τ / C is the utilisation of the whole link): q_th is not scaled.
        params["q_th"] = physical.q_th
        rows.append(
            MappingRow(
                "q_th",
                physical.q_th,
                "packets",
                f"q_th = {physical.q_th:g} packets of the whole queue (not per flow: the M/M/1 law's exponent)",
                "eq. (36)",
            )
        )
        return FluidMapping(physical, "ctcp-threshold", options, params, rows)
    red = fluid_parameters(
        flows=n,
        rate_bps=physical.rate_bps,
        packet_bytes=physical.packet_bytes,
        min_th=physical.min_th,
        max_th=physical.max_th,
        max_p=physical.max_p,
        buffer_packets=physical.buffer_packets,
        q_weight=physical.q_weight,
        link_delay_s=physical.link_delay_s,
        tau_s=math.nan,
    )
    weight = red_weight(physical.q_weight, physical.rate_bps, physical.packet_bytes, physical.link_delay_s)
    rows += [
        MappingRow("b_min", red["b_min"], "packets per flow", f"min_th/N = {physical.min_th:g}/{n}", "eq. (4), (6)"),
        MappingRow("b_max", red["b_max"], "packets per flow", f"max_th/N = {physical.max_th:g}/{n}", "eq. (4), (6)"),
        MappingRow("p_max", red["p_max"], "1", "max_p", "eq. (6)"),
        MappingRow("buffer", red["buffer"], "packets per flow", f"B/N = {physical.buffer_packets:g}/{n}", "eq. (3)"),
    ]
    params.update({k: red[k] for k in ("b_min", "b_max", "p_max", "buffer")})
    if physical.policy == "red":
        params["gamma"] = red["gamma"]
        rows.append(
            MappingRow(
                "gamma",
                red["gamma"],
                "1",
                f"K/C̃, K = −C ln(1 − w_q) = {-capacity * math.log1p(-weight):.4g}/s,"
                f" w_q = {weight:.4g} (q_weight {physical.q_weight:g})",
                "eq. (5)",
            )
        )
        return FluidMapping(physical, "ctcp-red", options, params, rows)
    return FluidMapping(
        physical, "ctcp-red-noavg", options, params, rows, ["RED decides on the instantaneous queue: no γ (eqs. 25-26)"]
    )


def map_scenario(scenario, *, tcp: str | None = None) -> FluidMapping:
    """`fluid_mapping(physical_of(scenario))`: the fluid model of a packet scenario, τ unset."""
    return fluid_mapping(physical_of(scenario), tcp=tcp)
