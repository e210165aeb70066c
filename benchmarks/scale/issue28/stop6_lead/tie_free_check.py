"""Issue 28, stop 6: is the change of senders computed inline only one of event order at equal
nanoseconds? Runs examples (100 s, measured over the last 25 s) in both orders, the development
switch `AQMLAB_DEV_ACK_INLINE` = 0 (the order before) and 1 (inline senders), seeds 1-3: with the
example's fixed RTT (whole milliseconds everywhere, so events of different flows share
nanoseconds), and with each flow's RTT drawn uniform within ±1 % (delays at nanosecond
resolution: ties between flows all but vanish). Every table (flows, links, both traces) is
compared value by value.

    PYTHONPATH=python .venv/bin/python benchmarks/scale/issue28/stop6_lead/tie_free_check.py \\
        seed000-fig6-rtt10 seed000-fig6-rtt200 --json benchmarks/scale/issue28/stop6_lead/tie_free_check.json
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import aqmlab
import numpy as np

ROOT = Path(__file__).resolve().parents[4]


def identical(a: aqmlab.Results, b: aqmlab.Results) -> bool:
    for name in ("flows", "links", "link_trace", "flow_trace"):
        left, right = getattr(a, name), getattr(b, name)
        if left.column_names != right.column_names or left.num_rows != right.num_rows:
            return False
        for column in left.column_names:
            x = left.column(column).to_numpy(zero_copy_only=False)
            y = right.column(column).to_numpy(zero_copy_only=False)
            same = ((x == y) | (np.isnan(x) & np.isnan(y))) if x.dtype.kind == "f" else (x == y)
            if not np.all(same):
                return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="+")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    report = {}
    for example in args.examples:
        base = aqmlab.Scenario.from_toml(ROOT / "examples" / f"{example}.toml").model_dump(mode="json")
        base["duration"], base["measure_start"] = "100s", "75s"
        for spread in (False, True):
            data = json.loads(json.dumps(base))
            if spread:
                for group in data["topology"]["groups"]:
                    ms = float(group["rtt"].removesuffix("ms"))
                    group["rtt"] = {"kind": "uniform", "low": f"{ms * 0.99}ms", "high": f"{ms * 1.01}ms"}
            scenario = aqmlab.Scenario.from_dict(data)
            for seed in (1, 2, 3):
                results = {}
                for switch in ("0", "1"):
                    os.environ["AQMLAB_DEV_ACK_INLINE"] = switch
                    results[switch] = aqmlab.simulate(scenario, seed=seed)
                key = f"{example}, {'RTT ±1 % per flow' if spread else 'fixed RTT'}, seed {seed}"
                report[key] = {
                    "identical": identical(results["0"], results["1"]),
                    "events_switch_off": results["0"].counters["events"],
                    "events_inline": results["1"].counters["events"],
                }
                print(key, report[key], flush=True)
    os.environ.pop("AQMLAB_DEV_ACK_INLINE")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
