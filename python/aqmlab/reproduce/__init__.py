"""The reproduction suite: one command per figure or claim of the seed papers.

    aqmlab reproduce --list
    aqmlab reproduce seed000-fig6 --quick --out DIR

Each reproduction writes its figures, its data (run directories) and `reproduction.json`:
what the paper states, what aqmlab measured, and whether they agree — with the numbers and
the criterion used. `aqmlab report DIR` turns that into an HTML page.
"""

# Importing the modules registers their reproductions.
from aqmlab.reproduce import (  # noqa: E402, F401
    seed000_fluid,
    seed000_mixed,
    seed000_packet,
    seed000_packet_chart,
    seed000_table1,
    seed000_threshold,
    seed001,
    seed001_buffer,
    seed001_extra,
    seed001_section4,
    seed001_switching,
    seed002,
    seed002_dynamics,
    seed002_extra,
    seed002_fluid,
    seed003,
    seed004,
    seed004_section4,
)
from aqmlab.reproduce.declare import Declaration
from aqmlab.reproduce.registry import REGISTRY, Reproduction, reproduce

__all__ = ["REGISTRY", "Declaration", "Reproduction", "reproduce"]
