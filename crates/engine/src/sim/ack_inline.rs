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
//!   packets offered ahead); no per-packet trace (`TRACED` is false);
//! - at each ACK (`Simulation::sender_computable_at`): T1 within the run; no end emitting
//!   packets at the moment (a sender in the middle of offering a burst at an earlier time
//!   must not be overtaken by its own later packets); no ACK of the flow still due by an
//!   event on that link (`Link::delivery_event_due`: ACKs reach the sender in order); the
//!   sender's retransmission deadline strictly after T1, or none; the flow's stop not in
//!   [now, T1]; for a flow in the flow trace, T1 not the instant of a sample still to be
//!   scheduled (below).
//!
//! A flow in the flow trace (its first `trace.flows` flows): a sample reads the sender's
//! window and RTT (`SenderSample`). The samples not run yet at times up to T1 (after the last
//! sample, so possibly at now itself) run before the ACK in the event-driven run, and see
//! the sender as it is now: every earlier ACK of the flow has reached it (the ordering
//! condition), and nothing else changes it before T1 (the deadline and stop conditions). So
//! before the ACK is taken, the sender's values are kept for each such sample not kept yet
//! (`CrossedSamples`), and the sample uses them. A sample at T1 itself runs before the ACK
//! when it was scheduled before the ACK's arrival event: so for the next sample, scheduled
//! already; a later one is scheduled one interval before its instant, and whether the ACK's
//! arrival event of the event-driven run comes before depends on when the ACK before it
//! arrives there: such an ACK (T1 exactly on a sample instant) goes by its event.
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

use std::collections::VecDeque;

use super::{Ends, Flow, Simulation, TimerOwner, OUTBOX_KEPT};
use crate::link::NO_DELIVERY_EVENT;
use crate::packet::Packet;
use crate::tcp::cc::CcConfig;
use crate::tcp::sender::TcpSender;
use crate::time::{to_secs, Time};
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
pub(super) fn mark_inline_senders(network: &mut Network, uses: &[u32]) {
    for spec in &network.flows {
        let Transport::Tcp { tcp, .. } = &spec.transport else { continue };
        let (last, chain) = super::inline_end(network, uses, spec.reverse_route, spec.forward_route);
        network.links[last].delivers_inline = !matches!(tcp.cc, CcConfig::Python(_)) && chain;
    }
}

/// What a flow-trace sample reads from a flow's sender (`Simulation::on_sample`): NaN for a
/// sender not started (or a UDP flow), and for an RTT not measured yet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SenderSample {
    pub cwnd: f64,
    pub ssthresh: f64,
    pub srtt_s: f64,
    pub rtt_s: f64,
}

impl SenderSample {
    pub(super) fn of(flow: &Flow) -> SenderSample {
        let tcp = flow.tcp().filter(|sender| sender.started_at.is_some());
        SenderSample {
            cwnd: tcp.map_or(f64::NAN, TcpSender::cwnd),
            ssthresh: tcp.map_or(f64::NAN, TcpSender::ssthresh),
            srtt_s: tcp.and_then(TcpSender::srtt_ns).map_or(f64::NAN, to_secs),
            rtt_s: tcp.and_then(TcpSender::last_rtt_ns).map_or(f64::NAN, to_secs),
        }
    }
}

/// A traced flow's samples that an ACK taken inline crossed (module documentation): the
/// sender's values each will read, in time order, and the latest sample kept. Allocated only
/// for a flow whose ACKs cross samples; at most one ACK path delay of samples (plus one).
#[derive(Default)]
pub(super) struct CrossedSamples {
    kept_through: Time,
    kept: VecDeque<(Time, SenderSample)>,
    /// Samples kept, and kept for a sample at the ACK's very instant (what the tests cover).
    #[cfg(test)]
    counts: (u64, u64),
    /// The instants of the ACKs taken inline (tests place samples there).
    #[cfg(test)]
    ack_instants: Vec<Time>,
}

impl CrossedSamples {
    /// The values the sample at `now` reads, if an ACK taken inline kept them (they are
    /// dropped).
    pub(super) fn take(&mut self, now: Time) -> Option<SenderSample> {
        match self.kept.front() {
            Some(&(at, values)) if at == now => {
                self.kept.pop_front();
                Some(values)
            }
            _ => None,
        }
    }
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
        // A sample at T1 not scheduled yet (module documentation).
        if (flow as usize) < self.traced_flows
            && at > self.last_sample + self.sample_interval
            && at.is_multiple_of(self.sample_interval)
        {
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
    pub(super) fn ack_inline(&mut self, ack: &Packet, at: Time) {
        self.delivered += 1;
        if (ack.flow as usize) < self.traced_flows {
            self.keep_crossed_samples(ack.flow, at);
        }
        // The sender's first link takes what it sends at once: bring in the line of its
        // ring's next entry while the sender works (issue 28, stop 7: Lindley's step there
        // waited for it, 50 % of its samples at 10 000 flows).
        let first = self.routes.first_link(self.flows[ack.flow as usize].route);
        super::prefetch::prefetch(self.links[first as usize].queue.next_waiting_entry());
        let mut out = std::mem::take(&mut self.sender_outbox);
        super::sender_takes_ack(&mut self.flows[ack.flow as usize].ends, ack, at, &mut out);
        self.offer_ahead::<false>(&mut out, at);
        if out.capacity() > OUTBOX_KEPT {
            out.shrink_to(OUTBOX_KEPT);
        }
        self.sender_outbox = out;
        self.schedule_timer(ack.flow, TimerOwner::Sender);
    }

    /// Before a traced flow's sender takes an ACK at `at`: its values, for each sample at or
    /// before `at` not run and not kept yet (module documentation).
    fn keep_crossed_samples(&mut self, flow: u32, at: Time) {
        let interval = self.sample_interval;
        let crossed = &mut self.crossed_samples[flow as usize];
        #[cfg(test)]
        crossed.ack_instants.push(at);
        let mut sample = crossed.kept_through.max(self.last_sample) + interval;
        if sample > at {
            return;
        }
        let values = SenderSample::of(&self.flows[flow as usize]);
        while sample <= at {
            crossed.kept.push_back((sample, values));
            crossed.kept_through = sample;
            #[cfg(test)]
            {
                crossed.counts.0 += 1;
                crossed.counts.1 += u64::from(sample == at);
            }
            sample += interval;
        }
    }
}

#[cfg(test)]
#[path = "ack_inline_tests.rs"]
mod tests;
