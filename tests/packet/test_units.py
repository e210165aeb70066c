"""The unit grammar (python/aqmlab/units.py): what networking people write, and clear refusals."""

import subprocess
import sys
from pathlib import Path

import pytest
from aqmlab import units


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("100Mbps", 100_000_000),
        ("100mbps", 100_000_000),  # the prefix's case is ignored: no one means millibit/s
        ("100 Mb/s", 100_000_000),  # ns-3's and the papers' spelling
        ("100 Mbit/s", 100_000_000),
        ("100 mbit/s", 100_000_000),
        ("2 Mbit/s", 2_000_000),
        ("1Gbps", 1_000_000_000),
        ("1 Gb/s", 1_000_000_000),
        ("1.5 kbps", 1500),
        ("1.5 Kbps", 1500),
        ("12.5MB/s", 100_000_000),  # upper-case B is bytes
        ("12.5 MBps", 100_000_000),
        ("1 kbyte/s", 8000),
        ("64000 bit/s", 64000),
        ("64000 bps", 64000),
        (64000, 64000),  # a number that is not a string is bit/s (documented)
    ],
)
def test_rates(text, expected):
    assert units.bits_per_second(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("200ms", 200_000_000),
        ("200 ms", 200_000_000),
        ("1.5 s", 1_500_000_000),
        ("10us", 10_000),
        ("10 µs", 10_000),  # MICRO SIGN
        ("10μs", 10_000),  # GREEK SMALL LETTER MU
        ("250ns", 250),
        ("2 min", 120_000_000_000),
        ("10 msec", 10_000_000),
        ("5MS", 5_000_000),  # time units ignore case
        (2, 2_000_000_000),
    ],
)
def test_durations(text, expected):
    assert units.nanoseconds(text) == expected


def test_sub_second_units_divide_exactly():
    assert units.seconds("10us") == 1e-5
    assert units.seconds("200ms") == 0.2


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1500B", 1500), ("1.5kB", 1500), ("1.5KB", 1500), ("64KiB", 65536), ("1000 bit", 125), ("1 Mbit", 125_000)],
)
def test_sizes(text, expected):
    assert units.bytes_(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2084p", {"packets": 2084}),
        ("10 packets", {"packets": 10}),
        ("10 pkts", {"packets": 10}),
        ("10 PKT", {"packets": 10}),
        (50, {"packets": 50}),
        ("3MB", {"bytes": 3_000_000}),
    ],
)
def test_limits(text, expected):
    assert units.queue_limit(text) == expected


@pytest.mark.parametrize(
    ("parse", "text", "fragment"),
    [
        (units.bits_per_second, "100 Mbsp", "unknown unit 'Mbsp'"),
        (units.bits_per_second, "100ms", "is a duration, not a bit rate"),
        (
            units.bits_per_second,
            "100 MBPS",
            r"ambiguous \(bits or bytes\?\); write '100 Mbit/s' for bits or '100 MB/s'",
        ),
        (units.bits_per_second, "100Mb", r"is a size, not a bit rate; did you mean '100Mb/s'"),
        (units.bits_per_second, "100", "has no unit; write e.g. '100Mbps'"),
        (units.seconds, "10", "has no unit; write e.g. '10ms' or '10s'"),
        (units.seconds, "10 m", "'m' is ambiguous; write 'ms' for milliseconds or 'min'"),
        (units.seconds, "10 Mbps", "is a bit rate, not a duration"),
        (units.seconds, "-5s", "non-negative"),
        (units.seconds, "nan s", "is not a duration"),
        (units.bytes_, "1500 s", "is a duration, not a size"),
        (units.bytes_, "1500b", "ambiguous.*'1500B' for bytes or '1500bit' for bits"),
        (units.bytes_, "1500", "has no unit; write e.g. '1500B'"),
        (units.queue_limit, "2.5p", "whole number"),
        (units.queue_limit, "0p", "at least 1"),
        (units.queue_limit, "50", "has no unit; write '50p' for packets"),
        (units.queue_limit, "1 s", "is a duration, not a size"),
        (units.seconds, "fast", "is not a duration"),
        (units.seconds, True, "is not a duration"),
    ],
)
def test_malformed_values_say_what_is_allowed(parse, text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse(text)


@pytest.mark.parametrize("value", [1.8e299, 1e300, "1e300s", "2e10 s", float(2**64)])
def test_durations_beyond_the_engine_clock_are_a_unit_error_not_an_overflow(value):
    with pytest.raises(ValueError, match="longer than the engine's clock can count"):
        units.nanoseconds(value)


def test_a_unitless_string_is_an_error_naming_the_field():
    import aqmlab
    from aqmlab.scenario import Scenario

    data = Scenario.from_toml(Path(__file__).parents[2] / "examples" / "seed000-fig6-rtt10.toml").model_dump(
        mode="json"
    )
    data["topology"]["groups"][0]["rtt"] = "10"
    with pytest.raises(aqmlab.ScenarioError, match=r"topology\.groups\.0\.rtt: '10' has no unit"):
        Scenario.from_dict(data)


def test_the_unit_parser_needs_no_registry():
    """pint cost ~0.4 s at import (and pulled in dask); the grammar is plain Python."""
    code = "import sys, aqmlab.units; print(any(m.split('.')[0] in ('pint', 'dask') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
