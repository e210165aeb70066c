"""Progress bars (rich) for every step that can take more than a couple of seconds, in the
terminal (stderr) and in Jupyter: simulation time, runs of a sweep, parts of a reproduction
or report. The Python API takes `progress=True` (a bar) or a callback; the CLI shows bars
unless `--quiet`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: progress(done, total) for a simulation: simulated seconds.
SimulationProgress = Callable[[float, float], None]


def _console():
    """stderr; in Jupyter without ipywidgets (which rich's live display needs there), a plain
    console whose bar is printed as text when it ends, instead of rich's "install ipywidgets"
    warning."""
    from rich.console import Console

    console = Console(stderr=True)
    if console.is_jupyter and not _have_ipywidgets():
        return Console(stderr=True, force_jupyter=False, force_terminal=False)
    return console


def _have_ipywidgets() -> bool:
    import importlib.util

    return importlib.util.find_spec("ipywidgets") is not None


#: The Progress display on screen, if any: bars started inside it become its tasks (rich
#: allows one live display per console).
_ACTIVE: list = []


@contextmanager
def simulation_bar(description: str, total_s: float, *, console=None) -> Iterator[SimulationProgress]:
    """A bar over simulated time; yields the callback `simulate(progress=...)` expects."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    if _ACTIVE:
        outer = _ACTIVE[-1]
        task = outer.add_task(f"  {description}", total=total_s)
        try:
            yield lambda now, _total: outer.update(task, completed=now)
        finally:
            outer.remove_task(task)
        return

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.1f}/{task.total:.1f} s simulated"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console or _console(), transient=True) as bar:
        task = bar.add_task(description, total=total_s)
        yield lambda now, _total: bar.update(task, completed=now)


@contextmanager
def steps_bar(description: str, total: int, *, console=None) -> Iterator[Callable[[str], None]]:
    """A bar over `total` named steps; yields `step(name)`, called as each step starts (the
    bar shows the step running and counts the ones before it as done)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console or _console(), transient=False) as bar:
        task = bar.add_task(description, total=total)
        started = [0]

        def step(name: str) -> None:
            bar.update(task, completed=started[0], description=f"{description}: {name}")
            started[0] += 1

        _ACTIVE.append(bar)
        try:
            yield step
        finally:
            _ACTIVE.remove(bar)
        bar.update(task, completed=total, description=description)


# --- ambient bars: every simulation inside `showing_simulations()` shows its own bar --------
# (for commands that run many simulations deep inside library code: reproduce, demo, report).

_SHOWING = [0]


@contextmanager
def showing_simulations() -> Iterator[None]:
    """Within this block `simulate(...)` without a `progress` argument shows a bar."""
    _SHOWING[0] += 1
    try:
        yield
    finally:
        _SHOWING[0] -= 1


def simulations_shown() -> bool:
    return _SHOWING[0] > 0


@contextmanager
def status(message: str, *, console=None) -> Iterator[None]:
    """A spinner with the elapsed time, for a step without countable parts."""
    import time

    console = console or _console()
    began = time.perf_counter()
    with console.status(message):
        yield
    console.print(f"{message} done ({time.perf_counter() - began:.1f} s)", highlight=False)
