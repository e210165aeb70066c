"""Figures of a packet-level run, in the layout of seed 000 Fig. 6: queue, RED average queue,
average window of a set of flows, and link utilisation, over the measurement window."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
from typing import TYPE_CHECKING  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab import _arrow as arrow  # noqa: E402

if TYPE_CHECKING:  # annotations only (this display layer sits above the results)
    from aqmlab.results import Results

#: Seed 000 Section V-A1 averages the window of 15 flows.
WINDOW_FLOWS = 15
#: Utilisation is shown in bins of this length (the trace interval is usually 10 ms).
UTILISATION_BIN_S = 0.1
#: Above this many samples a trace is drawn as its min/max envelope over this many bins plus
#: the bin means: a dense line drawn point by point renders as a solid block.
ENVELOPE_ABOVE, ENVELOPE_BINS = 3000, 800


def trace(axis, times: np.ndarray, values: np.ndarray, *, color: str, lw: float = 0.7, label: str | None = None):
    """A time series; dense ones as a min/max envelope (shaded) and the bin means (line)."""
    times, values = np.asarray(times, dtype=float), np.asarray(values, dtype=float)
    if times.size <= ENVELOPE_ABOVE:
        return axis.plot(times, values, lw=lw, color=color, label=label)
    edges = np.linspace(times[0], times[-1], ENVELOPE_BINS + 1)
    index = np.clip(np.searchsorted(edges, times, side="right") - 1, 0, ENVELOPE_BINS - 1)
    finite = np.isfinite(values)
    index, kept = index[finite], values[finite]
    low = np.full(ENVELOPE_BINS, np.inf)
    high = np.full(ENVELOPE_BINS, -np.inf)
    np.minimum.at(low, index, kept)
    np.maximum.at(high, index, kept)
    counts = np.bincount(index, minlength=ENVELOPE_BINS)
    mean = np.bincount(index, weights=kept, minlength=ENVELOPE_BINS) / np.maximum(counts, 1)
    filled = counts > 0
    centres = 0.5 * (edges[:-1] + edges[1:])
    axis.fill_between(centres[filled], low[filled], high[filled], color=color, alpha=0.3, lw=0, label="min–max")
    return axis.plot(centres[filled], mean[filled], lw=lw, color=color, label=label or "mean")


def queue_thresholds(results: Results, link: str | None = None) -> dict[str, float]:
    """The queue policy's thresholds in packets for the link ('min_th', 'max_th' of RED and
    its variants, 'threshold' of the threshold policy), from the resolved scenario."""
    name = link or results.main_link
    queue = _find_queue(results.scenario.resolved()["topology"], name.removesuffix("_reverse"))
    if not isinstance(queue, dict):
        return {}
    found = {}
    for key, label in (("min_th", "min_th"), ("max_th", "max_th"), ("threshold", "q_th"), ("q_th", "q_th")):
        value = queue.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            found[label] = float(value)
    return found


def _find_queue(node, name: str):
    """The `queue` of the link called `name` anywhere in the resolved topology."""
    if isinstance(node, dict):
        if node.get("name") == name and isinstance(node.get("queue"), dict):
            return node["queue"]
        if name in node and isinstance(node[name], dict) and isinstance(node[name].get("queue"), dict):
            return node[name]["queue"]
        for value in node.values():
            found = _find_queue(value, name)
            if found is not None:
                return found
    elif isinstance(node, list):
        for value in node:
            found = _find_queue(value, name)
            if found is not None:
                return found
    return None


def mark_thresholds(axis, thresholds: dict[str, float]) -> None:
    """Dashed horizontal lines at the queue policy's thresholds, labelled."""
    for index, (label, value) in enumerate(sorted(thresholds.items(), key=lambda item: item[1])):
        axis.axhline(value, color="0.3", lw=0.8, ls=("--", ":", "-.")[index % 3], label=f"{label} = {value:g} pkts")
    if thresholds:
        axis.legend(loc="upper right", fontsize=7)


def average_window(results: Results, *, flows: int = WINDOW_FLOWS) -> tuple[np.ndarray, np.ndarray]:
    """Mean cwnd over up to `flows` traced flows, spread evenly over the traced set."""
    trace = results.flow_trace
    if trace.num_rows == 0:
        return np.array([]), np.array([])
    flow_ids = arrow.to_numpy(trace.column("flow"))
    traced = np.unique(flow_ids)
    chosen = traced[np.unique(np.linspace(0, traced.size - 1, min(flows, traced.size)).round().astype(int))]
    rows = np.isin(flow_ids, chosen)
    time_s = arrow.to_numpy(trace.column("time_s"))[rows]
    cwnd = arrow.to_numpy(trace.column("cwnd"))[rows]
    times, inverse = np.unique(time_s, return_inverse=True)
    mean = np.bincount(inverse, weights=cwnd) / np.bincount(inverse)
    return times, mean


