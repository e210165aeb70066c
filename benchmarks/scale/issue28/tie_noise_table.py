"""Table of tie_noise.py's two runs: per scenario and measure, the value at the scenario's own
seed in the old and the new event order, the old order's mean and standard deviation over the
seeds, and the difference of the two orders' means over seeds in units of the old order's
standard deviation (|z| well below 2: within seed-to-seed noise)."""

import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
old = json.loads((HERE / "tie_noise_0.json").read_text())["runs"]
new = json.loads((HERE / "tie_noise_3.json").read_text())["runs"]
HEADER = "| scenario | measure | old, own seed | new, own seed | old mean ± sd | new mean ± sd | (new − old) / sd |"
print(HEADER)
print("|---|---|---|---|---|---|---|")
for name, runs in old.items():
    seeds = list(runs)
    for measure in runs[seeds[0]]:
        a = [runs[s][measure] for s in seeds]
        b = [new[name][s][measure] for s in seeds]
        sd = statistics.stdev(a)
        z = (statistics.mean(b) - statistics.mean(a)) / sd if sd > 0 else float("nan")
        print(
            f"| {name} | {measure} | {a[0]:.4g} | {b[0]:.4g} | {statistics.mean(a):.4g} ± {sd:.2g} | "
            f"{statistics.mean(b):.4g} ± {statistics.stdev(b):.2g} | {z:+.2f} |"
        )
