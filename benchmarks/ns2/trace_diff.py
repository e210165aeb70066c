"""Packet-by-packet comparison of aqmlab and ns-2 on one reduced, deterministic scenario.

    python benchmarks/ns2/trace_diff.py ROW [--flows N] [--duration S] [--seed K]
        [--tcp '{"lost_retransmit": "sack_above"}'] [--tolerance-ms 1] [--context 12]
    python benchmarks/ns2/trace_diff.py scalable-droptail-rtt20 --flows 1 --duration 20

ROW is a matrix row (`matrix.rows()` or `matrix.experiment_rows()`); the scenario is that row
with N flows (its RTT, buffer, link rates and TCP), run for `--duration` seconds in both
simulators, ns-2 with aqmlab's start times (`ns2_mapping.translate(start_times=...)`). With
DropTail nothing in either simulator is random, so the two should send the same segments at
the same instants, see the same drops and the same ACKs until the first semantic difference.
RED draws its drops from each simulator's own generator (aqmlab's seeded streams, ns-2's
`$defaultRNG`), which are different streams: over RED the first early drop already differs,
so a RED comparison finds that drop and no semantic difference.

Per flow, each simulator's events are: `send` (the segment entering the flow's access link:
ns-2 `+` of `trace-queue`, aqmlab's `enqueue` row), `ack` (an ACK reaching the sender: the
next segment expected, ns-2's seqno + 1, since tcp-sink.cc acknowledges the highest in-order
segment), `drop` (at the monitored links) and `cwnd`/`ssthresh` (ns-2: every change of the
traced variable, tcp.cc `TcpAgent::traceVar`; aqmlab: the flow trace sampled every
millisecond). The sends and drops are compared in order: the first one that differs in its
segment or by more than `--tolerance-ms` in time is the divergence, printed with the events
of both simulators around it. ns-2's `cwnd_` is TCP-Linux's `snd_cwnd` or, during rate
halving, `next_pkts_in_flight_` (tcp-linux.cc `save_from_linux`): windows are shown, not
compared.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import aqmlab  # noqa: E402
import ns2_mapping  # noqa: E402
import ns2_run  # noqa: E402


def _ns2_matrix() -> Any:
    """benchmarks/ns2/matrix.py under a name of its own: benchmarks/ns3 has a `matrix` module
    too, and both are imported in one test session."""
    name = "ns2_matrix"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "matrix.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


#: Event kinds, in the order events of one instant are listed.
KINDS = ("ack", "cwnd", "ssthresh", "send", "drop")


@dataclass
class Events:
    """One simulator's events of one flow, time-ordered: `time_s`, `kind` (index in
    KINDS), `value` (segment number, or window in segments), `retransmit` (a send of a
    segment sent before)."""

    time_s: np.ndarray
    kind: np.ndarray
    value: np.ndarray
    retransmit: np.ndarray

    @classmethod
    def of(cls, rows: list[tuple[float, str, float]]) -> Events:
        rows = sorted(rows, key=lambda row: (row[0], KINDS.index(row[1])))
        time_s = np.array([row[0] for row in rows], dtype=float)
        kind = np.array([KINDS.index(row[1]) for row in rows], dtype=int)
        value = np.array([row[2] for row in rows], dtype=float)
        retransmit = np.zeros(len(rows), dtype=bool)
        highest = -1.0
        for i in np.flatnonzero(kind == KINDS.index("send")):
            retransmit[i] = value[i] <= highest
            highest = max(highest, value[i])
        return cls(time_s, kind, value, retransmit)

    def until(self, end_s: float) -> Events:
        keep = self.time_s <= end_s
        return Events(self.time_s[keep], self.kind[keep], self.value[keep], self.retransmit[keep])

    def select(self, kind: str) -> tuple[np.ndarray, np.ndarray]:
        chosen = self.kind == KINDS.index(kind)
        return self.time_s[chosen], self.value[chosen]

    def line(self, i: int) -> str:
        kind = KINDS[self.kind[i]]
        value = f"{self.value[i]:g}"
        mark = " R" if self.retransmit[i] else ""
        return f"{self.time_s[i]:12.6f}  {kind:<8} {value}{mark}"


# --- reduced scenario ------------------------------------------------------------------------


def reduced_scenario(row_name: str, flows: int, duration_s: float, tcp: dict[str, Any]) -> aqmlab.Scenario:
    """The matrix row `row_name` with `flows` flows, `duration_s` long, `tcp` changes applied,
    its flows traced packet by packet and sampled every millisecond."""
    matrix = _ns2_matrix()
    rows = {**matrix.rows(), **matrix.experiment_rows()}
    if row_name not in rows:
        raise SystemExit(f"ROW {row_name!r}: not a matrix row (benchmarks/ns2/matrix.py)")
    data = rows[row_name].scenario.model_dump(mode="json")
    groups = data["topology"]["groups"]
    if len(groups) != 1:
        raise SystemExit(f"ROW {row_name!r}: the trace comparison takes one-group dumbbell rows")
    groups[0]["count"] = flows
    groups[0]["tcp"].update(tcp)
    data["name"] = f"{row_name}-trace{flows}"
    data["duration"] = f"{duration_s:g}s"
    data["measure_start"] = f"{duration_s / 2:g}s"
    data["trace"] = {
        "interval": "1ms",
        "flows": flows,
        "packets": {"flows": list(range(flows)), "links": ["access", "access_reverse", "bottleneck"]},
    }
    return aqmlab.Scenario.from_dict(data)


# --- aqmlab's events -------------------------------------------------------------------------


def aqmlab_events(results: Any, flows: int) -> list[Events]:
    trace = results.packet_trace.to_pydict()
    per_flow: list[list[tuple[float, str, float]]] = [[] for _ in range(flows)]
    for t, event, link, flow, kind, seq in zip(
        trace["time_s"], trace["event"], trace["link_name"], trace["flow"], trace["kind"], trace["seq"], strict=True
    ):
        if kind == "data" and event == "enqueue" and link == "access":
            per_flow[flow].append((t, "send", seq))
        elif kind == "ack" and event == "receive" and link == "access_reverse":
            per_flow[flow].append((t, "ack", seq))
        elif event == "drop" and kind == "data":
            per_flow[flow].append((t, "drop", seq))
    samples = results.flow_trace.to_pydict()
    last: dict[tuple[int, str], float] = {}
    for t, flow, cwnd, ssthresh in zip(
        samples["time_s"], samples["flow"], samples["cwnd"], samples["ssthresh"], strict=True
    ):
        for name, value in (("cwnd", cwnd), ("ssthresh", ssthresh)):
            if value == value and last.get((flow, name)) != value:  # changes only, as ns-2's tracevar
                per_flow[flow].append((t, name, value))
                last[(flow, name)] = value
    return [Events.of(rows) for rows in per_flow]


# --- ns-2's events ---------------------------------------------------------------------------


def parse_ns2_packets(text: str, flows: int) -> list[list[tuple[float, str, float]]]:
    """`ns2_mapping.PACKET_TRACE` (trace.cc Trace::format lines, plus the `#` lines naming each
    traced flow's sender node and each monitored link's nodes) as per-flow events."""
    senders: dict[int, int] = {}
    per_flow: list[list[tuple[float, str, float]]] = [[] for _ in range(flows)]
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "#":
            if words[1] == "sender":
                senders[int(words[3])] = int(words[2])
            continue
        event, t, source, target, kind, fid, seqno = (
            words[0],
            words[1],
            words[2],
            words[3],
            words[4],
            words[7],
            words[10],
        )
        flow = int(fid)
        if flow >= flows:
            continue
        sender = senders[flow]
        if kind == "tcp" and event == "+" and int(source) == sender:
            per_flow[flow].append((float(t), "send", float(seqno)))
        elif kind == "ack" and event == "r" and int(target) == sender:
            # tcp-sink.cc acknowledges the highest in-order segment; aqmlab the next expected.
            per_flow[flow].append((float(t), "ack", float(seqno) + 1))
        elif kind == "tcp" and event == "d":
            per_flow[flow].append((float(t), "drop", float(seqno)))
    return per_flow


def parse_ns2_window(text: str) -> list[tuple[float, str, float]]:
    """A `WINDOW_TRACE` file (tcp.cc TcpAgent::traceVar: time addr port daddr dport name value)."""
    rows = []
    last: dict[str, float] = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) != 7:
            continue
        name = words[5].rstrip("_")
        value = float(words[6])
        if last.get(name) != value:
            rows.append((float(words[0]), name, value))
            last[name] = value
    return rows


def ns2_events(scenario: aqmlab.Scenario, starts: list[float], seed: int, flows: int) -> list[Events]:
    options = ns2_mapping.Options(trace_flows=tuple(range(flows)))
    program = ns2_mapping.translate(scenario.resolved(), start_times=starts, seed=seed, options=options)
    with tempfile.TemporaryDirectory(prefix="aqmlab-trace-diff-") as tmp:
        (Path(tmp) / "run.tcl").write_text(program.text())
        done = subprocess.run([ns2_run.NS, "run.tcl"], cwd=tmp, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"ns failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        per_flow = parse_ns2_packets((Path(tmp) / ns2_mapping.PACKET_TRACE).read_text(), flows)
        for flow in range(flows):
            window = (Path(tmp) / ns2_mapping.WINDOW_TRACE.format(flow=flow)).read_text()
            per_flow[flow] += parse_ns2_window(window)
    return [Events.of(rows) for rows in per_flow]


# --- the comparison --------------------------------------------------------------------------


@dataclass
class Divergence:
    flow: int
    kind: str
    #: Index in the flow's events of that kind (the n-th send or drop).
    index: int
    ns2: tuple[float, float] | None
    aqmlab: tuple[float, float] | None

    @property
    def time_s(self) -> float:
        return min(side[0] for side in (self.ns2, self.aqmlab) if side is not None)


def first_divergence(ns2: Events, ours: Events, flow: int, tolerance_s: float) -> Divergence | None:
    """The earliest send or drop of the flow that differs in segment or by more than
    `tolerance_s`, or one simulator's extra event; None if both agree to the end."""
    found: list[Divergence] = []
    for kind in ("send", "drop"):
        (t2, v2), (t1, v1) = ns2.select(kind), ours.select(kind)
        common = min(len(t2), len(t1))
        differs = np.flatnonzero((v2[:common] != v1[:common]) | (np.abs(t2[:common] - t1[:common]) > tolerance_s))
        if differs.size:
            i = int(differs[0])
            found.append(Divergence(flow, kind, i, (t2[i], v2[i]), (t1[i], v1[i])))
        elif len(t2) != len(t1):
            i = common
            found.append(
                Divergence(
                    flow,
                    kind,
                    i,
                    (t2[i], v2[i]) if i < len(t2) else None,
                    (t1[i], v1[i]) if i < len(t1) else None,
                )
            )
    return min(found, key=lambda d: d.time_s) if found else None


