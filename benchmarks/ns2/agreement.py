"""Run the ns-2 agreement matrix (matrix.py) in aqmlab and in ns-2 2.35 and compare (issue 27).

    python benchmarks/ns2/agreement.py                  # every row, 3 seeds each (resumes)
    python benchmarks/ns2/agreement.py --quick          # the 8 QUICK rows; exit 1 on disagreement
    python benchmarks/ns2/agreement.py --only sack-red-rtt20 --force
    python benchmarks/ns2/agreement.py --only cubic-droptail-rtt20 --variant tick10ms

Per row and seed k (k = 1..--seeds): aqmlab `simulate(seed=k)`; then ns-2 with aqmlab seed
k's flow start times (both simulators start the same flows at the same instants) and
`$defaultRNG seed k`. Both sides' metrics come from benchmarks/ns3/metrics.py `summarise`
(the restatement of `Results.summary()`); the compared value is the mean over the seeds, with
the thresholds of the ns-3 matrix (metrics.METRICS). Per-flow loss-recovery counts (timeouts,
retransmitted packets, window reductions; whole run) are recorded beside them.

Results: agreement.json (quick: agreement-quick.json) beside this file, rewritten after every
row, so an interrupted run resumes where it stopped unless --force. At most two simulator
processes at a time (`--jobs`, default 2), each under `nice -n 5` when started by make.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "ns3"))
sys.path.insert(0, str(HERE))

import aqmlab  # noqa: E402
import metrics  # noqa: E402  (benchmarks/ns3/metrics.py)
import ns2_mapping  # noqa: E402
import ns2_run  # noqa: E402
from aqmlab.machine import describe  # noqa: E402
from matrix import QUICK, experiment_rows, rows  # noqa: E402

#: ns-2's summaries by program (ns-2 is deterministic: the program text, with its seed, fixes
#: the run): a row whose ns-2 program was run before, e.g. one that changes only aqmlab's side,
#: takes it from here unless --fresh-ns2 (as benchmarks/ns3's ns3-cache).
NS2_CACHE = HERE / "build" / "ns2-cache"
RESULTS = HERE / "agreement.json"
EXPERIMENTS = HERE / "experiments.json"
QUICK_RESULTS = HERE / "agreement-quick.json"
#: Bump when the mapping or the measurement changes, so stored rows are rerun.
HARNESS_VERSION = 2  # 2: TCP-Linux's own minrto_/maxrto_/rtxcur_init_ set
COUNTS = ("timeouts_per_flow", "retransmits_per_flow", "reductions_per_flow")
#: One-factor variants of the ns-2 side (Options), for the experiments in docs/validation-ns2.md.
VARIANTS = {
    "tick10ms": {"tick_s": 0.01},
    "karn": {"timestamps": False},
    "linux-reno": {"reno_sack_agent": "linux"},
    "ns2-defaults": {"tick_s": 0.01, "timestamps": False, "syn": True},
}


def program_digest(program: ns2_mapping.Ns2Program, link: str) -> str:
    """The ns-2 run's identity: the program's Tcl lines (its `# from` comments left out) and
    the link summarised."""
    lines = [line for line in program.text().splitlines() if not line.lstrip().startswith("#")]
    return hashlib.sha256(json.dumps([lines, link, ns2_run.NS]).encode()).hexdigest()


def ns2_side(program: ns2_mapping.Ns2Program, link: str, start: float, end: float, fresh: bool) -> tuple:
    """(ns-2 summary, wall s of the ns process, from the cache?, program digest)."""
    digest = program_digest(program, link)
    cached = NS2_CACHE / f"{digest}.json"
    if cached.is_file() and not fresh:
        stored = json.loads(cached.read_text())
        return stored["ns2"], stored["ns2_s"], True, digest
    records = ns2_run.run(program, start)
    theirs = {k: float(v) for k, v in ns2_run.summarise(records, program, link, start, end).items()}
    store_ns2(digest, theirs, records.wall_s)
    return theirs, records.wall_s, False, digest


def store_ns2(digest: str, theirs: dict[str, float], wall_s: float) -> None:
    NS2_CACHE.mkdir(parents=True, exist_ok=True)
    tmp = NS2_CACHE / f"{digest}.tmp"
    tmp.write_text(json.dumps({"ns2": theirs, "ns2_s": wall_s}, sort_keys=True))
    tmp.replace(NS2_CACHE / f"{digest}.json")


def one_seed(row: Any, seed: int, options: ns2_mapping.Options, fresh_ns2: bool = False) -> dict[str, Any]:
    began = time.perf_counter()
    results = aqmlab.simulate(row.scenario, seed=seed)
    aqmlab_s = time.perf_counter() - began
    ours = ns2_run.aqmlab_summary(results, row.link)
    ours.update(ns2_run.recovery_counts(*ns2_run.aqmlab_recovery(results, row.link)))
    starts = [float(x) for x in results.flows.column("start_s").to_numpy()]
    ns2_scenario = row.ns2_scenario or row.scenario
    program = ns2_mapping.translate(ns2_scenario.resolved(), start_times=starts, seed=seed, options=options)
    theirs, ns2_s, cached, digest = ns2_side(program, row.link, results.measure_start_s, results.end_s, fresh_ns2)
    clean = lambda d: {k: float(v) for k, v in d.items()}  # noqa: E731
    return {
        "seed": seed,
        "aqmlab": clean(ours),
        "ns2": clean(theirs),
        "aqmlab_s": aqmlab_s,
        "ns2_s": ns2_s,
        "ns2_cached": cached,
        "ns2_program": digest,
    }


def adopt_stored(table: dict[str, Any], paths: list[Path]) -> None:
    """Fill the ns-2 cache from rows stored before it existed: for each stored row, rebuild its
    ns-2 program per seed from the row's current definition (aqmlab's start times from a run of
    the row cut to its starts: they are drawn before the first event and do not depend on the
    TCP settings) and file the stored ns-2 summary under it. Valid while the mapping writes the
    same program as when the row was stored: check by rerunning a few with --fresh-ns2 (ns-2 is
    deterministic; docs/validation-ns2.md records the check)."""
    for path in paths:
        store = json.loads(path.read_text())
        for stored_name, entry in store["rows"].items():
            name, _, variant = stored_name.partition("+")
            row = table.get(name)
            if row is None:
                print(f"{stored_name}: not adopted (no such row)", flush=True)
                continue
            options = ns2_mapping.Options(**VARIANTS.get(variant, {}))
            for run in entry["per_seed"]:
                starts = start_times(row.scenario, run["seed"])
                ns2_scenario = row.ns2_scenario or row.scenario
                try:
                    program = ns2_mapping.translate(
                        ns2_scenario.resolved(), start_times=starts, seed=run["seed"], options=options
                    )
                except ns2_mapping.Unsupported as error:
                    print(f"{stored_name}: not adopted ({error})", flush=True)
                    break
                digest = program_digest(program, row.link)
                if not (NS2_CACHE / f"{digest}.json").is_file():
                    store_ns2(digest, run["ns2"], run["ns2_s"])
            else:
                print(f"{stored_name}: adopted", flush=True)


def start_times(scenario: Any, seed: int) -> list[float]:
    """aqmlab's flow start times for `seed`, from a run cut at 10.5 s (the matrix's starts
    are in [0, 10] s), or the whole run if a flow has not started by then."""
    data = scenario.model_dump(mode="json")
    data["duration"], data["measure_start"] = "10.5s", "0s"
    starts = aqmlab.simulate(aqmlab.Scenario.from_dict(data), seed=seed).flows.column("start_s").to_numpy()
    if not np.all(np.isfinite(starts.astype(float))):
        starts = aqmlab.simulate(scenario, seed=seed).flows.column("start_s").to_numpy()
    return [float(x) for x in starts]


def compare(per_seed: list[dict[str, Any]]) -> dict[str, Any]:
    keys = list(metrics.METRICS) + list(COUNTS)

    def mean(side: str, key: str) -> float:
        values = [run[side][key] for run in per_seed if key in run[side]]
        finite = [v for v in values if math.isfinite(v)]
        return float(np.mean(finite)) if finite else math.nan

    def spread(side: str, key: str) -> float:
        values = [run[side][key] for run in per_seed if math.isfinite(run[side].get(key, math.nan))]
        return float(statistics.stdev(values)) if len(values) > 1 else math.nan

    aqm = {k: mean("aqmlab", k) for k in keys}
    ns2 = {k: mean("ns2", k) for k in keys}
    return {
        "aqmlab": aqm,
        "ns2": ns2,
        "aqmlab_seed_std": {k: spread("aqmlab", k) for k in keys},
        "ns2_seed_std": {k: spread("ns2", k) for k in keys},
        "relative_difference": {k: metrics.relative_difference(aqm[k], ns2[k]) for k in keys},
        "disagreements": metrics.disagreements(aqm, ns2),
    }


def row_key(row: Any, seeds: int, variant: str | None) -> str:
    parts = [row.scenario.resolved(), row.link, seeds, variant, HARNESS_VERSION, aqmlab.__version__]
    if row.ns2_scenario is not None:
        parts.append(row.ns2_scenario.resolved())
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=f"the {len(QUICK)} QUICK rows; exit 1 on disagreement")
    parser.add_argument("--only", nargs="*", default=None, help="rows by name")
    parser.add_argument(
        "--seeds", type=int, default=3, help="seeds per row in each simulator (unless the row sets its own)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="seeds run at once (ns-2 processes)")
    parser.add_argument("--force", action="store_true", help="rerun rows already stored")
    parser.add_argument("--experiments", action="store_true", help="the one-factor rows (experiments.json)")
    parser.add_argument("--variant", choices=sorted(VARIANTS), help="a one-factor variant of the ns-2 side")
    parser.add_argument("--fresh-ns2", action="store_true", help="run ns-2 even where build/ns2-cache has the program")
    parser.add_argument(
        "--adopt-stored", action="store_true", help="fill build/ns2-cache from the stored rows still current, then stop"
    )
    args = parser.parse_args()

    table = {**rows(), **experiment_rows()}
    if args.adopt_stored:
        adopt_stored(table, [p for p in (RESULTS, EXPERIMENTS, QUICK_RESULTS) if p.is_file()])
        return
    names = QUICK if args.quick else list(experiment_rows() if args.experiments else rows())
    if args.only is not None:
        unknown = [n for n in args.only if n not in table]
        if unknown:
            parser.error(f"unknown rows {unknown}; known: {sorted(table)}")
        names = [n for n in names if n in args.only] or list(args.only)
    results_path = QUICK_RESULTS if args.quick else EXPERIMENTS if (args.experiments or args.variant) else RESULTS
    store = json.loads(results_path.read_text()) if results_path.is_file() else {"rows": {}}
    store["meta"] = {
        "machine": describe(ns2=ns2_run.NS),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "thresholds": metrics.METRICS,
        "note": "2-core VM shared with other engineers' jobs",
    }
    options = ns2_mapping.Options(**VARIANTS.get(args.variant, {}))
    began_all = time.perf_counter()
    failed = []
    for name in names:
        row = table[name]
        stored_name = name + (f"+{args.variant}" if args.variant else "")
        seeds = row.seeds or args.seeds
        key = row_key(row, seeds, args.variant)
        old = store["rows"].get(stored_name)
        if old and old.get("key") == key and not args.force:
            print(f"{stored_name}: stored", flush=True)
            if old["disagreements"]:
                failed.append(stored_name)
            continue
        began = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            per_seed = list(
                pool.map(
                    functools.partial(one_seed, row, options=options, fresh_ns2=args.fresh_ns2),
                    range(1, seeds + 1),
                )
            )
        entry = {
            "key": key,
            "group": row.group,
            "link": row.link,
            "variant": args.variant,
            "options": options.__dict__,
            "seeds": seeds,
            **compare(per_seed),
            "per_seed": per_seed,
            "wall_s": time.perf_counter() - began,
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        store["rows"][stored_name] = entry
        tmp = results_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(store, indent=1, sort_keys=True) + "\n")
        tmp.replace(results_path)
        diffs = entry["relative_difference"]
        shown = " ".join(f"{k.split('_')[0]} {diffs[k] * 100:+.0f}%" for k in list(metrics.METRICS)[:5])
        verdict = "agrees" if not entry["disagreements"] else f"DIFFERS {entry['disagreements']}"
        print(f"{stored_name}: {verdict}; {shown} ({entry['wall_s']:.0f} s)", flush=True)
        if entry["disagreements"]:
            failed.append(stored_name)
    print(f"{len(names)} rows, {len(names) - len(failed)} agree; {time.perf_counter() - began_all:.0f} s")
    if args.quick and failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
