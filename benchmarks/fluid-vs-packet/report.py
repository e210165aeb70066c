"""Figure and table of `run.py`'s results (issue 9 item 4): `fluid-vs-packet.png` and
`table.md` beside this file (the mapping itself: docs/fluid-mapping.md)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

MODES = ("averaging", "instantaneous")
#: Packet criterion of `aqmlab.reproduce.seed000_packet` (Figs. 6-7): RED's average
#: "oscillates" when its 5-95 % swing spans the threshold band (50 packets), "stable"
#: when it stays within half of it.
BAND = 50.0


def by_rtt(report: dict, mode: str, key: str) -> tuple[np.ndarray, np.ndarray]:
    """RTTs and the per-seed values (rows: RTT, columns: seed) of one packet measure."""
    rtts = sorted({run["rtt_ms"] for run in report["packet"].values() if run["mode"] == mode})
    values = [
        [run[key] for run in report["packet"].values() if run["mode"] == mode and run["rtt_ms"] == rtt] for rtt in rtts
    ]
    return np.array(rtts), np.array(values, dtype=float)


def packet_verdict(swing: float) -> str:
    return "oscillating" if swing >= BAND else ("stable" if swing <= BAND / 2 else "between")


def configured_rtt_at(report: dict, tau_s: float, mode: str) -> float:
    """The configured (propagation) RTT, ms, whose measured mean RTT (in `mode`) is `tau_s`
    (linear interpolation; nan outside the sweep)."""
    rtts = np.array(sorted(int(k) for k in report["mean_rtt_s"][mode]))
    taus = np.array([report["mean_rtt_s"][mode][str(r)] for r in rtts])
    return float(np.interp(tau_s, taus, rtts, left=np.nan, right=np.nan))


def write_figure(report: dict, out: Path) -> None:
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5), constrained_layout=True)
    spread, roots, periods, utilisation = axes.flat
    colours = {"averaging": "tab:orange", "instantaneous": "tab:blue"}
    for mode in MODES:
        c = colours[mode]
        rtts, swing = by_rtt(report, mode, "average_swing_5_95")
        _, std_q = by_rtt(report, mode, "queue_std")
        spread.errorbar(
            rtts,
            swing.mean(1),
            yerr=np.ptp(swing, 1) / 2,
            fmt="o-",
            color=c,
            label=f"{mode}: swing of RED average (5-95 %)",
        )
        spread.plot(rtts, std_q.mean(1), "s--", color=c, label=f"{mode}: std of queue")
        for tcp, style in (("compound", "-"), ("reno", ":")):
            hopf = report["fluid"][f"mapped/{mode}/{tcp}"]["hopf"]
            if "tau_s" in hopf:
                at = configured_rtt_at(report, hopf["tau_s"], mode)
                if np.isfinite(at):
                    spread.axvline(at, color=c, ls=style, lw=1)
        _, period = by_rtt(report, mode, "queue_acf_period_s")
        _, peak = by_rtt(report, mode, "queue_acf_peak")
        periods.errorbar(
            rtts,
            np.nanmedian(period, 1),
            yerr=np.nan_to_num(np.ptp(period, 1) / 2),
            fmt="o",
            color=c,
            label=f"{mode}: packet queue, autocorrelation",
        )
        cycle = report["fluid_cycles"][f"mapped/{mode}/compound"]
        spread.plot(
            rtts,
            [cycle[str(r)]["queue_std"] for r in rtts],
            "x:",
            color=c,
            label=f"{mode}: std of queue, fluid limit cycle (mapped, CTCP)",
        )
        periods.plot(
            rtts,
            [cycle[str(r)]["acf_period_s"] for r in rtts],
            "x--",
            color=c,
            label=f"{mode}: fluid limit cycle (mapped, CTCP)",
        )
        for rtt, p, k in zip(rtts, np.nanmedian(period, 1), peak.mean(1), strict=True):
            if np.isfinite(p):
                periods.annotate(f"{k:.2f}", (rtt, p), fontsize=7, color=c, xytext=(3, 3), textcoords="offset points")
        _, u25 = by_rtt(report, mode, "utilisation_min_last25")
        _, uwin = by_rtt(report, mode, "utilisation_min_window")
        utilisation.plot(rtts, 100 * u25.mean(1), "o-", color=c, label=f"{mode}: last 25 s (paper's Fig. 8b)")
        utilisation.plot(rtts, 100 * uwin.mean(1), "s--", color=c, label=f"{mode}: 100-500 s")
        for tcp, style in (("compound", "-"), ("reno", ":")):
            entry = report["fluid"][f"mapped/{mode}/{tcp}"]
            at = entry["at_rtt"]
            x = sorted(int(k) for k in at)
            roots.plot(x, [at[str(r)]["re"] for r in x], "o" + style, color=c, label=f"{mode}, {tcp} window law")
            periods.plot(
                x,
                [at[str(r)]["period_s"] or np.nan for r in x],
                style,
                color=c,
                alpha=0.6,
                label=f"{mode}: fluid linear 2π/Im λ, {tcp}",
            )
    spread.axhline(BAND, color="grey", lw=0.8)
    spread.set_ylabel("packets")
    spread.set_title(
        "queue oscillation (packet: mean ± half range of 3 seeds; x: fluid limit cycle)\n"
        "vertical: fluid Hopf point as configured RTT, if inside the sweep",
        fontsize=9,
    )
    roots.axhline(0, color="grey", lw=0.8)
    roots.set_ylabel("Re λ of the rightmost root (1/s)")
    roots.set_title("fluid model (mapped parameters) at τ = measured mean RTT: > 0 unstable", fontsize=9)
    periods.set_yscale("log")
    periods.set_ylabel("period (s)")
    periods.set_title("queue period: packet (numbers: autocorrelation peak), fluid linear and limit cycle", fontsize=9)
    utilisation.set_ylabel("minimum 1 s utilisation (%)")
    utilisation.set_title("minimum utilisation", fontsize=9)
    for axis in axes.flat:
        axis.set_xlabel("configured RTT (ms)")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7)
    fig.savefig(out / "fluid-vs-packet.png", dpi=110)
    plt.close(fig)


def fluid_cell(report: dict, set_name: str, mode: str, tcp: str, rtt: int) -> str:
    point = report["fluid"][f"{set_name}/{mode}/{tcp}"]["at_rtt"][str(rtt)]
    period = f", {point['period_s']:.1f} s" if point["period_s"] else ""
    return f"{point['verdict']} ({point['re']:+.2g}{period})"


def table(report: dict) -> str:
    head = (
        "| RED decides on | RTT (ms) | mean RTT (ms) | fluid, mapped, CTCP law: verdict (Re λ 1/s, 2π/Im λ) | "
        "fluid, mapped, Reno law | fluid, paper defaults, CTCP | fluid cycle (mapped, CTCP): queue std, period | "
        "queue mean: packet / fluid q* | queue std | RED avg std | avg swing 5-95 % | swing verdict | "
        "queue period ACF (peak) | queue period FFT | min util last 25 s |"
    )
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for mode in MODES:
        rtts, _ = by_rtt(report, mode, "queue_std")
        for rtt in rtts:
            runs = [r for r in report["packet"].values() if r["mode"] == mode and r["rtt_ms"] == rtt]

            def mean(key, runs=runs):
                return float(np.nanmean([r[key] for r in runs]))

            swings = [r["average_swing_5_95"] for r in runs]
            verdicts = sorted({packet_verdict(s) for s in swings})
            cycle = report["fluid_cycles"][f"mapped/{mode}/compound"][str(rtt)]
            q_star = report["fluid"][f"mapped/{mode}/compound"]["at_rtt"][str(rtt)]["equilibrium_queue_packets"]
            lines.append(
                f"| {mode} | {rtt} | {1000 * report['mean_rtt_s'][mode][str(rtt)]:.1f} | "
                f"{fluid_cell(report, 'mapped', mode, 'compound', rtt)} | "
                f"{fluid_cell(report, 'mapped', mode, 'reno', rtt)} | "
                f"{fluid_cell(report, 'paper', mode, 'compound', rtt)} | "
                f"{cycle['queue_std']:.1f}, {cycle['acf_period_s']:.2f} s | {mean('queue_mean'):.0f} / {q_star:.0f} | "
                f"{mean('queue_std'):.1f} | {mean('average_std'):.1f} | {min(swings):.0f}-{max(swings):.0f} | "
                f"{'/'.join(verdicts)} | {np.nanmedian([r['queue_acf_period_s'] for r in runs]):.2f} s "
                f"({mean('queue_acf_peak'):.2f}) | {np.median([r['queue_fft_period_s'] for r in runs]):.2f} s | "
                f"{100 * mean('utilisation_min_last25'):.1f} % |"
            )
    return "\n".join(lines)


def hopf_table(report: dict) -> str:
    lines = [
        (
            "| parameters | RED decides on | window law | Hopf τ_c (ms) | as configured RTT (ms) "
            "| ω_c (rad/s) | period 2π/ω_c (s) |"
        ),
        "|---|---|---|---|---|---|---|",
    ]
    for key, entry in report["fluid"].items():
        set_name, mode, tcp = key.split("/")
        hopf = entry["hopf"]
        if "tau_s" not in hopf:
            lines.append(f"| {set_name} | {mode} | {tcp} | none in [5 ms, 3 s] | | | |")
            continue
        at = configured_rtt_at(report, hopf["tau_s"], mode)
        lines.append(
            f"| {set_name} | {mode} | {tcp} | {1000 * hopf['tau_s']:.1f} | "
            f"{'outside the sweep' if not np.isfinite(at) else f'{at:.0f}'} | {hopf['omega']:.3f} | "
            f"{hopf['period_s']:.2f} |"
        )
    return "\n".join(lines)


def write_figure_and_table(report: dict, out: Path) -> None:
    write_figure(report, out)
    (out / "table.md").write_text(table(report) + "\n\n" + hopf_table(report) + "\n")
    print((out / "table.md").read_text())
