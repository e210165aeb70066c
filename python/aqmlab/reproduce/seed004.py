"""Seed 004 Section III (Feedback, transport protocols and buffer sizing): packet-level
simulations of CUBIC and Compound TCP in small and large DropTail buffers (Figs. 2-6).

Setting (Section III): 60 long-lived flows, 80 % Compound TCP and 20 % CUBIC (48 and 12),
bottleneck C = 100 Mb/s, RTT 10 and 200 ms, 1500-byte packets, DropTail buffers of 15, 100,
C·RTT/sqrt(N) and C·RTT packets; the single-bottleneck dumbbell (Fig. 1a) and a
multi-bottleneck topology (Fig. 1b). The figures show queue, utilisation and packet loss
(packets/s) over 200-250 s, so full runs last 250 s and are measured over [200, 250] s.

Ours, where the paper is silent (stated in every outcome and in docs/reproduction/seed004.md):
- Fig. 3's buffers are the values on its axes, 278 and 2084 packets, at both RTTs: 2084 is
  C × 250 ms (the rule of thumb of Section I-A with its 250 ms), 278 ≈ 2084/7.5 (the formula
  with N = 60 gives 269). C·RTT with the run's own RTT would give 83 and 11 packets at 10 ms,
  smaller than the "small" buffers, which is not what Fig. 3 shows.
- The captions of Figs. 2-5 say "round-trip times of 15, 100 ms"; the panels and the text say
  10 and 200 ms, which we use.
- TCP: SACK loss recovery (RFC 6675) for both algorithms. ns-2's CUBIC and Compound come with
  its Linux TCP agent (Agent/TCP/Linux), which recovers with SACK. Without SACK the engine's
  NewReno recovery repairs one hole per round trip, and with the large windows of the
  C·RTT buffer a flow can stay in recovery for minutes (see the docs).
- Compound: α = 0.125, β = 0.5, k = 0.75, γ = 30, ζ = 0.5 (seed 000's values; seed 004 calls
  them tunable without values); CUBIC: C = 0.4, β = 0.7 (RFC 9438; the paper's eqs. 1-5 give no
  values). Access links 1 Gb/s (Fig. 6's windows of hundreds of packets need fast access
  links), bottleneck delay 2 ms one way, start times uniform in [0, 10] s, no delayed ACKs.
- Fig. 4's "20 % short-lived HTTP flows": HTTP transfers offering 20 % of the capacity
  (Poisson arrivals, Pareto sizes with mean 5 kB and shape 1.2, 500 transfers/s, TCP Tahoe:
  the engine's web stand-in, as in seed 000 Section V-B), with the long-lived flows' RTT.
- Fig. 1b (multi-bottleneck, not in the text we have): a parking lot of two 100 Mb/s links,
  30 flows crossing both, 30 on each link alone (seed 000 Fig. 16's layout, same group of
  authors), every group 80 % Compound / 20 % CUBIC; each link carries N = 60 flows. Fig. 5
  shows link 2.

Criteria (ours): a queue "oscillates" (deterministic non-linear oscillation, limit cycle)
when its strongest frequency holds at least twice the share of its variance that it holds in
the case the paper calls stable (`metrics.oscillation_share`, also used for seed 000 Fig. 9);
utilisation is the mean over the window, and its minimum over 1 s bins. The full versions run
three seeds and a claim agrees only if it holds for each; quick versions run seed 1 for 100 s
measured over the last 50 s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from aqmlab.plots import binned_utilisation
from aqmlab.reproduce.metrics import oscillation_share
from aqmlab.reproduce.registry import Claim, Outcome, reproduction
from aqmlab.results import Results, jain_index
from aqmlab.simulation import simulate

PAPER = "seed 004 (Feedback, transport protocols and buffer sizing)"
RTTS_MS = (10, 200)
#: Section III: 80 % Compound, 20 % CUBIC.
MIX = [{"share": 0.8, "cc": "compound"}, {"share": 0.2, "cc": "cubic"}]
#: Fig. 3's axes (see the module docstring): C·RTT/sqrt(N) and C·RTT.
STANFORD_BUFFER, RULE_OF_THUMB_BUFFER = 278, 2084
#: Fig. 4: HTTP transfers offering this share of the 100 Mb/s bottleneck.
HTTP_LOAD, HTTP_MEAN_BYTES = 0.2, 5000
#: A trace bin for the figures' utilisation and loss panels, s.
PLOT_BIN_S = 0.5
FULL_SEEDS, QUICK_SEEDS = (1, 2, 3), (1,)


def timing(quick: bool) -> tuple[float, float]:
    """Duration and start of the measurement window, s: the paper's 200-250 s, or 50-100 s."""
    return (100.0, 50.0) if quick else (250.0, 200.0)


