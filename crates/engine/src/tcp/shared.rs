//! What every TCP sender shares, whatever its congestion control and loss recovery: the
//! sequence state, sending within the window, RTT samples, the retransmission timer of
//! RFC 6298 and the ECN sender side of RFC 3168 Section 6.1.2. The loss recoveries
//! (`recovery/`) and the sender options (`limited_transmit.rs`) work on it; `sender.rs` puts a
//! `SenderCore` and a `LossRecovery` together. This module imports neither, so the modules of
//! `tcp/` form layers: `prr.rs`, `ecn.rs` < `shared.rs` < `recovery/`, `limited_transmit.rs` <
//! `sender.rs`.

use super::cc::{AckEvent, CongestionControl, CongestionEvent};
use super::ecn::{EcnReduction, EcnResponse};
use super::prr::{Prr, PrrDelivered, ReductionBound};
use super::rto::{RtoEstimator, RtoRestart, RttSampling};
use super::sack::Scoreboard;
use crate::packet::{Ecn, FlowId, Packet, PacketKind, RouteId, FLAG_CWR, FLAG_RETRANSMIT};
use crate::time::Time;

/// Counters of one sender.
#[derive(Clone, Copy, Debug, Default)]
pub struct SenderStats {
    pub segments_sent: u64,
    pub retransmits: u64,
    pub timeouts: u64,
    pub fast_recoveries: u64,
    pub ecn_reductions: u64,
    pub rtt_samples: u64,
    pub rtt_sum_ns: u128,
}

/// What every sender shares; the loss recoveries (`recovery/`) and sender options work on it.
pub struct SenderCore {
    pub(crate) flow: FlowId,
    /// The route the data packets take.
    pub(crate) route: RouteId,
    /// The window law (`cc/`).
    pub(crate) cc: Box<dyn CongestionControl>,
    /// Size of a full data packet and of the last one of a finite transfer, bytes.
    pub(crate) packet_bytes: u32,
    pub(crate) last_packet_bytes: u32,
    /// The receiver's window, segments.
    pub(crate) max_window: f64,
    /// ECN negotiated (RFC 3168): data packets are ECT.
    pub(crate) ecn: bool,
    /// With `ecn`: retransmissions are ECT too (`EcnRetransmit::Ect`, ns-2's agents).
    pub(crate) ect_retransmissions: bool,
    /// DupThresh (RFC 5681 Section 3.2, RFC 6675 Section 2).
    pub(crate) dupack_threshold: u32,
    /// Limited Transmit (RFC 3042), a sender option (`limited_transmit.rs`).
    pub(crate) limited_transmit: bool,
    /// Which ACKs restart the retransmission timer.
    pub(crate) rto_restart: RtoRestart,
    /// Which ACKs give an RTT sample (`RttSampling::EveryAck`: duplicates too, ns-2 TCP-Linux).
    pub(crate) rtt_sampling: RttSampling,
    /// Data segments per ACK: 2 with delayed ACKs, else 1.
    pub(crate) segments_per_ack: f64,
    /// Segments to send in all (None: unlimited).
    pub(crate) total_segments: Option<u64>,
    /// Oldest unacknowledged segment.
    pub(crate) snd_una: u64,
    /// Next segment to send.
    pub(crate) snd_nxt: u64,
    /// One past the highest segment ever sent.
    pub(crate) high_tx: u64,
    /// Duplicate ACKs since the cumulative ACK last advanced (RFC 5681 Section 3.2).
    pub(crate) dupacks: u32,
    /// Segments Limited Transmit sent since the cumulative ACK last advanced: RFC 5681
    /// Section 3.2 step 2 keeps them out of the FlightSize that sets ssthresh.
    pub(crate) limited_transmit_sent: u64,
    /// In fast recovery (Reno, NewReno) or SACK loss recovery.
    pub(crate) in_recovery: bool,
    /// RFC 6582 `recover` (RFC 6675 RecoveryPoint): highest segment sent when the last loss
    /// episode began (a fast retransmit or a timeout).
    pub(crate) recover: Option<u64>,
    /// Window inflation during fast recovery (RFC 5681 Section 3.2 steps 3-4), segments.
    pub(crate) inflation: f64,
    /// The ECN response of RFC 3168 Section 6.1.2 (`ecn.rs`).
    pub(crate) ecn_response: EcnResponse,
    /// SRTT, RTTVAR and the RTO (RFC 6298, `rto.rs`).
    pub(crate) rto: RtoEstimator,
    /// Smallest and latest RTT samples.
    pub(crate) min_rtt_ns: Time,
    pub(crate) last_rtt_ns: Option<Time>,
    /// Retransmission timer deadline (RFC 6298 Section 5).
    pub rto_deadline: Option<Time>,
    /// Time of the pending timer event, if one is scheduled.
    pub timer_pending: Option<Time>,
    pub started_at: Option<Time>,
    pub completed_at: Option<Time>,
    pub stats: SenderStats,
}

