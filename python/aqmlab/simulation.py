"""`aqmlab.simulate`: run a scenario in the packet engine.

Before anything is allocated the scenario's workload is estimated (`aqmlab.workload`) and a
run above the limits is refused unless `allow_large=True`. The engine then advances in
chunks of simulated time with the GIL released; within a chunk it stops every few
milliseconds of work to let Python's signal handlers run, so Ctrl-C is honoured at once and
the partial results travel on the `SimulationInterrupted` exception. A Ctrl-C that comes
while the results are being collected is held until they are complete (collection is never
torn in half) and then raised the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aqmlab import _engine, workload
from aqmlab._signals import held_interrupts
from aqmlab.errors import ScenarioError, SimulationInterrupted, WorkLimitExceeded
from aqmlab.results import Results
from aqmlab.scenario import Scenario, load

#: progress(now_s, duration_s) is called after every chunk.
Progress = Callable[[float, float], None]

#: The run is cut into this many chunks (at least): progress granularity.
CHUNKS = 200


def check_seed(seed: object, field: str = "seed") -> int:
    """`seed` as the engine takes it: an integer in [0, 2**64)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ScenarioError(f"{field} = {seed!r}; allowed: an integer in [0, 2**64)")
    return seed


def validate(scenario: Scenario | dict[str, Any] | str | Path, *, allow_large: bool = False) -> workload.Workload:
    """Check `scenario` as `simulate` does, without running it: the work estimate first
    (`WorkLimitExceeded` above the limits unless `allow_large`, before the engine allocates
    anything), then the engine builds it (`ScenarioError` for what only the engine checks).
    Returns the estimate."""
    scenario = load(scenario)
    estimate = workload.check(scenario, allow_large=allow_large)
    _engine.Simulation(scenario.resolved_json(), check_seed(scenario.seed))
    return estimate


def simulate(
    scenario: Scenario | dict[str, Any] | str | Path,
    *,
    seed: int | None = None,
    progress: Progress | bool | None = None,
    allow_large: bool = False,
) -> Results:
    """Simulate `scenario` (a `Scenario`, a dict or a TOML path) with `seed`.

    `progress=True` shows a progress bar over simulated time (terminal or Jupyter); a
    callable `progress(now_s, duration_s)` is called after every chunk instead.

    `seed` defaults to the scenario's own. The same scenario and seed give bit-identical
    results. Raises `ScenarioError` for an invalid scenario, `WorkLimitExceeded` for one
    above the work or memory limits (unless `allow_large`; also if the run outgrows them,
    with the partial results), and `SimulationInterrupted` (carrying the partial results,
    `partial.finished` telling whether they are complete) on Ctrl-C.
    """
    scenario = load(scenario)
    if progress is None:
        from aqmlab.progress import simulations_shown

        progress = simulations_shown() or None
    if progress is True:
        from aqmlab.progress import simulation_bar

        with simulation_bar(scenario.name, scenario.duration_s) as bar:
            return simulate(scenario, seed=seed, progress=bar, allow_large=allow_large)
    if progress is False:
        progress = None
    seed = check_seed(scenario.seed if seed is None else seed)
    workload.check(scenario, allow_large=allow_large)
    simulation = _engine.Simulation(scenario.resolved_json(), seed)
    if not allow_large:
        simulation.set_work_limit(int(workload.limits().work))
    duration_ns = simulation.duration_ns
    step_ns = max(duration_ns // CHUNKS, 1)
    began = time.perf_counter()
    with held_interrupts() as held:
        try:
            held.armed = True  # a SIGINT before this line is pending, and ends the loop below
            while not (simulation.finished or simulation.work_limit_reached or held.pending):
                simulation.run_until(min(simulation.now_ns + step_ns, duration_ns))
                if progress is not None:
                    progress(simulation.now_ns / 1e9, duration_ns / 1e9)
            held.armed = False
        except KeyboardInterrupt:
            held.armed = False
            held.pending = True
        results = _collect(scenario, seed, simulation, time.perf_counter() - began)
    if held.pending:
        raise SimulationInterrupted(results) from None
    if simulation.work_limit_reached:
        raise WorkLimitExceeded(
            f"{scenario.name}: stopped at t = {results.end_s:g} s of {scenario.duration_s:g} s after "
            f"{simulation.work:,} events and packets, the limit (the estimate was "
            f"{workload.estimate(scenario).work:.3g}); pass allow_large=True (CLI: --allow-large) to run it anyway",
            partial=results,
        )
    return results


def _collect(scenario: Scenario, seed: int, simulation: _engine.Simulation, wall_time_s: float) -> Results:
    return Results.from_engine(
        scenario,
        seed,
        simulation.results(),
        end_s=simulation.now_ns / 1e9,
        finished=simulation.finished,
        wall_time_s=wall_time_s,
    )
