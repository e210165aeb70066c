//! Links: serialisation at a rate, then a fixed propagation delay, one queue each.
//! Packets propagating are kept in a FIFO and only its head has a scheduled event.

use crate::packet::Packet;
use crate::queue::Queue;
use crate::rng::Rng;
use crate::time::{Serialiser, Time};

mod wire;
pub use wire::{Propagation, WirePool};

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

/// A link. `repr(C)`: the fields every packet crossing the link touches first, together,
/// the name and role last. What Lindley's step of a DropTail link served without events reads
/// and writes is the first four lines: the header and the propagation FIFO's head (two lines,
/// what an arrival reads), then the queue's ring header, limit and counters (two lines). Six
/// lines before (the queue's event-driven buffer, last, was read for its length), each a
/// cache miss with many flows (issue 28, stop 6).
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
    /// What this link delivers at the end of a route goes to an end computed inline (the last
    /// link of one route, used by no other): data to its receiver
    /// (`Simulation::deliver_inline`), ACKs to their sender (`sim/ack_inline.rs`).
    pub delivers_inline: bool,
    /// Whether the link is sampled into the link trace.
    pub monitored: bool,
    pub role: LinkRole,
    /// The latest delivery off this link due by an event (data beyond the end of the run, an
    /// ACK its sender could not take inline), or [`NO_DELIVERY_EVENT`]: while one is pending,
    /// later packets are not delivered inline (they would overtake it). A sentinel, not an `Option` (8 bytes, not 16: the record's hot
    /// part stays four lines).
    pub delivery_event_due: Time,
    /// Packets on the wire: being serialised or propagating.
    pub propagating: Propagation,
    pub queue: Queue,
    pub rng: Rng,
    /// Name in traces: "bottleneck", a network link's name, or the edge role.
    pub name: String,
}

/// `Link::delivery_event_due` when no delivery off the link is due by an event.
pub const NO_DELIVERY_EVENT: Time = Time::MAX;

// Seven cache lines a link (four links a flow on a dumbbell): at 10 000 flows the records
// alone are 18 MB of a 32 MB L3 (benchmarks/scale/README.md, issue 28 stop 3).
const _: () = assert!(std::mem::size_of::<Link>() <= 7 * 64);

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
            delivery_event_due: NO_DELIVERY_EVENT,
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
