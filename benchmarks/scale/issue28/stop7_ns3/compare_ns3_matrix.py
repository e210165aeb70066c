"""Issue 28, stop 7: the full ns-3 matrix before and after aqmlab's side was rerun in the
current default event order (senders computed inline when their ACK arrives off an event-free
link), row by row.

The inputs are three `benchmarks/ns3/agreement.json` stores of the same 100 rows; ns-3's side
is the same in all three (checked), only aqmlab's side differs:

- recorded: the store as committed before this stop (`git show REV:benchmarks/ns3/agreement.json`,
  aqmlab runs of 2026-11-22/23);
- switch0: `AQMLAB_DEV_ACK_INLINE=0 agreement.py --matrix --refresh-aqmlab` on today's engine,
  the event order before issue 28 (`ns3_matrix_switch0.json` here);
- default: `agreement.py --matrix --refresh-aqmlab` on today's engine in its default order
  (`benchmarks/ns3/agreement.json` after this stop).

recorded -> switch0 is everything else that changed in the engine since the record;
switch0 -> default is the order of same-nanosecond events alone; recorded -> default is what
the published matrix sees. A metric's move is given in units of aqmlab's seed-to-seed standard
deviation of the compared value: the stores' `aqmlab_seed_spread` std (pooled over the two
stores compared, sqrt((sd_a^2 + sd_b^2) / 2)), divided by sqrt(n) for rows compared as means
over n aqmlab seeds (`ns3_seeds` > 1). A row agrees when `metrics.disagreements` is empty
(issue 15's thresholds, unchanged).

    PYTHONPATH=python .venv/bin/python benchmarks/scale/issue28/stop7_ns3/compare_ns3_matrix.py \\
        --recorded-rev 54865e5 --json benchmarks/scale/issue28/stop7_ns3/compare.json
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
STORE = "benchmarks/ns3/agreement.json"

sys.path.insert(0, str(ROOT / "benchmarks" / "ns3"))
import metrics  # noqa: E402  (benchmarks/ns3/metrics.py: the thresholds and the verdict)

#: The stores compared, in the order of the table.
STAGES = ("recorded", "switch0", "default")
#: The pairs whose moves are reported: what moved since the record, the order alone, in all.
PAIRS = (("recorded", "switch0"), ("switch0", "default"), ("recorded", "default"))


def load_stores(recorded_rev: str, switch0: Path, default: Path) -> dict[str, dict[str, Any]]:
    recorded = subprocess.check_output(["git", "show", f"{recorded_rev}:{STORE}"], cwd=ROOT, text=True)
    return {
        "recorded": json.loads(recorded)["scenarios"],
        "switch0": json.loads(switch0.read_text())["scenarios"],
        "default": json.loads(default.read_text())["scenarios"],
    }


def compared_sd(a: dict[str, Any], b: dict[str, Any], key: str) -> float:
    """Seed-to-seed sd of the compared value, pooled over the two stores (see the docstring)."""
    spreads = [store["aqmlab_seed_spread"].get(key, {"std": math.nan})["std"] for store in (a, b)]
    pooled = math.sqrt((spreads[0] ** 2 + spreads[1] ** 2) / 2)
    if a.get("ns3_seeds", 1) > 1:
        pooled /= math.sqrt(a["aqmlab_seed_spread"]["seeds"])
    return pooled


def move_in_sd(a: dict[str, Any], b: dict[str, Any], key: str) -> float:
    """NaN where a store has no value (rows recorded before the metric was added)."""
    if key not in a["aqmlab"] or key not in b["aqmlab"]:
        return math.nan
    before, after = a["aqmlab"][key], b["aqmlab"][key]
    if before == after:
        return 0.0
    sd = compared_sd(a, b, key)
    return (after - before) / sd if sd > 0 else math.copysign(math.inf, after - before)


def row_report(name: str, entries: dict[str, dict[str, Any]]) -> dict[str, Any]:
    ns3 = entries["recorded"]["ns3"]
    if any(entries[stage]["ns3"] != ns3 for stage in STAGES):
        raise SystemExit(f"{name}: ns-3's side differs between the stores")
    report: dict[str, Any] = {
        "ns3_seeds": entries["recorded"].get("ns3_seeds", 1),
        "aqmlab_seeds": entries["default"]["aqmlab_seed_spread"]["seeds"],
        "verdict": {},
        "differing_metrics": {},
        "identical": {},
        "moves_sd": {},
        "values": {},
    }
    for stage in STAGES:
        differing = metrics.disagreements(entries[stage]["aqmlab"], ns3)
        report["verdict"][stage] = "differs" if differing else "agrees"
        report["differing_metrics"][stage] = differing
    for a, b in PAIRS:
        pair = f"{a}->{b}"
        report["identical"][pair] = entries[a]["aqmlab"] == entries[b]["aqmlab"]
        report["moves_sd"][pair] = {key: move_in_sd(entries[a], entries[b], key) for key in metrics.METRICS}
    for key in metrics.METRICS:
        report["values"][key] = {
            **{stage: entries[stage]["aqmlab"].get(key, math.nan) for stage in STAGES},
            "ns3": ns3.get(key, math.nan),
            "sd_default": compared_sd(entries["default"], entries["default"], key),
            "relative_difference": {
                stage: entries[stage]["relative_difference"].get(key, math.nan) for stage in STAGES
            },
        }
    return report


def histogram(reports: dict[str, dict[str, Any]], pair: str) -> dict[str, int]:
    """How many (row, metric) values moved by how much, over the thresholded metrics."""
    bins = {"not recorded": 0, "identical": 0, "<=1 sd": 0, "1-2 sd": 0, "2-3 sd": 0, ">3 sd": 0}
    for report in reports.values():
        for key, threshold in metrics.METRICS.items():
            if threshold is None:
                continue
            move = abs(report["moves_sd"][pair][key])
            if math.isnan(move):
                bins["not recorded"] += 1
            elif move == 0:
                bins["identical"] += 1
            elif move <= 1:
                bins["<=1 sd"] += 1
            elif move <= 2:
                bins["1-2 sd"] += 1
            elif move <= 3:
                bins["2-3 sd"] += 1
            else:
                bins[">3 sd"] += 1
    return bins


def summary(reports: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rows": len(reports),
        "agree": {stage: sum(r["verdict"][stage] == "agrees" for r in reports.values()) for stage in STAGES},
    }
    for a, b in PAIRS:
        pair = f"{a}->{b}"
        out[pair] = {
            "rows_identical": sum(r["identical"][pair] for r in reports.values()),
            "verdicts_changed": [name for name, r in reports.items() if r["verdict"][a] != r["verdict"][b]],
            "thresholded_values_by_move": histogram(reports, pair),
        }
    return out


def print_table(reports: dict[str, dict[str, Any]], summary_: dict[str, Any]) -> None:
    shown = [key for key, threshold in metrics.METRICS.items() if threshold is not None]
    print("rows that moved in the default order (switch0 -> default); moves in sd of the compared value")
    print(f"{'row':<58} {'verdict rec/sw0/def':<24} " + " ".join(f"{k[:12]:>12}" for k in shown))
    for name, report in reports.items():
        if report["identical"]["switch0->default"]:
            continue
        verdicts = "/".join(report["verdict"][stage][:5] for stage in STAGES)
        moves = report["moves_sd"]["switch0->default"]
        print(f"{name:<58} {verdicts:<24} " + " ".join(f"{moves[k]:>+12.2f}" for k in shown))
    print()
    print(f"rows agreeing: {summary_['agree']} of {summary_['rows']}")
    for a, b in PAIRS:
        pair = summary_[f"{a}->{b}"]
        print(
            f"{a} -> {b}: {pair['rows_identical']} rows identical, verdicts changed: "
            f"{pair['verdicts_changed'] or 'none'}; thresholded values by move: {pair['thresholded_values_by_move']}"
        )
    for a, b in PAIRS:
        for name in summary_[f"{a}->{b}"]["verdicts_changed"]:
            report = reports[name]
            print(f"\n{name} ({a} -> {b}: {report['verdict'][a]} -> {report['verdict'][b]})")
            for key in metrics.METRICS:
                value = report["values"][key]
                print(
                    f"  {key:<20} {value[a]:>10.4g} -> {value[b]:>10.4g} (ns-3 {value['ns3']:.4g}; "
                    f"{100 * value['relative_difference'][a]:+.1f} % -> {100 * value['relative_difference'][b]:+.1f} %"
                    f"; move {report['moves_sd'][f'{a}->{b}'][key]:+.2f} sd)"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recorded-rev", default="54865e5", help="git revision holding the recorded store")
    parser.add_argument("--switch0", type=Path, default=HERE / "ns3_matrix_switch0.json")
    parser.add_argument("--default", type=Path, default=ROOT / STORE)
    parser.add_argument("--json", type=Path, default=HERE / "compare.json")
    args = parser.parse_args()
    stores = load_stores(args.recorded_rev, args.switch0, args.default)
    names = list(stores["recorded"])
    if any(set(stores[stage]) != set(names) for stage in STAGES):
        raise SystemExit("the stores hold different rows")
    reports = {name: row_report(name, {stage: stores[stage][name] for stage in STAGES}) for name in names}
    summary_ = summary(reports)
    print_table(reports, summary_)
    args.json.write_text(
        json.dumps({"recorded_rev": args.recorded_rev, "summary": summary_, "rows": reports}, indent=1) + "\n"
    )
    print(f"\nwrote {args.json.resolve().relative_to(ROOT)}")


if __name__ == "__main__":
    main()
