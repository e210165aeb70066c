"""Seed 001 Sections III-A7 and III-B, as declarations: on/off switching on one bottleneck
(Fig. 8) and on the two-bottleneck parking lot (Figs. 9-10). Settings and our choices as
seed001.py (its docstring and `NOTE`). Every run is repeated over 5 seeds (quick: 2)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Run
from aqmlab.reproduce.seed001 import (
    CX,
    DELTA_TH_MS,
    NOTE,
    RENO,
    RTT_SPREAD,
    binned,
    both,
    delay_ms,
    first,
    flow_throughput,
    on_off,
    parking_lot,
    phase,
    save,
    second,
    tcp_group,
    web_group,
)
from aqmlab.results import Results

#: Fig. 8/10 phases (s): before the Reno flows, with all of them, after the last has left.
PHASES = {"before": (50.0, 100.0), "with": (110.0, 250.0), "gap": (300.0, 350.0), "after": (350.0, 500.0)}


def phase_measures(link: str | None = None, prefix: str = ""):
    def measure(results: Results) -> dict[str, float]:
        out = {}
        for name, (low, high) in PHASES.items():
            delay, loss = phase(results, low, high, link)
            out[f"{prefix}delay_{name}"] = delay
            out[f"{prefix}loss_{name}"] = loss
        return out

    return measure


def timeline(out: Path, results: dict[str, Results], name: str, links: list[str | None]) -> list[str]:
    fig, axes = plt.subplots(
        len(links), 1, figsize=(8, 3 * len(links)), sharex=True, constrained_layout=True, squeeze=False
    )
    for axis, link in zip(axes[:, 0], links, strict=True):
        for label, run in results.items():
            times, delay, _ = binned(run, 1.0, link)
            axis.plot(times, delay, lw=0.8, label=label)
        axis.axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8)
        axis.axvspan(100, 300, color="tab:red", alpha=0.08)
        axis.set(ylabel="queueing delay (ms), 1 s bins", title=link or "bottleneck")
        axis.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("time (s), seed 1")
    return [save(fig, out, name)]


declare(
    "seed001-fig8",
    runs=lambda quick: [Run("onoff", on_off(), phase_measures(), keep=True)],
    figures=lambda out, evidence: timeline(out, {"seed 1": evidence.kept["onoff"]}, "fig8.png", [None]),
    notes=NOTE + " One 500 s run per seed (quick and full are the same; quick: 2 seeds). Phases: 50-100 s before "
    "the Reno flows, 110-250 s with all of them, 350-500 s after; buffer 1 BDP at RTT 100 ms (312 packets). With "
    "250 packets (1 BDP at the mean RTT) the 20 Cx-TCP flows alone spent about 40-80 s at 70 ms before returning "
    "to Region A, so the before-phase claim depends on this choice.",
)


def pert_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """PERT's loss (with Reno present) and queueing delay (after it leaves) minus Cx-TCP's."""
    return {f"{key}_pert_minus_cx": m["pert"][key] - m["cx"][key] for key in ("loss_with", "delay_after")}


declare(
    "seed001-pert",
    runs=lambda quick: [
        Run("cx", on_off(), phase_measures(), keep=True),
        Run("pert", on_off({"kind": "pert"}), phase_measures(), keep=True),
    ],
    derive=pert_derive,
    figures=lambda out, evidence: timeline(
        out, {"Cx-TCP (seed 1)": evidence.kept["cx"], "PERT (seed 1)": evidence.kept["pert"]}, "pert.png", [None]
    ),
    notes=NOTE + " Fig. 8's on/off scenario run twice: with 20 Cx-TCP flows and with 20 PERT flows (aqmlab's PERT, "
    "Bhandarkar et al. 2007, with its defaults; docs/scenario.md). One 500 s run per seed (quick and full are "
    "the same; quick: 2 seeds); phases 50-100 s, 110-250 s (Reno present) and 350-500 s.",
)


def lot_measures(results: Results) -> dict[str, float]:
    """Per link: mean queueing delay (ms) and loss (%); per path: Cx/Reno mean throughput when
    both kinds are present."""
    out = {}
    for link in ("link1", "link2"):
        out[f"{link}_delay_ms"] = delay_ms(results, link)
        out[f"{link}_loss"] = float(results.summary(link)["loss_percent"])
    throughput = flow_throughput(results)
    for path in ("both", "second"):
        if f"reno-{path}" in throughput:
            out[f"ratio_{path}"] = float(throughput[f"cx-{path}"].mean() / throughput[f"reno-{path}"].mean())
    return out


def fig9_runs(quick: bool) -> list[Run]:
    duration = 200.0 if quick else 500.0
    alone = [both(tcp_group("cx-both", 15, CX, RTT_SPREAD)), second(tcp_group("cx-second", 15, CX, RTT_SPREAD))]
    mixed = [
        both(tcp_group("cx-both", 10, CX, RTT_SPREAD)),
        both(tcp_group("reno-both", 5, RENO, RTT_SPREAD)),
        second(tcp_group("cx-second", 10, CX, RTT_SPREAD)),
        second(tcp_group("reno-second", 5, RENO, RTT_SPREAD)),
        first(web_group("mice-link1")),
        second(web_group("mice-link2")),
    ]
    return [
        Run("cx", parking_lot("cx-only", alone, duration=duration), lot_measures, keep=True),
        Run("mix", parking_lot("mix", mixed, duration=duration), lot_measures, keep=True),
    ]


declare(
    "seed001-fig9",
    runs=fig9_runs,
    figures=lambda out, evidence: timeline(
        out,
        {"30 Cx-TCP": evidence.kept["cx"], "20 Cx-TCP + 10 Reno": evidence.kept["mix"]},
        "fig9.png",
        ["link1", "link2"],
    ),
    notes=lambda quick: (
        NOTE
        + f" Runs of {200 if quick else 500} s measured over the second half. 15 flows cross both links and 15 the "
        "second only (the paper: 'half of all flows traversing both'); in the mix 10 Cx-TCP and 5 Reno on each "
        "path, "
        "plus 10 web flows per bottleneck ('10 mice flows'). Throughput per flow over its life."
    ),
)


def fig10_scenario() -> dict:
    intermittent = first(
        tcp_group(
            "reno-first",
            10,
            RENO,
            RTT_SPREAD,
            start={"kind": "staggered", "first": "100s", "spacing": "0.5s"},
            stop={"kind": "staggered", "first": "250s", "spacing": "5s"},
        )
    )
    groups = [
        both(tcp_group("cx-both", 5, CX, RTT_SPREAD)),
        second(tcp_group("cx-second", 15, CX, RTT_SPREAD)),
        intermittent,
    ]
    return parking_lot("on-off", groups, measure_start=0.0)


def fig10_measures(results: Results) -> dict[str, float]:
    return {**phase_measures("link1", "link1_")(results), **phase_measures("link2", "link2_")(results)}


def fig10_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    run = m["onoff"]
    return {"link2_delay_worst": max(run[f"link2_delay_{name}"] for name in ("before", "with", "after"))}


declare(
    "seed001-fig10",
    runs=lambda quick: [Run("onoff", fig10_scenario(), fig10_measures, keep=True)],
    derive=fig10_derive,
    figures=lambda out, evidence: timeline(out, {"seed 1": evidence.kept["onoff"]}, "fig10.png", ["link1", "link2"]),
    notes=NOTE + " One 500 s run per seed (quick and full are the same; quick: 2 seeds). The paper's wording "
    "places 5 Cx-TCP flows at the first bottleneck and 15 at the second; we let the 5 cross both links and the "
    "Reno flows cross the first only.",
)
