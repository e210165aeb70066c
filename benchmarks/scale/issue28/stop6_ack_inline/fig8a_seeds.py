"""Issue 28, stop 6: the quick verdict of seed000-fig8a's claim "without averaging the queue
does not exceed the upper threshold" (largest queue ≤ 100 packets, mean over seeds 1-2) against
seed-to-seed noise: the largest queue of its run without averaging (quick mode) for seeds
1..N, with senders computed inline and without (the development switch
AQMLAB_DEV_ACK_INLINE=0, read at each simulation's construction).

    PYTHONPATH=python .venv/bin/python benchmarks/scale/issue28/stop6_ack_inline/fig8a_seeds.py 10 out.json
"""

from __future__ import annotations

import copy
import json
import os
import statistics
import sys
from pathlib import Path

from aqmlab.reproduce.seed000_packet import red_measures, variant
from aqmlab.simulation import simulate


def main() -> None:
    seeds, out = int(sys.argv[1]), Path(sys.argv[2])
    scenario = variant(True, name="instantaneous", rtt="25ms", instantaneous=True)
    report: dict[str, dict[str, float]] = {}
    for switch in ("0", "1"):
        os.environ["AQMLAB_DEV_ACK_INLINE"] = switch
        label = "event_order_before" if switch == "0" else "senders_inline"
        report[label] = {}
        for seed in range(1, seeds + 1):
            run = copy.deepcopy(scenario)
            run["seed"] = seed
            report[label][str(seed)] = red_measures(simulate(run))["queue_max"]
        values = list(report[label].values())
        print(
            label,
            values,
            "seeds 1-2 mean",
            statistics.mean(values[:2]),
            "all: mean",
            statistics.mean(values),
            "sd",
            round(statistics.stdev(values), 2),
        )
    out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
