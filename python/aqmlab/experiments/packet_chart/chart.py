"""`packet_chart`: the stability boundary of a packet scenario, located by bisection with several
seeds per probe, beside the Hopf curve of the matching fluid model (issue 20).

For each x the boundary in y is bracketed and bisected (`search`), each probe
classified over its seeds (`oscillation`), every run stored as it finishes (`probes`:
resumable, local or Dask). The fluid side (`fluid_curves`) is the Hopf point in y of the
matching fluid model at each x, with seed 000's parameters ("paper") and with the scenario's
own ("mapped") (`axes.fluid_setting`), with its period 2π/ω beside the packet
oscillation period at the bracket's oscillating end.

Same scenario, axes, seeds and settings give the same chart, on one process, a pool or a Dask
cluster: every run is seeded, and the search depends only on the verdicts.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import aqmlab
from aqmlab import _repr
from aqmlab.analysis.oscillation import combine
from aqmlab.experiments.packet_chart.axes import AXES, axis, fluid_setting, parse_axis
from aqmlab.experiments.packet_chart.probes import ProbeStore, ProbeTask, run_probes
from aqmlab.experiments.packet_chart.search import Boundary, search_boundaries

__all__ = ["PacketChart", "fluid_curves", "packet_chart"]


@dataclass
class PacketChart:
    scenario: str
    x: str
    y: str
    y_range: tuple[float, float]
    boundaries: list[Boundary]
    runs: dict[tuple[float, float], list[dict[str, Any]]]  # (x, y) -> the seeds' records
    fluid: dict[str, Any]
    settings: dict[str, Any]
    meta: dict[str, Any] = field(default_factory=dict)

    def packet_period(self, boundary: Boundary) -> float:
        """Mean over the seeds of the dominant period at the bracket's oscillating end, s."""
        if boundary.oscillating_y is None:
            return math.nan
        periods = [r["period_s"] for r in self.runs[(boundary.x, boundary.oscillating_y)]]
        finite = [p for p in periods if math.isfinite(p)]
        return float(np.mean(finite)) if finite else math.nan

    def rows(self) -> list[dict[str, Any]]:
        """One row per x: the bracket, its confidence, the periods, and the fluid Hopf points."""
        out = []
        for b in self.boundaries:
            row = {
                self.x: b.x,
                "status": b.status,
                "stable_y": b.stable_y,
                "oscillating_y": b.oscillating_y,
                "oscillating_above": b.oscillating_above,
                "width": b.width,
                "confidence": b.confidence,
                "probes": len(b.probes),
                "undecided_y": [y for y, v in b.probes if v.verdict == "undecided"],
                "packet_period_s": self.packet_period(b),
            }
            for mapping, curve in self.fluid.get("curves", {}).items():
                index = curve["x"].index(b.x)
                row[f"fluid_{mapping}_y"] = curve["y"][index]
                row[f"fluid_{mapping}_period_s"] = curve["period_s"][index]
            out.append(row)
        return out

    def probe_rows(self) -> list[dict[str, Any]]:
        return [record for key in sorted(self.runs) for record in self.runs[key]]

    def _repr_html_(self) -> str:
        return _repr.html(self)

    def describe(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "x": self.x,
            "y": self.y,
            "y_range": list(self.y_range),
            "settings": self.settings,
            "boundaries": self.rows(),
            "fluid": self.fluid,
            **self.meta,
        }

    def plot(self, path: str | Path, *, title: str | None = None) -> Path:
        from aqmlab.experiments.packet_chart.plot import plot_packet_chart

        return plot_packet_chart(self, Path(path), title=title)


def _scenario_dict(scenario: Any) -> tuple[str, dict[str, Any]]:
    """(name, the scenario as a dict with every default filled in) from a `Scenario`, a dict,
    a TOML path or the name of an embedded scenario."""
    from aqmlab.scenario import embedded_scenario, load

    if isinstance(scenario, str) and not scenario.endswith(".toml"):
        model = embedded_scenario(scenario)
    elif isinstance(scenario, dict | str | Path) or hasattr(scenario, "model_dump"):
        model = load(scenario)
    else:
        raise TypeError(f"scenario = {scenario!r}; allowed: a Scenario, a dict, a TOML path or an embedded name")
    data = model.model_dump(mode="json")
    return str(data.get("name", "scenario")), data


