"""When does a packet run oscillate? The one criterion of packet stability charts (issue 20).

**Per run.** The signal is the queue the policy is judged by, over the analysis window
(from `analysis_start_s` to the end of the run):

* RED (with or without averaging): RED's average queue as traced (the EWMA with ns-2's
  automatic weight; traced also when RED decides on the instantaneous queue, where it acts as
  a low-pass observer of the queue with a time constant of ≈ 1 s at 100 Mb/s);
* any other policy (seed 000's threshold policy): the queue, smoothed by the same kind of EWMA
  with a time constant of `SMOOTHING_S` = 1 s, so that the two are read alike.

The band is what the policy tries to hold the signal in: max_th − min_th for RED (the region
where it controls the drop rate), q_th for the threshold policy (the queue lives in [0, q_th]).
The swing is the distance between the signal's 5th and 95th percentiles, and the **relative
swing** r = swing / band. The cut-offs are stated per signal (`CUTOFFS`; ours, the paper gives
no number), and validated on synthetic signals of known amplitude and period
(tests/reproduce/test_oscillation_detector.py):

* **RED's average** (`"red-average"`): oscillating when r ≥ 1 (the average sweeps the whole
  band: seed 000's "limit-cycle oscillations", Figs. 6-7, where it runs from below min_th to
  above max_th; a sinusoid does so from an amplitude of 0.51 band), stable when r ≤ 1/2 (within
  half the band, as in seed 000's stable cases: swing of 18-24 packets in the 50-packet band at
  RTT 5-50 ms, benchmarks/fluid-vs-packet; a sinusoid up to an amplitude of 0.25 band);
* **the threshold policy's smoothed queue** (`"smoothed-queue"`): the queue lives in
  [0, q_th], so its smoothed swing can never exceed the band, and a first-order filter of time
  constant T passes a full-band cycle (the queue alternately empty and at q_th) of period P with
  a swing of about q_th·tanh(P/4T): r ≥ 1 is unreachable (the cut-off used before issue 26,
  under which no threshold run could oscillate). Oscillating when r ≥ 1/2: a full-band cycle of
  period ≥ 4T·atanh(1/2) ≈ 2.2 s (the packet cycles seen under RED are 2-4 s); stable when
  r ≤ 1/4: a full-band flicker faster than ≈ 1 s, or a queue held within a quarter of q_th.

A run between the two cut-offs is **undecided**. On packet runs far from the fluid Hopf
boundary (tests/reproduce/test_oscillation_packets.py, seed 000's dumbbell, seed 1, measured on
2026-11-27): RED with averaging r = 0.40 at RTT 10 ms (stable) and 1.50 at 300 ms (oscillating);
without averaging 0.05 at 20 ms and 0.31 at 800 ms (stable: the packet queue stays within the
band where the fluid model cycles); the threshold policy at τ = 0.1 s 0.249 at q_th = 20 (stable,
at the cut-off) and 0.37 at q_th = 800 (undecided). The dominant period (autocorrelation of the signal,
`aqmlab.analysis.metrics.autocorrelation_period`), the share of the signal's variance at its
periodogram peak and the smallest 1 s utilisation are measured and recorded with every run but
do not decide: the packet queue has a regular small cycle of ≈ 0.9 s at every RTT
(benchmarks/fluid-vs-packet), so a high spectral share alone does not mean instability, and
utilisation falls only once the oscillation empties the queue, well past its onset.

**Over seeds.** A probe (one parameter point) is run with n seeds. Its verdict is *stable* or
*oscillating* only when every seed classifies the run so; any disagreement or undecided run
makes the probe *undecided*. The confidence of a unanimous verdict is that of the exact
one-sided binomial (sign) test of "a seed is at least as likely to give the other answer":
the probability of n unanimous seeds under it is at most 2⁻ⁿ, so the confidence is 1 − 2⁻ⁿ
(87.5 % with 3 seeds, 75 % with 2). The Clopper-Pearson interval of the share of oscillating
seeds is recorded beside it. We use the classifications, not a t-interval on r: with 2-3
seeds a Student-t interval is 4.3-12.7 standard errors wide, r is bounded below by the noise
floor and skewed, and the bisection needs a yes/no answer per probe.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from scipy.stats import beta

__all__ = [
    "OSCILLATING_AT",
    "STABLE_AT",
    "SMOOTHING_S",
    "RunMeasures",
    "SeedVerdict",
    "classify",
    "combine",
    "measure_run",
    "measure_signal",
]

#: r at or above which a run of RED oscillates (its average sweeps the whole band).
OSCILLATING_AT = 1.0
#: r at or below which a run of RED is stable (its average stays within half the band).
STABLE_AT = 0.5
#: (stable at or below, oscillating at or above) per signal (module docstring).
CUTOFFS = {"red-average": (STABLE_AT, OSCILLATING_AT), "smoothed-queue": (0.25, 0.5)}
#: Time constant of the EWMA that smooths the queue of a policy without an average, s.
SMOOTHING_S = 1.0
#: Bin of the utilisation measure, s (seed 000 Fig. 8b).
UTILISATION_BIN_S = 1.0

VERDICTS = ("stable", "oscillating", "undecided")


@dataclass(frozen=True)
class RunMeasures:
    """What the criterion reads from one run (all over the analysis window)."""

    relative_swing: float  # r = (95th − 5th percentile of the signal) / band
    swing: float  # packets
    band: float  # packets
    signal_mean: float  # packets
    queue_mean: float  # packets
    period_s: float  # dominant period by autocorrelation (nan: none)
    period_peak: float  # autocorrelation at that lag (≈ 1 for a regular cycle)
    spectral_share: float  # share of the variance at the periodogram peak (± one bin)
    utilisation_min: float  # smallest 1 s utilisation, fraction
    utilisation_mean: float  # fraction
    signal: str = "red-average"  # which signal, so which cut-offs (CUTOFFS)

    @property
    def verdict(self) -> str:
        return classify(self.relative_swing, self.signal)

    def row(self) -> dict[str, float | str]:
        return {**asdict(self), "verdict": self.verdict}


def classify(relative_swing: float, signal: str = "red-average") -> str:
    """'stable', 'oscillating' or 'undecided' for one run, with the cut-offs of its signal."""
    if signal not in CUTOFFS:
        raise ValueError(f"signal = {signal!r}; allowed: {', '.join(CUTOFFS)}")
    stable_at, oscillating_at = CUTOFFS[signal]
    if not np.isfinite(relative_swing):
        return "undecided"
    if relative_swing >= oscillating_at:
        return "oscillating"
    if relative_swing <= stable_at:
        return "stable"
    return "undecided"


def ewma(values: np.ndarray, interval_s: float, time_constant_s: float) -> np.ndarray:
    """First-order low-pass filter y ← y + (1 − e^(−Δ/T)) (x − y), started at the first value."""
    from scipy.signal import lfilter

    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return values
    weight = 1.0 - np.exp(-interval_s / time_constant_s)
    smoothed, _ = lfilter([weight], [1.0, weight - 1.0], values, zi=[(1.0 - weight) * values[0]])
    return smoothed


def measure_signal(
    signal: np.ndarray,
    band: float,
    interval_s: float,
    *,
    queue: np.ndarray | None = None,
    utilisation=None,
    kind: str = "red-average",
) -> RunMeasures:
    """The criterion's measures of a sampled signal (packets, every `interval_s`) against
    `band` (packets); `utilisation`: the 1 s utilisation bins of the window (fractions);
    `kind`: which signal it is ("red-average" or "smoothed-queue", whose cut-offs differ)."""
    if kind not in CUTOFFS:
        raise ValueError(f"kind = {kind!r}; allowed: {', '.join(CUTOFFS)}")
    from aqmlab.analysis.metrics import autocorrelation_period, oscillation_share

    if not band > 0:
        raise ValueError(f"band = {band!r}; allowed: a positive number of packets")
    signal = np.asarray(signal, dtype=float)
    finite = signal[np.isfinite(signal)]
    if finite.size < 16:
        raise ValueError(f"the analysis window holds {finite.size} samples; allowed: at least 16 (a longer run)")
    low, high = np.percentile(finite, [5, 95])
    period, peak = autocorrelation_period(finite, interval_s)
    share, _ = oscillation_share(finite, interval_s)
    bins = np.asarray(utilisation if utilisation is not None else [np.nan], dtype=float)
    return RunMeasures(
        relative_swing=float((high - low) / band),
        swing=float(high - low),
        band=float(band),
        signal_mean=float(finite.mean()),
        queue_mean=float(np.mean(queue)) if queue is not None else float("nan"),
        period_s=float(period),
        period_peak=float(peak),
        spectral_share=float(share),
        utilisation_min=float(np.min(bins)),
        utilisation_mean=float(np.mean(bins)),
        signal=kind,
    )


def policy_band(queue: dict) -> tuple[float, bool]:
    """(band in packets, whether the policy traces an average) from a resolved queue config."""
    if "min_th" in queue and "max_th" in queue:
        return float(queue["max_th"]) - float(queue["min_th"]), True
    if "q_th" in queue:
        return float(queue["q_th"]), False
    raise ValueError(
        f"queue kind {queue.get('kind')!r}: the oscillation criterion needs a band; allowed: RED "
        "(min_th, max_th) or the threshold policy (q_th)"
    )


def measure_run(results, analysis_start_s: float) -> RunMeasures:
    """The criterion's measures of a finished run (its main link), after `analysis_start_s`."""
    from aqmlab.plots import binned_utilisation

    resolved = results.scenario.resolved()
    interval = resolved["trace"]["interval_ns"] / 1e9
    queue_config = results.scenario.model_dump(mode="json")["topology"]["bottleneck"]["queue"]
    band, has_average = policy_band(queue_config)
    samples = results.link_samples()
    queue = samples["queue_packets"]
    signal = samples["average_queue"] if has_average else ewma(queue, interval, SMOOTHING_S)
    window = samples["time_s"] > analysis_start_s
    times, utilisation = binned_utilisation(results, bin_s=UTILISATION_BIN_S)
    return measure_signal(
        signal[window],
        band,
        interval,
        queue=queue[window],
        utilisation=utilisation[times > analysis_start_s + UTILISATION_BIN_S],
        kind="red-average" if has_average else "smoothed-queue",
    )


