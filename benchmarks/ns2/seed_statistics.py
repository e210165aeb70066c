"""Per-seed statistics of an agreement row (experiments.json or agreement.json), for the causes
of docs/validation-ns2.md that the mean over seeds cannot show.

    python benchmarks/ns2/seed_statistics.py compound-redbyte-rtt200      # queue -> loss relation
    python benchmarks/ns2/seed_statistics.py compound-droptail-rtt200 --spread

- Default: the relation of the loss to the queue mean over the seeds of both simulators,
  log(loss %) = a + b * queue mean + c * [aqmlab] (least squares over every seed of both): exp(c)
  is aqmlab's loss relative to ns-2's at the same queue mean, with its 95 % interval; and the loss
  ns-2's own fit predicts at aqmlab's queue means. Seeds with no loss are left out (log 0).
- `--spread`: per metric, the two-sided Mann-Whitney test and a permutation test of the difference
  of the means (aqmlab's seeds against ns-2's), and the standard error of each simulator's mean
  over its seeds as a fraction of that mean: how far the seeds resolve the row's thresholds.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

HERE = Path(__file__).resolve().parent
SPREAD_METRICS = ("goodput_mbps", "queue_mean_packets", "queue_std_packets", "loss_percent", "timeouts_per_flow")


def per_seed(entry: dict[str, Any], side: str, metric: str) -> np.ndarray:
    return np.array([run[side][metric] for run in entry["per_seed"]], dtype=float)


def loss_at_equal_queue(entry: dict[str, Any]) -> dict[str, float]:
    """The pooled fit log(loss) = a + b·queue mean + c·[aqmlab] and ns-2's own fit's prediction."""
    queue = {side: per_seed(entry, side, "queue_mean_packets") for side in ("aqmlab", "ns2")}
    loss = {side: per_seed(entry, side, "loss_percent") for side in ("aqmlab", "ns2")}
    rows, target = [], []
    for indicator, side in ((1.0, "aqmlab"), (0.0, "ns2")):
        for q, lost in zip(queue[side], loss[side], strict=True):
            if lost > 0:
                rows.append([1.0, q, indicator])
                target.append(np.log(lost))
    x, y = np.array(rows), np.array(target)
    if len(y) <= x.shape[1]:
        raise SystemExit(f"{len(y)} seeds with a loss: too few for the fit")
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    dof = len(y) - x.shape[1]
    sigma2 = float(((y - x @ beta) ** 2).sum()) / dof
    se = np.sqrt(np.diag(sigma2 * np.linalg.inv(x.T @ x)))
    half = stats.t.ppf(0.975, dof) * se[2]
    ns2 = loss["ns2"] > 0
    own = stats.linregress(queue["ns2"][ns2], np.log(loss["ns2"][ns2]))
    predicted = np.exp(own.intercept + own.slope * queue["aqmlab"])
    return {
        "seeds": len(entry["per_seed"]),
        "per_packet_of_queue": float(beta[1]),
        "aqmlab_over_ns2_at_equal_queue": float(np.exp(beta[2])),
        "ci_low": float(np.exp(beta[2] - half)),
        "ci_high": float(np.exp(beta[2] + half)),
        "p_simulator": float(2 * stats.t.sf(abs(beta[2] / se[2]), dof)),
        "ns2_fit_r": float(own.rvalue),
        "ns2_fit_predicts_aqmlab_loss": float(predicted.mean()),
        "aqmlab_loss": float(loss["aqmlab"].mean()),
        "ns2_loss": float(loss["ns2"].mean()),
        "aqmlab_queue_mean": float(queue["aqmlab"].mean()),
        "ns2_queue_mean": float(queue["ns2"].mean()),
    }


def spread(entry: dict[str, Any], resamples: int = 20_000) -> dict[str, dict[str, float]]:
    """Per metric: Mann-Whitney and permutation p of aqmlab's seeds against ns-2's, and each
    mean's standard error relative to the mean."""
    out = {}
    for metric in SPREAD_METRICS:
        a, n = per_seed(entry, "aqmlab", metric), per_seed(entry, "ns2", metric)
        perm = stats.permutation_test(
            (a, n), lambda x, y: np.mean(x) - np.mean(y), n_resamples=resamples, random_state=1
        )

        def relative_se(v: np.ndarray) -> float:
            return float(v.std(ddof=1) / np.sqrt(len(v)) / abs(v.mean())) if v.mean() else float("nan")

        out[metric] = {
            "mann_whitney_p": float(stats.mannwhitneyu(a, n, alternative="two-sided").pvalue),
            "permutation_p": float(perm.pvalue),
            "aqmlab_relative_se": relative_se(a),
            "ns2_relative_se": relative_se(n),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("row", help="a row of experiments.json (else agreement.json)")
    parser.add_argument("--spread", action="store_true", help="the tests of the per-seed spread instead")
    args = parser.parse_args()
    for path in (HERE / "experiments.json", HERE / "agreement.json"):
        entry = json.loads(path.read_text())["rows"].get(args.row)
        if entry is not None:
            break
    else:
        raise SystemExit(f"no row {args.row!r} in experiments.json or agreement.json")
    result = spread(entry) if args.spread else loss_at_equal_queue(entry)
    print(json.dumps({"row": args.row, "source": path.name, **result}, indent=1))


if __name__ == "__main__":
    main()
