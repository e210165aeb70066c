"""Run an ns-2 program from `ns2_mapping`, parse its records, and compute the metrics.

The metrics are benchmarks/ns3/metrics.py's `summarise` — the restatement of
`aqmlab.Results.summary()` that tests/ns3/test_metrics.py checks against it on aqmlab's own
records — so aqmlab and ns-2 results go through the same arithmetic. Per flow, beside the
aggregates: timeouts (ns-2 `nrexmit_`), retransmitted packets (`nrexmitpack_`) and window
reductions (`ncwndcuts_`: every `slowdown()` call in tcp.cc, and TCP-Linux's entries into
Recovery and Loss, tcp-linux.cc), over the whole run as aqmlab's flows table counts them.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "ns3"))
sys.path.insert(0, str(HERE))

import metrics  # noqa: E402  (benchmarks/ns3/metrics.py)
import ns2_mapping  # noqa: E402

NS = shutil.which("ns") or "/usr/bin/ns"


@dataclass
class Ns2Records:
    links: dict[str, metrics.LinkRecord]
    flows: metrics.FlowRecord
    #: Per flow over the whole run: timeouts, retransmitted packets, window reductions.
    timeouts: np.ndarray
    retransmits: np.ndarray
    reductions: np.ndarray
    wall_s: float


def parse(text: str, program: ns2_mapping.Ns2Program, measure_s: float) -> Ns2Records:
    """The records file of one run as the tables metrics.summarise takes."""
    link_rows: dict[str, list[list[float]]] = {name: [] for name in program.monitored}
    flow_rows: dict[int, list[list[float]]] = {}
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "L":
            link_rows[words[1]].append([float(w) for w in words[2:]])
        elif words[0] == "F":
            flow_rows.setdefault(int(words[1]), []).append([float(w) for w in words[2:]])
    links = {}
    for name, rows in link_rows.items():
        table = np.array(rows, dtype=float).reshape(-1, 6)
        # Cumulative counters to per-interval counts (the first interval from zero). The queue
        # monitor's counters reach Tcl as 32-bit integers (tools/queue-monitor.h binds them with
        # TclObject::bind), so `bdepartures_` wraps after 2^31 bytes (17 s at 1 Gb/s): each
        # interval's increase is taken modulo 2^32, exact since one interval never moves 4 GB.
        counts = np.mod(np.diff(np.vstack([np.zeros((1, 4)), table[:, 2:6]]), axis=0), 2.0**32)
        links[name] = metrics.LinkRecord(
            time_s=table[:, 0],
            queue_packets=table[:, 1],
            arrivals=counts[:, 0],
            drops=counts[:, 1],
            departed_bytes=counts[:, 2],
            rate_bps=program.monitored_rate_bps[name],
            marks=counts[:, 3],
        )
    n = len(program.start_times)
    first = np.zeros((n, 4))
    last = np.zeros((n, 4))
    for flow in range(n):
        rows = flow_rows.get(flow, [])
        if len(rows) != 2:
            raise RuntimeError(f"ns-2 records: flow {flow} has {len(rows)} records, expected 2 (measure start, end)")
        first[flow], last[flow] = rows[0][1:], rows[1][1:]

    def delivered(values: np.ndarray) -> np.ndarray:
        out = np.empty(n)
        for flow in range(n):
            if program.kinds[flow] == "tcp":
                # ack_ is the highest cumulatively acknowledged segment, from 0 (-1: none).
                out[flow] = (values[flow] + 1) * program.payload_bytes[flow]
            else:
                out[flow] = values[flow]  # LossMonitor bytes_
        return out

    flows = metrics.FlowRecord(
        start_s=np.array(program.start_times),
        delivered_at_measure_start=delivered(first[:, 0]),
        delivered=delivered(last[:, 0]),
        ended=np.zeros(n, dtype=bool),
    )
    # Loss-recovery counts over the whole run, as aqmlab's flows table counts them.
    return Ns2Records(links, flows, last[:, 1], last[:, 2], last[:, 3], math.nan)


def run(program: ns2_mapping.Ns2Program, measure_s: float, *, keep: Path | None = None) -> Ns2Records:
    """`ns` on the program in a fresh directory; wall time of the whole process."""
    with tempfile.TemporaryDirectory(prefix="aqmlab-ns2-") as tmp:
        script = Path(tmp) / "run.tcl"
        script.write_text(program.text())
        began = time.perf_counter()
        done = subprocess.run([NS, str(script)], cwd=tmp, capture_output=True, text=True, env={**os.environ})
        wall = time.perf_counter() - began
        if done.returncode != 0:
            raise RuntimeError(f"ns failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        text = (Path(tmp) / ns2_mapping.RECORDS).read_text()
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(script, keep / "run.tcl")
    records = parse(text, program, measure_s)
    records.wall_s = wall
    return records


def summarise(records: Ns2Records, program: ns2_mapping.Ns2Program, link: str, start: float, end: float) -> dict:
    """metrics.summarise over the flows crossing `link`, plus the per-flow loss-recovery
    counts (sums and per-flow means over those flows)."""
    crossing = np.array([link in links for links in program.flow_links])
    flows = records.flows
    sub = metrics.FlowRecord(
        flows.start_s[crossing],
        flows.delivered_at_measure_start[crossing],
        flows.delivered[crossing],
        flows.ended[crossing],
    )
    out = metrics.summarise(records.links[link], sub, start, end)
    out.update(recovery_counts(records.timeouts[crossing], records.retransmits[crossing], records.reductions[crossing]))
    return out


def recovery_counts(timeouts: np.ndarray, retransmits: np.ndarray, reductions: np.ndarray) -> dict[str, float]:
    """Per-flow means over the window: timeouts, retransmitted packets, window reductions
    (fast recoveries + ECN reductions + timeouts)."""
    return {
        "timeouts_per_flow": float(np.mean(timeouts)) if timeouts.size else math.nan,
        "retransmits_per_flow": float(np.mean(retransmits)) if retransmits.size else math.nan,
        "reductions_per_flow": float(np.mean(reductions)) if reductions.size else math.nan,
    }


# --- aqmlab's side, through the same code ---------------------------------------------------


def aqmlab_summary(results: Any, link: str) -> dict[str, float]:
    """metrics.summarise on aqmlab's records, built as benchmarks/ns3/agreement.py builds them."""
    return metrics.summarise(*metrics.aqmlab_records(results, link), results.measure_start_s, results.end_s)


def aqmlab_recovery(results: Any, link: str) -> np.ndarray:
    """Whole-run per-flow counts (timeouts, retransmits, reductions) of aqmlab's flows table
    for the flows crossing `link`."""
    crossing = results.crossing(link)

    def column(name: str) -> np.ndarray:
        return results.flows.column(name).to_numpy()[crossing]

    reductions = column("fast_recoveries") + column("ecn_reductions") + column("timeouts")
    return np.vstack([column("timeouts"), column("retransmits"), reductions])
