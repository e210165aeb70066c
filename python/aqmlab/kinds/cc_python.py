"""PythonLaw: the scenario model of `kind = "python"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Any, Literal

from pydantic import Field

from aqmlab.congestion import _Algorithm


class PythonLaw(_Algorithm):
    """A window law written as a Python class (`aqmlab.extensions.WindowLaw`; see
    docs/extending.md): the shared sender calls its on_ack, on_loss, on_timeout and on_ecn.
    Engine: `tcp/cc/external.rs`, binding `crates/py/src/hooks/cc.rs`."""

    kind: Literal["python"] = "python"
    """Selects a window law written in Python."""
    law: str = Field(pattern=r"^[^:]+:[A-Za-z_][A-Za-z0-9_]*$")
    """The class: "module:Class" (a module on sys.path) or "path/file.py:Class" (absolute, or
    relative to the working directory)."""
    params: dict[str, Any] = {}
    """Keyword arguments of the class's constructor."""
