"""Field types shared by the scenario models: unit-string quantities and the base model."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from aqmlab import units

# Upper bounds (issue 17): the engine re-checks the same ones (crates/engine/src/config.rs).
#: Longest duration of any time field, s (about three years; 1e17 ns).
MAX_SECONDS = 1e8
#: Fastest link or source, bit/s (10 Tb/s).
MAX_RATE_BPS = 1e13
#: Largest size (a transfer, a mean transfer size), bytes (1 PB).
MAX_BYTES = 1e15
#: Largest packet on the wire, bytes (the IPv4 maximum).
MAX_PACKET_BYTES = 65_535
#: Largest queue limit in packets (the engine's u32 counter).
MAX_LIMIT_PACKETS = 2**32 - 1
#: Largest initial or maximum window, segments (one event sends at most this many packets).
MAX_WINDOW = 1e7


def _seconds(value):
    seconds = units.seconds(value)
    if seconds > MAX_SECONDS:
        raise ValueError(f"{value!r} is longer than the longest allowed duration, {MAX_SECONDS:g} s")
    return seconds


def _bits_per_second(value):
    rate = units.bits_per_second(value)
    if rate > MAX_RATE_BPS:
        raise ValueError(f"{value!r} is faster than the fastest allowed rate, {MAX_RATE_BPS:g} bit/s (10 Tbps)")
    return rate


def _bytes(value):
    size = units.bytes_(value)
    if size > MAX_BYTES:
        raise ValueError(f"{value!r} is larger than the largest allowed size, {MAX_BYTES:g} bytes (1 PB)")
    return size


def _packet_bytes(value):
    size = units.bytes_(value)
    if size > MAX_PACKET_BYTES:
        raise ValueError(f"{value!r} is larger than the largest packet, {MAX_PACKET_BYTES} bytes")
    return size


def _queue_limit(value):
    limit = units.queue_limit(value)
    if limit.get("packets", 0) > MAX_LIMIT_PACKETS or limit.get("bytes", 0) > MAX_BYTES:
        raise ValueError(f"{value!r}: a queue limit may be at most {MAX_LIMIT_PACKETS} packets or {MAX_BYTES:g} bytes")
    return limit


def _checked(parse):
    def check(value):
        parse(value)
        return value

    return AfterValidator(check)


def _positive(parse):
    def check(value):
        if parse(value) <= 0:
            raise ValueError(f"{value!r} must be greater than zero")
        return value

    return AfterValidator(check)


Number = int | float | str
Duration = Annotated[Number, _checked(_seconds)]
PositiveDuration = Annotated[Number, _positive(_seconds)]
Rate = Annotated[Number, _positive(_bits_per_second)]
Size = Annotated[Number, _positive(_bytes)]
PacketSize = Annotated[Number, _positive(_packet_bytes)]
QueueLimit = Annotated[Number, _checked(_queue_limit)]
#: A window in segments (initial or maximum window, window thresholds of window laws).
Window = Annotated[float, Field(gt=0.0, le=MAX_WINDOW, allow_inf_nan=False)]


class Model(BaseModel):
    """Frozen, and unknown fields are errors (a typo never passes silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
