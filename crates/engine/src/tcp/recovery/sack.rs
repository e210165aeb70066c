//! SACK-based loss recovery (RFC 6675) from the RFC 2018 blocks the receiver reports: the
//! scoreboard (`tcp/sack.rs`) says which segments are lost, NextSeg() picks what to send and
//! pipe bounds how much — several holes repaired in one round trip. With `prr` (`prr.rs`) the
//! sending during recovery is RFC 6937's sndcnt instead of cwnd − pipe.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::ExitCredit;
use crate::packet::{Packet, FLAG_ECE};
use crate::tcp::prr::{ns3_delivered, Prr, PrrDelivered, ReductionBound};
use crate::tcp::sack::{NextSeg, SackBlock, Scoreboard, SendState};
use crate::tcp::shared::SenderCore;
use crate::time::Time;

#[path = "sack_linux_loss.rs"]
mod linux_loss;

/// What a SACK sender takes as FlightSize when it enters loss recovery (RFC 6675 step 4.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossFlightSize {
    /// RFC 6675 step (4.2) and RFC 5681 eq. (4): FlightSize = snd_nxt − snd_una, SACKed and
    /// lost segments included (Linux's Reno likewise halves cwnd). The default.
    #[default]
    Rfc5681,
    /// RFC 6675's pipe (SACKed and lost segments excluded), as ns-3's
    /// `TcpSocketBase::EnterRecovery` (`GetSsThresh(tcb, BytesInFlight())`): DupThresh + 1
    /// segments less at a single loss, a deeper cut at small windows. For comparisons with ns-3.
    Pipe,
}

/// What a SACK sender does on a partial ACK during loss recovery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartialAckRetransmit {
    /// RFC 6675 Section 5 (B)-(C): nothing of its own; HighACK and pipe change and NextSeg()
    /// decides (a hole is resent once IsLost() holds, or by rule (3)). The default.
    #[default]
    Rfc6675,
    /// ns-3 3.44 `TcpSocketBase::ProcessAck`, partial ACK in `CA_RECOVERY`: unless the new head
    /// was already retransmitted (`IsRetransmittedDataAcked`), `DoRetransmit()` sends the first
    /// segment marked lost and not yet retransmitted, else the head itself, outside cwnd − pipe
    /// ("Assume the next seq is lost"). For comparisons with ns-3 (docs/sack.md).
    Ns3,
}

/// What a SACK sender does when a segment it retransmitted during loss recovery is lost again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LostRetransmit {
    /// RFC 6675: a segment below HighRxt is not sent again by NextSeg(); a lost retransmission
    /// is repaired by the retransmission timeout (Section 5.1). The default.
    #[default]
    Rto,
    /// ns-2 2.35 TCP-Linux's scoreboard (tcp/linux/scoreboard1.cc `UpdateScoreBoard`, lines
    /// 212-222, after Linux 2.6's `tcp_mark_lost_retrans`): a retransmitted segment is lost
    /// again when a SACK covers a segment sent after it (the `snd_nxt` recorded at its
    /// retransmission, `MarkRetran(xmit_seqno, t_seqno_)`, tcp-linux.cc line 648) or when a
    /// retransmission sent more than DupThresh + 1 retransmissions after it was acknowledged
    /// (`GetRtx() + dupack_threshold + 1 < acked_rtx_id_`); it then leaves pipe and is resent
    /// before any other segment (the first LOST block is `nxt_to_retrx_`) without a timeout.
    SackAbove,
}

/// Which unSACKed segments a SACK sender deems lost, and so when loss recovery starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossMarking {
    /// RFC 6675 Section 4 IsLost(): DupThresh SACKed segments above it; recovery starts at
    /// DupThresh duplicate ACKs or IsLost(HighACK + 1) (Section 5 steps (1)-(2)). The default.
    #[default]
    Rfc6675,
    /// ns-2 2.35 TCP-Linux's forward-acknowledgement rule (tcp/scoreboard1.cc
    /// `UpdateScoreBoard`, line 168 `lost_seq_threshold = fack_ - (dupack_threshold+1)` and
    /// lines 223-235): an unSACKed segment is lost once it lies at least DupThresh + 1 below
    /// `fack_`, the highest SACKed segment, however many segments between are SACKed; loss
    /// recovery starts when this marks a segment lost (tcp-linux.cc `tcp_fastretrans_alert`,
    /// line 483: `flag & FLAG_DATA_LOST`), duplicate ACKs are not counted.
    Fack,
}

/// What a retransmission timeout does to the SACK scoreboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutScoreboard {
    /// RFC 2018 Section 5 ("the data sender SHOULD turn off all of the SACKed bits") and RFC
    /// 6675 Section 5.1: the scoreboard is expunged; the go-back-N resends segments SACKed
    /// before the timeout unless a later ACK reports them again. The default.
    #[default]
    Clear,
    /// ns-2 2.35 TCP-Linux (tcp-linux.cc `enter_loss`, lines 550-552: `MarkLoss`, no
    /// `ClearScoreBoard`, "In Linux, we don't clear scoreboard in timeout"; scoreboard1.cc
    /// `MarkLoss`, lines 265-301, marks every segment not SACKed lost): the SACKed segments
    /// stay known and the go-back-N after the timeout skips them.
    Keep,
}

