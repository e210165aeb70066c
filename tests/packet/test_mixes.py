"""Protocol mixes of the seeds: Cx-TCP switching to loss-based behaviour while Reno flows are
present (seed 001 Fig. 8), CUBIC against Compound in a small buffer (seed 004 Fig. 6)."""

import aqmlab
import numpy as np


def window_sojourn_ms(samples, start, end):
    rows = (samples["time_s"] > start) & (samples["time_s"] <= end) & np.isfinite(samples["sojourn_s"])
    return 1000 * np.average(samples["sojourn_s"][rows], weights=samples["departures"][rows])


def test_cx_tcp_turns_loss_based_while_reno_flows_are_present_and_back_after():
    # seed 001 Table I / Fig. 8, scaled in time: 30 Cx flows on 25 Mb/s with a 1-BDP buffer;
    # 10 Reno flows enter 0.5 s apart from 30 s and leave 1 s apart from 55 s.
    scenario = {
        "name": "cx-on-off",
        "duration": "90s",
        "measure_start": "10s",
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": "25Mbps", "delay": "10ms", "queue": {"kind": "drop_tail", "limit": "313p"}},
            "groups": [
                {
                    "name": "cx",
                    "count": 30,
                    "rtt": "100ms",
                    "access_rate": "100Mbps",
                    "tcp": {"cc": "cx", "packet_size": "1000B"},
                    "start": {"kind": "uniform", "low": "0s", "high": "2s"},
                },
                {
                    "name": "reno",
                    "count": 10,
                    "rtt": "100ms",
                    "access_rate": "100Mbps",
                    "tcp": {"cc": "reno", "packet_size": "1000B"},
                    "start": {"kind": "staggered", "first": "30s", "spacing": "0.5s"},
                    "stop": {"kind": "staggered", "first": "55s", "spacing": "1s"},
                },
            ],
        },
        "trace": {"flows": 0},
    }
    samples = aqmlab.simulate(scenario, seed=1).link_samples()
    alone, mixed, after = (window_sojourn_ms(samples, *w) for w in ((10, 30), (40, 55), (75, 90)))
    assert alone < 20 and after < 20  # below delta_th: delay-based regime (measured 8.7, 8.9 ms)
    assert mixed > 4 * alone  # the Reno flows fill the buffer; Cx competes on losses (87.9 ms)
    drops = samples["drops"]
    time = samples["time_s"]
    assert drops[(time > 10) & (time <= 30)].sum() == 0 and drops[(time > 40) & (time <= 55)].sum() > 100


def test_cubic_takes_more_than_its_share_against_compound_in_a_small_buffer():
    # seed 004 Fig. 6: 60 flows, 80 % Compound and 20 % CUBIC, 100 Mb/s, buffer 15 packets,
    # RTT 200 ms; fast access links so that windows are not capped by them.
    scenario = {
        "name": "mix",
        "duration": "100s",
        "measure_start": "50s",
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": "100Mbps", "delay": "10ms", "queue": {"kind": "drop_tail", "limit": "15p"}},
            "groups": [
                {
                    "name": "mix",
                    "count": 60,
                    "rtt": "200ms",
                    "access_rate": "1Gbps",
                    "mix": [{"share": 0.8, "cc": "compound"}, {"share": 0.2, "cc": "cubic"}],
                }
            ],
        },
        "trace": {"flows": 0},
    }
    per_flow = {"mix/compound": [], "mix/cubic": []}
    for seed in (1, 2):
        flows = aqmlab.simulate(scenario, seed=seed).to_pandas("flows")
        assert (flows.group_name == "mix/cubic").sum() == 12
        for name, part in flows.groupby("group_name"):
            per_flow[name].append(part.goodput_bps.mean())
    # measured: 1.55 and 1.92 Mb/s per CUBIC flow against 1.31 and 1.25 per Compound flow
    assert np.mean(per_flow["mix/cubic"]) > 1.1 * np.mean(per_flow["mix/compound"])


def test_delay_based_highspeed_keeps_the_queueing_delay_low():
    # seed 001 Section V-B, Fig. 12: 30 HS-TCP flows extended with the Cx backoff on 25 Mb/s
    # (1-BDP buffer) keep the queueing delay low; plain HighSpeed fills the buffer.
    def run(cc):
        scenario = {
            "name": cc,
            "duration": "60s",
            "measure_start": "20s",
            "topology": {
                "kind": "dumbbell",
                "bottleneck": {"rate": "25Mbps", "delay": "10ms", "queue": {"kind": "drop_tail", "limit": "313p"}},
                "groups": [
                    {
                        "name": cc,
                        "count": 30,
                        "rtt": "100ms",
                        "access_rate": "100Mbps",
                        "tcp": {"cc": cc, "packet_size": "1000B"},
                        "start": {"kind": "uniform", "low": "0s", "high": "2s"},
                    }
                ],
            },
            "trace": {"flows": 0},
        }
        return aqmlab.simulate(scenario, seed=1).summary()

    plain, extended = run("highspeed"), run("cx_highspeed")
    # measured: 9.1 ms, no loss, 96 % utilisation against HighSpeed's 67.6 ms and 0.55 % loss
    assert extended["sojourn_mean_s"] < 0.020 < plain["sojourn_mean_s"]
    assert extended["loss_percent"] < plain["loss_percent"] and extended["utilisation_mean"] > 0.93
