//! Senders computed inline (`ack_inline.rs`) against the event-driven sender of the same
//! build: with one flow no two events of the flow share a nanosecond, so every result must
//! be identical; and each run-time and static condition is checked on its own.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::*;

use super::super::{Ends, Simulation};
use crate::config::{FlowGroup, Scenario, StartTimes, StopTimes, Topology, Traffic, Transfer};
use crate::link::NO_DELIVERY_EVENT;
use crate::queue::QueueConfig;
use crate::tcp::cc::CcConfig;
use crate::tcp::{RecoveryConfig, TcpConfig};
use crate::time::Time;

/// One TCP flow on a dumbbell (10 Mb/s, 100 ms), its TCP, transfer and stop set by `edit`.
fn one_flow(
    queue: QueueConfig,
    traced_flows: u32,
    edit: impl Fn(&mut TcpConfig, &mut Transfer, &mut StopTimes),
) -> Scenario {
    let mut scenario = dumbbell(10_000_000, queue, vec![group(1, 100 * MS, 100_000_000)], 20 * S);
    scenario.trace.flows = traced_flows;
    let Topology::Dumbbell(d) = &mut scenario.topology else { unreachable!() };
    let flows = &mut d.groups[0];
    let Traffic::Tcp { tcp, transfer, .. } = &mut flows.traffic else { unreachable!() };
    edit(tcp, transfer, &mut flows.stop);
    scenario
}

/// Every result column and counter of a run, as text (NaN equal to NaN), and its events.
fn run(scenario: &Scenario, inline_senders: bool) -> (String, u64) {
    let (text, sim) = run_sim(scenario, inline_senders);
    (text, sim.events_processed())
}

/// [`run`], and the simulation run.
fn run_sim(scenario: &Scenario, inline_senders: bool) -> (String, Simulation) {
    let mut sim = Simulation::build(scenario, 7, inline_senders).expect("valid scenario");
    sim.run_until(scenario.duration_ns);
    let r = sim.results();
    let counters = crate::trace::Counters { events: 0, ..r.counters };
    let text = format!("{:?}\n{:?}\n{:?}\n{:?}\n{:?}", r.flows, r.links, r.link_trace, r.flow_trace, counters);
    (text, sim)
}

/// Identical results with and without senders computed inline; returns the events saved.
fn assert_same_results(scenario: &Scenario) -> u64 {
    let (inline, inline_events) = run(scenario, true);
    let (by_events, events) = run(scenario, false);
    assert!(inline == by_events, "results differ:\n{inline}\n---\n{by_events}");
    events - inline_events
}

#[test]
fn one_flow_gives_the_event_driven_results_with_one_event_less_per_ack() {
    // Drops at a 20-packet DropTail buffer: fast recovery and timeouts.
    let (_, events) = run(&one_flow(droptail(20), 0, |_, _, _| {}), false);
    let saved = assert_same_results(&one_flow(droptail(20), 0, |_, _, _| {}));
    assert!(saved * 4 > events, "the ACK's event was one of three: saved {saved} of {events}");
    assert_same_results(&one_flow(red(5.0, 15.0, 50), 0, |_, _, _| {}));
}

#[test]
fn timeouts_with_acks_in_flight_keep_the_event_driven_results() {
    // A minimum RTO far below the queueing delay: spurious timeouts fire while ACKs travel,
    // so ACKs meet deadlines before their arrival (the deadline and ordering guards).
    let scenario = one_flow(droptail(200), 0, |tcp, _, _| {
        tcp.min_rto_ns = MS;
        tcp.initial_rto_ns = 50 * MS;
    });
    assert_same_results(&scenario);
    let (text, _) = run(&scenario, true);
    assert!(!text.contains("timeouts: [0.0]"), "the scenario has timeouts: {text}");
}

#[test]
fn a_traced_flow_gives_the_same_trace() {
    // Samples read the window and RTT: an ACK taken inline keeps them for the samples it
    // crosses (about 26 ms ahead); every 100 ms, most ACKs cross none.
    let mut scenario = one_flow(droptail(20), 1, |_, _, _| {});
    scenario.trace.interval_ns = 100 * MS;
    let saved = assert_same_results(&scenario);
    assert!(saved > 0, "ACKs are taken inline");
}

