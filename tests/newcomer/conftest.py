"""A small study shared by the newcomer tests: 2 RTTs × 2 max_p × 2 seeds, 6 s runs of seed 000's
Fig. 6 dumbbell (about 2 s on one core)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="session")
def small_study(tmp_path_factory) -> Path:
    from aqmlab.experiments.runner import run_sweep
    from aqmlab.experiments.sweep import Sweep

    folder = tmp_path_factory.mktemp("study")
    plan = Sweep.from_dict(
        {
            "name": "small",
            "base": str(ROOT / "examples" / "seed000-fig6-rtt10.toml"),
            "seeds": [1, 2],
            "set": {"duration": "6s", "measure_start": "3s"},
            "grid": {"topology.groups.0.rtt": ["200ms", "10ms"], "topology.bottleneck.queue.max_p": [0.2, 0.1]},
        }
    )
    run_sweep(plan, folder / "out", workers=1)
    return folder / "out"
