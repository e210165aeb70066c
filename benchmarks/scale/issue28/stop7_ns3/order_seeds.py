"""Issue 28, stop 7: ns-3 matrix rows over more seeds in both event orders. For each row,
aqmlab's side (`agreement.aqmlab_side`, the metrics ns-3 is compared on) with seeds 1..N, once
with `AQMLAB_DEV_ACK_INLINE=0` (the order before issue 28) and once in the default order
(senders computed inline), in one process and one build.

Per metric: each order's mean and standard deviation over the N seeds, and the difference of
the means in units of its own noise, sd * sqrt(2 / N) (sd pooled over the two orders); if the
order only reshuffles ties, as a change of seed does, that is ~N(0, 1). Per order also how many
of the N seeds agree with ns-3's stored value (`metrics.disagreements`, issue 15's thresholds),
as a seed-free view of a row's verdict (ns-3's side is one seed, or the mean of its seeds).

    PYTHONPATH=python .venv/bin/python benchmarks/scale/issue28/stop7_ns3/order_seeds.py --seeds 10 \\
        --rows cubic-pie-rtt20 ... --json benchmarks/scale/issue28/stop7_ns3/order_seeds.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns3"))

import agreement  # noqa: E402  (benchmarks/ns3/agreement.py: the rows and aqmlab's side)
import metrics  # noqa: E402

SWITCH = "AQMLAB_DEV_ACK_INLINE"
#: The two event orders: the switch's value for each (read when a simulation is built).
ORDERS = {"before (switch 0)": "0", "default (inline)": "1"}


def run_order(row: agreement.Row, seeds: int, switch: str) -> list[dict[str, float]]:
    os.environ[SWITCH] = switch
    try:
        return agreement.aqmlab_side(row.scenario, seeds)["seed_summaries"]
    finally:
        del os.environ[SWITCH]


def compare_orders(summaries: dict[str, list[dict[str, float]]], ns3: dict[str, float]) -> dict[str, Any]:
    seeds = len(next(iter(summaries.values())))
    out: dict[str, Any] = {"metrics": {}, "seeds_agreeing": {}}
    for order, runs in summaries.items():
        out["seeds_agreeing"][order] = sum(not metrics.disagreements(run, ns3) for run in runs)
    for key in metrics.METRICS:
        per_order = {
            order: {"mean": statistics.fmean(r[key] for r in runs), "std": statistics.stdev(r[key] for r in runs)}
            for order, runs in summaries.items()
        }
        (before, after) = per_order.values()
        noise = math.sqrt((before["std"] ** 2 + after["std"] ** 2) / 2) * math.sqrt(2 / seeds)
        difference = after["mean"] - before["mean"]
        if noise > 0:
            in_noise = difference / noise
        else:
            in_noise = 0.0 if difference == 0 else math.copysign(math.inf, difference)
        out["metrics"][key] = {**per_order, "ns3": ns3.get(key, math.nan), "difference_of_means_in_noise": in_noise}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", nargs="+", required=True, help="matrix row names (agreement.all_rows)")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--json", type=Path, required=True)
    args = parser.parse_args()
    if SWITCH in os.environ:
        sys.exit(f"unset {SWITCH}: this script sets it for each order")
    rows = agreement.all_rows(args.seeds)
    stored = json.loads(agreement.RESULTS.read_text())["scenarios"]
    out: dict[str, Any] = {"seeds": args.seeds, "load_before": agreement.load_average(), "rows": {}}
    began = time.perf_counter()
    for name in args.rows:
        summaries = {order: run_order(rows[name], args.seeds, switch) for order, switch in ORDERS.items()}
        result = compare_orders(summaries, stored[name]["ns3"])
        result["seed_summaries"] = summaries
        out["rows"][name] = result
        largest = max(
            (abs(m["difference_of_means_in_noise"]), key)
            for key, m in result["metrics"].items()
            if metrics.METRICS[key] is not None
        )
        print(
            f"{name}: seeds agreeing with ns-3 {result['seeds_agreeing']} of {args.seeds}; largest difference "
            f"of the means (thresholded metrics) {largest[0]:.2f} noise ({largest[1]})",
            flush=True,
        )
    out["wall_s"] = time.perf_counter() - began
    out["load_after"] = agreement.load_average()
    args.json.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.json} ({out['wall_s']:.0f} s)")


if __name__ == "__main__":
    main()
