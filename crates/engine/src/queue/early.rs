//! The early congestion signal of an active queue: a CE mark for an ECN-capable packet when
//! the queue marks (RFC 3168 Section 5: "instead of dropping the packet, the router sets the
//! CE codepoint"), else a drop.

use super::{DropReason, MarkReason, Verdict};
use crate::packet::{Ecn, Packet};

/// The verdict on `packet` chosen for an early signal by a queue with `ecn` marking on.
#[inline]
pub fn early_signal(ecn: bool, packet: &Packet) -> Verdict {
    if ecn && packet.ecn != Ecn::NotEct {
        Verdict::Mark(MarkReason::Early)
    } else {
        Verdict::Drop(DropReason::Early)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_only_ecn_capable_packets_of_marking_queues() {
        let ect = Packet::test_data(1500, Ecn::Ect, 0);
        let not_ect = Packet::test_data(1500, Ecn::NotEct, 0);
        assert_eq!(early_signal(true, &ect), Verdict::Mark(MarkReason::Early));
        assert_eq!(early_signal(true, &not_ect), Verdict::Drop(DropReason::Early));
        assert_eq!(early_signal(false, &ect), Verdict::Drop(DropReason::Early));
    }
}
