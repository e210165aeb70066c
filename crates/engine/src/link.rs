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

pub struct Link {
    pub role: LinkRole,
    /// Name in traces: "bottleneck", a network link's name, or the edge role.
    pub name: String,
    pub rate_bps: u64,
    pub delay: Time,
    pub queue: Queue,
    pub rng: Rng,
    /// The packet being serialised, if any.
    /// End of the current (or last) transmission.
    pub busy_until: Time,
    /// A TransmissionDone event is scheduled (only while packets wait in the queue).
    pub done_pending: bool,
    /// Packets propagating, with their arrival times (non-decreasing).
    pub propagating: VecDeque<(Time, Packet)>,
    /// Whether the link is sampled into the link trace.
    pub monitored: bool,
    /// Serialisation times with the sub-nanosecond remainder carried (no drift).
    pub serialiser: Serialiser,
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
            role,
            name: name.to_string(),
            rate_bps,
            delay,
            queue,
            rng,
            busy_until: 0,
            done_pending: false,
            propagating: VecDeque::new(),
            monitored,
            serialiser: Serialiser::default(),
        }
    }

    /// Packets on the wire: being serialised or propagating.
    pub fn in_flight(&self) -> u64 {
        // The packet being serialised is already in the propagation FIFO.
        self.propagating.len() as u64
    }
}