#[test]
fn sack_finite_transfers_and_stops_keep_the_event_driven_results() {
    let sack = |tcp: &mut TcpConfig| {
        tcp.recovery = RecoveryConfig::Sack(Default::default());
    };
    assert_same_results(&one_flow(droptail(20), 0, |tcp, transfer, _| {
        sack(tcp);
        *transfer = Transfer::Finite { bytes: 3_000_000 };
    }));
    // A stop while the flow's ACKs are on their way back (at a random instant, 5.2 s).
    assert_same_results(&one_flow(droptail(20), 0, |tcp, _, stop| {
        sack(tcp);
        *stop = StopTimes::Fixed { at_ns: 5_200_000_123 };
    }));
}

#[test]
fn a_run_stopped_early_accounts_for_every_packet() {
    // Stopped by the work limit, ACKs taken ahead of the stop and the packets they sent are
    // counted (module doc): created = delivered + dropped + queued + in flight still.
    let scenario = one_flow(droptail(20), 0, |_, _, _| {});
    let mut sim = Simulation::build(&scenario, 7, true).expect("valid scenario");
    sim.set_work_limit(20_000);
    sim.run_until(scenario.duration_ns);
    assert!(sim.work_limit_reached());
    let c = sim.counters();
    assert_eq!(c.packets_created, c.packets_delivered + c.packets_dropped + c.packets_queued + c.packets_in_flight);
}

/// A simulation of one bulk flow run to 5 s, and an instant just ahead of now.
fn running() -> (Simulation, Time) {
    let scenario = one_flow(droptail(20), 0, |_, _, _| {});
    let mut sim = Simulation::build(&scenario, 7, true).expect("valid scenario");
    sim.run_until(5 * S);
    let at = sim.now + MS;
    (sim, at)
}

fn set_deadline(sim: &mut Simulation, deadline: Option<Time>) {
    let Ends::Tcp { sender, .. } = &mut sim.flows[0].ends else { unreachable!() };
    sender.rto_deadline = deadline;
}

#[test]
fn each_run_time_condition_sends_the_ack_by_its_event() {
    let (mut sim, at) = running();
    let now = sim.now;
    set_deadline(&mut sim, None);
    assert!(sim.sender_computable_at(0, at, NO_DELIVERY_EVENT), "nothing in the way");
    // Within the run only.
    assert!(!sim.sender_computable_at(0, sim.duration + 1, NO_DELIVERY_EVENT));
    // An ACK of the flow still due by an event (now or later) goes first.
    assert!(!sim.sender_computable_at(0, at, now));
    assert!(sim.sender_computable_at(0, at, now - 1));
    // No end emitting packets meanwhile.
    sim.emitting = true;
    assert!(!sim.sender_computable_at(0, at, NO_DELIVERY_EVENT));
    sim.emitting = false;
    // The retransmission deadline strictly after the ACK.
    set_deadline(&mut sim, Some(at));
    assert!(!sim.sender_computable_at(0, at, NO_DELIVERY_EVENT));
    set_deadline(&mut sim, Some(at + 1));
    assert!(sim.sender_computable_at(0, at, NO_DELIVERY_EVENT));
    set_deadline(&mut sim, None);
    // The flow's stop not in [now, at].
    for (stop, inline) in [(now - 1, true), (now, false), (at, false), (at + 1, true)] {
        sim.flows[0].stop = Some(stop);
        assert_eq!(
            sim.sender_computable_at(0, at, NO_DELIVERY_EVENT),
            inline,
            "stop at {stop}, now {now}, ACK at {at}"
        );
    }
    sim.flows[0].stop = None;
    // A traced flow: not at the instant of a sample still to be scheduled; at the next
    // sample's (scheduled already), or between samples, yes.
    sim.traced_flows = 1;
    let next_sample = sim.last_sample + sim.sample_interval;
    let later_sample = next_sample + sim.sample_interval;
    assert!(sim.sender_computable_at(0, next_sample, NO_DELIVERY_EVENT));
    assert!(sim.sender_computable_at(0, later_sample - 1, NO_DELIVERY_EVENT));
    assert!(!sim.sender_computable_at(0, later_sample, NO_DELIVERY_EVENT));
    assert!(sim.sender_computable_at(0, later_sample + 1, NO_DELIVERY_EVENT));
    sim.traced_flows = 0;
    assert!(sim.sender_computable_at(0, later_sample, NO_DELIVERY_EVENT));
}