/// What the end of loss recovery does to the SACK scoreboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryExitScoreboard {
    /// RFC 6675 Section 5 (A): recovery ends, the SACKed segments above the cumulative ACK stay
    /// on the scoreboard. The default.
    #[default]
    Keep,
    /// ns-2 2.35 TCP-Linux (tcp-linux.cc `tcp_fastretrans_alert`, line 462: `ClearScoreBoard()`
    /// when Recovery or Loss ends, `highest_ack_ >= recover_`): every SACKed segment is
    /// forgotten, `fack_` included, and the scoreboard is rebuilt from the blocks of the ACKs
    /// that follow (at most three per ACK), so a segment SACKed before and not reported again
    /// counts as unSACKed, in flight and, once DupThresh + 1 below the new highest SACKed
    /// segment, lost (scoreboard1.cc lines 156-161, 223-235).
    Clear,
}

/// What a SACK sender does between a retransmission timeout and the acknowledgement of
/// everything sent before it (`sack_linux_loss.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutRecovery {
    /// RFC 6675 Section 5.1: the go-back-N after the timeout, and no new loss recovery before
    /// the RecoveryPoint the timeout set is acknowledged. The default.
    #[default]
    Rfc6675,
    /// ns-2 2.35 TCP-Linux's Loss state (tcp-linux.cc `enter_loss`, lines 548-551;
    /// `tcp_fastretrans_alert`, lines 459-509): everything outstanding at the timeout is marked
    /// lost (scoreboard1.cc `MarkLoss`), the go-back-N's retransmissions are recorded as
    /// scoreboard1.cc's `MarkRetran` does, and a segment marked lost while in Loss (a
    /// retransmission lost again, with `lost_retransmit = sack_above`, or a segment sent after
    /// the timeout, by `loss_marking`) starts Recovery at once with a second cut (line 479,
    /// `case TCP_CA_Loss: //let it through`), which resends the segments still marked lost
    /// before new data.
    LinuxLossState,
}

/// What a SACK sender counts as in flight outside loss recovery once it has sent up to
/// HighData (after a timeout's go-back-N has caught up, or with segments still SACKed above
/// the cumulative ACK).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlightOutsideRecovery {
    /// RFC 5681's FlightSize, snd_nxt − snd_una, SACKed segments included (the go-back-N
    /// after a timeout leaves out only the SACKed segments it skips). The default.
    #[default]
    Rfc5681,
    /// ns-2 2.35 TCP-Linux: `packets_in_flight()` (tcp-linux.cc line 597) is always the
    /// scoreboard's `t_seqno_ − (highest_ack_ + 1) − fack_out_ − sack_out_`
    /// (tcp/scoreboard1.h line 162), which `send_much` compares with cwnd (line 631): SACKed
    /// segments are never in flight, in the Loss state after a timeout as in Recovery.
    MinusSacked,
}

/// The parameters of SACK loss recovery (`kind = "sack"`; `prr` has them too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SackParams {
    /// FlightSize on entering recovery, RFC 5681's (default) or ns-3's pipe.
    pub loss_flight_size: LossFlightSize,
    /// A partial ACK in loss recovery, RFC 6675's (default) or ns-3's at-once retransmission.
    pub partial_ack_retransmit: PartialAckRetransmit,
    /// The ACK that ends loss recovery: no window growth (default) or ns-3's credit.
    pub exit_credit: ExitCredit,
    /// ns-2 2.35 TCP-Linux's rate halving (tcp-linux.cc `send_much`, lines 629-653): during
    /// recovery the sender may keep up to `next_pkts_in_flight_` segments in flight, which
    /// starts at the window before the reduction and falls by one per segment sent, so the
    /// flight comes down from the old window to cwnd by one segment every second ACK instead
    /// of RFC 6675's cwnd − pipe (a pause of half a window, then one per ACK). Off by default.
    pub rate_halving: bool,
    /// A lost retransmission: repaired by the timeout (RFC 6675, default) or detected from the
    /// SACKs above it and resent (ns-2 TCP-Linux's scoreboard, `sack_above`).
    pub lost_retransmit: LostRetransmit,
    /// Which segments are lost: RFC 6675's IsLost() (default) or ns-2 TCP-Linux's FACK rule.
    pub loss_marking: LossMarking,
    /// The scoreboard at a timeout: expunged (RFC 2018/6675, default) or kept (ns-2 TCP-Linux).
    pub timeout_scoreboard: TimeoutScoreboard,
    /// After a timeout: RFC 6675's go-back-N (default) or ns-2 TCP-Linux's Loss state.
    pub timeout_recovery: TimeoutRecovery,
    /// The scoreboard when recovery ends: kept (RFC 6675, default) or cleared (ns-2 TCP-Linux).
    pub recovery_exit_scoreboard: RecoveryExitScoreboard,
    /// The flight outside recovery: snd_nxt − snd_una (RFC 5681, default) or without the
    /// SACKed segments (ns-2 TCP-Linux's `packets_in_flight()`, `minus_sacked`).
    pub flight_outside_recovery: FlightOutsideRecovery,
}

