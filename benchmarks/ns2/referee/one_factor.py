"""One-factor experiments in aqmlab for the referee's classes (issue 27): a reproduction's own
runs with one setting changed towards ns-2 as the paper printed it, judged by its own claims.

    python benchmarks/ns2/referee/one_factor.py seed000-fig15 ns2-agents [--seeds 2]

Factors (each one setting; the reason it is a candidate in `FACTORS`):
- `ns2-agents`: Compound as ns-2.35's TCP-Linux port (ζ = 1) and a SACK sender
  (as_printed.agents_as_paper), the agent the ns-2 column runs;
- `byte-mode`: RED at ns-2.35's defaults (byte mode, mean_pktsize_ 500: as_printed.red_ns2_defaults);
- `every-ack`: the retransmission timer restarted on every ACK (`rto_restart = "every_ack"`,
  TCP-Linux's tcp-linux.cc behaviour; docs/validation-ns2.md cause 2);
- `tick10ms`: ns-2's 10-ms timer granularity (`timer_tick = "10ms"`, ns-2's `tcpTick_`);
- `limited-transmit`: RFC 3042 limited transmit (`limited_transmit = true`), which ns-2's agents
  do by default (`singledup_ 1`, tcp.cc; issue 27);
- `ns2-estimator`: ns-2's Agent/TCP retransmission timer at its default tick (`rtt_estimator =
  "ns2"`, `timer_tick = "10ms"`, ns-2's `tcpTick_`; tcp.cc rtt_update/rtt_timeout/rtt_backoff),
  whose backoff lasts until data sent after the timeout is acknowledged (tcp.cc newack), where
  RFC 6298 Section 5.7 with timestamps ends it at the next RTT sample, the retransmission's;
- `beyond-recover`: NewReno's fast retransmit only from an ACK beyond `recover`
  (`fast_retransmit_guard = "ack_beyond_recover"`, tcp-newreno.cc dupack_action);
- `ns2-estimator-limited-transmit`: `ns2-estimator` with limited transmit, one factor from
  `ns2-estimator`: ns-2's Newreno as printed, whose `singledup_ 1` default is limited transmit
  (tcp-newreno.cc line 273), where `ns2-estimator` alone matches the runs with `singledup_ 0`.
Per (reproduction, factor, seed, run) the measures land in `one_factor.json` as they finish.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import as_printed  # noqa: E402
from aqmlab.reproduce import REGISTRY  # noqa: E402
from aqmlab.reproduce.runner import judge_claim  # noqa: E402
from aqmlab.simulation import simulate  # noqa: E402

STORE = HERE / "one_factor.json"


def _tcp(setting: str, value: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def change(scenario: dict[str, Any]) -> dict[str, Any]:
        for group in scenario["topology"]["groups"]:
            if "tcp" in group or group.get("kind", "tcp") == "tcp":
                group.setdefault("tcp", {})[setting] = value
        return scenario

    return change


FACTORS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "ns2-agents": as_printed.agents_as_paper,
    "byte-mode": as_printed.red_ns2_defaults,
    "every-ack": _tcp("rto_restart", "every_ack"),
    "tick10ms": _tcp("timer_tick", "10ms"),
    "limited-transmit": _tcp("limited_transmit", True),
    "ns2-estimator": lambda scenario: _tcp("timer_tick", "10ms")(_tcp("rtt_estimator", "ns2")(scenario)),
    "beyond-recover": _tcp("fast_retransmit_guard", "ack_beyond_recover"),
    "ns2-estimator-limited-transmit": lambda scenario: _tcp("limited_transmit", True)(
        _tcp("timer_tick", "10ms")(_tcp("rtt_estimator", "ns2")(scenario))
    ),
}


def run(reproduction_id: str, factor: str, seeds: int) -> dict[str, Any]:
    declaration = REGISTRY[reproduction_id]
    assert declaration.runs is not None
    store = json.loads(STORE.read_text()) if STORE.is_file() else {}
    done = store.setdefault(reproduction_id, {}).setdefault(factor, {})
    for seed in range(1, seeds + 1):
        per_run = done.setdefault(str(seed), {})
        for item in declaration.runs(False):
            if item.name in per_run:
                continue
            scenario = FACTORS[factor](copy.deepcopy(item.scenario))
            scenario["seed"] = seed
            results = simulate(scenario)
            per_run[item.name] = {k: float(v) for k, v in item.measure(results).items()}
            STORE.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
            print(f"{reproduction_id} {factor} seed {seed} {item.name}", flush=True)
    return judged(reproduction_id, factor)


def judged(reproduction_id: str, factor: str) -> dict[str, Any]:
    """claim id → verdict and values of the claim's own checks on the factor's runs."""
    return judge_seeds(reproduction_id, json.loads(STORE.read_text())[reproduction_id][factor])


def judge_seeds(reproduction_id: str, per_seed: dict[str, Any], quick: bool = False) -> dict[str, Any]:
    """claim id → verdict and values of the claim's own checks on `per_seed` (seed → run →
    measures), derived per seed as the reproduction's runner does (also aqmlab_factors.py)."""
    declaration = REGISTRY[reproduction_id]
    values: dict[str, list[float]] = {}
    for seed in sorted(per_seed, key=int):
        measures = per_seed[seed]
        flat = {f"{r}.{k}": v for r, row in measures.items() for k, v in row.items()}
        if declaration.derive is not None:
            flat.update({k: float(v) for k, v in declaration.derive(measures, quick).items()})
        for key, value in flat.items():
            values.setdefault(key, []).append(value)
    out = {}
    for claim in declaration.claims:
        if quick and claim.full_only:
            continue
        entry = judge_claim(reproduction_id, claim, values)
        out[entry["id"]] = {"verdict": entry["verdict"], "aqmlab": entry["aqmlab"]}
    return out


def parse_arguments(doc: str, factors: Any) -> argparse.Namespace:
    """`REPRODUCTION FACTOR [--seeds N]` of a one-factor script (this one's and ns2_factor.py's)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reproduction")
    parser.add_argument("factor", choices=sorted(factors))
    parser.add_argument("--seeds", type=int, default=2)
    args = parser.parse_args()
    if args.reproduction not in REGISTRY:
        parser.error(f"reproduction: unknown id {args.reproduction!r}")
    return args


def main() -> None:
    args = parse_arguments(__doc__, FACTORS)
    for claim_id, entry in run(args.reproduction, args.factor, args.seeds).items():
        print(f"{claim_id}: {entry['verdict']}: {entry['aqmlab']}")


if __name__ == "__main__":
    main()