/// Whether the ACK route of flow `flow` ends on a link marked for its sender.
fn sender_inline(sim: &Simulation, flow: usize) -> bool {
    let last = *sim.routes.links(sim.flows[flow].reverse_route).last().unwrap();
    sim.links[last as usize].delivers_inline
}

#[test]
fn the_development_switch_turns_them_off_with_0_only() {
    assert!(!super::enabled_by(Some("0")));
    assert!(super::enabled_by(None) && super::enabled_by(Some("1")) && super::enabled_by(Some("")));
}

#[test]
fn the_switch_and_a_shared_access_link_keep_the_arrival_event() {
    let plain = one_flow(droptail(20), 0, |_, _, _| {});
    assert!(sender_inline(&Simulation::build(&plain, 1, true).unwrap(), 0));
    assert!(!sender_inline(&Simulation::build(&plain, 1, false).unwrap(), 0), "the switch");
    // A shared access link: other senders' packets enter it too.
    let mut shared = dumbbell(10_000_000, droptail(20), vec![group(2, 100 * MS, 100_000_000)], S);
    let Topology::Dumbbell(d) = &mut shared.topology else { unreachable!() };
    d.groups[0].shared_access = true;
    let sim = Simulation::build(&shared, 1, true).unwrap();
    assert!(!sender_inline(&sim, 0) && !sender_inline(&sim, 1));
}

#[test]
fn each_static_condition_keeps_the_arrival_event() {
    // The marking of one flow's network, with one condition broken at a time (a law outside
    // the engine could not be built here without the binding's factory).
    let plain = one_flow(droptail(20), 0, |_, _, _| {});
    let marked_in = |scenario: &Scenario, edit: &dyn Fn(&mut crate::topology::Network, &mut Vec<u32>, usize, usize)| {
        let mut network = crate::topology::build(scenario, 1).unwrap();
        super::super::mark_inline_links(&mut network.links, &network.routes);
        let mut uses = super::super::route_uses(&network);
        let first = network.routes[network.flows[0].forward_route as usize][0] as usize;
        let last = *network.routes[network.flows[0].reverse_route as usize].last().unwrap() as usize;
        edit(&mut network, &mut uses, first, last);
        super::mark_inline_senders(&mut network, &uses);
        network.links[last].delivers_inline
    };
    let marked = |edit: &dyn Fn(&mut crate::topology::Network, &mut Vec<u32>, usize, usize)| marked_in(&plain, edit);
    assert!(marked(&|_, _, _, _| {}));
    assert!(!marked(&|_, uses, first, _| uses[first] = 2), "first link used by another route");
    assert!(!marked(&|_, uses, _, last| uses[last] = 2), "last link used by another route");
    assert!(!marked(&|network, _, first, _| network.links[first].event_free = false), "first link with events");
    assert!(!marked(&|network, _, _, last| network.links[last].event_free = false), "last link with events");
    assert!(!marked(&|network, _, first, _| network.links[first].monitored = true), "first link traced");
    let python = |network: &mut crate::topology::Network, _: &mut Vec<u32>, _: usize, _: usize| {
        let crate::topology::Transport::Tcp { tcp, .. } = &mut network.flows[0].transport else { unreachable!() };
        tcp.cc = CcConfig::Python(crate::tcp::cc::external::ExternalCcConfig {
            law: "m:C".into(),
            params: Default::default(),
        });
    };
    assert!(!marked(&python), "a window law outside the engine");
    // A traced flow too, whatever its sample interval (samples keep what they read).
    let mut traced = one_flow(droptail(20), 1, |_, _, _| {});
    traced.trace.interval_ns = MS;
    assert!(marked_in(&traced, &|_, _, _, _| {}), "a traced flow");
}