/// RFC 6675 loss recovery and its state.
pub struct Sack {
    params: SackParams,
    /// With `prr`: how PRR counts DeliveredData; None: RFC 6675's cwnd − pipe.
    prr_delivered: Option<PrrDelivered>,
    /// RFC 6675 Section 3: the SACKed segments above `snd_una`.
    pub(crate) scoreboard: Scoreboard,
    /// RFC 6675 HighRxt + 1: segments below it were retransmitted in this recovery.
    pub(crate) rxt_next: u64,
    /// RFC 6675 RescueRxt (a segment number), None while undefined.
    rescue_rxt: Option<u64>,
    /// The PRR episode of the current recovery (`prr`).
    pub(crate) prr: Option<Prr>,
    /// `rate_halving`: tcp-linux.cc's `next_pkts_in_flight_` (0 outside recovery).
    pub(crate) next_in_flight: u64,
    /// `lost_retransmit = sack_above`: segments retransmitted in this recovery and not yet
    /// SACKed, acknowledged or deemed lost again, with the `snd_nxt` (HighData + 1) at their
    /// latest retransmission and its number (scoreboard1.cc's `GetSndNxt()`, `GetRtx()`).
    pub(crate) retransmitted: BTreeMap<u64, (u64, u64)>,
    /// `lost_retransmit = sack_above`: retransmissions deemed lost again, to resend first.
    pub(crate) relost: BTreeSet<u64>,
    /// The number the next retransmission gets (scoreboard1.cc `rtx_id_`).
    rtx_id: u64,
    /// The highest number of a retransmission SACKed or acknowledged (`acked_rtx_id_`).
    acked_rtx_id: Option<u64>,
    /// `timeout_recovery = linux_loss_state`: one past the segments the last timeout marked
    /// lost (scoreboard1.cc `MarkLoss(highest_ack_+1, t_seqno_)`), while its Loss state or a
    /// Recovery started from it lasts; None otherwise.
    pub(crate) marked_lost_end: Option<u64>,
}

impl Sack {
    pub fn new(params: SackParams, prr_delivered: Option<PrrDelivered>) -> Self {
        Sack {
            params,
            prr_delivered,
            scoreboard: Scoreboard::default(),
            rxt_next: 0,
            rescue_rxt: None,
            prr: None,
            next_in_flight: 0,
            retransmitted: BTreeMap::new(),
            relost: BTreeSet::new(),
            rtx_id: 0,
            acked_rtx_id: None,
            marked_lost_end: None,
        }
    }

    /// Forget the lost-retransmission state (scoreboard1.cc `MarkLoss`/`ClearScoreBoard`,
    /// lines 299-306: `rtx_id_ = 0; acked_rtx_id_ = -1`).
    fn clear_retransmissions(&mut self) {
        self.retransmitted.clear();
        self.relost.clear();
        self.rtx_id = 0;
        self.acked_rtx_id = None;
    }

    /// `recovery_exit_scoreboard = clear`: forget the SACKed segments as recovery (or
    /// TCP-Linux's Loss state) ends (tcp-linux.cc line 462, `ClearScoreBoard`).
    fn clear_scoreboard_at_exit(&mut self) {
        if self.params.recovery_exit_scoreboard == RecoveryExitScoreboard::Clear {
            self.scoreboard.clear();
        }
    }

    /// Record a retransmission of `seq` sent while HighData + 1 is `snd_nxt`
    /// (scoreboard1.cc `MarkRetran(xmit_seqno, t_seqno_)`, lines 332-338).
    fn note_retransmission(&mut self, seq: u64, snd_nxt: u64) {
        if self.params.lost_retransmit == LostRetransmit::SackAbove {
            self.relost.remove(&seq);
            self.retransmitted.insert(seq, (snd_nxt, self.rtx_id));
            self.rtx_id += 1;
        }
    }

    /// `lost_retransmit = sack_above`: after this ACK's scoreboard update, mark the
    /// retransmissions lost again (scoreboard1.cc `UpdateScoreBoard`).
    fn mark_lost_retransmissions(&mut self, core: &SenderCore) {
        let scoreboard = &self.scoreboard;
        let mut acked = self.acked_rtx_id;
        // Lines 81-88 (cumulatively acknowledged) and 197-201 (SACKed): a retransmission that
        // arrived raises `acked_rtx_id_` and leaves the list.
        self.retransmitted.retain(|&seq, &mut (_, id)| {
            let arrived = seq < core.snd_una || scoreboard.is_sacked(seq);
            if arrived {
                acked = Some(acked.map_or(id, |a| a.max(id)));
            }
            !arrived
        });
        self.acked_rtx_id = acked;
        self.relost.retain(|&seq| seq >= core.snd_una && !scoreboard.is_sacked(seq));
        // `fack_`: the highest SACKed segment (line 152: right[sa_length-1]-1).
        let Some(fack) = scoreboard.highest_sacked_end().map(|end| end - 1) else {
            return;
        };
        let d = u64::from(core.dupack_threshold);
        let relost = &mut self.relost;
        // Lines 215-216: lost again when its snd_nxt <= fack_, or when a retransmission
        // DupThresh + 1 later arrived (`GetRtx() + dupack_threshold + 1 < acked_rtx_id_`).
        self.retransmitted.retain(|&seq, &mut (snd_nxt, id)| {
            let lost = snd_nxt <= fack || acked.is_some_and(|a| id + d + 1 < a);
            if lost {
                relost.insert(seq);
            }
            !lost
        });
    }

