"""Reproductions as data: what a reproduction runs, what it measures, and what it claims.

A reproduction is a `Declaration`:

* **what it runs**: packet-level `Run`s (a scenario dict and a `measure(results)` returning
  named numbers), repeated over `Seeds`; or a deterministic `compute(out, quick)` (fluid
  models, stability analysis) returning named numbers once;
* **what it derives**: optionally `derive(measures, quick)`, per seed, numbers that combine
  runs (a difference, a ratio) from `measures[run name][measure name]`;
* **what it claims**: `Claim`s, each the paper's statement and value as printed, where in
  the paper, and one or more `Check`s: a quantity (``"run.measure"`` or a derived name) and a
  `Criterion` at the paper's own precision (`Printed("0.273")` is |x − 0.273| ≤ 0.0005).

The runner (`aqmlab.reproduce.runner`) runs every seed, takes the mean of each quantity and
its 95 % Student-t interval, and gives each claim a verdict on the means: **agrees** when
every check holds at the mean; **marginal** when the verdict rests on a check whose interval
contains a boundary of its criterion (another set of seeds could flip it). A claim that fails a
check decisively (its interval clear of the criterion's boundaries) plainly **differs**.

Each claim has a `kind`: `"claim"` (a statement of the paper about the world: counted),
`"consistency"` (a check that cannot fail by construction: a definition, an algebraic identity,
a transcription, a formula's own end points; shown apart, never counted among the claims) or
`"ours"` (aqmlab's own finding, not a statement of the paper: shown apart, not counted).
"""

from __future__ import annotations

import math
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, ClassVar

from aqmlab.analysis.statistics import confidence_interval

# --- criteria ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Criterion(ABC):
    """A condition on one number. `boundaries` are the values where it switches."""

    @abstractmethod
    def holds(self, x: float) -> bool: ...

    @abstractmethod
    def boundaries(self) -> tuple[float, ...]: ...

    @abstractmethod
    def describe(self, unit: str = "") -> str: ...


def _num(x: float, unit: str = "") -> str:
    text = f"{x:.6g}"
    return f"{text} {unit}".rstrip() if unit and unit != "%" else f"{text}{unit}"


@dataclass(frozen=True)
class Near(Criterion):
    """|x − value| ≤ tolerance."""

    value: float
    tolerance: float

    def holds(self, x: float) -> bool:
        return abs(x - self.value) <= self.tolerance * (1 + 1e-12)

    def boundaries(self) -> tuple[float, ...]:
        return (self.value - self.tolerance, self.value + self.tolerance)

    def describe(self, unit: str = "") -> str:
        return f"|x − {_num(self.value, unit)}| ≤ {_num(self.tolerance, unit)}"


def Printed(text: str, *, slack: float = 0.0) -> Near:  # noqa: N802 (reads as a value)
    """The paper's number as printed, at its precision: half a unit of the last printed
    digit ("0.273" → ± 0.0005, "39" → ± 0.5, "84.8" → ± 0.05), widened by `slack` (same
    unit; say why in the claim's `why`)."""
    exponent = Decimal(text).as_tuple().exponent
    if not isinstance(exponent, int):
        raise ValueError(f"printed value {text!r}: allowed: a finite decimal number")
    return Near(float(text), 0.5 * 10.0**exponent + slack)


@dataclass(frozen=True)
class Between(Criterion):
    """low ≤ x ≤ high."""

    low: float
    high: float

    def holds(self, x: float) -> bool:
        return self.low <= x <= self.high

    def boundaries(self) -> tuple[float, ...]:
        return (self.low, self.high)

    def describe(self, unit: str = "") -> str:
        return f"{_num(self.low, unit)} ≤ x ≤ {_num(self.high, unit)}"


@dataclass(frozen=True)
class OneSided(Criterion):
    """x compared with one bound: `symbol` and `compare` are the subclass's."""

    bound: float
    symbol: ClassVar[str]
    compare: ClassVar[Callable[[float, float], bool]]

    def holds(self, x: float) -> bool:
        return type(self).compare(x, self.bound)

    def boundaries(self) -> tuple[float, ...]:
        return (self.bound,)

    def describe(self, unit: str = "") -> str:
        return f"x {self.symbol} {_num(self.bound, unit)}"


def _one_sided(name: str, symbol: str, compare: Callable[[float, float], bool]) -> type[OneSided]:
    """A `OneSided` criterion class: x `symbol` bound."""
    attributes = {"symbol": symbol, "compare": compare, "__doc__": f"x {symbol} bound.", "__module__": __name__}
    return dataclass(frozen=True)(type(name, (OneSided,), attributes))


AtLeast = _one_sided("AtLeast", "≥", operator.ge)
AtMost = _one_sided("AtMost", "≤", operator.le)
Above = _one_sided("Above", ">", operator.gt)
Below = _one_sided("Below", "<", operator.lt)


# --- claims --------------------------------------------------------------------------------

#: The kinds of a declared claim (see the module docstring); only "claim" is counted.
KINDS = ("claim", "consistency", "ours")


@dataclass(frozen=True)
class Check:
    """`quantity` (a derived name, or "run.measure") must meet `criterion`; `label` names it
    in the record (default: the quantity's name), `unit` is the quantity's unit."""

    quantity: str
    criterion: Criterion
    label: str = ""
    unit: str = ""


