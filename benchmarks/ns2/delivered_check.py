"""Payload a row's ns-2 run credits to its flows over the measured window, against the bytes
that left the bottleneck: for finding a goodput above the link's rate (docs/validation-ns2.md,
cause 4).

    python benchmarks/ns2/delivered_check.py ROW SEED
    python benchmarks/ns2/delivered_check.py cubic-droptail-rtt200 1

Runs the matrix row's ns-2 program with aqmlab seed SEED's start times (as agreement.py does)
and prints the sum over flows of the payload their cumulative ACK (`ack_`) advanced by in
[measure_start, end], the bottleneck's departed bytes in the same window (headers included),
and the five flows credited most, with their timeouts.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "ns3"))
sys.path.insert(0, str(HERE))

import aqmlab  # noqa: E402
import matrix  # noqa: E402
import ns2_mapping  # noqa: E402
import ns2_run  # noqa: E402
import numpy as np  # noqa: E402


def main() -> None:
    name, seed = sys.argv[1], int(sys.argv[2])
    row = matrix.rows()[name]
    results = aqmlab.simulate(row.scenario, seed=seed)
    starts = [float(x) for x in results.flows.column("start_s").to_numpy()]
    program = ns2_mapping.translate(row.scenario.resolved(), start_times=starts, seed=seed)
    measure_s = results.measure_start_s
    records = ns2_run.run(program, measure_s)
    flows = records.flows
    credited = flows.delivered - flows.delivered_at_measure_start
    link = records.links[row.link]
    window = link.time_s > measure_s
    print(
        f"{name} seed {seed}: payload credited {credited.sum() / 1e6:.1f} MB, "
        f"{row.link} departed {link.departed_bytes[window].sum() / 1e6:.1f} MB (headers included)"
    )
    for flow in np.argsort(-credited)[:5]:
        print(f"  flow {flow}: {credited[flow] / 1e6:.1f} MB, timeouts {records.timeouts[flow]:.0f}")


if __name__ == "__main__":
    main()
