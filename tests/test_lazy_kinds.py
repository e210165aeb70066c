"""`aqmlab._fields.Kinds` (issue 28): a tagged union whose members' validators are built on
first use must accept, reject and report exactly as pydantic's own tagged union of the same
members: same values, and the same errors (type, location, message, input, context)."""

import subprocess
import sys
import typing
from typing import Annotated, Any

import pytest
from aqmlab import congestion, queues, topology, traffic
from aqmlab._fields import Kinds
from pydantic import BaseModel, Discriminator, Field, Tag, TypeAdapter, ValidationError


def _members(union: Any) -> Any:
    """The union of every class the registry names, in its order (a class with two tags once);
    with a function discriminator, each member `Annotated` with its `Tag`."""
    kinds = Kinds.of(union)
    if callable(kinds.discriminator):
        return typing.Union[tuple(Annotated[model, Tag(tag)] for tag, model in kinds.models().items())]  # noqa: UP007
    return typing.Union[tuple(dict.fromkeys(kinds.models().values()))]  # noqa: UP007


def _whole(union: Any) -> TypeAdapter:
    """pydantic's own tagged union of the same members."""
    kinds = Kinds.of(union)
    if callable(kinds.discriminator):
        return TypeAdapter(Annotated[_members(union), Discriminator(kinds.discriminator)])
    return TypeAdapter(Annotated[_members(union), Field(discriminator=kinds.discriminator)])


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
        queue: _members(queues.Queue) = Field(
            default_factory=lambda: queues.DropTail.model_construct(), discriminator="kind"
        )
        cc: _members(congestion.CongestionControl) = Field(
            default_factory=lambda: congestion.Reno.model_construct(), discriminator="kind"
        )

    assert Lazy.model_json_schema() == {**Whole.model_json_schema(), "title": "Lazy"}
    for mode in ("python", "json"):
        assert Lazy().model_dump(mode=mode) == Whole().model_dump(mode=mode)
    data = {"queue": {"kind": "pie", "limit": "10p"}, "cc": {"kind": "cubic"}}
    assert Lazy.model_validate(data).model_dump(mode="json", exclude_defaults=True) == Whole.model_validate(
        data
    ).model_dump(mode="json", exclude_defaults=True)


UNIONS = {
    "queue": queues.Queue,
    "congestion control": congestion.CongestionControl,
    "topology": topology.Topology,
    "flow group": traffic.FlowGroup,
    "start": traffic.Start,
    "stop": traffic.Stop,
    "transfer": traffic.Transfer,
    "size": traffic.SizeDistribution,
    "path": traffic.Path,
}


@pytest.mark.parametrize("name", list(UNIONS))
def test_each_registered_kind_is_the_class_its_tag_names(name):
    """A registry line names the class whose `kind` is its tag, and the family module gives the
    class under its own name (`from aqmlab.queues import Red`)."""
    kinds = Kinds.of(UNIONS[name])
    assert kinds.tags() and len(set(kinds.tags())) == len(kinds.tags())
    for tag, model in kinds.models().items():
        assert tag in typing.get_args(model.model_fields["kind"].annotation), (tag, model)
        family = {"queue": queues, "congestion control": congestion, "topology": topology}.get(name, traffic)
        assert getattr(family, model.__name__) is model
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchKind'"):
        queues.NoSuchKind  # noqa: B018


def test_a_scenario_creates_the_classes_of_the_kinds_it_names_only():
    """issue 28: in a fresh process, importing the scenario models and listing every union's
    kinds imports no kind's module but those of the fields' defaults (DropTail, Reno, the
    uniform start, never stopping); validating a dumbbell with RED imports the modules of the
    kinds it names (and of the defaults it uses) and no other."""
    code = (
        "import sys\n"
        "from aqmlab import scenario, congestion, queues, topology, traffic\n"
        "from aqmlab._fields import Kinds\n"
        "def loaded(): return sorted(m.rpartition('.')[2] for m in sys.modules if m.startswith('aqmlab.kinds.'))\n"
        "unions = (queues.Queue, congestion.CongestionControl, topology.Topology, traffic.FlowGroup, traffic.Start)\n"
        "assert sum(len(Kinds.of(union).tags()) for union in unions) == 34\n"
        "assert loaded() == ['cc_reno', 'queue_drop_tail', 'start_uniform', 'stop_never'], loaded()\n"
        "scenario.load({'duration': '1s', 'topology': {'kind': 'dumbbell', 'bottleneck': {'rate': '10Mbps', "
        "'delay': '5ms', 'queue': {'kind': 'red'}}, 'groups': [{'name': 'g', 'count': 3, 'rtt': '40ms', "
        "'access_rate': '100Mbps', 'tcp': {'cc': 'cubic'}}]}}).resolved_json()\n"
        "assert loaded() == ['cc_cubic', 'cc_reno', 'group_tcp', 'queue_drop_tail', 'queue_red', 'start_uniform', "
        "'stop_never', 'topology_dumbbell', 'transfer_bulk'], loaded()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
