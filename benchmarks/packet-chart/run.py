"""Benchmark of issue 20: a packet stability chart of 8 x-points for seed 000's dumbbell (60
Compound TCP flows, 100 Mb/s, RED(50, 100) with ns-2's automatic weight, buffer 2084), 3 seeds
per probe, x = per-flow capacity C̃ = 100-450 packets/s, y = RTT 10-310 ms (seed 000 Fig. 2a's
axes), 150 s runs measured from 50 s, bisection to 1/16 of the RTT range.

    nice -n 10 PYTHONPATH=python .venv/bin/python benchmarks/packet-chart/run.py            # 2 processes
    nice -n 10 PYTHONPATH=python .venv/bin/python benchmarks/packet-chart/run.py --cluster local   # 2-worker Dask

Writes results-<executor>.json (chart, wall and CPU times, load averages, machine) and
chart-<executor>.png beside this file; the probe store goes to /tmp (delete it to rerun from
scratch: the store makes a rerun skip every stored probe).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
X = "per_flow_capacity=100..450:8"
Y = "rtt=0.01..0.31"
SETTINGS = {"seeds": (1, 2, 3), "duration_s": 150.0, "analysis_start_s": 50.0}


def main() -> None:
    from aqmlab.experiments.packet_chart import packet_chart

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cluster", default=None, help="'local' for a 2-worker Dask LocalCluster")
    parser.add_argument("--store", default=None, help="probe store directory [/tmp/packet-chart-<executor>]")
    parser.add_argument(
        "--figure-only", action="store_true", help="redraw chart-<executor>.png from the store (no run, no record)"
    )
    args = parser.parse_args()
    executor = "dask" if args.cluster else "local"
    store = Path(args.store or f"/tmp/packet-chart-{executor}")
    if args.figure_only:
        chart = packet_chart("seed000-fig6-rtt10", X, Y, **SETTINGS, out=store)
        assert chart.meta["runs_computed"] == 0, "the store did not hold every probe"
        chart.plot(HERE / f"chart-{executor}.png")
        return
    load_start = os.getloadavg()
    began = datetime.datetime.now(datetime.timezone.utc)
    started = time.perf_counter()
    chart = packet_chart("seed000-fig6-rtt10", X, Y, **SETTINGS, out=store, workers=2, cluster=args.cluster)
    wall = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    record = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "date_utc": began.isoformat(timespec="seconds"),
        "machine": {"uname": " ".join(platform.uname()), "cores": os.cpu_count()},
        "load_average_start": load_start,
        "load_average_end": os.getloadavg(),
        "wall_time_s": wall,
        "children_cpu_s_rusage": children.ru_utime + children.ru_stime,
        "x": X,
        "y": Y,
        **chart.describe(),
    }
    (HERE / f"results-{executor}.json").write_text(json.dumps(record, indent=1, default=str))
    chart.plot(HERE / f"chart-{executor}.png")
    print(json.dumps({k: record[k] for k in ("wall_time_s", "load_average_start", "load_average_end")}))


if __name__ == "__main__":
    main()
