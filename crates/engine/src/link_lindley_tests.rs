//! A link served without events (`Link::offer_lindley`: Lindley's recursion) is exactly the
//! event-driven link of `sim.rs` (enqueue, pass-through, transmission-complete events), for
//! every policy that decides at arrival: two links driven by the same random packets and
//! random streams must agree on every departure time, every decision (drop, mark) and every
//! trace value, after each arrival and at each trace sample.

use super::{Link, LinkRole};
use crate::packet::Ecn;
use crate::packet::Packet;
use crate::queue::pass_through_tests::CONFIGS;
use crate::queue::*;
use crate::rng::{stream, RngCore, StreamKind};
use crate::time::{Serialiser, Time};

/// 8 Mb/s: a 1000-byte packet takes 1 ms, so bursts of a few packets per millisecond queue.
const RATE_BPS: u64 = 8_000_000;
/// The link trace's interval in these tests.
const SAMPLE_NS: Time = 1_000_000;

fn link(json: &str) -> Link {
    let config: QueueConfig = serde_json::from_str(json).expect("a valid queue configuration");
    let context = LinkContext { rate_bps: RATE_BPS, mean_packet_bytes: 1000 };
    let policy = build_policy(&config, context, "queue").expect("a valid policy");
    let queue = Queue::new(config.limit(), RATE_BPS, policy);
    Link::new(LinkRole::Bottleneck, "bottleneck", RATE_BPS, 0, queue, stream(5, StreamKind::Queue, 0), true)
}

/// The event-driven link, as `Simulation::send_on_link`, `transmit` and
/// `on_transmission_done` serve it (one pending transmission-complete event at most).
struct EventDriven {
    link: Link,
    /// The pending transmission-complete event.
    done_at: Option<Time>,
    /// Departure time (end of transmission) and ECN codepoint of each packet sent, by seq.
    departures: Vec<(u64, Time, Ecn)>,
}

impl EventDriven {
    fn arrival(&mut self, packet: Packet, now: Time) {
        let link = &mut self.link;
        let idle = self.done_at.is_none() && link.busy_until <= now;
        if idle && link.queue.len_packets() == 0 {
            link.queue.note_idle_since(link.busy_until);
            if let Some(packet) = link.queue.pass_through(packet, now, &mut link.rng) {
                self.transmit(packet, now);
            }
            return;
        }
        if let Verdict::Drop(_) = link.queue.enqueue(packet, now, &mut link.rng) {
            return;
        }
        if idle {
            let packet = link.queue.dequeue(now, &mut link.rng).expect("a packet was just queued");
            self.transmit(packet, now);
        } else if self.done_at.is_none() {
            self.done_at = Some(link.busy_until);
        }
    }

    fn transmission_done(&mut self, now: Time) {
        self.done_at = None;
        let link = &mut self.link;
        if let Some(packet) = link.queue.dequeue(now, &mut link.rng) {
            self.transmit(packet, now);
        }
        if self.link.queue.len_packets() > 0 {
            self.done_at = Some(self.link.busy_until);
        }
    }

    fn transmit(&mut self, packet: Packet, now: Time) {
        let done = now + self.link.serialiser.next(packet.size_bytes, self.link.rate_bps);
        self.link.busy_until = done;
        self.departures.push((packet.seq, done, packet.ecn));
    }
}

/// Everything observable of a link's queue, NaN-safe (bit patterns of the trace values).
/// (Not `busy_until`: event-driven, the end of the transmission under way; without events,
/// of the last packet admitted. The departures are compared instead.)
type Observed = (QueueCounters, u32, u64, Option<Time>, [u64; 3]);

/// At `now`, before the events at `now` that follow the one just run (a link without events
/// may keep packets that have started in its ring, and counts departures at admission:
/// `Queue::settle`, `QueueCounters`; read as at `now`, it must be the event-driven link).
fn observe(link: &Link, now: Time) -> Observed {
    let q = &link.queue;
    let traces = [q.average_queue().to_bits(), q.drop_probability().to_bits(), q.virtual_queue().to_bits()];
    let (packets, bytes) = q.queued_at(now);
    (q.counters_at(now), packets, bytes, q.idle_since(), traces)
}

