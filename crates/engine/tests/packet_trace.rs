//! Issue 31: per-packet traces. Recording changes nothing of the run; the rows agree with
//! the queues' own counters on links served without events (RED, drop-tail) and with
//! events (CoDel with ECN, which marks and drops at the head); rows come sorted by time.

mod common;

use aqmlab_engine::config::{Scenario, Topology, Traffic};
use aqmlab_engine::packet_trace::{PacketEvent, PacketTrace, PacketTraceConfig};
use aqmlab_engine::queue::codel::CodelConfig;
use aqmlab_engine::queue::red::RedConfig;
use aqmlab_engine::queue::{Limit, QueueConfig};
use aqmlab_engine::tcp::recovery::RecoveryConfig;
use aqmlab_engine::trace::{Counters, Results};
use aqmlab_engine::Simulation;
use common::*;

fn run(scenario: &Scenario) -> Results {
    let mut sim = Simulation::new(scenario, 7).expect("valid scenario");
    sim.run_until(scenario.duration_ns);
    sim.results()
}

fn traced(mut scenario: Scenario, config: PacketTraceConfig) -> Scenario {
    scenario.trace.packets = Some(config);
    scenario
}

fn links(names: &[&str]) -> PacketTraceConfig {
    PacketTraceConfig { links: names.iter().map(|name| name.to_string()).collect(), ..Default::default() }
}

fn with_ecn_and_sack(mut scenario: Scenario) -> Scenario {
    let Topology::Dumbbell(d) = &mut scenario.topology else { unreachable!() };
    for group in &mut d.groups {
        if let Traffic::Tcp { tcp, .. } = &mut group.traffic {
            tcp.ecn = true;
            tcp.recovery = RecoveryConfig::Sack(Default::default());
        }
    }
    scenario
}

fn red_dumbbell() -> Scenario {
    // A small buffer: overflows as well as early drops.
    let red =
        QueueConfig::Red(RedConfig { limit: Limit::Packets(60), min_th: 5.0, max_th: 30.0, ..RedConfig::default() });
    dumbbell(10_000_000, red, vec![group(8, 60 * MS, 100_000_000)], 6 * S)
}

fn codel_ecn_dumbbell() -> Scenario {
    let codel = QueueConfig::Codel(CodelConfig {
        limit: Limit::Packets(100),
        target_ns: 5 * MS,
        interval_ns: 100 * MS,
        ecn: true,
        mtu_bytes: 1500,
    });
    with_ecn_and_sack(dumbbell(10_000_000, codel, vec![group(8, 60 * MS, 100_000_000)], 6 * S))
}

fn count(trace: &PacketTrace, link: u32, event: PacketEvent) -> f64 {
    (trace.link.iter().zip(&trace.event)).filter(|&(&l, &e)| l == link && e == event as u8).count() as f64
}

/// The rows of each link agree with its counters: arrivals, drops, marks, departures.
fn assert_rows_match_counters(results: &Results, names: &[&str]) {
    let trace = results.packet_trace.as_ref().expect("a packet trace");
    assert!(trace.time_ns.windows(2).all(|pair| pair[0] <= pair[1]), "rows sorted by time");
    for name in names {
        let id = results.links.name.iter().position(|n| n == name).unwrap();
        let l = &results.links;
        let link = id as u32;
        assert_eq!(count(trace, link, PacketEvent::Enqueue), l.arrivals[id], "{name} arrivals");
        assert_eq!(count(trace, link, PacketEvent::Drop), l.dropped[id], "{name} drops");
        assert_eq!(count(trace, link, PacketEvent::Mark), l.marked[id], "{name} marks");
        assert_eq!(count(trace, link, PacketEvent::Dequeue), l.departures[id], "{name} departures");
    }
}

