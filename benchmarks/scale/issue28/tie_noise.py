"""Issue 28: the golden scenarios whose results changed when FIFO links became event-free
(an arrival and a transmission end at the same nanosecond now always run in one order),
against seed-to-seed noise. Runs each scenario (capped as golden.py) with seeds
seed..seed+N-1 in the old event order and in the new one, in one build: a development
switch, AQMLAB_DEV_EVENTFREE=0, served every link event-driven (bit-identical to the build
before for the scenarios checked) and was removed after this measurement; to repeat it, build
commit dc57e25, which still has it.

    AQMLAB_DEV_EVENTFREE=0|3 PYTHONPATH=python .venv/bin/python tie_noise.py --seeds 5 --json out.json

Stop 6 (senders computed inline, `crates/engine/src/sim/ack_inline.rs`) changed other
scenarios; its switch AQMLAB_DEV_ACK_INLINE=0 gives the event order before it:

    AQMLAB_DEV_ACK_INLINE=0|1 PYTHONPATH=python .venv/bin/python tie_noise.py --seeds 5 \
        --scenarios seed002-ered-large-capacity-scaled seed002-fig11-network large-scale --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import aqmlab
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from golden import scenarios  # noqa: E402

CHANGED = ["adaptive-red", "compound-droptail", "cubic-red", "seed002-fig11-network", "udp-joins-and-leaves"]


def summary(results: aqmlab.Results) -> dict[str, float]:
    flows = results.to_pandas("flows")
    links = results.to_pandas("links")
    trace = results.to_pandas("link_trace")
    monitored = links[links["monitored"]]
    return {
        "goodput_mbps": float(flows["goodput_bps"].sum() / 1e6),
        "mean_queue_pkts": float(trace["queue_packets"].mean()),
        "utilisation": float(trace["utilisation"].mean()),
        "drops_monitored": float(monitored["dropped"].sum()),
        "marks_monitored": float(monitored["marked"].sum()),
        "timeouts": float(flows["timeouts"].sum()),
        "retransmits": float(flows["retransmits"].sum()),
        "rtt_mean_ms": float(np.nanmean(flows["rtt_mean_s"]) * 1e3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--scenarios", nargs="+", default=CHANGED, help="golden.py scenario names")
    args = parser.parse_args()
    found = scenarios(20.0)
    switches = ("AQMLAB_DEV_EVENTFREE", "AQMLAB_DEV_ACK_INLINE")
    order = {switch: os.environ[switch] for switch in switches if switch in os.environ}
    out = {"order": order or "new", "runs": {}}
    for name in args.scenarios:
        scenario = found[name]
        out["runs"][name] = {
            seed: summary(aqmlab.simulate(scenario, seed=seed))
            for seed in range(scenario.seed, scenario.seed + args.seeds)
        }
        print(name, out["runs"][name][scenario.seed], flush=True)
    args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
