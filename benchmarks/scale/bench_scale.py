"""Scale curves of the packet engine (issue 9 item 3): wall time and peak memory against the
number of flows, the bottleneck rate and the simulated time.

Every point runs the bare Rust runner `crates/engine/examples/run_scenario.rs` (as
`benchmarks/dumbbell-60/bench.py` does) `--runs` times in sequence (one process at a time:
the machine is shared) and keeps the median of run_s (the event loop; setup reported apart),
events, bottleneck departures and peak RSS. Per-flow traces are off; the link trace stays
on at 10 ms (it is part of what a user gets).

The scenario is the dumbbell-60 of `benchmarks/dumbbell-60/scenario.toml` (NewReno,
1500-byte packets, RED with ns-2 defaults, two-way propagation delay 100 ms) scaled by
`scaled_dumbbell`:

* flows:    N = 10 … 10 000 flows, bottleneck rate N × 1 Mb/s (per-flow share fixed at
            1 Mb/s, so the rate goes 10 Mb/s … 10 Gb/s with N), 10 s simulated;
* rate:     100 flows, bottleneck 10 Mb/s … 10 Gb/s (per-flow share 0.1 … 100 Mb/s), 10 s;
* flows_fixed_rate: N = 10 … 10 000 flows on a fixed 1 Gb/s bottleneck (share 100 … 0.1
            Mb/s): flows without more packets;
* duration: dumbbell-60 itself (60 flows, 100 Mb/s), 10 … 10 000 s simulated (points above
            `--max-packets` at line rate are skipped and listed);
* duration_trace_1s: the same with the link trace sampled every 1 s instead of 10 ms, to
            separate the trace's memory from the engine's.

Our choices (the issue leaves them open): RED thresholds and buffer scale with the rate
from dumbbell-60's (50, 100, 2084 packets at 100 Mb/s), so the queueing delay they aim at
is the same at every rate; access links are 2 × the per-flow share (dumbbell-60: 2 Mb/s
for a 1.67 Mb/s share); receiver links max(1 Gb/s, 10 × share); start times uniform in
[0, 2] s.

    PYTHONPATH=python .venv/bin/python benchmarks/scale/bench_scale.py            # all series
    ... bench_scale.py --series flows --runs 3                                    # one series
    ... bench_scale.py --analyse-only                                             # fit + figure
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import aqmlab
from aqmlab.machine import describe

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RUNNER = ROOT / "target" / "release" / "examples" / "run_scenario"
RESULTS = HERE / "results.json"
PACKET_BITS = 1500 * 8

#: series name -> list of (flows, bottleneck rate b/s, simulated seconds, link trace interval)
SERIES = {
    "flows": [(n, n * 1e6, 10.0, "10ms") for n in (10, 30, 100, 300, 1000, 3000, 10000)],
    "flows_fixed_rate": [(n, 1e9, 10.0, "10ms") for n in (10, 100, 1000, 10000)],
    "rate": [(100, rate, 10.0, "10ms") for rate in (1e7, 3e7, 1e8, 3e8, 1e9, 3e9, 1e10)],
    "duration": [(60, 1e8, seconds, "10ms") for seconds in (10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0)],
    "duration_trace_1s": [(60, 1e8, seconds, "1s") for seconds in (10.0, 100.0, 1000.0, 3000.0)],
}


def scaled_dumbbell(flows: int, rate_bps: float, duration_s: float, trace: str = "10ms") -> aqmlab.Scenario:
    """dumbbell-60 scaled to `flows` flows on a `rate_bps` bottleneck (choices in the module doc)."""
    scale = rate_bps / 1e8  # RED thresholds and buffer relative to dumbbell-60's at 100 Mb/s
    share = rate_bps / flows
    queue = {
        "kind": "red",
        "limit": f"{max(20, math.ceil(2084 * scale))}p",
        "min_th": max(5.0, 50 * scale),
        "max_th": max(10.0, 100 * scale),
        "max_p": 0.1,
        "q_weight": -1,
        "gentle": False,
        "wait": True,
    }
    return aqmlab.Scenario.model_validate(
        {
            "name": f"scale-n{flows}-r{rate_bps:.0e}-t{duration_s:g}",
            "duration": f"{duration_s}s",
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {"rate": f"{rate_bps:.0f}bps", "delay": "48ms", "queue": queue},
                "groups": [
                    {
                        "name": "newreno",
                        "count": flows,
                        "rtt": "100ms",
                        "access_rate": f"{2 * share:.0f}bps",
                        "access_queue": {"kind": "drop_tail", "limit": "1000p"},
                        "receiver_rate": f"{max(1e9, 10 * share):.0f}bps",
                        "tcp": {"cc": "reno", "recovery": "new_reno", "packet_size": "1500B", "min_rto": "200ms"},
                        "start": {"kind": "uniform", "low": "0s", "high": "2s"},
                    }
                ],
            },
            "trace": {"interval": trace, "flows": 0},
        }
    )


def machine() -> dict[str, str]:
    rustc = subprocess.run(["rustc", "--version"], check=False, capture_output=True, text=True).stdout.strip()
    memory = (
        line.split(":", 1)[1].strip()
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal")
    )
    return describe(rustc=rustc, memory_total=next(memory))


def run_once(scenario_file: str, seed: int) -> dict:
    """One run of the bare runner; adds the child's CPU time (user + system, whole process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    sample = json.loads(subprocess.check_output([str(RUNNER), scenario_file, str(seed)], text=True))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    sample["process_cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return sample


