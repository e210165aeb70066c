//! Links: serialisation at a rate, then a fixed propagation delay, one queue each.
//! Packets propagating are kept in a FIFO and only its head has a scheduled event.

use std::collections::VecDeque;

use crate::packet::Packet;
use crate::queue::Queue;
use crate::rng::Rng;
use crate::time::{Serialiser, Time};

/// What a link is in its topology (for traces and summaries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkRole {
    Bottleneck,
    BottleneckReverse,
    Access,
    AccessReverse,
    Receiver,
    ReceiverReverse,
    /// A core link of a network topology (from -> to) and its opposite direction.
    Core,
    CoreReverse,
}

impl LinkRole {
    pub fn name(self) -> &'static str {
        match self {
            LinkRole::Bottleneck => "bottleneck",
            LinkRole::BottleneckReverse => "bottleneck_reverse",
            LinkRole::Access => "access",
            LinkRole::AccessReverse => "access_reverse",
            LinkRole::Receiver => "receiver",
            LinkRole::ReceiverReverse => "receiver_reverse",
            LinkRole::Core => "core",
            LinkRole::CoreReverse => "core_reverse",
        }
    }
}

/// Packets propagating on a link, arrival times non-decreasing. The head is kept inline in
/// the link record and the rest in a FIFO: an arrival reads the packet from the cache lines
/// the link's other fields share, and refilling the head from the FIFO's separate buffer is
/// off the packet's path to its next link (with many flows both are cache misses, and the
/// processor overlaps the refill with the next link's; benchmarks/scale/README.md).
#[derive(Default)]
pub struct Propagation {
    head: Option<(Time, Packet)>,
    rest: VecDeque<(Time, Packet)>,
}

impl Propagation {
    /// Add a packet arriving at `arrival` (no earlier than those already propagating).
    /// Returns true if it is the head: its arrival needs an event.
    pub fn push(&mut self, arrival: Time, packet: Packet) -> bool {
        if self.head.is_none() {
            self.head = Some((arrival, packet));
            true
        } else {
            self.rest.push_back((arrival, packet));
            false
        }
    }

    /// Take the head, which has arrived, and return it with the arrival time of the next
    /// head, if any (its event to schedule).
    pub fn pop(&mut self) -> Option<(Packet, Option<Time>)> {
        let (_, packet) = self.head.take()?;
        self.head = self.rest.pop_front();
        Some((packet, self.head.map(|(arrival, _)| arrival)))
    }

    /// The packet that arrives next, if any.
    pub fn head(&self) -> Option<&Packet> {
        self.head.as_ref().map(|(_, packet)| packet)
    }

    /// The packet that arrives after the head, if any (for prefetching: an arrival moves it
    /// into the head).
    pub fn second(&self) -> Option<&Packet> {
        self.rest.front().map(|(_, packet)| packet)
    }

    pub fn len(&self) -> usize {
        usize::from(self.head.is_some()) + self.rest.len()
    }

    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }
}

/// A link. `repr(C)` keeps the fields in this order: those every packet crossing the link
/// touches first, together (a few adjacent cache lines), the name and role last.
#[repr(C, align(64))]
pub struct Link {
    /// End of the current (or last) transmission.
    pub busy_until: Time,
    pub delay: Time,
    pub rate_bps: u64,
    /// Serialisation times with the sub-nanosecond remainder carried (no drift).
    pub serialiser: Serialiser,
    /// A TransmissionDone event is scheduled (only while packets wait in the queue).
    pub done_pending: bool,
    /// Served without events: the queue's policy decides at arrival, so every departure is
    /// known when the packet arrives (Lindley's recursion, `Queue::offer_lindley`) and the
    /// packet goes straight into the propagation FIFO, due at the far end at D_n + delay.
    pub event_free: bool,
    /// Computed by its upstream: served without events, not traced, and every packet it
    /// carries comes from one upstream link (none starts its route here). Its arrivals are
    /// that link's departures plus its delay, in order, so the upstream offers each packet
    /// here as soon as it knows the departure, without an arrival event.
    pub inline: bool,
    /// The data this link delivers goes to a receiver computed inline (the last link of one
    /// flow's route; `Simulation::deliver_inline`).
    pub delivers_inline: bool,
    /// The latest delivery off this link due by an event (beyond the end of the run): while
    /// one is pending, later data is not delivered inline (it would overtake it).
    pub delivery_event_due: Option<Time>,
    /// Whether the link is sampled into the link trace.
    pub monitored: bool,
    pub role: LinkRole,
    /// Packets on the wire: being serialised or propagating.
    pub propagating: Propagation,
    pub queue: Queue,
    pub rng: Rng,
    /// Name in traces: "bottleneck", a network link's name, or the edge role.
    pub name: String,
}