impl SenderCore {
    #[inline]
    pub fn in_flight(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }

    /// The window the sender may use: cwnd (+ recovery inflation), capped by the
    /// receiver's window, never below one segment.
    #[inline]
    pub(crate) fn usable_window(&self) -> u64 {
        let window = (self.cc.window() + self.inflation).min(self.max_window);
        (window.floor() as u64).max(1)
    }

    #[inline]
    pub(crate) fn has_data(&self, seq: u64) -> bool {
        self.total_segments.is_none_or(|total| seq < total)
    }

    #[inline]
    pub(crate) fn congestion_event(&self, now: Time) -> CongestionEvent {
        CongestionEvent { now, in_flight: self.in_flight(), srtt_ns: self.rto.srtt_ns(), min_rtt_ns: self.min_rtt_ns }
    }

    /// Segment `seq` as sent now (a retransmission if it lies below `high_tx`).
    #[inline]
    pub(crate) fn segment(&mut self, seq: u64, now: Time) -> Packet {
        let retransmit = seq < self.high_tx;
        self.stats.segments_sent += 1;
        let mut flags = if retransmit {
            self.stats.retransmits += 1;
            FLAG_RETRANSMIT
        } else {
            0
        };
        if self.ecn_response.take_cwr(retransmit) {
            // RFC 3168 Section 6.1.2: CWR on the first new data segment after a reduction
            // (or, with `cwr_on_retransmit`, on the first segment: ns-2's behaviour).
            flags |= FLAG_CWR;
        }
        let last = self.total_segments.is_some_and(|total| seq + 1 == total);
        Packet {
            flow: self.flow,
            kind: PacketKind::Data,
            // RFC 3168 Section 6.1.5: retransmissions are not ECT (unless
            // `ecn_retransmit = "ect"`, ns-2 tcp.cc `output` lines 702-704).
            ecn: if self.ecn && (!retransmit || self.ect_retransmissions) { Ecn::Ect } else { Ecn::NotEct },
            flags,
            hop: 0,
            route: self.route,
            size_bytes: if last { self.last_packet_bytes } else { self.packet_bytes },
            seq,
            timestamp: now,
            enqueued_at: 0,
            sack: 0,
        }
    }

    #[inline]
    pub(crate) fn arm_timer(&mut self, now: Time) {
        // RFC 6298 Section 5.1/5.3: (re)start the timer when data is outstanding.
        self.rto_deadline =
            if self.snd_una < self.high_tx.max(self.snd_nxt) { Some(now + self.rto.rto()) } else { None };
    }

    /// Send new data (or, after a timeout, go back N) while the window allows.
    #[inline]
    pub(crate) fn send_available(&mut self, now: Time, out: &mut Vec<Packet>) {
        let window = match self.ecn_response.paced_window(self.snd_nxt - self.snd_una, self.max_window) {
            Some(window) => window,
            None => self.usable_window(),
        };
        let mut sent = 0;
        while self.snd_nxt - self.snd_una < window && self.has_data(self.snd_nxt) {
            let packet = self.segment(self.snd_nxt, now);
            out.push(packet);
            self.snd_nxt += 1;
            self.high_tx = self.high_tx.max(self.snd_nxt);
            sent += 1;
        }
        self.ecn_response.on_sent(sent);
        if sent > 0 && self.rto_deadline.is_none() {
            self.arm_timer(now);
        }
    }

    #[inline]
    pub(crate) fn retransmit_first_unacked(&mut self, now: Time, out: &mut Vec<Packet>) {
        let packet = self.segment(self.snd_una, now);
        out.push(packet);
    }

    /// The cumulative ACK advanced: move `snd_una`, take the RTT sample; returns the
    /// segments newly acknowledged and the sample.
    #[inline]
    pub(crate) fn advance_una(&mut self, ack: &Packet, now: Time) -> (u64, Time) {
        let acked = ack.seq - self.snd_una;
        // RFC 7323 Appendix G: ExpectedSamples = the ACKs one window of data brings.
        let expected_samples = (self.in_flight() as f64 / self.segments_per_ack).ceil();
        self.snd_una = ack.seq;
        if self.snd_nxt < self.snd_una {
            self.snd_nxt = self.snd_una;
        }
        self.dupacks = 0;
        self.limited_transmit_sent = 0;
        // RTT from the echoed timestamp (RFC 7323 Section 4; valid for retransmissions too).
        let rtt = now.saturating_sub(ack.timestamp);
        self.rto.sample(rtt, expected_samples);
        self.rto.on_cumulative_ack(self.snd_una);
        self.last_rtt_ns = Some(rtt);
        self.min_rtt_ns = if self.min_rtt_ns == 0 { rtt } else { self.min_rtt_ns.min(rtt) };
        self.stats.rtt_samples += 1;
        self.stats.rtt_sum_ns += rtt as u128;
        (acked, rtt)
    }

