//! Reno: RFC 5681 Section 3.2 fast retransmit and fast recovery, nothing more — the
//! first new ACK ends recovery, a partial one included, so a second loss in the window waits
//! for three more duplicate ACKs (and the `recover` guard) or for the timer. ns-2's
//! `Agent/TCP/Reno`; NewReno (`new_reno.rs`, RFC 6582) adds the partial-ACK retransmission.

use super::ExitCredit;
use crate::packet::Packet;
use crate::tcp::cc::CongestionEvent;
use crate::tcp::shared::SenderCore;
use crate::time::Time;

#[derive(Clone, Copy, Debug, Default)]
pub struct Reno {
    pub exit_credit: ExitCredit,
}

/// RFC 5681 Section 3.2 steps 2-3 (RFC 6582 Section 3.2 step 2 is the same): ssthresh from the
/// algorithm's decrease, retransmit the lost segment, cwnd = ssthresh + DupThresh segments
/// (the inflation). A loss in the window of a PRR-paced ECN reduction continues it (RFC 3168
/// Section 6.1.2: one reduction per window).
pub fn enter(core: &mut SenderCore, event: &CongestionEvent, now: Time, out: &mut Vec<Packet>) {
    if !core.ecn_response.reducing(core.snd_una) {
        core.cc.on_loss(event);
    }
    core.ecn_response.cancel();
    core.in_recovery = true;
    core.inflation = core.dupack_threshold as f64;
    core.retransmit_first_unacked(now, out);
    core.arm_timer(now);
    core.send_available(now, out);
}

impl Reno {
    /// RFC 5681 Section 3.2 step 6: "When the next ACK arrives that acknowledges previously
    /// unacknowledged data, a TCP MUST set cwnd to ssthresh" — recovery ends on any new ACK.
    pub fn on_recovery_ack(&self, core: &mut SenderCore, acked: u64, rtt: Time, ece: bool, now: Time) {
        core.in_recovery = false;
        core.inflation = 0.0;
        self.exit_credit.apply(core, acked, rtt, ece, now, None);
    }
}
