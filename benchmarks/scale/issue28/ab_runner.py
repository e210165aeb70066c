"""Issue 28, stop 2: CPU time of two or more builds of the bare runner
(`crates/engine/examples/run_scenario.rs`) on resolved scenario files, alternated run by run
(A, B, A, B, ...) so the load of the shared machine falls on each alike; medians of `--runs`.
CPU = user + system of the runner (`getrusage` of the children), so it includes building the
simulation. ns per packet = CPU over bottleneck departures (a data packet and its ACK).

    .venv/bin/python benchmarks/scale/issue28/ab_runner.py \\
        --runners /tmp/runner.before target/release/examples/run_scenario \\
        --scenarios /tmp/flows10000.json --runs 5 --json benchmarks/scale/issue28/prefetch_ab.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runners", nargs="+", required=True)
    parser.add_argument("--scenarios", nargs="+", required=True, help="resolved scenario JSON files")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    report = json.loads(args.json.read_text()) if args.json and args.json.is_file() else {}
    for scenario in args.scenarios:
        cpu: dict[str, list[float]] = {runner: [] for runner in args.runners}
        last: dict[str, dict] = {}
        loads = []
        for _ in range(args.runs):
            for runner in args.runners:
                loads.append(os.getloadavg()[0])
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                last[runner] = json.loads(subprocess.check_output([runner, scenario, "1"], text=True))
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[runner].append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        rows = {}
        for runner, samples in cpu.items():
            median = statistics.median(samples)
            packets = last[runner]["bottleneck_departures"]
            rows[runner] = {
                "cpu_s_median": round(median, 4),
                "cpu_s": [round(x, 4) for x in samples],
                "events": last[runner]["events"],
                "bottleneck_departures": packets,
                "ns_per_packet": round(1e9 * median / packets),
                "peak_rss_mib": last[runner]["peak_rss_mib"],
            }
            print(f"{Path(scenario).stem:32s} {runner:40s} {rows[runner]}", flush=True)
        report[Path(scenario).stem] = {"load_1min": [min(loads), max(loads)], "runners": rows}
        if args.json:
            args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
