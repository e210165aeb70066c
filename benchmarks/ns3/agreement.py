"""Run aqmlab scenarios in aqmlab and in ns-3 3.44 and compare them (issue 9 items 1-3).

    python benchmarks/ns3/agreement.py SCENARIO.toml [...]      # any scenario the mapping supports
    python benchmarks/ns3/agreement.py --matrix --runs 3        # the 16-scenario matrix, timed,
                                                                # and its 16 min_rto = 1 s twins
    python benchmarks/ns3/agreement.py --matrix --only cubic-red-rtt200 --force
    python benchmarks/ns3/agreement.py --matrix --refresh-aqmlab  # aqmlab's side only, after an
                                                                # engine change (ns-3 results kept)

Per scenario:
1. aqmlab, through `aqmlab.simulate` (seed 1): the compared metrics, the queue trace and the
   flows' start times; also seeds 2..`--seeds` for the seed-to-seed spread of each metric.
2. ns-3: `ns3_mapping.translate` with aqmlab's start times (both simulators start the same
   flows at the same instants), then `build/aqmlab_ns3`, `--runs` times (every run a separate
   process; the runs must give identical results, which is checked); metrics from its records
   through the same `metrics.summarise`.
3. Timing: ns-3's `Simulator::Run` wall time per run, and the aqmlab engine's run in a bare
   Rust process (`target/release/examples/run_scenario`, no per-flow traces, as
   benchmarks/dumbbell-60), `--runs` times, alternating, with the load average around each.

Results go to `agreement.json` (beside this file; rewritten after every scenario, so an
interrupted matrix resumes where it stopped unless `--force`), queue traces to
`build/traces/NAME.npz` for the figures (`report.py`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

# imports below need the sys.path entry above (sibling modules in benchmarks/ns3)
import aqmlab  # noqa: E402
import metrics  # noqa: E402
import ns3_mapping  # noqa: E402
from aqmlab.machine import describe  # noqa: E402
from matrix import Row, issue15_matrix, matrix, min_rto_1s_matrix, parking_lot_files, sack_matrix  # noqa: E402

NS3_BINARY = HERE / "build" / "aqmlab_ns3"
ENGINE_RUNNER = ROOT / "target" / "release" / "examples" / "run_scenario"
RESULTS = HERE / "agreement.json"
TRACES = HERE / "build" / "traces"
#: ns-3's raw results by spec (see `run_ns3`).
NS3_CACHE = HERE / "build" / "ns3-cache"
#: Bump when the mapping or the measurements change, so stored results are not reused.
HARNESS_VERSION = 1


def machine() -> dict[str, str]:
    return describe(ns3="3.44 (PyPI ns3==3.44.post0, C++ against the wheel)")


def load_average() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


# --- aqmlab ---------------------------------------------------------------------------------


def run_aqmlab(scenario: aqmlab.Scenario, seed: int) -> tuple[aqmlab.Results, float]:
    began = time.perf_counter()
    results = aqmlab.simulate(scenario, seed=seed)
    return results, time.perf_counter() - began


def time_engine(resolved: dict[str, Any], seed: int) -> dict[str, Any]:
    """One run of the engine in a bare Rust process (no per-flow traces)."""
    bare = json.loads(json.dumps(resolved))
    bare["trace"]["flows"] = 0
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(bare, file)
    try:
        before = load_average()
        sample = json.loads(subprocess.check_output([str(ENGINE_RUNNER), file.name, str(seed)], text=True))
    finally:
        os.unlink(file.name)
    return {
        "run_s": sample["run_s"],
        "peak_rss_mib": sample["peak_rss_mib"],
        "load_before": before,
        "load_after": load_average(),
    }


# --- ns-3 -----------------------------------------------------------------------------------


def spec_key(spec: ns3_mapping.Ns3Spec) -> str:
    """What determines an ns-3 run: the spec's directives (its `# from` comments excluded)
    and the harness source the binary is compiled from. ns-3 is deterministic (repeated runs
    of one spec are checked to give identical results), so a run with the same key is reused."""
    directives = [line for line in spec.text().splitlines() if line and not line.startswith("#")]
    digest = hashlib.sha256((HERE / "aqmlab_ns3.cc").read_bytes())
    if any(ns3_mapping.VARIANT_PREFIX in line for line in directives):
        # Only specs that name a one-factor variant depend on its source.
        digest.update((HERE / "ns3_variants.cc").read_bytes())
    digest.update("\n".join(directives).encode())
    return digest.hexdigest()


def run_ns3(spec: ns3_mapping.Ns3Spec, *, cache: bool = True) -> dict[str, Any]:
    """One run of build/aqmlab_ns3 in its own process; with `cache`, a stored run of the same
    spec (`spec_key`) instead when there is one. Every fresh run is stored."""
    cached = NS3_CACHE / f"{spec_key(spec)}.json"
    if cache and cached.is_file():
        raw = json.loads(cached.read_text())
        raw["from_cache"] = True
        return raw
    raw = _run_ns3_process(spec)
    NS3_CACHE.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(".tmp")
    tmp.write_text(json.dumps(raw))
    os.replace(tmp, cached)
    raw["from_cache"] = False
    return raw


def _run_ns3_process(spec: ns3_mapping.Ns3Spec) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="aqmlab-ns3-") as work:
        spec_path, out_path = Path(work) / "scenario.spec", Path(work) / "result.json"
        spec_path.write_text(spec.text())
        before = load_average()
        subprocess.run([str(NS3_BINARY), f"--spec={spec_path}", f"--out={out_path}"], check=True)
        raw = json.loads(out_path.read_text())
    raw["load_before"], raw["load_after"] = before, load_average()
    return raw


def ns3_records(
    raw: dict[str, Any], spec: ns3_mapping.Ns3Spec, link: str, crossing: np.ndarray
) -> tuple[metrics.LinkRecord, metrics.FlowRecord]:
    samples = {k: np.asarray(v, dtype=float) for k, v in raw["links"][link].items() if isinstance(v, list)}
    flows = {k: np.asarray(v, dtype=float)[crossing] for k, v in raw["flows"].items()}
    return (
        metrics.LinkRecord(
            samples["time_s"],
            samples["queue_packets"],
            samples["arrivals"],
            samples["drops"],
            samples["departed_bytes"],
            spec.monitored_rate_bps[link],
            samples["marks"],
        ),
        # ns-3 does not record when a finite transfer completes; bulk flows never do.
        metrics.FlowRecord(
            flows["start_s"],
            flows["bytes_delivered_at_measure_start"],
            flows["bytes_delivered"],
            np.zeros(int(crossing.sum()), dtype=bool),
        ),
    )


def _fingerprint(raw: dict[str, Any]) -> str:
    """What must be identical between repeated runs of the same spec."""
    kept = {
        "links": {name: {k: v for k, v in link.items()} for name, link in raw["links"].items()},
        "flows": raw["flows"],
    }
    return hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()


# --- one scenario ---------------------------------------------------------------------------


def _rounded(values: np.ndarray, digits: int = 5) -> list[float]:
    return [float(f"{value:.{digits}g}") for value in values]


def _mean_summary(summaries: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.fmean(s[key] for s in summaries) for key in summaries[0]}


def aqmlab_side(scenario: aqmlab.Scenario, seeds: int) -> dict[str, Any]:
    """aqmlab's run (seed 1) and its metrics, and seeds 2..`seeds` for the spread (their
    flow start times are kept for ns-3 runs with the same seed)."""
    start, end = scenario.measure_start_s, scenario.duration_s
    results, api_s = run_aqmlab(scenario, seed=1)
    link = results.main_link
    records = metrics.aqmlab_records(results, link)
    summary = metrics.summarise(*records, start, end)
    seed_summaries = [summary]
    start_times = [results.flows.column("start_s").to_numpy().tolist()]
    for seed in range(2, seeds + 1):
        other, _ = run_aqmlab(scenario, seed=seed)
        seed_summaries.append(metrics.summarise(*metrics.aqmlab_records(other, link), start, end))
        start_times.append(other.flows.column("start_s").to_numpy().tolist())
    spread = {
        key: {
            "mean": statistics.fmean(s[key] for s in seed_summaries),
            "std": statistics.stdev(s[key] for s in seed_summaries) if seeds > 1 else math.nan,
        }
        for key in metrics.METRICS
    }
    flows_table = results.flows.to_pandas()[results.crossing(link)]
    events = {
        "retransmits": float(flows_table["retransmits"].sum()),
        "timeouts": float(flows_table["timeouts"].sum()),
        "fast_recoveries": float(flows_table["fast_recoveries"].sum()),
    }
    return {
        "results": results,
        "api_s": api_s,
        "link": link,
        "records": records,
        "summary": summary,
        "seed_summaries": seed_summaries,
        "start_times": start_times,
        "spread": {"seeds": seeds, **spread},
        "events": events,
    }


def compared_aqmlab(side: dict[str, Any], ns3_seeds: int) -> dict[str, float]:
    """aqmlab's compared values: seed 1's against one ns-3 run (the same start times), the
    means over its seeds against the mean of several ns-3 seeds."""
    return side["summary"] if ns3_seeds == 1 else _mean_summary(side["seed_summaries"])


def refresh_aqmlab(name: str, scenario: aqmlab.Scenario, entry: dict[str, Any], seeds: int) -> dict[str, Any]:
    """Rerun aqmlab's side of a stored comparison after an engine change that leaves the ns-3
    spec as it was (same topology, start times and TCP settings ns-3 is given); ns-3's side,
    and the timing, stay as measured."""
    start, end = scenario.measure_start_s, scenario.duration_s
    side = aqmlab_side(scenario, seeds)
    aqmlab_link, aqmlab_flows = side["records"]
    ns3_summary = entry["ns3"]
    compared = compared_aqmlab(side, entry.get("ns3_seeds", 1))
    window = end - start
    entry.update(
        {
            "scenario": scenario.model_dump(mode="json"),
            "resolved_sha256": hashlib.sha256(json.dumps(scenario.resolved(), sort_keys=True).encode()).hexdigest(),
            "aqmlab": compared,
            "aqmlab_seed_summaries": side["seed_summaries"],
            "relative_difference": {
                key: metrics.relative_difference(compared[key], ns3_summary.get(key, math.nan))
                for key in metrics.METRICS
            },
            "aqmlab_seed_spread": side["spread"],
            "aqmlab_api_wall_s": side["api_s"],
            "aqmlab_refreshed": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
    )
    entry["per_flow_goodput_mbps"]["aqmlab"] = _rounded(
        (aqmlab_flows.delivered - aqmlab_flows.delivered_at_measure_start) * 8 / window / 1e6
    )
    entry["events"]["aqmlab"] = side["events"]
    trace_path = TRACES / f"{name}.npz"
    if trace_path.is_file():
        arrays = dict(np.load(trace_path))
        arrays.update(aqmlab_time_s=aqmlab_link.time_s, aqmlab_queue=aqmlab_link.queue_packets)
        np.savez_compressed(trace_path, **arrays)
    return entry


def compare(
    name: str,
    scenario: aqmlab.Scenario,
    *,
    runs: int,
    seeds: int,
    timing: bool,
    ns3_scenario: aqmlab.Scenario | None = None,
    ns3_seeds: int = 1,
    ns3_variant: str | None = None,
    cache: bool = True,
) -> dict[str, Any]:
    """aqmlab runs `scenario`; ns-3 runs `ns3_scenario` (default: the same), with aqmlab's
    flow start times, `ns3_seeds` times (run k: aqmlab seed k's start times, ns-3 run number k)."""
    resolved = scenario.resolved()
    reference = (ns3_scenario or scenario).resolved()
    start, end = scenario.measure_start_s, scenario.duration_s
    side = aqmlab_side(scenario, max(seeds, ns3_seeds))
    results, aqmlab_api_s, link = side["results"], side["api_s"], side["link"]
    crossing = results.crossing(link)
    aqmlab_link, aqmlab_flows = side["records"]
    aqmlab_summary = compared_aqmlab(side, ns3_seeds)
    spread = side["spread"]

    spec = ns3_mapping.with_variant(
        ns3_mapping.translate(reference, start_times=side["start_times"][0], seed=1, trace_flows=scenario.trace.flows),
        ns3_variant,
    )
    ns3_runs, engine_runs, fingerprints = [], [], set()
    raw = None
    for index in range(runs if timing else 1):
        print(f"  {name}: ns-3 run {index + 1}/{runs if timing else 1} (load {load_average()})", flush=True)
        # Timed runs are always fresh; the result of each is stored for later comparisons.
        raw = run_ns3(spec, cache=cache and not timing)
        fingerprints.add(_fingerprint(raw))
        ns3_runs.append(
            {k: raw[k] for k in ("run_s", "setup_s", "total_s", "peak_rss_mib", "load_before", "load_after")}
            | {"from_cache": raw["from_cache"]}
        )
        if timing:
            engine_runs.append(time_engine(resolved, seed=1))
    assert raw is not None
    if len(fingerprints) != 1:
        raise RuntimeError(f"{name}: repeated ns-3 runs of the same spec gave different results")
    ns3_link, ns3_flows = ns3_records(raw, spec, link, crossing)
    ns3_seed_summaries = [metrics.summarise(ns3_link, ns3_flows, start, end)]
    for seed in range(2, ns3_seeds + 1):
        print(f"  {name}: ns-3 seed {seed}/{ns3_seeds} (load {load_average()})", flush=True)
        other_spec = ns3_mapping.with_variant(
            ns3_mapping.translate(
                reference, start_times=side["start_times"][seed - 1], seed=1, run=seed, trace_flows=0
            ),
            ns3_variant,
        )
        other = run_ns3(other_spec, cache=cache)
        ns3_seed_summaries.append(metrics.summarise(*ns3_records(other, other_spec, link, crossing), start, end))
    ns3_summary = ns3_seed_summaries[0] if ns3_seeds == 1 else _mean_summary(ns3_seed_summaries)

    TRACES.mkdir(parents=True, exist_ok=True)
    flow_trace = results.flow_trace.to_pandas()
    traced = sorted(flow_trace["flow"].unique())
    np.savez_compressed(
        TRACES / f"{name}.npz",
        aqmlab_time_s=aqmlab_link.time_s,
        aqmlab_queue=aqmlab_link.queue_packets,
        ns3_time_s=ns3_link.time_s,
        ns3_queue=ns3_link.queue_packets,
        aqmlab_flow_time_s=flow_trace[flow_trace["flow"] == traced[0]]["time_s"].to_numpy() if traced else np.array([]),
        aqmlab_cwnd=np.array([flow_trace[flow_trace["flow"] == f]["cwnd"].to_numpy() for f in traced]),
        ns3_flow_time_s=np.asarray(raw["flow_trace"]["time_s"]),
        ns3_cwnd=np.asarray(raw["flow_trace"]["cwnd"]),
        ns3_rto_s=np.asarray(raw["flow_trace"]["rto_s"]),
        ns3_srtt_s=np.asarray(raw["flow_trace"]["srtt_s"]),
    )
    window = end - start
    entry = {
        "name": name,
        "scenario": scenario.model_dump(mode="json"),
        "resolved_sha256": hashlib.sha256(json.dumps(resolved, sort_keys=True).encode()).hexdigest(),
        "harness_version": HARNESS_VERSION,
        "link": link,
        "window_s": [start, end],
        "aqmlab": aqmlab_summary,
        "ns3": ns3_summary,
        "relative_difference": {
            key: metrics.relative_difference(aqmlab_summary[key], ns3_summary[key]) for key in metrics.METRICS
        },
        "aqmlab_seed_spread": spread,
        "aqmlab_seed_summaries": side["seed_summaries"],
        "ns3_seeds": ns3_seeds,
        "ns3_seed_summaries": ns3_seed_summaries,
        "ns3_recovery": next(
            line.split()[-1] for line in spec.lines if line.startswith("default ns3::TcpL4Protocol::RecoveryType")
        ),
        "per_flow_goodput_mbps": {
            "aqmlab": _rounded((aqmlab_flows.delivered - aqmlab_flows.delivered_at_measure_start) * 8 / window / 1e6),
            "ns3": _rounded((ns3_flows.delivered - ns3_flows.delivered_at_measure_start) * 8 / window / 1e6),
        },
        "events": {
            "aqmlab": side["events"],
            "ns3": {
                key: float(np.asarray(raw["flows"][key])[crossing].sum())
                for key in ("retransmits", "timeouts", "fast_recoveries")
            },
        },
        "ns3_qdisc": {
            "type": raw["links"][link]["qdisc"],
            "attributes": raw["links"][link]["qdisc_attributes"],
            "drops_by_reason_whole_run": raw["links"][link]["drops_by_reason"],
        },
        "aqmlab_api_wall_s": aqmlab_api_s,
        "ns3_runs": ns3_runs,
    }
    if ns3_scenario is not None:
        entry["ns3_scenario"] = ns3_scenario.name
    if ns3_variant is not None:
        entry["ns3_variant"] = ns3_variant
    if timing:
        ns3_median = statistics.median(r["run_s"] for r in ns3_runs)
        engine_median = statistics.median(r["run_s"] for r in engine_runs)
        entry["timing"] = {
            "runs": runs,
            "ns3_run_s_median": ns3_median,
            "aqmlab_engine_run_s_median": engine_median,
            "speedup": ns3_median / engine_median,
            "ns3_peak_rss_mib_median": statistics.median(r["peak_rss_mib"] for r in ns3_runs),
            "aqmlab_peak_rss_mib_median": statistics.median(r["peak_rss_mib"] for r in engine_runs),
            "aqmlab_engine_runs": engine_runs,
        }
    return entry


# --- driver ---------------------------------------------------------------------------------


def _load_store() -> dict[str, Any]:
    return json.loads(RESULTS.read_text()) if RESULTS.is_file() else {"scenarios": {}}


def _save_store(store: dict[str, Any]) -> None:
    tmp = RESULTS.with_suffix(f".json.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(store, indent=1, allow_nan=True))
    os.replace(tmp, RESULTS)


#: `--quick` (`make validate-ns3-quick`): eight rows that between them cover the 1 Gb/s
#: matrix with aqmlab's defaults, matched SACK recovery at a long RTT, the access-limited seed
#: 000 setup with drops and with ECN marks, CUBIC over RED, both window-law definitions
#: ns-3 implements, and the parking lot; each at QUICK_DURATION simulated. Where aqmlab's
#: default and ns-3 differ by a definition with an option, the row with ns-3's choice
#: (`-pipe`: ssthresh from the pipe; `-ns3`: ns-3's CUBIC), as the full matrix shows both.
QUICK = (
    "newreno-red-rtt20",
    "cubic-red-rtt200-minrto1s-sack",
    "access2m-newreno-sack-red-pipe",
    "access2m-newreno-sack-red-ecn",
    "access2m-cubic-sack-red-ns3",
    "highspeed20-sack-red-linux-table",
    "scalable50-sack-red-ns3",
    "parking-lot-red50-150-minrto1s-sack",
)
QUICK_DURATION = "40s"
QUICK_RESULTS = HERE / "agreement-quick.json"


def all_rows(seeds: int) -> dict[str, Row]:
    """Every comparison of the matrix: issue 9's four sets of 16, the parking-lot files and
    issue 15's rows."""
    rows: dict[str, Row] = {}
    for scenarios in (matrix(), min_rto_1s_matrix(), sack_matrix(), sack_matrix("1s")):
        rows.update({name: Row(s, aqmlab_seeds=seeds) for name, s in scenarios.items()})
    for path in parking_lot_files():
        rows[path.stem] = Row(aqmlab.Scenario.from_toml(path), aqmlab_seeds=3)
    rows.update(issue15_matrix())
    return rows


def quick_row(row: Row) -> Row:
    """The row at QUICK_DURATION simulated (window from 20 s), one seed in each simulator."""

    def cut(scenario: aqmlab.Scenario | None) -> aqmlab.Scenario | None:
        if scenario is None:
            return None
        return aqmlab.Scenario.from_dict(
            {**scenario.model_dump(mode="json", exclude_none=True), "duration": QUICK_DURATION, "measure_start": "20s"}
        )

    return Row(cut(row.scenario), cut(row.ns3_scenario), ns3_seeds=1, aqmlab_seeds=1, ns3_variant=row.ns3_variant)


def main() -> None:
    global RESULTS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", type=Path, help="aqmlab scenario files (TOML)")
    parser.add_argument("--matrix", action="store_true", help="every row of the matrix (matrix.py)")
    parser.add_argument("--quick", action="store_true", help=f"the {len(QUICK)} QUICK rows at {QUICK_DURATION}")
    parser.add_argument("--only", nargs="*", default=None, help="matrix scenarios by name")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each simulator (median)")
    parser.add_argument("--seeds", type=int, default=5, help="aqmlab seeds for the seed-to-seed spread")
    parser.add_argument("--no-timing", action="store_true", help="one ns-3 run, no engine timing")
    parser.add_argument("--force", action="store_true", help="rerun scenarios already in agreement.json")
    parser.add_argument("--fresh-ns3", action="store_true", help="run ns-3 even where build/ns3-cache has the spec")
    parser.add_argument(
        "--refresh-aqmlab",
        action="store_true",
        help="rerun only aqmlab's side of stored scenarios (after an engine change that leaves "
        "the ns-3 spec unchanged); ns-3's results and the timing are kept",
    )
    args = parser.parse_args()
    if not NS3_BINARY.is_file():
        sys.exit(f"{NS3_BINARY} missing: run `bash benchmarks/ns3/setup.sh --cxx` first")
    timing = not (args.no_timing or args.quick or args.refresh_aqmlab)
    if timing and not ENGINE_RUNNER.is_file():
        sys.exit(f"{ENGINE_RUNNER} missing: run `cargo build --release --example run_scenario` first")

    todo: dict[str, tuple[Row, bool]] = {}  # name -> (row, timed)
    if args.matrix or args.quick:
        rows = all_rows(args.seeds)
        if args.quick:
            RESULTS = QUICK_RESULTS
            rows = {name: quick_row(rows[name]) for name in QUICK}
        timed_names = set(matrix()) if not args.quick else set()
        todo.update(
            {
                name: (row, timing and name in timed_names)
                for name, row in rows.items()
                if args.only is None or name in args.only
            }
        )
    for path in args.scenarios:
        todo[path.stem] = (Row(aqmlab.Scenario.from_toml(path), aqmlab_seeds=args.seeds), timing)
    if not todo:
        parser.error("give scenario files, --matrix or --quick")

    meta = {"machine": machine(), "note": "2-core VM shared with other engineers' jobs: see each run's load average"}
    command = " ".join([Path(sys.executable).name, *sys.argv])
    meta["refresh_command" if args.refresh_aqmlab else "command"] = command
    store = _load_store()
    began_all = time.perf_counter()
    for name, (row, timed) in todo.items():
        scenario = row.scenario
        old = store["scenarios"].get(name)
        began = time.perf_counter()
        if args.refresh_aqmlab:
            if not old:
                print(f"{name}: not in {RESULTS.name}, nothing to refresh")
                continue
            entry = refresh_aqmlab(name, scenario, old, seeds=old["aqmlab_seed_spread"]["seeds"])
        else:
            digest = hashlib.sha256(json.dumps(scenario.resolved(), sort_keys=True).encode()).hexdigest()
            if (
                old
                and not args.force
                and old.get("resolved_sha256") == digest
                and old.get("harness_version") == HARNESS_VERSION
                and ("timing" in old or not timed)
            ):
                print(f"{name}: already in {RESULTS.name} (--force to rerun)")
                continue
            entry = compare(
                name,
                scenario,
                runs=args.runs,
                seeds=row.aqmlab_seeds,
                timing=timed,
                ns3_scenario=row.ns3_scenario,
                ns3_seeds=row.ns3_seeds,
                ns3_variant=row.ns3_variant,
                cache=not args.fresh_ns3,
            )
            entry["date"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
            entry["wall_s"] = time.perf_counter() - began
        # Reload before writing, so that two runners on different scenarios do not lose each
        # other's entries.
        store = _load_store()
        store.update(meta)
        store["scenarios"][name] = entry
        _save_store(store)
        diff = entry["relative_difference"]
        print(
            f"{name}: done in {time.perf_counter() - began:.0f} s; aqmlab vs ns-3: "
            + ", ".join(
                f"{k} {entry['aqmlab'][k]:.4g}/{entry['ns3'].get(k, math.nan):.4g} ({100 * diff[k]:+.1f} %)"
                for k in metrics.METRICS
            ),
            flush=True,
        )
    print(f"{len(todo)} rows in {time.perf_counter() - began_all:.0f} s")
    if args.quick:
        store = _load_store()
        differing = {
            name: metrics.disagreements(store["scenarios"][name]["aqmlab"], store["scenarios"][name]["ns3"])
            for name in todo
        }
        differing = {name: keys for name, keys in differing.items() if keys}
        for name, keys in differing.items():
            print(f"DIFFERS {name}: {', '.join(keys)} beyond the thresholds")
        print(f"{len(todo) - len(differing)} of {len(todo)} quick rows agree with ns-3")
        if differing:
            sys.exit(1)


if __name__ == "__main__":
    main()
