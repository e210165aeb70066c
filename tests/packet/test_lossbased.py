"""Loss-based high-speed TCPs and the general AIMD law on the dumbbell: CUBIC (RFC 9438),
HighSpeed TCP (RFC 3649), Scalable TCP (Kelly 2003), seed 002 Section IV-A's a·wⁿ / b·wᵐ law
with per-packet ECN, and the scenario plumbing (TOML forms, validation)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import aqmlab
import numpy as np
import pytest
from aqmlab import _engine
from aqmlab.errors import ScenarioError
from aqmlab.scenario import Scenario
from scenarios import dumbbell, random_loss

EXAMPLES = Path(__file__).parents[2] / "examples"
MSS_BITS = 1460 * 8


# --- scenario plumbing ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["cubic-red", "highspeed-droptail", "scalable-droptail", "aimd-ecn"])
def test_examples_validate_and_the_engine_accepts_them(name):
    scenario = Scenario.from_toml(EXAMPLES / f"{name}.toml")
    resolved = scenario.resolved()
    _engine.Simulation(json.dumps(resolved), 1)


def test_cc_by_name_or_with_parameters():
    by_name = Scenario.from_dict(dumbbell(tcp={"cc": "cubic"})).resolved()
    cc = by_name["topology"]["groups"][0]["traffic"]["tcp"]["cc"]
    assert cc == {"kind": "cubic", "c": 0.4, "beta": 0.7, "fast_convergence": True, "reno_friendly": True}
    with_params = Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "cubic", "c": 0.2}})).resolved()
    assert with_params["topology"]["groups"][0]["traffic"]["tcp"]["cc"]["c"] == 0.2
    for kind in ["reno", "cubic", "highspeed", "scalable", "aimd", "illinois_like", "africa_like"]:
        resolved = Scenario.from_dict(dumbbell(tcp={"cc": kind})).resolved()
        assert resolved["topology"]["groups"][0]["traffic"]["tcp"]["cc"]["kind"] == kind
        _engine.Simulation(json.dumps(resolved), 1)


def test_invalid_parameters_name_the_field():
    with pytest.raises(ScenarioError, match=r"cc.*beta"):
        Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "cubic", "beta": 1.5}}))
    with pytest.raises(ScenarioError, match="gamma"):
        Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "cubic", "gamma": 1}}))
    with pytest.raises(ScenarioError, match="high_window"):
        Scenario.from_dict(dumbbell(tcp={"cc": {"kind": "highspeed", "high_window": 10}}))
    with pytest.raises(ScenarioError, match="ecn_echo"):
        Scenario.from_dict(dumbbell(tcp={"cc": "aimd", "ecn": True}))
    # The engine checks again (resolved JSON written by hand).
    resolved = Scenario.from_dict(dumbbell(tcp={"cc": "scalable"})).resolved()
    resolved["topology"]["groups"][0]["traffic"]["tcp"]["cc"]["b"] = 2.0
    with pytest.raises(ScenarioError, match=r"cc\.b"):
        _engine.Simulation(json.dumps(resolved), 1)
    resolved = Scenario.from_dict(dumbbell(tcp={"cc": "aimd", "ecn": True, "ecn_echo": "per_packet"})).resolved()
    resolved["topology"]["groups"][0]["traffic"]["tcp"]["ecn_echo"] = "rfc3168"
    with pytest.raises(ScenarioError, match="ecn_echo"):
        _engine.Simulation(json.dumps(resolved), 1)


# --- CUBIC ------------------------------------------------------------------------------------


def _fit_cubic(t: np.ndarray, w: np.ndarray) -> tuple[float, float, float, float]:
    """Least-squares W = C (t − T)³ + W_max: linear in (C, W_max) for each inflection time T
    on a grid. Returns (C, T, W_max, rms)."""
    best = None
    for inflection in np.linspace(t[0] - 2.0, t[-1] + 8.0, 2001):
        design = np.stack([(t - inflection) ** 3, np.ones_like(t)], axis=1)
        coef, *_ = np.linalg.lstsq(design, w, rcond=None)
        residual = float(((design @ coef - w) ** 2).sum())
        if best is None or residual < best[0]:
            best = (residual, inflection, coef[0], coef[1])
    residual, inflection, c, w_max = best
    return c, inflection, w_max, math.sqrt(residual / len(t))


def test_cubic_window_follows_the_cubic_curve_between_losses():
    """One CUBIC flow, 20 Mb/s, RTT 100 ms, DropTail 100 packets: between losses the traced
    cwnd is fitted by C (t − K)³ + W_max (RFC 9438 Figure 1; seed 004 eq. (1)) with C = 0.4,
    W_max = the window at the loss (lowered by (1 + β)/2 under fast convergence, RFC 9438
    Section 4.7) and K = cbrt((W_max − cwnd_epoch)/C) (RFC 9438 Figure 2; seed 004 eq. (2)).
    initial_ssthresh keeps slow start from overshooting into a long NewReno recovery."""
    scenario = dumbbell(
        flows=1,
        duration="60s",
        **{"rate": "20Mbps", "delay": "40ms", "rtt": "100ms", "access_rate": "1Gbps"},
        queue={"kind": "drop_tail", "limit": "100p"},
        # Slow-but-Steady: with the Impatient timer a window of 3+ losses ends in a timeout,
        # which is NewReno's recovery, not CUBIC's window law (the subject here).
        tcp={"cc": "cubic", "initial_ssthresh": 150, "partial_ack_timer": "slow_but_steady"},
        start={"kind": "fixed", "at": "0s"},
    )
    trace = aqmlab.simulate(scenario, seed=1).flow_trace.to_pandas()
    t, w = trace["time_s"].to_numpy(), trace["cwnd"].to_numpy()
    drops = np.where(np.diff(w) < -5)[0]
    assert len(drops) >= 6
    w_max_prev = None
    epochs = 0
    for start, end in itertools.pairwise(drops):
        w_loss, cwnd_epoch = w[start], w[start + 1]
        assert cwnd_epoch == pytest.approx(0.7 * w_loss, rel=0.01), "β_cubic = 0.7"
        w_max = 0.85 * w_loss if w_max_prev is not None and w_loss < w_max_prev else w_loss
        w_max_prev = w_max
        span = np.arange(start + 1, end + 1)
        growing = span[w[span] > cwnd_epoch]
        epoch_start = t[growing[0] - 1]
        c, inflection, fitted_w_max, rms = _fit_cubic(t[growing], w[growing])
        k = math.cbrt((w_max - cwnd_epoch) / 0.4)
        # Fitted C: 0.398 in the short epochs, 0.373 in the long ones, where the smoothed RTT
        # in the target W(t + RTT) rises from 129 to 152 ms as the queue fills (with the
        # RFC 7323 Appendix G smoothing of per-ACK samples; 0.396-0.401 with per-ACK gains).
        assert c == pytest.approx(0.4, rel=0.08), f"epoch at {epoch_start:.2f} s"
        assert fitted_w_max == pytest.approx(w_max, rel=0.01)
        # Within about one RTT (129-152 ms here): the target W(t + RTT) runs ahead of t.
        assert inflection - epoch_start == pytest.approx(k, abs=0.2)
        assert rms < 0.5, "segments"
        epochs += 1
    assert epochs >= 5


# --- HighSpeed TCP ----------------------------------------------------------------------------


def test_highspeed_window_against_reno_follows_the_rfc_3649_response_function():
    """5 HighSpeed and 5 Reno flows, RTT 100 ms, each packet dropped with p = 1e-4 on an
    uncongested 2 Gb/s link. RFC 3649 Section 5: w = 0.12/p^0.835 (262 segments) against
    Reno's 1.22/sqrt(p) (122): ratio 2.15 (measured: 2.15 at 200 s)."""
    p = 1e-4
    scenario = random_loss(p, flows=5, duration="150s", measure_start="30s", rate="2Gbps", tcp={"cc": "highspeed"})
    group = scenario["topology"]["groups"][0]
    group["access_queue"] = {"kind": "drop_tail", "limit": "100000p"}
    scenario["topology"]["groups"].append({**group, "name": "reno", "tcp": {"cc": "reno"}})
    flows = aqmlab.simulate(scenario, seed=1).flows.to_pandas()
    window = flows.groupby("group_name")["goodput_bps"].mean() / (MSS_BITS / 0.1)
    highspeed, reno = 0.12 / p**0.835, 1.22 / math.sqrt(p)
    assert window["g"] == pytest.approx(highspeed, rel=0.15)
    assert window["reno"] == pytest.approx(reno, rel=0.15)
    assert window["g"] / window["reno"] == pytest.approx(highspeed / reno, rel=0.12)


