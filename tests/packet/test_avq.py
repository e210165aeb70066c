"""AVQ (Kunniyur and Srikant 2001) on the dumbbell: the virtual capacity adapts so that the
link runs near the desired utilisation γ with a small real queue, where DropTail with the same
buffer keeps its buffer nearly full (20 Reno flows, 50 Mb/s, RTT 100 ms, 500-packet buffer, about one BDP).

Measured (seed 1): AVQ utilisation 0.941, mean queue 94 packets, loss 0.007 %, marks 0.58 %;
DropTail 0.971, 321 packets, loss 2.8 %."""

import aqmlab
from scenarios import aqm_dumbbell, starts_within


def _summary(queue):
    scenario = aqm_dumbbell(
        queue,
        flows=20,
        rate="50Mbps",
        duration="60s",
        measure_start="20s",
        delay="20ms",
        tcp={"cc": "reno", "ecn": True},
        start=starts_within("5s"),
    )
    results = aqmlab.simulate(scenario, seed=1)
    return results.summary(), results.link_samples()


def test_avq_keeps_utilisation_near_gamma_with_a_short_queue():
    avq, samples = _summary({"kind": "avq", "limit": "500p", "gamma": 0.98, "alpha": 0.15, "ecn": True})
    droptail, _ = _summary({"kind": "drop_tail", "limit": "500p"})
    assert 0.9 < avq["utilisation_mean"] <= 1.0, avq
    assert avq["queue_mean_packets"] < 0.5 * droptail["queue_mean_packets"], (avq, droptail)
    # Congestion is signalled by marks on the virtual queue, not by buffer overflow.
    assert avq["mark_percent"] > 0 and avq["loss_percent"] < 0.1 < droptail["loss_percent"]
    # The virtual queue is traced and never exceeds the virtual buffer.
    assert samples["virtual_queue"].max() <= 500
