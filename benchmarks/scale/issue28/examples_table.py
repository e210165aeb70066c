"""Table of the examples' CPU time before and after issue 28 (`golden.py --runner OLD/NEW
--json`, the two builds alternated three times: examples_before_i.json, examples_final_i.json;
medians over every examples_{before,AFTER}_i.json there). Stop 3: `examples_table.py stop3 after`
reads stop3/examples_{before,after}_i.json."""

import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOLDER = HERE / (sys.argv[1] if len(sys.argv) > 1 else ".")
AFTER = sys.argv[2] if len(sys.argv) > 2 else "final"
files = {b: sorted(FOLDER.glob(f"examples_{b}_*.json")) for b in ("before", AFTER)}
runs = {b: [json.loads(path.read_text()) for path in paths] for b, paths in files.items()}
print("| scenario (≤ 20 s simulated) | events before | events after | before CPU s | after CPU s | after / before |")
print("|---|---|---|---|---|---|")
total = {"before": 0.0, AFTER: 0.0}
slower = []
for name in runs["before"][0]:
    cpu = {b: statistics.median(r[name]["cpu_s"] for r in runs[b]) for b in runs}
    for b in cpu:
        total[b] += cpu[b]
    ratio = cpu[AFTER] / cpu["before"]
    if ratio > 1:
        slower.append(name)
    ev = (runs["before"][0][name]["events"], runs[AFTER][0][name]["events"])
    print(f"| {name} | {ev[0]:,} | {ev[1]:,} | {cpu['before']:.3f} | {cpu[AFTER]:.3f} | {ratio:.2f} |")
print(f"| **total** | | | {total['before']:.2f} | {total[AFTER]:.2f} | {total[AFTER] / total['before']:.2f} |")
print("slower:", slower)
