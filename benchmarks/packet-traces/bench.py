"""What per-packet traces cost (issue 31), as CPU time (user + sys), never wall time.

* Off: `trace.packets` absent must cost nothing. The bit-identity and the CPU time of
  dumbbell-60 with this branch's engine and with the engine before it (`--before`, a
  `dump_results` build of main) are measured by `benchmarks/scale/golden.py`, alternating
  the two builds; this script records the medians it is given (see README.md).
* On: dumbbell-60 (capped at `--seconds`) through `dump_results` with and without the
  bottleneck and its reverse traced, alternated `--repeats` times; then, in this process,
  the Arrow table, the ns-2 lines and the pcap of the traced run (CPU time of each).

    cargo build --release --example dump_results
    PYTHONPATH=python .venv/bin/python benchmarks/packet-traces/bench.py --json benchmarks/packet-traces/results.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "benchmarks" / "scale"))

from aqmlab import simulate  # noqa: E402
from aqmlab.scenario import load  # noqa: E402
from aqmlab.traces import ns2_lines  # noqa: E402
from aqmlab.traces.pcap import pcap_bytes  # noqa: E402
from golden import RUNNER, run  # noqa: E402

TRACED = {"links": ["bottleneck", "bottleneck_reverse"]}


def dumbbell_60(seconds: float, traced: bool):
    scenario = load(ROOT / "benchmarks" / "dumbbell-60" / "scenario.toml")
    trace = {"interval": scenario.trace.interval, "flows": scenario.trace.flows}
    if traced:
        trace["packets"] = TRACED
    return scenario.with_changes(duration=f"{seconds}s", measure_start=f"{seconds / 2}s", trace=trace)


def cpu(work) -> tuple[float, object]:
    start = time.process_time()
    value = work()
    return time.process_time() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="simulated seconds of dumbbell-60")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=Path, help="write the measurements here")
    args = parser.parse_args()
    engine = {"untraced": [], "traced": []}
    for _ in range(args.repeats):
        for name, traced in (("untraced", False), ("traced", True)):
            scenario = dumbbell_60(args.seconds, traced)
            engine[name].append(run(scenario, scenario.seed, RUNNER)["cpu_s"])
    scenario = dumbbell_60(args.seconds, True)
    simulate_s, results = cpu(lambda: simulate(scenario))
    untraced_s, _ = cpu(lambda: simulate(dumbbell_60(args.seconds, False)))
    table = results.packet_trace
    ns2_s, lines = cpu(lambda: sum(1 for _ in ns2_lines(table)))
    pcap_s, capture = cpu(lambda: pcap_bytes(table, links=["bottleneck", "bottleneck_reverse"]))
    with tempfile.TemporaryDirectory() as tmp:
        parquet_s, _ = cpu(lambda: results.save(Path(tmp) / "run"))
    record = {
        "scenario": f"dumbbell-60, {args.seconds:g} s, bottleneck and bottleneck_reverse traced",
        "rows": table.num_rows,
        "engine_cpu_s_median": {name: statistics.median(values) for name, values in engine.items()},
        "engine_cpu_s": engine,
        "simulate_cpu_s": {"traced (engine + table)": simulate_s, "untraced": untraced_s},
        "ns2_lines": lines,
        "ns2_cpu_s": ns2_s,
        "pcap_bytes": len(capture),
        "pcap_cpu_s": pcap_s,
        "save_with_parquet_cpu_s": parquet_s,
    }
    print(json.dumps(record, indent=1))
    if args.json:
        args.json.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