/// One TCP flow in the flow trace, sampled every `interval`, on a dumbbell (10 Mb/s, RTT
/// `rtt`), its group set by `edit`.
fn traced_flow(queue: QueueConfig, rtt: Time, interval: Time, edit: impl Fn(&mut FlowGroup)) -> Scenario {
    let mut scenario = dumbbell(10_000_000, queue, vec![group(1, rtt, 100_000_000)], 10 * S);
    scenario.trace.flows = 1;
    scenario.trace.interval_ns = interval;
    let Topology::Dumbbell(d) = &mut scenario.topology else { unreachable!() };
    edit(&mut d.groups[0]);
    scenario
}

/// Identical results with and without senders computed inline; returns the samples whose
/// values an ACK taken inline kept, and of those the ones at the ACK's very instant.
fn assert_same_traced_results(scenario: &Scenario) -> (u64, u64) {
    let (inline, sim) = run_sim(scenario, true);
    let (by_events, _) = run(scenario, false);
    assert!(inline == by_events, "results differ:\n{inline}\n---\n{by_events}");
    sim.crossed_samples[0].counts
}

#[test]
fn traced_flows_crossing_none_one_or_many_samples_give_the_event_driven_trace() {
    let timeouts = |g: &mut FlowGroup| {
        let Traffic::Tcp { tcp, .. } = &mut g.traffic else { unreachable!() };
        tcp.min_rto_ns = MS;
        tcp.initial_rto_ns = 50 * MS;
    };
    let sack = |g: &mut FlowGroup| {
        let Traffic::Tcp { tcp, .. } = &mut g.traffic else { unreachable!() };
        tcp.recovery = RecoveryConfig::Sack(Default::default());
    };
    let plain = |_: &mut FlowGroup| {};
    let edits: [&dyn Fn(&mut FlowGroup); 3] = [&plain, &timeouts, &sack];
    // (RTT, interval): ACK paths of about 1, 10 and 50 ms (the reverse path has no queue),
    // so ACKs cross no sample or one, about one, five and fifty.
    for (rtt, interval) in [(2 * MS, 10 * MS), (20 * MS, 10 * MS), (100 * MS, 10 * MS), (100 * MS, MS)] {
        for queue in [droptail(20), red(5.0, 15.0, 50)] {
            for edit in edits {
                let (kept, _) = assert_same_traced_results(&traced_flow(queue.clone(), rtt, interval, edit));
                assert!(kept > 0, "samples crossed: RTT {rtt}, interval {interval}");
            }
        }
    }
}

#[test]
fn a_sample_at_the_instant_of_an_ack_taken_inline_reads_the_sender_before_it() {
    // The next sample, scheduled before the ACK's arrival event would be, runs first at
    // that instant. Samples placed on ACK instants of the run: intervals dividing one, longer
    // than the ACK path (about 50 ms), so that the ACK crosses only that sample.
    let scenario = |interval| traced_flow(droptail(20), 100 * MS, interval, |_| {});
    let (_, sim) = run_sim(&scenario(10 * MS), true);
    let on_ack_instants = sim.crossed_samples[0].ack_instants.iter().filter_map(|&at| {
        (2..=at / (60 * MS)).map(|k| at / k).find(|&interval| at.is_multiple_of(interval) && interval <= 100 * MS)
    });
    let mut at_ack_instant = 0;
    for interval in on_ack_instants.take(5) {
        at_ack_instant += assert_same_traced_results(&scenario(interval)).1;
    }
    assert!(at_ack_instant > 0, "samples at the instant of an ACK taken inline");
}

#[test]
fn a_traced_flow_starting_late_gives_the_event_driven_trace() {
    // NaN rows until it starts at 3 s, then samples crossed.
    let late = |g: &mut FlowGroup| g.start = StartTimes::Fixed { at_ns: 3 * S + 123 };
    let scenario = traced_flow(droptail(20), 100 * MS, 10 * MS, late);
    let (kept, _) = assert_same_traced_results(&scenario);
    assert!(kept > 0);
    let (text, _) = run(&scenario, true);
    assert!(text.contains("cwnd: [NaN"), "NaN rows before the start: {text}");
}
