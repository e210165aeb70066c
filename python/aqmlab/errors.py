"""aqmlab's exceptions, in one place.

Every error aqmlab raises for bad input or a refused run derives from `AqmlabError`, so a
caller (and every CLI command) catches one type whatever layer found the problem:

  - `ScenarioError` (also a `ValueError`): the scenario is invalid; the message names the
    field, the value and what is allowed. The Rust engine raises this very class (the
    binding looks it up here), so engine-side checks and Python-side ones are alike.
  - `WorkLimitExceeded` (a `ScenarioError`): the scenario's work estimate is above the
    limits (`aqmlab.workload`), or the run did more work than they allow; the message gives
    the estimate and the field to change, or `allow_large=True` / `--allow-large`.
  - `ResultsError` (also an `OSError`): results could not be saved or loaded.
  - `EmptyWindowError` (also a `ValueError`): a summary was asked of a window without one
    trace sample (a run shorter than one trace interval, or interrupted before the window).
  - `UserCodeError`: a queue policy or window law written in Python raised during a run;
    the message ends with the user's traceback.
  - `SimulationInterrupted` (a `KeyboardInterrupt`, not an `AqmlabError`): Ctrl-C; carries
    the partial results.

This module imports nothing of aqmlab, not even for annotations (`partial` is an
`aqmlab.Results`): the engine binding imports it while it loads, and it is the lowest layer.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AqmlabError",
    "ScenarioError",
    "WorkLimitExceeded",
    "ResultsError",
    "EmptyWindowError",
    "UserCodeError",
    "SimulationInterrupted",
]


class AqmlabError(Exception):
    """Base of every error aqmlab raises for bad input, a refused run or unusable results."""


class ScenarioError(AqmlabError, ValueError):
    """The scenario is invalid; the message names the field, the value and what is allowed."""


class WorkLimitExceeded(ScenarioError):
    """The run would need (or needed) more memory or events than the limits allow.

    `partial` holds the results up to where a running simulation was stopped (None when it
    was refused before it started)."""

    def __init__(self, message: str, partial: Any = None) -> None:  # an aqmlab.Results or None
        super().__init__(message)
        self.partial = partial


class ResultsError(AqmlabError, OSError):
    """Results could not be saved or loaded; nothing already written was changed."""


class EmptyWindowError(AqmlabError, ValueError):
    """A statistic was asked of a measurement window holding no trace sample."""


class SimulationInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C; `partial` holds the results up to `partial.end_s`
    (`partial.finished` is true when the interrupt came after the last event)."""

    def __init__(self, partial: Any) -> None:  # an aqmlab.Results
        super().__init__(f"simulation interrupted at t = {partial.end_s:.3f} s")
        self.partial = partial


class UserCodeError(AqmlabError):
    """User code called by a run (a queue policy or window law written in Python,
    `aqmlab.extensions`) raised; the message says which hook, where and when, and ends with
    the user's traceback. The run failed: no result was kept."""
