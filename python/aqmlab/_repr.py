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

__all__ = ["html", "register_html", "registered"]

#: "module.QualName" of a type -> ("module", "function") of the function drawing its HTML.
_HTML: dict[str, tuple[str, str]] = {}


def _type_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def register_html(type_name: str, renderer: str) -> None:
    """Objects of `type_name` ("module.QualName"), or of a subclass, are shown in Jupyter
    by `renderer` ("module:function", a function of the object returning HTML)."""
    module, _, function = renderer.partition(":")
    if not module or not function or "." not in type_name:
        raise ValueError(f"register_html({type_name!r}, {renderer!r}): expected 'module.Type', 'module:function'")
    _HTML[type_name] = (module, function)


def registered() -> dict[str, tuple[str, str]]:
    """A copy of the registry: type name -> (display module, function)."""
    return dict(_HTML)


def html(obj: Any) -> str | None:
    """The HTML display of `obj` by the function registered for its type (the nearest in
    its MRO), or None when none is (Jupyter then shows its `repr`)."""
    for cls in type(obj).__mro__:
        target = _HTML.get(_type_name(cls))
        if target is not None:
            module, function = target
            return getattr(importlib.import_module(module), function)(obj)
    return None
