"""Field types shared by the scenario models: unit-string quantities and the base model.

Each quantity type validates with `aqmlab.units` (one plain validator, so an error reads
`topology.groups.0.rtt: '-10ms' must be ...`, not pydantic's union internals) and carries its
JSON Schema: the accepted spellings, the SI unit of a bare number and an example — what
`aqmlab schema` and docs/scenario.md show for every such field.
"""

import ast
import functools
import hashlib
import importlib
import json
import os
import sys
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Discriminator, Field, PlainValidator, Tag, WithJsonSchema
from pydantic._internal._docs_extraction import DocstringVisitor, extract_docstrings_from_cls
from pydantic_core import ValidationError, core_schema

from aqmlab import units

# Upper bounds (issue 17): the engine re-checks the same ones (crates/engine/src/config.rs).
#: Longest duration of any time field, s (about three years; 1e17 ns).
MAX_SECONDS = 1e8
#: Fastest link or source, bit/s (10 Tb/s).
MAX_RATE_BPS = 1e13
#: Largest size (a transfer, a mean transfer size), bytes (1 PB).
MAX_BYTES = 1e15
#: Largest packet on the wire, bytes (the IPv4 maximum).
MAX_PACKET_BYTES = 65_535
#: Largest queue limit in packets (the engine's u32 counter).
MAX_LIMIT_PACKETS = 2**32 - 1
#: Largest initial or maximum window, segments (one event sends at most this many packets).
MAX_WINDOW = 1e7


def _seconds(value):
    seconds = units.seconds(value)
    if seconds > MAX_SECONDS:
        raise ValueError(f"{value!r} is longer than the longest allowed duration, {MAX_SECONDS:g} s")
    return seconds


def _bits_per_second(value):
    rate = units.bits_per_second(value)
    if rate > MAX_RATE_BPS:
        raise ValueError(f"{value!r} is faster than the fastest allowed rate, {MAX_RATE_BPS:g} bit/s (10 Tbps)")
    return rate


def _bytes(value):
    size = units.bytes_(value)
    if size > MAX_BYTES:
        raise ValueError(f"{value!r} is larger than the largest allowed size, {MAX_BYTES:g} bytes (1 PB)")
    return size


def _packet_bytes(value):
    size = units.bytes_(value)
    if size > MAX_PACKET_BYTES:
        raise ValueError(f"{value!r} is larger than the largest packet, {MAX_PACKET_BYTES} bytes")
    return size


def _queue_limit(value):
    limit = units.queue_limit(value)
    if limit.get("packets", 0) > MAX_LIMIT_PACKETS or limit.get("bytes", 0) > MAX_BYTES:
        raise ValueError(f"{value!r}: a queue limit may be at most {MAX_LIMIT_PACKETS} packets or {MAX_BYTES:g} bytes")
    return limit


def _quantity(parse, *, positive: bool):
    def check(value: Any) -> Any:
        if parse(value) == 0 and positive:  # parse raises for anything malformed, negative or too large
            raise ValueError(f"{value!r} must be greater than zero")
        return value

    return PlainValidator(check)


#: The sentence that explains each quantity's spellings, by its `x-quantity` name. A field's
#: own description replaces it in the JSON Schema; `aqmlab.reference` appends it back there and
#: leaves it out of the Markdown table, whose type column already says the same.
UNIT_TEXTS: dict[str, str] = {}


def _schema(kind: str, unit: str, example: str, pattern: str, minimum_exclusive: bool) -> WithJsonSchema:
    number: dict[str, Any] = {"type": "number"}
    number["exclusiveMinimum" if minimum_exclusive else "minimum"] = 0
    return _unit_schema(
        kind,
        unit,
        example,
        [{"type": "string", "pattern": pattern}, number],
        f"a string with a unit, e.g. {example!r}; a number is {unit}",
    )


def _unit_schema(kind: str, unit: str, example: str, forms: list[dict[str, Any]], text: str) -> WithJsonSchema:
    UNIT_TEXTS[kind] = f"{kind}: {text}"
    return WithJsonSchema(
        {"anyOf": forms, "description": UNIT_TEXTS[kind], "examples": [example], "x-unit": unit, "x-quantity": kind}
    )


