"""Each scenario field is declared once, on the Python side (issue 32): the pydantic field gives
its name, default, bounds, unit and documentation, and the engine's config is derived from it
(`aqmlab._declarations`). These tests fail when the two sides disagree:

- names: what Python sends for each struct of the resolved scenario is exactly the field list
  the engine's serde derive reads (`_engine.scenario_fields()`, crates/engine/src/fields.rs),
  over every example, every queue kind and every window law;
- bounds: at every bound a queue field declares (and just inside an open one), Python accepts
  the value and so does the engine, and just outside Python refuses it naming the field;
- declarations: every queue model derives its engine config (no hand-written key left), and
  every quantity field has an engine unit.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import annotated_types
import pytest
from aqmlab import _engine, queues
from aqmlab._declarations import ENGINE_UNITS, declared_fields, engine_key, quantity_unit
from aqmlab._fields import MAX_PACKET_BYTES, MAX_RATE_BPS, MAX_SECONDS, MAX_WINDOW, Kinds
from aqmlab.congestion import CongestionControl
from aqmlab.errors import ScenarioError
from aqmlab.scenario import Scenario
from aqmlab.transport import Tcp

ROOT = Path(__file__).resolve().parents[2]
ENGINE_FIELDS = _engine.scenario_fields()

#: The engine's registries of kinds (crates/engine/src/registry.rs): registry -> kind -> the
#: struct the kind's configuration is read into.
ENGINE_KINDS = _engine.registered_kinds()
#: Required fields without a default, per queue model: a value each declaration test uses.
REQUIRED = {
    "probability": 0.1,
    "q_th": 15.0,
    "delay_scale": "100ms",
    "policy": f"{ROOT}/docs/extending/python_red.py:PythonRed",
    "law": f"{ROOT}/docs/extending/python_aimd.py:PythonAimd",
}

#: Where in a resolved scenario each engine struct sits: (path, struct); `*` is every element.
STRUCT_PATHS = [
    ((), "Scenario"),
    (("trace",), "TraceConfig"),
    (("topology",), {"dumbbell": "Dumbbell", "network": "NetworkConfig"}),
    (("topology", "bottleneck"), "BottleneckConfig"),
    (("topology", "links", "*"), "CoreLink"),
    (("topology", "groups", "*"), "FlowGroup"),
    (("topology", "groups", "*", "traffic", "tcp"), "TcpConfig"),
]
#: TCP options the Python side sends only when set off their default, which the engine then
#: fills with the same default (`Engine(omit_default=True)`; checked by the defaults test).
TCP_SENT_WHEN_SET = {field.key for field in declared_fields(Tcp) if field.omit_default}


def queue_models() -> list[type]:
    return list(Kinds.of(queues.Queue).models().values())


#: The engine struct each queue model's config is read into: its kind's, in the registry.
QUEUE_STRUCTS = {model: ENGINE_KINDS["queue"].get(model.model_fields["kind"].default) for model in queue_models()}


def examples() -> list[Path]:
    return sorted(path for path in (ROOT / "examples").glob("*.toml"))


def at_path(node: Any, path: tuple[str, ...]):
    if not path:
        yield node
        return
    head, rest = path[0], path[1:]
    if head == "*":
        for item in node:
            yield from at_path(item, rest)
    elif isinstance(node, dict) and head in node:
        yield from at_path(node[head], rest)


def test_every_queue_kind_is_compared_with_the_engine():
    """A queue kind is one registry line in the engine and one model in the `Queue` union."""
    python_kinds = {model.model_fields["kind"].default for model in queue_models()}
    assert python_kinds == set(ENGINE_KINDS["queue"]), "the engine's registry and the Queue union list other kinds"
    assert set(QUEUE_STRUCTS.values()) <= set(ENGINE_FIELDS)


@pytest.mark.parametrize("model", list(QUEUE_STRUCTS), ids=lambda model: model.__name__)
def test_queue_fields_are_the_engines(model):
    required = {name: value for name, value in REQUIRED.items() if name in model.model_fields}
    sent = model.model_validate(required).resolved(link_delay_ns=1_000_000)
    assert sent.pop("kind") == model.model_fields["kind"].default
    assert sorted(sent) == sorted(ENGINE_FIELDS[QUEUE_STRUCTS[model]])
    if model is queues.RedVq:
        assert sorted(sent["red"]) == sorted(ENGINE_FIELDS["RedConfig"])


def window_laws() -> list[type]:
    return list(Kinds.of(CongestionControl).models().values())


#: The engine struct each window law's parameters are read into: its kind's, in the registry.
WINDOW_LAW_STRUCTS = {law: ENGINE_KINDS["cc"].get(law.model_fields["kind"].default) for law in window_laws()}


def test_every_window_law_is_compared_with_the_engine():
    """A window law is one registry line in the engine and one model in the union."""
    python_kinds = {law.model_fields["kind"].default for law in window_laws()}
    assert python_kinds == set(ENGINE_KINDS["cc"]), "the engine's registry and the CongestionControl union differ"
    assert set(WINDOW_LAW_STRUCTS.values()) <= set(ENGINE_FIELDS)


@pytest.mark.parametrize("law", list(WINDOW_LAW_STRUCTS), ids=lambda law: law.__name__)
def test_window_law_fields_are_the_engines(law):
    """Every parameter, each set off its default where it has options, so that fields sent
    only when set are compared too."""
    sent = law.model_validate({name: value for name, value in REQUIRED.items() if name in law.model_fields}).resolved()
    for field in declared_fields(law):
        if field.omit_default:
            options = typing.get_args(law.model_fields[field.name].annotation)
            sent[field.key] = next(option for option in options if option != field.default)
    assert sent.pop("kind") == law.model_fields["kind"].default
    assert sorted(sent) == sorted(ENGINE_FIELDS[WINDOW_LAW_STRUCTS[law]])


@pytest.mark.parametrize("model", queue_models(), ids=lambda model: model.__name__)
def test_queue_config_is_derived_from_the_declarations(model):
    """No hand-written key: every declared field reaches the engine under its derived key
    (computed defaults such as E-RED's b_min fill only a field left unset)."""
    required = {name: value for name, value in REQUIRED.items() if name in model.model_fields}
    instance = model.model_validate(required)
    sent = instance.resolved(link_delay_ns=0)
    if model is queues.RedVq:
        sent = {**sent["red"], "kind": sent["kind"], "gamma": sent["gamma"]}
    for field in declared_fields(model):
        assert field.key in sent, f"{model.__name__}.{field.name} is declared but not sent as {field.key}"
        value = getattr(instance, field.name)
        if value is not None:
            expected = field.convert(value) if field.convert else value
            assert sent[field.key] == expected, f"{model.__name__}.{field.name}"


def test_tcp_options_sent_only_when_set_are_the_engines_defaulted_ones():
    assert TCP_SENT_WHEN_SET == {
        "ecn_reduction",
        "ecn_retransmit",
        "cwr_on_retransmit",
        "rto_restart",
        "rtt_sampling",
        "timer_tick_ns",
        "rtt_estimator",
    }
    assert TCP_SENT_WHEN_SET <= set(ENGINE_FIELDS["TcpConfig"])


def test_every_quantity_has_an_engine_unit():
    for model in queue_models():
        for name, info in model.model_fields.items():
            unit = quantity_unit(info.annotation) or next(
                (m.json_schema.get("x-unit") for m in info.metadata if hasattr(m, "json_schema")), None
            )
            if unit is not None:
                assert unit in ENGINE_UNITS, f"{model.__name__}.{name}: unit {unit!r}"
    assert engine_key(queues.Codel, "target") == "target_ns"
    assert engine_key(queues.Codel, "mtu") == "mtu_bytes"
    assert engine_key(queues.Red, "mean_packet_size") == "mean_packet_bytes"
    assert engine_key(queues.Pi, "sampling_frequency") == "sampling_frequency_hz"


def resolved_examples() -> list[dict[str, Any]]:
    found = [Scenario.from_toml(path).resolved() for path in examples()]
    for law in window_laws():
        found.append(Scenario.from_dict(small_dumbbell(tcp={"cc": _law(law)})).resolved())
    traced = small_dumbbell(tcp={"cc": "reno", "sack": True}) | {"trace": {"packets": {"links": ["bottleneck"]}}}
    found.append(Scenario.from_dict(traced).resolved())
    return found


def test_scenario_structs_match_the_engine_over_every_example_and_window_law():
    seen: dict[str, set[str]] = {}
    for resolved in resolved_examples():
        for path, struct in STRUCT_PATHS:
            for node in at_path(resolved, path):
                name = struct[node["kind"]] if isinstance(struct, dict) else struct
                keys = set(node) - ({"kind"} if isinstance(struct, dict) else set())
                unknown = keys - set(ENGINE_FIELDS[name])
                assert not unknown, f"{'.'.join(path)}: Python sends {sorted(unknown)} that {name} does not read"
                seen.setdefault(name, set()).update(keys)
    for name, keys in seen.items():
        never_sent = set(ENGINE_FIELDS[name]) - keys - (TCP_SENT_WHEN_SET if name == "TcpConfig" else set())
        assert not never_sent, f"{name} reads {sorted(never_sent)} that no Python declaration sends"


def small_dumbbell(queue: dict[str, Any] | None = None, tcp: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "name": "declarations",
        "duration": "1s",
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": "10Mbps", "delay": "10ms", "queue": queue or {"kind": "drop_tail"}},
            "groups": [
                {"name": "g", "count": 2, "rtt": "60ms", "access_rate": "100Mbps", "tcp": tcp or {"cc": "reno"}}
            ],
        },
    }


