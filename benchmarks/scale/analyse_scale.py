"""Fits and figure for `results.json` of `bench_scale.py` (issue 9 item 3).

Fits (numpy least squares, one per series):
* wall ∝ packets^a: log(run_s) = log c + a · log(bottleneck departures);
* wall ∝ x^b against the series' own variable (flows, rate, simulated time);
* peak RSS ∝ x^m;
* cost per event and per bottleneck packet against the series' variable: ns = c0 + c1 ·
  log2(x) — a heap event queue costs O(log pending events), and pending events grow with N —
  and, as the alternative, ns ∝ x^e.
The fits are written back into `results.json` under "fits".
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

VARIABLE = {"flows": ("flows", "flows N"), "flows_fixed_rate": ("flows", "flows N at 1 Gb/s"),
            "rate": ("rate_bps", "bottleneck rate (b/s)"), "duration": ("duration_s", "simulated time (s)"),
            "duration_trace_1s": ("duration_s", "simulated time (s), link trace every 1 s")}


def power_law(x, y) -> dict:
    """log-log least squares y = c x^a; returns a, c and the coefficient of determination."""
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    (a, logc), residuals, *_ = np.polyfit(lx, ly, 1, full=True)
    total = float(np.sum((ly - ly.mean()) ** 2))
    r2 = 1.0 - float(residuals[0]) / total if residuals.size and total > 0 else 1.0
    return {"exponent": float(a), "coefficient": float(np.exp(logc)), "r2": r2, "points": len(lx)}


def log_linear(n, y) -> dict:
    """y = c0 + c1 log2(n), least squares."""
    c1, c0 = np.polyfit(np.log2(np.asarray(n, float)), np.asarray(y, float), 1)
    return {"c0": float(c0), "c1_per_doubling": float(c1)}


def fits(series: dict[str, list[dict]]) -> dict:
    out = {}
    for name, points in series.items():
        if len(points) < 2:
            continue
        key = VARIABLE[name][0]
        x = [p[key] for p in points]
        out[name] = {
            "wall_vs_packets": power_law([p["bottleneck_departures"] for p in points], [p["run_s_median"] for p in points]),
            f"wall_vs_{key}": power_law(x, [p["run_s_median"] for p in points]),
            "cpu_vs_packets": power_law([p["bottleneck_departures"] for p in points],
                                        [p["process_cpu_s_median"] for p in points]),
            f"peak_rss_vs_{key}": power_law(x, [p["peak_rss_mib_median"] for p in points]),
            "ns_per_event_vs_log2_x": log_linear(x, [p["ns_per_event"] for p in points]),
            f"ns_per_event_vs_{key}": power_law(x, [p["ns_per_event"] for p in points]),
            "ns_per_packet_vs_log2_x": log_linear(x, [p["ns_per_bottleneck_packet"] for p in points]),
        }
    return out


def plot(series: dict[str, list[dict]], fitted: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 8), constrained_layout=True)
    wall, cost, memory, duration = axes.flat
    for name, points in series.items():
        packets = np.array([p["bottleneck_departures"] for p in points], float)
        run = np.array([p["run_s_median"] for p in points])
        fit = fitted.get(name, {}).get("wall_vs_packets")
        label = name if fit is None else f"{name}: wall ∝ packets^{fit['exponent']:.2f}"
        (line,) = wall.loglog(packets, run, "o", label=label)
        if fit:
            grid = np.geomspace(packets.min(), packets.max(), 50)
            wall.loglog(grid, fit["coefficient"] * grid ** fit["exponent"], "-", color=line.get_color(), alpha=0.5)
    wall.set_xlabel("bottleneck packets (departures)")
    wall.set_ylabel("wall time of the run (s), median of 3")
    wall.legend(fontsize=8)
    wall.set_title("wall time against packets")

    for name, marker in (("flows", "o"), ("flows_fixed_rate", "^"), ("rate", "s")):
        points = series.get(name, [])
        if not points:
            continue
        x = np.array([p[VARIABLE[name][0]] for p in points], float) / (1e6 if name == "rate" else 1.0)
        unit = "Mb/s" if name == "rate" else "N"
        (line,) = cost.loglog(x, [p["ns_per_event"] for p in points], marker + "-", label=f"{name}: ns per event (x = {unit})")
        cost.loglog(x, [p["ns_per_bottleneck_packet"] / 10 for p in points], marker + "--", color=line.get_color(),
                    label=f"{name}: ns per bottleneck packet / 10")
    cost.set_xlabel("flows N (flows series) or rate in Mb/s (rate series)")
    cost.set_ylabel("ns")
    cost.legend(fontsize=8)
    cost.set_title("cost per event and per packet")

    for name, marker in (("flows", "o"), ("flows_fixed_rate", "^"), ("rate", "s")):
        points = series.get(name, [])
        if points:
            x = np.array([p[VARIABLE[name][0]] for p in points], float) / (1e6 if name == "rate" else 1.0)
            memory.loglog(x, [p["peak_rss_mib_median"] for p in points], marker + "-",
                          label=f"{name} (x = {'Mb/s' if name == 'rate' else 'N'})")
    memory.set_xlabel("flows N or rate (Mb/s)")
    memory.set_ylabel("peak RSS (MiB)")
    memory.legend(fontsize=8)
    memory.set_title("peak memory")

    for name, style in (("duration", "-"), ("duration_trace_1s", ":")):
        points = series.get(name, [])
        if points:
            t = [p["duration_s"] for p in points]
            trace = points[0]["trace_interval"]
            duration.loglog(t, [p["run_s_median"] for p in points], "o" + style, label=f"wall time (s), link trace {trace}")
            duration.loglog(t, [p["peak_rss_mib_median"] for p in points], "s" + style,
                            label=f"peak RSS (MiB), link trace {trace}")
        duration.set_xlabel("simulated time (s), dumbbell-60")
        duration.legend(fontsize=8)
        duration.set_title("simulated time")
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