_TIME = r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*(s|ms|us|µs|μs|ns|min|h|sec|msec|usec|nsec)\s*$"
_RATE = r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*[kKmMgGtT]?(bps|b/s|bit/s|bits/s|Bps|B/s|byte/s|bytes/s)\s*$"
_SIZE = r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*([kKmMgG]i?)?(B|bytes?|bits?)\s*$"
_LIMIT = r"^\s*[0-9.]+([eE][-+]?[0-9]+)?\s*(p|pkts?|packets?|([kKmMgG]i?)?(B|bytes?))\s*$"

Number = int | float | str
Duration = Annotated[Number, _quantity(_seconds, positive=False), _schema("duration", "seconds", "200ms", _TIME, False)]
PositiveDuration = Annotated[
    Number, _quantity(_seconds, positive=True), _schema("duration > 0", "seconds", "200ms", _TIME, True)
]
Rate = Annotated[
    Number, _quantity(_bits_per_second, positive=True), _schema("bit rate > 0", "bit/s", "100Mbps", _RATE, True)
]
Size = Annotated[Number, _quantity(_bytes, positive=True), _schema("size > 0", "bytes", "1500B", _SIZE, True)]
PacketSize = Annotated[
    Number, _quantity(_packet_bytes, positive=True), _schema("packet size > 0", "bytes", "1500B", _SIZE, True)
]
QueueLimit = Annotated[
    Number,
    _quantity(_queue_limit, positive=False),
    _unit_schema(
        "queue limit",
        "packets",
        "2084p",
        [{"type": "string", "pattern": _LIMIT}, {"type": "integer", "minimum": 1}],
        "packets ('2084p') or bytes ('3MB'); a bare integer is packets",
    ),
]
#: A window in segments (initial or maximum window, window thresholds of window laws).
Window = Annotated[float, Field(gt=0.0, le=MAX_WINDOW, allow_inf_nan=False)]


#: The modules whose attribute docstrings are extracted ahead into `DOCSTRINGS_FILE`, with
#: every module of `aqmlab.kinds` (`docstring_modules()`).
DOCSTRING_MODULES = ("queues", "congestion", "transport", "topology", "traffic", "scenario")
#: Each module's class -> {field: docstring}, with the SHA-256 of the source it was extracted
#: from; used only for a source that hashes the same (else the source is parsed, as without
#: it). `python -m aqmlab._fields` rewrites it; tests/test_lazy_imports.py checks it is current.
#: Parsing the six modules cost ~0.02 s of every fresh process's first import (issue 28).
DOCSTRINGS_FILE = "_docstrings.json"


def _parse_docstrings(source: str) -> dict[str, dict[str, str] | None]:
    """Class name -> {field: docstring} for every top-level class of one source file (None: the
    name is defined twice), from one parse of the file."""
    found: dict[str, dict[str, str] | None] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            visitor = DocstringVisitor()
            visitor.generic_visit(node)
            found[node.name] = None if node.name in found else visitor.attrs
    return found


@functools.cache
def _extracted_docstrings() -> dict[str, Any]:
    try:
        with open(os.path.join(os.path.dirname(__file__), DOCSTRINGS_FILE), encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError):
        return {}


@functools.cache
def _module_docstrings(filename: str, module: str) -> dict[str, dict[str, str] | None]:
    """Class name -> {field: docstring} for every top-level class of one source file: from
    `DOCSTRINGS_FILE` while the source is the one they were extracted from, else from one parse
    of the file. Other classes are left to pydantic's own extraction."""
    with open(filename, "rb") as file:
        source = file.read()
    extracted = _extracted_docstrings().get(module)
    if isinstance(extracted, dict) and extracted.get("sha256") == hashlib.sha256(source).hexdigest():
        return extracted["classes"]
    return _parse_docstrings(source.decode("utf-8"))


def docstring_modules() -> list[str]:
    """The modules `DOCSTRINGS_FILE` holds, dotted names under `aqmlab`: `DOCSTRING_MODULES`
    and every module of `aqmlab.kinds`."""
    folder = os.path.join(os.path.dirname(__file__), "kinds")
    kinds = (name.removesuffix(".py") for name in os.listdir(folder) if name.endswith(".py"))
    return [*DOCSTRING_MODULES, *sorted(f"kinds.{name}" for name in kinds if name != "__init__")]


