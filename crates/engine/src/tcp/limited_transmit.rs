//! Limited Transmit (RFC 3042), a sender option: new data on the first duplicate ACKs, so
//! that a small window still gets the DupThresh duplicate ACKs a fast retransmit needs. With
//! SACK recovery, RFC 6675 Section 5 step (3) governs it by pipe instead (`recovery/sack.rs`).
//! ns-2's TCP agents send one segment on each of the first two duplicate ACKs by default
//! (`singledup_ 1`): the same mechanism.

use super::shared::SenderCore;
use crate::packet::Packet;
use crate::time::Time;

impl SenderCore {
    /// RFC 3042 Section 2: on each of the first two duplicate ACKs send one new segment if
    /// the flight stays within cwnd + 2; cwnd itself is unchanged.
    pub(crate) fn limited_transmit(&mut self, now: Time, out: &mut Vec<Packet>) {
        let allowed = self.usable_window() + u64::from(self.dupacks.min(2));
        if self.snd_nxt - self.snd_una < allowed && self.has_data(self.snd_nxt) && self.snd_nxt == self.high_tx {
            let packet = self.segment(self.snd_nxt, now);
            out.push(packet);
            self.snd_nxt += 1;
            self.high_tx = self.snd_nxt;
            // RFC 5681 Section 3.2 step 2 keeps these out of the FlightSize that sets ssthresh.
            self.limited_transmit_sent += 1;
        }
    }
}
