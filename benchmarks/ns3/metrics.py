"""The agreement metrics, computed the same way from either simulator's raw records.

The definitions are those of `aqmlab.Results.summary()` (python/aqmlab/results.py), restated
here on plain arrays so that ns-3's records (from `aqmlab_ns3.cc`) go through exactly the
same arithmetic; `tests/ns3/test_metrics.py` checks that on aqmlab's own records this module
reproduces `Results.summary()`.

- queue mean and std: over the link's samples (every trace interval) after the window start;
- loss: drops / arrivals at the link's queue in the window (%); marks: ECN marks / arrivals;
- utilisation: departed IP bytes per complete 1 s bin of the window / capacity, mean of bins;
- goodput: payload bytes delivered to the receivers in the window, summed over the flows
  crossing the link, / window length;
- Jain's index of per-flow goodputs, over the flows present during the whole window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

UTILISATION_BIN_S = 1.0
#: The metrics compared, with the agreement threshold of issue 15 (relative difference), or
#: None where none is set (reported only).
METRICS = {
    "goodput_mbps": 0.10,
    "utilisation": 0.10,
    "queue_mean_packets": 0.25,
    "queue_std_packets": 0.35,
    "loss_percent": 0.25,
    "mark_percent": 0.25,
    "jain_fairness": None,
}


def disagreements(aqmlab: dict[str, float], ns3: dict[str, float]) -> list[str]:
    """The metrics whose relative difference is beyond its threshold (or undefined, unless
    both are equal, e.g. no marks in either): an empty list means the row agrees."""
    out = []
    for key, threshold in METRICS.items():
        if threshold is None or key not in aqmlab or key not in ns3 or aqmlab[key] == ns3[key]:
            continue  # (results stored before a metric was added do not have it)
        diff = relative_difference(aqmlab[key], ns3[key])
        if not (math.isfinite(diff) and abs(diff) <= threshold):
            out.append(key)
    return out


@dataclass
class LinkRecord:
    time_s: np.ndarray
    queue_packets: np.ndarray
    arrivals: np.ndarray
    drops: np.ndarray
    departed_bytes: np.ndarray
    rate_bps: float
    #: ECN marks per interval (None: not recorded).
    marks: np.ndarray | None = None


@dataclass
class FlowRecord:
    start_s: np.ndarray
    delivered_at_measure_start: np.ndarray
    delivered: np.ndarray
    #: True for flows whose transfer ended before the end (aqmlab: end_s is not NaN).
    ended: np.ndarray


def jain_index(values: np.ndarray) -> float:
    """(Σx)² / (n Σx²)."""
    values = np.asarray(values, dtype=float)
    square_sum = float(np.sum(values**2))
    if values.size == 0 or square_sum == 0.0:
        return math.nan
    return float(values.sum() ** 2 / (values.size * square_sum))


def binned_utilisation(link: LinkRecord, start: float, end: float) -> np.ndarray:
    bins = math.floor((end - start) / UTILISATION_BIN_S + 1e-9)
    index = np.floor((link.time_s - start - 1e-12) / UTILISATION_BIN_S).astype(np.int64)
    keep = (index >= 0) & (index < bins)
    per_bin = np.bincount(index[keep], weights=link.departed_bytes[keep], minlength=bins)
    return per_bin * 8.0 / (link.rate_bps * UTILISATION_BIN_S)


def summarise(link: LinkRecord, flows: FlowRecord, start: float, end: float) -> dict[str, float]:
    """The compared metrics over the window [start, end] (s)."""
    in_window = link.time_s > start + 1e-12
    queue = link.queue_packets[in_window]
    arrivals = link.arrivals[in_window].sum()
    drops = link.drops[in_window].sum()
    goodput_bps = (flows.delivered - flows.delivered_at_measure_start) * 8.0 / (end - start)
    present = (flows.start_s <= start) & ~flows.ended
    return {
        "goodput_mbps": float(goodput_bps.sum()) / 1e6,
        "utilisation": float(binned_utilisation(link, start, end).mean()),
        "queue_mean_packets": float(queue.mean()),
        "queue_std_packets": float(queue.std()),
        "loss_percent": 100.0 * drops / arrivals if arrivals else math.nan,
        "mark_percent": 100.0 * link.marks[in_window].sum() / arrivals
        if arrivals and link.marks is not None
        else math.nan,
        "jain_fairness": jain_index(goodput_bps[present]),
        "flows_in_jain": float(present.sum()),
    }


def relative_difference(aqmlab: float, ns3: float) -> float:
    """(aqmlab − ns-3) / ns-3: ns-3 is the reference."""
    if not (math.isfinite(aqmlab) and math.isfinite(ns3)) or ns3 == 0.0:
        return math.nan
    return (aqmlab - ns3) / ns3


def aqmlab_records(results: Any, link: str) -> tuple[LinkRecord, FlowRecord]:
    """The records `summarise` reads, from an `aqmlab.Results` for the flows crossing `link`
    (used by the ns-3 and the ns-2 harness alike)."""
    samples = results.link_samples(link)
    rate = float(results.links.column("rate_bps")[results.link_id(link)].as_py())
    crossing = results.crossing(link)

    def column(name):
        return results.flows.column(name).to_numpy()[crossing]

    return (
        LinkRecord(
            samples["time_s"],
            samples["queue_packets"],
            samples["arrivals"],
            samples["drops"],
            samples["departed_bytes"],
            rate,
            samples["marks"],
        ),
        FlowRecord(
            column("start_s"),
            column("bytes_delivered_at_measure_start"),
            column("bytes_delivered"),
            ~np.isnan(column("end_s")),
        ),
    )
