"""Unit strings for scenario files and options: "100Mbps", "100 Mb/s", "200ms", "1500B", "2084p".

One small grammar, no unit registry (pint took ~0.4 s to build and pulled in dask at import).
A value is a number followed by a unit; the unit decides the dimension:

- durations: `s`, `ms`, `us`, `µs` (or `μs`), `ns`, `min`, `h` (also `sec`, `msec`, `usec`,
  `second(s)`, ...). Case is ignored: no one means megaseconds by `Ms`.
- bit rates: a prefix `k`, `M`, `G`, `T` and `bps`, `b/s`, `bit/s` (bits) or `Bps`, `B/s`,
  `byte/s` (bytes): `100Mbps`, `100 Mb/s`, `100 Mbit/s`, `12.5MB/s`. The prefix's case is
  ignored, so `100mbps` is 100 megabit/s (no one means millibit/s); the case of `b`/`B` is
  not: lower-case is bits, upper-case bytes, and the all-capitals `MBPS` is refused as
  ambiguous.
- sizes: `B`, `byte(s)`, `kB`/`KB`, `MB`, `GB` (powers of 1000), `KiB`, `MiB`, `GiB` (powers
  of 1024), `bit`, `kbit`, `Mbit`. A lone `b` (`1500b`, `64kb`) is refused as ambiguous.
- packets (queue limits only): `p`, `pkt`, `pkts`, `packet(s)`, any case.

A string must carry a unit ("10" is refused: 10 what?). A number that is not a string (a
TOML/JSON/Python int or float) is taken in SI base units — seconds, bits per second, bytes —
and a bare integer queue limit is packets; the scenario reference (`docs/scenario.md`) says so
for every field. Every error names what was given, what is allowed, and when the input is
close to something valid, what was probably meant.
"""

from __future__ import annotations

import math
import re

#: What a bare (non-string) number means, per kind of quantity.
BARE_NUMBER_UNIT = {"time": "s", "rate": "bit/s", "size": "B", "limit": "packets"}

_ALLOWED = {
    "time": "a duration such as '200ms', '1.5 s', '10us' (a number that is not a string is seconds)",
    "rate": "a bit rate such as '100Mbps', '100 Mb/s', '2 Mbit/s', '1Gbps' (a number that is not a string is bit/s)",
    "size": "a size such as '1500B', '1.5kB', '64KiB' (a number that is not a string is bytes)",
    "limit": "a queue limit in packets such as '2084p' or in bytes such as '3MB' (a bare integer is packets)",
}

_NAMES = {"time": "a duration", "rate": "a bit rate", "size": "a size", "packets": "a packet count"}

_NUMBER_AND_UNIT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")

_TIME = {  # unit: (multiplier, divisor) to seconds; dividing keeps '10us' exactly 1e-5 s
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), (1, 1)),
    **dict.fromkeys(("ms", "msec", "msecs", "millisecond", "milliseconds"), (1, 10**3)),
    **dict.fromkeys(("us", "usec", "usecs", "microsecond", "microseconds"), (1, 10**6)),
    **dict.fromkeys(("ns", "nsec", "nsecs", "nanosecond", "nanoseconds"), (1, 10**9)),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), (60, 1)),
    **dict.fromkeys(("h", "hr", "hour", "hours"), (3600, 1)),
}
_PACKETS = {"p", "pkt", "pkts", "packet", "packets"}
_DECIMAL = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}
_BINARY = {"ki": 2.0**10, "mi": 2.0**20, "gi": 2.0**30, "ti": 2.0**40}

# A rate: prefix, then bits or bytes, then "per second" as "/s", "/sec" or "ps".
_RATE = re.compile(r"^(?P<prefix>[kKmMgGtT]?)(?P<base>bits?|bytes?|b|B)(?P<per>/s|/sec|ps|PS|Ps|pS)$", re.IGNORECASE)
# A size: prefix (decimal or binary), then bits or bytes.
_SIZE = re.compile(r"^(?P<prefix>[kKmMgGtT]i?)?(?P<base>bits?|bytes?|b|B)$", re.IGNORECASE)

#: The engine's clock is an unsigned 64-bit count of nanoseconds.
MAX_NANOSECONDS = 2**64 - 1


def _kind_of_base(base: str, per: str = "") -> str | None:
    """'bit', 'byte', or None when the spelling does not say (a lone 'b' for a size, 'BPS')."""
    word = base.lower()
    if word.startswith("bit"):
        return "bit"
    if word.startswith("byte"):
        return "byte"
    if base == "b":
        return "bit" if per else None
    if base == "B":
        return None if per in ("PS", "pS") else "byte"
    return None


