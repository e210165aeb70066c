"""One seed of a matrix row in both simulators, at the bottleneck and per flow: the queue's
distribution, its drop episodes (runs of 10-ms samples with drops) and the flows that carry the
most goodput with their window reductions (docs/validation-ns2.md, cause 2g).

    python benchmarks/ns2/overflow_episodes.py scalable-droptail-rtt200 1

ns-2 runs fresh (the cache keeps summaries, not samples): about 25 s for that row.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "ns3"))
sys.path.insert(0, str(HERE))

import aqmlab  # noqa: E402
import metrics  # noqa: E402  (benchmarks/ns3/metrics.py)
import ns2_mapping  # noqa: E402
import ns2_run  # noqa: E402
from matrix import rows  # noqa: E402

#: "Near full": within this many packets of the largest queue either simulator holds.
NEAR_FULL = 66


def describe(side: str, link: metrics.LinkRecord, start_s: float, limit: float) -> None:
    measured = link.time_s > start_s
    queue, drops, arrivals = link.queue_packets[measured], link.drops[measured], link.arrivals[measured]
    dropping = drops > 0
    edges = np.diff(np.concatenate([[0], dropping.astype(int), [0]]))
    begins, ends = np.where(edges == 1)[0], np.where(edges == -1)[0]
    sizes = [drops[b:e].sum() for b, e in zip(begins, ends, strict=True)]
    print(
        f"{side}: queue mean {queue.mean():.0f}, 5/50/95 % {np.percentile(queue, [5, 50, 95]).round().tolist()}, "
        f"near full {np.mean(queue >= limit - NEAR_FULL):.3f} of the time; "
        f"loss {100 * drops.sum() / arrivals.sum():.3f} %; "
        f"{len(sizes)} drop episodes, {np.mean(sizes) if sizes else 0:.0f} drops each on average"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("row")
    parser.add_argument("seed", type=int)
    parser.add_argument("--top", type=int, default=3, help="flows shown, by goodput")
    args = parser.parse_args()
    row = rows()[args.row]
    results = aqmlab.simulate(row.scenario, seed=args.seed)
    link, flows = metrics.aqmlab_records(results, row.link)
    starts = [float(x) for x in results.flows.column("start_s").to_numpy()]
    program = ns2_mapping.translate(row.scenario.resolved(), start_times=starts, seed=args.seed)
    records = ns2_run.run(program, results.measure_start_s)
    limit = float(max(link.queue_packets.max(), records.links[row.link].queue_packets.max()))
    describe("aqmlab", link, results.measure_start_s, limit)
    describe("ns-2  ", records.links[row.link], results.measure_start_s, limit)
    table = results.to_pandas("flows")
    mine = flows.delivered - flows.delivered_at_measure_start
    theirs = records.flows.delivered - records.flows.delivered_at_measure_start
    for side, goodput, timeouts, reductions, retransmits in (
        (
            "aqmlab",
            mine,
            table["timeouts"].to_numpy(),
            (table["timeouts"] + table["fast_recoveries"]).to_numpy(),
            table["retransmits"].to_numpy(),
        ),
        ("ns-2  ", theirs, records.timeouts, records.reductions, records.retransmits),
    ):
        for flow in np.argsort(-goodput)[: args.top]:
            print(
                f"{side} flow {flow}: {goodput[flow] / goodput.sum():.3f} of the goodput, "
                f"{reductions[flow]:.0f} window reductions ({timeouts[flow]:.0f} timeouts), "
                f"{retransmits[flow]:.0f} retransmissions"
            )


if __name__ == "__main__":
    main()