    /// The boundary of the lost segments: the unSACKed segments below it are lost. RFC 6675's
    /// IsLost() (`Scoreboard::lost_below`), or with `loss_marking = fack` scoreboard1.cc's
    /// `seq <= fack_ - (dupack_threshold + 1)` (line 168, 225), fack_ = highest SACKed segment.
    fn lost_below(&self, dupthresh: u32) -> Option<u64> {
        // `timeout_recovery = linux_loss_state`: what the timeout marked lost stays lost.
        let rule = self.rule_lost_below(dupthresh);
        match self.marked_lost_end {
            Some(end) => Some(rule.map_or(end, |below| below.max(end))),
            None => rule,
        }
    }

    /// `lost_below` by `loss_marking` alone.
    fn rule_lost_below(&self, dupthresh: u32) -> Option<u64> {
        match self.params.loss_marking {
            LossMarking::Rfc6675 => self.scoreboard.lost_below(dupthresh),
            LossMarking::Fack => {
                let fack = self.scoreboard.highest_sacked_end()? - 1;
                Some(fack.saturating_sub(u64::from(dupthresh)))
            }
        }
    }

    /// SetPipe() with this recovery's lost segments (`lost_below`).
    fn pipe_from(&self, core: &SenderCore, rxt_next: u64) -> u64 {
        let lost_below = self.lost_below(core.dupack_threshold);
        self.scoreboard.pipe_with_lost_below(core.snd_una, core.high_tx, rxt_next, lost_below)
    }

    /// NextSeg() with this recovery's lost segments (`lost_below`).
    fn next_seg(&self, core: &SenderCore) -> Option<NextSeg> {
        if let Some(seq) = self.marked_lost_next(core) {
            return Some(NextSeg::Lost(seq));
        }
        self.scoreboard.next_seg_with_lost_below(&self.send_state(core), self.lost_below(core.dupack_threshold))
    }

    /// Whether this ACK starts loss recovery (RFC 6675 Section 5 steps (1)-(2); with
    /// `loss_marking = fack`, tcp-linux.cc line 483: HighACK + 1, never SACKed, is marked lost).
    fn loss_detected(&self, core: &SenderCore) -> bool {
        let d = core.dupack_threshold;
        match self.params.loss_marking {
            LossMarking::Rfc6675 => core.dupacks >= d || self.scoreboard.is_lost(core.snd_una, d),
            LossMarking::Fack => self.lost_below(d).is_some_and(|below| core.snd_una < below),
        }
    }

