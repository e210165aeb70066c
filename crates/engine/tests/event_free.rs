//! Issue 28: FIFO links whose policy decides at arrival need no events of their own, links
//! with one upstream are computed by it, and so are receivers without delayed ACKs and
//! senders whose ACK nothing can see or overtake on its way (`sim/ack_inline.rs`). Event
//! counts only (no timing): on a dumbbell a data packet and its ACK cost two events, and
//! what must keep events keeps them.

mod common;

use aqmlab_engine::config::{Scenario, Topology, Traffic};
use aqmlab_engine::queue::codel::CodelConfig;
use aqmlab_engine::queue::{Limit, QueueConfig};
use aqmlab_engine::Simulation;
use common::*;

/// Events per bottleneck departure (a data packet and its ACK), after checking that every
/// packet created is accounted for.
fn events_per_packet(scenario: &Scenario) -> f64 {
    let mut sim = Simulation::new(scenario, 3).expect("valid scenario");
    sim.run_until(scenario.duration_ns);
    let c = sim.counters();
    assert_eq!(c.packets_created, c.packets_delivered + c.packets_dropped + c.packets_queued + c.packets_in_flight);
    let r = sim.results();
    assert_eq!(r.links.role[0], "bottleneck");
    let departures = r.links.departures[0];
    assert!(departures > 5_000.0, "{departures}");
    sim.events_processed() as f64 / departures
}

fn with_delayed_acks(mut scenario: Scenario) -> Scenario {
    let Topology::Dumbbell(d) = &mut scenario.topology else { unreachable!() };
    for group in &mut d.groups {
        if let Traffic::Tcp { tcp, .. } = &mut group.traffic {
            tcp.delayed_ack = true;
        }
    }
    scenario
}

fn red_dumbbell() -> Scenario {
    dumbbell(100_000_000, red(50.0, 100.0, 2084), vec![group(20, 100 * MS, 20_000_000)], 10 * S)
}

#[test]
fn a_data_packet_and_its_ack_cost_two_events_on_a_dumbbell() {
    // The arrivals at the bottleneck and at the reverse bottleneck; the ACK reaches its
    // sender without an event (`sim/ack_inline.rs`; it was 7.7 per packet, then 3 with the
    // ACK's event: benchmarks/scale/README.md); timers, samples, starts and the arrivals of
    // packets dropped at the bottleneck besides. With the flow trace (every flow sampled
    // every 10 ms, the default) as without it: samples keep what they read.
    let per_packet = events_per_packet(&red_dumbbell());
    assert!((2.0..2.3).contains(&per_packet), "{per_packet}");
    let mut untraced = red_dumbbell();
    untraced.trace.flows = 0;
    let per_packet = events_per_packet(&untraced);
    assert!((2.0..2.3).contains(&per_packet), "{per_packet}");
    let per_packet =
        events_per_packet(&dumbbell(10_000_000, droptail(20), vec![group(5, 40 * MS, 100_000_000)], 10 * S));
    assert!((2.0..2.3).contains(&per_packet), "{per_packet}");
}

#[test]
fn receivers_with_delayed_acks_keep_their_delivery_events() {
    // Their timer makes them more than a function of the data: each data packet is
    // delivered by an event (and arms the timer), and one ACK per two segments costs one:
    // about 1 + 1 + 1 / 2 = 2.5 and timer events (computed inline, the receivers would make
    // it 1 + 1 / 2 = 1.5).
    let per_packet = events_per_packet(&with_delayed_acks(red_dumbbell()));
    assert!(per_packet > 2.4, "{per_packet}");
}

#[test]
fn a_dequeue_side_bottleneck_keeps_its_transmission_events() {
    let codel = QueueConfig::Codel(CodelConfig {
        limit: Limit::Packets(1000),
        target_ns: 5 * MS,
        interval_ns: 100 * MS,
        ecn: false,
        mtu_bytes: 1500,
    });
    let per_packet = events_per_packet(&dumbbell(100_000_000, codel, vec![group(20, 100 * MS, 20_000_000)], 10 * S));
    assert!(per_packet > 3.8, "{per_packet}");
}