#[test]
fn tracing_changes_nothing_of_the_run() {
    for scenario in [red_dumbbell(), codel_ecn_dumbbell()] {
        let plain = run(&scenario);
        let with_trace = run(&traced(scenario, links(&["bottleneck", "bottleneck_reverse", "access"])));
        assert!(plain.packet_trace.is_none());
        assert_eq!(plain.links.dropped, with_trace.links.dropped);
        assert_eq!(plain.links.departures, with_trace.links.departures);
        assert_eq!(plain.flows.bytes_delivered, with_trace.flows.bytes_delivered);
        assert_eq!(plain.link_trace.queue_packets, with_trace.link_trace.queue_packets);
        // Events aside: with the per-packet trace, ACKs reach their senders by events
        // (`sim/ack_inline.rs`).
        let no_events = |counters: &Counters| Counters { events: 0, ..*counters };
        assert_eq!(no_events(&plain.counters), no_events(&with_trace.counters));
    }
}

#[test]
fn rows_agree_with_the_counters_of_a_link_served_without_events() {
    let results = run(&traced(red_dumbbell(), links(&["bottleneck", "bottleneck_reverse"])));
    let bottleneck = 0;
    assert!(results.links.dropped[bottleneck] > 10.0, "the scenario must drop");
    assert_rows_match_counters(&results, &["bottleneck", "bottleneck_reverse"]);
    let trace = results.packet_trace.unwrap();
    let reasons: std::collections::BTreeSet<u8> = (trace.event.iter().zip(&trace.reason))
        .filter(|&(&e, _)| e == PacketEvent::Drop as u8)
        .map(|(_, &r)| r)
        .collect();
    assert!(reasons.len() >= 2, "early and overflow drops: {reasons:?}");
}

#[test]
fn rows_agree_with_the_counters_of_an_event_driven_link_marking_at_the_head() {
    let results = run(&traced(codel_ecn_dumbbell(), links(&["bottleneck", "bottleneck_reverse"])));
    assert!(results.links.marked[0] > 5.0, "CoDel must mark");
    assert_rows_match_counters(&results, &["bottleneck", "bottleneck_reverse"]);
    let trace = results.packet_trace.unwrap();
    // SACK flows: some ACK on the reverse bottleneck carries blocks.
    assert!(trace.sack_blocks.iter().any(|&n| n > 0));
    assert_eq!(trace.sack_edges.len(), 2 * trace.sack_blocks.iter().map(|&n| n as usize).sum::<usize>());
}

