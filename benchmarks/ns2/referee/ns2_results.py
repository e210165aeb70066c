"""An ns-2 run as an `aqmlab.Results`, so a reproduction's own `measure(results)` reads ns-2's
output through the same tables it reads aqmlab's (issue 27: the claim's check applied to the
ns-2 results, never a second hand-written metric).

`ns2_mapping.translate` writes the queue monitor's counters per trace interval (`L` lines) and
the flows' counters at the window's ends (`F` lines). `with_link_state` adds, per monitored
link and interval, what `Results.link_samples()` has beside them (`A` lines):
  A <link> <t> <ave_> <size_> <pdepartures_>
- `ave_`: RED's average queue (queue/red.cc binds `ave_` to `edv_.v_ave`; in bytes with
  `queue_in_bytes_`, so it is divided by `mean_pktsize_` to be in RED's threshold units, the
  units the thresholds `thresh_`/`maxthresh_` are printed in); DropTail has no average: the
  instantaneous queue stands for it (aqmlab's `average_queue` of a drop-tail link is the queue);
- `size_`: bytes queued (tools/queue-monitor.h), aqmlab's `queue_bytes`;
- `pdepartures_`: packets departed, aqmlab's `departures`.
Per flow (`flows` table): bytes delivered at the window's ends from `ack_` (as ns2_run.parse),
timeouts (`nrexmit_`), retransmitted packets (`nrexmitpack_`) and window reductions
(`ncwndcuts_`; fast recoveries = reductions − timeouts) and, with `with_flow_rtts`, the mean
of ns-2's smoothed RTT over the window (`R` lines). What ns-2's records do not hold is NaN or
empty (sojourn times, the virtual queue, the per-flow window trace), so a measure reading it gives NaN and the
claim says so.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent / "ns3"))

import ns2_mapping  # noqa: E402
import ns2_run  # noqa: E402
import web_traffic  # noqa: E402
from aqmlab import _arrow as arrow  # noqa: E402
from aqmlab.results import Results, _flows_table, _Tables  # noqa: E402
from aqmlab.scenario import Scenario  # noqa: E402
from ns3_mapping import _core  # noqa: E402


def with_link_state(program: ns2_mapping.Ns2Program, resolved: dict[str, Any]) -> None:
    """Insert, before `$ns run`, a sampler writing the `A` lines (module docstring) at the
    trace interval, on the channel `$out` the mapping's sampler writes to."""
    core = _core(resolved["topology"])
    interval = resolved["trace"]["interval_ns"] / 1e9
    duration = resolved["duration_ns"] / 1e9
    lines = []
    for name in program.monitored:
        link = next(cl for cl in core.links if cl["name"] == name)
        queue = link["queue"]
        red = queue["kind"] == "red"
        scale = float(queue["mean_packet_bytes"]) if red and queue["queue_in_bytes"] else 1.0
        lines.append(f"set lq({name}) [[$ns link $n({link['from']}) $n({link['to']})] queue]")
        lines.append(f"set lred({name}) {int(red)}; set lscale({name}) {scale!r}")
    body = (
        "proc linkstate {i} {\n"
        f"    global ns out qm lq lred lscale; set t [expr $i * {interval!r}]\n"
        f"    foreach l {{{' '.join(program.monitored)}}} {{\n"
        "        set m $qm($l)\n"
        "        if {$lred($l)} { set ave [expr [$lq($l) set ave_] / $lscale($l)] } else { set ave [$m set pkts_] }\n"
        '        puts $out "A $l $t $ave [$m set size_] [$m set pdepartures_]"\n'
        "    }\n"
        f"    if {{[expr ($i + 1) * {interval!r}] <= {duration!r} + 1e-9}} "
        f'{{ $ns at [expr ($i + 1) * {interval!r}] "linkstate [expr $i + 1]" }}\n'
        "}"
    )
    run_at = program.lines.index("$ns run")
    extra = ["# average queue, bytes queued, departures (benchmarks/ns2/referee/ns2_results.py)", *lines, body]
    extra.append(f'$ns at {interval!r} "linkstate 1"')
    program.lines[run_at:run_at] = extra


