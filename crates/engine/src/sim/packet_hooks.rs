//! The event loop's calls into the per-packet trace (`packet_trace`). `send_on_link` tests
//! `self.packet_trace.is_some()` once per packet offered and takes `send_on_link_traced` if
//! so: the links' code is compiled twice (`TRACED`), and without a trace runs what it ran
//! before the hooks. `transmit` and `start_transmission` (links with events) test it too.

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

// The hooks are out of line and cold: the event loop's code stays what it was without them.
impl Simulation {
    /// [`Simulation::send_on_link`] with a packet trace.
    #[cold]
    #[inline(never)]
    pub(super) fn send_on_link_traced(&mut self, link_id: u32, packet: &mut Packet) {
        self.send_on_link_as::<true>(link_id, packet)
    }

    /// `packet` reaches the queue of `link_id` at `at`: its enqueue row, and what the queue's
    /// decision is compared with, if this link and flow are traced.
    #[cold]
    #[inline(never)]
    pub(super) fn trace_watch(&mut self, link_id: u32, packet: &Packet, at: Time) -> Option<Watch> {
        let recorder = self.packet_trace.as_mut()?;
        if !recorder.traces(link_id, packet.flow) {
            return None;
        }
        let sack = sack_blocks(&self.flows, packet);
        Some(recorder.watch(link_id, &self.links[link_id as usize], packet, at, &sack))
    }

    /// The queue decided on a watched packet: its drop or mark rows.
    #[cold]
    #[inline(never)]
    pub(super) fn trace_offered(&mut self, watch: &Watch, link_id: u32, packet: &Packet) {
        let sack = sack_blocks(&self.flows, packet);
        if let Some(recorder) = self.packet_trace.as_mut() {
            recorder.offered(watch, link_id, &self.links[link_id as usize], packet, &sack);
        }
    }

    /// A link served without events decided on a watched packet: its drop or mark rows, and
    /// if it admitted it (`arrives` at the far end), its dequeue and receive rows.
    #[cold]
    #[inline(never)]
    pub(super) fn trace_lindley(&mut self, watch: &Watch, link_id: u32, packet: &Packet, arrives: Option<Time>) {
        self.trace_offered(watch, link_id, packet);
        let sack = sack_blocks(&self.flows, packet);
        if let (Some(recorder), Some(arrives)) = (self.packet_trace.as_mut(), arrives) {
            recorder.admitted_lindley(watch, link_id, packet, arrives, sack);
        }
    }

    /// `packet` starts its transmission on `link_id` now and reaches the far end at `arrives`.
    #[cold]
    #[inline(never)]
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
    #[cold]
    #[inline(never)]
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
