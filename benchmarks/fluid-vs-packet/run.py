"""Fluid model against packet simulation along an RTT sweep (issue 9 item 4).

Packet side: seed 000 Section V-A (60 Compound TCP flows, 2 Mb/s access links, 100 Mb/s
bottleneck, RED(50, 100) with ns-2 defaults q_weight = −1 and linterm 10, buffer 2084,
1500-byte packets, starts uniform in [0, 10] s; the scenario of
`aqmlab.reproduce.seed000_packet.variant`, with Compound TCP as in the paper) at each RTT
of `RTTS_MS`, with RED deciding on its average ("averaging") and on the instantaneous queue
("instantaneous", seed 000 Section V-A2), three seeds each, 500 s each (the paper's
length). Oscillation measures over [100, 500] s (400 s, so that periods of tens of seconds
are resolved; the paper looks at the last 25 s): std of the queue and of RED's average,
the 5-95 % swing of the average, the dominant period by autocorrelation and by the
periodogram (`aqmlab.analysis.metrics`), and the minimum 1 s utilisation over the last
25 s (the paper's Fig. 8b measure) and over [100, 500] s.

Fluid side (`aqmlab.stability`, docs/stability.md): CTCP-RED with averaging (seed 000
eq. 9, model `ctcp-red`) and without (eq. 26, `ctcp-red-noavg`), at τ = the flows' mean
measured RTT (srtt of the 15 traced flows), with two parameter sets:
* "mapped": the packet scenario's parameters per flow (`aqmlab.analysis.fluid_mapping`):
  C̃ = 138.9 packets/s, b = 50/60, b̄ = 100/60, p̄ = 0.1, γ = 0.0072 (ns-2's weight);
* "paper": the defaults of seed 000 Sections III-IV (C̃ = 100, γ = 1e-4, b = 50, b̄ = 550),
  whose Hopf points (84.8 ms, 0.273 s) are what the paper set its packet runs against.
Each with the Compound window law (the paper's) and with Reno's: the engine's Compound TCP
grows its delay window only above low_wnd = 41 packets, and the windows here stay below it.
For each: the Hopf point τ_c with ω_c (period 2π/ω_c), and at each RTT the rightmost
characteristic root (verdict, decay or growth rate, period 2π/Im λ).

    PYTHONPATH=python .venv/bin/python benchmarks/fluid-vs-packet/run.py          # ≈ 5 min
    ... run.py --report-only        # figure and table from results.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from aqmlab import units
from aqmlab.analysis.fluid_mapping import fluid_parameters
from aqmlab.analysis.metrics import autocorrelation_period, oscillation_share
from aqmlab.fluid import integrate
from aqmlab.plots import binned_utilisation
from aqmlab.reproduce.seed000_packet import variant
from aqmlab.simulation import simulate
from aqmlab.stability import StabilityError, characteristic_roots, find_hopf, linearise
from aqmlab.stability.linearise import resolve_model

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results.json"
RTTS_MS = (5, 10, 25, 50, 75, 100, 150, 200, 300)
MODES = ("averaging", "instantaneous")
MODELS = {"averaging": "ctcp-red", "instantaneous": "ctcp-red-noavg"}
SEEDS = (1, 2, 3)
ANALYSIS_START_S = 100.0
FLOWS = 60  # seed 000 Section V
PAPER_PARAMS = {"C": 100.0, "gamma": 1e-4, "b_min": 50.0, "b_max": 550.0, "p_max": 0.1}  # seed 000 Section II-C


def packet_scenario(rtt_ms: int, mode: str, seed: int) -> dict:
    scenario = variant(
        False, name=f"{mode}-rtt{rtt_ms}-seed{seed}", rtt=f"{rtt_ms}ms", instantaneous=mode == "instantaneous"
    )
    scenario["topology"]["groups"][0]["tcp"]["cc"] = {"kind": "compound"}  # seed 000 Section V: Compound TCP
    scenario["seed"] = seed
    return scenario


def packet_measures(results) -> dict:
    samples = results.link_samples()
    interval = results.scenario.resolved()["trace"]["interval_ns"] / 1e9
    window = samples["time_s"] > ANALYSIS_START_S
    queue, average = samples["queue_packets"][window], samples["average_queue"][window]
    low, high = np.percentile(average, [5, 95])
    out = {
        "queue_mean": float(queue.mean()),
        "queue_std": float(queue.std()),
        "average_mean": float(average.mean()),
        "average_std": float(average.std()),
        "average_swing_5_95": float(high - low),
    }
    for name, signal in (("queue", queue), ("average", average)):
        period, peak = autocorrelation_period(signal, interval)
        share, frequency = oscillation_share(signal, interval)
        out[f"{name}_acf_period_s"], out[f"{name}_acf_peak"] = period, peak
        out[f"{name}_fft_period_s"], out[f"{name}_fft_share"] = 1.0 / frequency, share
    times, utilisation = binned_utilisation(results, bin_s=1.0)
    out["utilisation_min_window"] = float(utilisation[times > ANALYSIS_START_S].min())
    out["utilisation_mean_window"] = float(utilisation[times > ANALYSIS_START_S].mean())
    summary = results.summary()  # measure_start 475 s: the paper's last 25 s
    out["utilisation_min_last25"] = summary["utilisation_min"]
    out["loss_percent_last25"] = summary["loss_percent"]
    trace = results.flow_trace
    rows = trace.column("time_s").to_numpy() > ANALYSIS_START_S
    out["srtt_mean_s"] = float(np.nanmean(trace.column("srtt_s").to_numpy()[rows]))
    out["cwnd_mean"] = float(np.nanmean(trace.column("cwnd").to_numpy()[rows]))
    out["cwnd_max"] = float(np.nanmax(trace.column("cwnd").to_numpy()[rows]))
    return out


def packet_sweep(report: dict) -> None:
    runs = report.setdefault("packet", {})
    for mode in MODES:
        for rtt in RTTS_MS:
            for seed in SEEDS:
                key = f"{mode}/{rtt}/{seed}"
                if key in runs:
                    continue
                began = time.perf_counter()
                results = simulate(packet_scenario(rtt, mode, seed))
                runs[key] = {
                    "mode": mode,
                    "rtt_ms": rtt,
                    "seed": seed,
                    **packet_measures(results),
                    "wall_s": time.perf_counter() - began,
                }
                print(key, {k: round(v, 3) for k, v in runs[key].items() if isinstance(v, float)}, flush=True)
                RESULTS.write_text(json.dumps(report, indent=1))


def mapped_params(tau_s: float) -> dict:
    """The packet scenario's fluid parameters (`fluid_parameters`), read from the scenario itself."""
    topology = packet_scenario(100, "averaging", 1)["topology"]
    bottleneck, group = topology["bottleneck"], topology["groups"][0]
    assert group["count"] == FLOWS, "the fluid queue is scaled back to packets with FLOWS"
    queue = bottleneck["queue"]
    return fluid_parameters(
        flows=group["count"],
        rate_bps=units.bits_per_second(bottleneck["rate"]),
        packet_bytes=units.bytes_(group["tcp"]["packet_size"]),
        min_th=queue["min_th"],
        max_th=queue["max_th"],
        max_p=queue["max_p"],
        buffer_packets=units.queue_limit(queue["limit"])["packets"],
        q_weight=queue["q_weight"],
        link_delay_s=units.seconds(bottleneck["delay"]),
        tau_s=tau_s,
    )


