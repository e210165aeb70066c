"""Queue disciplines of a link, as scenario models (engine: crates/engine/src/queue/)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from aqmlab import units
from aqmlab._fields import Model, QueueLimit, Size

class DropTail(Model):
    """First in, first out; arrivals beyond `limit` are dropped."""

    kind: Literal["drop_tail"] = "drop_tail"
    limit: QueueLimit = "1000p"

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {"kind": "drop_tail", "limit": units.queue_limit(self.limit)}


class RandomDrop(Model):
    """Drops each arrival independently with a fixed `probability` (seed 003 Section II-B);
    with `ecn`, ECN-capable packets are marked instead (RFC 3168 Section 5)."""

    kind: Literal["random_drop"] = "random_drop"
    limit: QueueLimit = "1000p"
    probability: float = Field(ge=0.0, le=1.0)
    ecn: bool = False

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        return {"kind": "random_drop", "limit": units.queue_limit(self.limit), "probability": self.probability,
                "ecn": self.ecn}


class Red(Model):
    """Random Early Detection with ns-2 semantics (Floyd and Jacobson 1993; ns-2 red.cc).

    Thresholds are in packets (bytes when `queue_in_bytes`). `q_weight` is the EWMA
    weight, or ns-2's automatic choice: 0, -1 (default, from link rate and delay) or -2.
    `instantaneous` decides on the current queue (seed 000 eqs. (25)-(26)).
    """

    kind: Literal["red"] = "red"
    limit: QueueLimit = "1000p"
    min_th: float = Field(ge=0.0)
    max_th: float = Field(gt=0.0)
    max_p: float = Field(default=0.1, gt=0.0, le=1.0)
    q_weight: float = -1.0
    gentle: bool = False
    wait: bool = True
    ecn: bool = False
    byte_mode: bool = False
    queue_in_bytes: bool = False
    instantaneous: bool = False
    mean_packet_size: Size = "1500B"

    @model_validator(mode="after")
    def _check(self) -> Red:
        if self.min_th >= self.max_th:
            raise ValueError(f"min_th ({self.min_th}) must be below max_th ({self.max_th})")
        if not (0.0 < self.q_weight <= 1.0 or self.q_weight in (0.0, -1.0, -2.0)):
            raise ValueError(
                f"q_weight = {self.q_weight} is not allowed; give a weight in (0, 1] or "
                "0, -1, -2 for ns-2's automatic weights"
            )
        return self

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        fields = self.model_dump(exclude={"kind", "limit", "mean_packet_size"})
        return {
            "kind": "red",
            "limit": units.queue_limit(self.limit),
            **fields,
            "mean_packet_bytes": units.bytes_(self.mean_packet_size),
            "link_delay_ns": link_delay_ns,
        }


Queue = Annotated[DropTail | RandomDrop | Red, Field(discriminator="kind")]
