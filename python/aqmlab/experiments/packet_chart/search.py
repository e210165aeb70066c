"""Bracketing and bisection of a noisy stability boundary y(x), many x at once.

For every x the search probes both ends of the y range. When one end is stable and the other
oscillating (`aqmlab.analysis.oscillation.combine`: unanimous over the seeds) the boundary
lies between them, on whichever side the verdicts say (oscillating above or below); the
bracket [stable end, oscillating end] is then halved (arithmetic or geometric midpoint;
integer midpoints for integer parameters) until it is no wider than `tolerance`, a probe is
undecided (the seeds disagree, or a run is undecided: the boundary is blurred there and the
bracket is kept), or `max_rounds` bisections are done. A range whose ends agree has no
boundary in it ("stable throughout", "oscillating throughout"); an undecided end leaves the
x without a bracket.

The probes of one round (one per x still searching) go to `probe` together, so a caller can
run them in parallel; `probe(points)` returns one `SeedVerdict` per (x, y) point. The search
is deterministic: the next probe depends only on the verdicts so far.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from aqmlab.analysis.oscillation import SeedVerdict

__all__ = ["Boundary", "search_boundaries"]

Probe = Callable[[list[tuple[float, float]]], list[SeedVerdict]]

#: How the search ended for one x.
STATUSES = (
    "converged",  # bracket no wider than the tolerance
    "undecided probe",  # a probe inside the bracket was undecided; the bracket is kept
    "max rounds",  # stopped after max_rounds bisections
    "stable throughout",  # both ends stable: no boundary in the range
    "oscillating throughout",  # both ends oscillating
    "undecided end",  # an end of the range was undecided: no bracket
)


@dataclass
class Boundary:
    """The boundary at one x: the bracket (stable end, oscillating end) or none, every probe."""

    x: float
    status: str
    stable_y: float | None = None
    oscillating_y: float | None = None
    probes: list[tuple[float, SeedVerdict]] = field(default_factory=list)

    @property
    def bracketed(self) -> bool:
        return self.stable_y is not None and self.oscillating_y is not None

    @property
    def oscillating_above(self) -> bool | None:
        return None if not self.bracketed else self.oscillating_y > self.stable_y

    @property
    def width(self) -> float:
        return abs(self.oscillating_y - self.stable_y) if self.bracketed else math.nan

    @property
    def confidence(self) -> float:
        """Both ends hold together with at least this confidence (Bonferroni over the two
        unanimous verdicts: 1 − Σ 2⁻ⁿ); 0 without a bracket."""
        if not self.bracketed:
            return 0.0
        ends = (self.verdict_at(self.stable_y), self.verdict_at(self.oscillating_y))
        return max(0.0, 1.0 - sum(1.0 - verdict.confidence for verdict in ends))

    def verdict_at(self, y: float) -> SeedVerdict:
        return next(verdict for value, verdict in self.probes if value == y)


def midpoint(low: float, high: float, *, log: bool, integer: bool) -> float:
    middle = math.sqrt(low * high) if log else 0.5 * (low + high)
    return float(round(middle)) if integer else middle


def search_boundaries(
    probe: Probe,
    xs: Sequence[float],
    y_range: tuple[float, float],
    *,
    tolerance: float,
    log: bool = False,
    integer: bool = False,
    max_rounds: int = 12,
) -> list[Boundary]:
    """The boundary at every x of `xs` in `y_range` (module docstring); `tolerance` is the
    largest bracket width accepted (a ratio high/low when `log`)."""
    low, high = map(float, y_range)
    if not high > low:
        raise ValueError(f"y range {low:g}..{high:g}; allowed: LOW < HIGH")
    if log and low <= 0:
        raise ValueError(f"y range {low:g}..{high:g} with log bisection; allowed: LOW > 0")
    if not tolerance > (1.0 if log else 0.0):
        raise ValueError(f"tolerance = {tolerance!r}; allowed: > {'1 (a ratio)' if log else '0'}")
    if integer and not (float(low).is_integer() and float(high).is_integer()):
        raise ValueError(f"y range {low:g}..{high:g} of an integer parameter; allowed: whole numbers")
    boundaries = [Boundary(float(x), "searching") for x in xs]
    ends = probe([(b.x, y) for b in boundaries for y in (low, high)])
    for index, boundary in enumerate(boundaries):
        first, last = ends[2 * index], ends[2 * index + 1]
        boundary.probes += [(low, first), (high, last)]
        verdicts = {first.verdict, last.verdict}
        if "undecided" in verdicts:
            boundary.status = "undecided end"
        elif len(verdicts) == 1:
            boundary.status = f"{first.verdict} throughout"
        else:
            boundary.stable_y, boundary.oscillating_y = (low, high) if first.verdict == "stable" else (high, low)

    def narrow_enough(b: Boundary) -> bool:
        a, c = sorted((b.stable_y, b.oscillating_y))
        if integer and c - a <= 1:
            return True
        return (c / a if log else c - a) <= tolerance

    for _ in range(max_rounds):
        active = [b for b in boundaries if b.status == "searching"]
        for b in active:
            if narrow_enough(b):
                b.status = "converged"
        active = [b for b in active if b.status == "searching"]
        if not active:
            break
        points = [(b.x, midpoint(*sorted((b.stable_y, b.oscillating_y)), log=log, integer=integer)) for b in active]
        for b, (_, y), verdict in zip(active, points, probe(points), strict=True):
            b.probes.append((y, verdict))
            if verdict.verdict == "stable":
                b.stable_y = y
            elif verdict.verdict == "oscillating":
                b.oscillating_y = y
            else:
                b.status = "undecided probe"
    for b in boundaries:
        if b.status == "searching":
            b.status = "converged" if narrow_enough(b) else "max rounds"
    return boundaries