def module_source(name: str) -> str:
    """The source file of a module of `docstring_modules()`."""
    return os.path.join(os.path.dirname(__file__), *name.split(".")) + ".py"


def write_extracted_docstrings() -> str:
    """Rewrite `DOCSTRINGS_FILE` from the sources of `docstring_modules()`; returns its path."""
    folder = os.path.dirname(__file__)
    record = {}
    for name in docstring_modules():
        with open(module_source(name), "rb") as file:
            source = file.read()
        record[f"aqmlab.{name}"] = {
            "sha256": hashlib.sha256(source).hexdigest(),
            "classes": _parse_docstrings(source.decode("utf-8")),
        }
    path = os.path.join(folder, DOCSTRINGS_FILE)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(record, file, indent=1, sort_keys=True, ensure_ascii=False)
        file.write("\n")
    return path


def apply_attribute_docstrings(cls: type[BaseModel]) -> None:
    """Each field's description from the string literal right after it, as pydantic's
    `use_attribute_docstrings` does (the same visitor, the same rule: a description given in
    `Field` wins), but from one parse per module instead of one tokenisation of the source per
    class (pydantic's way cost ~0.1 s over the scenario models; issue 28). Runs at class
    creation, before the deferred validator is built."""
    filename = getattr(sys.modules.get(cls.__module__), "__file__", None)
    docs = (
        _module_docstrings(filename, cls.__module__).get(cls.__name__)
        if filename and filename.endswith(".py")
        else None
    )
    if docs is None:
        docs = extract_docstrings_from_cls(cls, use_inspect=True)
    for name, field in cls.__pydantic_fields__.items():
        if field.description is None and name in docs:
            field.description = docs[name]


def default_of(model: type[BaseModel], **values: Any) -> Callable[[], Any]:
    """A `default_factory` for a field whose default is a model: `model.model_construct(**values)`,
    the same instance as `model(**values)` (the same fields, fields set and type), without
    building `model`'s own validator. Calling the class built one validator per such default at
    the first validation, seven besides the scenario's (issue 28). Only for values that pass the
    model's checks, as a default must (pydantic does not validate defaults either);
    `tests/test_lazy_imports.py` checks each factory against `model(**values)`."""

    def factory() -> Any:
        return model.model_construct(**values)

    factory.model, factory.values = model, values  # type: ignore[attr-defined]  # for the test
    factory.__qualname__ = f"default_of({model.__name__})"
    return factory


#: The package of the kinds' modules: a registry names each kind's class "module:Class" there.
KINDS_PACKAGE = "aqmlab.kinds"