    /// An ACK with these SACK blocks (RFC 6675 Section 5).
    pub fn on_ack(
        &mut self,
        core: &mut SenderCore,
        ack: &Packet,
        blocks: &[SackBlock],
        now: Time,
        out: &mut Vec<Packet>,
    ) {
        if core.completed_at.is_some() || ack.seq < core.snd_una {
            return;
        }
        let ece = core.ecn && ack.has_flag(FLAG_ECE);
        let prr = self.prr_delivered.is_some();
        let (una_before, sacked_before) = (core.snd_una, self.sacked_outstanding(core));
        // RFC 6675 Section 5: every ACK updates the scoreboard (Update(), Section 4). An ACK
        // that SACKs new data is a duplicate ACK (Section 2), even if it also advances the
        // cumulative ACK.
        let newly_sacked = self.scoreboard.update(blocks, ack.seq, core.high_tx);
        if ack.seq > core.snd_una {
            self.scoreboard.advance(ack.seq);
            // RFC 6675 Section 5: a cumulative ACK resets DupAcks (in `advance_una`).
            let (acked, rtt) = core.advance_una(ack, now);
            if core.in_recovery {
                if core.recover.is_some_and(|recover| ack.seq > recover) {
                    // RFC 6675 Section 5 (A): a cumulative ACK beyond RecoveryPoint ends loss
                    // recovery; cwnd is the ssthresh set on entry (step 4.2; RFC 6937 Section
                    // 3 ends PRR with cwnd = ssthresh too). The scoreboard above HighACK is kept.
                    core.in_recovery = false;
                    self.prr = None;
                    // tcp-linux.cc line 470: "stop rate halving".
                    self.next_in_flight = 0;
                    self.clear_retransmissions();
                    self.marked_lost_end = None;
                    self.clear_scoreboard_at_exit();
                    core.cc.on_recovery_exit(core.in_flight());
                    self.params.exit_credit.apply(core, acked, rtt, ece, now, Some(&self.scoreboard));
                }
            } else {
                // RFC 6937 Section 3: DeliveredData = change_in(snd.una) + change_in(SACKd).
                let delivered =
                    (core.snd_una - una_before + self.sacked_outstanding(core)).saturating_sub(sacked_before);
                core.window_on_new_ack(acked, delivered, rtt, ece, now, Some(&self.scoreboard));
            }
            if core.check_complete(now) {
                return;
            }
            // RFC 6298 Section 5.2/5.3: restart the timer (stop it when all is acknowledged).
            core.arm_timer(now);
        }
        // RFC 6937 Section 3: DeliveredData = change_in(snd.una) + change_in(SACKd).
        // (Only PRR and a PRR-paced ECN reduction use it.)
        let delivered_data = if prr || core.ecn_response.paced() {
            (core.snd_una - una_before + self.sacked_outstanding(core)).saturating_sub(sacked_before)
        } else {
            0
        };
        let mut delivered = if prr { delivered_data } else { 0 };
        if self.prr_delivered == Some(PrrDelivered::Ns3) && newly_sacked > 0 {
            delivered =
                ns3_delivered(self.prr.as_ref().filter(|_| core.in_recovery), delivered, core.snd_una > una_before);
        }
        if self.in_loss_state(core) && self.loss_state_ack(core, now, out) {
            return;
        }
        if core.in_recovery {
            if self.params.lost_retransmit == LostRetransmit::SackAbove {
                self.mark_lost_retransmissions(core);
            }
            if core.snd_una > una_before && self.params.partial_ack_retransmit == PartialAckRetransmit::Ns3 {
                self.ns3_partial_ack_retransmit(core, now, out);
            }
            // RFC 6675 Section 5 (B)-(C): SetPipe(), then send while cwnd - pipe >= 1 SMSS
            // (or, with PRR, the sndcnt of RFC 6937 Section 3).
            let pipe = self.pipe(core);
            let sndcnt = self.prr.as_mut().map(|prr| prr.on_ack(delivered, pipe));
            self.send_next_segments(core, now, out, pipe, sndcnt);
            return;
        }
        if newly_sacked > 0 && core.high_tx > core.snd_una {
            core.dupacks += 1;
            // RFC 6675 Section 5 steps (1)-(2): DupAcks >= DupThresh, or IsLost(HighACK + 1)
            // (DupThresh segments SACKed above the cumulative ACK): enter loss recovery
            // (`loss_detected`; FACK's rule with `loss_marking = fack`).
            if self.loss_detected(core) && self.enter_recovery(core, now, out, delivered) {
                return;
            }
            if core.ecn_response.reducing(core.snd_una) {
                // A PRR-paced ECN reduction paces what this duplicate ACK delivered (Linux's
                // CWR state takes precedence over its Disorder state's limited transmit).
                if core.snd_una == una_before {
                    core.cwr_on_ack(delivered_data, false, Some(&self.scoreboard));
                }
            } else if core.limited_transmit && core.recover.is_none_or(|recover| core.snd_una > recover) {
                // RFC 6675 Section 5 step (3): Limited Transmit governed by pipe.
                self.limited_transmit(core, now, out);
                return;
            }
        }
        self.send_available(core, now, out);
    }

    /// RFC 6675 SetPipe() during recovery (HighRxt + 1 = `rxt_next`).
    /// With `lost_retransmit = sack_above` a retransmission deemed lost again is not in flight
    /// (scoreboard1.cc line 218: `fack_out_++`, which tcp-linux.cc's packets_in_flight()
    /// subtracts); it counts again once resent.
    fn pipe(&self, core: &SenderCore) -> u64 {
        self.pipe_from(core, self.rxt_next).saturating_sub(self.relost.len() as u64)
    }

    /// `partial_ack_retransmit = ns3`: ns-3 3.44's `ProcessAck` on a partial ACK in recovery.
    /// Unless the new head was retransmitted already (here: it lies below HighRxt + 1),
    /// `DoRetransmit()` resends the first segment marked lost and not yet retransmitted
    /// (NextSeg() rule (1)), or else the head, whatever cwnd − pipe allows; PRR counts it as
    /// sent (`TcpPrrRecovery::UpdateBytesSent`).
    fn ns3_partial_ack_retransmit(&mut self, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>) {
        if core.snd_una < self.rxt_next || core.snd_una >= core.high_tx {
            return;
        }
        let seq = match self.next_seg(core) {
            Some(NextSeg::Lost(seq)) => seq,
            _ => core.snd_una,
        };
        let packet = core.segment(seq, now);
        out.push(packet);
        self.note_retransmission(seq, core.high_tx);
        self.rxt_next = self.rxt_next.max(seq + 1);
        if let Some(prr) = self.prr.as_mut() {
            prr.on_sent(1);
        }
    }

    /// SACKed segments above the cumulative ACK (RFC 6937's "SACKd").
    fn sacked_outstanding(&self, core: &SenderCore) -> u64 {
        self.scoreboard.sacked_between(core.snd_una, u64::MAX)
    }