def _classify(unit: str, original: str, kind: str) -> tuple[str, tuple[float, float]]:
    """(dimension, (multiplier, divisor) to the SI base unit: s, bit/s, byte, packet) of a unit string."""
    number = _NUMBER_AND_UNIT.match(original).group(1)
    compact = unit.replace(" ", "").replace("µ", "u").replace("μ", "u")
    if compact.lower() in _TIME:
        return "time", _TIME[compact.lower()]
    if compact.lower() in _PACKETS:
        return "packets", (1, 1)
    if compact.lower() == "m":
        raise ValueError(f"{original!r}: 'm' is ambiguous; write 'ms' for milliseconds or 'min' for minutes")
    rate = _RATE.match(compact)
    if rate is not None:
        prefix, base, per = rate.group("prefix"), rate.group("base"), rate.group("per")
        of = _kind_of_base(base, per)
        if of is None:
            raise ValueError(
                f"{original!r} is ambiguous (bits or bytes?); write '{number} {prefix.upper()}bit/s' for bits "
                f"or '{number} {prefix.upper()}B/s' for bytes"
            )
        factor = _DECIMAL[prefix.lower()] * (8.0 if of == "byte" else 1.0)
        return "rate", (factor, 1)
    size = _SIZE.match(compact)
    if size is not None:
        prefix, base = (size.group("prefix") or ""), size.group("base")
        of = _kind_of_base(base)
        if kind == "rate":
            raise ValueError(f"{original!r} is a size, not a bit rate; did you mean '{number}{compact}/s'?")
        if of is None:
            raise ValueError(
                f"{original!r} is ambiguous (bits or bytes?); write '{number}{prefix.upper()}B' for bytes "
                f"or '{number}{prefix.lower() if prefix.lower() == 'k' else prefix.upper()}bit' for bits"
            )
        scale = _BINARY[prefix.lower()] if prefix.lower().endswith("i") else _DECIMAL[prefix.lower()]
        return "size", (scale, 8 if of == "bit" else 1)
    return "unknown", (math.nan, 1)


def _split(text: str, kind: str) -> tuple[float, str]:
    match = _NUMBER_AND_UNIT.match(text)
    if match is None or (match.group(2) and not re.match(r"^[A-Za-zµμ/ ]+$", match.group(2))):
        raise ValueError(f"{text!r} is not {_ALLOWED[kind]}")
    return float(match.group(1)), match.group(2)


def _convert(number: float, unit: str, kind: str, original: str) -> float:
    dimension, (multiplier, divisor) = _classify(unit, original, kind)
    if dimension == "unknown":
        raise ValueError(f"{original!r}: unknown unit {unit!r}; expected {_ALLOWED[kind]}")
    wanted = {"time": ("time",), "rate": ("rate",), "size": ("size",), "limit": ("size", "packets")}[kind]
    if dimension not in wanted:
        wanted_name = _NAMES["size" if kind == "limit" else kind]
        raise ValueError(f"{original!r} is {_NAMES[dimension]}, not {wanted_name}; expected {_ALLOWED[kind]}")
    return number * multiplier / divisor


def _finite_non_negative(number: float, original: object, kind: str) -> float:
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{original!r} must be finite and non-negative; expected {_ALLOWED[kind]}")
    return number


def _parse(value: object, kind: str) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not {_ALLOWED[kind]}")
    if isinstance(value, int | float):
        return _finite_non_negative(float(value), value, kind)
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not {_ALLOWED[kind]}")
    number, unit = _split(value, kind)
    if unit == "":
        bare = value.strip()
        example = {"time": f"'{bare}ms' or '{bare}s'", "rate": f"'{bare}Mbps'", "size": f"'{bare}B'"}[kind]
        raise ValueError(f"{value!r} has no unit; write e.g. {example} ({_ALLOWED[kind]})")
    return _finite_non_negative(_convert(number, unit, kind, value), value, kind)


def seconds(value: object) -> float:
    """A duration in seconds."""
    return _parse(value, "time")


def nanoseconds(value: object) -> int:
    """A duration in integer nanoseconds (rounded to the nearest nanosecond)."""
    nanos = seconds(value) * 1e9
    if nanos > MAX_NANOSECONDS:
        raise ValueError(
            f"{value!r} is longer than the engine's clock can count (at most {MAX_NANOSECONDS / 1e9:.4g} s, "
            "about 584 years, in nanoseconds)"
        )
    return round(nanos)


def bits_per_second(value: object) -> int:
    """A bit rate in integer bits per second."""
    return round(_parse(value, "rate"))


def bytes_(value: object) -> int:
    """A size in integer bytes."""
    return round(_parse(value, "size"))


def queue_limit(value: object) -> dict[str, int]:
    """A queue limit: {"packets": n} or {"bytes": n}, as the engine's `Limit` expects."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not {_ALLOWED['limit']}")
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        packets = int(value)
    elif isinstance(value, str):
        number, unit = _split(value, "limit")
        if unit == "":
            raise ValueError(
                f"{value!r} has no unit; write '{value.strip()}p' for packets or '{value.strip()}B' for bytes"
            )
        dimension, _factor = _classify(unit, value, "limit")
        if dimension == "packets":
            if not number.is_integer():
                raise ValueError(f"{value!r}: a packet limit must be a whole number")
            packets = int(number)
        else:
            size = round(_finite_non_negative(_convert(number, unit, "limit", value), value, "limit"))
            if size < 1:
                raise ValueError(f"{value!r}: a queue limit must be at least 1 byte")
            return {"bytes": size}
    else:
        raise ValueError(f"{value!r} is not {_ALLOWED['limit']}")
    if packets < 1:
        raise ValueError(f"{value!r}: a queue limit must be at least 1 packet")
    return {"packets": packets}
