"""Topologies of a scenario: the dumbbell (seed 000 Fig. 5), the parking lot (seed 000
Fig. 16, seed 001 Section III-B, seed 004 Fig. 1b) and general networks of routers and
links (seed 002 Fig. 11).

The engine runs two kinds: `dumbbell` and `network`; a parking lot is resolved into a
network of routers `r0 .. rN` joined in series.
"""

import re
from typing import Annotated, Any

from aqmlab._declarations import Engine, engine_fields
from aqmlab._fields import Kinds, Model, default_of, kind_attributes
from aqmlab.kinds.queue_drop_tail import DropTail

#: The default reverse queue: DropTail with 100 000 packets, in effect unlimited.
LARGE_REVERSE_BUFFER = default_of(DropTail, limit="100000p")


def _check_unique_groups(groups: list[dict[str, Any]]) -> None:
    names = [group["name"] for group in groups]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"group names must be unique; repeated: {duplicates}")


#: Link names become file names (`figure-NAME.png`) and column values: letters, digits and
#: `_ . -`, starting with a letter or digit, at most 64 characters.
LINK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
#: Names the engine gives the per-flow edge links.
RESERVED_LINK_NAMES = {"access", "access_reverse", "receiver", "receiver_reverse", "bottleneck", "bottleneck_reverse"}


def _check_link_names(names: list[str]) -> None:
    """Every traced name (`name` and `name_reverse`) must be a valid, unique file name, so a
    run never ends with results that cannot be saved, and `link_id` never finds two links."""
    for index, name in enumerate(names):
        if not LINK_NAME.fullmatch(name):
            raise ValueError(
                f"links[{index}].name = {name!r}: a link name is 1-64 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit (it names files such as figure-NAME.png)"
            )
        if name in RESERVED_LINK_NAMES:
            raise ValueError(f"links[{index}].name = {name!r} is reserved for the links the engine adds")
    traced = [traced for name in names for traced in (name, f"{name}_reverse")]
    repeated = sorted({name for name in traced if traced.count(name) > 1})
    if repeated:
        raise ValueError(
            f"link names must be unique, counting the reverse direction NAME_reverse of each link: "
            f"{repeated} would name two links"
        )


def _check_rtt(index: int, group: Any, one_way_s: float, what: str) -> None:
    if group.rtt_low_s <= 2 * one_way_s:
        raise ValueError(
            f"groups[{index}].rtt = {group.rtt!r} must exceed twice the one-way delay of {what} "
            f"({one_way_s * 1000:g} ms); the rest of the RTT is spent on the edge links"
        )


#: A link's queue: resolved by the link, with the link's own delay (`link_fields`).
LINK_QUEUE = Engine(omit=True)


def link_fields(link: Any) -> dict[str, Any]:
    """A link's engine config: its declared fields (aqmlab._declarations), and its two queues
    resolved with its propagation delay (RED's automatic weight reads it)."""
    fields = engine_fields(link)
    fields["queue"] = link.queue.resolved(fields["delay_ns"])
    fields["reverse_queue"] = link.reverse_queue.resolved(fields["delay_ns"])
    return fields


#: Every topology kind: its tag and its class, "module:Class" in `aqmlab.kinds`, imported when
#: a scenario first names the tag (issue 28). The order is the union's (JSON Schema, errors).
TOPOLOGY_KINDS = {
    "dumbbell": "topology_dumbbell:Dumbbell",
    "parking_lot": "topology_parking_lot:ParkingLot",
    "network": "topology_network:Network",
}
Topology = Annotated[Model, Kinds("kind", TOPOLOGY_KINDS)]

__getattr__ = kind_attributes(
    __name__,
    TOPOLOGY_KINDS,
    Bottleneck="topology_dumbbell",
    CoreLink="topology_network",
    SeriesLink="topology_parking_lot",
)
