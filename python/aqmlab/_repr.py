"""Notebook display of aqmlab's result types, looked up by type (issue 32).

A result type's `_repr_html_` asks `html(self)`: the type never imports its display, which
sits a layer above it (`aqmlab.notebook` draws `Results` with `aqmlab.plots`, which reads
`Results`). The package's `__init__` names each type's display function with
`register_html`, by module path, so a display module is imported only when an object is
first shown and `import aqmlab` stays light.

This module imports nothing of aqmlab.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["html", "register_html", "register_text", "registered", "registered_text", "text"]

#: "module.QualName" of a type -> ("module", "function") of the function drawing its HTML.
_HTML: dict[str, tuple[str, str]] = {}
#: The same for the plain-text display (`__repr__`) of the types that have one of their own.
_TEXT: dict[str, tuple[str, str]] = {}


def _type_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _register(registry: dict[str, tuple[str, str]], type_name: str, renderer: str) -> None:
    module, _, function = renderer.partition(":")
    if not module or not function or "." not in type_name:
        raise ValueError(f"register({type_name!r}, {renderer!r}): expected 'module.Type', 'module:function'")
    registry[type_name] = (module, function)


def register_html(type_name: str, renderer: str) -> None:
    """Objects of `type_name` ("module.QualName"), or of a subclass, are shown in Jupyter
    by `renderer` ("module:function", a function of the object returning HTML)."""
    _register(_HTML, type_name, renderer)


def register_text(type_name: str, renderer: str) -> None:
    """Objects of `type_name` print (`repr`) as `renderer` ("module:function") returns."""
    _register(_TEXT, type_name, renderer)


def registered() -> dict[str, tuple[str, str]]:
    """A copy of the HTML registry: type name -> (display module, function)."""
    return dict(_HTML)


def registered_text() -> dict[str, tuple[str, str]]:
    """A copy of the text registry: type name -> (display module, function)."""
    return dict(_TEXT)


def _render(registry: dict[str, tuple[str, str]], obj: Any) -> str | None:
    for cls in type(obj).__mro__:
        target = registry.get(_type_name(cls))
        if target is not None:
            module, function = target
            return getattr(importlib.import_module(module), function)(obj)
    return None


def html(obj: Any) -> str | None:
    """The HTML display of `obj` by the function registered for its type (the nearest in
    its MRO), or None when none is (Jupyter then shows its `repr`)."""
    return _render(_HTML, obj)


def text(obj: Any) -> str:
    """The text display of `obj` by the function registered for its type, or the default
    `object.__repr__` when none is."""
    shown = _render(_TEXT, obj)
    return object.__repr__(obj) if shown is None else shown
