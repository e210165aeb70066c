"""The declarative reproduction framework: criteria at the printed precision, Student-t
intervals, verdicts on the mean marked marginal when the interval straddles a boundary, the
per-seed runner, and the verdict file."""

import math

import pytest
from aqmlab.reproduce.declare import (
    AtLeast,
    AtMost,
    Below,
    Between,
    Check,
    Claim,
    Computed,
    Declaration,
    Printed,
    Run,
    Seeds,
)
from aqmlab.reproduce.registry import REGISTRY, reproduce
from aqmlab.reproduce.runner import confidence_interval, judge_claim
from aqmlab.reproduce.verdicts import differences, load, update
from aqmlab.results_io import read_reproduction


def test_printed_values_carry_their_precision():
    assert Printed("0.273").value == 0.273 and Printed("84.8").value == 84.8
    assert Printed("0.273").tolerance == pytest.approx(0.0005)
    assert Printed("39").tolerance == pytest.approx(0.5)
    assert Printed("84.8").tolerance == pytest.approx(0.05)
    assert Printed("0.273").holds(0.2734) and not Printed("0.273").holds(0.2718)
    assert Printed("100").holds(99.5) and not Printed("100").holds(99.4)
    assert Printed("0.03", slack=0.01).tolerance == pytest.approx(0.015)


def test_student_t_interval():
    low, high = confidence_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    # mean 3, s = 1.5811, t(0.975, 4) = 2.7764: half-width 1.9632
    assert (low, high) == pytest.approx((3 - 1.96324, 3 + 1.96324), abs=1e-4)
    assert confidence_interval([2.0]) == (2.0, 2.0)
    assert all(math.isnan(x) for x in confidence_interval([1.0, math.nan]))


def _claim(criterion):
    return Claim("c", "statement", "0.5", "Fig. 1", (Check("x", criterion, "x", "s"),))


def test_verdict_is_on_the_mean_and_marginal_when_the_interval_straddles():
    firm = judge_claim("r", _claim(AtLeast(0.5)), {"x": [0.9, 1.0, 1.1, 1.0, 0.95]})
    assert firm["verdict"] == "agrees" and firm["id"] == "r/c" and firm["seeds"] == 5
    fragile = judge_claim("r", _claim(AtLeast(0.5)), {"x": [0.3, 0.9, 0.4, 0.8, 0.7]})
    assert fragile["verdict"] == "agrees (marginal)" and fragile["agrees"] and fragile["marginal"]
    against = judge_claim("r", _claim(Between(0.0, 0.5)), {"x": [0.3, 0.9, 0.4, 0.8, 0.7]})
    assert against["verdict"] == "differs (marginal)" and not against["agrees"]
    assert "± 0.3214 (95 % CI of the mean; 5 seeds, range 0.3 to 0.9)" in against["aqmlab"]  # range labelled
    on_boundary = judge_claim("r", _claim(AtMost(15)), {"x": [15.0, 15.0, 15.0, 15.0, 15.0]})
    assert on_boundary["verdict"] == "agrees"  # no spread: not fragile
    nan = judge_claim("r", _claim(Below(1.0)), {"x": [math.nan]})
    assert nan["verdict"] == "differs"
    with pytest.raises(KeyError, match="quantities \\['x'\\] were not measured"):
        judge_claim("r", _claim(Below(1.0)), {"y": [1.0]})


def test_declarations_reject_bad_input():
    with pytest.raises(ValueError, match="at least 5"):
        Seeds(full=3)
    with pytest.raises(ValueError, match="exactly one of runs"):
        Declaration("x", "p", "t", "d", (_claim(Below(1)),))
    with pytest.raises(ValueError, match="used twice"):
        Declaration("x", "p", "t", "d", (_claim(Below(1)), _claim(Below(2))), compute=lambda out, quick: None)
    with pytest.raises(ValueError, match="without '.'"):
        Run("a.b", {}, lambda results: {})


def tiny(name):
    """A short dumbbell whose start times depend on the seed."""
    return {
        "name": name,
        "duration": "3s",
        "measure_start": "1s",
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": "10Mbps", "delay": "5ms", "queue": {"kind": "drop_tail", "limit": "50p"}},
            "groups": [
                {
                    "name": "g",
                    "count": 4,
                    "rtt": "40ms",
                    "access_rate": "100Mbps",
                    "start": {"kind": "uniform", "low": "0s", "high": "1s"},
                }
            ],
        },
    }


