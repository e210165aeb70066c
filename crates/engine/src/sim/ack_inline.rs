//! Issue 28, stop 6: a TCP sender computed inline. An ACK that comes off a link served
//! without events at the end of its route at T1 is taken by its sender at once, with time T1,
//! instead of by an arrival event at T1 — only when nothing can observe or change that
//! sender between now and T1, so that the sender sees the same ACKs, timer firings and stop
//! at the same instants as in the event-driven run (`Simulation::deliver`):
//!
//! - statically (`mark_inline_senders`): a TCP flow whose window law is built in (a Python
//!   law might share state between flows, and would see calls out of time order); the last
//!   link of its ACK route served without events and used by no other route; the first link
//!   of its data route served without events, used by no other route (so its Lindley
//!   recursion sees the sender's arrivals in time order) and not traced (no sample sees the
//!   packets offered ahead); no per-packet trace (`TRACED` is false); for a flow in the flow
//!   trace, ACKs not always computed a sample interval or more ahead (`always_sampled`);
//! - at each ACK (`Simulation::sender_computable_at`): T1 within the run; no end emitting
//!   packets at the moment (a sender in the middle of offering a burst at an earlier time
//!   must not be overtaken by its own later packets); no ACK of the flow still due by an
//!   event on that link (`Link::delivery_event_due`: ACKs reach the sender in order); the
//!   sender's retransmission deadline strictly after T1, or none; the flow's stop not in
//!   [now, T1]; for a flow in the flow trace, the next sample strictly after T1 (a sample
//!   reads its window and RTT).
//!
//! The deadline, not the pending timer event, decides: the event may be due earlier (it stays
//! at an older deadline, `Simulation::schedule_timer`), and an event that fires before the
//! deadline only re-arms itself at the deadline (`TcpSender::on_timer` returns at once; the
//! slot keeps its event no later than the deadline). With the deadline after T1, the event
//! fires in [now, T1] as a re-arm in both runs, and every timeout still fires at its
//! deadline; only the instants of the re-arming events differ (fewer of them).
//!
//! What else the sender touches: its own state and random stream, the SACK blocks in its
//! receiver's store (taken as `deliver` takes them: entries are kept in order and only older
//! ones are discarded, so taking early finds the same blocks), the counters `delivered` and
//! `created` (counted when computed), its completion time (set to T1 by the sender itself,
//! as by the event). It does not touch the bytes delivered (the measurement-start snapshot is
//! the receiver's, `deliver_inline`). After the ACK its timer is kept as `schedule_timer`
//! keeps it.
//!
//! What a partial result shows: a run's results at its end are those of the event-driven
//! engine up to the order of events at equal nanoseconds (an arrival event the sender's
//! packets cause is scheduled earlier than it was, so its sequence among same-instant events
//! can change). A run stopped early (work limit, Ctrl-C) reports, for senders computed
//! inline, the ACKs taken up to one ACK path delay past the instant of the stop (with their
//! window, RTT samples, retransmission counts, completion time, and the packets they sent,
//! counted as created and on their first link); packet conservation holds either way.
//!
//! The development switch `AQMLAB_DEV_ACK_INLINE=0` (read when a simulation is built) turns
//! this off, to compare the two event orders (`benchmarks/scale/issue28/tie_noise.py`).

use super::{Ends, Simulation, TimerOwner, OUTBOX_KEPT};
use crate::config::TraceConfig;
use crate::link::{Link, NO_DELIVERY_EVENT};
use crate::packet::Packet;
use crate::tcp::cc::CcConfig;
use crate::time::Time;
use crate::topology::{Network, Transport};

/// Whether senders may be computed inline: unless `AQMLAB_DEV_ACK_INLINE` is `0`.
pub(super) fn enabled_by_environment() -> bool {
    enabled_by(std::env::var("AQMLAB_DEV_ACK_INLINE").ok().as_deref())
}

/// The development switch's value: `0` turns senders computed inline off, anything else (or
/// nothing) leaves them on.
fn enabled_by(switch: Option<&str>) -> bool {
    switch != Some("0")
}

