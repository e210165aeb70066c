//! ns-2 2.35 TCP-Linux's Loss state for SACK recovery (`timeout_recovery = linux_loss_state`).
//!
//! After a timeout TCP-Linux marks everything outstanding lost (tcp-linux.cc `enter_loss`,
//! line 551: `scb_->MarkLoss(highest_ack_+1, t_seqno_)`) and enters the Loss state (line 549),
//! which `tcp_fastretrans_alert` leaves once `highest_ack_ >= recover_` (lines 459-471; the law
//! raises cwnd to ssthresh and moderates it, `cc/linux.rs`). While in Loss every ACK runs the
//! scoreboard's loss marks (scoreboard1.cc `UpdateScoreBoard`): a retransmission lost again
//! (lines 212-222) or a segment sent after the timeout that lies DupThresh + 1 below `fack_`
//! (lines 223-235) sets FLAG_DATA_LOST, and `case TCP_CA_Loss: //let it through` (line 479)
//! falls into the Open state's branch: `recover_ = maxseq_`, ssthresh from the law's hook on
//! the current (slow-start) cwnd, cwnd = `min_cwnd`, rate halving from that cwnd, state
//! Recovery (lines 483-507) — a second cut, where RFC 6675 Section 5.1 starts no loss recovery
//! before the RecoveryPoint is acknowledged. The segments `MarkLoss` marked stay lost until
//! that Recovery ends: `send_much` (lines 631-650) resends them (`GetNextRetran`, the lowest
//! LOST block) before any new data.

use super::{LostRetransmit, Sack, TimeoutRecovery};
use crate::packet::Packet;
use crate::tcp::cc::CongestionEvent;
use crate::tcp::shared::SenderCore;
use crate::time::Time;

impl Sack {
    /// In TCP-Linux's Loss state: after a timeout, no Recovery since, and the ACK of
    /// everything sent before it not yet seen.
    pub(super) fn in_loss_state(&self, core: &SenderCore) -> bool {
        self.marked_lost_end.is_some() && !core.in_recovery
    }

    /// The lowest segment the timeout marked lost that was neither SACKed nor resent since
    /// (scoreboard1.cc `GetNextRetran`: the first LOST block, whatever lies above it).
    pub(super) fn marked_lost_next(&self, core: &SenderCore) -> Option<u64> {
        let end = self.marked_lost_end?.min(core.high_tx);
        let seq = self.scoreboard.first_unsacked_from(self.rxt_next.max(core.snd_una));
        (seq < end).then_some(seq)
    }

    /// An ACK in the Loss state, after the scoreboard and the law took it. Returns true when a
    /// loss marked on it started Recovery (the segments that allows are sent).
    pub(super) fn loss_state_ack(&mut self, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>) -> bool {
        debug_assert_eq!(self.params.timeout_recovery, TimeoutRecovery::LinuxLossState);
        if core.recover.is_none_or(|recover| core.snd_una > recover) {
            // Lines 460-471: the Loss state ends (the law moderated cwnd on this ACK);
            // `ClearScoreBoard` forgets the retransmissions (scoreboard1.cc lines 305-306).
            self.marked_lost_end = None;
            self.clear_retransmissions();
            self.clear_scoreboard_at_exit();
            return false;
        }
        if !self.loss_marked_in_loss_state(core) {
            return false;
        }
        self.enter_recovery_from_loss(core, now, out);
        true
    }

    /// FLAG_DATA_LOST on this ACK: a retransmission lost again (with `lost_retransmit =
    /// sack_above`; scoreboard1.cc lines 212-222), or a segment first sent after the timeout,
    /// not SACKed, below the loss boundary of `loss_marking` (lines 223-235: an INFLIGHT block
    /// becomes LOST). The segments the timeout marked were lost already: no new mark.
    fn loss_marked_in_loss_state(&mut self, core: &SenderCore) -> bool {
        if self.params.lost_retransmit == LostRetransmit::SackAbove {
            self.mark_lost_retransmissions(core);
            if !self.relost.is_empty() {
                return true;
            }
        }
        let (Some(end), Some(below)) = (self.marked_lost_end, self.rule_lost_below(core.dupack_threshold)) else {
            return false;
        };
        let seq = self.scoreboard.first_unsacked_from(end.max(core.snd_una));
        seq < below.min(core.high_tx)
    }

    /// tcp-linux.cc lines 484-507 from the Loss state: RecoveryPoint = the highest segment sent,
    /// the law's cut on its current window (`on_loss`, which also ends the law's Loss state),
    /// rate halving from the window before the cut; everything below the go-back-N's position
    /// was resent in the Loss state (HighRxt). No retransmission of its own: `send_much` sends
    /// the first LOST segment, here the first of the retransmissions lost again or else the
    /// lowest segment the timeout marked lost and the go-back-N has not reached.
    fn enter_recovery_from_loss(&mut self, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>) {
        core.recover = Some(core.high_tx - 1);
        core.stats.fast_recoveries += 1;
        if self.params.rate_halving {
            // Line 487: `next_pkts_in_flight_ = linux_.snd_cwnd`, before the cut.
            self.next_in_flight = core.cc.window().max(0.0) as u64;
        }
        // TCP-Linux's laws cut their own cwnd (the `ssthresh` hook); a law that halves
        // FlightSize gets what the Loss state has in the network (sent since the timeout,
        // neither acknowledged nor SACKed: `flight_size` outside recovery).
        let event = CongestionEvent { in_flight: self.flight_size(core), ..core.congestion_event(now) };
        core.cc.on_loss(&event);
        core.in_recovery = true;
        core.inflation = 0.0;
        // HighRxt: the go-back-N's position, or the end of what the timeout marked lost if
        // it went beyond (what it sent above is new data, not retransmitted).
        self.rxt_next = core.snd_nxt.min(self.marked_lost_end.unwrap_or(core.snd_nxt));
        self.rescue_rxt = Some(core.snd_una);
        core.snd_nxt = core.high_tx;
        let pipe = self.pipe(core);
        self.send_next_segments(core, now, out, pipe, None);
    }
}
