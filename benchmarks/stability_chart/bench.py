"""Benchmark: a 200-point stability chart of the 3-state CTCP-RED model (seed 000 Fig. 2a,
τ vs C̃ in [100, 500]) by continuation, against a grid scan of the same chart.

Run: .venv/bin/python benchmarks/stability_chart/bench.py [repeats]
"""

import platform
import statistics
import sys
import time

import numpy as np
from aqmlab.stability.charts import grid_chart, hopf_chart

repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
cont, grid = [], []
for _ in range(repeats):
    t = time.perf_counter()
    c = hopf_chart("ctcp-red", "C", (100, 500), "tau", (0.002, 2.0), points=200)
    cont.append(time.perf_counter() - t)
for _ in range(max(1, repeats // 2)):
    t = time.perf_counter()
    g = grid_chart("ctcp-red", "C", (100, 500), "tau", (0.01, 0.2), nx=200, ny=40)
    grid.append(time.perf_counter() - t)
err = np.nanmax(np.abs(g.ys - c.ys) / c.ys)
print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
print(
    f"continuation 200 points: median {statistics.median(cont):.3f} s over {len(cont)} runs "
    f"(all: {', '.join(f'{x:.3f}' for x in cont)})"
)
print(f"grid scan 200x40:        median {statistics.median(grid):.3f} s over {len(grid)} runs")
print(f"max relative difference of the boundary (grid vs continuation): {err:.2e}")
