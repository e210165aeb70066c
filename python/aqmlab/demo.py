"""`make demo`: the headline study on embedded scenarios, ending in one HTML report.

The seed 000 story: the fluid model's stability charts and Hopf points (Figs. 2a, 4a, 14a:
the loop loses stability as the RTT or the thresholds grow, earlier with queue averaging),
then the packet-level confirmation: RED(50, 100) is stable at RTT 10 ms and oscillates at
200 ms (Fig. 6); deciding on the instantaneous queue instead of the average keeps the queue
under the upper threshold (Fig. 8a); and Fig. 9, small against large thresholds, which the
report shows as differing: with Compound flows RED(8, 15) also cycles, at a small amplitude
(docs/reproduction/seed000.md). Each part is a reproduction (`aqmlab reproduce`), run in its
full length (500 s simulated, each packet-level run over 5 seeds) — a few minutes of wall time.
"""

from __future__ import annotations

from pathlib import Path

from aqmlab.scenario import Scenario, embedded_scenario

DEMO_SCENARIOS = ("seed000-fig6-rtt10", "seed000-fig6-rtt200")
DEMO_REPRODUCTIONS = ("seed000-stability", "seed000-fig6", "seed000-fig8a", "seed000-fig9")

INTRODUCTION = (
    "Seed 000 (Compound TCP with RED) predicts from its fluid model that the TCP-RED loop loses "
    "stability through a Hopf bifurcation as the round-trip time or the RED thresholds grow, and that "
    "averaging the queue does not help. The first part computes the fluid model's stability charts from its "
    "characteristic roots; the rest are packet-level runs of aqmlab's engine checking the paper's Section V: "
    "60 long-lived flows over a 100 Mbps RED bottleneck, 500 s each, measured over the last 25 s."
)


def demo_scenario(name: str) -> Scenario:
    """One of the embedded scenarios (also in `examples/`)."""
    return embedded_scenario(name)


def run_demo(out: str | Path, *, quick: bool = False, progress=None) -> Path:
    """Run the headline reproductions into `out`; returns the HTML report."""
    from aqmlab.report import write_combined_report, write_report
    from aqmlab.reproduce import reproduce

    out = Path(out)
    directories = []
    for reproduction_id in DEMO_REPRODUCTIONS:
        if progress is not None:
            progress(reproduction_id)
        directory = reproduce(reproduction_id, out / reproduction_id, quick=quick)
        write_report(directory)
        directories.append(directory)
    return write_combined_report(directories, out / "report.html", "aqmlab demo: the seed 000 story", INTRODUCTION)
