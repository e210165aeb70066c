"""Unit strings for scenario files: "100Mbps", "200ms", "1500B", "2084p".

Parsing and conversion are pint's; this module only decides which dimension each field
accepts and what a bare number means (SI base units: seconds, bits per second, bytes,
packets). Every error names what was given and what is allowed.
"""

from __future__ import annotations

import functools
import math
import re

import pint

#: What a bare number means, per kind of quantity.
BARE_NUMBER_UNIT = {"time": "s", "rate": "bit/s", "size": "B", "limit": "packets"}

_ALLOWED = {
    "time": "a duration such as '200ms', '1.5 s', '10us' (a bare number is seconds)",
    "rate": "a bit rate such as '100Mbps', '2 Mbit/s', '1Gbps' (a bare number is bit/s)",
    "size": "a size such as '1500B', '1.5kB', '64KiB' (a bare number is bytes)",
    "limit": "a queue limit in packets such as '2084p' or in bytes such as '3MB' (a bare integer is packets)",
}

_NUMBER_AND_UNIT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/]*)\s*$")
_PACKET_UNITS = {"p", "pkt", "pkts", "packet", "packets"}


@functools.cache
def _registry() -> pint.UnitRegistry:
    return pint.UnitRegistry()


def _split(text: str, kind: str) -> tuple[float, str]:
    match = _NUMBER_AND_UNIT.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not {_ALLOWED[kind]}")
    return float(match.group(1)), match.group(2)


def _convert(value: float, unit: str, target: str, kind: str, original: str) -> float:
    registry = _registry()
    if kind == "rate" and unit.endswith("bps"):
        # "Mbps" is ambiguous to pint (mega-baud or mega-point-per-second): spell it out.
        unit = unit[: -len("bps")] + "bit/s"
    elif kind == "rate" and unit.endswith("Bps"):
        unit = unit[: -len("Bps")] + "B/s"
    try:
        quantity = registry.Quantity(value, unit)
    except (pint.errors.UndefinedUnitError, AttributeError, ValueError):
        raise ValueError(f"{original!r}: unknown unit {unit!r}; expected {_ALLOWED[kind]}") from None
    # Bits and bytes are dimensionless in pint, so check the unit family by name as well.
    family = str(quantity.units)
    if kind in ("size", "limit") and not family.endswith(("bit", "byte")):
        raise ValueError(f"{original!r}: {unit!r} is not a size unit; expected {_ALLOWED[kind]}")
    if kind == "rate" and not any(name in family for name in ("bit", "byte", "baud")):
        raise ValueError(f"{original!r}: {unit!r} is not a bit-rate unit; expected {_ALLOWED[kind]}")
    try:
        return float(quantity.to(target).magnitude)
    except pint.errors.DimensionalityError:
        raise ValueError(f"{original!r} has the wrong dimension; expected {_ALLOWED[kind]}") from None


def _finite_non_negative(number: float, original: object, kind: str) -> float:
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{original!r} must be finite and non-negative; expected {_ALLOWED[kind]}")
    return number


def _parse(value: object, kind: str, target: str) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not {_ALLOWED[kind]}")
    if isinstance(value, int | float):
        return _finite_non_negative(float(value), value, kind)
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not {_ALLOWED[kind]}")
    number, unit = _split(value, kind)
    if unit == "":
        return _finite_non_negative(number, value, kind)
    return _finite_non_negative(_convert(number, unit, target, kind, value), value, kind)


def seconds(value: object) -> float:
    """A duration in seconds."""
    return _parse(value, "time", "s")


def nanoseconds(value: object) -> int:
    """A duration in integer nanoseconds (rounded to the nearest nanosecond)."""
    return round(seconds(value) * 1e9)


def bits_per_second(value: object) -> int:
    """A bit rate in integer bits per second."""
    return round(_parse(value, "rate", "bit/s"))


def bytes_(value: object) -> int:
    """A size in integer bytes."""
    return round(_parse(value, "size", "byte"))


def queue_limit(value: object) -> dict[str, int]:
    """A queue limit: {"packets": n} or {"bytes": n}, as the engine's `Limit` expects."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not {_ALLOWED['limit']}")
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        packets = int(value)
    elif isinstance(value, str):
        number, unit = _split(value, "limit")
        if unit.lower() in _PACKET_UNITS or unit == "":
            if not number.is_integer():
                raise ValueError(f"{value!r}: a packet limit must be a whole number")
            packets = int(number)
        else:
            size = round(_finite_non_negative(_convert(number, unit, "byte", "limit", value), value, "limit"))
            if size < 1:
                raise ValueError(f"{value!r}: a queue limit must be at least 1 byte")
            return {"bytes": size}
    else:
        raise ValueError(f"{value!r} is not {_ALLOWED['limit']}")
    if packets < 1:
        raise ValueError(f"{value!r}: a queue limit must be at least 1 packet")
    return {"packets": packets}