def long_lived(name: str, rtt_ms: float, count: int = 60, **extra: Any) -> dict[str, Any]:
    group = {
        "name": name,
        "count": count,
        "rtt": f"{rtt_ms}ms",
        "access_rate": "1Gbps",
        "mix": MIX,
        "tcp": {"sack": True},
        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
    }
    group.update(extra)
    return group


def http(rtt_ms: float) -> dict[str, Any]:
    rate = HTTP_LOAD * 100e6 / (8 * HTTP_MEAN_BYTES)
    return {
        "name": "http",
        "kind": "web",
        "arrival_rate": rate,
        "rtt": f"{rtt_ms}ms",
        "access_rate": "1Gbps",
        "size": {"kind": "pareto", "mean": f"{HTTP_MEAN_BYTES}B", "shape": 1.2},
    }


def drop_tail(buffer: int) -> dict[str, Any]:
    return {"kind": "drop_tail", "limit": f"{buffer}p"}


def envelope(name: str, topology: dict[str, Any], quick: bool, traced_flows: int = 0) -> dict[str, Any]:
    duration, start = timing(quick)
    return {
        "name": name,
        "duration": f"{duration}s",
        "measure_start": f"{start}s",
        "topology": topology,
        "trace": {"interval": "10ms", "flows": traced_flows},
    }


def dumbbell(
    buffer: int, rtt_ms: float, quick: bool, *, with_http: bool = False, traced_flows: int = 0
) -> dict[str, Any]:
    """Fig. 1a: the 60 flows on one 100 Mb/s DropTail bottleneck (with HTTP traffic: Fig. 4)."""
    groups = [long_lived("mix", rtt_ms)] + ([http(rtt_ms)] if with_http else [])
    topology = {
        "kind": "dumbbell",
        "bottleneck": {"rate": "100Mbps", "delay": "2ms", "queue": drop_tail(buffer)},
        "groups": groups,
    }
    return envelope(f"b{buffer}-rtt{rtt_ms}{'-http' if with_http else ''}", topology, quick, traced_flows)


def parking_lot(buffer: int, rtt_ms: float, quick: bool) -> dict[str, Any]:
    """Fig. 1b as a parking lot: 30 flows over both links, 30 over each one alone."""
    links = [
        {"name": name, "rate": "100Mbps", "delay": "2ms", "queue": drop_tail(buffer)} for name in ("link1", "link2")
    ]
    groups = [
        long_lived("both", rtt_ms, 30, crosses=["link1", "link2"]),
        long_lived("first", rtt_ms, 30, crosses=["link1"]),
        long_lived("second", rtt_ms, 30, crosses=["link2"]),
    ]
    return envelope(
        f"parking-lot-b{buffer}-rtt{rtt_ms}", {"kind": "parking_lot", "links": links, "groups": groups}, quick
    )


# --- Running and measuring -----------------------------------------------------------------


@dataclass
class Case:
    """One panel of a figure: a scenario, run once per seed."""

    label: str
    buffer: int
    rtt_ms: float
    scenario: dict[str, Any]


@dataclass
class Measured:
    share: float
    frequency_hz: float
    utilisation_mean: float
    utilisation_min: float
    loss_per_s: float
    loss_percent: float
    queue_mean: float


