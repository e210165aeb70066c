"""The referee column of seed 000's packet-level searches (issue 27): the same bisection over
runs that `seed000-*-packets` compute with aqmlab (`aqmlab.experiments.packet_chart`), with
every probe run in ns-2 2.35 instead.

    python benchmarks/ns2/referee/searches_run.py [--only ID ...]   # then claims_run.py --write

Size. The full versions are 8 x values (5 for the threshold chart) x up to 8 probes x 5 seeds
of 150-s runs of the 60-flow dumbbell: about 320 ns-2 runs of 4-6 s of CPU per chart, 1.5 h
of ns-2 CPU for the three, beyond this session's budget. Both simulators therefore run one
stated reduced size, the declarations' quick version (`seed000_packet_chart.run_settings(True)`:
10 flows, C = 10 C̃, 40-s runs judged from 10 s, seeds 1 and 2, the quick x values and one
bisection round), and the ns-2 cell shows aqmlab's verdict at that size beside ns-2's.

RED runs in packet mode in both (`as_printed(..., red_mode="packet")`: the mode the referee
settled for seed 000 from Fig. 6, and the one whose average the oscillation criterion can read
against the printed thresholds: in byte mode ns-2's average counts 500-byte units); ns-2's TCP
defaults otherwise (`ns2_mapping.ns2_defaults()`, as every as-printed run).

Each chart's probes are stored (resumable) under benchmarks/ns2/build/referee-searches/ (the
shared ns-2 cache); `runs/<id>-search-quick.json` keeps both simulators' judged claims, which
`claims_run.py --write` puts in docs/reproduction/referee.json.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import as_printed  # noqa: E402
from aqmlab.experiments.packet_chart import packet_chart  # noqa: E402
from aqmlab.reproduce import REGISTRY  # noqa: E402
from aqmlab.reproduce.runner import judge_claim  # noqa: E402
from aqmlab.reproduce.seed000_packet_chart import CHARTS, chart_values, run_settings  # noqa: E402

RUNS = HERE / "runs"
PROBES = HERE.parent / "build" / "referee-searches"
SIZE = (
    "reduced size in both simulators, the quick version: 10 flows (C = 10 C̃), 40-s runs judged from 10 s, "
    "seeds 1-2, the quick x values, one bisection round; the scenario as printed for ns-2 in both (Compound as "
    "ns-2's Linux port, ζ = 1, with SACK; RED in packet mode)"
)


def store_path(reproduction_id: str) -> Path:
    return RUNS / f"{reproduction_id}-search-quick.json"


def ns2_probe(scenario: dict[str, Any], *, seed: int) -> Any:
    """One probe in ns-2: the scenario with RED in packet mode, ns-2's TCP defaults."""
    from claims_run import ns2_run

    results, _ = ns2_run(as_printed.as_printed(scenario, "seed000", red_mode="packet"), seed)
    return results


def aqmlab_probe(scenario: dict[str, Any], *, seed: int) -> Any:
    """One probe in aqmlab, with the same scenario as `ns2_probe` (RED in packet mode)."""
    from aqmlab.simulation import simulate

    return simulate(as_printed.as_printed(scenario, "seed000", red_mode="packet"), seed=seed)


def judged_chart(reproduction_id: str, chart: Any) -> dict[str, dict[str, Any]]:
    """claim id → its entry on `chart` (the runner's judge_claim), or why not judged."""
    values = {
        key: [float(v) for v in value] if isinstance(value, list | tuple) else [float(value)]
        for key, value in chart_values(chart).items()
        if not key.startswith("x_")
    }
    out = {}
    for claim in REGISTRY[reproduction_id].claims:
        claim_id = f"{reproduction_id}/{claim.id}"
        if claim.full_only:
            out[claim_id] = {"full_only": True}
            continue
        out[claim_id] = judge_claim(reproduction_id, claim, values)
    return out


def run_search(reproduction_id: str) -> dict[str, Any]:
    _, _, scenario, x_quick, _, y, options, _ = next(c for c in CHARTS if c[0] == reproduction_id)
    store: dict[str, Any] = {"id": reproduction_id, "size": SIZE}
    for label, simulator in (("ns2", ns2_probe), ("aqmlab", aqmlab_probe)):
        began = time.process_time()
        chart = packet_chart(
            scenario(True),
            x_quick,
            y,
            **run_settings(True),
            **options,
            out=PROBES / f"{reproduction_id}-{label}",
            simulator=simulator,
        )
        store[label] = judged_chart(reproduction_id, chart)
        store[f"{label}_runs"] = chart.meta["runs_computed"] + chart.meta["runs_stored"]
        store[f"{label}_cpu_s"] = time.process_time() - began + chart.meta["children_cpu_time_s"]
        print(f"{reproduction_id} {label}: {store[f'{label}_runs']} probes", flush=True)
    RUNS.mkdir(exist_ok=True)
    store_path(reproduction_id).write_text(json.dumps(store, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    return store


def entries(reproduction_id: str) -> dict[str, dict[str, Any]] | None:
    """claim id → the referee entry of a stored search (None when not run): ns-2's verdict and
    values at the reduced size, aqmlab's at the same size in the note."""
    path = store_path(reproduction_id)
    if not path.is_file():
        return None
    store = json.loads(path.read_text())
    out = {}
    for claim_id, ns2 in store["ns2"].items():
        ours = store["aqmlab"][claim_id]
        if ns2.get("full_only"):
            out[claim_id] = {
                "status": "not run",
                "reason": "a full-version-only claim; the search ran in ns-2 at the reduced size only "
                f"({store['size']}), the full size being beyond the session's CPU (searches_run.py)",
            }
            continue
        unmeasured = [c["label"] for c in ns2["checks"] if not math.isfinite(c["mean"])]
        out[claim_id] = {
            "status": "run",
            "ns2": ns2["aqmlab"],
            "verdict": ns2["verdict"],
            "seeds": ns2["seeds"],
            "unmeasured": [],
            "note": f"{store['size']}; aqmlab at this size: {ours['verdict']}: {ours['aqmlab']}"
            + (f"; no value in ns-2 for {', '.join(unmeasured)}" if unmeasured else ""),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ids = [chart[0] for chart in CHARTS]
    parser.add_argument("--only", nargs="*", choices=ids, default=ids)
    args = parser.parse_args()
    for reproduction_id in args.only:
        run_search(reproduction_id)


if __name__ == "__main__":
    main()
