"""One-factor experiments on ns-2's side of the referee (issue 27): a reproduction's runs in ns-2
with its TCP set as aqmlab's (`ns2_mapping.Options()`, claims_run's `like-tcp`) and one ns-2
class default more, judged by the reproduction's own claims.

    python benchmarks/ns2/referee/ns2_factor.py seed003-section3 ts-reset-rto [--seeds 2]

Factors (`FACTORS`: the Tcl lines added after `new Simulator`, so every agent takes them):
- `ts-reset-rto`: `Agent/TCP set ts_resetRTO_ true`. ns-2's Agent/TCP keeps a timeout's backoff
  until an ACK covers its timed segment, which after a timeout is one sent for the first time
  (tcp.cc `newack`, lines 1379-1400; `reset_rtx_timer` clears `rtt_active_`, line 972), unless
  `ts_resetRTO_` (default false, read from the binary) ends it at every timestamp sample — what
  aqmlab's RFC 6298 estimator does (RFC 6298 Section 5.7; with RFC 7323 timestamps the ACK of
  the retransmission is a valid sample).
Each (seed, run) lands in `runs/<id>-like-tcp-<factor>.json` (claims_run's store format) as it
finishes.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import claims_run  # noqa: E402
import ns2_mapping  # noqa: E402
import ns2_results  # noqa: E402
import one_factor  # noqa: E402
from aqmlab.reproduce import REGISTRY  # noqa: E402
from aqmlab.scenario import Scenario  # noqa: E402

FACTORS: dict[str, list[str]] = {"ts-reset-rto": ["Agent/TCP set ts_resetRTO_ true"]}


def one_run(run: Any, scenario_dict: dict[str, Any], seed: int, extra: list[str]) -> dict[str, Any]:
    """claims_run.one_run with ns-2's TCP as aqmlab's and `extra` Tcl lines."""
    scenario = Scenario.from_dict({**scenario_dict, "seed": seed})
    resolved = scenario.resolved()
    program = ns2_mapping.translate(resolved, seed=seed, options=ns2_mapping.Options())
    at = next(i for i, line in enumerate(program.lines) if line == "set ns [new Simulator]") + 1
    program.lines[at:at] = ["# one-factor experiment (ns2_factor.py)", *extra]
    ns2_results.with_link_state(program, resolved)
    text, cpu = ns2_results.run_ns2(program)
    group_of_flow = [i for i, g in enumerate(resolved["topology"]["groups"]) for _ in range(g["traffic"]["count"])]
    results = ns2_results.results_from_ns2(text, program, scenario, group_of_flow, seed)
    flows = results.to_pandas("flows")
    return {
        "measures": {key: float(value) for key, value in run.measure(results).items()},
        "cpu_s": cpu,
        "timeouts_per_flow": float(flows["timeouts"].mean()),
        "fast_recoveries_per_flow": float(flows["fast_recoveries"].mean()),
    }


def main() -> None:
    args = one_factor.parse_arguments(__doc__, FACTORS)
    declaration = REGISTRY[args.reproduction]
    runs = {run.name: run for run in declaration.runs(False)}
    scenarios = claims_run.mapped(declaration, "paper")
    mode = f"like-tcp-{args.factor}"
    path = claims_run.store_path(args.reproduction, mode)
    store = json.loads(path.read_text()) if path.is_file() else {"id": args.reproduction, "red_mode": mode}
    for seed, done, name, scenario in claims_run.pending_runs(store, scenarios, args.seeds):
        began = time.process_time()
        done[name] = one_run(runs[name], scenario, seed, FACTORS[args.factor])
        done[name]["python_cpu_s"] = time.process_time() - began
        path.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
        print(f"{args.reproduction} {mode} seed {seed} {name}: ns-2 {done[name]['cpu_s']:.0f} s CPU", flush=True)
    refusals = {name: s for name, s in scenarios.items() if isinstance(s, str)}
    for claim_id, entry in claims_run.judged(args.reproduction, store, refusals).items():
        print(f"{claim_id}: {entry.get('verdict', entry['status'])}: {entry.get('ns2', entry.get('reason'))}")


if __name__ == "__main__":
    main()