    /// FlightSize for a SACK sender's retransmission timeout: what is still in the network
    /// by RFC 6675's accounting, not snd_nxt − snd_una. In recovery it is SetPipe()'s pipe
    /// (Section 4: SACKed and lost segments are not in flight, retransmitted ones are);
    /// otherwise the segments below snd_nxt neither acknowledged nor SACKed (after a timeout
    /// the go-back-N restarts snd_nxt at snd_una and what was sent before is presumed lost,
    /// as ns-3's `SetSentListLost`). Why: `docs/sack.md`, "Timeouts inside recovery".
    /// RFC 5681 Section 3.1 sets ssthresh to "no more than" max(FlightSize/2, 2 SMSS); with
    /// SACK, snd_nxt − snd_una counts everything SACKed since the loss: after a long recovery
    /// it was several times the flight, and the timeout raised ssthresh far above the
    /// recovery's (issue 15). ns-3's ReTxTimeout likewise: GetSsThresh(tcb, BytesInFlight()).
    pub fn flight_size(&self, core: &SenderCore) -> u64 {
        if core.in_recovery {
            self.pipe(core)
        } else {
            (core.snd_nxt - core.snd_una) - self.scoreboard.sacked_between(core.snd_una, core.snd_nxt)
        }
    }

    /// A retransmission timeout: RFC 2018 Section 5 ("the data sender SHOULD turn off all of
    /// the SACKed bits, since the timeout might indicate that the data receiver has reneged")
    /// and RFC 6675 Section 5.1: expunge the scoreboard and end SACK recovery; the
    /// RecoveryPoint (`recover`, set by the sender) blocks a new recovery until it is
    /// acknowledged.
    /// With `timeout_scoreboard = keep` the SACKed segments stay (ns-2 TCP-Linux's `MarkLoss`):
    /// the go-back-N (`send_available`) skips them.
    pub fn on_timeout(&mut self, core: &SenderCore) {
        if self.params.timeout_recovery == TimeoutRecovery::LinuxLossState {
            // tcp-linux.cc line 551: `scb_->MarkLoss(highest_ack_+1, t_seqno_)`.
            self.marked_lost_end = Some(core.high_tx);
        }
        if self.params.timeout_scoreboard == TimeoutScoreboard::Clear {
            self.scoreboard.clear();
        }
        self.rxt_next = 0;
        self.rescue_rxt = None;
        self.prr = None;
        // tcp-linux.cc `timeout`, line 583: `next_pkts_in_flight_ = 0`.
        self.next_in_flight = 0;
        self.clear_retransmissions();
    }

    /// What NextSeg() needs besides the scoreboard (rule (2) checks the receiver's window).
    fn send_state(&self, core: &SenderCore) -> SendState {
        SendState {
            snd_una: core.snd_una,
            high_tx: core.high_tx,
            rxt_next: self.rxt_next,
            new_data_allowed: core.has_data(core.high_tx)
                && ((core.high_tx - core.snd_una) as f64) < core.max_window.floor(),
            // Rule (4): HighACK > RescueRxt, HighACK being the last acknowledged segment.
            rescue_allowed: self.rescue_rxt.is_none_or(|rescue| core.snd_una > rescue + 1),
            recovery_end: core.recover.map_or(core.high_tx, |recover| recover + 1),
        }
    }