#: annotated_types bound -> (whether the bound itself is allowed, the side outside it).
BOUNDS = (("ge", True, -1), ("gt", False, -1), ("le", True, 1), ("lt", False, 1))


def declared_bounds(model: type) -> list[tuple[str, float, float, bool]]:
    """(field, bound, a value just outside it, whether the bound itself is allowed) of every
    numeric bound the model declares."""
    found = []
    for name, info in model.model_fields.items():
        for meta in info.metadata:
            for attribute, inclusive, direction in BOUNDS:
                bound = getattr(meta, attribute, None) if isinstance(meta, annotated_types.BaseMetadata) else None
                if bound is not None:
                    step = 1e-9 * max(1.0, abs(bound))
                    found.append((name, float(bound), bound + direction * step, inclusive))
    return found


def queue_bounds() -> list[tuple[type, str, float, float, bool]]:
    return [(model, *bound) for model in queue_models() for bound in declared_bounds(model)]


#: Fields a model requires to stay ordered with the one at its bound (p_min < p_max,
#: bottom < top): set from the value under test so that only its own bound decides.
COMPANIONS = {
    (queues.Ered, "p_min"): lambda value: {"p_max": 1.0},
    (queues.Ered, "p_max"): lambda value: {"p_min": value / 2},
    (queues.AdaptiveRed, "bottom"): lambda value: {"top": 1.0},
    (queues.AdaptiveRed, "top"): lambda value: {"bottom": value / 2},
}


