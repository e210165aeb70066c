"""Seed 000 Section V-B: heterogeneous traffic over RED (Figs. 10-13), as declarations, and
the scenario builders that Section VI-C's reproductions (seed000_threshold.py) share.

Heterogeneous traffic (Section V-B): 55 long-lived TCP flows with 2 Mbps access links —
27 Compound TCP and 28 CUBIC — plus 8 UDP flows of 1 Mbps and HTTP flows arriving at 50 per
second (about 2 Mbps) running TCP Tahoe, on the Section V dumbbell (100 Mbps, buffer 2084
packets, RED with ns-2 defaults). The paper's PackMime-HTTP model is replaced by Poisson
arrivals with Pareto sizes (mean 5 kB, shape 1.2: 50/s × 5 kB = 2 Mbps), the engine's
documented stand-in. Compound and CUBIC run with their default parameters (Compound:
α = 0.125, β = 0.5, k = 0.75, the paper's values; CUBIC: RFC 9438). UDP and HTTP flows have
the same RTT as the long-lived flows and a 10 Mbps (UDP) or 100 Mbps (shared HTTP) access link
(ours: the paper does not say).

The claims and criteria are Section V-A's (seed000_packet.py): the paper says the traces
"appear qualitatively similar to the ones observed for Compound TCP traffic".
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from aqmlab.plots import plot_side_by_side
from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Evidence, Run
from aqmlab.reproduce.seed000_packet import (
    averaging_against_rtt,
    red_measures,
    side_by_side,
    thresholds_derive,
    utilisation_against_rtt,
)
from aqmlab.scenario import embedded_scenario

PAPER = "seed 000 (Compound TCP with RED)"
RED_50_100 = {"kind": "red", "limit": "2084p", "min_th": 50, "max_th": 100, "max_p": 0.1, "q_weight": -1}
RED_8_15 = {"kind": "red", "limit": "2084p", "min_th": 8, "max_th": 15, "max_p": 0.1, "q_weight": -1}
THRESHOLD_15 = {"kind": "threshold", "limit": "2084p", "q_th": 15}
MIX = [{"share": 27 / 55, "cc": "compound"}, {"share": 28 / 55, "cc": "cubic"}]


def long_lived(
    name: str, count: int, rtt: str, mix: list[dict[str, Any]] | None = None, transfer: dict[str, Any] | None = None
) -> dict[str, Any]:
    group = {
        "name": name,
        "count": count,
        "rtt": rtt,
        "access_rate": "2Mbps",
        "tcp": {"packet_size": "1500B"},
        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
    }
    if mix is None:
        group["tcp"]["cc"] = {"kind": "compound"}
    else:
        group["mix"] = mix
    if transfer is not None:
        group["transfer"] = transfer
    return group


def udp(name: str, count: int, rtt: str) -> dict[str, Any]:
    return {"name": name, "kind": "udp", "count": count, "rate": "1Mbps", "rtt": rtt, "access_rate": "10Mbps"}


def web(name: str, rate: float, rtt: str) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "web",
        "arrival_rate": rate,
        "size": {"kind": "pareto", "mean": "5kB", "shape": 1.2},
        "rtt": rtt,
        "access_rate": "100Mbps",
    }


def scenario(
    name: str, groups: list[dict[str, Any]], queue: dict[str, Any], *, quick: bool, duration: float | None = None
) -> dict[str, Any]:
    """The Section V dumbbell with these groups and this bottleneck queue; 500 s measured over
    the last 25 s (quick: 100 s)."""
    base = embedded_scenario("seed000-fig6-rtt10").model_dump(mode="json")
    base["name"] = name
    base["topology"]["groups"] = groups
    base["topology"]["bottleneck"]["queue"] = copy.deepcopy(queue)
    length = duration if duration is not None else (100.0 if quick else 500.0)
    base["duration"] = f"{length}s"
    base["measure_start"] = f"{length - 25.0}s"
    base["trace"] = {"interval": "10ms", "flows": 15}
    return base


def heterogeneous(
    name: str,
    rtt: str,
    queue: dict[str, Any],
    *,
    quick: bool,
    transfer: dict[str, Any] | None = None,
    duration: float | None = None,
) -> dict[str, Any]:
    """Section V-B: 27 Compound + 28 CUBIC long-lived flows, 8 UDP flows, 50 HTTP flows/s."""
    groups = [long_lived("ftp", 55, rtt, MIX, transfer), udp("udp", 8, rtt), web("http", 50.0, rtt)]
    return scenario(name, groups, queue, quick=quick, duration=duration)


def heterogeneous_two_rtts(name: str, rtt1: str, rtt2: str, *, quick: bool) -> dict[str, Any]:
    """Fig. 11: the traffic in two bunches with RTT1 and RTT2 (13 Compound + 14 CUBIC, 4 UDP and
    25 HTTP flows/s in the first; 14 + 14, 4 UDP and 25 HTTP flows/s in the second)."""
    groups = [
        long_lived("ftp-rtt1", 27, rtt1, [{"share": 13 / 27, "cc": "compound"}, {"share": 14 / 27, "cc": "cubic"}]),
        long_lived("ftp-rtt2", 28, rtt2, [{"share": 0.5, "cc": "compound"}, {"share": 0.5, "cc": "cubic"}]),
        udp("udp-rtt1", 4, rtt1),
        udp("udp-rtt2", 4, rtt2),
        web("http-rtt1", 25.0, rtt1),
        web("http-rtt2", 25.0, rtt2),
    ]
    return scenario(name, groups, RED_50_100, quick=quick)


def homogeneous(name: str, rtt: str, queue: dict[str, Any], *, quick: bool) -> dict[str, Any]:
    """Section V-A: 60 long-lived Compound TCP flows."""
    return scenario(name, [long_lived("compound", 60, rtt)], queue, quick=quick)


def with_queue(queue: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**queue, **changes}


def note(quick: bool) -> str:
    length = "100 s runs measured over the last 25 s (quick)" if quick else "500 s runs measured over the last 25 s"
    return (
        f"Heterogeneous traffic: 27 Compound + 28 CUBIC long-lived flows, 8 × 1 Mbps UDP, 50 HTTP flows/s (TCP "
        f"Tahoe, Poisson arrivals and Pareto sizes, mean 5 kB, for PackMime-HTTP); {length}. The bottleneck "
        "takes 2 ms of the one-way delay (not given in the paper)."
    )


declare(
    "seed000-fig10",
    runs=lambda quick: [
        Run("rtt10", heterogeneous("rtt10", "10ms", RED_50_100, quick=quick), red_measures, keep=True),
        Run("rtt200", heterogeneous("rtt200", "200ms", RED_50_100, quick=quick), red_measures, keep=True),
    ],
    figures=side_by_side("fig10"),
    notes=note,
)

declare(
    "seed000-fig11",
    runs=lambda quick: [
        Run("rtt5-15", heterogeneous_two_rtts("rtt5-15", "5ms", "15ms", quick=quick), red_measures, keep=True),
        Run(
            "rtt100-300",
            heterogeneous_two_rtts("rtt100-300", "100ms", "300ms", quick=quick),
            red_measures,
            keep=True,
        ),
    ],
    figures=side_by_side("fig11"),
    notes=lambda quick: (
        note(quick) + " Each bunch: half the long-lived flows (13 Compound + 14 CUBIC, then "
        "14 + 14), 4 UDP flows and 25 HTTP flows/s."
    ),
)


def fig12_rtts(quick: bool) -> list[int]:
    return [10, 100, 200] if quick else [10, 25, 50, 75, 100, 125, 150, 175, 200]


def fig12_runs(quick: bool) -> list[Run]:
    at25 = [
        Run("averaging", heterogeneous("averaging", "25ms", RED_50_100, quick=quick), red_measures, keep=True),
        Run(
            "instantaneous",
            heterogeneous("instantaneous", "25ms", with_queue(RED_50_100, instantaneous=True), quick=quick),
            red_measures,
            keep=True,
        ),
    ]
    sweep = [
        Run(
            f"{'instantaneous' if flag else 'averaging'}-rtt{rtt}",
            heterogeneous(f"rtt{rtt}", f"{rtt}ms", with_queue(RED_50_100, instantaneous=flag), quick=quick),
            red_measures,
        )
        for flag in (False, True)
        for rtt in fig12_rtts(quick)
    ]
    return at25 + sweep


def fig12_figures(out: Path, evidence: Evidence) -> list[str]:
    plot_side_by_side(evidence.kept, out / "fig12a.png")
    return ["fig12a.png", *utilisation_against_rtt(out, evidence, fig12_rtts(evidence.quick), "fig12b.png")]


declare(
    "seed000-fig12",
    runs=fig12_runs,
    derive=lambda m, quick: averaging_against_rtt(m, fig12_rtts(quick)),
    figures=fig12_figures,
    notes=lambda quick: note(quick) + f" RTTs {fig12_rtts(quick)} ms for the minimum utilisation.",
)

declare(
    "seed000-fig13",
    runs=lambda quick: [
        Run("red8-15", heterogeneous("red8-15", "100ms", RED_8_15, quick=quick), red_measures, keep=True),
        Run(
            "red100-200",
            heterogeneous("red100-200", "100ms", with_queue(RED_50_100, min_th=100, max_th=200), quick=quick),
            red_measures,
            keep=True,
        ),
    ],
    derive=thresholds_derive,
    figures=side_by_side("fig13"),
    notes=note,
)
