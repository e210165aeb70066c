"""Table of tie_noise.py's two runs: per scenario and measure, the value at the scenario's own
seed in the old and the new event order, the old order's mean and standard deviation over the
seeds, and the difference of the two orders' means over seeds in units of the old order's
standard deviation (|z| well below 2: within seed-to-seed noise).

    tie_noise_table.py [OLD.json NEW.json]    # default: tie_noise_0.json tie_noise_3.json
"""

import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
old_file, new_file = sys.argv[1:3] if len(sys.argv) == 3 else (HERE / "tie_noise_0.json", HERE / "tie_noise_3.json")
old = json.loads(Path(old_file).read_text())["runs"]
new = json.loads(Path(new_file).read_text())["runs"]
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