def increments(events: Events, counter: str) -> np.ndarray:
    """The times at which one of a flow's counters rose by one, each rise of k listed k times:
    `sends`, `retransmits`, `drops`, `acked` (the cumulative ACK) and `timeouts` (cwnd
    falling to 1)."""
    if counter in ("sends", "retransmits"):
        chosen = events.kind == KINDS.index("send")
        if counter == "retransmits":
            chosen &= events.retransmit
        return events.time_s[chosen]
    if counter == "drops":
        return events.select("drop")[0]
    if counter == "acked":
        t, v = events.select("ack")
        highest = np.maximum.accumulate(v) if v.size else v
        rises = np.diff(np.concatenate([[0.0], highest])).astype(int)
        return np.repeat(t, rises)
    if counter == "timeouts":
        t, v = events.select("cwnd")
        return t[1:][(v[1:] <= 1.0) & (v[:-1] > 1.0)]
    raise ValueError(counter)


COUNTERS = ("sends", "retransmits", "drops", "timeouts")


def first_count_divergence(ns2: Events, ours: Events, flow: int, tick_s: float) -> Divergence | None:
    """The earliest point where one of the flow's counters (`COUNTERS`) differs between the
    simulators beyond one tick: the n-th rise comes more than `tick_s` apart, or one simulator
    has a rise the other never has. Which segment a rise concerns is not compared, so two
    flows whose packets reach a full queue a few microseconds apart in one simulator and the
    other order in the other (the drop falls on another flow's segment, or on the next one)
    stay together as long as their counts do. (The cumulative ACK is not a counter here: a
    drop of the next segment holds it one lower for a round trip.)"""
    found = []
    for counter in COUNTERS:
        a, b = increments(ns2, counter), increments(ours, counter)
        common = min(len(a), len(b))
        apart = np.flatnonzero(np.abs(a[:common] - b[:common]) > tick_s)
        if apart.size:
            i = int(apart[0])
            found.append(Divergence(flow, counter, i, (a[i], float(i + 1)), (b[i], float(i + 1))))
        elif len(a) != len(b):
            i = common
            side = (a[i], float(i + 1)) if i < len(a) else None
            other = (b[i], float(i + 1)) if i < len(b) else None
            found.append(Divergence(flow, counter, i, side, other))
    return min(found, key=lambda d: d.time_s) if found else None


