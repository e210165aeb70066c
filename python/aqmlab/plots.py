"""Figures of a packet-level run, in the layout of seed 000 Fig. 6: queue, RED average queue,
average window of a set of flows, and link utilisation, over the measurement window."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab.results import Results  # noqa: E402

#: Seed 000 Section V-A1 averages the window of 15 flows.
WINDOW_FLOWS = 15
#: Utilisation is shown in bins of this length (the trace interval is usually 10 ms).
UTILISATION_BIN_S = 0.1


def average_window(results: Results, *, flows: int = WINDOW_FLOWS) -> tuple[np.ndarray, np.ndarray]:
    """Mean cwnd over up to `flows` traced flows, spread evenly over the traced set."""
    trace = results.flow_trace
    if trace.num_rows == 0:
        return np.array([]), np.array([])
    flow_ids = trace.column("flow").to_numpy()
    traced = np.unique(flow_ids)
    chosen = traced[np.unique(np.linspace(0, traced.size - 1, min(flows, traced.size)).round().astype(int))]
    rows = np.isin(flow_ids, chosen)
    time_s = trace.column("time_s").to_numpy()[rows]
    cwnd = trace.column("cwnd").to_numpy()[rows]
    times, inverse = np.unique(time_s, return_inverse=True)
    mean = np.bincount(inverse, weights=cwnd) / np.bincount(inverse)
    return times, mean


def binned_utilisation(
    results: Results, *, bin_s: float = UTILISATION_BIN_S, link: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    samples = results.link_samples(link)
    rate = float(results.links.column("rate_bps")[results.link_id(link)].as_py())
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
    fig, axes = plt.subplots(4, 1, figsize=(7.5, 8.5), sharex=True, constrained_layout=True)
    axes[0].plot(samples["time_s"][in_view], samples["queue_packets"][in_view], lw=0.7, color="tab:blue")
    axes[0].set_ylabel("queue (pkts)")
    average = samples["average_queue"][in_view]
    if np.isfinite(average).any():
        axes[1].plot(samples["time_s"][in_view], average, lw=0.9, color="tab:orange")
    else:
        axes[1].text(0.5, 0.5, "the queue policy keeps no average", ha="center", transform=axes[1].transAxes)
    axes[1].set_ylabel("average queue (pkts)")
    times, window = average_window(results)
    shown = times >= start
    axes[2].plot(times[shown], window[shown], lw=0.8, color="tab:green")
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
        axes[0, column].plot(samples["time_s"][shown], samples["queue_packets"][shown], lw=0.6)
        axes[1, column].plot(samples["time_s"][shown], samples["average_queue"][shown], lw=0.9, color="tab:orange")
        times, window = average_window(results)
        axes[2, column].plot(times[times >= start], window[times >= start], lw=0.8, color="tab:green")
        times, utilisation = binned_utilisation(results)
        axes[3, column].plot(times[times > start], 100 * utilisation[times > start], lw=0.8, color="tab:red")
        axes[0, column].set_title(name, fontsize=10)
        axes[3, column].set_xlabel("time (s)")
    for row, label in enumerate(("queue (pkts)", "average queue (pkts)", "mean cwnd, 15 flows", "utilisation (%)")):
        axes[row, 0].set_ylabel(label)
        for axis in axes[row]:
            axis.grid(alpha=0.3)
    axes[3, 0].set_ylim(0, 105)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
