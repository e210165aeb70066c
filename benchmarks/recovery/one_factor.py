"""One-factor experiments of the loss-recovery options with ns-2 semantics (docs/packet.md,
"Loss recovery"): plain Reno against NewReno, and the retransmission timer restarted on every
ACK (ns-2's TCP-Linux) against RFC 6298's restart on new data only. One factor changes per
row; everything else is the scenario below (4 Reno flows on 10 Mb/s, RTT 100 ms, a random-drop
queue with p = 0.002 and a 20-packet buffer, so windows of ~26 segments lose bursts: the
`BURSTS` scenario of tests/packet/test_sack.py), 60 s measured from 10 s, seeds 1-3.
Second table: the timer granularity (ns-2's `tcpTick_` = 10 ms) on a short path where the
RTO is not floored (20 Reno flows, 100 Mb/s, RTT 2 ms, a 50-packet DropTail buffer, i.e.
up to 6 ms of queueing, min RTO 1 ms), 20 s measured from 5 s.

    PYTHONPATH=python .venv/bin/python benchmarks/recovery/one_factor.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import aqmlab

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "packet"))
from scenarios import aqm_dumbbell  # noqa: E402

QUEUE = {"kind": "random_drop", "limit": "20p", "probability": 0.002}
ROWS = {
    "new_reno (default)": {},
    "reno": {"recovery": "reno"},
    "new_reno, rto_restart = every_ack": {"rto_restart": "every_ack"},
    "reno, rto_restart = every_ack": {"recovery": "reno", "rto_restart": "every_ack"},
}


TICK_ROWS = {
    "timer_tick = none (default: G = 1 ms)": {},
    "timer_tick = 10ms (ns-2's tcpTick_)": {"timer_tick": "10ms"},
}


def bursts(tcp: dict) -> dict:
    return aqm_dumbbell(
        QUEUE, flows=4, rate="10Mbps", duration="60s", measure_start="10s", delay="40ms", tcp={"cc": "reno", **tcp}
    )


def short_path(tcp: dict) -> dict:
    drop_tail = {"kind": "drop_tail", "limit": "50p"}
    tcp = {"cc": "reno", "min_rto": "1ms", **tcp}
    return aqm_dumbbell(
        drop_tail, flows=20, rate="100Mbps", duration="25s", measure_start="5s", delay="0.5ms", rtt="2ms", tcp=tcp
    )


def run(scenario: dict, seed: int) -> dict[str, float]:
    flows = aqmlab.simulate(scenario, seed=seed).to_pandas("flows")
    return {
        "goodput_mbps": flows["goodput_bps"].sum() / 1e6,
        "timeouts": flows["timeouts"].sum(),
        "fast_recoveries": flows["fast_recoveries"].sum(),
        "retransmits": flows["retransmits"].sum(),
    }


def main() -> None:
    for build, rows in ((bursts, ROWS), (short_path, TICK_ROWS)):
        table(build, rows)
        print()


def table(build, rows: dict[str, dict]) -> None:
    print("| tcp | goodput Mb/s (seeds 1, 2, 3) | timeouts | fast recoveries | retransmits |")
    print("|---|---|---|---|---|")
    for name, tcp in rows.items():
        runs = [run(build(tcp), seed) for seed in (1, 2, 3)]

        def cell(key: str, fmt: str, runs: list[dict[str, float]] = runs) -> str:
            return ", ".join(format(r[key], fmt) for r in runs)

        print(
            f"| {name} | {cell('goodput_mbps', '.2f')} | {cell('timeouts', '.0f')} | "
            f"{cell('fast_recoveries', '.0f')} | {cell('retransmits', '.0f')} |"
        )


if __name__ == "__main__":
    main()