def measure(results: Results, link: str | None = None) -> Measured:
    samples = results.link_samples(link)
    window = samples["time_s"] > results.measure_start_s
    interval = results.scenario.resolved()["trace"]["interval_ns"] / 1e9
    share, frequency = oscillation_share(samples["queue_packets"][window], interval)
    summary = results.summary(link)
    return Measured(
        share,
        frequency,
        summary["utilisation_mean"],
        summary["utilisation_min"],
        float(samples["drops"][window].sum()) / summary["window_s"],
        summary["loss_percent"],
        summary["queue_mean_packets"],
    )


def run_cases(
    out: Path, cases: list[Case], seeds: tuple[int, ...], link: str | None = None
) -> tuple[dict[str, list[Measured]], dict[str, Results]]:
    """Every case for every seed: measurements per case (one per seed), the first seed's
    results per case (for the figures); each run's data goes to `out/<name>-seed<s>`."""
    measured: dict[str, list[Measured]] = {case.label: [] for case in cases}
    shown: dict[str, Results] = {}
    for case in cases:
        for seed in seeds:
            results = simulate(case.scenario, seed=seed)
            results.save(out / f"{case.scenario['name']}-seed{seed}", overwrite=True)
            measured[case.label].append(measure(results, link))
            shown.setdefault(case.label, results)
    return measured, shown


def grid(buffers: tuple[int, ...], build: Callable[[int, float], dict[str, Any]]) -> list[Case]:
    return [Case(label(buffer, rtt), buffer, rtt, build(buffer, rtt)) for buffer in buffers for rtt in RTTS_MS]


def label(buffer: int, rtt_ms: float) -> str:
    """A case's name, also the key of its measurements: `B = 15, RTT 10 ms`."""
    return f"B = {buffer}, RTT {rtt_ms} ms"


def listed(values: list[float], fmt: str = ".2f", scale: float = 1.0) -> str:
    """Per-seed values as `a / b / c`."""
    return " / ".join(f"{scale * value:{fmt}}" for value in values)


def seeds_note(seeds: tuple[int, ...]) -> str:
    return f" (seed{'s' if len(seeds) > 1 else ''} {' / '.join(map(str, seeds))})"


# --- Claims shared by Figs. 2-5 ----------------------------------------------------------------


def oscillates_against(
    measured: dict[str, list[Measured]],
    seeds: tuple[int, ...],
    unstable: str,
    stable: list[str],
    claim: str,
    paper: str,
) -> Claim:
    """`unstable`'s queue concentrates at least twice the variance share of every `stable` case
    in one frequency, seed by seed."""
    ratios = [m.share / max(max(measured[s][i].share for s in stable), 1e-12) for i, m in enumerate(measured[unstable])]
    references = "; ".join(f"{s}: {listed([m.share for m in measured[s]])}" for s in stable)
    frequency = listed([m.frequency_hz for m in measured[unstable]])
    text = (
        f"oscillation share of the queue {listed([m.share for m in measured[unstable]])} at {frequency} Hz "
        f"({unstable}) against {references}{seeds_note(seeds)}; ratio {listed(ratios, '.1f')} "
        "(criterion: at least 2 in every seed)"
    )
    return Claim(claim, paper, text, bool(all(ratio >= 2.0 for ratio in ratios)))


def utilisation_text(measured: dict[str, list[Measured]], cases: list[str]) -> str:
    return "; ".join(
        f"{case}: mean {listed([m.utilisation_mean for m in measured[case]], '.1f', 100)} %, "
        f"minimum 1 s {listed([m.utilisation_min for m in measured[case]], '.1f', 100)} %"
        for case in cases
    )


def longer_rtt_costs_utilisation(
    measured: dict[str, list[Measured]],
    seeds: tuple[int, ...],
    buffer: int,
    claim: str,
    paper: str,
    floor: float | None = None,
) -> Claim:
    """Mean utilisation lower at RTT 200 ms than at 10 ms in every seed (and, with `floor`, not below it)."""
    short, long = measured[label(buffer, 10)], measured[label(buffer, 200)]
    lower = all(b.utilisation_mean < a.utilisation_mean for a, b in zip(short, long, strict=True))
    above = floor is None or all(b.utilisation_mean >= floor for b in long)
    criterion = "lower at 200 ms in every seed" + (f", and still at least {100 * floor:.0f} %" if floor else "")
    text = (
        f"{utilisation_text(measured, [label(buffer, 10), label(buffer, 200)])}{seeds_note(seeds)} "
        f"(criterion: {criterion})"
    )
    return Claim(claim, paper, text, bool(lower and above))


