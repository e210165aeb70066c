"""Sweeps: a base scenario and axes over any of its parameters, plus seeds.

A sweep file (TOML):

    name = "rtt"
    base = "../examples/seed000-fig6-rtt10.toml"   # relative to the sweep file
    seeds = [1, 2]                                 # or: replications = 2 (seeds 1, 2)
    [set]                                          # fixed changes to the base
    duration = "20s"
    [grid]                                         # every combination
    "topology.groups.0.rtt" = ["10ms", "200ms"]
    [zip]                                          # lists walked together
    "topology.bottleneck.queue.min_th" = [5, 50]
    "topology.bottleneck.queue.max_th" = [15, 100]

Parameters are dotted paths into the scenario as written (list items by index), `name`
and `description` included. Each run is identified by the hash of its whole scenario (as
validated, every default filled in, and as resolved for the engine), its seed and the aqmlab
version, so the same run has the same id in every study and two points that differ in any
field, even one the engine never reads, are two runs.

`allow_large = true` lets points above the work limits run (`aqmlab.workload`); otherwise
such a point is refused when the sweep is read, before anything runs.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

import aqmlab
from aqmlab import workload
from aqmlab.errors import ScenarioError
from aqmlab.scenario import Scenario, format_validation_error, read_toml
from aqmlab.simulation import check_seed


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    """Set `a.b.0.c` in nested dicts and lists. Missing tables are created (validation then
    rejects a misspelt one); a missing list index is an error naming it."""
    node: Any = data
    parts = path.split(".")
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        where = ".".join(parts[: depth + 1])
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise ScenarioError(f"sweep parameter {path!r}: {where!r} is not an index of a list of {len(node)}")
            if last:
                node[int(part)] = value
            else:
                node = node[int(part)]
        elif isinstance(node, dict):
            if last:
                node[part] = value
            else:
                node = node.setdefault(part, {})
        else:
            raise ScenarioError(f"sweep parameter {path!r}: {where!r} is inside a value, not a table")


@dataclass(frozen=True)
class Run:
    """One run of a sweep: a scenario (as written), its seed and the swept values."""

    scenario: dict[str, Any]
    seed: int
    parameters: dict[str, Any] = field(default_factory=dict)
    #: Run even above the work limits (the sweep file's `allow_large`); not part of the id.
    allow_large: bool = False

    @property
    def model(self) -> Scenario:
        return Scenario.from_dict(self.scenario, source=f"run {self.parameters}")

    @property
    def id(self) -> str:
        model = self.model
        whole = json.dumps(model.model_dump(mode="json"), sort_keys=True)
        resolved = model.resolved_json()
        digest = hashlib.sha256(f"{aqmlab.__version__}\n{self.seed}\n{resolved}\n{whole}".encode()).hexdigest()
        return digest[:20]


class SweepFile(BaseModel):
    """A sweep file as written; each field is documented by the string after it (the sweep
    table of docs/scenario.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    name: str = "sweep"
    """The study's name (`aqmlab sweep` writes to `aqmlab-out/sweep/NAME` unless given `--out`)."""
    base: str | dict[str, Any]
    """The base scenario: a file path, relative to the sweep file, or an inline table."""
    seeds: list[int] | None = Field(default=None, min_length=1)
    """The seeds every point runs with; unset (and no `replications`): the base scenario's
    `seed`."""
    replications: int | None = Field(default=None, ge=1)
    """Instead of `seeds`: run every point with seeds 1 to `replications`."""
    set: dict[str, Any] = Field(default={})
    """Fixed changes to the base, dotted path → value, e.g. `duration = "20s"`."""
    grid: dict[str, list[Any]] = Field(default={})
    """Axes of which every combination is run, dotted path → list of values."""
    zip: dict[str, list[Any]] = Field(default={})
    """Axes walked together (lists of equal length), dotted path → list of values; combined
    with every `grid` point."""
    allow_large: bool = False
    """Run points above the work limits (`aqmlab.workload`) instead of refusing the sweep."""

    @model_validator(mode="after")
    def _check(self) -> SweepFile:
        if self.seeds is not None and self.replications is not None:
            raise ValueError("give `seeds` or `replications`, not both")
        lengths = {len(values) for values in self.zip.values()}
        if len(lengths) > 1:
            raise ValueError(f"zip lists must have the same length; got {sorted(lengths)}")
        for key, values in {**self.grid, **self.zip}.items():
            if not values:
                raise ValueError(f"axis {key!r} has no values")
        overlap = set(self.grid) & set(self.zip) | (set(self.grid) | set(self.zip)) & set(self.set)
        if overlap:
            raise ValueError(f"parameters on more than one axis: {sorted(overlap)}")
        return self


class Sweep:
    """A base scenario expanded over axes and seeds into runs."""

    def __init__(self, spec: SweepFile, base: dict[str, Any]):
        self.spec = spec
        self.base = base

    @property
    def name(self) -> str:
        return self.spec.name

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, relative_to: Path | None = None, source: str = "sweep") -> Sweep:
        try:
            spec = SweepFile.model_validate(data)
        except ValidationError as error:
            raise ScenarioError(format_validation_error(error, source, data)) from None
        if isinstance(spec.base, str):
            path = Path(spec.base)
            if not path.is_absolute() and relative_to is not None:
                path = relative_to / path
            base = read_toml(path, "base scenario")
        else:
            base = copy.deepcopy(spec.base)
        sweep = cls(spec, base)
        sweep.runs()  # validate every run now, before anything is computed
        return sweep

    @classmethod
    def from_toml(cls, path: str | Path) -> Sweep:
        path = Path(path)
        return cls.from_dict(read_toml(path, "sweep"), relative_to=path.parent, source=str(path))

    def seeds(self) -> list[int]:
        if self.spec.seeds is not None:
            return list(self.spec.seeds)
        if self.spec.replications is not None:
            return list(range(1, self.spec.replications + 1))
        return [self.base.get("seed", 1)]

    def points(self) -> list[dict[str, Any]]:
        """The swept parameter values of each point (grid × zip), in a stable order."""
        grid_keys = list(self.spec.grid)
        grid = [
            dict(zip(grid_keys, values, strict=True))
            for values in itertools.product(*(self.spec.grid[k] for k in grid_keys))
        ] or [{}]
        zip_keys = list(self.spec.zip)
        zipped = [
            dict(zip(zip_keys, values, strict=True))
            for values in zip(*(self.spec.zip[k] for k in zip_keys), strict=True)
        ] or [{}]
        return [{**g, **z} for g in grid for z in zipped]

    def runs(self) -> list[Run]:
        runs = []
        for point in self.points():
            scenario = copy.deepcopy(self.base)
            for key, value in {**self.spec.set, **point}.items():
                set_path(scenario, key, value)
            model = Scenario.from_dict(scenario, source=f"{self.name} at {point}")  # fail early, naming the point
            try:
                workload.check(model, allow_large=self.spec.allow_large)
            except ScenarioError as error:
                raise ScenarioError(f"{self.name} at {point}: {error}") from None
            for seed in self.seeds():
                check_seed(seed, f"{self.name}: seed")
                runs.append(Run(scenario, seed, dict(point), allow_large=self.spec.allow_large))
        return runs

    def describe(self) -> dict[str, Any]:
        return json.loads(self.spec.model_dump_json()) | {"base": self.base}
