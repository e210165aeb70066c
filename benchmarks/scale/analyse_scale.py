"""Fits and figure for `results.json` of `bench_scale.py` (issue 9 item 3).

Cost is measured two ways per run: `run_s` (wall time of the event loop, as
benchmarks/dumbbell-60 reports it) and `process_cpu_s` (user + system CPU time of the runner
process, from getrusage). The machine's 2 cores are shared with other engineers' jobs (load
average 3-4 during the recorded runs), so the wall time includes time spent waiting for a
core (run_s ≈ 1.5-2 × CPU time there); the CPU time does not, and the fits use it.
CPU time also counts process start-up and setup (a few ms), so fits use only points with at
least `FIT_MIN_CPU_S` of CPU time.

Fits (numpy least squares, one per series):
* CPU ∝ packets^a: log(cpu) = log c + a · log(bottleneck departures); the same for wall time;
* CPU ∝ x^b against the series' own variable (flows, rate, simulated time);
* peak RSS ∝ x^m, and peak RSS = base + slope · x;
* CPU ns per event against x: ns = c0 + c1 · log2(x) — what a heap event queue's
  O(log pending events) with pending events ∝ N would give — and ns ∝ x^e as the alternative.
The fits are written back into `results.json` under "fits".
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

FIT_MIN_CPU_S = 0.05
VARIABLE = {
    "flows": "flows",
    "flows_fixed_rate": "flows",
    "rate": "rate_bps",
    "duration": "duration_s",
    "duration_trace_1s": "duration_s",
}


def power_law(x, y) -> dict:
    """log-log least squares y = c x^a; returns a, c and the coefficient of determination."""
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    (a, logc), residuals, *_ = np.polyfit(lx, ly, 1, full=True)
    total = float(np.sum((ly - ly.mean()) ** 2))
    r2 = 1.0 - float(residuals[0]) / total if residuals.size and total > 0 else 1.0
    return {"exponent": float(a), "coefficient": float(np.exp(logc)), "r2": r2, "points": len(lx)}


def log_linear(x, y) -> dict:
    """y = c0 + c1 log2(x), least squares, with the largest relative residual."""
    lx, y = np.log2(np.asarray(x, float)), np.asarray(y, float)
    c1, c0 = np.polyfit(lx, y, 1)
    return {
        "c0": float(c0),
        "c1_per_doubling": float(c1),
        "max_relative_residual": float(np.max(np.abs(c0 + c1 * lx - y) / y)),
    }


def linear(x, y) -> dict:
    """y = intercept + slope · x, least squares (memory: a base plus a cost per flow or per second)."""
    slope, intercept = np.polyfit(np.asarray(x, float), np.asarray(y, float), 1)
    return {"intercept": float(intercept), "slope": float(slope)}


def cpu_ns_per_event(point: dict) -> float:
    return 1e9 * point["process_cpu_s_median"] / point["events"]


def fits(series: dict[str, list[dict]]) -> dict:
    out = {}
    for name, all_points in series.items():
        points = [p for p in all_points if p["process_cpu_s_median"] >= FIT_MIN_CPU_S]
        if len(points) < 3:
            continue
        key = VARIABLE[name]
        x = [p[key] for p in points]
        packets = [p["bottleneck_departures"] for p in points]
        cpu = [p["process_cpu_s_median"] for p in points]
        out[name] = {"points_used": x}
        if max(packets) > 2 * min(packets):  # the fixed-rate series barely changes the packet count
            out[name]["cpu_vs_packets"] = power_law(packets, cpu)
            out[name]["wall_vs_packets"] = power_law(packets, [p["run_s_median"] for p in points])
        out[name] |= {
            f"cpu_vs_{key}": power_law(x, cpu),
            f"peak_rss_vs_{key}": power_law(x, [p["peak_rss_mib_median"] for p in points]),
            f"peak_rss_mib_linear_in_{key}": linear(x, [p["peak_rss_mib_median"] for p in points]),
            "cpu_ns_per_event_vs_log2_x": log_linear(x, [cpu_ns_per_event(p) for p in points]),
            f"cpu_ns_per_event_vs_{key}": power_law(x, [cpu_ns_per_event(p) for p in points]),
        }
    return out


def plot(series: dict[str, list[dict]], fitted: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 8.5), constrained_layout=True)
    cost, per_event, memory, duration = axes.flat
    for name in ("flows", "flows_fixed_rate", "rate", "duration"):
        points = series.get(name, [])
        if not points:
            continue
        packets = np.array([p["bottleneck_departures"] for p in points], float)
        fit = fitted.get(name, {}).get("cpu_vs_packets")
        label = name if fit is None else f"{name}: CPU ∝ packets^{fit['exponent']:.2f}"
        (line,) = cost.loglog(packets, [p["process_cpu_s_median"] for p in points], "o", label=label)
        cost.loglog(packets, [p["run_s_median"] for p in points], "o", mfc="none", color=line.get_color())
        if fit:
            grid = np.geomspace(packets.min(), packets.max(), 50)
            cost.loglog(grid, fit["coefficient"] * grid ** fit["exponent"], "-", color=line.get_color(), alpha=0.5)
    cost.set_xlabel("bottleneck packets (departures)")
    cost.set_ylabel("seconds (filled: CPU time, open: wall time), median of 3")
    cost.set_title("cost against packets", fontsize=10)

    for name, marker in (("flows", "o-"), ("flows_fixed_rate", "^-"), ("rate", "s")):
        points = series.get(name, [])
        if points:
            label = {
                "flows": "rate = N × 1 Mb/s",
                "flows_fixed_rate": "rate 1 Gb/s",
                "rate": "N = 100, rate 10 Mb/s-10 Gb/s",
            }[name]
            per_event.loglog([p["flows"] for p in points], [cpu_ns_per_event(p) for p in points], marker, label=label)
    flows = [p for p in series.get("flows", []) if p["flows"] >= 100]
    if flows:
        n = np.geomspace(100, max(p["flows"] for p in flows), 50)
        anchor = cpu_ns_per_event(flows[0])
        per_event.loglog(
            n,
            anchor * np.log2(4 * n) / np.log2(4 * 100),
            "k:",
            label="a heap's log factor alone, log2(4N), from N = 100",
        )
    per_event.set_xlabel("flows N")
    per_event.set_ylabel("CPU ns per event")
    per_event.set_title("cost per event grows with flows, not with rate", fontsize=10)

    for name, marker in (("flows", "o-"), ("flows_fixed_rate", "^-")):
        points = series.get(name, [])
        if points:
            memory.loglog(
                [p["flows"] for p in points],
                [p["peak_rss_mib_median"] for p in points],
                marker,
                label={"flows": "rate = N × 1 Mb/s", "flows_fixed_rate": "rate 1 Gb/s"}[name],
            )
    memory.set_xlabel("flows N")
    memory.set_ylabel("peak RSS (MiB)")
    memory.set_title("peak memory against flows", fontsize=10)

    for name, style in (("duration", "-"), ("duration_trace_1s", ":")):
        points = series.get(name, [])
        if points:
            t = [p["duration_s"] for p in points]
            trace = points[0]["trace_interval"]
            duration.loglog(
                t, [p["process_cpu_s_median"] for p in points], "o" + style, label=f"CPU time (s), link trace {trace}"
            )
            duration.loglog(
                t, [p["peak_rss_mib_median"] for p in points], "s" + style, label=f"peak RSS (MiB), link trace {trace}"
            )
    duration.set_xlabel("simulated time (s), dumbbell-60")
    duration.set_title("simulated time", fontsize=10)
    for axis in axes.flat:
        axis.grid(alpha=0.3, which="both")
        axis.legend(fontsize=8)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def analyse(results: Path, figure: Path) -> dict:
    report = json.loads(results.read_text())
    fitted = fits(report["series"])
    report["fits"] = fitted
    results.write_text(json.dumps(report, indent=1))
    plot(report["series"], fitted, figure)
    for name, fit in fitted.items():
        print(name, json.dumps(fit))
    return fitted