def data_of(measured: dict[str, list[Measured]], seeds: tuple[int, ...]) -> dict[str, Any]:
    return {"seeds": list(seeds), **{case: [m.__dict__ for m in values] for case, values in measured.items()}}


# --- Figures -------------------------------------------------------------------------------------


def binned_loss(results: Results, link: str | None, bin_s: float) -> tuple[np.ndarray, np.ndarray]:
    samples = results.link_samples(link)
    index = np.floor((samples["time_s"] - 1e-12) / bin_s).astype(np.int64)
    drops = np.bincount(index, weights=samples["drops"])
    return (np.arange(drops.size) + 1) * bin_s, drops / bin_s


def plot_panels(shown: dict[str, Results], path: Path, title: str, link: str | None = None) -> str:
    """The paper's layout: queue (packets), utilisation (%) and packet loss (packets/s) over
    the measurement window, one column per case."""
    fig, axes = plt.subplots(
        3, len(shown), figsize=(3.6 * len(shown), 7), sharex="col", sharey="row", constrained_layout=True, squeeze=False
    )
    for column, (case, results) in enumerate(shown.items()):
        start = results.measure_start_s
        samples = results.link_samples(link)
        keep = samples["time_s"] > start
        axes[0, column].plot(samples["time_s"][keep], samples["queue_packets"][keep], lw=0.4)
        times, utilisation = binned_utilisation(results, bin_s=PLOT_BIN_S, link=link)
        axes[1, column].plot(times[times > start], 100 * utilisation[times > start], lw=0.8, color="tab:green")
        times, loss = binned_loss(results, link, PLOT_BIN_S)
        axes[2, column].plot(times[times > start], loss[times > start], lw=0.8, color="tab:red")
        axes[0, column].set_title(case, fontsize=9)
        axes[2, column].set_xlabel("time (s)")
    for row, text in enumerate(
        ("queue size (pkts)", f"utilisation (%)\n{PLOT_BIN_S:g} s bins", f"packet loss (pkts/s)\n{PLOT_BIN_S:g} s bins")
    ):
        axes[row, 0].set_ylabel(text)
        for axis in axes[row]:
            axis.grid(alpha=0.3)
    axes[1, 0].set_ylim(0, 105)
    fig.suptitle(title, fontsize=10)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path.name


def note(quick: bool, seeds: tuple[int, ...], extra: str = "") -> str:
    duration, start = timing(quick)
    return (
        f"{duration:.0f} s runs measured over [{start:.0f}, {duration:.0f}] s{' (quick)' if quick else ''}; "
        f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))} (figures: seed {seeds[0]}). 60 flows, "
        "48 Compound + 12 CUBIC, SACK, 1 Gb/s access links, bottleneck delay 2 ms one way, DropTail. "
        f"See docs/reproduction/seed004.md for the choices.{(' ' + extra) if extra else ''}"
    )


def seeds_for(quick: bool) -> tuple[int, ...]:
    return QUICK_SEEDS if quick else FULL_SEEDS


# --- Fig. 2 and Fig. 4: small buffers (15 and 100 packets) ---------------------------------------


def small_buffer_claims(measured: dict[str, list[Measured]], seeds: tuple[int, ...], what: str) -> list[Claim]:
    """Figs. 2 and 4: no oscillation with 15 packets; oscillation with 100 packets at RTT 200 ms
    (and not at 10 ms); utilisation lower at the larger RTT."""
    unstable = label(100, 200)
    return [
        oscillates_against(
            measured,
            seeds,
            unstable,
            [label(15, 10), label(15, 200)],
            f"{what}: 15-packet buffers show no non-linear oscillation, 100 packets at RTT 200 ms do",
            "15 packets: no non-linear instabilities; 100 packets, larger RTT: deterministic "
            "non-linear oscillations clearly visible",
        ),
        oscillates_against(
            measured,
            seeds,
            unstable,
            [label(100, 10)],
            f"{what}: with 100-packet buffers the oscillations emerge at the larger RTT",
            "oscillations with 100 packets appear with larger RTTs",
        ),
    ]