/// Drive both links through the same 20 000 random packets (bursts of simultaneous
/// arrivals, gaps up to a few transmission times, arrivals exactly at a departure) and
/// trace samples every millisecond; returns the reference's departures and counters, and the
/// longest queue seen after an arrival.
fn drive(config: &str) -> (Vec<(u64, Time, Ecn)>, QueueCounters, u32) {
    let mut reference = EventDriven { link: link(config), done_at: None, departures: Vec::new() };
    let mut lindley = link(config);
    assert!(lindley.event_free, "{config}: decides at arrival");
    let mut departures = Vec::new();
    let mut script = stream(3, StreamKind::Traffic, 0);
    let mut now: Time = 0;
    let mut next_sample = SAMPLE_NS;
    let mut longest = 0;
    for seq in 0..20_000u64 {
        now += match script.gen_range(0..10) {
            0..=2 => 0,
            // A departure of the reference, exactly (a tie with its pending event).
            3 => reference.done_at.map_or(0, |done| done.saturating_sub(now)),
            _ => script.gen_range(0..3_000_000),
        };
        let ecn = if script.gen_bool(0.7) { Ecn::Ect } else { Ecn::NotEct };
        let mut packet = Packet::test_data(script.gen_range(40..1500), ecn, 0);
        packet.seq = seq;
        // Events before this arrival, in time order. At one instant: a trace sample, then the
        // arrival, then the transmission-complete event (`Queue::offer_lindley`; a sample
        // before the transmission-complete event too).
        loop {
            let done = reference.done_at.filter(|&done| done < now);
            if next_sample <= now && done.is_none_or(|done| next_sample <= done) {
                reference.link.queue.depart_before(next_sample); // a no-op: event-driven
                lindley.queue.depart_before(next_sample);
                assert_eq!(
                    observe(&lindley, next_sample),
                    observe(&reference.link, next_sample),
                    "{config}: sample at {next_sample}"
                );
                next_sample += SAMPLE_NS;
            } else if let Some(done) = done {
                reference.transmission_done(done);
            } else {
                break;
            }
        }
        reference.arrival(packet, now);
        if let Some(departs) = lindley.offer_lindley(&mut packet, now) {
            departures.push((packet.seq, departs, packet.ecn));
        }
        assert_eq!(observe(&lindley, now), observe(&reference.link, now), "{config}: after packet {seq}");
        longest = longest.max(reference.link.queue.len_packets());
    }
    // Every packet admitted is sent at the same time, with the same codepoint.
    while let Some(done) = reference.done_at {
        reference.transmission_done(done);
    }
    assert_eq!(departures, reference.departures, "{config}: departures");
    let end = reference.link.busy_until;
    assert_eq!(lindley.queue.counters_at_end(end), reference.link.queue.counters, "{config}: at the end");
    assert_eq!(lindley.queue.waiting_at_end(end), 0);
    (reference.departures, reference.link.queue.counters, longest)
}

#[test]
fn a_link_without_events_is_the_event_driven_link_for_every_arrival_policy() {
    let mut compared = 0;
    for config in CONFIGS {
        if !link(config).event_free {
            continue;
        }
        let (departures, counters, _) = drive(config);
        assert!(departures.len() > 100, "{config}: only {} packets sent", departures.len());
        // The script reaches the interesting paths: drops, and queues that build.
        assert!(counters.dropped() > 0 && counters.sojourn_ns_sum > 0, "{config}: {counters:?}");
        compared += 1;
    }
    assert_eq!(compared, CONFIGS.len() - 4, "every configuration but the four dequeue-side ones");
}

/// A DropTail queue whose limit is above the ring's slack (`Queue::settle`): the ring keeps
/// packets that have started until it holds `RING_SLACK` entries, then is read; queues
/// longer than that are read at every arrival.
#[test]
fn a_drop_tail_link_longer_than_the_ring_slack_is_the_event_driven_link() {
    let config = r#"{"kind": "drop_tail", "limit": {"packets": 24}}"#;
    let (departures, counters, longest) = drive(config);
    assert!(departures.len() > 100 && counters.dropped() > 0, "{counters:?}");
    assert!(longest > 16, "the queue reached {longest} packets only");
}

#[test]
fn exactly_the_policies_that_act_at_dequeue_keep_events() {
    let event_driven: Vec<&str> = (CONFIGS.iter())
        .filter(|config| !link(config).event_free)
        .map(|config| serde_json::from_str::<QueueConfig>(config).unwrap().kind_name())
        .collect();
    assert_eq!(event_driven, ["pi", "rem", "codel", "pie"]);
}

/// The comparison above covers every policy the engine registers: a kind added without a
/// configuration in `CONFIGS` fails here, so no arrival-deciding policy escapes it. The one
/// kind left out, `python` (an AQM written in Python, `queue/external.rs`), decides at dequeue
/// time on the engine's side (`decides_at_arrival` false) and keeps its events.
#[test]
fn the_comparison_covers_every_registered_queue_kind() {
    let compared: std::collections::BTreeSet<&str> =
        (CONFIGS.iter()).map(|config| serde_json::from_str::<QueueConfig>(config).unwrap().kind_name()).collect();
    let registered: std::collections::BTreeSet<&str> = (crate::fields::registered_kinds().into_iter())
        .filter(|kind| kind.registry == "queue")
        .map(|kind| kind.kind)
        .collect();
    let missing: Vec<&str> = registered.difference(&compared).copied().collect();
    assert_eq!(missing, ["python"], "queue kinds without a configuration in CONFIGS");
}

#[test]
fn serialisation_carries_its_remainder_as_on_an_event_driven_link() {
    // 1001 bytes at 3 Mb/s is 2669.33 ns: the carried remainder makes every third 2670 ns.
    let mut lindley = link(r#"{"kind": "drop_tail", "limit": {"packets": 100}}"#);
    lindley.rate_bps = 3_000_000;
    let mut serialiser = Serialiser::default();
    let mut expected = 0;
    for seq in 0..30 {
        let mut packet = Packet::test_data(1001, Ecn::NotEct, 0);
        packet.seq = seq;
        expected += serialiser.next(1001, 3_000_000);
        assert_eq!(lindley.offer_lindley(&mut packet, 0), Some(expected));
    }
}
