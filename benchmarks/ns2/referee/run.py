"""Seed 000's packet scenarios as the paper printed them, in ns-2 2.35 (issue 27 item 6).

    python benchmarks/ns2/referee/run.py [--seeds 2] [--only fig6-rtt10]

Seed 000 Section V: "conducted using NS2"; RED "fixed at their default values, i.e. qweight =
−1, linterm = 10 as given in the NS2 implementation". Its flows run Compound TCP, which ns-2
2.35 has as TCP-Linux's `compound` (the Linux port: zeta = ETA = 1, aqmlab's low_window 41).

Per scenario (examples/seed000-*.toml), three runs of each seed:
- `ns2-defaults`: ns-2 as the paper says — RED in ns-2.35's defaults, i.e. **byte mode** with
  `queue_in_bytes_` and `mean_pktsize_ 500`, so the printed thresholds (packets) and buffer
  (`limit_`) count 500-byte units: min_th 50 = 25 000 bytes = 16.7 full packets, the 2084
  buffer = 1 042 000 bytes = 695 full packets; ns-2's TCP defaults (10-ms tick, Karn RTT
  sampling, SYN) except `window_` (large: the paper's utilisations rule out ns-2's 20);
- `ns2-packet-mode`: the same with RED in packet mode (`bytes_`/`queue_in_bytes_` false,
  `mean_pktsize_` 1500), the reading aqmlab's examples take;
- `aqmlab`: the example as aqmlab has it (packet mode), with Compound's zeta = 1 as the port.
Metrics through benchmarks/ns3/metrics.py over the example's window. Results: results.json
and the table in README.md beside this file. Web traffic (Fig. 10) has no ns-2 mapping and is
left out of that row (said so in the table).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(ROOT / "benchmarks" / "ns3"))

import aqmlab  # noqa: E402
import ns2_mapping  # noqa: E402
import ns2_run  # noqa: E402
from aqmlab.machine import describe  # noqa: E402

SCENARIOS = {
    "fig6-rtt10": "seed000-fig6-rtt10.toml",
    "fig6-rtt200": "seed000-fig6-rtt200.toml",
    "fig15-threshold-rtt200": "seed000-fig15-threshold-rtt200.toml",
    "fig16-parking-lot": "seed000-fig16-parking-lot.toml",
}
METRICS = ("goodput_mbps", "utilisation", "queue_mean_packets", "queue_std_packets", "loss_percent")


def as_port(data: dict[str, Any]) -> dict[str, Any]:
    """Compound as ns-2's port (zeta 1) with SACK (TCP-Linux is a SACK sender)."""
    for group in data["topology"]["groups"]:
        tcp = group.get("tcp", {})
        cc = tcp.get("cc", "reno")
        if (cc if isinstance(cc, str) else cc.get("kind")) == "compound":
            tcp["cc"] = {"kind": "compound", "zeta": 1.0}
            tcp["sack"] = True
            group["tcp"] = tcp
    return data


def red_queues(data: dict[str, Any]) -> list[dict[str, Any]]:
    topology = data["topology"]
    links = [topology["bottleneck"]] if topology["kind"] == "dumbbell" else topology["links"]
    return [link["queue"] for link in links if link["queue"]["kind"] == "red"]


def ns2_defaults_red(data: dict[str, Any], packet: int) -> dict[str, Any]:
    """RED as ns-2.35's defaults read the printed numbers: byte mode, 500-byte units."""
    for queue in red_queues(data):
        limit = int(str(queue["limit"]).rstrip("p"))
        queue.update(
            byte_mode=True,
            queue_in_bytes=True,
            mean_packet_size="500B",
            min_th=queue["min_th"] * 500,
            max_th=queue["max_th"] * 500,
            limit=f"{limit * 500}B",
        )
    return data


def monitored(scenario: aqmlab.Scenario) -> list[str]:
    program = ns2_mapping.translate(scenario.resolved())
    return program.monitored


def one(name: str, file: str, seed: int) -> dict[str, Any]:
    base = as_port(aqmlab.Scenario.from_toml(ROOT / "examples" / file).model_dump(mode="json"))
    dropped = [g["name"] for g in base["topology"]["groups"] if g.get("kind") == "web"]
    base["topology"]["groups"] = [g for g in base["topology"]["groups"] if g.get("kind") != "web"]
    scenario = aqmlab.Scenario.from_dict(base)
    began = time.perf_counter()
    results = aqmlab.simulate(scenario, seed=seed)
    aqmlab_s = time.perf_counter() - began
    starts = [float(x) for x in results.flows.column("start_s").to_numpy()]
    out: dict[str, Any] = {"seed": seed, "web_groups_left_out": dropped, "aqmlab_s": aqmlab_s, "runs": {}}
    links = monitored(scenario)
    out["runs"]["aqmlab"] = {link: ns2_run.aqmlab_summary(results, link) for link in links}
    variants = {
        "ns2-defaults": aqmlab.Scenario.from_dict(ns2_defaults_red(json.loads(json.dumps(base)), 1500)),
        "ns2-packet-mode": scenario,
    }
    for label, variant in variants.items():
        program = ns2_mapping.translate(
            variant.resolved(),
            start_times=starts,
            seed=seed,
            options=ns2_mapping.Options(tick_s=0.01, timestamps=False, syn=True),
        )
        records = ns2_run.run(program, results.measure_start_s)
        out["runs"][label] = {
            link: ns2_run.summarise(records, program, link, results.measure_start_s, results.end_s) for link in links
        }
        out[f"{label}_s"] = records.wall_s
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    path = HERE / "results.json"
    store = json.loads(path.read_text()) if path.is_file() else {"scenarios": {}}
    store["meta"] = {"machine": describe(ns2=ns2_run.NS), "command": " ".join([Path(sys.executable).name, *sys.argv])}
    for name, file in SCENARIOS.items():
        if args.only and name not in args.only:
            continue
        with ThreadPoolExecutor(max_workers=2) as pool:
            per_seed = list(pool.map(functools.partial(one, name, file), range(1, args.seeds + 1)))
        means: dict[str, dict[str, dict[str, float]]] = {}
        for label in per_seed[0]["runs"]:
            means[label] = {}
            for link in per_seed[0]["runs"][label]:
                means[label][link] = {
                    k: float(sum(run["runs"][label][link][k] for run in per_seed) / len(per_seed)) for k in METRICS
                }
        store["scenarios"][name] = {"file": file, "seeds": args.seeds, "means": means, "per_seed": per_seed}
        path.write_text(json.dumps(store, indent=1, default=float) + "\n")
        print(name, json.dumps(means), flush=True)
    print(table(store))


def table(store: dict[str, Any]) -> str:
    lines = [
        "| scenario | link | run | goodput Mb/s | util. | queue mean | queue std | loss % |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, entry in store["scenarios"].items():
        for label, links in entry["means"].items():
            for link, m in links.items():
                cells = " | ".join("–" if not math.isfinite(m[k]) else f"{m[k]:.3g}" for k in METRICS)
                lines.append(f"| {name} | {link} | {label} | {cells} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
