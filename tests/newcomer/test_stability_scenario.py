"""`aqmlab stability SCENARIO.toml` and `aqmlab.stability.of_scenario` (issue 30 item 1): the
packet scenario → fluid model mapping against hand-computed values, the verdicts of seed 000's
Fig. 6 examples, the errors for scenarios without a fluid model, and `--verify` against a
packet run classified by the packet charts' detector."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from aqmlab.analysis.fluid_mapping import NoFluidModel, map_scenario, physical_of
from aqmlab.cli import app
from aqmlab.scenario import load_scenario
from aqmlab.stability import of_scenario
from rich.cells import cell_len
from typer.testing import CliRunner

ROOT = Path(__file__).parents[2]
runner = CliRunner()


def red_dumbbell(**queue) -> dict:
    """30 Reno flows, 30 Mb/s, 1500 B, RTT 50 ms, RED(20, 80, 0.05) with w_q = 0.002, 300 p."""
    return {
        "name": "hand",
        "duration": "20s",
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {
                "rate": "30Mbps",
                "delay": "5ms",
                "queue": {"kind": "red", "limit": "300p", "min_th": 20, "max_th": 80, "max_p": 0.05, "q_weight": 0.002}
                | queue,
            },
            "groups": [
                {"name": "a", "count": 30, "rtt": "50ms", "access_rate": "100Mbps", "tcp": {"cc": "reno"}},
            ],
        },
    }


def test_the_fig6_mapping_matches_hand_computed_values():
    # 100 Mb/s of 1500 B packets: C = 10^8 / 12 000 = 8333.3 packets/s; 60 flows.
    result = of_scenario(ROOT / "examples" / "seed000-fig6-rtt200.toml", boundaries=False)
    p = result.mapping.params
    assert result.mapping.model == "ctcp-red"
    assert p["C"] == pytest.approx(8333.333333 / 60, rel=1e-9)  # 138.89 packets/s per flow
    assert p["b_min"] == pytest.approx(50 / 60) and p["b_max"] == pytest.approx(100 / 60)
    assert p["buffer"] == pytest.approx(2084 / 60) and p["p_max"] == 0.1
    # ns-2 q_weight = -1: rtt = max(3 (2 ms + 1/C), 0.1 s) = 0.1 s, w_q = 1 - exp(-1/(10 · 0.1 · C)),
    # K = -C ln(1 - w_q) = 1/s exactly, γ = K / C̃ = 60/8333.3 = 0.0072.
    assert p["gamma"] == pytest.approx(0.0072, rel=1e-9)
    # seed 000's reading (remark (iii) below eq. 9): τ is the propagation round trip, 200 ms.
    assert p["tau"] == 0.2 and result.tau_reading == "propagation"
    # the other reading: τ = 200 ms + 12 000 b at 2 Mb/s (6 ms) + at 100 Mb/s (0.12 ms) + N q*/C.
    closed = of_scenario(ROOT / "examples" / "seed000-fig6-rtt200.toml", tau="closed", boundaries=False)
    queueing = 60 * closed.equilibrium["q"] / (1e8 / 12000)
    assert closed.mapping.params["tau"] == pytest.approx(0.2 + 0.006 + 0.00012 + queueing, rel=1e-6)
    assert 0 < queueing < 0.02
    # the engine's Compound TCP is Reno below low_window = 41: w* ≈ 30 picks the Reno law
    assert result.mapping.options == {"tcp": "reno"} and result.equilibrium["w"] < 41
    assert any("low_window" in note for note in result.mapping.notes)


def test_a_hand_written_red_scenario_maps_as_computed_by_hand():
    mapping = map_scenario(red_dumbbell())
    p = mapping.params
    capacity = 30e6 / (8 * 1500)  # 2500 packets/s
    assert mapping.model == "ctcp-red" and mapping.options == {"tcp": "reno"}
    assert p["C"] == pytest.approx(2500 / 30)
    assert p["b_min"] == pytest.approx(20 / 30) and p["b_max"] == pytest.approx(80 / 30)
    assert p["buffer"] == pytest.approx(10.0) and p["p_max"] == 0.05
    assert p["gamma"] == pytest.approx(-capacity * math.log(1 - 0.002) / (2500 / 30), rel=1e-12)  # 0.06006
    assert p["gamma"] == pytest.approx(0.0600601, rel=1e-5)
    assert mapping.physical.fixed_delay_s == pytest.approx(0.05 + 12000 / 100e6 + 12000 / 30e6)
    instantaneous = map_scenario(red_dumbbell(instantaneous=True))
    assert instantaneous.model == "ctcp-red-noavg" and "gamma" not in instantaneous.params


def test_the_threshold_policy_keeps_q_th_a_whole_queue_count():
    mapping = map_scenario(ROOT / "examples" / "seed000-fig15-threshold-rtt200.toml")
    assert mapping.model == "ctcp-threshold"
    assert mapping.params["q_th"] == 15.0  # not 15/60: eq. (36)'s M/M/1 exponent
    assert mapping.params["C"] == pytest.approx(8333.333333 / 60)


def reno_red_equilibrium(per_flow_capacity, tau, b_min, b_max, p_max):
    """By hand: Reno (i = 1/w, d = w/2) in seed 000 eq. (10), i(w) C̃τ = d(w)(w − C̃τ), is the cubic
    w³ − a w² − 2a = 0 with a = C̃τ; p* = 1 − a/w*, r* = q* = b + p*/ρ (eq. 7), ρ = p̄/(b̄ − b)."""
    a = per_flow_capacity * tau
    w = max(root.real for root in np.roots([1.0, -a, 0.0, -2.0 * a]) if abs(root.imag) < 1e-12)
    p = 1.0 - a / w
    return w, b_min + p / (p_max / (b_max - b_min))


def test_fig6_verdicts_follow_seed_000s_reading_of_tau():
    c, b_min, b_max = 1e8 / 12000 / 60, 50 / 60, 100 / 60
    short = of_scenario("seed000-fig6-rtt10", boundaries=False)
    long = of_scenario("seed000-fig6-rtt200", boundaries=False)
    assert short.mapping.params["tau"] == 0.01 and long.mapping.params["tau"] == 0.2
    for result, tau in ((short, 0.01), (long, 0.2)):
        w, q = reno_red_equilibrium(c, tau, b_min, b_max, 0.1)
        assert result.equilibrium["w"] == pytest.approx(w, rel=1e-9)
        assert (
            result.equilibrium["q"] == pytest.approx(q, rel=1e-9) and result.equilibrium["r"] == result.equilibrium["q"]
        )
    assert short.equilibrium["w"] == pytest.approx(2.04992, rel=1e-5)  # p* = 0.3225, N r* = 211 packets
    assert short.verdict == "stable" and long.verdict == "unstable"
    # the Hopf point in τ of the mapped model (Reno law) is 10.39 ms: RTT 10 ms lies below it by 4 %,
    # and its margin is small (0.028/s, the growth rate of the slowest mode).
    assert short.hopf_tau == pytest.approx(0.010389, rel=1e-4) and long.hopf_tau == short.hopf_tau
    assert 0.02 < short.margin < 0.04 and long.margin < -4
    # the equilibrium lies above max_th (the affine law (7) extended), and the output says so
    assert any("above max_th = 100" in note for note in short.mapping.notes)
    # the other reading: τ = 10 ms + 6.12 ms serialisation + 11.8 ms queueing = 28 ms → unstable
    closed = of_scenario("seed000-fig6-rtt10", tau="closed", boundaries=False)
    assert closed.verdict == "unstable" and closed.mapping.params["tau"] == pytest.approx(0.02797, abs=1e-4)
    with pytest.raises(ValueError, match="tau = 'queueing'; allowed: 'propagation'"):
        of_scenario("seed000-fig6-rtt10", tau="queueing", boundaries=False)


def test_the_cli_says_stable_at_10_ms_and_unstable_at_200_ms_with_the_mapping():
    for name, verdict in (("seed000-fig6-rtt10", "verdict: stable"), ("seed000-fig6-rtt200", "verdict: unstable")):
        result = runner.invoke(
            app,
            ["stability", str(ROOT / "examples" / f"{name}.toml"), "--no-boundaries"],
            terminal_width=80,
            env={"COLUMNS": "80"},
        )
        assert result.exit_code == 0, result.output
        text = " ".join(result.output.split())
        assert "unstable cycle" in text if verdict == "verdict: stable" else True
        assert verdict in text and "C̃ = C/N" in text and "two-way" in text and "neglected)" in text, text
    closed = runner.invoke(
        app,
        ["stability", str(ROOT / "examples" / "seed000-fig6-rtt10.toml"), "--no-boundaries", "--tau", "closed"],
        terminal_width=80,
        env={"COLUMNS": "80"},
    )
    assert closed.exit_code == 0 and "verdict: unstable" in closed.output and "neglected" not in closed.output


def test_threshold_boundaries():
    threshold = of_scenario("seed000-fig15-threshold-rtt200")
    assert threshold.verdict == "stable"
    by_knob = {b.knob: b for b in threshold.boundaries}
    assert set(by_knob) == {"rtt", "flows", "rate", "q_th"}
    q_th = by_knob["q_th"]
    assert q_th.value is not None and q_th.value > 15  # larger thresholds destabilise (seed 000 Section VI)
    assert (
        of_scenario(load_scenario("seed000-fig15-threshold-rtt200").model_copy(deep=True), boundaries=False).verdict
        == "stable"
    )
    assert "loses stability above" in q_th.sentence(True)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            {"queue": {"kind": "codel"}},
            "topology.bottleneck.queue.kind: 'codel' has no fluid model here; supported: 'red'",
        ),
        (
            {"cc": "cubic"},
            "topology.groups[0].tcp.cc: 'cubic' has no window law in the fluid models; supported: 'compound'",
        ),
        ({"queue": {"ecn": True}}, "topology.bottleneck.queue.ecn: true; supported: false"),
    ],
)
def test_a_scenario_without_a_fluid_model_names_the_field(change, field):
    data = red_dumbbell(
        **({k: v for k, v in change.get("queue", {}).items()} if "ecn" in change.get("queue", {}) else {})
    )
    if change.get("queue", {}).get("kind") == "codel":
        data["topology"]["bottleneck"]["queue"] = {"kind": "codel"}
    if "cc" in change:
        data["topology"]["groups"][0]["tcp"]["cc"] = change["cc"]
    with pytest.raises(NoFluidModel) as error:
        physical_of(data)
    assert field in str(error.value)


def test_the_cli_prints_the_mapping_and_the_verdict():
    result = runner.invoke(
        app,
        ["stability", str(ROOT / "examples" / "seed000-fig6-rtt200.toml")],
        terminal_width=80,
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    text = result.output
    for expected in ("C̃ = C/N", "min_th/N = 50/60", "B/N = 2084/60", "K/C̃", "verdict: unstable", "RTT: ", "flows: "):
        assert expected in text, text
    assert "ctcp-red (tcp = reno)" in text and "w* = " in text
    assert max(cell_len(line) for line in text.splitlines()) <= 80  # C̃ is 2 code points, 1 cell


def test_the_cli_refuses_a_scenario_without_a_fluid_model(tmp_path):
    path = tmp_path / "codel.toml"
    path.write_text((ROOT / "examples" / "codel-dumbbell.toml").read_text())
    result = runner.invoke(app, ["stability", str(path)], terminal_width=80)
    assert result.exit_code == 2
    assert "error:" in result.output and "queue.kind: 'codel'" in result.output and "supported" in result.output


def test_verify_runs_the_packet_simulation_with_the_charts_detector():
    from aqmlab.analysis.oscillation import measure_run
    from aqmlab.simulation import simulate

    args = ["stability", "seed000-fig6-rtt200", "--no-boundaries", "--verify", "--seeds", "1", "--duration", "40"]
    result = runner.invoke(app, [*args, "--analysis-start", "10"], terminal_width=100)
    assert result.exit_code == 0, result.output
    scenario = load_scenario("seed000-fig6-rtt200").with_changes(seed=1, duration="40.0s", measure_start=None)
    direct = measure_run(simulate(scenario), 10.0)
    assert direct.verdict == "oscillating"
    assert f"r = {direct.relative_swing:.2f}" in result.output
    text = " ".join(result.output.split())
    assert "packet: oscillating (1 of 1 seeds oscillating) — agrees with the fluid verdict unstable" in text


def test_the_model_parameter_help_says_per_flow_and_what_it_is():
    fluid = " ".join(runner.invoke(app, ["fluid", "ctcp-red", "--help"], terminal_width=80).output.split())
    assert "C = 100 packets/s: per-flow service capacity" in fluid
    assert "PER FLOW: link rate in packets/s divided by the number of flows N" in fluid
    assert "b_min = 50 packets: RED minimum threshold b (seed 000 eq. 6) — PER FLOW: RED's min_th divided by N" in fluid
    threshold = " ".join(runner.invoke(app, ["fluid", "ctcp-threshold", "--help"], terminal_width=80).output.split())
    assert "packets of the WHOLE queue (not per flow" in threshold
    stability = runner.invoke(app, ["stability", "--help"], terminal_width=80).output
    assert "PER FLOW" in " ".join(stability.replace("│", " ").split())


def test_beyond_a_supercritical_hopf_point_the_cycle_is_predicted():
    data = load_scenario("seed000-fig15-threshold-rtt200").model_dump(mode="json")
    data["topology"]["groups"][0]["rtt"] = "70ms"  # below the RTT boundary (≈ 74 ms): unstable
    result = of_scenario(data, boundaries=False)
    assert result.verdict == "unstable"
    predicted = result.predicted
    assert predicted["kind"] == "supercritical" and predicted["hopf_tau_s"] > result.mapping.params["tau"]
    assert 0.2 < predicted["period_s"] < 0.4  # 2π/ω at the Hopf point
    assert 0 < predicted["window_amplitude_packets"] < 2 and predicted["valid_near_boundary"]


def test_verify_at_10_ms_agrees_with_the_stable_verdict():
    """Issue 30 acceptance: with seed 000's reading of τ the 10 ms example is stable, and its packet
    run (120 s, measured after 60 s, when the flows' start-up is over) is classified stable by the
    packet charts' detector: RED's average swings 19.5 of its 50-packet band, r = 0.39 < 0.5."""
    from aqmlab.analysis.oscillation import measure_run
    from aqmlab.simulation import simulate

    args = ["stability", "seed000-fig6-rtt10", "--no-boundaries", "--verify", "--seeds", "1", "--duration", "120"]
    result = runner.invoke(app, [*args, "--analysis-start", "60"], terminal_width=100)
    assert result.exit_code == 0, result.output
    scenario = load_scenario("seed000-fig6-rtt10").with_changes(seed=1, duration="120.0s", measure_start=None)
    direct = measure_run(simulate(scenario), 60.0)
    assert direct.verdict == "stable" and direct.relative_swing < 0.5
    assert f"r = {direct.relative_swing:.2f}" in result.output
    text = " ".join(result.output.split())
    assert "packet: stable (0 of 1 seeds oscillating) — agrees with the fluid verdict stable" in text