# --- Scalable TCP -----------------------------------------------------------------------------


def _regrowth_round_trips(rate: str, bdp: int) -> tuple[list[float], float]:
    scenario = dumbbell(
        flows=1,
        duration="50s",
        rate=rate,
        delay="40ms",
        rtt="100ms",
        access_rate="10Gbps",
        queue={"kind": "drop_tail", "limit": f"{bdp}p"},
        # Slow-but-Steady: keeps NewReno's timeouts (Impatient timer) out of the window law.
        tcp={"cc": "scalable", "initial_ssthresh": int(0.9 * bdp), "partial_ack_timer": "slow_but_steady"},
        start={"kind": "fixed", "at": "0s"},
    )
    scenario["topology"]["groups"][0]["access_queue"] = {"kind": "drop_tail", "limit": "100000p"}
    trace = aqmlab.simulate(scenario, seed=1).flow_trace.to_pandas()
    t, w, srtt = (trace[c].to_numpy() for c in ("time_s", "cwnd", "srtt_s"))
    rounds = []
    for drop in np.where(np.diff(w) < -1)[0]:
        w_loss, after = w[drop], w[drop + 1]
        assert after == pytest.approx(0.875 * w_loss, rel=0.01), "b = 0.125"
        i = drop + 1
        while i < len(w) and w[i] <= after:  # loss recovery: cwnd held at (1 − b) w
            i += 1
        j = i
        while j < len(w) and w[j - 1] <= w[j] < w_loss:
            j += 1
        if j < len(w) and w[j] >= w_loss:
            rounds.append((t[j] - t[i - 1]) / srtt[i:j].mean())
    return rounds, float(w.max())


