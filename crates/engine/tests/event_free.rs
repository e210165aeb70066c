//! Issue 28: FIFO links whose policy decides at arrival need no events of their own, links
//! with one upstream are computed by it, and so are receivers without delayed ACKs and
//! senders whose ACK nothing can see or overtake on its way (`sim/ack_inline.rs`). Event
//! counts only (no timing): on a dumbbell a data packet and its ACK cost three events, and
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
fn a_data_packet_and_its_ack_cost_three_events_on_a_dumbbell() {
    // The arrivals at the bottleneck and at the reverse bottleneck, and the ACK at the sender
    // (it was 7.7: benchmarks/scale/README.md); timers, samples, starts and the arrivals of
    // packets dropped at the bottleneck besides.
    let per_packet = events_per_packet(&red_dumbbell());
    assert!((3.0..3.3).contains(&per_packet), "{per_packet}");
    let per_packet =
        events_per_packet(&dumbbell(10_000_000, droptail(20), vec![group(5, 40 * MS, 100_000_000)], 10 * S));
    assert!((3.0..3.3).contains(&per_packet), "{per_packet}");
}

#[test]
fn without_flow_traces_the_ack_reaches_its_sender_without_an_event() {
    // Senders computed inline (issue 28 stop 6, `sim/ack_inline.rs`): the arrivals at the
    // bottleneck and at the reverse bottleneck only. With the flow trace above, a sample
    // every 10 ms falls between almost every ACK's computation and its arrival (a quarter
    // of the RTT), and the ACK keeps its event.
    let mut scenario = red_dumbbell();
    scenario.trace.flows = 0;
    let per_packet = events_per_packet(&scenario);
    assert!((2.0..2.3).contains(&per_packet), "{per_packet}");
}

#[test]
fn receivers_with_delayed_acks_keep_their_delivery_events() {
    // Their timer makes them more than a function of the data: each data packet is
    // delivered by an event, and one ACK per two segments costs two: about 1 + 1 + 2 / 2 = 3
    // (computed inline, the receivers would make it 1 + 2 / 2 = 2).
    let per_packet = events_per_packet(&with_delayed_acks(red_dumbbell()));
    assert!(per_packet > 2.8, "{per_packet}");
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
