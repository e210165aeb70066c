import pytest
from aqmlab import units


@pytest.mark.parametrize(
    ("text", "expected"),
    [("100Mbps", 100_000_000), ("2 Mbit/s", 2_000_000), ("1Gbps", 1_000_000_000), ("1.5 kbps", 1500), (64000, 64000)],
)
def test_rates(text, expected):
    assert units.bits_per_second(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"), [("200ms", 200_000_000), ("1.5 s", 1_500_000_000), ("10us", 10_000), (2, 2_000_000_000)]
)
def test_durations(text, expected):
    assert units.nanoseconds(text) == expected


@pytest.mark.parametrize(("text", "expected"), [("1500B", 1500), ("1.5kB", 1500), ("64KiB", 65536), ("1000 bit", 125)])
def test_sizes(text, expected):
    assert units.bytes_(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2084p", {"packets": 2084}),
        ("10 packets", {"packets": 10}),
        (50, {"packets": 50}),
        ("3MB", {"bytes": 3_000_000}),
    ],
)
def test_limits(text, expected):
    assert units.queue_limit(text) == expected


@pytest.mark.parametrize(
    ("parse", "text", "fragment"),
    [
        (units.bits_per_second, "100 Mbsp", "unknown unit"),
        (units.bits_per_second, "100ms", "not a bit-rate unit"),
        (units.seconds, "10 Mbps", "wrong dimension"),
        (units.seconds, "-5s", "non-negative"),
        (units.bytes_, "1500 s", "not a size unit"),
        (units.queue_limit, "2.5p", "whole number"),
        (units.queue_limit, "0p", "at least 1"),
        (units.seconds, "fast", "is not a duration"),
        (units.seconds, True, "is not a duration"),
    ],
)
def test_malformed_values_say_what_is_allowed(parse, text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse(text)
