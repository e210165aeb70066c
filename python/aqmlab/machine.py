"""What a measurement ran on, for the records under `benchmarks/` (machine, command, date)."""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what `platform` knows."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        lines = []
    models = (line.split(":", 1)[1].strip() for line in lines if line.startswith("model name"))
    return next(models, platform.processor() or "unknown")


def describe(**extra: Any) -> dict[str, Any]:
    """uname, CPU model, core count and Python version, then `extra` (tool versions, load...)."""
    return {
        "uname": " ".join(platform.uname()),
        "cpu": cpu_model(),
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
        **extra,
    }
