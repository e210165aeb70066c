"""The work a scenario asks for, estimated before anything is allocated, and the guard.

`estimate(scenario)` reads the resolved scenario only (no engine object is built): how many
flows and links, how many events per simulated second the rates and packet sizes allow, how
many trace rows, and roughly how much memory. `check(scenario)` refuses a scenario whose
estimate is above `LIMITS` with a `WorkLimitExceeded` that gives the estimate and the field
to change; `allow_large=True` (CLI: `--allow-large`) runs it anyway. The engine is then
given the work limit too (`Simulation.set_work_limit`), so a run whose dynamics outgrow the
estimate (say an aggressive window law) stops there instead of running away.

The estimate is an upper bound of the right order, not a prediction: the per-packet costs
below were measured on benchmarks/scale (issue 28's event-free links: 3.06 events per
bottleneck packet and its ACK on a dumbbell, plus the two packets created; 6 KB per flow with
its four edge links; 2.12 events since senders take their ACKs inline, so the bound is looser
than it was) and rounded up; `benchmarks/scale/workload_check.py` compares the
estimate with the work of every example.

Limits can be changed per process with the environment variables AQMLAB_MAX_WORK (events
plus packets) and AQMLAB_MAX_MEMORY (bytes).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

from aqmlab.errors import WorkLimitExceeded

#: Engine work (events + packets created) of one data packet and its ACK: the two packets
#: created and the ACK's arrival at the sender.
WORK_PER_PACKET = 3.0
#: ... and per core link it crosses: the arrival events of the data at the link and of the ACK
#: at its reverse (links where several upstreams meet keep arrival events; edge links are
#: computed inline by their upstream, without events: benchmarks/scale/README.md, issue 28).
WORK_PER_CORE_HOP = 2.0
#: ... and per link direction whose queue acts at dequeue (served with events: the arrival
#: and the transmission-complete event, and its next link's arrival can no longer be inline).
WORK_PER_EVENT_DRIVEN_HOP = 3.0
#: Queue kinds whose policy decides at arrival (`QueuePolicy::decides_at_arrival` in the
#: engine): links with these are served without events. Any other kind counts as event-driven.
ARRIVAL_DECIDING_QUEUES = {"drop_tail", "random_drop", "red", "threshold", "ered", "red_vq", "adaptive_red", "avq"}
#: Memory of one flow (sender, receiver, records) and of one link (queue, policy, random stream).
FLOW_BYTES = 2_000
LINK_BYTES = 1_200
#: A queued or propagating packet (48 B) with its container overhead.
PACKET_BYTES = 64
#: Link trace: 14 f64 columns; flow trace: 6. Results hold about three copies while they
#: are collected (engine columns, the copy handed over, the Arrow tables).
LINK_ROW_BYTES = 14 * 8 * 3
FLOW_ROW_BYTES = 6 * 8 * 3
#: Per-packet trace (`trace.packets`): rows per packet crossing a traced link (enqueue,
#: dequeue, receive, and a drop or mark at most), and bytes per row: 42 in the engine's
#: columns, held about four times while the table is built (the rows, the sorted copy, the
#: NumPy columns, the Arrow table).
PACKET_ROWS_PER_CROSSING = 4
PACKET_ROW_BYTES = 42 * 4
#: Periodic AQM updates (PI, REM, PIE, Adaptive RED) are applied one by one: work each.
PERIODIC_QUEUES = {"pi", "rem", "pie", "adaptive_red"}


@dataclass(frozen=True)
class Limits:
    #: Engine work: events plus packets created (about 100-400 ns each, benchmarks/scale).
    work: float = 1e10
    #: Estimated peak memory, bytes.
    memory: float = 4 * 2**30


def limits() -> Limits:
    """The limits in force: the defaults, or AQMLAB_MAX_WORK / AQMLAB_MAX_MEMORY."""
    defaults = Limits()
    return Limits(
        work=_env_number("AQMLAB_MAX_WORK", defaults.work), memory=_env_number("AQMLAB_MAX_MEMORY", defaults.memory)
    )


def _env_number(name: str, default: float) -> float:
    text = os.environ.get(name)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise WorkLimitExceeded(f"{name} = {text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise WorkLimitExceeded(f"{name} = {text!r} must be a positive number")
    return value


@dataclass(frozen=True)
class Workload:
    flows: float
    links: float
    #: Engine work per simulated second, and in all.
    work_per_s: float
    work: float
    link_trace_rows: float
    flow_trace_rows: float
    memory_bytes: float
    #: Rows of the per-packet trace, at most (0 without `trace.packets`).
    packet_trace_rows: float
    #: The fields that contribute most to each total, to name in a refusal.
    work_field: str
    memory_field: str

    def describe(self) -> str:
        return (
            f"{self.flows:,.0f} flows, {self.links:,.0f} links, {self.work:.3g} events and packets "
            f"({self.work_per_s:.3g} per simulated second), {self.link_trace_rows + self.flow_trace_rows:.3g} "
            f"trace rows{self._packet_rows()}, about {self.memory_bytes / 2**20:,.0f} MiB"
        )

    def _packet_rows(self) -> str:
        return f" and {self.packet_trace_rows:.3g} packet-trace rows" if self.packet_trace_rows else ""


def estimate(scenario: Any) -> Workload:
    """The workload of a `Scenario` (validated: every value is within its bounds)."""
    resolved = scenario.resolved()
    duration_s = resolved["duration_ns"] / 1e9
    topology = resolved["topology"]
    if topology["kind"] == "dumbbell":
        bottleneck = topology["bottleneck"]
        core = [(bottleneck, "topology.bottleneck")]
        core_rate, core_hops = bottleneck["rate_bps"], 1
    else:
        core = [(link, f"topology.links[{i}]") for i, link in enumerate(topology["links"])]
        core_rate, core_hops = max(link["rate_bps"] for link, _ in core), len(core)
    # A packet crosses at most every core link: the event-driven directions among them.
    core_event_driven = sum(_event_driven(link["queue"]) + _event_driven(link["reverse_queue"]) for link, _ in core)
    flows = links = work_per_s = burst = 0.0
    memory = 0.0
    contributions: dict[str, float] = {}
    memory_parts: dict[str, float] = {}
    packet_guess = 1500
    packet_groups: list[tuple[float, float, int]] = []  # (flows, packets/s, hops) per engine group
    for g, group in enumerate(topology["groups"]):
        field = f"topology.groups[{g}]"
        traffic = group["traffic"]
        kind = traffic["kind"]
        active_s = _active_seconds(group, duration_s)
        if kind == "web":
            count = traffic["arrival_rate_per_s"] * active_s
            count += 5 * math.sqrt(count) + 1  # Poisson: a generous upper bound
            count_field = f"{field}.arrival_rate"
        else:
            count = traffic["count"]
            count_field = f"{field}.count"
        shared = group.get("shared_access", False) or kind == "web"
        edge_links = 4 if shared else 4 * count
        packet = traffic["tcp"]["packet_size_bytes"] if kind != "udp" else traffic["packet_size_bytes"]
        packet_guess = packet if g == 0 else packet_guess
        access_cap = group["access_rate_bps"] * (1 if shared else count)
        receiver_cap = group["receiver_rate_bps"] * (1 if shared else count)
        # The four edge links a data packet and its ACK cross share the group's access queue.
        event_driven_hops = core_event_driven + 4 * _event_driven(group["access_queue"])
        data_rate = min(access_cap, core_rate, receiver_cap)
        per_packet = WORK_PER_PACKET + WORK_PER_CORE_HOP * core_hops + WORK_PER_EVENT_DRIVEN_HOP * event_driven_hops
        group_work = data_rate / (8 * packet) * per_packet
        packet_groups.append((count, data_rate / (8 * packet), core_hops + 2))
        if kind == "udp":
            # Sources send at their rate whatever the links can carry: one event and one packet each.
            group_work += count * traffic["rate_bps"] / (8 * packet) * 2
            rate_field = f"{field}.rate"
        else:
            tcp = traffic["tcp"]
            burst += count * min(tcp["initial_window"], tcp["max_window"])
            rate_field = f"{field}.access_rate"
        # Each flow's start, timers and end: a few events.
        group_work += 0 if duration_s == 0 else 10 * count / duration_s
        periodic = _periodic_per_s(group["access_queue"]) * edge_links
        contributions[rate_field] = contributions.get(rate_field, 0.0) + group_work * duration_s
        contributions[f"{field}.access_queue"] = periodic * duration_s
        work_per_s += group_work + periodic
        flows += count
        links += edge_links
        memory_parts[count_field] = count * FLOW_BYTES + edge_links * LINK_BYTES
        edge_delay_s = group["rtt_ns"] / 1e9 / 2
        in_flight = min(access_cap, 8 * packet * 1e9) * edge_delay_s / (8 * packet) * PACKET_BYTES
        memory_parts[f"{field}.rtt"] = in_flight
    for link, field in core:
        links += 2
        periodic = _periodic_per_s(link["queue"]) + _periodic_per_s(link["reverse_queue"])
        work_per_s += periodic
        contributions[f"{field}.queue"] = periodic * duration_s
        held = 2 * link["rate_bps"] * link["delay_ns"] / 1e9 / (8 * packet_guess)
        held += _buffer_packets(link["queue"], packet_guess) + _buffer_packets(link["reverse_queue"], packet_guess)
        memory_parts[f"{field}.queue"] = held * PACKET_BYTES
    interval_s = resolved["trace"]["interval_ns"] / 1e9
    samples = math.floor(duration_s / interval_s)
    monitored = 2 * len(core)
    traced_flows = min(resolved["trace"]["flows"], flows)
    link_rows, flow_rows = samples * monitored, samples * traced_flows
    work_per_s += 1 / interval_s * (1 + monitored + traced_flows)
    contributions["trace.interval"] = samples * (1 + monitored + traced_flows)
    memory_parts["trace.interval"] = link_rows * LINK_ROW_BYTES + flow_rows * FLOW_ROW_BYTES
    packet_rows = _packet_trace_rows(resolved["trace"].get("packets"), packet_groups, duration_s)
    memory_parts["trace.packets"] = packet_rows * PACKET_ROW_BYTES
    memory = sum(memory_parts.values()) + burst * PACKET_BYTES
    work = work_per_s * duration_s + burst
    contributions["tcp.initial_window"] = burst
    return Workload(
        flows=flows,
        links=links,
        work_per_s=work_per_s,
        work=work,
        link_trace_rows=link_rows,
        flow_trace_rows=flow_rows,
        memory_bytes=memory,
        packet_trace_rows=packet_rows,
        work_field=max(contributions, key=contributions.get),
        memory_field=max(memory_parts, key=memory_parts.get),
    )


def _packet_trace_rows(
    packets: dict[str, Any] | None, groups: list[tuple[float, float, int]], duration_s: float
) -> float:
    """An upper bound of the per-packet trace's rows: every data packet and its ACK cross
    each traced link of their route once (at most `hops` links each way), on the traced
    flows' share of each group's rate."""
    if packets is None:
        return 0.0
    named = len(set(packets["links"]))
    chosen_groups = set(packets["groups"])
    chosen_flows = set(packets["flows"])
    every_flow = not chosen_groups and not chosen_flows
    rows_per_s, first_flow = 0.0, 0.0
    for g, (count, packets_per_s, hops) in enumerate(groups):
        if every_flow or g in chosen_groups:
            share = 1.0
        else:
            # Flow ids count the flows group after group (a web group: its expected flows).
            mine = sum(1 for flow in chosen_flows if first_flow <= flow < first_flow + count)
            share = min(1.0, mine / count) if count else 0.0
        first_flow += count
        crossings = min(named, hops) if named else hops
        rows_per_s += share * packets_per_s * 2 * crossings * PACKET_ROWS_PER_CROSSING
    return rows_per_s * duration_s


def _active_seconds(group: dict[str, Any], duration_s: float) -> float:
    start = group["start"]
    first = start.get("at_ns", start.get("low_ns", start.get("first_ns", 0))) / 1e9
    stop = group["stop"]
    last = stop["at_ns"] / 1e9 if stop["kind"] == "fixed" else duration_s
    return max(0.0, min(last, duration_s) - first)


def _event_driven(queue: dict[str, Any]) -> int:
    """1 if a link with this queue is served with events (its policy acts at dequeue)."""
    return int(queue["kind"] not in ARRIVAL_DECIDING_QUEUES)


def _periodic_per_s(queue: dict[str, Any]) -> float:
    kind = queue["kind"]
    if kind not in PERIODIC_QUEUES:
        return 0.0
    if kind == "pi":
        return float(queue["sampling_frequency_hz"])
    interval = queue.get("update_interval_ns", queue.get("interval_ns"))
    return 1e9 / interval if interval else 0.0


def _buffer_packets(queue: dict[str, Any], packet_bytes: int) -> float:
    limit = queue["limit"] if "limit" in queue else queue.get("red", {}).get("limit", {"packets": 0})
    return float(limit["packets"]) if "packets" in limit else limit["bytes"] / packet_bytes


def check(scenario: Any, *, allow_large: bool = False) -> Workload:
    """The estimate; raises `WorkLimitExceeded` above the limits unless `allow_large`."""
    workload = estimate(scenario)
    if allow_large:
        return workload
    bounds = limits()
    problems = []
    if workload.work > bounds.work:
        problems.append(
            f"{workload.work:.3g} events and packets (limit {bounds.work:.3g}; mostly from {workload.work_field})"
        )
    if workload.memory_bytes > bounds.memory:
        problems.append(
            f"about {workload.memory_bytes / 2**20:,.0f} MiB (limit {bounds.memory / 2**20:,.0f} MiB; "
            f"mostly from {workload.memory_field})"
        )
    if problems:
        raise WorkLimitExceeded(
            f"{getattr(scenario, 'name', 'scenario')}: too large to run: {'; '.join(problems)}. "
            f"Estimate: {workload.describe()}. Reduce the field named (or duration), or pass "
            "allow_large=True (CLI: --allow-large) to run it anyway"
        )
    return workload
