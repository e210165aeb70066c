"""Issue 19: cost per event against the number of flows, before and after an engine change.

Runs a given build of the bare runner (`crates/engine/examples/run_scenario.rs`) on the `flows`
points of `bench_scale.py` (N flows on N × 1 Mb/s, 10 s) for N = 100, 1000, 10 000, on
100 000 flows sharing 10 Gb/s for 10 s (the issue's target), on the seed 002 large-capacity
scenario at full size (`../large-scale/scenario.toml`: 2000 ECN flows, 1 Gb/s, 40 s, default
traces) and on dumbbell-60 (100 s). CPU time is user + system of the runner process
(`getrusage`), medians of `--runs`; the load average is recorded beside every point because
the machine is shared.

    cargo build --release --example run_scenario && cp target/release/examples/run_scenario /tmp/runner.after
    PYTHONPATH=python .venv/bin/python benchmarks/scale/bench_flat.py --label after --runner /tmp/runner.after
    PYTHONPATH=python .venv/bin/python benchmarks/scale/bench_flat.py --plot-only
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "results_flat.json"
sys.path.insert(0, str(HERE))

#: point name -> (flows, rate b/s, simulated s) of `scaled_dumbbell`, or a scenario file.
POINTS: dict[str, tuple[int, float, float] | Path] = {
    "flows-100": (100, 1e8, 10.0),
    "flows-300": (300, 3e8, 10.0),
    "flows-1000": (1000, 1e9, 10.0),
    "flows-3000": (3000, 3e9, 10.0),
    "flows-10000": (10000, 1e10, 10.0),
    "flows-100000-10G": (100000, 1e10, 10.0),
    "seed002-large-capacity-full": ROOT / "benchmarks" / "large-scale" / "scenario.toml",
    "dumbbell-60": ROOT / "benchmarks" / "dumbbell-60" / "scenario.toml",
}


def resolved(point: str) -> dict:
    from aqmlab.scenario import load
    from bench_scale import scaled_dumbbell

    spec = POINTS[point]
    scenario = load(spec) if isinstance(spec, Path) else scaled_dumbbell(*spec)
    return scenario.resolved()


def run_once(runner: str, scenario_file: str, seed: int) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    sample = json.loads(subprocess.check_output([runner, scenario_file, str(seed)], text=True))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    sample["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    sample["load_1min"] = [load, os.getloadavg()[0]]
    return sample


def measure(label: str, runner: str, points: list[str], runs: int, seed: int) -> None:
    report = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    entry = report.setdefault(label, {"points": {}})
    entry.update(runner=runner, date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))
    for point in points:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(resolved(point), file)
        try:
            samples = [run_once(runner, file.name, seed) for _ in range(runs)]
        finally:
            os.unlink(file.name)
        cpu = statistics.median(s["cpu_s"] for s in samples)
        events = samples[0]["events"]
        entry["points"][point] = {
            "cpu_s_median": cpu,
            "run_s_median": statistics.median(s["run_s"] for s in samples),
            "peak_rss_mib_median": statistics.median(s["peak_rss_mib"] for s in samples),
            "events": events,
            "bottleneck_departures": samples[0]["bottleneck_departures"],
            "ns_per_event": 1e9 * cpu / events,
            "ns_per_bottleneck_packet": 1e9 * cpu / samples[0]["bottleneck_departures"],
            "runs": len(samples),
            "samples": samples,
        }
        rss = entry["points"][point]["peak_rss_mib_median"]
        print(
            f"{label} {point}: cpu {cpu:.3f} s, {events} events, {1e9 * cpu / events:.0f} ns/event, "
            f"rss {rss:.1f} MiB, load {samples[-1]['load_1min']}",
            flush=True,
        )
        RESULTS.write_text(json.dumps(report, indent=1) + "\n")


def plot(labels: list[str] | None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    report = json.loads(RESULTS.read_text())
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, entry in report.items():
        if labels and label not in labels:
            continue
        series = [p for p in entry["points"] if p.startswith("flows-") and p != "flows-100000-10G"]
        flows = sorted((POINTS[p][0], entry["points"][p]["ns_per_event"]) for p in series)
        (line,) = ax.plot([n for n, _ in flows], [ns for _, ns in flows], "o-", label=f"{label}: N × 1 Mb/s, 10 s")
        big = entry["points"].get("flows-100000-10G")
        if big:
            label_big = f"{label}: 100 000 flows, 10 Gb/s, 10 s"
            ax.plot([100000], [big["ns_per_event"]], "s", color=line.get_color(), label=label_big)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("flows N")
    ax.set_ylabel("CPU ns per event (median of runs)")
    ax.set_title("Engine cost per event against the number of flows")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(HERE / "flat.png", dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", default="after")
    parser.add_argument("--runner", default=str(ROOT / "target" / "release" / "examples" / "run_scenario"))
    parser.add_argument("--points", nargs="*", default=list(POINTS), choices=list(POINTS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot-only", action="store_true")
    parser.add_argument("--plot-labels", nargs="*", help="labels to plot (default: all)")
    args = parser.parse_args()
    if not args.plot_only:
        measure(args.label, args.runner, args.points, args.runs, args.seed)
    plot(args.plot_labels)


if __name__ == "__main__":
    main()