def test_scalable_regains_its_window_in_the_same_number_of_round_trips_at_any_size():
    """One Scalable flow, RTT 100 ms, DropTail buffer of one BDP, at 40 and 160 Mb/s (loss
    windows ≈ 670 and 2700 segments): after each loss the window regains its pre-loss value in
    ln(1/0.875)/ln(1.01) = 13.4 round trips at both sizes (Reno would take w/2: 335 and 1350).
    Measured from the end of loss recovery: NewReno without SACK repairs one hole per round
    trip, and the ~0.01·w losses per episode make recovery itself grow with w."""
    small, w_small = _regrowth_round_trips("40Mbps", 333)
    large, w_large = _regrowth_round_trips("160Mbps", 1333)
    assert w_large > 3.5 * w_small
    assert small and large
    expected = math.log(1 / 0.875) / math.log(1.01)
    for rounds in small + large:
        assert rounds == pytest.approx(expected, rel=0.1)
    assert np.mean(large) == pytest.approx(np.mean(small), rel=0.05)


# --- the general law of seed 002 Section IV-A, per-packet ECN ------------------------------------


def test_general_aimd_laws_balance_increase_and_decrease_under_per_packet_marks():
    """Every packet is ECN-marked with probability p = 0.002 (random marking, no queueing);
    the receiver echoes each mark once (`ecn_echo = "per_packet"`) and the law applies a·wⁿ
    per unmarked ACK and b·wᵐ per marked ACK (seed 002 Section IV-A, eq. (31)). In steady
    state the mean change per ACK is zero: (1 − p)·E_ack[a wⁿ] = p·E_ack[b wᵐ], with ACKs at
    rate w/RTT, so E_ack[f(w)] = E_t[w f(w)]/E_t[w] over the time-sampled trace:
    - n = 0, m = 1 (Scalable-like): E_t[w²]/E_t[w] = a(1 − p)/(b p), the fluid equilibrium;
    - n = −1, m = 1 (Reno's 1/w, w/2) and seed 000 Table I's Illinois-like α_max/w, β_min·w:
      sqrt(E_t[w²]) = sqrt(a(1 − p)/(b p)).
    No packet is lost: the windows are set by the marks alone."""
    p = 0.002
    laws = {
        "mimd": ({"kind": "aimd", "a": 0.05, "n": 0, "b": 0.125, "m": 1}, 8),
        "reno_like": ({"kind": "aimd", "a": 1, "n": -1, "b": 0.5, "m": 1}, 20),
        "illinois_like": ({"kind": "illinois_like"}, 8),
    }
    start = {"kind": "uniform", "low": "0s", "high": "1s"}
    base = random_loss(p, flows=1, duration="80s", ecn=True, start=start, trace_flows=1000)
    template = base["topology"]["groups"][0]
    base["topology"]["groups"] = [
        {
            **template,
            "name": name,
            "count": count,
            "tcp": {"cc": cc, "ecn": True, "ecn_echo": "per_packet"},
            "access_queue": {"kind": "drop_tail", "limit": "100000p"},
        }
        for name, (cc, count) in laws.items()
    ]
    results = aqmlab.simulate(base, seed=2)
    flows = results.flows.to_pandas()
    assert flows["retransmits"].sum() == 0
    assert results.link_samples()["drops"].sum() == 0
    trace = results.flow_trace.to_pandas()
    trace = trace[trace["time_s"] > 20].merge(flows[["flow", "group_name"]], on="flow")
    measured = {}
    for name, group in trace.groupby("group_name"):
        w = group["cwnd"].to_numpy()
        measured[name] = ((w**2).sum() / w.sum(), math.sqrt((w**2).mean()))
    assert flows.groupby("group_name")["ecn_reductions"].sum().min() > 900
    assert measured["mimd"][0] == pytest.approx(0.05 * (1 - p) / (0.125 * p), rel=0.05)
    assert measured["reno_like"][1] == pytest.approx(math.sqrt(2 * (1 - p) / p), rel=0.06)
    assert measured["illinois_like"][1] == pytest.approx(math.sqrt(10 * (1 - p) / (0.125 * p)), rel=0.05)