def binned_utilisation(
    results: Results, *, bin_s: float = UTILISATION_BIN_S, link: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    samples = results.link_samples(link)
    rate = float(arrow.to_numpy(results.links.column("rate_bps"))[results.link_id(link)])
    index = np.floor((samples["time_s"] - 1e-12) / bin_s).astype(np.int64)
    per_bin = np.bincount(index, weights=samples["departed_bytes"])
    times = (np.arange(per_bin.size) + 1) * bin_s
    return times, per_bin * 8.0 / (rate * bin_s)


def plot_run(
    results: Results, path: str | Path, *, window_only: bool = True, title: str | None = None, link: str | None = None
) -> Path:
    """Four stacked panels for one traced link (default: the main link); `window_only`
    limits them to the measurement window."""
    start = results.measure_start_s if window_only else 0.0
    samples = results.link_samples(link)
    in_view = samples["time_s"] >= start
    # Fixed margins, not constrained layout: the figure's layout is always the same, and
    # constrained layout was a quarter of the figure's cost (benchmarks/scale/README.md).
    fig, axes = plt.subplots(4, 1, figsize=(7.5, 8.5), sharex=True)
    fig.subplots_adjust(left=0.13, right=0.97, bottom=0.06, top=0.95, hspace=0.1)
    thresholds = queue_thresholds(results, link)
    trace(axes[0], samples["time_s"][in_view], samples["queue_packets"][in_view], color="tab:blue")
    mark_thresholds(axes[0], thresholds)
    axes[0].set_ylabel("queue (pkts)")
    average = samples["average_queue"][in_view]
    if np.isfinite(average).any():
        trace(axes[1], samples["time_s"][in_view], average, lw=0.9, color="tab:orange")
        mark_thresholds(axes[1], thresholds)
    else:
        axes[1].text(0.5, 0.5, "the queue policy keeps no average", ha="center", transform=axes[1].transAxes)
    axes[1].set_ylabel("average queue (pkts)")
    times, window = average_window(results)
    shown = times >= start
    trace(axes[2], times[shown], window[shown], lw=0.8, color="tab:green")
    axes[2].set_ylabel(f"mean cwnd of {WINDOW_FLOWS}\nflows (pkts)")
    times, utilisation = binned_utilisation(results, link=link)
    shown = times > start
    axes[3].plot(times[shown], 100.0 * utilisation[shown], lw=0.8, color="tab:red")
    axes[3].set_ylabel(f"utilisation (%)\n{UTILISATION_BIN_S * 1000:.0f} ms bins")
    axes[3].set_ylim(0, 105)
    axes[3].set_xlabel("time (s)")
    for axis in axes:
        axis.grid(alpha=0.3)
    fig.suptitle(title or (results.scenario.name if link is None else f"{results.scenario.name}: {link}"))
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_side_by_side(runs: dict[str, Results], path: str | Path) -> Path:
    """Seed 000 Fig. 6 layout, one column per run: queue, average queue, mean cwnd of 15
    flows and utilisation over each run's measurement window."""
    fig, axes = plt.subplots(
        4, len(runs), figsize=(5.5 * len(runs), 8.5), sharex="col", sharey="row", constrained_layout=True, squeeze=False
    )
    for column, (name, results) in enumerate(runs.items()):
        start = results.measure_start_s
        samples = results.link_samples("bottleneck")
        shown = samples["time_s"] >= start
        thresholds = queue_thresholds(results, "bottleneck")
        trace(axes[0, column], samples["time_s"][shown], samples["queue_packets"][shown], lw=0.6, color="tab:blue")
        mark_thresholds(axes[0, column], thresholds)
        trace(axes[1, column], samples["time_s"][shown], samples["average_queue"][shown], lw=0.9, color="tab:orange")
        mark_thresholds(axes[1, column], thresholds)
        times, window = average_window(results)
        trace(axes[2, column], times[times >= start], window[times >= start], lw=0.8, color="tab:green")
        times, utilisation = binned_utilisation(results)
        axes[3, column].plot(times[times > start], 100 * utilisation[times > start], lw=0.8, color="tab:red")
        axes[0, column].set_title(name, fontsize=10)
        axes[3, column].set_xlabel("time (s)")
    labels = ("queue (pkts)", "average queue (pkts)", "mean cwnd, 15 flows (pkts)", "utilisation (%)")
    for row, label in enumerate(labels):
        axes[row, 0].set_ylabel(label)
        for axis in axes[row]:
            axis.grid(alpha=0.3)
    axes[3, 0].set_ylim(0, 105)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