def _axis_values(spec: Any, field_name: str, *, points: bool) -> tuple[str, list[float]]:
    if isinstance(spec, str):
        return parse_axis(spec, field_name, points=points)
    try:
        name, values = spec
        values = [float(v) for v in values]
    except (TypeError, ValueError):
        raise ValueError(f"{field_name} = {spec!r}; allowed: 'NAME=...' or (name, values)") from None
    axis(name, field_name)
    if not values or (not points and len(values) != 2):
        raise ValueError(f"{field_name} = {spec!r}; allowed: {'at least one value' if points else '(low, high)'}")
    return name, values


def fluid_curves(
    scenario: dict[str, Any], x: str, xs: list[float], y: str, y_range: tuple[float, float]
) -> dict[str, Any]:
    """The fluid model's Hopf point in y at each x, both mappings (module docstring); where
    none lies in `y_range`, nan with the model's verdict at the range's low end."""
    from aqmlab.stability import StabilityError, characteristic_roots, find_hopf, linearise

    low, high = y_range
    model, _ = fluid_setting(scenario, {x: xs[0], y: low})
    yf = AXES[y].fluid
    curves: dict[str, Any] = {}
    for mapping in ("paper", "mapped"):
        curve = {"x": [], "y": [], "period_s": [], "note": []}
        for xv in xs:
            _, sets = fluid_setting(scenario, {x: xv, y: low})
            params = sets[mapping]
            curve["x"].append(float(xv))
            try:
                hopf = find_hopf(model, yf, low, high, params, options={"tcp": "compound"}, scan=40)
                curve["y"].append(float(hopf.value))
                curve["period_s"].append(float(hopf.period))
                curve["note"].append("")
            except StabilityError:
                roots = characteristic_roots(linearise(model, params, options={"tcp": "compound"}), count=3)
                curve["y"].append(math.nan)
                curve["period_s"].append(math.nan)
                curve["note"].append(f"no Hopf point in range; {roots.verdict()} at {y} = {low:g}")
        curves[mapping] = curve
    return {"model": model, "tcp": "compound", "parameter": yf, "curves": curves}


