"""Experiments at scale: sweeps over scenarios, executors, and a resumable result store."""

from aqmlab.experiments.runner import run_sweep
from aqmlab.experiments.store import Study
from aqmlab.experiments.sweep import Run, Sweep

__all__ = ["Run", "Study", "Sweep", "run_sweep"]