def run_point(flows: int, rate_bps: float, duration_s: float, trace: str, runs: int, seed: int) -> dict:
    scenario = scaled_dumbbell(flows, rate_bps, duration_s, trace)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(scenario.resolved(), file)
    load_before = os.getloadavg()[0]
    try:
        samples = [run_once(file.name, seed) for _ in range(runs)]
    finally:
        os.unlink(file.name)
    median = {
        key: statistics.median(s[key] for s in samples)
        for key in ("run_s", "setup_s", "process_cpu_s", "peak_rss_mib", "bottleneck_packets_per_s")
    }
    departures, events = samples[0]["bottleneck_departures"], samples[0]["events"]
    return {
        "flows": flows,
        "rate_bps": rate_bps,
        "duration_s": duration_s,
        "trace_interval": trace,
        **{f"{k}_median": v for k, v in median.items()},
        "events": events,
        "bottleneck_departures": departures,
        "bottleneck_drops": samples[0]["bottleneck_drops"],
        "utilisation": departures * PACKET_BITS / (rate_bps * duration_s),
        "ns_per_event": 1e9 * median["run_s"] / events,
        "ns_per_bottleneck_packet": 1e9 * median["run_s"] / departures,
        "events_per_bottleneck_packet": events / departures,
        "deterministic": all(s["events"] == events and s["bottleneck_departures"] == departures for s in samples),
        "load_1min_before": load_before,
        "load_1min_after": os.getloadavg()[0],
        "samples": samples,
    }


def measure(series: list[str], runs: int, seed: int, max_packets: float) -> None:
    subprocess.check_call(["cargo", "build", "--quiet", "--release", "--example", "run_scenario"], cwd=ROOT)
    report = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {"series": {}, "skipped": {}}
    report.update(
        machine=machine(),
        runs=runs,
        seed=seed,
        runner=str(RUNNER.relative_to(ROOT)),
        command=" ".join([Path(sys.executable).name, *sys.argv]),
        date=datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
    )
    for name in series:
        points, skipped = [], []
        for flows, rate, seconds, trace in SERIES[name]:
            line_rate_packets = rate * seconds / PACKET_BITS
            if line_rate_packets > max_packets:
                skipped.append(
                    {
                        "flows": flows,
                        "rate_bps": rate,
                        "duration_s": seconds,
                        "why": f"{line_rate_packets:.3g} packets at line rate > --max-packets {max_packets:.3g}",
                    }
                )
                continue
            point = run_point(flows, rate, seconds, trace, runs, seed)
            points.append(point)
            print(
                f"{name}: N={flows} rate={rate:.0e} T={seconds:g}s run_s={point['run_s_median']:.3f} "
                f"events={point['events']} departures={point['bottleneck_departures']} "
                f"rss={point['peak_rss_mib_median']:.1f}MiB load={point['load_1min_before']:.2f}",
                flush=True,
            )
            report["series"][name], report["skipped"][name] = points, skipped
            RESULTS.write_text(json.dumps(report, indent=1))  # after every point: a session can end any time
        report["series"][name], report["skipped"][name] = points, skipped
        RESULTS.write_text(json.dumps(report, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--series", nargs="*", default=list(SERIES), choices=list(SERIES))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--max-packets",
        type=float,
        default=3e7,
        help="skip points whose line-rate packet count exceeds this (keeps runs to minutes)",
    )
    parser.add_argument("--analyse-only", action="store_true", help="only fit and plot results.json")
    args = parser.parse_args()
    if not args.analyse_only:
        measure(args.series, args.runs, args.seed, args.max_packets)
    from analyse_scale import analyse  # beside this file

    analyse(RESULTS, HERE / "scale.png")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    main()