@dataclass(frozen=True)
class Claim:
    """One statement of the paper, checked against aqmlab's numbers.

    `id`: unique within the reproduction (the verdict file keys on "reproduction/id");
    `statement`: what the paper says, in a sentence; `paper`: the paper's value or words as
    printed; `where`: section, figure or equation; `checks`: every check must hold at the
    mean for the claim to agree; `why`: how the criterion reads the paper, and any slack
    beyond the printed precision with its reason; `shows`: more quantities printed beside
    the checks (context, not judged); `full_only`: only the full version checks it (e.g. the
    paper's number is for 500 MB transfers, the quick version moves 2 MB)."""

    id: str
    statement: str
    paper: str
    where: str
    checks: tuple[Check, ...]
    why: str = ""
    shows: tuple[tuple[str, str, str], ...] = ()  # (quantity, label, unit)
    full_only: bool = False
    #: "claim" (the paper's, counted), "consistency" (cannot fail: not counted), "ours" (aqmlab's
    #: own finding: not counted).
    kind: str = "claim"
    #: For a claim that differs: the demonstrated cause (what was shown, where), "" when none is.
    cause: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.id!r}: kind = {self.kind!r}; allowed: {', '.join(KINDS)}")
        if not self.checks:
            raise ValueError(f"claim {self.id!r}: checks: at least one Check is required")
        if "/" in self.id or not self.id:
            raise ValueError(f"claim id {self.id!r}: allowed: a non-empty name without '/'")


# --- what runs -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One packet-level scenario and what to measure in it.

    `name` names the run (quantities "name.measure", the run directory); `scenario` is the
    scenario as a dict (its `seed` is replaced by the runner's); `measure(results)` returns
    named numbers in the paper's units; `keep`: write the first seed's run directory and
    hand its `Results` to the figures."""

    name: str
    scenario: dict[str, Any]
    measure: Callable[[Any], dict[str, float]]
    keep: bool = False

    def __post_init__(self) -> None:
        if "." in self.name or "/" in self.name:
            raise ValueError(f"run name {self.name!r}: allowed: a name without '.' or '/'")


@dataclass(frozen=True)
class Seeds:
    """How many seeds (1, 2, ..., n) each packet-level run is repeated with.

    Full versions: at least 5 (issue 16). Quick versions: 2 by default, the fewest that give
    a spread, to keep `make test` short; their verdicts are guarded by the verdict file, and
    the full version is the one the pages report."""

    full: int = 5
    quick: int = 2

    def __post_init__(self) -> None:
        if self.full < 5:
            raise ValueError(f"seeds.full = {self.full}; allowed: at least 5 (every packet-level claim)")
        if self.quick < 1:
            raise ValueError(f"seeds.quick = {self.quick}; allowed: at least 1")

    def count(self, quick: bool) -> int:
        return self.quick if quick else self.full


@dataclass
class Computed:
    """What a `compute(out, quick)` returns: its named numbers (one number when deterministic,
    or one per seed: a list, judged on its mean and 95 % interval like a packet-level run's), the
    figure files it wrote into `out`, notes with numbers for the record, and data to keep."""

    values: dict[str, float | list[float]]
    figures: list[str] = field(default_factory=list)
    notes: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Evidence:
    """What the figures of a packet-level reproduction are drawn from: the first seed's
    `Results` of the runs marked `keep`, and every quantity's per-seed values."""

    kept: dict[str, Any]
    values: dict[str, list[float]]
    quick: bool

    def mean(self, quantity: str) -> float:
        return float(sum(self.values[quantity]) / len(self.values[quantity]))

    def interval(self, quantity: str) -> tuple[float, float]:
        return confidence_interval(self.values[quantity])


@dataclass(frozen=True)
class Declaration:
    """A reproduction as data (module docstring). Exactly one of `runs` (packet level, per
    mode) and `compute` (deterministic) is given."""

    id: str
    paper: str
    title: str
    description: str
    claims: tuple[Claim, ...]
    runs: Callable[[bool], list[Run]] | None = None
    derive: Callable[[dict[str, dict[str, float]], bool], dict[str, float]] | None = None
    compute: Callable[[Path, bool], Computed] | None = None
    figures: Callable[[Path, Evidence], list[str]] | None = None
    notes: Callable[[bool], str] | str = ""
    seeds: Seeds = Seeds()
    #: Rough wall time of the full version on the benchmark machine, for `--list`.
    full_cost: str = ""

    def __post_init__(self) -> None:
        if (self.runs is None) == (self.compute is None):
            raise ValueError(f"reproduction {self.id!r}: give exactly one of runs (packet level) and compute")
        ids = [claim.id for claim in self.claims]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"reproduction {self.id!r}: claim ids {duplicates} used twice")
        if not self.claims:
            raise ValueError(f"reproduction {self.id!r}: claims: at least one Claim is required")

    def claim_ids(self, quick: bool) -> list[str]:
        return [f"{self.id}/{claim.id}" for claim in self.claims if not (quick and claim.full_only)]

    def note(self, quick: bool) -> str:
        return self.notes(quick) if callable(self.notes) else self.notes


def finite(value: float) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)
