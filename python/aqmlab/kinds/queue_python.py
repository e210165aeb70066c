"""PythonPolicy: the scenario model of `kind = "python"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Any, Literal

from pydantic import Field

from aqmlab import units
from aqmlab._fields import Model, QueueLimit


class PythonPolicy(Model):
    """A queue policy written as a Python class (`aqmlab.extensions.QueuePolicy`; see
    docs/extending.md), called by the engine at every arrival (and dequeue, if it defines
    `on_dequeue`). Engine: `queue/external.rs`, binding `crates/py/src/hooks/queue.rs`."""

    kind: Literal["python"] = "python"
    """Selects a queue policy written in Python."""
    limit: QueueLimit = "1000p"
    """Buffer size: an arrival that does not fit in it is dropped."""
    policy: str = Field(pattern=r"^[^:]+:[A-Za-z_][A-Za-z0-9_]*$")
    """The class: "module:Class" (a module on sys.path) or "path/file.py:Class" (absolute, or
    relative to the working directory)."""
    params: dict[str, Any] = {}
    """Keyword arguments of the class's constructor (numbers, strings, booleans, lists, tables)."""

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {"kind": "python", "limit": units.queue_limit(self.limit), "policy": self.policy, "params": self.params}
