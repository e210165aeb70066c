"""One-factor experiments on seed 000's packet-level searches (issue 27, class (a)): the search of
`searches_run.py` at its reduced size, in ns-2 2.35 and in aqmlab alike, with one setting changed,
judged by the reproduction's own claims (`searches_run.judged_chart`).

    python benchmarks/ns2/referee/search_factor.py seed000-fig4a-packets rounds4
    python benchmarks/ns2/referee/search_factor.py seed000-threshold-packets capacity100

Factors (`FACTORS`; each names the one thing it changes and why it is a candidate):
- `rounds4`: four bisection rounds instead of the reduced size's one (`max_rounds`; the default
  tolerance, a sixteenth of the y range, stops there too). One round probes RTTs 0.02, 0.42 and
  0.82 s only, coarser than the fall of the fluid Hopf τ it must resolve (eq. (26): 0.272 s at
  C̃ = 100 to 0.136 s at C̃ = 200, both below the one middle probe 0.42 s).
- `capacity100`: the bottleneck at C = N C̃ with the paper's C̃ = 100 packets/s (Section VI-A,
  Fig. 14: C̃ = 100; eq. (3): C = N C̃), 12 Mb/s for the reduced size's 10 flows of 1500-byte
  packets (`axes.set_per_flow_capacity`, as the per-flow-capacity charts set it). The reduced
  size keeps the full size's 100 Mb/s bottleneck with 10 flows whose 2 Mb/s access links offer
  20 Mb/s at most: the link is access-limited at 20 % and no queue forms to oscillate.
Both simulators run the same scenario (`searches_run.ns2_probe` / `aqmlab_probe`: RED in packet
mode, ns-2's TCP defaults as printed). Probes are stored under
benchmarks/ns2/build/referee-searches/<id>-<factor>-<simulator>/ (resumable); the judged claims of
both in `runs/<id>-search-quick-<factor>.json`, which the referee evidence (referee.toml) cites.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import searches_run  # noqa: E402
from aqmlab.experiments.packet_chart import packet_chart  # noqa: E402
from aqmlab.experiments.packet_chart.axes import set_per_flow_capacity  # noqa: E402
from aqmlab.reproduce.seed000_packet_chart import CHARTS, run_settings  # noqa: E402

#: The paper's per-flow capacity of the threshold policy's analysis (Section VI-A, Fig. 14).
PAPER_PER_FLOW_CAPACITY = 100.0


def _more_rounds(scenario: dict[str, Any], settings: dict[str, Any]) -> None:
    settings["max_rounds"] = 4


def _paper_capacity(scenario: dict[str, Any], settings: dict[str, Any]) -> None:
    set_per_flow_capacity(scenario, PAPER_PER_FLOW_CAPACITY)


#: factor → (what it changes, in words for the store; the change to the scenario and settings).
FACTORS: dict[str, tuple[str, Callable[[dict[str, Any], dict[str, Any]], None]]] = {
    "rounds4": ("max_rounds 1 -> 4 (bisection to a sixteenth of the y range)", _more_rounds),
    "capacity100": ("bottleneck rate 100 Mb/s -> N C~ with C~ = 100 packets/s (12 Mb/s for 10 flows)", _paper_capacity),
}


def store_path(reproduction_id: str, factor: str) -> Path:
    return searches_run.RUNS / f"{reproduction_id}-search-quick-{factor}.json"


def run_factor(reproduction_id: str, factor: str) -> dict[str, Any]:
    if factor not in FACTORS:
        raise SystemExit(f"factor {factor!r}; allowed: {', '.join(FACTORS)}")
    charts = {chart[0]: chart for chart in CHARTS}
    if reproduction_id not in charts:
        raise SystemExit(f"reproduction {reproduction_id!r}; allowed: {', '.join(charts)}")
    _, _, scenario_of, x_quick, _, y, options, _ = charts[reproduction_id]
    what, change = FACTORS[factor]
    scenario = scenario_of(True)
    settings = run_settings(True)
    change(scenario, settings)
    store: dict[str, Any] = {"id": reproduction_id, "size": searches_run.SIZE, "factor": f"{factor}: {what}"}
    for label, simulator in (("ns2", searches_run.ns2_probe), ("aqmlab", searches_run.aqmlab_probe)):
        began = time.process_time()
        chart = packet_chart(
            scenario,
            x_quick,
            y,
            **settings,
            **options,
            out=searches_run.PROBES / f"{reproduction_id}-{factor}-{label}",
            simulator=simulator,
        )
        store[label] = searches_run.judged_chart(reproduction_id, chart)
        store[f"{label}_runs"] = chart.meta["runs_computed"] + chart.meta["runs_stored"]
        store[f"{label}_cpu_s"] = time.process_time() - began + chart.meta["children_cpu_time_s"]
        print(f"{reproduction_id} {factor} {label}: {store[f'{label}_runs']} probes", flush=True)
    store_path(reproduction_id, factor).write_text(
        json.dumps(store, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    )
    return store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reproduction", choices=[chart[0] for chart in CHARTS])
    parser.add_argument("factor", choices=list(FACTORS))
    args = parser.parse_args()
    store = run_factor(args.reproduction, args.factor)
    for label in ("ns2", "aqmlab"):
        for claim_id, entry in store[label].items():
            if not entry.get("full_only"):
                print(f"{label} {claim_id}: {entry['verdict']}: {entry['aqmlab']}")


if __name__ == "__main__":
    main()