def test_packet_runs_repeat_over_seeds_and_derive_per_seed(tmp_path, monkeypatch):
    declaration = Declaration(
        id="test-tiny",
        paper="none",
        title="tiny",
        description="d",
        runs=lambda quick: [Run("a", tiny("a"), lambda r: {"loss": r.summary()["loss_percent"]}, keep=True)],
        derive=lambda m, quick: {"double": 2 * m["a"]["loss"]},
        claims=(
            Claim("loss", "s", "p", "w", (Check("a.loss", AtLeast(0), "loss", "%"),)),
            Claim("double", "s", "p", "w", (Check("double", AtLeast(0)),), full_only=True),
        ),
        seeds=Seeds(full=5, quick=3),
    )
    monkeypatch.setitem(REGISTRY, "test-tiny", declaration)
    record = read_reproduction(reproduce("test-tiny", tmp_path / "quick", quick=True))
    assert record["seeds"] == 3 and [c["id"] for c in record["comparison"]] == ["test-tiny/loss"]
    values = record["quantities"]["a.loss"]["values"]
    assert len(values) == 3
    assert record["quantities"]["double"]["values"] == pytest.approx([2 * v for v in values])
    assert (tmp_path / "quick" / "a" / "summary.json").is_file()  # the first seed's run directory
    again = read_reproduction(reproduce("test-tiny", tmp_path / "again", quick=True))
    assert again["quantities"]["a.loss"]["values"] == values  # seeds 1..n: deterministic


def test_verdict_file_round_trip_and_differences(tmp_path, monkeypatch):
    declaration = Declaration(
        "test-computed",
        "none",
        "t",
        "d",
        (_claim(Printed("0.273")),),
        compute=lambda out, quick: Computed({"x": 0.2718}, notes="n"),
    )
    monkeypatch.setitem(REGISTRY, "test-computed", declaration)
    record = read_reproduction(reproduce("test-computed", tmp_path / "r", quick=True))
    assert record["comparison"][0]["verdict"] == "differs" and record["seeds"] == 1
    path = tmp_path / "verdicts.json"
    update(path, [record])
    assert load(path) == {"test-computed/c": "differs"}
    assert differences(load(path), record) == []
    flipped = {"test-computed/c": "agrees", "test-computed/gone": "agrees"}
    problems = differences(flipped, record)
    assert any("expected 'agrees', got 'differs'" in p for p in problems)
    assert any("the claim is gone" in p for p in problems)


def test_cli_lists_declarations_and_updates_verdicts_only_in_quick_mode(tmp_path, monkeypatch):
    from aqmlab.cli import app
    from typer.testing import CliRunner

    runner = CliRunner()
    listing = runner.invoke(app, ["reproduce", "--list"])
    assert listing.exit_code == 0 and "seed000-fig6" in listing.output and "seed000-table1" in listing.output
    refused = runner.invoke(app, ["reproduce", "seed000-fig2", "--update-verdicts"])
    assert refused.exit_code == 2 and "add --quick" in refused.output
    declaration = Declaration(
        "test-cli", "none", "t", "d", (_claim(AtMost(1.0)),), compute=lambda out, quick: Computed({"x": 0.5})
    )
    monkeypatch.setitem(REGISTRY, "test-cli", declaration)
    verdicts = tmp_path / "verdicts.json"
    result = runner.invoke(
        app,
        [
            "reproduce",
            "test-cli",
            "--quick",
            "--out",
            str(tmp_path / "out"),
            "--update-verdicts",
            "--verdicts",
            str(verdicts),
        ],
    )
    assert result.exit_code == 0, result.output
    assert load(verdicts) == {"test-cli/c": "agrees"}


def test_updating_all_verdicts_drops_reproductions_that_no_longer_exist(tmp_path):
    path = tmp_path / "verdicts.json"
    path.write_text('{"about": "", "verdicts": {"gone/claim-1": "agrees", "kept/a": "differs", "other/b": "agrees"}}')
    update(path, [{"id": "kept", "comparison": [{"id": "kept/a", "agrees": True}]}])
    assert load(path) == {"gone/claim-1": "agrees", "kept/a": "agrees", "other/b": "agrees"}  # one id: others kept
    update(path, [{"id": "kept", "comparison": [{"id": "kept/a", "agrees": True}]}], registered={"kept", "other"})
    assert load(path) == {"kept/a": "agrees", "other/b": "agrees"}