@reproduction(
    "seed004-fig2",
    PAPER,
    "Fig. 2: 15 and 100 packet buffers, RTT 10 and 200 ms, single bottleneck",
    "60 long-lived flows (80 % Compound, 20 % CUBIC) on 100 Mb/s: with 15 packets the queue shows no "
    "non-linear instability and utilisation drops a little at RTT 200 ms; with 100 packets at 200 ms "
    "deterministic non-linear oscillations appear.",
    "≈15 s",
)
def fig2(out: Path, quick: bool) -> Outcome:
    seeds = seeds_for(quick)
    measured, shown = run_cases(out, grid((15, 100), lambda b, r: dumbbell(b, r, quick)), seeds)
    figure = plot_panels(shown, out / "fig2.png", "Fig. 2: single bottleneck, 48 Compound + 12 CUBIC flows")
    claims = small_buffer_claims(measured, seeds, "Fig. 2")
    claims.append(
        longer_rtt_costs_utilisation(
            measured,
            seeds,
            15,
            "15-packet buffers: a minor loss of utilisation at the larger RTT",
            "a minor loss in utilisation with larger RTTs (15 packets)",
            floor=0.8,
        )
    )
    return Outcome(
        claims,
        [figure],
        note(quick, seeds, "'Minor' read as: utilisation still at least 80 %."),
        data_of(measured, seeds),
    )


@reproduction(
    "seed004-fig4",
    PAPER,
    "Fig. 4: Fig. 2 with short-lived HTTP flows added",
    "The same runs with HTTP transfers added (20 % of the load): the non-linear oscillations with "
    "100 packets at RTT 200 ms prevail, and the larger RTT costs utilisation.",
    "≈30 s",
)
def fig4(out: Path, quick: bool) -> Outcome:
    seeds = seeds_for(quick)
    measured, shown = run_cases(out, grid((15, 100), lambda b, r: dumbbell(b, r, quick, with_http=True)), seeds)
    figure = plot_panels(shown, out / "fig4.png", "Fig. 4: single bottleneck, long-lived flows and HTTP transfers")
    claims = small_buffer_claims(measured, seeds, "Fig. 4")
    claims += [
        longer_rtt_costs_utilisation(
            measured,
            seeds,
            buffer,
            f"{buffer}-packet buffers: the larger RTT costs utilisation",
            "there is an impact on utilisation",
        )
        for buffer in (15, 100)
    ]
    http_note = (
        f"HTTP: {HTTP_LOAD * 100:.0f} % of the capacity as Poisson arrivals of Pareto-sized transfers "
        f"(mean {HTTP_MEAN_BYTES / 1000:g} kB, shape 1.2; TCP Tahoe), the paper's '20 % short-lived HTTP "
        "flows' read as a share of the load."
    )
    return Outcome(claims, [figure], note(quick, seeds, http_note), data_of(measured, seeds))


# --- Fig. 3: large buffers -------------------------------------------------------------------------


