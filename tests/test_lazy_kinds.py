"""`aqmlab._fields.Kinds` (issue 28): a tagged union whose members' validators are built on
first use must accept, reject and report exactly as pydantic's own tagged union of the same
members: same values, and the same errors (type, location, message, input, context)."""

import typing
from typing import Annotated, Any

import pytest
from aqmlab import congestion, queues, topology, traffic
from aqmlab._fields import Kinds
from pydantic import BaseModel, Discriminator, Field, TypeAdapter, ValidationError


def _whole(union: Any) -> TypeAdapter:
    """pydantic's own tagged union of the same members."""
    members, kinds = typing.get_args(union)
    assert isinstance(kinds, Kinds)
    if callable(kinds.discriminator):
        return TypeAdapter(Annotated[members, Discriminator(kinds.discriminator)])
    return TypeAdapter(Annotated[members, Field(discriminator=kinds.discriminator)])


def _outcome(adapter: TypeAdapter, value: Any) -> Any:
    try:
        return ("value", repr(adapter.validate_python(value)))
    except ValidationError as error:  # repr: the context's exception objects compare by identity
        return ("errors", repr(error.errors()), str(error).replace(error.title, "-"))


INPUTS: dict[str, tuple[Any, list[Any]]] = {
    "queue": (
        queues.Queue,
        [
            {"kind": "red", "limit": "100p", "min_th": 5, "max_th": 15},
            {"kind": "red", "limit": "100p", "min_th": 50, "max_th": 15},  # the model's own check
            {"kind": "red", "limit": "-1p"},
            {"kind": "redd", "limit": "100p"},  # unknown kind
            {"limit": "100p"},  # no kind
            {"kind": ["red"]},  # unhashable tag
            {"kind": 3},
            {"kind": "drop_tail", "limit": "10p", "extra": 1},
            {"kind": "codel"},
            "red",
            5,
            None,
            queues.DropTail(limit="5p"),
            queues.RedVq(limit="100p", min_th=5, max_th=15),
        ],
    ),
    "congestion control": (
        congestion.CongestionControl,
        [
            {"kind": "reno"},
            {"kind": "cubic", "c": -1},
            {"kind": "compound", "zeta": 1.0},
            {"kind": "bbr"},
            {},
            {"kind": "highspeed", "nonsense": True},
            congestion.Reno(),
        ],
    ),
    "topology": (
        topology.Topology,
        [
            {
                "kind": "dumbbell",
                "bottleneck": {"rate": "10Mbps", "delay": "5ms", "queue": {"kind": "drop_tail", "limit": "9p"}},
                "groups": [{"name": "g", "count": 2, "rtt": "40ms", "access_rate": "10Mbps"}],
            },
            {"kind": "dumbbell", "bottleneck": {"rate": "0Mbps", "delay": "5ms", "queue": {"kind": "x"}}},
            {"kind": "star"},
            [],
        ],
    ),
    "flow group (function discriminator, default tag)": (
        traffic.FlowGroup,
        [
            {"name": "g", "count": 2, "rtt": "40ms", "access_rate": "10Mbps"},
            {"name": "g", "count": -2, "rtt": "40ms", "access_rate": "10Mbps", "tcp": {"cc": {"kind": "x"}}},
            {"kind": "udp", "name": "u", "count": 1, "rtt": "40ms", "access_rate": "10Mbps", "rate": "1Mbps"},
            {"kind": "udp", "rate": "fast"},
            {"kind": "quic"},
            "tcp",
        ],
    ),
    "start": (traffic.Start, [{"kind": "uniform", "low": "5s", "high": "1s"}, {"kind": "fixed"}, {"kind": "late"}]),
    "path": (traffic.Path, [{"kind": "shortest", "from": "a", "to": "b"}, {"kind": "shortest", "from": "a"}]),
}


@pytest.mark.parametrize("name", list(INPUTS))
def test_a_lazy_union_validates_and_reports_as_the_tagged_union(name):
    union, values = INPUTS[name]
    lazy, whole = TypeAdapter(union), _whole(union)
    rejected = 0
    for value in values:
        expected = _outcome(whole, value)
        assert _outcome(lazy, value) == expected, value
        rejected += expected[0] == "errors"
    assert 0 < rejected < len(values)


def test_a_lazy_union_in_a_model_serialises_and_describes_itself_as_the_tagged_union():
    """The JSON Schema is the whole union's, and a member made without validation (a default
    of `default_of`, `model_construct`: no serialiser built yet) serialises as its model."""

    class Lazy(BaseModel):
        queue: queues.Queue = Field(default_factory=lambda: queues.DropTail.model_construct())
        cc: congestion.CongestionControl = Field(default_factory=lambda: congestion.Reno.model_construct())

    class Whole(BaseModel):
        queue: typing.get_args(queues.Queue)[0] = Field(
            default_factory=lambda: queues.DropTail.model_construct(), discriminator="kind"
        )
        cc: typing.get_args(congestion.CongestionControl)[0] = Field(
            default_factory=lambda: congestion.Reno.model_construct(), discriminator="kind"
        )

    assert Lazy.model_json_schema() == {**Whole.model_json_schema(), "title": "Lazy"}
    for mode in ("python", "json"):
        assert Lazy().model_dump(mode=mode) == Whole().model_dump(mode=mode)
    data = {"queue": {"kind": "pie", "limit": "10p"}, "cc": {"kind": "cubic"}}
    assert Lazy.model_validate(data).model_dump(mode="json", exclude_defaults=True) == Whole.model_validate(
        data
    ).model_dump(mode="json", exclude_defaults=True)