def _queue(model: type, **fields: Any) -> dict[str, Any]:
    required = {name: value for name, value in REQUIRED.items() if name in model.model_fields}
    return {"kind": model.model_fields["kind"].default, **required, **fields}


@pytest.mark.parametrize(
    ("model", "name", "bound", "outside", "inclusive"),
    queue_bounds(),
    ids=[f"{model.__name__}.{name}-{bound:g}" for model, name, bound, *_ in queue_bounds()],
)
def test_the_engine_accepts_every_value_a_bound_admits(model, name, bound, outside, inclusive):
    edge = bound if inclusive else bound - (outside - bound)
    companions = COMPANIONS.get((model, name), lambda value: {})(edge)
    scenario = Scenario.from_dict(small_dumbbell(_queue(model, **{name: edge}, **companions)))
    _engine.Simulation(scenario.resolved_json(), 1)  # raises ScenarioError if the engine refuses
    with pytest.raises(ScenarioError, match=rf"queue\.{name}\b"):
        Scenario.from_dict(small_dumbbell(_queue(model, **{name: outside}, **companions)))


def _law(law: type) -> dict[str, Any]:
    required = {name: value for name, value in REQUIRED.items() if name in law.model_fields}
    return {"kind": law.model_fields["kind"].default, **required}


def default_scenarios() -> list[dict[str, Any]]:
    """A small dumbbell for every queue kind and every window law, with their defaults."""
    found = [small_dumbbell(queue=_queue(model)) for model in queue_models()]
    found += [small_dumbbell(tcp={"cc": _law(law)}) for law in window_laws()]
    found += [small_dumbbell(tcp={"cc": "reno", "sack": True, "sack_recovery": kind}) for kind in ("rfc6675", "prr")]
    return [Scenario.from_dict(scenario).resolved() for scenario in found]


