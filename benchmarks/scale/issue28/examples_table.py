"""Table of the examples' CPU time before and after issue 28 (`golden.py --runner OLD/NEW
--json`, the two builds alternated three times: examples_before_i.json, examples_final_i.json;
medians)."""

import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
runs = {b: [json.loads((HERE / f"examples_{b}_{i}.json").read_text()) for i in (1, 2, 3)] for b in ("before", "final")}
print("| scenario (≤ 20 s simulated) | events before | events after | before CPU s | after CPU s | after / before |")
print("|---|---|---|---|---|---|")
total = {"before": 0.0, "final": 0.0}
slower = []
for name in runs["before"][0]:
    cpu = {b: statistics.median(r[name]["cpu_s"] for r in runs[b]) for b in runs}
    for b in cpu:
        total[b] += cpu[b]
    ratio = cpu["final"] / cpu["before"]
    if ratio > 1:
        slower.append(name)
    ev = (runs["before"][0][name]["events"], runs["final"][0][name]["events"])
    print(f"| {name} | {ev[0]:,} | {ev[1]:,} | {cpu['before']:.3f} | {cpu['final']:.3f} | {ratio:.2f} |")
print(f"| **total** | | | {total['before']:.2f} | {total['final']:.2f} | {total['final'] / total['before']:.2f} |")
print("slower:", slower)