impl Link {
    pub fn new(
        role: LinkRole,
        name: &str,
        rate_bps: u64,
        delay: Time,
        queue: Queue,
        rng: Rng,
        monitored: bool,
    ) -> Self {
        Link {
            busy_until: 0,
            delay,
            rate_bps,
            serialiser: Serialiser::default(),
            done_pending: false,
            event_free: queue.decides_at_arrival(),
            inline: false,
            delivers_inline: false,
            delivery_event_due: None,
            monitored,
            role,
            propagating: Propagation::default(),
            queue,
            rng,
            name: name.to_string(),
        }
    }

    /// Offer a packet arriving at `at` to this link, served without events
    /// (`Link::event_free`). Returns when it departs (its last bit is on the wire), or `None`
    /// if the queue dropped it.
    ///
    /// Lindley's recursion: D_n = max(A_n, D_{n-1}) + L_n / C, with the sub-nanosecond
    /// remainder of L_n / C carried by the serialiser as for an event-driven link.
    #[inline(always)]
    pub fn offer_lindley(&mut self, packet: &mut Packet, at: Time) -> Option<Time> {
        let starts = self.queue.offer_lindley(packet, at, self.busy_until, &mut self.rng)?;
        let departs = starts + self.serialiser.next(packet.size_bytes, self.rate_bps);
        self.busy_until = departs;
        Some(departs)
    }

    /// Packets in the propagation FIFO. Event-driven: on the wire (being serialised or
    /// propagating). Served without events, packets enter it when admitted: it also holds
    /// the packets waiting in this link's queue, and those offered inline to the links after
    /// it (`Simulation::counters` tells them apart).
    pub fn propagation_len(&self) -> u64 {
        self.propagating.len() as u64
    }
}

/// Lindley's recursion against the event-driven link, for every policy deciding at arrival.
#[cfg(test)]
#[path = "link_lindley_tests.rs"]
mod lindley_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn propagation_is_a_fifo_with_the_head_inline() {
        let mut wire = Propagation::default();
        assert!(wire.is_empty() && wire.pop().is_none());
        let packet = |seq| Packet { seq, ..Packet::test_data(1000, crate::packet::Ecn::NotEct, 0) };
        assert!(wire.push(10, packet(0)), "the first packet is the head");
        assert!(!wire.push(12, packet(1)));
        assert!(!wire.push(12, packet(2)));
        assert_eq!(wire.len(), 3);
        let (first, next) = wire.pop().unwrap();
        assert_eq!((first.seq, next), (0, Some(12)));
        assert!(!wire.push(15, packet(3)), "the head is still occupied");
        let order: Vec<(u64, Option<Time>)> =
            std::iter::from_fn(|| wire.pop()).map(|(p, next)| (p.seq, next)).collect();
        assert_eq!(order, vec![(1, Some(12)), (2, Some(15)), (3, None)]);
        assert!(wire.is_empty());
        assert_eq!(wire.len(), 0);
        assert!(wire.push(20, packet(4)), "an emptied wire takes a new head");
    }
}