#[test]
fn a_packet_leaves_when_admitted_and_arrives_a_transmission_and_a_delay_later() {
    let results = run(&traced(red_dumbbell(), links(&["bottleneck"])));
    let trace = results.packet_trace.unwrap();
    // 1500-byte packets at 10 Mb/s: 1.2 ms on the wire, then 1 ms of propagation.
    let mut checked = 0;
    let mut departures = std::collections::HashMap::new();
    for i in 0..trace.time_ns.len() {
        let key = (trace.flow[i], trace.seq[i], trace.sent_ns[i]);
        if trace.event[i] == PacketEvent::Dequeue as u8 {
            departures.insert(key, trace.time_ns[i]);
        } else if trace.event[i] == PacketEvent::Receive as u8 && trace.size_bytes[i] == 1500 {
            assert_eq!(trace.time_ns[i] - departures[&key], 1_200_000 + MS);
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn flows_and_groups_choose_the_rows() {
    let config = PacketTraceConfig { flows: vec![2, 5], ..Default::default() };
    let results = run(&traced(red_dumbbell(), config));
    let trace = results.packet_trace.unwrap();
    assert!(trace.flow.iter().all(|&f| f == 2 || f == 5));
    // Without links: every link the flows cross (access, bottleneck, receiver and back).
    let mut crossed: Vec<u32> = trace.link.clone();
    crossed.sort_unstable();
    crossed.dedup();
    assert_eq!(crossed.len(), 2 * 4 + 2, "four edge links each and the bottleneck both ways");
    let everyone = run(&traced(red_dumbbell(), PacketTraceConfig { groups: vec![0], ..links(&["bottleneck"]) }));
    let flows: std::collections::BTreeSet<u32> = everyone.packet_trace.unwrap().flow.into_iter().collect();
    assert_eq!(flows.len(), 8);
}

#[test]
fn the_dumbbell_links_join_two_routers() {
    let results = run(&traced(red_dumbbell(), links(&["bottleneck"])));
    let trace = results.packet_trace.unwrap();
    let (from, to) = (&trace.link_from_node, &trace.link_to_node);
    // Link 0 the bottleneck, 1 its reverse: the same two routers the other way round.
    assert_eq!((from[1], to[1]), (to[0], from[0]));
    // Every access link enters the bottleneck's first router, every receiver link leaves
    // its second; each flow has its own sender and receiver.
    for (id, role) in results.links.role.iter().enumerate() {
        match *role {
            "access" => assert_eq!(to[id], from[0]),
            "receiver" => assert_eq!(from[id], to[0]),
            _ => {}
        }
    }
    let nodes = from.iter().chain(to).copied().collect::<std::collections::BTreeSet<u32>>();
    assert_eq!(nodes.len(), 2 + 2 * 8);
    // Flow i's own edge links are links 2 + 4i.. (access, access_reverse, receiver,
    // receiver_reverse): its sender is where its access link starts, its receiver where its
    // receiver link ends.
    for flow in 0..8 {
        let access = 2 + 4 * flow;
        assert_eq!(results.links.role[access], "access");
        assert_eq!(trace.flow_source_node[flow], from[access]);
        assert_eq!(trace.flow_sink_node[flow], to[access + 2]);
    }
}

#[test]
fn unknown_links_flows_and_groups_are_errors_naming_the_field() {
    let error = |config| Simulation::new(&traced(red_dumbbell(), config), 1).err().expect("an error").to_string();
    let message = error(links(&["bottleneck", "core"]));
    assert!(message.contains("trace.packets.links[1]") && message.contains("bottleneck_reverse"), "{message}");
    let message = error(PacketTraceConfig { flows: vec![8], ..Default::default() });
    assert!(message.contains("trace.packets.flows[0]"), "{message}");
    let message = error(PacketTraceConfig { groups: vec![1], ..Default::default() });
    assert!(message.contains("trace.packets.groups[0]"), "{message}");
    let message = error(PacketTraceConfig::default());
    assert!(message.contains("trace.packets"), "{message}");
}

#[test]
fn the_same_seed_gives_the_same_trace() {
    let scenario = traced(codel_ecn_dumbbell(), links(&["bottleneck", "access"]));
    assert_eq!(run(&scenario).packet_trace, run(&scenario).packet_trace);
}

#[test]
fn a_forced_mark_is_recorded_as_forced() {
    use aqmlab_engine::queue::threshold::ThresholdConfig;
    // The threshold policy marks every ECN-capable arrival above its threshold, "forced".
    let threshold = QueueConfig::Threshold(ThresholdConfig {
        limit: Limit::Packets(100),
        q_th: 10.0,
        ecn: true,
        queue_in_bytes: false,
    });
    let scenario = with_ecn_and_sack(dumbbell(10_000_000, threshold, vec![group(8, 60 * MS, 100_000_000)], 6 * S));
    let results = run(&traced(scenario, links(&["bottleneck"])));
    assert!(results.links.marked[0] > 5.0, "the threshold must mark");
    assert_rows_match_counters(&results, &["bottleneck"]);
    let trace = results.packet_trace.unwrap();
    let marks: Vec<u8> = (trace.event.iter().zip(&trace.reason))
        .filter(|&(&e, _)| e == PacketEvent::Mark as u8)
        .map(|(_, &r)| r)
        .collect();
    assert!(marks.iter().all(|&reason| reason == 3), "forced (3): {marks:?}");
}