#: How often `with_flow_rtts` samples each TCP agent's smoothed RTT, s.
RTT_SAMPLE_S = 1.0


def with_flow_rtts(program: ns2_mapping.Ns2Program, resolved: dict[str, Any]) -> None:
    """Insert, before `$ns run`, a sampler writing each TCP flow's smoothed RTT every
    `RTT_SAMPLE_S` from the measurement start, on `$out`:
      R <flow> <t> <srtt s>
    tcp.cc binds `srtt_` to `t_srtt_`, the estimator's state in ticks << T_SRTT_BITS (checked:
    34 with `tcpTick_` 0.01 and T_SRTT_BITS 3 on a 40-ms path = 42.5 ms, the tick's rounding):
    ns-2's own RTT estimate, which `results_from_ns2` averages over the window as the flows'
    `rtt_mean_s` (aqmlab's is the mean of its per-ACK samples, unquantised)."""
    tcp = [index for index, kind in enumerate(program.kinds) if kind == "tcp"]
    if not tcp:
        return
    measure = resolved["measure_start_ns"] / 1e9
    duration = resolved["duration_ns"] / 1e9
    body = (
        "proc flowrtts {t} {\n"
        "    global ns out a\n"
        f"    foreach i {{{' '.join(map(str, tcp))}}} {{\n"
        "        set srtt [expr [$a($i) set srtt_] * [$a($i) set tcpTick_] / (1 << [$a($i) set T_SRTT_BITS])]\n"
        '        puts $out "R $i $t $srtt"\n'
        "    }\n"
        f"    if {{$t + {RTT_SAMPLE_S!r} <= {duration!r} + 1e-9}} "
        f'{{ $ns at [expr $t + {RTT_SAMPLE_S!r}] "flowrtts [expr $t + {RTT_SAMPLE_S!r}]" }}\n'
        "}"
    )
    run_at = program.lines.index("$ns run")
    program.lines[run_at:run_at] = [
        "# each TCP flow's smoothed RTT (benchmarks/ns2/referee/ns2_results.py with_flow_rtts)",
        body,
        f'$ns at {measure!r} "flowrtts {measure!r}"',
    ]