    /// New data acknowledged outside loss recovery: the ECN response or the window law.
    /// `scoreboard`: a SACK sender's, for the pipe of a PRR-paced ECN reduction.
    #[inline]
    pub(crate) fn window_on_new_ack(
        &mut self,
        acked: u64,
        delivered: u64,
        rtt: Time,
        ece: bool,
        now: Time,
        scoreboard: Option<&Scoreboard>,
    ) {
        let reacts_once_per_window = ece && !self.cc.ecn_per_ack();
        if self.ecn_response.reducing(self.snd_una) && !reacts_once_per_window {
            // RFC 6937 Section 3 on every ACK of a PRR-paced ECN reduction; the window law
            // does not grow meanwhile (Linux's tcp_cong_control: tcp_cwnd_reduction instead
            // of cong_avoid in CWR; ns-3's ProcessAck: DoRecovery in CA_CWR).
            self.cwr_on_ack(delivered, false, scoreboard);
            return;
        }
        if reacts_once_per_window && !self.ecn_echo_once_per_window(delivered, now, scoreboard) {
            return;
        }
        if ece && !reacts_once_per_window {
            // A law reacting per marked ACK (`ecn_per_ack`): count each marked ACK.
            self.stats.ecn_reductions += 1;
        }
        let event = AckEvent {
            now,
            acked_segments: acked,
            delivered_segments: delivered,
            rtt_sample_ns: Some(rtt),
            min_rtt_ns: self.min_rtt_ns,
            srtt_ns: self.rto.srtt_ns(),
            in_flight: self.in_flight(),
            ece,
            snd_una: self.snd_una,
            high_tx: self.high_tx,
        };
        self.cc.on_ack(&event);
    }

    /// A finite (or stopped) transfer is complete once everything is acknowledged.
    #[inline]
    pub(crate) fn check_complete(&mut self, now: Time) -> bool {
        if let Some(total) = self.total_segments {
            if self.snd_una >= total {
                self.completed_at = Some(now);
                self.rto_deadline = None;
                return true;
            }
        }
        false
    }

    /// The shared part of a retransmission timeout; `flight` is the loss recovery's
    /// FlightSize if it counts its own (RFC 6675's pipe, `recovery/sack.rs`).
    pub(crate) fn on_timeout(&mut self, now: Time, flight: Option<u64>) {
        // RFC 6298 Section 5.4-5.6: retransmit the earliest unacknowledged segment, back off
        // the timer and restart it. RFC 5681 eq. (4): ssthresh = FlightSize/2, cwnd = 1.
        self.stats.timeouts += 1;
        let mut event = self.congestion_event(now);
        if let Some(flight) = flight {
            event.in_flight = flight;
        }
        self.cc.on_rto(&event);
        self.rto.on_timeout(self.high_tx);
        // RFC 6582 Section 3.2 step 1 and Section 4: after a timeout, `recover` = highest sent.
        self.recover = Some(self.high_tx.saturating_sub(1));
        self.in_recovery = false;
        self.inflation = 0.0;
        self.dupacks = 0;
        self.limited_transmit_sent = 0;
        // A timeout ends a PRR-paced ECN reduction too (Linux's tcp_enter_loss leaves CWR).
        self.ecn_response.cancel();
        if self.ecn {
            // RFC 3168 Section 6.1.2: a timeout is a window reduction ("When an ECN-Capable TCP
            // sender reduces its congestion window for any reason (because of a retransmit
            // timeout, a Fast Retransmit, or in response to an ECN Notification), the TCP
            // sender sets the CWR flag in the TCP header of the first new data packet sent
            // after the window reduction"), and it answers the congestion of the window it
            // ends: "the TCP sender's congestion window should be reduced only once in
            // response to a series of dropped and/or CE packets from a single window of data"
            // and "the TCP source should not decrease the slow-start threshold, ssthresh, if it
            // has been decreased within the last round trip time". So the ECE ACKs that follow
            // (echoes of marks on segments sent before the timeout, repeated until CWR reaches
            // the receiver) start no ECN reduction until a segment sent after it is
            // acknowledged, as after an ECN reduction (`ecn_echo_once_per_window`). Linux
            // likewise ignores ECE in its Loss state until high_seq is acknowledged
            // (tcp_input.c `tcp_fastretrans_alert`, TCP_CA_Loss). Before this, the first ECE
            // ACK after a timeout halved the one-segment window again (ssthresh = 2).
            self.ecn_response.recover = Some(self.high_tx);
            self.ecn_response.send_cwr = true;
        }
    }

