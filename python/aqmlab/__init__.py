"""aqmlab: a laboratory for TCP congestion control and active queue management.

Packet-level simulation: `aqmlab.simulate(scenario, seed=...)` returns `aqmlab.Results`;
scenarios are `aqmlab.Scenario` models or TOML files (see `examples/` and `docs/scenario.md`).

The names below are imported on first use (PEP 562), so `import aqmlab` costs a few
milliseconds and `aqmlab --help` does not load pydantic, pyarrow, pandas or matplotlib
(benchmarks/startup/).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from aqmlab import _repr

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_LAZY = {
    "Results": "aqmlab.results",
    "ResultsError": "aqmlab.errors",
    "Scenario": "aqmlab.scenario",
    "ScenarioError": "aqmlab.errors",
    "SimulationInterrupted": "aqmlab.errors",
    "simulate": "aqmlab.simulation",
}

__all__ = ["Results", "ResultsError", "Scenario", "ScenarioError", "SimulationInterrupted", "simulate"]

# Notebook display (issue 32): each result type's `_repr_html_` looks up its display here, a
# layer above it, so the type imports nothing of its display; modules load on first display.
#: Type -> (its notebook display, its text display or None), each "module:function".
_DISPLAYS = {
    "aqmlab.results.Results": ("aqmlab.notebook:results_html", None),
    "aqmlab.fluid.result.FluidResult": ("aqmlab.fluid.notebook:fluid_html", None),
    "aqmlab.summary.Summary": ("aqmlab.notebook:summary_html", None),
    "aqmlab.experiments.store.Study": ("aqmlab.experiments.display:study_html", None),
    "aqmlab.experiments.packet_chart.chart.PacketChart": ("aqmlab.experiments.display:packet_chart_html", None),
    "aqmlab.stability.roots.Roots": ("aqmlab.stability.notebook:roots_html", "aqmlab.stability.notebook:roots_text"),
    "aqmlab.stability.hopf.HopfPoint": ("aqmlab.stability.notebook:hopf_html", "aqmlab.stability.notebook:hopf_text"),
    "aqmlab.stability.charts.Chart": ("aqmlab.stability.notebook:chart_html", "aqmlab.stability.notebook:chart_text"),
    "aqmlab.stability.scenario.ScenarioStability": ("aqmlab.stability.notebook:scenario_html", None),
    "aqmlab.stability.bifurcation.Diagram": ("aqmlab.stability.notebook:diagram_html", None),
}
for _type, (_html, _text) in _DISPLAYS.items():
    _repr.register_html(_type, _html)
    if _text is not None:
        _repr.register_text(_type, _text)
del _type, _html, _text

if TYPE_CHECKING:
    from aqmlab.errors import ResultsError, ScenarioError, SimulationInterrupted
    from aqmlab.results import Results
    from aqmlab.scenario import Scenario
    from aqmlab.simulation import simulate


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'aqmlab' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
