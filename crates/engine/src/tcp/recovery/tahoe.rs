//! Tahoe: fast retransmit without fast recovery. The DupThresh-th duplicate ACK is taken as
//! a timeout would be: ssthresh from the algorithm's decrease, cwnd = 1 segment, and go-back-N
//! from the first unacknowledged segment (Jacobson 1988; ns-2's `Agent/TCP`).

use crate::packet::Packet;
use crate::tcp::cc::CongestionEvent;
use crate::tcp::shared::SenderCore;
use crate::time::Time;

/// Tahoe has no state of its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tahoe;

impl Tahoe {
    pub fn on_fast_retransmit(core: &mut SenderCore, event: &CongestionEvent, now: Time, out: &mut Vec<Packet>) {
        // Fast retransmit, then slow start from one segment (go-back-N).
        core.cc.on_rto(event);
        core.ecn_response.cancel();
        core.snd_nxt = core.snd_una;
        core.arm_timer(now);
        core.send_available(now, out);
    }
}