/// Mark the links whose ACKs go to a sender computed inline (`Link::delivers_inline` on the
/// last link of the ACK route): see the module documentation for the conditions. `uses` is
/// how many routes cross each link.
/// A flow in the flow trace is not marked when a sample always falls between the computation
/// of its ACKs and their arrival (`always_sampled`): its ACKs would only be checked, never
/// taken inline.
pub(super) fn mark_inline_senders(network: &mut Network, uses: &[u32], trace: &TraceConfig) {
    for (index, spec) in network.flows.iter().enumerate() {
        let Transport::Tcp { tcp, .. } = &spec.transport else { continue };
        let acks = &network.routes[spec.reverse_route as usize];
        let last = *acks.last().expect("a non-empty route") as usize;
        let first = network.routes[spec.forward_route as usize][0] as usize;
        let data_link = &network.links[first];
        let inline = !matches!(tcp.cc, CcConfig::Python(_))
            && uses[last] == 1
            && uses[first] == 1
            && network.links[last].event_free
            && data_link.event_free
            && !data_link.monitored
            && !(index < trace.flows as usize && always_sampled(&network.links, acks, trace.interval_ns));
        network.links[last].delivers_inline = inline;
    }
}

/// Whether an ACK on this route is computed at least one sample interval before it reaches
/// its sender. It is computed at its arrival at the last link of the route that is not
/// computed inline (by an event there, or earlier, computed ahead), so at least the delays of
/// that link and of the ones after it before it arrives; the next sample is at most one
/// interval after the computation.
fn always_sampled(links: &[Link], acks: &[u32], interval: Time) -> bool {
    let computed_at = acks.iter().rposition(|&link| !links[link as usize].inline).unwrap_or(0);
    let lead: Time = acks[computed_at..].iter().map(|&link| links[link as usize].delay).sum();
    lead >= interval
}

impl Simulation {
    /// May the sender of `flow` take, now, an ACK that reaches it at `at` (≥ now) off a link
    /// whose latest ACK due by an event is `due` (`NO_DELIVERY_EVENT` if none)? The run-time
    /// conditions of the module documentation.
    #[inline]
    pub(super) fn sender_computable_at(&self, flow: u32, at: Time, due: Time) -> bool {
        let now = self.now;
        if self.emitting || at > self.duration || (due != NO_DELIVERY_EVENT && due >= now) {
            return false;
        }
        // Before the flow's record is read: with the flow trace on, most ACKs stop here
        // (the examples trace their first 100 flows every 10 ms).
        if (flow as usize) < self.traced_flows && at >= self.last_sample + self.sample_interval {
            return false;
        }
        let entry = &self.flows[flow as usize];
        let Ends::Tcp { sender, .. } = &entry.ends else { return false };
        sender.rto_deadline.is_none_or(|deadline| deadline > at)
            && entry.stop.is_none_or(|stop| stop < now || stop > at)
    }

    /// The sender of `ack.flow` takes `ack` at `at` (its conditions checked by
    /// `sender_computable_at`): the ACK is delivered, what the sender sends is offered to the
    /// first link of its route at `at` (served without events and fed by this sender only),
    /// and its timer is kept as `schedule_timer` keeps it. As `Simulation::deliver` at `at`.
    pub(super) fn ack_inline(&mut self, ack: Packet, at: Time) {
        self.delivered += 1;
        let Ends::Tcp { sender, receiver } = &mut self.flows[ack.flow as usize].ends else {
            unreachable!("an ACK for a UDP flow")
        };
        let mut out = std::mem::take(&mut self.sender_outbox);
        if ack.sack == 0 {
            sender.on_ack(&ack, at, &mut out);
        } else {
            // The SACK blocks wait in the receiver's store (docs/sack.md), as in `deliver`.
            let blocks = receiver.sack_store.take(ack.sack).unwrap_or_default();
            sender.on_ack_with_sack(&ack, blocks.as_slice(), at, &mut out);
        }
        self.emitting = true;
        for packet in out.drain(..) {
            self.created += 1;
            let first = self.routes.first_link(packet.route);
            self.offer_event_free::<false>(first, packet, at);
        }
        self.emitting = false;
        if out.capacity() > OUTBOX_KEPT {
            out.shrink_to(OUTBOX_KEPT);
        }
        self.sender_outbox = out;
        self.schedule_timer(ack.flow, TimerOwner::Sender);
    }
}

#[cfg(test)]
#[path = "ack_inline_tests.rs"]
mod tests;
