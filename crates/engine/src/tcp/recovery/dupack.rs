//! RFC 5681 Section 3.2's duplicate-ACK counting, shared by the recoveries without SACK
//! (Tahoe, Reno, NewReno): each supplies the fast retransmit and, for the two with fast
//! recovery, what a new or a duplicate ACK does while it lasts (`LossRecovery`'s hooks).

use super::{reno, tahoe, LossRecovery};
use crate::packet::{Packet, FLAG_ECE};
use crate::tcp::shared::SenderCore;
use crate::time::Time;

/// An ACK (without SACK blocks) for a sender recovering by duplicate ACKs.
#[inline]
pub fn on_ack(recovery: &mut LossRecovery, core: &mut SenderCore, ack: &Packet, now: Time, out: &mut Vec<Packet>) {
    if core.completed_at.is_some() {
        return;
    }
    let ece = core.ecn && ack.has_flag(FLAG_ECE);
    if ack.seq > core.snd_una {
        let (acked, rtt) = core.advance_una(ack, now);
        if core.in_recovery {
            match recovery {
                LossRecovery::Reno(reno) => reno.on_recovery_ack(core, acked, rtt, ece, now),
                LossRecovery::NewReno(newreno) => {
                    if newreno.on_recovery_ack(core, acked, rtt, ece, now, out) {
                        // A partial ACK, handled entirely.
                        return;
                    }
                }
                LossRecovery::Tahoe(_) | LossRecovery::Sack(_) => unreachable!("no fast recovery to be in"),
            }
        } else {
            core.window_on_new_ack(acked, acked, rtt, ece, now, None);
        }
        if core.check_complete(now) {
            return;
        }
        // RFC 6298 Section 5.2/5.3: stop the timer when all is acked, else restart it.
        core.arm_timer(now);
        core.send_available(now, out);
    } else if ack.seq == core.snd_una && core.high_tx > core.snd_una {
        on_duplicate_ack(recovery, core, now, out);
    }
}

#[inline]
fn on_duplicate_ack(recovery: &mut LossRecovery, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>) {
    core.dupacks += 1;
    if core.in_recovery {
        // RFC 5681 Section 3.2 step 4 (RFC 6582 Section 3.2 step 3): inflate by one segment.
        core.inflation += 1.0;
        core.send_available(now, out);
        return;
    }
    if core.dupacks < core.dupack_threshold {
        if core.ecn_response.reducing(core.snd_una) {
            // A PRR-paced ECN reduction: without SACK a duplicate ACK delivers one
            // segment (RFC 6937 Section 3's estimate; Linux counts it in sacked_out).
            core.cwr_on_ack(1, false, None);
            core.send_available(now, out);
            return;
        }
        if core.limited_transmit {
            core.limited_transmit(now, out);
        }
        return;
    }
    if core.dupacks != core.dupack_threshold {
        return;
    }
    // RFC 6582 Section 3.2 step 2: only a loss in new data starts a new episode (ns-2's
    // `bug_fix_`, on by default, does the same for Tahoe and Reno); NewReno's guard says
    // which cumulative ACK counts as beyond the last episode (`new_reno::FastRetransmitGuard`).
    let guard = match recovery {
        LossRecovery::NewReno(newreno) => newreno.fast_retransmit_guard,
        _ => Default::default(),
    };
    if !guard.allows(core.snd_una, core.recover) {
        return;
    }
    core.recover = Some(core.high_tx - 1);
    let mut event = core.congestion_event(now);
    // RFC 5681 Section 3.2 step 2: "When [RFC3042] is in use, additional data sent in
    // limited transmit MUST NOT be included in this calculation" (of FlightSize).
    event.in_flight = event.in_flight.saturating_sub(core.limited_transmit_sent);
    core.stats.fast_recoveries += 1;
    match recovery {
        LossRecovery::Tahoe(_) => tahoe::Tahoe::on_fast_retransmit(core, &event, now, out),
        LossRecovery::Reno(_) => reno::enter(core, &event, now, out),
        LossRecovery::NewReno(newreno) => newreno.on_fast_retransmit(core, &event, now, out),
        LossRecovery::Sack(_) => unreachable!("SACK recovery counts its own duplicate ACKs"),
    }
}