def context(events: Events, time_s: float, before: int, after: int) -> list[str]:
    at = int(np.searchsorted(events.time_s, time_s, side="left"))
    return [events.line(i) for i in range(max(0, at - before), min(len(events.time_s), at + after))]


def counts(events: Events) -> dict[str, int]:
    sends = events.kind == KINDS.index("send")
    return {
        "sends": int(sends.sum()),
        "retransmits": int((sends & events.retransmit).sum()),
        "drops": int((events.kind == KINDS.index("drop")).sum()),
    }


def report(ns2: list[Events], ours: list[Events], tolerance_s: float, before: int, after: int) -> dict[str, Any]:
    """Per flow the counts; `exact`: the first send or drop differing in segment or beyond
    the tolerance (`first_divergence`); `counts`: the first counter differing beyond it
    (`first_count_divergence`); each with both simulators' events of that flow around it."""
    out: dict[str, Any] = {
        "flows": [{"flow": f, "ns2": counts(ns2[f]), "aqmlab": counts(ours[f])} for f in range(len(ns2))],
    }
    for name, find in (("exact", first_divergence), ("counts", first_count_divergence)):
        divergences = [d for flow in range(len(ns2)) if (d := find(ns2[flow], ours[flow], flow, tolerance_s))]
        first = min(divergences, key=lambda d: d.time_s) if divergences else None
        out[name] = None
        if first is not None:
            out[name] = {
                "flow": first.flow,
                "kind": first.kind,
                "index": first.index,
                "ns2": first.ns2 and [float(x) for x in first.ns2],
                "aqmlab": first.aqmlab and [float(x) for x in first.aqmlab],
                "ns2_context": context(ns2[first.flow], first.time_s, before, after),
                "aqmlab_context": context(ours[first.flow], first.time_s, before, after),
            }
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("row", help="matrix row, e.g. scalable-droptail-rtt20")
    parser.add_argument("--flows", type=int, default=1)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds")
    parser.add_argument("--seed", type=int, default=1, help="aqmlab's seed (start times); ns-2's defaultRNG seed")
    parser.add_argument("--tcp", type=json.loads, default={}, help="JSON of TCP fields changed on aqmlab's side")
    parser.add_argument("--tolerance-ms", type=float, default=1.0, help="time difference taken as the same event")
    parser.add_argument("--before", type=int, default=14, help="events shown before the divergence")
    parser.add_argument("--after", type=int, default=10, help="events shown from the divergence on")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.flows < 1:
        raise SystemExit(f"--flows {args.flows}: at least 1")
    scenario = reduced_scenario(args.row, args.flows, args.duration, args.tcp)
    results = aqmlab.simulate(scenario, seed=args.seed)
    starts = [float(x) for x in results.flows.column("start_s").to_numpy()]
    ours = aqmlab_events(results, args.flows)
    ns2 = ns2_events(scenario, starts, args.seed, args.flows)
    # ns-2 runs past the end by half a trace interval (ns2_mapping's closing event).
    ns2 = [events.until(args.duration) for events in ns2]
    out = report(ns2, ours, args.tolerance_ms / 1000, args.before, args.after)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{scenario.name}, seed {args.seed}, starts {[round(s, 6) for s in starts]}")
    for row in out["flows"]:
        print(f"flow {row['flow']}: ns-2 {row['ns2']}  aqmlab {row['aqmlab']}")
    for name, what in (("exact", "segment for segment"), ("counts", "in counts, beyond one tick")):
        first = out[name]
        if first is None:
            print(f"{name}: no divergence {what} (sends, drops" + (")" if name == "exact" else ", timeouts)"))
            continue
        unit = "(time s, segment)" if name == "exact" else "(time s, count)"
        print(
            f"{name}: first divergence {what}: flow {first['flow']}, {first['kind']} #{first['index']}: "
            f"ns-2 {first['ns2']}, aqmlab {first['aqmlab']} {unit}"
        )
        for side in ("ns2", "aqmlab"):
            print(f"--- {side}")
            print("\n".join(first[f"{side}_context"]))


if __name__ == "__main__":
    main()
