"""The ns-2 mapping of per-flow RTT spreads, random drop and ns-2's `singledup_` default
(benchmarks/ns2/ns2_mapping.py; issue 27's referee column): pure Python, no ns-2."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the scenario helpers of test_mapping.py

import aqmlab  # noqa: E402
import ns2_mapping  # noqa: E402
from ns2_mapping import Unsupported, translate  # noqa: E402
from test_mapping import bottleneck_settings, lines, scenario  # noqa: E402

EDGE = re.compile(r"\$ns simplex-link \$s\((\d+)\) \$n\(left\) \d+ ([0-9.e-]+) DropTail")
RECEIVER = re.compile(r"\$ns simplex-link \$n\(right\) \$r\((\d+)\) \d+ ([0-9.e-]+) DropTail")


def one_way_edges(program_lines: list[str]) -> dict[int, float]:
    """flow -> access + receiver delay (s) of its data direction."""
    out: dict[int, float] = {}
    for pattern in (EDGE, RECEIVER):
        for line in program_lines:
            found = pattern.fullmatch(line)
            if found:
                out[int(found[1])] = out.get(int(found[1]), 0.0) + float(found[2])
    return out


def spread(count: int = 12) -> aqmlab.Scenario:
    return scenario(count=count, rtt={"kind": "uniform", "low": "30ms", "high": "130ms"})


def test_rtt_spread_gives_each_flow_aqmlabs_own_draw_for_the_seed():
    s = spread()
    resolved = s.resolved()
    drawn = ns2_mapping.aqmlab_flow_rtts(resolved, 5)[0]
    assert len(drawn) == 12 and len(set(drawn)) == 12
    assert all(30e6 - 1 <= rtt <= 130e6 for rtt in drawn)
    edges = one_way_edges(lines(s, seed=5))
    # Two-way: 2 (bottleneck 10 ms + access + receiver) = the drawn RTT, to the ns.
    for flow, rtt in enumerate(drawn):
        assert round((2 * (0.01 + edges[flow])) * 1e9) == rtt
    # Another seed, other draws; no spread, the group's RTT for every flow (no engine call).
    assert one_way_edges(lines(s, seed=6)) != edges
    assert set(one_way_edges(lines(scenario(count=3))).values()) == {0.01}


def test_rtts_given_explicitly_and_checked_per_group():
    s = spread(count=2)
    assert one_way_edges(lines(s, flow_rtts_ns={0: [40_000_000, 60_000_000]})) == {0: 0.01, 1: 0.02}
    with pytest.raises(ValueError, match=r"flow_rtts_ns\[0\]: 1 RTTs for the group's 2 flows"):
        lines(s, flow_rtts_ns={0: [40_000_000]})


def test_random_drop_is_an_error_model_ahead_of_a_droptail_buffer():
    s = scenario({"kind": "random_drop", "limit": "75p", "probability": 0.02})
    assert bottleneck_settings(s) == [
        "$q set limit_ 76",
        "set em [new ErrorModel]",
        "$em unit pkt",
        "$em set rate_ 0.02",
        "$em ranvar [new RandomVariable/Uniform]",
        "$ns lossmodel $em $n(left) $n(right)",
    ]
    out = lines(s)
    # Installed before monitor-queue, so the monitor counts its drops as arrivals and drops.
    assert out.index("$ns lossmodel $em $n(left) $n(right)") < next(
        i for i, line in enumerate(out) if "monitor-queue" in line
    )
    assert not any("ErrorModel" in line for line in lines(scenario()))


def test_random_drop_with_ecn_is_refused_with_the_field():
    with pytest.raises(Unsupported, match=r"topology\.bottleneck\.queue\.ecn = true: ns-2's ErrorModel"):
        translate(scenario({"kind": "random_drop", "limit": "75p", "probability": 0.02, "ecn": True}).resolved())


def test_as_printed_takes_singledup_from_the_binary_like_with_like_from_the_scenario():
    assert ns2_mapping.binary_default("Agent/TCP singledup_") == "1"
    assert "Agent/TCP set singledup_ 1" in lines(scenario(), options=ns2_mapping.ns2_defaults())
    assert "Agent/TCP set singledup_ 0" in lines(scenario())
    assert "Agent/TCP set singledup_ 1" in lines(scenario(tcp={"limited_transmit": True}))


def test_manual_routes_for_large_networks_or_when_asked():
    assert "$ns rtproto Manual" not in lines(scenario(count=3))
    large = scenario(count=ns2_mapping.MANUAL_ROUTING_NODES // 2)
    out = lines(large)
    assert out[1] == "$ns rtproto Manual"  # before any node exists
    # Flow 0's data hop by hop to r(0), its ACKs back to s(0).
    for line in (
        "$s(0) add-route [$r(0) id] [[$ns link $s(0) $n(left)] head]",
        "$n(left) add-route [$r(0) id] [[$ns link $n(left) $n(right)] head]",
        "$n(right) add-route [$r(0) id] [[$ns link $n(right) $r(0)] head]",
        "$r(0) add-route [$s(0) id] [[$ns link $r(0) $n(right)] head]",
        "$n(right) add-route [$s(0) id] [[$ns link $n(right) $n(left)] head]",
        "$n(left) add-route [$s(0) id] [[$ns link $n(left) $s(0)] head]",
    ):
        assert line in out
    assert "$ns rtproto Manual" not in lines(large, options=ns2_mapping.Options(manual_routing=False))
    assert "$ns rtproto Manual" in lines(scenario(count=3), options=ns2_mapping.Options(manual_routing=True))


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`, Debian package ns2) is not installed")
def test_manual_routes_give_the_static_routes_run_in_ns2(tmp_path):
    """Bit-identical records: the routes installed are the ones static routing computes."""
    texts = []
    for manual in (False, True):
        program = translate(scenario(count=3).resolved(), options=ns2_mapping.Options(manual_routing=manual))
        directory = tmp_path / str(manual)
        directory.mkdir()
        (directory / "run.tcl").write_text(program.text())
        subprocess.run(["ns", "run.tcl"], cwd=directory, check=True, capture_output=True)
        texts.append((directory / ns2_mapping.RECORDS).read_text())
    assert texts[0] and texts[0] == texts[1]