    /// RFC 6675 Section 5 step (4): fast retransmit and enter loss recovery. Returns false
    /// when RFC 6675 Section 5.1 forbids a new recovery (after a timeout, until HighACK
    /// reaches the RecoveryPoint it set).
    fn enter_recovery(&mut self, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>, delivered: u64) -> bool {
        if core.recover.is_some_and(|recover| core.snd_una <= recover) {
            return false;
        }
        // (4.1) RecoveryPoint = HighData.
        core.recover = Some(core.high_tx - 1);
        core.stats.fast_recoveries += 1;
        // (4.2) ssthresh = cwnd = FlightSize / 2 (RFC 5681 eq. (4)) — here the algorithm's
        // own multiplicative decrease (Reno halves; CUBIC, HighSpeed... use theirs).
        let mut event = core.congestion_event(now);
        if self.params.loss_flight_size == LossFlightSize::Pipe {
            // ns-3's EnterRecovery: GetSsThresh(tcb, BytesInFlight()), its RFC 6675 pipe
            // before the fast retransmit (SACKed and lost segments not in flight).
            event.in_flight = self.pipe_from(core, core.snd_una);
        }
        // RFC 6937 Section 3: RecoverFS = snd.nxt - snd.una (or ns-3's pipe, as above).
        let recover_fs = event.in_flight;
        if self.params.loss_flight_size == LossFlightSize::Rfc5681 {
            // RFC 6675 (4.2): "[RFC5681] requires that any segments sent as part of the Limited
            // Transmit mechanism not be counted in FlightSize for the purpose of the above
            // equation" (RFC 5681 Section 3.2 step 2). ns-3's pipe counts them (`Pipe`).
            event.in_flight = event.in_flight.saturating_sub(core.limited_transmit_sent);
        }
        // A loss in the window of a PRR-paced ECN reduction continues that reduction, its
        // ssthresh and PRR counters, instead of starting another (RFC 3168 Section 6.1.2:
        // one reduction per window; Linux's tcp_enter_recovery from CWR).
        let reduction = core.ecn_response.take_reduction(core.snd_una);
        if self.params.rate_halving {
            // tcp-linux.cc `tcp_fastretrans_alert`, line 487: `next_pkts_in_flight_ =
            // linux_.snd_cwnd` (the integer window before the reduction), "we do rate halving".
            self.next_in_flight = core.cc.window().max(0.0) as u64;
        }
        if reduction.is_none() {
            core.cc.on_loss(&event);
        }
        core.in_recovery = true;
        core.inflation = 0.0;
        let sndcnt = self.prr_delivered.is_some().then(|| {
            // RFC 6937 Section 3, at the beginning of recovery: ssthresh = CongCtrlAlg() (the
            // window the algorithm set in (4.2)), prr_delivered = prr_out = 0,
            // RecoverFS = snd.nxt - snd.una ("FlightSize at the start of recovery": the
            // FlightSize of (4.2), pipe with `loss_flight_size = pipe` as ns-3's
            // TcpPrrRecovery); then this ACK's DeliveredData and pipe.
            let mut prr =
                reduction.unwrap_or_else(|| Prr::start(core.cc.window(), recover_fs, ReductionBound::SlowStart));
            let pipe = self.pipe_from(core, core.snd_una);
            // The fast retransmit (4.3) goes out even if sndcnt is 0 (Linux's
            // tcp_cwnd_reduction: `sndcnt = max(sndcnt, (tp->prr_out ? 0 : 1))`; ns-3's
            // TcpPrrRecovery: "Force a fast retransmit upon entering fast recovery").
            let sndcnt = prr.on_ack(delivered, pipe).max(1);
            prr.on_sent(1);
            self.prr = Some(prr);
            sndcnt - 1
        });
        // (4.3) Retransmit HighACK + 1; HighRxt = RescueRxt = that segment.
        core.retransmit_first_unacked(now, out);
        self.clear_retransmissions();
        self.note_retransmission(core.snd_una, core.high_tx);
        self.rxt_next = core.snd_una + 1;
        self.rescue_rxt = Some(core.snd_una);
        core.arm_timer(now);
        // (4.4) SetPipe() and (4.5) proceed to step (C).
        let pipe = self.pipe(core);
        if self.params.rate_halving {
            // TCP-Linux sends the fast retransmit from send_much's loop like any segment:
            // tcp-linux.cc line 629 takes min(next_pkts_in_flight_, packets_in_flight() + 1)
            // before it (pipe - 1 + 1 here, the retransmission not yet counted) and line 653
            // min(next_pkts_in_flight_, max(packets_in_flight() - 1, 1)) after it, so the ACK
            // that starts recovery sends the retransmission alone unless cwnd exceeds pipe.
            self.next_in_flight = self.next_in_flight.min(pipe).min(pipe.saturating_sub(1).max(1));
        }
        self.send_next_segments(core, now, out, pipe, sndcnt);
        true
    }

    /// RFC 6675 Section 5 (C): send what NextSeg() returns while cwnd - pipe >= 1 SMSS, or
    /// at most `sndcnt` segments when PRR decides (RFC 6937: "prr_out += (data sent)").
    fn send_next_segments(
        &mut self,
        core: &mut SenderCore,
        now: Time,
        out: &mut Vec<Packet>,
        mut pipe: u64,
        mut sndcnt: Option<u64>,
    ) {
        let cwnd = core.cc.window();
        let mut sent = false;
        if self.params.rate_halving {
            // tcp-linux.cc line 629: `next_pkts_in_flight_ = min(next_pkts_in_flight_,
            // packets_in_flight() + 1)`: at most one segment more than this ACK left in flight.
            self.next_in_flight = self.next_in_flight.min(pipe + 1);
        }
        loop {
            // tcp-linux.cc line 631: send while packets_in_flight() < max(win,
            // next_pkts_in_flight_); 0 outside rate halving, so RFC 6675's cwnd - pipe >= 1.
            let window = cwnd.max(self.next_in_flight as f64);
            match sndcnt {
                Some(0) => break,
                Some(_) => {}
                // (C), (C.5): cwnd - pipe >= 1 SMSS.
                None if window - (pipe as f64) < 1.0 => break,
                None => {}
            }
            // `lost_retransmit = sack_above`: a retransmission lost again is resent first (it
            // lies below HighRxt; scoreboard1.cc's `nxt_to_retrx_` is the first LOST block);
            // HighRxt stays. Otherwise (C.1) NextSeg(); failure ends the loop.
            if let Some(seq) = self.relost.pop_first() {
                let packet = core.segment(seq, now);
                out.push(packet);
                self.note_retransmission(seq, core.high_tx);
            } else {
                let Some(next) = self.next_seg(core) else {
                    break;
                };
                self.send_next_seg(core, next, now, out);
            }
            // (C.4) pipe grows by the segment sent.
            pipe += 1;
            if self.next_in_flight > 0 {
                // tcp-linux.cc line 653: `next_pkts_in_flight_ = min(next_pkts_in_flight_,
                // max(packets_in_flight() - 1, 1))`: one fewer after each segment sent.
                self.next_in_flight = self.next_in_flight.min(pipe.saturating_sub(1).max(1));
            }
            if let Some(count) = sndcnt.as_mut() {
                *count -= 1;
            }
            if let Some(prr) = self.prr.as_mut() {
                prr.on_sent(1);
            }
            sent = true;
        }
        if sent && core.rto_deadline.is_none() {
            core.arm_timer(now);
        }
    }