def load_kind(reference: str) -> type[BaseModel]:
    """The class a registry names, "module:Class" with the module in `KINDS_PACKAGE`; the
    module (and so the class) is imported the first time it is asked for."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(f"{KINDS_PACKAGE}.{module}"), name)


def kind_attributes(module: str, *registries: Mapping[Any, str], **others: str) -> Callable[[str], Any]:
    """A `__getattr__` (PEP 562) for the module `module` that imports a kind its registries
    name, or a class of `others` (name -> its module in `KINDS_PACKAGE`), the first time it is
    asked for by name: `from aqmlab.queues import Red` works as when the class was defined there."""
    where = {reference.partition(":")[2]: reference for registry in registries for reference in registry.values()}
    where.update({name: f"{kind_module}:{name}" for name, kind_module in others.items()})

    def __getattr__(name: str) -> Any:
        reference = where.get(name)
        if reference is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = load_kind(reference)
        setattr(sys.modules[module], name, value)
        return value

    return __getattr__


class Kinds:
    """`Annotated[Base, Kinds("kind", {"red": "queue_red:Red", ...})]`: the tagged union, on the
    field `kind` (as `Field(discriminator="kind")`), of the models a registry names by tag, each
    "module:Class" in `KINDS_PACKAGE`; or `Kinds(function, {...})`, the tag given by a function
    (as `Discriminator(function)` over `Annotated[A, Tag("a")] | ...`). A member's module is
    imported, its class created and its validator built the first time a value carries its tag
    (issue 28: creating and building every queue, window law, topology and group kind was most
    of the first `simulate` in a fresh process; a scenario names a few).

    Everything else is pydantic's tagged union of all the members (`union()`): a value the
    member rejects, an unknown tag or a missing one is validated again by it (built then, once),
    which raises pydantic's own errors (type, location with the tag, message, the allowed tags);
    the JSON Schema is its; a value serialises as its model does. The set of kinds is the
    registry's keys (`tags()`), known without importing any member.

    Validation passes the caller's `context` on; strict mode is the member's own (the scenario
    models are validated lax)."""

    def __init__(self, discriminator: str | Callable[[Any], Any], members: Mapping[Any, str]) -> None:
        self.discriminator = discriminator
        self.members = dict(members)
        """Tag -> "module:Class", in the order of the union (its JSON Schema, its error messages)."""

    @staticmethod
    def of(annotation: Any) -> "Kinds":
        """The `Kinds` of an annotated union of kinds (`Kinds.of(aqmlab.queues.Queue)`)."""
        for meta in getattr(annotation, "__metadata__", ()):
            if isinstance(meta, Kinds):
                return meta
        raise TypeError(f"{annotation!r} is not a union of kinds, Annotated[..., Kinds(...)]")

    def tags(self) -> list[Any]:
        """Every tag, in the union's order, without importing any member."""
        return list(self.members)

    def model(self, tag: Any) -> type[BaseModel]:
        """The member a tag names (imported on first use); KeyError for another tag."""
        return load_kind(self.members[tag])

    def models(self) -> dict[Any, type[BaseModel]]:
        """Tag -> member, every one (all imported)."""
        return {tag: self.model(tag) for tag in self.members}

    def union(self) -> Any:
        """pydantic's own tagged union of every member, in the registry's order."""
        if callable(self.discriminator):
            tagged = tuple(Annotated[model, Tag(tag)] for tag, model in self.models().items())
            return Annotated[typing.Union[tagged], Discriminator(self.discriminator)]  # noqa: UP007
        models = tuple(dict.fromkeys(self.models().values()))  # a model with two tags once
        return Annotated[typing.Union[models], Field(discriminator=self.discriminator)]  # noqa: UP007

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> core_schema.CoreSchema:
        tag_of = self._tag_function()
        whole = functools.cache(self._whole)

        def validate(value: Any, info: core_schema.ValidationInfo) -> Any:
            try:
                reference = self.members.get(tag_of(value))
            except TypeError:  # an unhashable tag: not one of the members'
                reference = None
            if reference is not None:
                try:
                    return load_kind(reference).__pydantic_validator__.validate_python(value, context=info.context)
                except ValidationError:
                    pass
            # The whole union's own error (with the member's location under the tag).
            return whole().validate_python(value, context=info.context)

        def serialise(value: Any, nxt: core_schema.SerializerFunctionWrapHandler) -> Any:
            model = type(value)
            if isinstance(value, BaseModel) and not model.__pydantic_complete__:
                model.model_rebuild()  # a default made by `default_of` (model_construct)
            return nxt(value)

        return core_schema.with_info_plain_validator_function(
            validate,
            serialization=core_schema.wrap_serializer_function_ser_schema(serialise, schema=core_schema.any_schema()),
            metadata={"pydantic_js_functions": [lambda _schema, js: js(whole().core_schema)]},
        )

    def _whole(self) -> Any:
        """The whole union's adapter (its module loads on the first failing validation)."""
        from pydantic import TypeAdapter

        return TypeAdapter(self.union())

    def _tag_function(self) -> Callable[[Any], Any]:
        if callable(self.discriminator):
            return self.discriminator
        name = self.discriminator
        return lambda value: value.get(name) if isinstance(value, dict) else getattr(value, name, None)


class Model(BaseModel):
    """Frozen, and unknown fields are errors (a typo never passes silently). Each field is
    documented by the string literal right after it (attribute docstrings): that text is the
    field's description in docs/scenario.md and in the JSON Schema.

    Validators are built on first use (`defer_build`): once for the model validated, not once
    for every model at import (issue 28: importing the scenario models cost ~0.2 s)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        apply_attribute_docstrings(cls)


if __name__ == "__main__":
    print(f"wrote {write_extracted_docstrings()}")