def mean_flow_rtts(text: str, flows: int, measure_s: float) -> np.ndarray:
    """Per flow, the mean of its `R` samples from `measure_s` on, s (NaN without any: UDP, or
    no `with_flow_rtts`; a flow before its first RTT sample reads 0 and is left out)."""
    sums, counts = np.zeros(flows), np.zeros(flows)
    for line in text.splitlines():
        if line.startswith("R "):
            _, flow, t, srtt = line.split()
            if float(t) >= measure_s - 1e-9 and float(srtt) > 0:
                sums[int(flow)] += float(srtt)
                counts[int(flow)] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def run_ns2(program: ns2_mapping.Ns2Program) -> tuple[str, float]:
    """`ns` on the program (niced by the caller); the records' text and the process's CPU time."""
    with tempfile.TemporaryDirectory(prefix="aqmlab-ns2-referee-") as tmp:
        script = Path(tmp) / "run.tcl"
        script.write_text(program.text())
        before = os.times()
        began = time.perf_counter()
        done = subprocess.run([ns2_run.NS, str(script)], cwd=tmp, capture_output=True, text=True)
        after = os.times()
        del began
        if done.returncode != 0:
            raise RuntimeError(f"ns failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        text = (Path(tmp) / ns2_mapping.RECORDS).read_text()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return text, cpu


def results_from_ns2(
    text: str, program: ns2_mapping.Ns2Program, scenario: Scenario, group_of_flow: list[int], seed: int
) -> Results:
    """The ns-2 records as an `aqmlab.Results` of `scenario` (the scenario as aqmlab reads it:
    its groups name the flows). `group_of_flow`: each ns-2 flow's group index in `scenario`."""
    resolved = scenario.resolved()
    records = ns2_run.parse(text, program, resolved["measure_start_ns"] / 1e9)
    state: dict[str, list[list[float]]] = {name: [] for name in program.monitored}
    for line in text.splitlines():
        if line.startswith("A "):
            words = line.split()
            state[words[1]].append([float(w) for w in words[2:]])
    interval = resolved["trace"]["interval_ns"] / 1e9
    columns: dict[str, list[np.ndarray]] = {}
    for index, name in enumerate(program.monitored):
        link = records.links[name]
        extra = np.array(state[name], dtype=float).reshape(-1, 4)
        if extra.shape[0] != link.time_s.size or not np.allclose(extra[:, 0], link.time_s):
            raise RuntimeError(f"ns-2 records of {name}: A and L lines sampled at different times")
        departures = np.diff(np.concatenate([[0.0], extra[:, 3]]))
        table = {
            "link": np.full(link.time_s.size, index, dtype=np.int64),
            "time_s": link.time_s,
            "queue_packets": link.queue_packets,
            "queue_bytes": extra[:, 2],
            "average_queue": extra[:, 1],
            "arrivals": link.arrivals,
            "drops": link.drops,
            "marks": link.marks,
            "departures": departures,
            "departed_bytes": link.departed_bytes,
            "sojourn_s": np.full(link.time_s.size, math.nan),
            # The engine's column for a policy without a virtual queue (crates/engine/src/trace.rs):
            # ns-2's DropTail and RED have none.
            "virtual_queue": np.full(link.time_s.size, math.nan),
            # The interval's departed bits over its capacity, as the engine's (crates/engine/src/sim.rs).
            "utilisation": link.departed_bytes * 8.0 / (program.monitored_rate_bps[name] * interval),
        }
        for key, value in table.items():
            columns.setdefault(key, []).append(np.asarray(value))
    link_trace = arrow.table({key: np.concatenate(parts) for key, parts in columns.items()})
    links = arrow.table(
        {
            "link": np.arange(len(program.monitored), dtype=np.int64),
            "name": np.asarray(program.monitored, dtype=object),
            "role": np.asarray(["core"] * len(program.monitored), dtype=object),
            "monitored": np.ones(len(program.monitored), dtype=bool),
            "rate_bps": np.asarray([program.monitored_rate_bps[n] for n in program.monitored], dtype=float),
        }
    )
    n = len(program.start_times)
    flows = records.flows
    reductions = records.reductions
    raw = {
        "flow": np.arange(n, dtype=np.int64),
        "group": np.asarray(group_of_flow, dtype=np.int64),
        "core_links": np.asarray([",".join(links_) for links_ in program.flow_links], dtype=object),
        "start_s": flows.start_s,
        # A finite transfer's completion (`D` records, web_traffic.py); NaN: long-lived or unfinished.
        "end_s": web_traffic.completion_times(text, n),
        "bytes_delivered": flows.delivered,
        "bytes_delivered_at_measure_start": flows.delivered_at_measure_start,
        "timeouts": records.timeouts,
        "retransmits": records.retransmits,
        "fast_recoveries": np.maximum(reductions - records.timeouts, 0.0),
        "ecn_reductions": np.zeros(n),
        "rtt_mean_s": mean_flow_rtts(text, n, resolved["measure_start_ns"] / 1e9),
    }
    end_s = resolved["duration_ns"] / 1e9
    tables = {
        "link_trace": link_trace,
        # ns-2's records hold no per-flow window trace: an empty one (a measure of it gives NaN).
        "flow_trace": arrow.table({"flow": np.zeros(0, dtype=np.int64), "time_s": np.zeros(0), "cwnd": np.zeros(0)}),
        "flows": _flows_table(scenario, raw, end_s),
        "links": links,
    }
    return Results(
        scenario=scenario,
        seed=seed,
        _tables=_Tables(tables, {}),  # built tables (Results builds the engine's lazily)
        counters={},
        end_s=end_s,
        finished=True,
        metadata={"simulator": "ns-2 2.35"},
    )
