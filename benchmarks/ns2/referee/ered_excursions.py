"""How often a seed 002 E-RED run's virtual queue passes b_max, the top of E-RED's profile, where
the marking probability jumps from p_max to 1 (every arrival marked: docs/queues/ered.md, eq. (35)
as reconstructed), and what the real queue does in the samples after such an excursion
(evidence for seed002-fig2-5/lc-smaller-queue in referee.toml).

    python benchmarks/ns2/referee/ered_excursions.py seed002-fig2-5 lc-ered --seed 1 [--factor ASSIGNMENT]

`--factor` takes an aqmlab_factors.py assignment (e.g. the output of triangular_rtts.py).
Samples: the run's 0.1 s link trace over its measurement window.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from aqmlab.reproduce import REGISTRY  # noqa: E402
from aqmlab.simulation import simulate  # noqa: E402
from aqmlab.units import seconds  # noqa: E402
from aqmlab_factors import apply, parse_assignment  # noqa: E402

#: Samples after an excursion at which the real queue is read (0.1 s each).
LAGS = (1, 2, 3, 5)


def b_max_packets(queue: dict[str, Any], rate_bps: float, packet_bytes: float) -> float:
    """b_max = b_min + ln(p_max/p_min)/κ, κ = α/(C·D) per packet (docs/queues/ered.md)."""
    capacity = rate_bps / (8 * packet_bytes)
    kappa = queue.get("alpha", 1.0) / (capacity * seconds(queue["delay_scale"]))
    b_min = float(queue["limit"].removesuffix("p")) / 5.0 if queue.get("b_min") is None else queue["b_min"]
    return b_min + math.log(queue.get("p_max", 0.1) / queue.get("p_min", 0.0005)) / kappa


def excursions(scenario: dict[str, Any]) -> dict[str, float]:
    bottleneck = scenario["topology"]["bottleneck"]
    queue = bottleneck["queue"]
    if queue.get("kind") != "ered" or queue.get("variant", "iq") != "iq":
        raise ValueError("topology.bottleneck.queue: an E-RED-iq queue (kind = 'ered') is needed")
    top = b_max_packets(queue, float(bottleneck["rate"]), float(queue["mean_packet_size"].removesuffix("B")))
    results = simulate(scenario)
    samples = results.link_samples(None)
    keep = samples["time_s"] >= results.measure_start_s
    virtual, real = samples["virtual_queue"][keep], samples["queue_packets"][keep]
    above = np.flatnonzero(virtual > top)
    out = {
        "b_max": top,
        "virtual_mean": float(virtual.mean()),
        "virtual_std": float(virtual.std()),
        "virtual_max": float(virtual.max()),
        "share_above_b_max": float(above.size / virtual.size),
        "real_queue_mean": float(real.mean()),
        "real_queue_empty_share": float(np.mean(real <= 0.5)),
    }
    for lag in LAGS:
        later = above[above + lag < real.size] + lag
        if later.size:
            out[f"real_queue_mean_{lag / 10:.1f}s_after"] = float(real[later].mean())
            out[f"real_queue_empty_share_{lag / 10:.1f}s_after"] = float(np.mean(real[later] <= 0.5))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reproduction")
    parser.add_argument("run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--factor", help="an aqmlab_factors.py assignment applied to the run first")
    args = parser.parse_args()
    if args.reproduction not in REGISTRY or REGISTRY[args.reproduction].runs is None:
        parser.error(f"reproduction: unknown id or no packet runs: {args.reproduction!r}")
    items = {item.name: item for item in REGISTRY[args.reproduction].runs(False)}
    if args.run not in items:
        parser.error(f"run: unknown run {args.run!r}; allowed: {', '.join(items)}")
    scenario = copy.deepcopy(items[args.run].scenario)
    scenario["seed"] = args.seed
    try:
        for part in args.factor.split(";") if args.factor else []:
            apply(scenario, *parse_assignment(part.strip()))
        print("\n".join(f"{key}: {value:.4g}" for key, value in excursions(scenario).items()))
    except ValueError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