def fluid_side(report: dict) -> None:
    """Hopf points and the rightmost root at each RTT, for every parameter set and window law.
    Sets: "mapped" (the packet scenario, `mapped_params`), "mapped-wait" (the same with the
    drop probability scaled by 2/3: ns-2's `wait` spaces drops 1/p to 2/p packets apart, about
    1.5/p on average, so the effective drop rate is ≈ 2p/3 — a sensitivity check, not a fit),
    and "paper" (seed 000's defaults)."""
    report["mean_rtt_s"] = {
        mode: {
            str(rtt): float(
                np.mean(
                    [
                        run["srtt_mean_s"]
                        for run in report["packet"].values()
                        if run["rtt_ms"] == rtt and run["mode"] == mode
                    ]
                )
            )
            for rtt in RTTS_MS
        }
        for mode in MODES
    }
    fluid = report["fluid"] = {}
    for set_name in ("mapped", "mapped-wait", "paper"):
        for mode, model in MODELS.items():
            for tcp in ("compound", "reno"):
                base = dict(PAPER_PARAMS) if set_name == "paper" else mapped_params(0.1)
                if set_name == "mapped-wait":
                    base["p_max"] *= 2.0 / 3.0
                if model == "ctcp-red-noavg":
                    base.pop("gamma")
                base.pop("tau", None)
                entry = {"model": model, "tcp": tcp, "params": base}
                try:
                    hopf = find_hopf(model, "tau", 0.005, 3.0, base, options={"tcp": tcp}, scan=40)
                    entry["hopf"] = {
                        "tau_s": hopf.value,
                        "omega": hopf.omega,
                        "period_s": hopf.period,
                        "verified": hopf.verified,
                    }
                except StabilityError as error:
                    entry["hopf"] = {"error": str(error)}
                entry["at_rtt"] = {}
                for rtt, tau in report["mean_rtt_s"][mode].items():
                    lin = linearise(model, {**base, "tau": tau}, options={"tcp": tcp})
                    lam = characteristic_roots(lin, count=3).rightmost
                    entry["at_rtt"][rtt] = {
                        "tau_s": tau,
                        "verdict": characteristic_roots(lin, count=3).verdict(),
                        "re": lam.real,
                        "im": lam.imag,
                        "period_s": 2 * np.pi / lam.imag if lam.imag > 0 else None,
                        "equilibrium_queue_packets": float(lin.equilibrium[1]) * FLOWS,
                        "equilibrium_window": float(lin.equilibrium[0]),
                    }
                fluid[f"{set_name}/{mode}/{tcp}"] = entry
                print(set_name, mode, tcp, entry["hopf"], flush=True)


