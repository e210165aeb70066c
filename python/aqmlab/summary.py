"""`Summary`: the statistics of one link over the measurement window, typed, with units.

A `dict` of plain Python numbers (so `summary["loss_percent"]`, `json.dumps(summary)` and
`pa.Table.from_pylist([summary])` work as before), with typed attributes
(`summary.loss_percent`), the SI unit of every value (`summary.units`), and a readable
display in a terminal (`repr`) and in Jupyter (`_repr_html_`).
"""

from __future__ import annotations

import math
from typing import Any

from aqmlab import _repr, display

#: Counts: shown and stored as integers.
COUNTS = ("flows", "flows_completed", "samples")


def _plain(key: str, value: Any) -> Any:
    """numpy scalars to Python numbers; counts to int."""
    if isinstance(value, bool) or value is None:
        return value
    if hasattr(value, "item") and not isinstance(value, int | float):
        value = value.item()
    if key in COUNTS and isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, int | float) and not isinstance(value, bool) and key not in COUNTS:
        return float(value)
    return value


class Summary(dict):
    """Statistics over [window_start_s, window_end_s]; values in SI units (see `units`)."""

    def __init__(self, values: dict[str, Any] | None = None, /, **more: Any) -> None:
        super().__init__({key: _plain(key, value) for key, value in {**(values or {}), **more}.items()})

    # Typed access to the statistics every summary carries.
    partial: bool = property(lambda self: self["partial"])  # type: ignore[assignment]
    samples: int = property(lambda self: self["samples"])  # type: ignore[assignment]
    window_start_s: float = property(lambda self: self["window_start_s"])  # type: ignore[assignment]
    window_end_s: float = property(lambda self: self["window_end_s"])  # type: ignore[assignment]
    queue_mean_packets: float = property(lambda self: self["queue_mean_packets"])  # type: ignore[assignment]
    queue_std_packets: float = property(lambda self: self["queue_std_packets"])  # type: ignore[assignment]
    queue_max_packets: float = property(lambda self: self["queue_max_packets"])  # type: ignore[assignment]
    average_queue_mean: float = property(lambda self: self["average_queue_mean"])  # type: ignore[assignment]
    queueing_delay_mean_s: float = property(lambda self: self["queueing_delay_mean_s"])  # type: ignore[assignment]
    sojourn_mean_s: float = property(lambda self: self["sojourn_mean_s"])  # type: ignore[assignment]
    loss_percent: float = property(lambda self: self["loss_percent"])  # type: ignore[assignment]
    mark_percent: float = property(lambda self: self["mark_percent"])  # type: ignore[assignment]
    utilisation_mean: float = property(lambda self: self["utilisation_mean"])  # type: ignore[assignment]
    utilisation_min: float = property(lambda self: self["utilisation_min"])  # type: ignore[assignment]
    throughput_bps: float = property(lambda self: self["throughput_bps"])  # type: ignore[assignment]
    jain_fairness: float = property(lambda self: self["jain_fairness"])  # type: ignore[assignment]
    flows: int = property(lambda self: self["flows"])  # type: ignore[assignment]
    flows_completed: int = property(lambda self: self["flows_completed"])  # type: ignore[assignment]
    fct_mean_s: float = property(lambda self: self["fct_mean_s"])  # type: ignore[assignment]
    window_s: float = property(lambda self: self["window_s"])  # type: ignore[assignment]

    @property
    def units(self) -> dict[str, str]:
        """The SI unit of each value ('' where unknown)."""
        return {key: display.SI_UNITS.get(key, "") for key in self}

    def rows(self) -> list[tuple[str, str]]:
        """(label [display unit], formatted value) for each statistic."""
        return [(display.header(key), display.statistic(key, value)) for key, value in self.items()]

    def __repr__(self) -> str:
        width = max((len(label) for label, _ in self.rows()), default=0)
        lines = [f"  {label:<{width}}  {value}" for label, value in self.rows()]
        return "Summary(\n" + "\n".join(lines) + "\n)"

    def _repr_html_(self) -> str:
        return _repr.html(self)
