"""One-factor experiments on the model side of seed 003's queue-law claims (issue 27, class (a):
ns-2 as printed misses them too): the claims' own measurements judged again against eqs. (7),
(8) and (9)-(10) with one assumption of the TCP model (seed 003 eq. (2), the PFTK model:
`aqmlab.design.pftk.TcpModel`) changed.

    python benchmarks/ns2/referee/seed003_model_factors.py      # no simulation: seconds

Measurements: ns-2 2.35 as printed (`runs/<id>.json`, claims_run.py) and aqmlab (the `baseline`
of the same reproduction in `aqmlab_factors.json`, same seeds). The runs' drop probabilities
stay those of the pages' model (they are the experiments' inputs, set before the runs); only the
predictions are recomputed: G(p) (eq. (7)), u(p) (eq. (8)) and the G ∩ H point (eq. (9), H of
eq. (10)). Variants, one model field each (`VARIANTS`); the pages' model is `engine_tcp`
(b = 1: the engine's receivers and ns-2's TCPSink acknowledge every segment; T0 = max(200 ms,
2R): the engine's RTO floor with RTTVAR ≈ R/4). The verdicts land in
`seed003_model_factors.json` (reproduction → simulator → variant → claim id → verdict, values).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from aqmlab.design import QueueLaw  # noqa: E402
from aqmlab.design.pftk import TcpModel  # noqa: E402
from aqmlab.reproduce import seed003, seed003_queue_law  # noqa: E402
from one_factor import judge_seeds  # noqa: E402

STORE = HERE / "seed003_model_factors.json"
AQMLAB_STORE = HERE / "aqmlab_factors.json"
ONE_FACTOR_STORE = HERE / "one_factor.json"
RUNS = HERE / "runs"
#: The reproductions whose predictions come from G(p) at fixed (c, n, R_o, B).
REPRODUCTIONS = ("seed003-fig4-5", "seed003-fig6", "seed003-fig8-13")
#: One field of the TCP model per variant (seed 003 eq. (2) and the text after it).
VARIANTS: dict[str, TcpModel] = {
    "printed": seed003_queue_law.engine_tcp(500),
    # "T0 (which is typically 5R)": seed 003, Section II-A, after eq. (5); no floor.
    "t0-5R": TcpModel(packet_bytes=500, b=1.0, t0_rtts=5.0, min_t0=0.0),
    # An RTO of one smoothed RTT above the floor (RTTVAR → 0).
    "t0-1R-floor200ms": TcpModel(packet_bytes=500, b=1.0, t0_rtts=1.0, min_t0=0.2),
}


@contextmanager
def model(tcp: TcpModel) -> Iterator[None]:
    """The reproductions' predictions computed with `tcp`; their runs (p, n, c) unchanged."""
    law = seed003_queue_law
    saved = (law.queue_cases, law.utilisation_cases, law.law_of, seed003.queue_law)
    queue_cases = {quick: law.queue_cases(quick) for quick in (False, True)}
    utilisation_cases = {quick: law.utilisation_cases(quick) for quick in (False, True)}
    law.queue_cases = queue_cases.__getitem__
    law.utilisation_cases = utilisation_cases.__getitem__
    law.law_of = lambda rate, flows: QueueLaw(rate, flows, law.RTT_S, law.buffer_of(rate), tcp)
    seed003.queue_law = lambda flows: QueueLaw(seed003.RATE_BPS, flows, seed003.RTT_S, seed003.BUFFER, tcp)
    try:
        yield
    finally:
        law.queue_cases, law.utilisation_cases, law.law_of, seed003.queue_law = saved


def measurements(reproduction_id: str) -> dict[str, dict[str, Any]]:
    """source → seed → run → measures: ns-2 as printed, and aqmlab's runs unchanged ("aqmlab")
    and with one scenario factor (aqmlab_factors.py's and one_factor.py's stores). Fig. 6's
    stores hold Figs. 4-5's queue runs too (the same scenarios), so they also serve fig4-5."""
    out = {}
    for store_id in dict.fromkeys(("seed003-fig6" if reproduction_id == "seed003-fig4-5" else "", reproduction_id)):
        for ns2 in sorted(RUNS.glob(f"{store_id}.json")) + sorted(RUNS.glob(f"{store_id}-printed-*.json")):
            recorded = json.loads(ns2.read_text())
            label = "ns-2 as printed" + (f" {recorded['factor']}" if "factor" in recorded else "")
            seeds = {s: {r: e["measures"] for r, e in runs.items()} for s, runs in recorded["seeds"].items()}
            out.setdefault(label, seeds)
        for store, prefix in ((AQMLAB_STORE, "aqmlab"), (ONE_FACTOR_STORE, "aqmlab, one_factor.py")):
            for factor, per_seed in json.loads(store.read_text()).get(store_id, {}).items():
                label = prefix if factor == "baseline" else f"{prefix} {factor}"
                out.setdefault(label, per_seed)
    return {label: complete(per_seed) for label, per_seed in out.items()}


def complete(per_seed: dict[str, Any]) -> dict[str, Any]:
    """The seeds that hold every run (a store being written has its last seed in part)."""
    runs = max((set(measures) for measures in per_seed.values()), key=len, default=set())
    return {seed: measures for seed, measures in per_seed.items() if set(measures) >= runs}


def judged_or_why(reproduction_id: str, per_seed: dict[str, Any]) -> dict[str, Any]:
    """The claims judged on `per_seed`, or why not (a run missing; a prediction of 0)."""
    try:
        return judge_seeds(reproduction_id, per_seed)
    except KeyError as error:
        return {"error": f"a run not recorded: {error}"}
    except ZeroDivisionError:
        return {"error": "G(p) = 0 at a run's p: the run's p is above this model's p0 (eq. (7))"}


def main() -> None:
    store: dict[str, Any] = {}
    for reproduction_id in REPRODUCTIONS:
        for simulator, per_seed in measurements(reproduction_id).items():
            for label, tcp in VARIANTS.items():
                with model(tcp):
                    judged = judged_or_why(reproduction_id, per_seed)
                store.setdefault(reproduction_id, {}).setdefault(simulator, {})[label] = judged
                for claim_id, entry in judged.items():
                    text = entry if isinstance(entry, str) else f"{entry['verdict']}: {entry['aqmlab']}"
                    print(f"{simulator} | {label} | {claim_id}: {text}")
    STORE.write_text(json.dumps(store, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