def fluid_limit_cycles(report: dict) -> None:
    """Integrate the mapped models at every measured RTT (one batch per model and law) for
    400 s from the equilibrium perturbed by 10 %, and measure the last 200 s as the packet
    traces are measured: std of the queue N·q (packets), its dominant period by
    autocorrelation, its mean. A limit cycle beyond the Hopf point has a size the linear
    analysis does not give; this is the fluid model's own prediction of it."""
    cycles = report["fluid_cycles"] = {}
    for mode, model in MODELS.items():
        taus = np.array([report["mean_rtt_s"][mode][str(rtt)] for rtt in RTTS_MS])
        for tcp in ("compound", "reno"):
            params = mapped_params(0.1)
            params["tau"] = taus
            if model == "ctcp-red-noavg":
                params.pop("gamma")
            result = integrate(
                resolve_model(model, {"tcp": tcp}), params, t_end=400.0, record_dt=0.01, record_from=200.0
            )
            queue = FLOWS * result.state("q")  # (B, T): the whole queue, packets
            out = {}
            for index, rtt in enumerate(RTTS_MS):
                period, peak = autocorrelation_period(queue[index], 0.01)
                out[str(rtt)] = {
                    "tau_s": float(taus[index]),
                    "queue_mean": float(queue[index].mean()),
                    "queue_std": float(queue[index].std()),
                    "acf_period_s": period,
                    "acf_peak": peak,
                }
            cycles[f"mapped/{mode}/{tcp}"] = out
            print("limit cycles", mode, tcp, {k: round(v["queue_std"], 1) for k, v in out.items()}, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--report-only", action="store_true", help="figure and table from results.json")
    parser.add_argument("--fluid-only", action="store_true", help="redo the fluid side on recorded packet runs")
    args = parser.parse_args()
    if args.fluid_only:
        report = json.loads(RESULTS.read_text())
        fluid_side(report)
        fluid_limit_cycles(report)
        RESULTS.write_text(json.dumps(report, indent=1))
    elif not args.report_only:
        report = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
        report.update(
            command=" ".join([Path(sys.executable).name, *sys.argv]),
            date=datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            machine={"uname": " ".join(platform.uname()), "cores": os.cpu_count(), "load_at_start": os.getloadavg()},
            settings={"rtts_ms": RTTS_MS, "seeds": SEEDS, "duration_s": 500, "analysis_start_s": ANALYSIS_START_S},
        )
        packet_sweep(report)
        fluid_side(report)
        fluid_limit_cycles(report)
        report["machine"]["load_at_end"] = os.getloadavg()
        RESULTS.write_text(json.dumps(report, indent=1))
    from report import write_figure_and_table  # beside this file

    write_figure_and_table(json.loads(RESULTS.read_text()), HERE)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    main()
