"""`aqmlab.simulate`: run a scenario in the packet engine.

The engine advances in chunks of simulated time with the GIL released; between chunks the
progress callback runs and Ctrl-C is honoured, so a run can be interrupted cleanly: the
partial results travel on the `SimulationInterrupted` exception.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aqmlab import _engine
from aqmlab.errors import SimulationInterrupted
from aqmlab.results import Results
from aqmlab.scenario import Scenario, load

#: progress(now_s, duration_s) is called after every chunk.
Progress = Callable[[float, float], None]

#: The run is cut into this many chunks (at least): progress granularity and Ctrl-C latency.
CHUNKS = 200


def simulate(
    scenario: Scenario | dict[str, Any] | str | Path,
    *,
    seed: int | None = None,
    progress: Progress | bool | None = None,
) -> Results:
    """Simulate `scenario` (a `Scenario`, a dict or a TOML path) with `seed`.

    `progress=True` shows a progress bar over simulated time (terminal or Jupyter); a
    callable `progress(now_s, duration_s)` is called after every chunk instead.

    `seed` defaults to the scenario's own. The same scenario and seed give bit-identical
    results. Raises `ScenarioError` for an invalid scenario and `SimulationInterrupted`
    (carrying the partial results) on Ctrl-C.
    """
    scenario = load(scenario)
    if progress is None:
        from aqmlab.progress import simulations_shown

        progress = simulations_shown() or None
    if progress is True:
        from aqmlab.progress import simulation_bar

        with simulation_bar(scenario.name, scenario.duration_s) as bar:
            return simulate(scenario, seed=seed, progress=bar)
    if progress is False:
        progress = None
    seed = scenario.seed if seed is None else seed
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise ValueError(f"seed = {seed!r}; allowed: an integer in [0, 2**64)")
    simulation = _engine.Simulation(scenario.resolved_json(), seed)
    duration_ns = simulation.duration_ns
    step_ns = max(duration_ns // CHUNKS, 1)
    began = time.perf_counter()
    try:
        while not simulation.finished:
            simulation.run_until(min(simulation.now_ns + step_ns, duration_ns))
            if progress is not None:
                progress(simulation.now_ns / 1e9, duration_ns / 1e9)
    except KeyboardInterrupt:
        partial = _collect(scenario, seed, simulation, time.perf_counter() - began)
        raise SimulationInterrupted(partial) from None
    return _collect(scenario, seed, simulation, time.perf_counter() - began)


def _collect(scenario: Scenario, seed: int, simulation: _engine.Simulation, wall_time_s: float) -> Results:
    return Results.from_engine(
        scenario,
        seed,
        simulation.results(),
        end_s=simulation.now_ns / 1e9,
        finished=simulation.finished,
        wall_time_s=wall_time_s,
    )