    /// An ACK echoing ECE for a law that reacts once per window (RFC 3168 Section 6.1.2):
    /// react to ECE at most once per window of data, and never increase the window in
    /// response to an ECE ACK. The window ends only when a segment sent after the reduction
    /// is acknowledged: the receiver echoes ECE on every ACK until the CWR segment reaches it
    /// (Section 6.1.3), and the first segment that can carry CWR is `high_tx` at the
    /// reduction, so the ACKs up to and including the one of `high_tx - 1` still echo the mark
    /// already answered. As Linux's CWR state ("CWR is to be held something *above* high_seq
    /// is ACKed for CWR bit to reach receiver", tcp_input.c) and ns-3's (`ackNumber >
    /// m_recover`, m_recover = m_highTxMark, TcpSocketBase::ReceivedAck). `docs/packet.md`.
    ///
    /// Returns true when the window law may still grow on this ACK: an ECE ACK of a window
    /// already answered while cwnd < ssthresh, i.e. in the slow start after a retransmission
    /// timeout (`on_timeout`). Such an ACK echoes a mark the timeout answered: the echo goes on
    /// until CWR reaches the receiver (Section 6.1.3), CWR goes on new data only (Section
    /// 6.1.2: "the CWR bit in the TCP header SHOULD NOT be set on retransmitted packets"), and
    /// the go-back-N after a timeout sends none before `high_tx` (its retransmissions are not
    /// ECT, Section 6.1.5, so carry no new mark; with `ecn_retransmit = "ect"` a mark on one is
    /// answered once the window ends). Refusing growth on these ACKs held the sender
    /// at one or two segments per RTT for the whole go-back-N: the congestion of one window
    /// answered again in every RTT, against Section 6.1.2's "the TCP sender's congestion
    /// window should be reduced only once in response to a series of dropped and/or CE packets
    /// from a single window of data". Linux grows alike (tcp_input.c `tcp_may_raise_cwnd`,
    /// 2.6: `(!(flag & FLAG_ECE) || tp->snd_cwnd < tp->snd_ssthresh)`).
    pub(crate) fn ecn_echo_once_per_window(
        &mut self,
        delivered: u64,
        now: Time,
        scoreboard: Option<&Scoreboard>,
    ) -> bool {
        if self.ecn_response.recover.is_none_or(|r| self.snd_una > r) {
            let event = self.congestion_event(now);
            self.cc.on_ecn(&event);
            self.ecn_response.recover = Some(self.high_tx);
            self.ecn_response.send_cwr = true;
            self.stats.ecn_reductions += 1;
            if self.ecn_response.reduction == EcnReduction::Prr {
                // RFC 6937 Section 3 "at the beginning of recovery": ssthresh is the
                // law's window after `on_ecn`, RecoverFS the FlightSize it was given.
                self.ecn_response.cwr = Some(Prr::start(self.cc.window(), event.in_flight, ReductionBound::SlowStart));
                self.cwr_on_ack(delivered, true, scoreboard);
            }
        } else if self.ecn_response.cwr.is_some() {
            // An ECE ACK of the window already answered: the reduction goes on.
            self.cwr_on_ack(delivered, false, scoreboard);
        } else {
            // An ECE ACK of the window already answered: slow start goes on below ssthresh.
            return self.cc.window() < self.cc.ssthresh();
        }
        false
    }

    /// RFC 6937 Section 3 for one ACK of a PRR-paced ECN reduction: `delivered` is its
    /// DeliveredData; the segments it allows go out in `send_available`. `entering`: the ACK
    /// that starts the reduction (with `delivered = ns3` counted as ns-3 does: EnterCwr's
    /// DoRecovery adds a segment as for a duplicate ACK, then ProcessAck's CA_CWR branch
    /// calls DoRecovery again with the same bytes).
    pub(crate) fn cwr_on_ack(&mut self, delivered: u64, entering: bool, scoreboard: Option<&Scoreboard>) {
        let ecn = &mut self.ecn_response;
        let delivered = if entering && ecn.delivered == PrrDelivered::Ns3 { 2 * delivered + 1 } else { delivered };
        // RFC 6675's pipe outside loss recovery: sent, neither acknowledged nor SACKed.
        let flight = self.snd_nxt - self.snd_una;
        let pipe = flight - scoreboard.map_or(0, |board| board.sacked_between(self.snd_una, self.snd_nxt));
        let Some(prr) = ecn.cwr.as_mut() else { return };
        if delivered == 0 {
            // Linux's tcp_cwnd_reduction and ns-3's DoRecovery return when nothing was delivered.
            return;
        }
        // Both also send one segment while prr_out is 0 (Linux: `max(sndcnt, prr_out ? 0 : 1)`).
        let floor = u64::from(prr.prr_out() == 0);
        ecn.sndcnt = prr.on_ack(delivered, pipe).max(floor);
    }
}