def dict_nodes(node: Any, path: tuple[str, ...] = ()):
    """(path, dict) of every dict inside a resolved scenario."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from dict_nodes(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from dict_nodes(value, (*path, str(index)))


def test_the_engines_defaults_are_the_declared_ones():
    """Every field the engine can default (`#[serde(default)]`), left out of what Python sends,
    is filled with the value Python's declaration resolves to."""
    defaulted = set()
    for resolved in default_scenarios():
        for path, node in list(dict_nodes(resolved)):
            for key in [key for key in node if key != "kind"]:
                if key == "recovery" and node[key]["kind"] != "new_reno":
                    continue  # the table's kind follows `sack`, which the engine does not see
                sent = node.pop(key)
                try:
                    filled = json.loads(_engine.with_engine_defaults(json.dumps(resolved)))
                except ScenarioError:
                    continue  # required by the engine: no default of its own
                finally:
                    node[key] = sent
                for part in path:
                    filled = filled[int(part)] if isinstance(filled, list) else filled[part]
                assert filled[key] == sent, f"{'.'.join((*path, key))}: engine default {filled[key]!r}, Python {sent!r}"
                defaulted.add(key)
    # The check above ran: the engine defaults these (flow groups, TCP options, window laws, RED).
    assert {"rtt_spread_ns", "recovery", "limited_transmit", "alpha", "delta_min_ns", "target_delay_ns"} <= defaulted
    # ...and SACK recovery's parameters, always sent in its table.
    assert {"rate_halving", "lost_retransmit", "partial_ack_retransmit", "loss_flight_size"} <= defaulted


def extreme_scenario(seconds: float, rate: float, window: float, packet: float) -> dict[str, Any]:
    tcp = {"cc": "reno", "max_window": window, "initial_window": window, "packet_size": packet}
    tcp |= {"min_rto": seconds, "initial_rto": seconds, "max_rto": seconds}
    return {
        "name": "extremes",
        "duration": seconds,
        "trace": {"interval": seconds / 10},
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": rate, "delay": seconds / 10, "queue": {"kind": "drop_tail"}},
            "groups": [{"name": "g", "count": 2, "rtt": seconds / 2, "access_rate": rate, "tcp": tcp}],
        },
    }


def test_the_engine_accepts_the_largest_times_rates_windows_and_packets_python_admits():
    """The upper bounds of aqmlab._fields (issue 17), which the engine re-checks against its own
    arithmetic (config.rs): at Python's maxima the engine builds the scenario, and one step
    above each Python refuses it, naming the field."""
    maxima = {"seconds": MAX_SECONDS, "rate": MAX_RATE_BPS, "window": MAX_WINDOW, "packet": MAX_PACKET_BYTES}
    _engine.Simulation(Scenario.from_dict(extreme_scenario(**maxima)).resolved_json(), 1)
    for name, field in [("seconds", "duration"), ("rate", "rate"), ("window", "max_window"), ("packet", "packet_size")]:
        above = {**maxima, name: maxima[name] * 1.001}
        with pytest.raises(ScenarioError, match=rf"\b{field}\b"):
            Scenario.from_dict(extreme_scenario(**above))
