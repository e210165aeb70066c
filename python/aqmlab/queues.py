"""Queue disciplines of a link, as scenario models (engine: crates/engine/src/queue/).

Each field is declared once; the engine's config of a queue is derived from the declarations
(`aqmlab._declarations`): durations arrive as `*_ns`, sizes as `*_bytes`, the rest by name.
"""

from typing import Annotated, Any, ClassVar

from aqmlab import units
from aqmlab._declarations import Engine, engine_fields
from aqmlab._fields import Kinds, Model, kind_attributes

#: `mean_packet_size` reaches the engine as `mean_packet_bytes`.
MEAN_PACKET_BYTES = Engine(key="mean_packet_bytes")


class QueueModel(Model):
    """A queue discipline: its engine config is its declared fields, converted
    (`aqmlab._declarations.engine_fields`), plus the link delay where the policy needs it."""

    needs_link_delay: ClassVar[bool] = False
    """The engine's config also carries `link_delay_ns` (RED's automatic weight uses it)."""

    def resolved(self, link_delay_ns: int) -> dict[str, Any]:
        fields = engine_fields(self)
        if self.needs_link_delay:
            fields["link_delay_ns"] = link_delay_ns
        return fields


def _limit_in_units(limit: object, queue_in_bytes: bool, mean_packet_bytes: int) -> float:
    """A queue limit in packets, or in bytes with `queue_in_bytes` (converted with the mean size)."""
    resolved = units.queue_limit(limit)
    if "packets" in resolved:
        return float(resolved["packets"] * (mean_packet_bytes if queue_in_bytes else 1))
    return float(resolved["bytes"] if queue_in_bytes else resolved["bytes"] / mean_packet_bytes)


#: Every queue kind: its tag and its class, "module:Class" in `aqmlab.kinds`, imported when a
#: scenario first names the tag (issue 28). The order is the union's (its JSON Schema, errors).
QUEUE_KINDS = {
    "drop_tail": "queue_drop_tail:DropTail",
    "random_drop": "queue_random_drop:RandomDrop",
    "red": "queue_red:Red",
    "pi": "queue_pi:Pi",
    "rem": "queue_rem:Rem",
    "codel": "queue_codel:Codel",
    "pie": "queue_pie:Pie",
    "threshold": "queue_threshold:Threshold",
    "ered": "queue_ered:Ered",
    "red_vq": "queue_red_vq:RedVq",
    "adaptive_red": "queue_adaptive_red:AdaptiveRed",
    "avq": "queue_avq:Avq",
    "python": "queue_python:PythonPolicy",
}
Queue = Annotated[QueueModel, Kinds("kind", QUEUE_KINDS)]

__getattr__ = kind_attributes(__name__, QUEUE_KINDS)
