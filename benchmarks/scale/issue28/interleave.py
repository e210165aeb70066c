"""Issue 28: CPU time and events per packet of two builds of the bare runner
(`crates/engine/examples/run_scenario.rs`), alternated run by run on each point (before,
after, before, after, ...) so that the load of the shared machine hits both alike; medians
of `--runs`. CPU = user + system of the runner process (`getrusage`). "events per packet" is
events over bottleneck departures (link 0): a data packet and its ACK.

    PYTHONPATH=python .venv/bin/python benchmarks/scale/issue28/interleave.py \\
        --before /tmp/runner.before --after target/release/examples/run_scenario --runs 3 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))
import bench_flat  # noqa: E402

bench_flat.POINTS["seed000-fig6-rtt200"] = ROOT / "examples" / "seed000-fig6-rtt200.toml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--points", nargs="*", default=list(bench_flat.POINTS), choices=list(bench_flat.POINTS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, required=True)
    args = parser.parse_args()
    report = json.loads(args.json.read_text()) if args.json.is_file() else {}
    for point in args.points:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(bench_flat.resolved(point), file)
        samples: dict[str, list[dict]] = {"before": [], "after": []}
        try:
            for _ in range(args.runs):
                for label in ("before", "after"):
                    runner = args.before if label == "before" else args.after
                    samples[label].append(bench_flat.run_once(runner, file.name, args.seed))
        finally:
            os.unlink(file.name)
        row = {}
        for label, runs in samples.items():
            cpu = statistics.median(s["cpu_s"] for s in runs)
            events, packets = runs[0]["events"], runs[0]["bottleneck_departures"]
            row[label] = {
                "cpu_s_median": cpu,
                "cpu_s": [s["cpu_s"] for s in runs],
                "events": events,
                "bottleneck_departures": packets,
                "events_per_packet": events / packets,
                "ns_per_event": 1e9 * cpu / events,
                "peak_rss_mib": statistics.median(s["peak_rss_mib"] for s in runs),
                "load_1min": [s["load_1min"] for s in runs],
            }
        report[point] = row
        b, a = row["before"], row["after"]
        print(
            f"{point}: events/packet {b['events_per_packet']:.2f} -> {a['events_per_packet']:.2f}, "
            f"CPU {b['cpu_s_median']:.3f} -> {a['cpu_s_median']:.3f} s ({a['cpu_s_median'] / b['cpu_s_median']:.2f}), "
            f"ns/event {b['ns_per_event']:.0f} -> {a['ns_per_event']:.0f}",
            flush=True,
        )
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
