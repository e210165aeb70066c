"""Issue 28, stop 6: write the resolved scenario files of the measured points (for
`../ab_runner.py`): dumbbell-60 and seed 000 Fig. 6 RTT 200 as `../../../ns2/bench.py` runs
them (its scenarios, per-flow traces off), and the `../../bench_flat.py` points 100 flows
(100 Mb/s, 20 s), 10 000 flows (10 Gb/s, 2 s) and seed 002 large capacity at full size, with
their default traces.

    PYTHONPATH=python .venv/bin/python benchmarks/scale/issue28/stop6_ack_inline/points.py /tmp/points
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parents[2] / "ns2"))

import bench  # noqa: E402  (benchmarks/ns2/bench.py)
import bench_flat  # noqa: E402
from bench_scale import scaled_dumbbell  # noqa: E402


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    ns2 = bench.scenarios()
    points = {
        "dumbbell-60-bare": ns2["dumbbell-60"].resolved(),
        "fig6-rtt200-bare": ns2["seed000-fig6-rtt200 (compound zeta 1, SACK)"].resolved(),
        "flows-100-20s": scaled_dumbbell(100, 1e8, 20.0).resolved(),
        "flows-10000-2s": scaled_dumbbell(10000, 1e10, 2.0).resolved(),
        "seed002-large-capacity-full": bench_flat.resolved("seed002-large-capacity-full"),
    }
    for name, resolved in points.items():
        if name.endswith("-bare"):
            resolved["trace"]["flows"] = 0
        (out / f"{name}.json").write_text(json.dumps(resolved))
        print(out / f"{name}.json")


if __name__ == "__main__":
    main()