@reproduction(
    "seed004-fig3",
    PAPER,
    "Fig. 3: buffers C·RTT/sqrt(N) (278) and C·RTT (2084 packets)",
    "With large buffers the queue again shows non-linear oscillations at both RTTs, which can start to "
    "hurt utilisation.",
    "≈20 s",
)
def fig3(out: Path, quick: bool) -> Outcome:
    seeds = seeds_for(quick)
    cases = grid((STANFORD_BUFFER, RULE_OF_THUMB_BUFFER), lambda b, r: dumbbell(b, r, quick))
    references = grid((15,), lambda b, r: dumbbell(b, r, quick))
    measured, shown = run_cases(out, cases + references, seeds)
    figure = plot_panels(
        {case.label: shown[case.label] for case in cases},
        out / "fig3.png",
        "Fig. 3: single bottleneck, buffers C·RTT/sqrt(N) = 278 and C·RTT = 2084 packets",
    )
    claims = []
    for case in cases:
        claims.append(
            oscillates_against(
                measured,
                seeds,
                case.label,
                [label(15, case.rtt_ms)],
                f"{case.label}: the queue oscillates (against the 15-packet buffer at the same RTT)",
                "non-linear oscillations with larger buffers (Fig. 3)",
            )
        )
    lowest = min(cases, key=lambda case: np.mean([m.utilisation_mean for m in measured[case.label]]))
    worst = [m.utilisation_mean for m in measured[lowest.label]]
    claims.append(
        Claim(
            "the oscillations can start to hurt utilisation",
            "utilisation below 100 % in some large-buffer cases",
            f"{utilisation_text(measured, [case.label for case in cases])}{seeds_note(seeds)}; lowest: {lowest.label} "
            "(criterion: a case whose mean utilisation is below 98 % in every seed)",
            bool(all(value < 0.98 for value in worst)),
        )
    )
    text = (
        "Buffers as on Fig. 3's axes: 278 and 2084 packets at both RTTs (C × 250 ms = 2084; the formula "
        "C·RTT/sqrt(60) with it gives 269). The 15-packet runs are the stable reference of the criterion."
    )
    return Outcome(claims, [figure], note(quick, seeds, text), data_of(measured, seeds))


# --- Fig. 5: multiple bottlenecks ---------------------------------------------------------------------


@reproduction(
    "seed004-fig5",
    PAPER,
    "Fig. 5: multi-bottleneck topology, 15 and 100 packet buffers (link 2)",
    "Two bottlenecks with cross traffic: on link 2, 100-packet buffers induce non-linear oscillations "
    "where 15 packets stabilise the mix, and longer RTTs reduce utilisation.",
    "≈30 s",
)
def fig5(out: Path, quick: bool) -> Outcome:
    seeds = seeds_for(quick)
    measured, shown = run_cases(out, grid((15, 100), lambda b, r: parking_lot(b, r, quick)), seeds, link="link2")
    figure = plot_panels(shown, out / "fig5.png", "Fig. 5: parking lot, bottleneck link 2", link="link2")
    claims = [
        oscillates_against(
            measured,
            seeds,
            label(100, rtt),
            [label(15, rtt)],
            f"link 2, RTT {rtt} ms: 100 packets oscillate where 15 packets do not",
            "100 packets induce non-linear oscillations, 15 packets stabilise",
        )
        for rtt in RTTS_MS
    ]
    claims += [
        longer_rtt_costs_utilisation(
            measured,
            seeds,
            buffer,
            f"link 2, {buffer}-packet buffers: the longer RTT reduces utilisation",
            "flows with longer RTTs lead to a reduction in utilisation",
        )
        for buffer in (15, 100)
    ]
    text = (
        "Fig. 1b as a parking lot of two 100 Mb/s links (2 ms each): 30 flows over both, 30 over link 1 alone, "
        "30 over link 2 alone, each group 80 % Compound / 20 % CUBIC; measured on link 2."
    )
    return Outcome(claims, [figure], note(quick, seeds, text), data_of(measured, seeds))


# --- Fig. 6: windows and fairness -----------------------------------------------------------------------


def per_flow_goodput(results: Results) -> dict[str, np.ndarray]:
    flows = results.to_pandas("flows")
    return {
        algorithm: flows.loc[flows["group_name"] == f"mix/{algorithm}", "goodput_bps"].to_numpy()
        for algorithm in ("compound", "cubic")
    }


