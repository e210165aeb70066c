//! End-to-end properties of the engine on dumbbell scenarios.

mod common;

use aqmlab_engine::config::Scenario;
use aqmlab_engine::Simulation;
use common::*;

fn run(scenario: &Scenario, seed: u64) -> Simulation {
    let mut sim = Simulation::new(scenario, seed).expect("valid scenario");
    // run in uneven chunks: results must not depend on how the run is sliced
    let mut t = 0;
    while !sim.run_until(t) {
        t += 777 * MS;
    }
    sim
}

fn conserved(sim: &Simulation) {
    let c = sim.counters();
    assert!(c.packets_created > 0);
    assert_eq!(
        c.packets_created,
        c.packets_delivered + c.packets_dropped + c.packets_queued + c.packets_in_flight,
        "packet conservation: {c:?}"
    );
}

fn scenarios() -> Vec<Scenario> {
    vec![
        dumbbell(10_000_000, droptail(20), vec![group(5, 40 * MS, 100_000_000)], 10 * S),
        dumbbell(100_000_000, red(50.0, 100.0, 2084), vec![group(60, 100 * MS, 2_000_000)], 10 * S),
        dumbbell(
            10_000_000,
            red(5.0, 15.0, 30),
            vec![group(3, 20 * MS, 100_000_000), group(3, 200 * MS, 100_000_000)],
            10 * S,
        ),
    ]
}

#[test]
fn packets_are_conserved_mid_run_and_at_the_end() {
    for scenario in scenarios() {
        let mut sim = Simulation::new(&scenario, 1).unwrap();
        sim.run_until(3 * S + 12_345);
        conserved(&sim);
        sim.run_until(u64::MAX);
        conserved(&sim);
    }
}

#[test]
fn same_seed_same_results_different_seed_different() {
    let scenario = &scenarios()[1];
    let a = run(scenario, 7).results();
    let b = run(scenario, 7).results();
    let c = run(scenario, 8).results();
    assert_eq!(a.link_trace.queue_packets, b.link_trace.queue_packets);
    assert_eq!(a.flows.bytes_delivered, b.flows.bytes_delivered);
    assert_eq!(a.counters, b.counters);
    assert_ne!(a.link_trace.queue_packets, c.link_trace.queue_packets);
}

#[test]
fn queue_never_exceeds_its_limit() {
    for scenario in scenarios() {
        let sim = run(&scenario, 3);
        let r = sim.results();
        let limit = match &scenario.topology {
            aqmlab_engine::config::Topology::Dumbbell(d) => d.bottleneck.queue.limit(),
            aqmlab_engine::config::Topology::Network(_) => unreachable!("dumbbell scenarios only"),
        };
        let aqmlab_engine::queue::Limit::Packets(limit) = limit else { unreachable!() };
        let max = r.link_trace.queue_packets.iter().cloned().fold(0.0, f64::max);
        assert!(max <= limit as f64, "queue {max} above limit {limit}");
    }
}

#[test]
fn single_reno_flow_fills_a_one_bdp_droptail_link_with_a_sawtooth() {
    // 10 Mb/s, RTT 100 ms: BDP = 83.3 packets of 1500 B; buffer = 1 BDP.
    let mut g = group(1, 100 * MS, 1_000_000_000);
    g.start = aqmlab_engine::config::StartTimes::Fixed { at_ns: 0 };
    let scenario = dumbbell(10_000_000, droptail(84), vec![g], 60 * S);
    let sim = run(&scenario, 1);
    let r = sim.results();
    let bottleneck: Vec<usize> = (0..r.link_trace.link.len()).filter(|&i| r.link_trace.link[i] == 0).collect();
    let last_half: Vec<usize> = bottleneck.iter().copied().filter(|&i| r.link_trace.time_s[i] > 30.0).collect();
    let utilisation: f64 = last_half.iter().map(|&i| r.link_trace.utilisation[i]).sum::<f64>() / last_half.len() as f64;
    assert!(utilisation > 0.99, "utilisation {utilisation}");
    // sawtooth: cwnd oscillates between about BDP+B and half of it
    let cwnd: Vec<f64> = (0..r.flow_trace.time_s.len())
        .filter(|&i| r.flow_trace.time_s[i] > 30.0)
        .map(|i| r.flow_trace.cwnd[i])
        .collect();
    let max = cwnd.iter().cloned().fold(0.0, f64::max);
    let min = cwnd.iter().cloned().fold(f64::INFINITY, f64::min);
    assert!(max > 150.0 && max < 175.0, "peak cwnd {max}");
    assert!(min > 0.4 * max && min < 0.6 * max, "trough cwnd {min} vs peak {max}");
    let drops: f64 = r.link_trace.drops.iter().sum();
    assert!(drops >= 2.0);
    // The slow-start overshoot through the 1 Gb/s access link loses dozens of segments of one
    // window; NewReno's Impatient timer (RFC 6582 Section 3.2 step 4) ends that recovery with a
    // timeout. The steady sawtooth has none: its trough stays above 0.4 of the peak (a timeout
    // would take cwnd to 1), asserted above.
    assert!(r.flows.timeouts[0] <= 2.0, "timeouts {}", r.flows.timeouts[0]);
}

#[test]
fn propagation_rtts_are_the_group_rtt_or_a_draw_within_its_spread() {
    let mut spread = group(40, 30 * MS, 100_000_000);
    spread.rtt_spread_ns = 100 * MS;
    let scenario = dumbbell(10_000_000, droptail(20), vec![group(3, 40 * MS, 100_000_000), spread], 10 * S);
    let rtts = Simulation::new(&scenario, 3).unwrap().propagation_rtts_ns();
    assert_eq!(rtts.len(), 43);
    assert!(rtts[..3].iter().all(|&rtt| rtt == 40 * MS), "{:?}", &rtts[..3]);
    // Drawn per flow, uniform in [30, 130] ms; the equal split of the edge delay between the
    // access and receiver links (integer ns) can take 1 ns off an odd draw.
    assert!(rtts[3..].iter().all(|&rtt| (30 * MS - 1..=130 * MS).contains(&rtt)), "{:?}", &rtts[3..]);
    let distinct: std::collections::BTreeSet<_> = rtts[3..].iter().collect();
    assert!(distinct.len() > 30, "per-flow draws, not one RTT: {distinct:?}");
    // The same seed draws the same RTTs; another seed others.
    assert_eq!(Simulation::new(&scenario, 3).unwrap().propagation_rtts_ns(), rtts);
    assert_ne!(Simulation::new(&scenario, 4).unwrap().propagation_rtts_ns(), rtts);
}
