"""Benchmark (issue 33): the 200-point Hopf curve of seed 000 Fig. 2a (ctcp-red with averaging,
τ against C̃ in [100, 500], defaults otherwise) by continuation (`hopf_chart`), timed, with its
largest error. The model depends on C̃ and τ only through C̃τ (scale time by τ in seed 000
eqs. 5, 9), so the exact curve is τ = K/C̃ with K the Hopf value of C̃τ; K is computed once at
C̃ = 100 by `find_hopf` (Newton to convergence) and the error is max |τ_i C̃_i/K − 1|.

Run: .venv/bin/python benchmarks/hopf_curve/bench.py [repeats]
"""

import os
import platform
import statistics
import sys
import time

import numpy as np
from aqmlab.stability.charts import hopf_chart
from aqmlab.stability.hopf import find_hopf

repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
times, cpu = [], []
for _ in range(repeats):
    t, p = time.perf_counter(), time.process_time()
    c = hopf_chart("ctcp-red", "C", (100, 500), "tau", (0.002, 2.0), points=200)
    times.append(time.perf_counter() - t)
    cpu.append(time.process_time() - p)
K = 100.0 * find_hopf("ctcp-red", "tau", 0.01, 1.0, {"C": 100.0}).value
err = float(np.max(np.abs(c.ys * c.xs / K - 1.0)))
K_REFERENCE = 8.483410465411442846720593  # 100 × reference_k.py's τ: 50 digits, independent of aqmlab
err_reference = float(np.max(np.abs(c.ys * c.xs / K_REFERENCE - 1.0)))
print(
    f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}"
)
print(f"points: {c.xs.size}, K = C*tau at the Hopf point = {K!r}")
print(
    f"200-point Hopf curve: median {statistics.median(times):.3f} s over {len(times)} runs "
    f"(all: {', '.join(f'{x:.3f}' for x in times)})"
)
print(f"CPU time (process): median {statistics.median(cpu):.3f} s (all: {', '.join(f'{x:.3f}' for x in cpu)})")
print(f"largest relative error of the curve against tau = K/C: {err:.2e}")
print(f"largest relative error against the 50-digit referee K = {K_REFERENCE!r}: {err_reference:.2e}")
