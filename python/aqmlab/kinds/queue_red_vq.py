"""RedVq: the scenario model of `kind = "red_vq"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.queues.QUEUE_KINDS`; issue 28)."""

from typing import Any, Literal

from pydantic import Field

from aqmlab.kinds.queue_red import Red


class RedVq(Red):
    """RED on a virtual queue served at γ·C (seed 002 Section V-A's REDvq); the thresholds
    apply to the virtual queue, `limit` is the real buffer."""

    kind: Literal["red_vq"] = "red_vq"  # type: ignore[assignment]
    """Selects RED on a virtual queue."""
    gamma: float = Field(default=0.95, gt=0.0, le=1.0)
    """Virtual capacity factor γ: the virtual queue RED decides on is served at γ · C (seed 002
    Section V)."""

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        red = super().resolved(link_delay_ns)
        red.pop("kind")
        return {"kind": "red_vq", "gamma": red.pop("gamma"), "red": red}