@dataclass(frozen=True)
class SeedVerdict:
    """A probe's verdict over its seeds (module docstring)."""

    verdict: str
    seeds: int
    oscillating: int
    stable: int
    undecided: int
    confidence: float  # 1 − 2⁻ⁿ for a unanimous verdict, 0 otherwise
    share_low: float  # Clopper-Pearson 95 % interval of the share of oscillating seeds
    share_high: float

    def row(self) -> dict:
        return asdict(self)


def clopper_pearson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Exact binomial interval of a proportion (Clopper and Pearson 1934)."""
    tail = (1.0 - level) / 2.0
    low = 0.0 if successes == 0 else float(beta.ppf(tail, successes, trials - successes + 1))
    high = 1.0 if successes == trials else float(beta.ppf(1.0 - tail, successes + 1, trials - successes))
    return low, high


def combine(verdicts: list[str]) -> SeedVerdict:
    """The probe's verdict from its seeds' classifications: unanimous or undecided."""
    if not verdicts:
        raise ValueError("verdicts: allowed: at least one seed's classification")
    unknown = sorted(set(verdicts) - set(VERDICTS))
    if unknown:
        raise ValueError(f"verdicts {unknown}; allowed: {', '.join(VERDICTS)}")
    n = len(verdicts)
    counts = {name: verdicts.count(name) for name in VERDICTS}
    unanimous = next((name for name in ("stable", "oscillating") if counts[name] == n), None)
    low, high = clopper_pearson(counts["oscillating"], n)
    return SeedVerdict(
        verdict=unanimous or "undecided",
        seeds=n,
        oscillating=counts["oscillating"],
        stable=counts["stable"],
        undecided=counts["undecided"],
        confidence=1.0 - 0.5**n if unanimous else 0.0,
        share_low=low,
        share_high=high,
    )
