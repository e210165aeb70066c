"""aqmlab's exceptions, in one place.

`ScenarioError` is the engine's own exception class (raised by the Rust core for an invalid
resolved scenario), reused by the Python layer for validation errors, so callers catch one
type whatever layer found the problem. It subclasses `ValueError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aqmlab._engine import ScenarioError

if TYPE_CHECKING:
    from aqmlab.results import Results

__all__ = ["ScenarioError", "SimulationInterrupted", "ResultsError"]


class SimulationInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C; `partial` holds the results up to `partial.end_s`."""

    def __init__(self, partial: Results) -> None:
        super().__init__(f"simulation interrupted at t = {partial.end_s:.3f} s")
        self.partial = partial


class ResultsError(OSError):
    """Results could not be saved or loaded; nothing already written was changed."""
