"""How numbers are shown to people: statistic labels with units, plain numbers, mean ± std.

One place for the terminal tables (`aqmlab run`, `summary`, `study`), the HTML reports and the
notebook display (`_repr_html_`), so a statistic reads the same everywhere: `queue mean [pkt]`,
`goodput [Mb/s]`, `retransmits 35,790` (not 3.579e+04), `0.9995 ± 0.0001`.
"""

from __future__ import annotations

import html
import math
from typing import Any

#: Summary key -> (label, display unit, factor from the stored SI value to the display unit).
STATISTICS: dict[str, tuple[str, str, float]] = {
    "partial": ("partial (run stopped early)", "", 1.0),
    "samples": ("samples in the window", "", 1.0),
    "window_start_s": ("window start", "s", 1.0),
    "window_end_s": ("window end", "s", 1.0),
    "queue_mean_packets": ("queue mean", "pkt", 1.0),
    "queue_std_packets": ("queue std", "pkt", 1.0),
    "queue_max_packets": ("queue max", "pkt", 1.0),
    "average_queue_mean": ("average queue mean", "pkt", 1.0),
    "queueing_delay_mean_s": ("queueing delay mean", "ms", 1e3),
    "sojourn_mean_s": ("sojourn mean", "ms", 1e3),
    "loss_percent": ("loss", "%", 1.0),
    "mark_percent": ("marks", "%", 1.0),
    "utilisation_mean": ("utilisation mean", "%", 100.0),
    "utilisation_min": ("utilisation min", "%", 100.0),
    "throughput_bps": ("goodput", "Mb/s", 1e-6),  # the sum of the flows' goodput, not the link's throughput
    "jain_fairness": ("Jain's index", "", 1.0),
    "flows": ("flows", "", 1.0),
    "flows_completed": ("flows completed", "", 1.0),
    "fct_mean_s": ("flow completion time mean", "s", 1.0),
    "window_s": ("window", "s", 1.0),
}

#: SI unit of each stored summary value (what `Summary.units` reports).
SI_UNITS: dict[str, str] = {
    "partial": "",
    "samples": "samples",
    "window_start_s": "s",
    "window_end_s": "s",
    "queue_mean_packets": "packets",
    "queue_std_packets": "packets",
    "queue_max_packets": "packets",
    "average_queue_mean": "packets",
    "queueing_delay_mean_s": "s",
    "sojourn_mean_s": "s",
    "loss_percent": "%",
    "mark_percent": "%",
    "utilisation_mean": "1 (fraction of the link rate)",
    "utilisation_min": "1 (fraction of the link rate)",
    "throughput_bps": "bit/s",
    "jain_fairness": "1",
    "flows": "flows",
    "flows_completed": "flows",
    "fct_mean_s": "s",
    "window_s": "s",
}


def header(key: str) -> str:
    """'queue mean [pkt]' for a known statistic, the key with spaces otherwise."""
    label, unit, _ = STATISTICS.get(key, (key.replace("_", " "), "", 1.0))
    return f"{label} [{unit}]" if unit else label


def scaled(key: str, value: Any) -> Any:
    """The stored value in the display unit of `header(key)`."""
    factor = STATISTICS.get(key, ("", "", 1.0))[2]
    if value is None or isinstance(value, bool | str) or factor == 1.0:
        return value
    return value * factor  # a number, a numpy array or a pandas Series


def number(value: Any, digits: int = 4) -> str:
    """Plain and readable: whole numbers with thousands separators, others with `digits`
    significant digits and no exponent between 1e-4 and 1e9, '–' for missing or NaN."""
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    value = float(value)
    if math.isnan(value):
        return "–"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    magnitude = abs(value)
    if magnitude < 1e-4 or magnitude >= 1e9:
        return f"{value:.{digits - 1}e}"
    decimals = max(0, digits - 1 - math.floor(math.log10(magnitude)))
    text = f"{value:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def statistic(key: str, value: Any) -> str:
    """A summary value in its display unit (see `header`)."""
    return number(scaled(key, value))


def mean_std(mean: Any, std: Any, digits: int = 4) -> str:
    """'0.9995 ± 0.0001': the spread rounded to the mean's last shown decimal (at least one
    significant digit of the spread)."""
    if mean is None or std is None or not math.isfinite(float(mean)) or not math.isfinite(float(std)):
        return f"{number(mean, digits)} ± {number(std, digits)}"
    mean, std = float(mean), float(std)
    magnitude = abs(mean) if mean else (std or 1.0)
    if magnitude >= 1e9 or magnitude < 1e-4:
        return f"{mean:.{digits - 1}e} ± {std:.1e}"
    decimals = max(0, digits - 1 - math.floor(math.log10(magnitude)))
    if std and std < 10.0 ** (-decimals):
        decimals = min(12, -math.floor(math.log10(std)))
    return f"{mean:,.{decimals}f} ± {std:,.{decimals}f}"


def html_table(rows: list[tuple[str, str]], caption: str = "") -> str:
    """A small two-column HTML table (notebook display), escaped."""
    body = "".join(
        f"<tr><td style='text-align:left'>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows
    )
    head = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{head}{body}</table>"
