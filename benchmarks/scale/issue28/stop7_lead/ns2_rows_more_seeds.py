"""Issue 28, stop 7: the two ns-2 matrix rows that turned with the event order, over more seeds.

In the new event order (senders computed inline, issue 28 stop 6) the full ns-2 matrix
(`benchmarks/ns2/agreement.json`, 3 seeds per row) has two rows that agreed before and now
differ: newreno-droptail-rtt200 (queue mean, loss) and compound-redbyte-rtt200 (loss). This
runs each row over seeds 1..N in ns-2 and in aqmlab in both orders (`AQMLAB_DEV_ACK_INLINE=0`
and the default; the switch is read when a simulation is built) and judges each order against
ns-2 with the matrix's own thresholds (`benchmarks/ns2/metrics.py`) at 3 seeds and at N seeds.
ns-2 runs come from or go into the matrix's cache (`benchmarks/ns2/build/ns2-cache`).

    PYTHONPATH=python:benchmarks/ns2 .venv/bin/python \\
        benchmarks/scale/issue28/stop7_lead/ns2_rows_more_seeds.py --seeds 10 \\
        --json benchmarks/scale/issue28/stop7_lead/ns2_rows_more_seeds.json
    ... --seeds 30 --rows newreno-droptail-rtt200 --json .../ns2_newreno_droptail_30_seeds.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))

import agreement  # noqa: E402
import ns2_mapping  # noqa: E402

ROWS = ["newreno-droptail-rtt200", "compound-redbyte-rtt200"]
ORDERS = {"before (AQMLAB_DEV_ACK_INLINE=0)": "0", "default (senders inline)": "1"}
SHOWN = ["queue_mean_packets", "queue_std_packets", "loss_percent", "goodput_mbps", "utilisation"]


def run_order(row, seeds: int, switch: str) -> list[dict]:
    os.environ["AQMLAB_DEV_ACK_INLINE"] = switch
    return [agreement.one_seed(row, seed, options=ns2_mapping.Options()) for seed in range(1, seeds + 1)]


def judged(per_seed: list[dict]) -> dict:
    compared = agreement.compare(per_seed)
    return {
        "seeds": len(per_seed),
        "disagreements": compared["disagreements"],
        **{
            key: {
                "aqmlab": compared["aqmlab"][key],
                "aqmlab_seed_std": compared["aqmlab_seed_std"][key],
                "ns2": compared["ns2"][key],
                "ns2_seed_std": compared["ns2_seed_std"][key],
                "relative_difference": compared["relative_difference"][key],
            }
            for key in SHOWN
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--rows", nargs="*", default=ROWS, choices=ROWS)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    table = agreement.rows()
    report: dict = {"seeds": args.seeds, "rows": {}}
    for name in args.rows:
        report["rows"][name] = {}
        for label, switch in ORDERS.items():
            per_seed = run_order(table[name], args.seeds, switch)
            entry = {"3 seeds": judged(per_seed[:3]), f"{args.seeds} seeds": judged(per_seed), "per_seed": per_seed}
            report["rows"][name][label] = entry
            for n in ("3 seeds", f"{args.seeds} seeds"):
                j = entry[n]
                cells = "; ".join(
                    f"{k} {j[k]['aqmlab']:.4g}±{j[k]['aqmlab_seed_std']:.3g}"
                    f" / ns-2 {j[k]['ns2']:.4g}±{j[k]['ns2_seed_std']:.3g}"
                    for k in ("queue_mean_packets", "loss_percent")
                )
                verdict = "agrees" if not j["disagreements"] else f"differs {j['disagreements']}"
                print(f"{name} | {label} | {n}: {verdict} | {cells}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