    /// Send what NextSeg() returned, (C.2)-(C.3) and rule (4).
    fn send_next_seg(&mut self, core: &mut SenderCore, next: NextSeg, now: Time, out: &mut Vec<Packet>) {
        match next {
            NextSeg::Lost(seq) | NextSeg::Unsacked(seq) => {
                let packet = core.segment(seq, now);
                out.push(packet);
                self.note_retransmission(seq, core.high_tx);
                // (C.2) HighRxt = the highest segment retransmitted.
                self.rxt_next = seq + 1;
            }
            NextSeg::New(seq) => {
                let packet = core.segment(seq, now);
                out.push(packet);
                // (C.3) HighData advances.
                core.high_tx = seq + 1;
                core.snd_nxt = core.high_tx;
            }
            NextSeg::Rescue(seq) => {
                let packet = core.segment(seq, now);
                out.push(packet);
                // Rule (4): RescueRxt = RecoveryPoint; HighRxt is not updated.
                self.rescue_rxt = core.recover;
            }
        }
    }

    /// RFC 6675 Section 5 step (3), Limited Transmit (RFC 3042) governed by pipe: (3.1) HighRxt
    /// = HighACK, (3.2) SetPipe(), (3.3) send new data while cwnd - pipe >= 1 SMSS and the
    /// receiver's window allows.
    fn limited_transmit(&mut self, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>) {
        if core.snd_nxt != core.high_tx {
            return;
        }
        self.rxt_next = core.snd_una;
        let cwnd = core.cc.window();
        let mut pipe = self.pipe(core);
        while cwnd - pipe as f64 >= 1.0 && self.send_state(core).new_data_allowed {
            let packet = core.segment(core.high_tx, now);
            out.push(packet);
            core.high_tx += 1;
            core.snd_nxt = core.high_tx;
            core.limited_transmit_sent += 1;
            pipe += 1;
        }
    }

    /// Send what the window allows. After a timeout the sender goes back to `snd_una`;
    /// RFC 6675 Section 5.1 leaves the choice of what to send open and suggests "filling in"
    /// the sequence space reported missing: go-back-N that skips the segments SACKed since the
    /// timeout. Segments SACKed do not count as in flight.
    /// With `flight_outside_recovery = minus_sacked` the SACKed segments stay out of the flight
    /// after the go-back-N has caught up with HighData too (ns-2 TCP-Linux's
    /// `packets_in_flight()`, scoreboard1.h line 162).
    pub fn send_available(&mut self, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>) {
        let (first, high_tx) = (out.len(), core.high_tx);
        self.go_back_n(core, now, out);
        if self.in_loss_state(core) {
            // scoreboard1.cc `MarkRetran(xmit_seqno, t_seqno_)` for each segment resent in the
            // Loss state (tcp-linux.cc line 648; t_seqno_ is not moved back by a timeout).
            for seq in out[first..].iter().map(|p| p.seq).filter(|&seq| seq < high_tx).collect::<Vec<_>>() {
                self.note_retransmission(seq, high_tx);
            }
        }
    }

    /// `send_available`'s sending.
    fn go_back_n(&mut self, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>) {
        // In TCP-Linux's Loss state SACKed segments stay out of the flight once the go-back-N
        // has caught up with HighData too (tcp-linux.cc `send_much` line 631 and
        // `packets_in_flight()`, line 599: SACKed and lost segments are not in flight).
        // With `flight_outside_recovery = minus_sacked` the same holds outside the Loss state
        // (ns-2 TCP-Linux's `packets_in_flight()`, scoreboard1.h line 162).
        let caught_up = core.snd_nxt >= core.high_tx
            && !self.in_loss_state(core)
            && (self.params.flight_outside_recovery == FlightOutsideRecovery::Rfc5681
                || self.scoreboard.sacked_between(core.snd_una, core.snd_nxt) == 0);
        if caught_up || self.scoreboard.is_empty() {
            core.send_available(now, out);
            return;
        }
        let window = core.usable_window();
        let mut flight = (core.snd_nxt - core.snd_una) - self.scoreboard.sacked_between(core.snd_una, core.snd_nxt);
        let mut sent_any = false;
        while flight < window && core.has_data(core.snd_nxt) {
            if core.snd_nxt < core.high_tx && self.scoreboard.is_sacked(core.snd_nxt) {
                core.snd_nxt = self.scoreboard.first_unsacked_from(core.snd_nxt);
                continue;
            }
            let packet = core.segment(core.snd_nxt, now);
            out.push(packet);
            core.snd_nxt += 1;
            core.high_tx = core.high_tx.max(core.snd_nxt);
            flight += 1;
            sent_any = true;
        }
        if sent_any && core.rto_deadline.is_none() {
            core.arm_timer(now);
        }
    }
}
