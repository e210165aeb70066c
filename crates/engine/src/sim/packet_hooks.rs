//! The event loop's calls into the per-packet trace (`packet_trace`). Each hook in `sim.rs`
//! is one call behind `self.packet_trace.is_some()`: with no trace asked for, that test is
//! all they cost.

use super::{Ends, Flow, Simulation};
use crate::packet::Packet;
use crate::packet_trace::Watch;
use crate::queue::AtHead;
use crate::tcp::sack::SackBlocks;
use crate::time::Time;

/// The SACK blocks an ACK carries (RFC 2018), still in its receiver's store while the ACK
/// is on its way; none for other packets.
pub(super) fn sack_blocks(flows: &[Flow], packet: &Packet) -> SackBlocks {
    if packet.sack == 0 {
        return SackBlocks::default();
    }
    match &flows[packet.flow as usize].ends {
        Ends::Tcp { receiver, .. } => receiver.sack_store.get(packet.sack).unwrap_or_default(),
        Ends::Udp { .. } => SackBlocks::default(),
    }
}

impl Simulation {
    /// `packet` reaches the queue of `link_id` at `at`: its enqueue row, and what the queue's
    /// decision is compared with, if this link and flow are traced.
    pub(super) fn trace_watch(&mut self, link_id: u32, packet: &Packet, at: Time) -> Option<Watch> {
        let recorder = self.packet_trace.as_mut()?;
        if !recorder.traces(link_id, packet.flow) {
            return None;
        }
        let sack = sack_blocks(&self.flows, packet);
        Some(recorder.watch(link_id, &self.links[link_id as usize], packet, at, sack))
    }

    /// The queue decided on a watched packet: its drop or mark rows.
    pub(super) fn trace_offered(&mut self, watch: &Watch, link_id: u32) {
        if let Some(recorder) = self.packet_trace.as_mut() {
            recorder.offered(watch, &self.links[link_id as usize]);
        }
    }

    /// A link served without events admitted a watched packet: its dequeue and receive rows.
    pub(super) fn trace_admitted_lindley(&mut self, watch: &Watch, packet: &Packet, arrives: Time) {
        if let Some(recorder) = self.packet_trace.as_mut() {
            recorder.admitted_lindley(watch, packet, arrives);
        }
    }

    /// `packet` starts its transmission on `link_id` now and reaches the far end at `arrives`.
    pub(super) fn trace_transmitted(&mut self, link_id: u32, packet: &Packet, arrives: Time) {
        let now = self.now;
        let Some(recorder) = self.packet_trace.as_mut() else { return };
        if recorder.traces(link_id, packet.flow) {
            let sack = sack_blocks(&self.flows, packet);
            recorder.transmitted(link_id, packet, now, arrives, sack);
        }
    }

    /// Take the head of an event-driven link's queue, recording the heads its policy drops
    /// or marks.
    pub(super) fn dequeue_traced(&mut self, link_id: u32) -> Option<Packet> {
        let now = self.now;
        let (links, flows, trace) = (&mut self.links, &self.flows, &mut self.packet_trace);
        let link = &mut links[link_id as usize];
        let recorder = trace.as_mut().expect("a packet trace");
        link.queue.dequeue_observed(now, &mut link.rng, |packet: &Packet, outcome: AtHead| {
            if recorder.traces(link_id, packet.flow) {
                recorder.at_head(link_id, packet, now, outcome, sack_blocks(flows, packet));
            }
        })
    }
}
