"""Scenario errors as a user reads them (issue 18 point 8): the field as written, no pydantic
internals, one problem per mistake, and "did you mean" for a misspelt field."""

import copy
from pathlib import Path

import aqmlab
import pytest
from aqmlab.scenario import Scenario

EXAMPLE = Path(__file__).parents[2] / "examples" / "seed000-fig6-rtt10.toml"


def _error(mutate) -> str:
    data = copy.deepcopy(Scenario.from_toml(EXAMPLE).model_dump(mode="json"))
    mutate(data)
    with pytest.raises(aqmlab.ScenarioError) as error:
        Scenario.from_dict(data)
    return str(error.value)


def test_a_negative_rtt_is_one_problem_without_pydantic_internals():
    message = _error(lambda d: d["topology"]["groups"][0].__setitem__("rtt", "-10ms"))
    assert message.startswith("scenario: topology.groups.0.rtt: '-10ms' must be finite and non-negative")
    assert "function-" not in message and "UniformRtt" not in message and "union" not in message


def test_a_misspelt_field_is_reported_as_unknown_with_a_suggestion_not_as_missing():
    def typo(data):
        group = data["topology"]["groups"][0]
        group["acces_rate"] = group.pop("access_rate")

    message = _error(typo)
    assert message == "scenario: topology.groups.0.acces_rate: unknown field; did you mean 'access_rate'?"


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            lambda d: d["topology"]["groups"][0]["tcp"].__setitem__("packet_sise", "1500B"),
            "tcp.packet_sise: unknown field; did you mean 'packet_size'?",
        ),
        (
            lambda d: d["topology"]["bottleneck"]["queue"].__setitem__("min_thresh", 5),
            "queue.min_thresh: unknown field; did you mean 'min_th'?",
        ),
        (lambda d: d.__setitem__("durration", "10s"), "durration: unknown field; did you mean 'duration'?"),
        (
            lambda d: d["topology"]["groups"][0].__setitem__("rtt", {"kind": "uniform", "low": "10ms", "high": "5"}),
            "topology.groups.0.rtt.high: '5' has no unit",
        ),
    ],
)
def test_nested_mistakes_name_the_field_as_written(mutate, expected):
    assert expected in _error(mutate)


def test_a_uniform_rtt_still_validates():
    data = Scenario.from_toml(EXAMPLE).model_dump(mode="json")
    data["topology"]["groups"][0]["rtt"] = {"kind": "uniform", "low": "30ms", "high": "130ms"}
    assert Scenario.from_dict(data).topology.groups[0].rtt.high == "130ms"
