"""Seed 003 Section IV: configuring the estimator of the average queue — the averaging
interval I and sampling interval δ, the weight w = 1 − a^(δ/I) (eqs. (11)-(12), a = 0.1), and
the TCP period P = E[S] (eq. (13)) that Section IV-B recommends as I.

What the paper states: (IV-B) with I = P "the moving average ... is close to the long-term
average"; with I < P "the average follows closer the instantaneous queue size"; with I > P
"the moving average has small variations"; P is "the average TCP period E[S]" of eq. (13)
given R and p. (IV-C) sampling "once every RTT": "more frequent sampling (at the same
averaging interval) would not bring significantly more accuracy ... less frequent sampling
... would diminish the accuracy of the average".

How we test it: long-lived flows under random drop with a fixed p (Section II-B's set-up,
τ = c/n = 75 kb/s, the middle p of `seed003-fig4-5`), at 1.5 Mb/s (20 flows) and 45 Mb/s
(600 flows). The EWMA of Section IV-A is applied to the traced queue
(`design.averaging.sampled_average`) and judged by its RMS deviation from the run's
long-term mean queue, as a share of that mean (`seed003_measures.average_deviation`). P is
eq. (13) at the measured drop rate and mean RTT; the flows' own period is their run time over
their loss indications (fast recoveries plus timeouts). "Close" is read as 10 %, as for every
"close" of seed 003.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aqmlab.design import period
from aqmlab.design.validation import engine_tcp
from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Above, AtMost, Between, Check, Claim, Run
from aqmlab.reproduce.seed003_measures import average_deviation, loss_period
from aqmlab.reproduce.seed003_queue_law import PACKET_BYTES, law_of, queue_probabilities, scenario

PAPER = "seed 003 (A study of AQM: RED as a feedback system)"
CLOSE = 0.10
#: (run, rate, flows, trace interval): the finest sampling is the trace's.
CASES = (("c1500k", 1.5e6, 20, "1ms"), ("c45000k", 45e6, 600, "10ms"))


def cases(quick: bool):
    return CASES[:1] if quick else CASES


def build(rate: float, flows: int, trace: str, quick: bool) -> dict[str, Any]:
    built = scenario(rate, flows, queue_probabilities(law_of(rate, flows))[1], quick)
    if not quick and rate > 10e6:
        built["duration"], built["measure_start"] = 60.0, 20.0  # 600 flows average fast; wall time
    built["trace"]["interval"] = trace
    return built


def measures(results) -> dict[str, float]:
    samples = results.link_samples()
    window = samples["time_s"] > results.measure_start_s
    time_s, queue = samples["time_s"][window], samples["queue_packets"][window]
    flows = results.flows
    rtt = float(np.mean(flows.column("rtt_mean_s").to_numpy()))
    p = results.summary()["loss_percent"] / 100.0
    tcp_period = float(period(p, rtt, engine_tcp(PACKET_BYTES)))  # eq. (13)
    active = results.end_s - flows.column("start_s").to_numpy()
    finest = float(np.median(np.diff(time_s)))
    out = {
        "rtt": rtt,
        "period": tcp_period,
        "measured_period": loss_period(
            flows.column("fast_recoveries").to_numpy(), flows.column("timeouts").to_numpy(), active
        ),
    }
    for label, interval in (("quarter", tcp_period / 4), ("period", tcp_period), ("four", 4 * tcp_period)):
        out[f"deviation_{label}"] = average_deviation(time_s, queue, sampling_s=rtt, interval_s=interval)
    for label, sampling in (("finest", finest), ("four_rtt", 4 * rtt)):
        out[f"deviation_sampled_{label}"] = average_deviation(time_s, queue, sampling_s=sampling, interval_s=tcp_period)
    return out


def runs(quick: bool) -> list[Run]:
    return [Run(name, build(rate, flows, trace, quick), measures) for name, rate, flows, trace in cases(quick)]


def derive(measured: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    out = {}
    for name, *_ in cases(quick):
        m = measured[name]
        out[f"{name}.period_error"] = m["measured_period"] / m["period"] - 1.0
        out[f"{name}.shorter_over_p"] = m["deviation_quarter"] / m["deviation_period"]
        out[f"{name}.p_over_longer"] = m["deviation_period"] / m["deviation_four"]
        out[f"{name}.rtt_over_finest"] = m["deviation_period"] / m["deviation_sampled_finest"] - 1.0
        out[f"{name}.four_rtt_over_rtt"] = m["deviation_sampled_four_rtt"] / m["deviation_period"]
    return out


def label(name: str) -> str:
    rate, flows = next((r, n) for c, r, n, _ in CASES if c == name)
    return f"c = {rate / 1e6:g} Mb/s, n = {flows}"


def claims() -> tuple[Claim, ...]:
    out = []
    for name, *_ in CASES:
        full_only = name != CASES[0][0]
        where = label(name)
        out += [
            Claim(
                f"{name}-period-eq13",
                f"{where}: aqmlab's check of the method: the flows' measured period between loss indications "
                "against E[S] of eq. (13)",
                '"we can compute P as the average TCP period E[S]" (eq. (13)): a method, no result is stated',
                "Section IV-B, eq. (13)",
                (Check(f"{name}.period_error", Between(-CLOSE, CLOSE), "(measured period − E[S])/E[S]"),),
                why='"close" read as 10 %; each timeout counts as an indication, so backed-off sequences shorten '
                "the measured period slightly",
                shows=(
                    (f"{name}.period", "E[S]", "s"),
                    (f"{name}.measured_period", "measured", "s"),
                    (f"{name}.rtt", "mean RTT", "s"),
                ),
                full_only=full_only,
                kind="ours",
            ),
            Claim(
                f"{name}-interval-p-close",
                f"{where}: with I = P the moving average is close to the long-term average",
                '"if we take the averaging interval ... I = P, then the moving average ... is close to the '
                'long-term average"',
                "Section IV-B",
                (Check(f"{name}.deviation_period", AtMost(CLOSE), "RMS deviation from the long-term mean / mean"),),
                why='"close" read as an RMS deviation of at most 10 % of the long-term mean (δ = one RTT)',
                full_only=full_only,
            ),
            Claim(
                f"{name}-interval-ordering",
                f"{where}: a shorter interval follows the queue more, a longer one varies less",
                '"For I < P, the average follows closer the instantaneous queue size. For I > P, the moving '
                'average has small variations"',
                "Section IV-B",
                (
                    Check(f"{name}.shorter_over_p", Above(1.0), "deviation with I = P/4 over I = P"),
                    Check(f"{name}.p_over_longer", Above(1.0), "deviation with I = P over I = 4P"),
                ),
                why="exact reading: strictly more deviation with the shorter interval, less with the longer",
                full_only=full_only,
            ),
            Claim(
                f"{name}-sampling-once-per-rtt",
                f"{where}: sampling once per RTT is as accurate as sampling more often, and sampling less often is "
                "less accurate",
                '"More frequent sampling ... would not bring significantly more accuracy ... Less frequent sampling '
                '... would diminish the accuracy of the average"',
                "Section IV-C",
                (
                    Check(f"{name}.rtt_over_finest", AtMost(CLOSE), "deviation with δ = RTT over the finest − 1"),
                    Check(f"{name}.four_rtt_over_rtt", Above(1.0), "deviation with δ = 4 RTT over δ = RTT"),
                ),
                why='"not significantly more" read as at most 10 % less deviation with the finest sampling (the '
                'trace\'s: 1 ms at 1.5 Mb/s, 10 ms at 45 Mb/s); "diminish" as strictly more deviation at δ = 4 RTT; '
                "I = P throughout",
                full_only=full_only,
            ),
        ]
    return tuple(out)


declare(
    "seed003-section4",
    runs=runs,
    derive=derive,
    notes=lambda quick: (
        (
            "1.5 Mb/s, 20 flows: 100 s runs over [50, 100] s (quick)"
            if quick
            else "1.5 Mb/s, 20 flows: 300 s runs over [50, 300] s; 45 Mb/s, 600 flows: 60 s runs over [20, 60] s"
        )
        + "; a = 0.1 (Section IV-A's example); random drop with the middle p of seed003-fig4-5."
    ),
)