def plot_windows(results: Results, path: Path) -> str:
    """Every flow's window (cwnd + dwnd for Compound) over the window, one panel per algorithm,
    and each flow's goodput."""
    flows = results.to_pandas("flows")
    trace = results.to_pandas("flow_trace")
    trace = trace[trace["time_s"] > results.measure_start_s]
    fig, axes = plt.subplots(3, 1, figsize=(8, 9), constrained_layout=True)
    for axis, algorithm, colour in ((axes[0], "compound", "tab:blue"), (axes[1], "cubic", "tab:orange")):
        ids = flows.loc[flows["group_name"] == f"mix/{algorithm}", "flow"]
        for flow in ids:
            one = trace[trace["flow"] == flow]
            axis.plot(one["time_s"], one["cwnd"], lw=0.5, color=colour, alpha=0.5)
        axis.set_title(
            f"{'Compound' if algorithm == 'compound' else 'CUBIC'} TCP: windows of all {ids.size} flows", fontsize=9
        )
        axis.set_ylabel("window size (packets)")
        axis.set_xlabel("time (s)")
        axis.grid(alpha=0.3)
    goodput = per_flow_goodput(results)
    start = 0
    for algorithm, colour in (("compound", "tab:blue"), ("cubic", "tab:orange")):
        values = np.sort(goodput[algorithm])[::-1] / 1e6
        axes[2].bar(np.arange(start, start + values.size), values, color=colour, label=algorithm)
        start += values.size
    axes[2].set_ylabel("goodput over the window (Mb/s)")
    axes[2].set_xlabel("flows, sorted within each algorithm")
    axes[2].legend(fontsize=8)
    axes[2].grid(alpha=0.3, axis="y")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path.name


@reproduction(
    "seed004-fig6",
    PAPER,
    "Fig. 6: window sizes of Compound and CUBIC, buffer 15 packets, RTT 200 ms",
    "In a small buffer CUBIC is still unfair to other CUBIC flows and to Compound flows, although it "
    "is only 20 % of the flows.",
    "≈5 s",
)
def fig6(out: Path, quick: bool) -> Outcome:
    seeds = seeds_for(quick)
    per_seed: list[dict[str, np.ndarray]] = []
    windows: list[dict[str, float]] = []
    shown = None
    for seed in seeds:
        results = simulate(dumbbell(15, 200, quick, traced_flows=60), seed=seed)
        results.save(out / f"b15-rtt200-seed{seed}", overwrite=True)
        per_seed.append(per_flow_goodput(results))
        trace = results.to_pandas("flow_trace")
        trace = trace[trace["time_s"] > results.measure_start_s]
        flows = results.to_pandas("flows")
        windows.append(
            {
                algorithm: float(
                    trace[trace["flow"].isin(flows.loc[flows["group_name"] == f"mix/{algorithm}", "flow"])][
                        "cwnd"
                    ].max()
                )
                for algorithm in ("compound", "cubic")
            }
        )
        if shown is None:
            shown = results
    figure = plot_windows(shown, out / "fig6.png")
    ratio = [g["cubic"].mean() / g["compound"].mean() for g in per_seed]
    spread = [g["cubic"].max() / g["cubic"].min() for g in per_seed]
    claims = [
        Claim(
            "CUBIC is unfair to Compound",
            "CUBIC flows take more than Compound flows despite being 20 % of them",
            f"mean goodput per CUBIC flow {listed([g['cubic'].mean() for g in per_seed], '.2f', 1e-6)} Mb/s against "
            f"{listed([g['compound'].mean() for g in per_seed], '.2f', 1e-6)} per Compound flow{seeds_note(seeds)}; "
            f"ratio {listed(ratio)} (criterion: at least 1.1 in every seed)",
            bool(all(r >= 1.1 for r in ratio)),
        ),
        Claim(
            "CUBIC is unfair to other CUBIC flows",
            "unequal shares among the CUBIC flows",
            f"largest/smallest CUBIC goodput {listed(spread, '.1f')}, Jain's index among CUBIC flows "
            f"{listed([jain_index(g['cubic']) for g in per_seed])} (Compound flows: "
            f"{listed([jain_index(g['compound']) for g in per_seed])}){seeds_note(seeds)} (criterion: the best CUBIC "
            "flow gets at least twice the worst in every seed)",
            bool(all(s >= 2.0 for s in spread)),
        ),
    ]
    text = (
        f"Largest window in the measurement window: Compound {listed([w['compound'] for w in windows], '.0f')}, "
        f"CUBIC {listed([w['cubic'] for w in windows], '.0f')} packets{seeds_note(seeds)} (the paper's axis "
        "reaches 800; the fair share of the 1667-packet pipe is 28 packets per flow)."
    )
    data = {
        "seeds": list(seeds),
        "goodput_bps": [{k: v.tolist() for k, v in g.items()} for g in per_seed],
        "largest_window_packets": windows,
    }
    return Outcome(claims, [figure], note(quick, seeds, text), data)