def packet_chart(
    scenario: Any,
    x: Any,
    y: Any,
    *,
    seeds: tuple[int, ...] = (1, 2, 3),
    duration_s: float = 150.0,
    analysis_start_s: float = 50.0,
    tolerance: float | None = None,
    log_y: bool = False,
    max_rounds: int = 6,
    out: str | Path | None = None,
    workers: int = 1,
    cluster: str | None = None,
    fluid: bool = True,
    progress=None,
    simulator=None,
) -> PacketChart:
    """The packet stability boundary of `scenario` (a dict, `Scenario`, TOML path or embedded
    name): `x` = "NAME=V1,V2,..." / "NAME=LOW..HIGH:N" / (name, values); `y` = "NAME=LOW..HIGH"
    / (name, (low, high)); axes of `axes.AXES`. Each probe runs `seeds` for `duration_s`
    and is measured after `analysis_start_s`; bisection stops at `tolerance` (y units, a ratio
    with `log_y`; default: a sixteenth of the range, 2^(1/4) with `log_y`) or after
    `max_rounds`. `out`: the probe store (rerun to resume; default a temporary directory);
    `workers` processes here, or `cluster` ("local" or a scheduler address) for Dask.
    `simulator`: what runs a probe (`probes.Simulator`; default aqmlab's `simulate`), e.g. ns-2
    read as Results (benchmarks/ns2/referee/searches_run.py); recorded in the store's chart.json."""
    started = time.perf_counter()
    cpu_started = os.times()
    name, base = _scenario_dict(scenario)
    xname, xs = _axis_values(x, "x", points=True)
    yname, y_range = _axis_values(y, "y", points=False)
    if xname == yname:
        raise ValueError(f"x = y = {xname!r}; allowed: two different axes")
    if not seeds or any(not isinstance(s, int) or s < 1 for s in seeds):
        raise ValueError(f"seeds = {seeds!r}; allowed: one or more positive integers")
    if not 0 <= analysis_start_s < duration_s:
        raise ValueError(f"analysis_start_s = {analysis_start_s}; allowed: 0 <= it < duration_s = {duration_s}")
    if not (isinstance(workers, int) and workers >= 1):
        raise ValueError(f"workers = {workers!r}; allowed: an integer >= 1")
    low, high = y_range
    if tolerance is None:
        tolerance = (high / low) ** (1 / 16) if log_y else (high - low) / 16
    base["duration"], base["measure_start"] = f"{duration_s}s", f"{analysis_start_s}s"
    base["trace"] = {"interval": "10ms", "flows": 0}
    settings = {
        "seeds": list(seeds),
        "duration_s": duration_s,
        "analysis_start_s": analysis_start_s,
        "tolerance": tolerance,
        "log_y": log_y,
        "max_rounds": max_rounds,
        "x_values": xs,
        "y_range": [low, high],
        "aqmlab": aqmlab.__version__,
    }
    if simulator is not None:  # its probes are not aqmlab's: a store holds one simulator's
        settings["simulator"] = f"{simulator.__module__}.{simulator.__qualname__}"
    temporary = tempfile.TemporaryDirectory(prefix="packet-chart-") if out is None else None
    store = ProbeStore(out if out is not None else temporary.name)
    store.begin({"scenario": base, "x": xname, "y": yname, **settings})
    connection = None
    if cluster is not None:
        from aqmlab.experiments.executors import connect_dask

        connection = connect_dask(cluster, workers=workers)
    runs: dict[tuple[float, float], list[dict[str, Any]]] = {}
    counts = {"computed": 0, "stored": 0}

    def count(task, record, stored):
        counts["stored" if stored else "computed"] += 1
        if progress:
            progress(task, record, stored)

    def probe(points: list[tuple[float, float]]):
        tasks = [
            ProbeTask((xv, yv), seed, {**apply(xv, yv), "seed": seed}, analysis_start_s)
            for xv, yv in points
            for seed in seeds
        ]
        records = run_probes(
            tasks,
            store,
            workers=workers,
            client=connection.client if connection else None,
            progress=count,
            simulator=simulator,
        )
        verdicts = []
        for index, point in enumerate(points):
            group = [records[t.id] for t in tasks[index * len(seeds) : (index + 1) * len(seeds)]]
            runs[point] = group
            verdicts.append(combine([r["verdict"] for r in group]))
        return verdicts

    def apply(xv: float, yv: float) -> dict[str, Any]:
        from aqmlab.experiments.packet_chart.axes import apply_axes

        return apply_axes(base, {xname: xv, yname: yv})

    try:
        boundaries = search_boundaries(
            probe, xs, (low, high), tolerance=tolerance, log=log_y, integer=AXES[yname].integer, max_rounds=max_rounds
        )
    finally:
        if connection is not None:
            connection.close()
        if temporary is not None:
            temporary.cleanup()
    packet_s = time.perf_counter() - started
    fluid_side = fluid_curves(base, xname, xs, yname, (low, high)) if fluid else {}
    cpu = os.times()
    meta = {
        "wall_time_s": time.perf_counter() - started,
        "packet_wall_time_s": packet_s,
        "cpu_time_s": (cpu.user - cpu_started.user) + (cpu.system - cpu_started.system),
        "children_cpu_time_s": (cpu.children_user - cpu_started.children_user)
        + (cpu.children_system - cpu_started.children_system),
        "runs_computed": counts["computed"],
        "runs_stored": counts["stored"],
        "executor": f"dask {cluster}" if cluster else f"{workers} process(es)",
    }
    return PacketChart(name, xname, yname, (low, high), boundaries, runs, fluid_side, settings, meta)
