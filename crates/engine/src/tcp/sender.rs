//! TCP sender: the machinery shared by every congestion-control algorithm.
//!
//! Sequence numbers count segments (as ns-2's one-way TCP does). The sender implements
//! slow start / congestion avoidance through the [`CongestionControl`] hooks, fast
//! retransmit and NewReno fast recovery (RFC 6582) or Tahoe — or, with `sack`, the
//! SACK-based loss recovery of RFC 6675 —, the retransmission timer of RFC 6298 with
//! exponential backoff, and the ECN sender side of RFC 3168. With SACK, the sending during
//! recovery is RFC 6675's cwnd − pipe or Proportional Rate Reduction (RFC 6937, `tcp/prr.rs`).

use super::cc::{AckEvent, CcInit, CongestionControl, CongestionEvent};
use super::prr::{Prr, ReductionBound};
use super::rto::RtoEstimator;
use super::sack::{NextSeg, SackBlock, Scoreboard, SendState};
use super::{
    EcnEcho, EcnReduction, LossFlightSize, PartialAckRetransmit, PartialAckTimer, PrrDelivered, Recovery,
    RecoveryExitCredit, SackRecovery, TcpConfig,
};
use crate::error::{EngineError, Result};
use crate::packet::{Ecn, FlowId, Packet, PacketKind, RouteId, FLAG_CWR, FLAG_ECE, FLAG_RETRANSMIT};
use crate::rng::Rng;
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

pub struct TcpSender {
    flow: FlowId,
    route: RouteId,
    cc: Box<dyn CongestionControl>,
    recovery_mode: Recovery,
    packet_bytes: u32,
    last_packet_bytes: u32,
    max_window: f64,
    ecn: bool,
    dupack_threshold: u32,
    limited_transmit: bool,
    /// Data segments per ACK: 2 with delayed ACKs, else 1.
    segments_per_ack: f64,
    /// Segments to send in all (None: unlimited).
    total_segments: Option<u64>,
    /// Oldest unacknowledged segment.
    snd_una: u64,
    /// Next segment to send.
    snd_nxt: u64,
    /// One past the highest segment ever sent.
    high_tx: u64,
    dupacks: u32,
    /// Segments Limited Transmit sent since the cumulative ACK last advanced: RFC 5681
    /// Section 3.2 step 2 keeps them out of the FlightSize that sets ssthresh.
    limited_transmit_sent: u64,
    in_recovery: bool,
    /// RFC 6582 Section 4: restart the timer on the first partial ACK only, or on each.
    partial_ack_timer: PartialAckTimer,
    /// A partial ACK has arrived in the current fast recovery.
    partial_ack_seen: bool,
    /// RFC 6582 `recover`: highest segment sent when the last loss episode began.
    recover: Option<u64>,
    /// Window inflation during fast recovery (RFC 6582 Section 3.2 steps 3-4), segments.
    inflation: f64,
    /// RFC 3168 Section 6.1.2: no second ECN reduction until the cumulative ACK passes
    /// this segment (`high_tx` at the reduction: the first segment that can carry CWR).
    ecn_recover: Option<u64>,
    send_cwr: bool,
    /// At once (RFC 3168) or paced by PRR (Linux's CWR state, ns-3 with PRR).
    ecn_reduction: EcnReduction,
    /// The PRR episode of the ECN reduction in progress (`ecn_reduction = prr`), until the
    /// cumulative ACK passes `ecn_recover`.
    cwr: Option<Prr>,
    /// Segments this ACK allows during that reduction (RFC 6937's sndcnt).
    cwr_sndcnt: u64,
    rto: RtoEstimator,
    /// RFC 6675 loss recovery from SACK information instead of NewReno.
    sack: bool,
    /// RFC 6675 Section 3: the SACKed segments above `snd_una`.
    scoreboard: Scoreboard,
    /// RFC 6675 HighRxt + 1: segments below it were retransmitted in this recovery.
    rxt_next: u64,
    /// RFC 6675 RescueRxt (a segment number), None while undefined.
    rescue_rxt: Option<u64>,
    /// RFC 6675's cwnd − pipe or RFC 6937's PRR during SACK recovery.
    sack_recovery: SackRecovery,
    /// The PRR episode of the current SACK recovery (`sack_recovery = prr`).
    prr: Option<Prr>,
    /// FlightSize handed to `on_loss` when SACK recovery starts.
    loss_flight_size: LossFlightSize,
    /// Whether the ACK ending recovery is handed to the window law (ns-3) or not.
    recovery_exit_credit: RecoveryExitCredit,
    /// PRR's DeliveredData: RFC 6937's or ns-3's (`ns3_prr_delivered`).
    prr_delivered: PrrDelivered,
    /// A partial ACK in SACK recovery: RFC 6675's nothing, or ns-3's at-once retransmission.
    partial_ack_retransmit: PartialAckRetransmit,
    min_rtt_ns: Time,
    last_rtt_ns: Option<Time>,
    /// Retransmission timer deadline (RFC 6298 Section 5).
    pub rto_deadline: Option<Time>,
    /// Time of the pending timer event, if one is scheduled.
    pub timer_pending: Option<Time>,
    pub started_at: Option<Time>,
    pub completed_at: Option<Time>,
    pub stats: SenderStats,
}

impl TcpSender {
    /// `rng` is the flow's random stream (handed to the congestion control); `field` names
    /// the flow's TCP configuration in errors.
    pub fn new(
        flow: FlowId,
        route: RouteId,
        config: &TcpConfig,
        total_bytes: Option<u64>,
        rng: Rng,
        field: &str,
    ) -> Result<Self> {
        let payload = (config.packet_size_bytes - config.header_bytes) as u64;
        let total_segments = total_bytes.map(|b| b.div_ceil(payload).max(1));
        let last_payload = total_bytes.map(|b| b - (b.div_ceil(payload).max(1) - 1) * payload).unwrap_or(payload);
        let cc = config.cc.build(
            CcInit { initial_window: config.initial_window, initial_ssthresh: config.initial_ssthresh, rng },
            &format!("{field}.cc"),
        )?;
        if config.ecn && cc.ecn_per_ack() && config.ecn_echo != EcnEcho::PerPacket {
            // Under RFC 3168 echo every ACK after a mark carries ECE until CWR, which such
            // laws never send: each would be taken as a new mark.
            return Err(EngineError::invalid(
                format!("{field}.ecn_echo"),
                "rfc3168",
                format!("\"per_packet\" with ecn on: {} reacts to every marked ACK", config.cc.name()),
            ));
        }
        if config.sack_recovery == SackRecovery::Prr && !config.sack {
            return Err(EngineError::invalid(
                format!("{field}.sack_recovery"),
                "prr",
                "\"rfc6675\" without sack (Proportional Rate Reduction paces RFC 6675's SACK recovery; set sack = true)",
            ));
        }
        if config.prr_delivered == PrrDelivered::Ns3 && config.sack_recovery != SackRecovery::Prr {
            return Err(EngineError::invalid(
                format!("{field}.prr_delivered"),
                "ns3",
                "\"rfc6937\" without sack_recovery = prr (it changes how PRR counts delivered data)",
            ));
        }
        if config.partial_ack_retransmit == PartialAckRetransmit::Ns3 && !config.sack {
            return Err(EngineError::invalid(
                format!("{field}.partial_ack_retransmit"),
                "ns3",
                "\"rfc6675\" without sack (it changes SACK loss recovery; set sack = true)",
            ));
        }
        if config.ecn_reduction == EcnReduction::Prr && (!config.ecn || cc.ecn_per_ack()) {
            return Err(EngineError::invalid(
                format!("{field}.ecn_reduction"),
                "prr",
                "\"immediate\" without ecn, or with a law reacting per marked ACK (PRR paces the once-per-window ECN reduction)",
            ));
        }
        if config.loss_flight_size == LossFlightSize::Pipe && !config.sack {
            return Err(EngineError::invalid(
                format!("{field}.loss_flight_size"),
                "pipe",
                "\"rfc5681\" without sack (pipe is RFC 6675's count from the SACK scoreboard; set sack = true)",
            ));
        }
        if config.sack && config.recovery != Recovery::NewReno {
            return Err(EngineError::invalid(
                format!("{field}.sack"),
                true,
                "sack = false with recovery = tahoe (RFC 6675 recovery replaces NewReno's fast recovery; Tahoe has none)",
            ));
        }
        Ok(TcpSender {
            flow,
            route,
            cc,
            recovery_mode: config.recovery,
            packet_bytes: config.packet_size_bytes,
            last_packet_bytes: (last_payload as u32).max(1) + config.header_bytes,
            max_window: config.max_window,
            ecn: config.ecn,
            dupack_threshold: config.dupack_threshold,
            limited_transmit: config.limited_transmit,
            partial_ack_timer: config.partial_ack_timer,
            partial_ack_seen: false,
            segments_per_ack: if config.delayed_ack { 2.0 } else { 1.0 },
            total_segments,
            snd_una: 0,
            snd_nxt: 0,
            high_tx: 0,
            dupacks: 0,
            limited_transmit_sent: 0,
            in_recovery: false,
            recover: None,
            inflation: 0.0,
            ecn_recover: None,
            send_cwr: false,
            ecn_reduction: config.ecn_reduction,
            cwr: None,
            cwr_sndcnt: 0,
            rto: RtoEstimator::new(config.min_rto_ns, config.initial_rto_ns, config.max_rto_ns),
            sack: config.sack,
            scoreboard: Scoreboard::default(),
            rxt_next: 0,
            rescue_rxt: None,
            sack_recovery: config.sack_recovery,
            prr: None,
            loss_flight_size: config.loss_flight_size,
            recovery_exit_credit: config.recovery_exit_credit,
            prr_delivered: config.prr_delivered,
            partial_ack_retransmit: config.partial_ack_retransmit,
            min_rtt_ns: 0,
            last_rtt_ns: None,
            rto_deadline: None,
            timer_pending: None,
            started_at: None,
            completed_at: None,
            stats: SenderStats::default(),
        })
    }

    /// Congestion window of the algorithm, segments.
    pub fn cwnd(&self) -> f64 {
        self.cc.window()
    }

    pub fn ssthresh(&self) -> f64 {
        self.cc.ssthresh()
    }

    pub fn srtt_ns(&self) -> Option<Time> {
        self.rto.has_sample().then(|| self.rto.srtt_ns())
    }

    pub fn last_rtt_ns(&self) -> Option<Time> {
        self.last_rtt_ns
    }

    pub fn in_flight(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }

    pub fn is_complete(&self) -> bool {
        self.completed_at.is_some()
    }

    /// The window the sender may use: cwnd (+ recovery inflation), capped by the
    /// receiver's window, never below one segment.
    fn usable_window(&self) -> u64 {
        let window = (self.cc.window() + self.inflation).min(self.max_window);
        (window.floor() as u64).max(1)
    }

    fn has_data(&self, seq: u64) -> bool {
        self.total_segments.is_none_or(|total| seq < total)
    }

    fn congestion_event(&self, now: Time) -> CongestionEvent {
        CongestionEvent { now, in_flight: self.in_flight(), srtt_ns: self.rto.srtt_ns(), min_rtt_ns: self.min_rtt_ns }
    }

    fn segment(&mut self, seq: u64, now: Time) -> Packet {
        let retransmit = seq < self.high_tx;
        self.stats.segments_sent += 1;
        let mut flags = if retransmit {
            self.stats.retransmits += 1;
            FLAG_RETRANSMIT
        } else {
            0
        };
        if self.send_cwr && !retransmit {
            // RFC 3168 Section 6.1.2: CWR on the first new data segment after a reduction.
            flags |= FLAG_CWR;
            self.send_cwr = false;
        }
        let last = self.total_segments.is_some_and(|total| seq + 1 == total);
        Packet {
            flow: self.flow,
            kind: PacketKind::Data,
            // RFC 3168 Section 6.1.5: retransmissions are not ECT.
            ecn: if self.ecn && !retransmit { Ecn::Ect } else { Ecn::NotEct },
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

    fn arm_timer(&mut self, now: Time) {
        // RFC 6298 Section 5.1/5.3: (re)start the timer when data is outstanding.
        self.rto_deadline =
            if self.snd_una < self.high_tx.max(self.snd_nxt) { Some(now + self.rto.rto()) } else { None };
    }

    fn send_available(&mut self, now: Time, out: &mut Vec<Packet>) {
        if self.sack && self.snd_nxt < self.high_tx && !self.scoreboard.is_empty() {
            self.send_filling_holes(now, out);
            return;
        }
        let window = if self.cwr.is_some() {
            // A PRR-paced ECN reduction: this ACK's sndcnt segments beyond the flight, within
            // the receiver's window (Linux's tcp_cwnd_reduction: cwnd = in_flight + sndcnt).
            let budget = std::mem::take(&mut self.cwr_sndcnt);
            (self.snd_nxt - self.snd_una + budget).min(self.max_window.floor() as u64)
        } else {
            self.usable_window()
        };
        let mut sent = 0;
        while self.snd_nxt - self.snd_una < window && self.has_data(self.snd_nxt) {
            let packet = self.segment(self.snd_nxt, now);
            out.push(packet);
            self.snd_nxt += 1;
            self.high_tx = self.high_tx.max(self.snd_nxt);
            sent += 1;
        }
        if let Some(prr) = self.cwr.as_mut() {
            // RFC 6937 Section 3: "prr_out += (data sent)".
            prr.on_sent(sent);
        }
        if sent > 0 && self.rto_deadline.is_none() {
            self.arm_timer(now);
        }
    }

    /// Start sending (the flow's start time).
    pub fn start(&mut self, now: Time, out: &mut Vec<Packet>) {
        self.started_at = Some(now);
        self.send_available(now, out);
    }

    /// The application closes: no new data beyond what was sent; the flow completes when
    /// that is acknowledged (its end time is recorded as for a finite transfer).
    pub fn stop(&mut self, now: Time) {
        if self.completed_at.is_some() {
            return;
        }
        let sent = self.high_tx.max(1);
        self.total_segments = Some(self.total_segments.map_or(sent, |total| total.min(sent)));
        if self.snd_una >= sent {
            self.completed_at = Some(now);
            self.rto_deadline = None;
        }
    }

    fn retransmit_first_unacked(&mut self, now: Time, out: &mut Vec<Packet>) {
        let packet = self.segment(self.snd_una, now);
        out.push(packet);
    }

    /// An ACK arrived (without SACK blocks).
    pub fn on_ack(&mut self, ack: &Packet, now: Time, out: &mut Vec<Packet>) {
        if self.sack {
            self.on_ack_with_sack(ack, &[], now, out);
            return;
        }
        if self.completed_at.is_some() {
            return;
        }
        let ece = self.ecn && ack.has_flag(FLAG_ECE);
        if ack.seq > self.snd_una {
            self.on_new_ack(ack, ece, now, out);
        } else if ack.seq == self.snd_una && self.high_tx > self.snd_una {
            self.on_duplicate_ack(now, out);
        }
    }

    /// The cumulative ACK advanced: move `snd_una`, take the RTT sample; returns the
    /// segments newly acknowledged and the sample.
    fn advance_una(&mut self, ack: &Packet, now: Time) -> (u64, Time) {
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
        self.last_rtt_ns = Some(rtt);
        self.min_rtt_ns = if self.min_rtt_ns == 0 { rtt } else { self.min_rtt_ns.min(rtt) };
        self.stats.rtt_samples += 1;
        self.stats.rtt_sum_ns += rtt as u128;
        (acked, rtt)
    }

    /// New data acknowledged outside loss recovery: the ECN reaction or the window law.
    fn window_on_new_ack(&mut self, acked: u64, delivered: u64, rtt: Time, ece: bool, now: Time) {
        let reacts_once_per_window = ece && !self.cc.ecn_per_ack();
        if self.cwr_in_progress().is_some() && !reacts_once_per_window {
            // RFC 6937 Section 3 on every ACK of a PRR-paced ECN reduction; the window law
            // does not grow meanwhile (Linux's tcp_cong_control: tcp_cwnd_reduction instead
            // of cong_avoid in CWR; ns-3's ProcessAck: DoRecovery in CA_CWR).
            self.cwr_on_ack(delivered, false);
            return;
        }
        if reacts_once_per_window {
            // RFC 3168 Section 6.1.2: react to ECE at most once per window of data, and never
            // increase the window in response to an ECE ACK. The window ends only when a
            // segment sent after the reduction is acknowledged: the receiver echoes ECE on
            // every ACK until the CWR segment reaches it (Section 6.1.3), and the first
            // segment that can carry CWR is `high_tx` at the reduction, so the ACKs up to and
            // including the one of `high_tx - 1` still echo the mark already answered. As
            // Linux's CWR state ("CWR is to be held something *above* high_seq is ACKed for
            // CWR bit to reach receiver", tcp_input.c) and ns-3's (`ackNumber > m_recover`,
            // m_recover = m_highTxMark, TcpSocketBase::ReceivedAck). `docs/packet.md`.
            if self.ecn_recover.is_none_or(|r| self.snd_una > r) {
                let event = self.congestion_event(now);
                self.cc.on_ecn(&event);
                self.ecn_recover = Some(self.high_tx);
                self.send_cwr = true;
                self.stats.ecn_reductions += 1;
                if self.ecn_reduction == EcnReduction::Prr {
                    // RFC 6937 Section 3 "at the beginning of recovery": ssthresh is the
                    // law's window after `on_ecn`, RecoverFS the FlightSize it was given.
                    self.cwr = Some(Prr::start(self.cc.window(), event.in_flight, ReductionBound::SlowStart));
                    self.cwr_on_ack(delivered, true);
                }
            } else if self.cwr.is_some() {
                // An ECE ACK of the window already answered: the reduction goes on.
                self.cwr_on_ack(delivered, false);
            }
        } else {
            if ece {
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
    }

    /// The PRR-paced ECN reduction, if one is in progress: it ends when the cumulative ACK
    /// passes the window that carried the mark (`ecn_recover`), with cwnd = ssthresh, the
    /// law's window since `on_ecn` (Linux's tcp_end_cwnd_reduction; ns-3's CA_CWR -> CA_OPEN).
    fn cwr_in_progress(&mut self) -> Option<&mut Prr> {
        if self.cwr.is_some() && self.ecn_recover.is_none_or(|recover| self.snd_una > recover) {
            self.cwr = None;
        }
        self.cwr.as_mut()
    }

    /// RFC 6937 Section 3 for one ACK of a PRR-paced ECN reduction: `delivered` is its
    /// DeliveredData; the segments it allows go out in `send_available`. `entering`: the ACK
    /// that starts the reduction (with `prr_delivered = ns3` counted as ns-3 does: EnterCwr's
    /// DoRecovery adds a segment as for a duplicate ACK, then ProcessAck's CA_CWR branch
    /// calls DoRecovery again with the same bytes).
    fn cwr_on_ack(&mut self, delivered: u64, entering: bool) {
        let delivered = if entering && self.prr_delivered == PrrDelivered::Ns3 { 2 * delivered + 1 } else { delivered };
        let pipe = self.pipe_for_reduction();
        let Some(prr) = self.cwr.as_mut() else { return };
        if delivered == 0 {
            // Linux's tcp_cwnd_reduction and ns-3's DoRecovery return when nothing was delivered.
            return;
        }
        // Both also send one segment while prr_out is 0 (Linux: `max(sndcnt, prr_out ? 0 : 1)`).
        let floor = u64::from(prr.prr_out() == 0);
        self.cwr_sndcnt = prr.on_ack(delivered, pipe).max(floor);
    }

    /// RFC 6675's pipe outside loss recovery: sent, neither acknowledged nor SACKed.
    fn pipe_for_reduction(&self) -> u64 {
        let flight = self.snd_nxt - self.snd_una;
        if self.sack {
            flight - self.scoreboard.sacked_between(self.snd_una, self.snd_nxt)
        } else {
            flight
        }
    }

    /// The ACK that ended loss recovery (cwnd = ssthresh already): with
    /// `recovery_exit_credit = cumulative`, ns-3's `IncreaseWindow(tcb, segsAcked)` on leaving
    /// `CA_RECOVERY`, every segment the ACK covers counted (`TcpSocketBase::ProcessAck`).
    fn credit_recovery_exit(&mut self, acked: u64, rtt: Time, ece: bool, now: Time) {
        if self.recovery_exit_credit == RecoveryExitCredit::Cumulative {
            self.window_on_new_ack(acked, acked, rtt, ece, now);
        }
    }

    /// A finite (or stopped) transfer is complete once everything is acknowledged.
    fn check_complete(&mut self, now: Time) -> bool {
        if let Some(total) = self.total_segments {
            if self.snd_una >= total {
                self.completed_at = Some(now);
                self.rto_deadline = None;
                return true;
            }
        }
        false
    }

    fn on_new_ack(&mut self, ack: &Packet, ece: bool, now: Time, out: &mut Vec<Packet>) {
        let (acked, rtt) = self.advance_una(ack, now);
        if self.in_recovery {
            let recover = self.recover.unwrap_or(0);
            if ack.seq > recover {
                // RFC 6582 Section 3.2 step 3: full ACK, leave fast recovery with
                // cwnd = ssthresh (the algorithm's window after `on_loss`).
                self.in_recovery = false;
                self.inflation = 0.0;
                self.credit_recovery_exit(acked, rtt, ece, now);
            } else {
                // RFC 6582 Section 3.2 step 4: partial ACK: retransmit the first unacked
                // segment, deflate by the amount acknowledged, add back one segment, and
                // "for the first partial ACK ... also reset the retransmit timer" (Impatient);
                // Slow-but-Steady (Section 4) resets it on every partial ACK.
                self.retransmit_first_unacked(now, out);
                self.inflation = self.inflation - acked as f64 + 1.0;
                if !self.partial_ack_seen || self.partial_ack_timer == PartialAckTimer::SlowButSteady {
                    self.arm_timer(now);
                }
                self.partial_ack_seen = true;
                self.send_available(now, out);
                return;
            }
        } else {
            self.window_on_new_ack(acked, acked, rtt, ece, now);
        }
        if self.check_complete(now) {
            return;
        }
        // RFC 6298 Section 5.2/5.3: stop the timer when all is acked, else restart it.
        self.arm_timer(now);
        self.send_available(now, out);
    }

    fn on_duplicate_ack(&mut self, now: Time, out: &mut Vec<Packet>) {
        self.dupacks += 1;
        if self.in_recovery {
            // RFC 6582 Section 3.2 step 3 (RFC 5681 step 4): inflate by one segment.
            self.inflation += 1.0;
            self.send_available(now, out);
            return;
        }
        if self.dupacks < self.dupack_threshold {
            if self.cwr_in_progress().is_some() {
                // A PRR-paced ECN reduction: without SACK a duplicate ACK delivers one
                // segment (RFC 6937 Section 3's estimate; Linux counts it in sacked_out).
                self.cwr_on_ack(1, false);
                self.send_available(now, out);
                return;
            }
            if self.limited_transmit {
                // RFC 3042 Section 2: on each of the first two duplicate ACKs send one new
                // segment if the flight stays within cwnd + 2; cwnd itself is unchanged.
                let allowed = self.usable_window() + u64::from(self.dupacks.min(2));
                if self.snd_nxt - self.snd_una < allowed && self.has_data(self.snd_nxt) && self.snd_nxt == self.high_tx
                {
                    let packet = self.segment(self.snd_nxt, now);
                    out.push(packet);
                    self.snd_nxt += 1;
                    self.high_tx = self.snd_nxt;
                    self.limited_transmit_sent += 1;
                }
            }
            return;
        }
        if self.dupacks != self.dupack_threshold {
            return;
        }
        // RFC 6582 Section 3.2 step 1: only a loss in new data starts a new episode.
        if self.recover.is_some_and(|recover| self.snd_una <= recover) {
            return;
        }
        self.recover = Some(self.high_tx - 1);
        let mut event = self.congestion_event(now);
        // RFC 5681 Section 3.2 step 2: "When [RFC3042] is in use, additional data sent in
        // limited transmit MUST NOT be included in this calculation" (of FlightSize).
        event.in_flight = event.in_flight.saturating_sub(self.limited_transmit_sent);
        self.stats.fast_recoveries += 1;
        match self.recovery_mode {
            Recovery::NewReno => {
                // RFC 6582 Section 3.2 step 2: ssthresh = FlightSize/2, retransmit,
                // cwnd = ssthresh + 3 segments. A loss in the window of a PRR-paced ECN
                // reduction continues it (RFC 3168 Section 6.1.2: one reduction per window).
                if self.cwr_in_progress().is_none() {
                    self.cc.on_loss(&event);
                }
                self.cwr = None;
                self.in_recovery = true;
                self.partial_ack_seen = false;
                self.inflation = self.dupack_threshold as f64;
                self.retransmit_first_unacked(now, out);
                self.arm_timer(now);
                self.send_available(now, out);
            }
            Recovery::Tahoe => {
                // Tahoe: fast retransmit, then slow start from one segment (go-back-N).
                self.cc.on_rto(&event);
                self.cwr = None;
                self.snd_nxt = self.snd_una;
                self.arm_timer(now);
                self.send_available(now, out);
            }
        }
    }

    // ---- SACK-based loss recovery (RFC 6675) ----

    /// An ACK arrived carrying these SACK blocks (RFC 2018). A sender without `sack`
    /// ignores the option.
    pub fn on_ack_with_sack(&mut self, ack: &Packet, blocks: &[SackBlock], now: Time, out: &mut Vec<Packet>) {
        if !self.sack {
            self.on_ack(ack, now, out);
            return;
        }
        if self.completed_at.is_some() || ack.seq < self.snd_una {
            return;
        }
        let ece = self.ecn && ack.has_flag(FLAG_ECE);
        let d = self.dupack_threshold;
        let prr = self.sack_recovery == SackRecovery::Prr;
        let (una_before, sacked_before) = (self.snd_una, self.sacked_outstanding());
        // RFC 6675 Section 5: every ACK updates the scoreboard (Update(), Section 4). An ACK
        // that SACKs new data is a duplicate ACK (Section 2), even if it also advances the
        // cumulative ACK.
        let newly_sacked = self.scoreboard.update(blocks, ack.seq, self.high_tx);
        if ack.seq > self.snd_una {
            self.scoreboard.advance(ack.seq);
            // RFC 6675 Section 5: a cumulative ACK resets DupAcks (in `advance_una`).
            let (acked, rtt) = self.advance_una(ack, now);
            if self.in_recovery {
                if self.recover.is_some_and(|recover| ack.seq > recover) {
                    // RFC 6675 Section 5 (A): a cumulative ACK beyond RecoveryPoint ends loss
                    // recovery; cwnd is the ssthresh set on entry (step 4.2; RFC 6937 Section
                    // 3 ends PRR with cwnd = ssthresh too). The scoreboard above HighACK is kept.
                    self.in_recovery = false;
                    self.prr = None;
                    self.credit_recovery_exit(acked, rtt, ece, now);
                }
            } else {
                // RFC 6937 Section 3: DeliveredData = change_in(snd.una) + change_in(SACKd).
                let delivered = (self.snd_una - una_before + self.sacked_outstanding()).saturating_sub(sacked_before);
                self.window_on_new_ack(acked, delivered, rtt, ece, now);
            }
            if self.check_complete(now) {
                return;
            }
            // RFC 6298 Section 5.2/5.3: restart the timer (stop it when all is acknowledged).
            self.arm_timer(now);
        }
        // RFC 6937 Section 3: DeliveredData = change_in(snd.una) + change_in(SACKd).
        // (Only PRR and a PRR-paced ECN reduction use it.)
        let delivered_data = if prr || self.cwr.is_some() {
            (self.snd_una - una_before + self.sacked_outstanding()).saturating_sub(sacked_before)
        } else {
            0
        };
        let mut delivered = if prr { delivered_data } else { 0 };
        if prr && self.prr_delivered == PrrDelivered::Ns3 && newly_sacked > 0 {
            delivered = self.ns3_prr_delivered(delivered, self.snd_una > una_before);
        }
        if self.in_recovery {
            if self.snd_una > una_before && self.partial_ack_retransmit == PartialAckRetransmit::Ns3 {
                self.ns3_partial_ack_retransmit(now, out);
            }
            // RFC 6675 Section 5 (B)-(C): SetPipe(), then send while cwnd - pipe >= 1 SMSS
            // (or, with PRR, the sndcnt of RFC 6937 Section 3).
            self.sack_transmit(now, out, delivered);
            return;
        }
        if newly_sacked > 0 && self.high_tx > self.snd_una {
            self.dupacks += 1;
            // RFC 6675 Section 5 steps (1)-(2): DupAcks >= DupThresh, or IsLost(HighACK + 1)
            // (DupThresh segments SACKed above the cumulative ACK): enter loss recovery.
            if (self.dupacks >= d || self.scoreboard.is_lost(self.snd_una, d))
                && self.sack_enter_recovery(now, out, delivered)
            {
                return;
            }
            if self.cwr_in_progress().is_some() {
                // A PRR-paced ECN reduction paces what this duplicate ACK delivered (Linux's
                // CWR state takes precedence over its Disorder state's limited transmit).
                if self.snd_una == una_before {
                    self.cwr_on_ack(delivered_data, false);
                }
            } else if self.limited_transmit && self.recover.is_none_or(|recover| self.snd_una > recover) {
                // RFC 6675 Section 5 step (3): Limited Transmit governed by pipe.
                self.sack_limited_transmit(now, out);
                return;
            }
        }
        self.send_available(now, out);
    }

    /// `prr_delivered = ns3`: the DeliveredData ns-3 3.44's `TcpPrrRecovery::DoRecovery` ends
    /// up adding for an ACK that SACKs new data, from RFC 6937's `delivered`. ns-3 treats it as
    /// a duplicate ACK and adds one segment while prr_delivered < RecoverFS (RFC 6937 Section 3
    /// estimates DeliveredData as 1 MSS per duplicate ACK only when SACK is not in use; ns-3
    /// adds it to the SACKed bytes, including on the ACK that starts recovery), and when the
    /// ACK also advances snd.una it calls `DoRecovery` a second time with the same bytes
    /// (`TcpSocketBase::DupAck`, then `ProcessAck`'s partial-ACK branch). Docs: docs/sack.md.
    fn ns3_prr_delivered(&self, delivered: u64, advanced_una: bool) -> u64 {
        let Some(prr) = self.prr.as_ref().filter(|_| self.in_recovery) else {
            // The ACK that starts recovery: EnterRecovery -> DoRecovery(delivered, isDupAck).
            return delivered + 1;
        };
        let dupack_segment = u64::from(prr.prr_delivered() < prr.recover_fs());
        let second_call = if advanced_una { delivered } else { 0 };
        delivered + dupack_segment + second_call
    }

    /// `partial_ack_retransmit = ns3`: ns-3 3.44's `ProcessAck` on a partial ACK in recovery.
    /// Unless the new head was retransmitted already (here: it lies below HighRxt + 1),
    /// `DoRetransmit()` resends the first segment marked lost and not yet retransmitted
    /// (NextSeg() rule (1)), or else the head, whatever cwnd − pipe allows; PRR counts it as
    /// sent (`TcpPrrRecovery::UpdateBytesSent`).
    fn ns3_partial_ack_retransmit(&mut self, now: Time, out: &mut Vec<Packet>) {
        if self.snd_una < self.rxt_next || self.snd_una >= self.high_tx {
            return;
        }
        let seq = match self.scoreboard.next_seg(&self.sack_send_state(), self.dupack_threshold) {
            Some(NextSeg::Lost(seq)) => seq,
            _ => self.snd_una,
        };
        let packet = self.segment(seq, now);
        out.push(packet);
        self.rxt_next = self.rxt_next.max(seq + 1);
        if let Some(prr) = self.prr.as_mut() {
            prr.on_sent(1);
        }
    }

    /// SACKed segments above the cumulative ACK (RFC 6937's "SACKd").
    fn sacked_outstanding(&self) -> u64 {
        self.scoreboard.sacked_between(self.snd_una, u64::MAX)
    }

    /// FlightSize for a SACK sender's retransmission timeout: what is still in the network
    /// by RFC 6675's accounting, not snd_nxt − snd_una. In recovery it is SetPipe()'s pipe
    /// (Section 4: SACKed and lost segments are not in flight, retransmitted ones are);
    /// otherwise the segments below snd_nxt neither acknowledged nor SACKed (after a timeout
    /// the go-back-N restarts snd_nxt at snd_una and what was sent before is presumed lost,
    /// as ns-3's `SetSentListLost`). Why: `docs/sack.md`, "Timeouts inside recovery".
    fn sack_flight_size(&self) -> u64 {
        if self.in_recovery {
            self.scoreboard.pipe(self.snd_una, self.high_tx, self.rxt_next, self.dupack_threshold)
        } else {
            (self.snd_nxt - self.snd_una) - self.scoreboard.sacked_between(self.snd_una, self.snd_nxt)
        }
    }

    /// What NextSeg() needs besides the scoreboard (rule (2) checks the receiver's window).
    fn sack_send_state(&self) -> SendState {
        SendState {
            snd_una: self.snd_una,
            high_tx: self.high_tx,
            rxt_next: self.rxt_next,
            new_data_allowed: self.has_data(self.high_tx)
                && ((self.high_tx - self.snd_una) as f64) < self.max_window.floor(),
            // Rule (4): HighACK > RescueRxt, HighACK being the last acknowledged segment.
            rescue_allowed: self.rescue_rxt.is_none_or(|rescue| self.snd_una > rescue + 1),
            recovery_end: self.recover.map_or(self.high_tx, |recover| recover + 1),
        }
    }

    /// RFC 6675 Section 5 step (4): fast retransmit and enter loss recovery. Returns false
    /// when RFC 6675 Section 5.1 forbids a new recovery (after a timeout, until HighACK
    /// reaches the RecoveryPoint it set).
    fn sack_enter_recovery(&mut self, now: Time, out: &mut Vec<Packet>, delivered: u64) -> bool {
        if self.recover.is_some_and(|recover| self.snd_una <= recover) {
            return false;
        }
        // (4.1) RecoveryPoint = HighData.
        self.recover = Some(self.high_tx - 1);
        self.stats.fast_recoveries += 1;
        // (4.2) ssthresh = cwnd = FlightSize / 2 (RFC 5681 eq. (4)) — here the algorithm's
        // own multiplicative decrease (Reno halves; CUBIC, HighSpeed... use theirs).
        let mut event = self.congestion_event(now);
        if self.loss_flight_size == LossFlightSize::Pipe {
            // ns-3's EnterRecovery: GetSsThresh(tcb, BytesInFlight()), its RFC 6675 pipe
            // before the fast retransmit (SACKed and lost segments not in flight).
            event.in_flight = self.scoreboard.pipe(self.snd_una, self.high_tx, self.snd_una, self.dupack_threshold);
        }
        // RFC 6937 Section 3: RecoverFS = snd.nxt - snd.una (or ns-3's pipe, as above).
        let recover_fs = event.in_flight;
        if self.loss_flight_size == LossFlightSize::Rfc5681 {
            // RFC 6675 (4.2): "[RFC5681] requires that any segments sent as part of the Limited
            // Transmit mechanism not be counted in FlightSize for the purpose of the above
            // equation" (RFC 5681 Section 3.2 step 2). ns-3's pipe counts them (`Pipe`).
            event.in_flight = event.in_flight.saturating_sub(self.limited_transmit_sent);
        }
        // A loss in the window of a PRR-paced ECN reduction continues that reduction, its
        // ssthresh and PRR counters, instead of starting another (RFC 3168 Section 6.1.2:
        // one reduction per window; Linux's tcp_enter_recovery from CWR).
        let reduction = self.cwr_in_progress().is_some().then(|| self.cwr.take()).flatten();
        if reduction.is_none() {
            self.cc.on_loss(&event);
        }
        self.in_recovery = true;
        self.inflation = 0.0;
        let sndcnt = (self.sack_recovery == SackRecovery::Prr).then(|| {
            // RFC 6937 Section 3, at the beginning of recovery: ssthresh = CongCtrlAlg() (the
            // window the algorithm set in (4.2)), prr_delivered = prr_out = 0,
            // RecoverFS = snd.nxt - snd.una ("FlightSize at the start of recovery": the
            // FlightSize of (4.2), pipe with `loss_flight_size = pipe` as ns-3's
            // TcpPrrRecovery); then this ACK's DeliveredData and pipe.
            let mut prr =
                reduction.unwrap_or_else(|| Prr::start(self.cc.window(), recover_fs, ReductionBound::SlowStart));
            let pipe = self.scoreboard.pipe(self.snd_una, self.high_tx, self.snd_una, self.dupack_threshold);
            // The fast retransmit (4.3) goes out even if sndcnt is 0 (Linux's
            // tcp_cwnd_reduction: `sndcnt = max(sndcnt, (tp->prr_out ? 0 : 1))`; ns-3's
            // TcpPrrRecovery: "Force a fast retransmit upon entering fast recovery").
            let sndcnt = prr.on_ack(delivered, pipe).max(1);
            prr.on_sent(1);
            self.prr = Some(prr);
            sndcnt - 1
        });
        // (4.3) Retransmit HighACK + 1; HighRxt = RescueRxt = that segment.
        let packet = self.segment(self.snd_una, now);
        out.push(packet);
        self.rxt_next = self.snd_una + 1;
        self.rescue_rxt = Some(self.snd_una);
        self.arm_timer(now);
        // (4.4) SetPipe() and (4.5) proceed to step (C).
        let pipe = self.scoreboard.pipe(self.snd_una, self.high_tx, self.rxt_next, self.dupack_threshold);
        self.send_next_segments(now, out, pipe, sndcnt);
        true
    }

    /// RFC 6675 Section 5 (B.2) and (C): pipe from SetPipe(), then send what NextSeg()
    /// returns while cwnd - pipe >= 1 SMSS, or with PRR the sndcnt of RFC 6937 Section 3
    /// (`delivered` is this ACK's DeliveredData).
    fn sack_transmit(&mut self, now: Time, out: &mut Vec<Packet>, delivered: u64) {
        let pipe = self.scoreboard.pipe(self.snd_una, self.high_tx, self.rxt_next, self.dupack_threshold);
        let sndcnt = self.prr.as_mut().map(|prr| prr.on_ack(delivered, pipe));
        self.send_next_segments(now, out, pipe, sndcnt);
    }

    /// RFC 6675 Section 5 (C): send what NextSeg() returns while cwnd - pipe >= 1 SMSS, or
    /// at most `sndcnt` segments when PRR decides (RFC 6937: "prr_out += (data sent)").
    fn send_next_segments(&mut self, now: Time, out: &mut Vec<Packet>, mut pipe: u64, mut sndcnt: Option<u64>) {
        let d = self.dupack_threshold;
        let cwnd = self.cc.window();
        let mut sent = false;
        loop {
            match sndcnt {
                Some(0) => break,
                Some(_) => {}
                // (C), (C.5): cwnd - pipe >= 1 SMSS.
                None if cwnd - (pipe as f64) < 1.0 => break,
                None => {}
            }
            // (C.1) NextSeg(); failure ends the loop.
            let Some(next) = self.scoreboard.next_seg(&self.sack_send_state(), d) else {
                break;
            };
            match next {
                NextSeg::Lost(seq) | NextSeg::Unsacked(seq) => {
                    let packet = self.segment(seq, now);
                    out.push(packet);
                    // (C.2) HighRxt = the highest segment retransmitted.
                    self.rxt_next = seq + 1;
                }
                NextSeg::New(seq) => {
                    let packet = self.segment(seq, now);
                    out.push(packet);
                    // (C.3) HighData advances.
                    self.high_tx = seq + 1;
                    self.snd_nxt = self.high_tx;
                }
                NextSeg::Rescue(seq) => {
                    let packet = self.segment(seq, now);
                    out.push(packet);
                    // Rule (4): RescueRxt = RecoveryPoint; HighRxt is not updated.
                    self.rescue_rxt = self.recover;
                }
            }
            // (C.4) pipe grows by the segment sent.
            pipe += 1;
            if let Some(count) = sndcnt.as_mut() {
                *count -= 1;
            }
            if let Some(prr) = self.prr.as_mut() {
                prr.on_sent(1);
            }
            sent = true;
        }
        if sent && self.rto_deadline.is_none() {
            self.arm_timer(now);
        }
    }

    /// RFC 6675 Section 5 step (3): (3.1) HighRxt = HighACK, (3.2) SetPipe(), (3.3) send new
    /// data while cwnd - pipe >= 1 SMSS and the receiver's window allows.
    fn sack_limited_transmit(&mut self, now: Time, out: &mut Vec<Packet>) {
        if self.snd_nxt != self.high_tx {
            return;
        }
        self.rxt_next = self.snd_una;
        let cwnd = self.cc.window();
        let mut pipe = self.scoreboard.pipe(self.snd_una, self.high_tx, self.rxt_next, self.dupack_threshold);
        while cwnd - pipe as f64 >= 1.0 && self.sack_send_state().new_data_allowed {
            let packet = self.segment(self.high_tx, now);
            out.push(packet);
            self.high_tx += 1;
            self.snd_nxt = self.high_tx;
            self.limited_transmit_sent += 1;
            pipe += 1;
        }
    }

    /// After a timeout the sender goes back to `snd_una`; RFC 6675 Section 5.1 leaves the
    /// choice of what to send open and suggests "filling in" the sequence space reported
    /// missing: go-back-N that skips the segments SACKed since the timeout. Segments SACKed
    /// do not count as in flight.
    fn send_filling_holes(&mut self, now: Time, out: &mut Vec<Packet>) {
        let window = self.usable_window();
        let mut flight = (self.snd_nxt - self.snd_una) - self.scoreboard.sacked_between(self.snd_una, self.snd_nxt);
        let mut sent_any = false;
        while flight < window && self.has_data(self.snd_nxt) {
            if self.snd_nxt < self.high_tx && self.scoreboard.is_sacked(self.snd_nxt) {
                self.snd_nxt = self.scoreboard.first_unsacked_from(self.snd_nxt);
                continue;
            }
            let packet = self.segment(self.snd_nxt, now);
            out.push(packet);
            self.snd_nxt += 1;
            self.high_tx = self.high_tx.max(self.snd_nxt);
            flight += 1;
            sent_any = true;
        }
        if sent_any && self.rto_deadline.is_none() {
            self.arm_timer(now);
        }
    }

    /// The timer event fired at `now`; returns true if it was a retransmission timeout.
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<Packet>) -> bool {
        match self.rto_deadline {
            Some(deadline) if deadline <= now => {}
            _ => return false,
        }
        // RFC 6298 Section 5.4-5.6: retransmit the earliest unacknowledged segment, back off
        // the timer and restart it. RFC 5681 eq. (4): ssthresh = FlightSize/2, cwnd = 1.
        self.stats.timeouts += 1;
        let mut event = self.congestion_event(now);
        if self.sack {
            // RFC 5681 Section 3.1 sets ssthresh to "no more than" max(FlightSize/2, 2 SMSS).
            // With SACK, snd_nxt - snd_una counts everything SACKed since the loss: after a
            // long recovery it was several times the flight, and the timeout raised ssthresh
            // far above the recovery's (issue 15). RFC 6675's pipe is what is in the network
            // (as ns-3's ReTxTimeout: GetSsThresh(tcb, BytesInFlight())).
            event.in_flight = self.sack_flight_size();
        }
        self.cc.on_rto(&event);
        self.rto.back_off();
        // RFC 6582 Section 3.2 step 1 and Section 4: after a timeout, `recover` = highest sent.
        self.recover = Some(self.high_tx.saturating_sub(1));
        self.in_recovery = false;
        self.inflation = 0.0;
        self.dupacks = 0;
        self.limited_transmit_sent = 0;
        // A timeout ends a PRR-paced ECN reduction too (Linux's tcp_enter_loss leaves CWR).
        self.cwr = None;
        if self.sack {
            // RFC 2018 Section 5 ("the data sender SHOULD turn off all of the SACKed bits,
            // since the timeout might indicate that the data receiver has reneged") and
            // RFC 6675 Section 5.1: expunge the scoreboard and end SACK recovery; the
            // RecoveryPoint (`recover` above) blocks a new recovery until it is acknowledged.
            self.scoreboard.clear();
            self.rxt_next = 0;
            self.rescue_rxt = None;
            self.prr = None;
        }
        // Go-back-N from the first unacknowledged segment (as ns-2 does).
        self.snd_nxt = self.snd_una;
        self.rto_deadline = None;
        self.send_available(now, out);
        self.arm_timer(now);
        true
    }
}

#[cfg(test)]
#[path = "sender_recovery_tests.rs"]
mod recovery_tests;

#[cfg(test)]
#[path = "sender_ecn_tests.rs"]
mod ecn_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    const MS: Time = 1_000_000;

    pub(super) fn ack(seq: u64, echo: Time) -> Packet {
        Packet {
            flow: 0,
            kind: PacketKind::Ack,
            ecn: Ecn::NotEct,
            flags: 0,
            hop: 0,
            route: 1,
            size_bytes: 40,
            seq,
            timestamp: echo,
            enqueued_at: 0,
            sack: 0,
        }
    }

    pub(super) fn seqs(out: &[Packet]) -> Vec<u64> {
        out.iter().map(|p| p.seq).collect()
    }

    #[test]
    fn slow_start_sends_initial_window_then_two_per_ack() {
        let mut tx = TcpSender::new(0, 0, &TcpConfig::default(), None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        assert_eq!(seqs(&out), vec![0, 1]);
        out.clear();
        tx.on_ack(&ack(1, 0), 100 * MS, &mut out);
        assert_eq!(seqs(&out), vec![2, 3]);
        assert_eq!(tx.rto_deadline, Some(100 * MS + 300 * MS));
    }

    fn sender_in_congestion_avoidance(window: f64) -> (TcpSender, Vec<Packet>) {
        let config = TcpConfig { initial_window: window, initial_ssthresh: window, ..TcpConfig::default() };
        let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        (tx, out)
    }

    #[test]
    fn newreno_fast_retransmit_recovery_and_partial_acks() {
        let (mut tx, mut out) = sender_in_congestion_avoidance(10.0);
        assert_eq!(out.len(), 10);
        out.clear();
        // segments 0 and 3 lost: ACKs of 1, 2 duplicate at 0... segment 0 lost: dupacks
        for _ in 0..3 {
            tx.on_ack(&ack(0, 0), 50 * MS, &mut out);
        }
        assert_eq!(seqs(&out), vec![0], "fast retransmit of segment 0");
        assert_eq!(tx.ssthresh(), 5.0);
        out.clear();
        // more dupacks inflate: window = 5 + 3 + k; in flight 10 -> new data after 3 more
        for _ in 0..5 {
            tx.on_ack(&ack(0, 0), 51 * MS, &mut out);
        }
        assert_eq!(seqs(&out), vec![10, 11, 12]);
        out.clear();
        // partial ACK up to 3 (segment 3 also lost): retransmit 3
        tx.on_ack(&ack(3, 50 * MS), 100 * MS, &mut out);
        assert_eq!(out[0].seq, 3);
        assert!(out[0].has_flag(FLAG_RETRANSMIT));
        out.clear();
        // full ACK (beyond recover = 9): exit recovery with cwnd = ssthresh = 5
        tx.on_ack(&ack(13, 100 * MS), 150 * MS, &mut out);
        assert_eq!(tx.cwnd(), 5.0);
        assert_eq!(seqs(&out), vec![14, 15, 16, 17]);
        assert_eq!(tx.in_flight(), 5);
        assert_eq!(tx.stats.fast_recoveries, 1);
        assert_eq!(tx.stats.retransmits, 2);
    }

    /// RFC 6582 Section 3.2 step 4 / Section 4: the Impatient variant restarts the timer on
    /// the first partial ACK only; Slow-but-Steady on every one.
    #[test]
    fn partial_ack_timer_impatient_against_slow_but_steady() {
        for (variant, second_partial_moves_deadline) in
            [(PartialAckTimer::Impatient, false), (PartialAckTimer::SlowButSteady, true)]
        {
            let config = TcpConfig {
                initial_window: 10.0,
                initial_ssthresh: 10.0,
                partial_ack_timer: variant,
                ..TcpConfig::default()
            };
            let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
            let mut out = Vec::new();
            tx.start(0, &mut out);
            // segments 0, 3 and 6 lost
            for _ in 0..3 {
                tx.on_ack(&ack(0, 0), 50 * MS, &mut out);
            }
            tx.on_ack(&ack(3, 50 * MS), 100 * MS, &mut out);
            let after_first = tx.rto_deadline.unwrap();
            assert!(after_first > 100 * MS, "{variant:?}: the first partial ACK restarts the timer");
            tx.on_ack(&ack(6, 100 * MS), 160 * MS, &mut out);
            let after_second = tx.rto_deadline.unwrap();
            assert_eq!(after_second != after_first, second_partial_moves_deadline, "{variant:?}");
            assert_eq!(tx.stats.fast_recoveries, 1);
        }
    }

    #[test]
    fn tahoe_restarts_from_one_segment() {
        let config =
            TcpConfig { initial_window: 8.0, initial_ssthresh: 8.0, recovery: Recovery::Tahoe, ..TcpConfig::default() };
        let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        out.clear();
        for _ in 0..3 {
            tx.on_ack(&ack(0, 0), 10 * MS, &mut out);
        }
        assert_eq!(seqs(&out), vec![0]);
        assert_eq!((tx.cwnd(), tx.ssthresh()), (1.0, 4.0));
    }

    #[test]
    fn timeout_backs_off_and_goes_back_n() {
        let (mut tx, mut out) = sender_in_congestion_avoidance(4.0);
        out.clear();
        let deadline = tx.rto_deadline.unwrap();
        assert_eq!(deadline, 1000 * MS, "initial RTO 1 s");
        assert!(!tx.on_timer(deadline - 1, &mut out));
        assert!(tx.on_timer(deadline, &mut out));
        assert_eq!(seqs(&out), vec![0]);
        assert_eq!(tx.rto_deadline, Some(deadline + 2000 * MS), "backed off to 2 s");
        assert_eq!(tx.stats.timeouts, 1);
        assert_eq!(tx.cwnd(), 1.0);
    }

    #[test]
    fn ecn_echo_halves_once_per_window_and_sets_cwr() {
        let config = TcpConfig { ecn: true, initial_window: 10.0, initial_ssthresh: 10.0, ..TcpConfig::default() };
        let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        assert!(out.iter().all(|p| p.ecn == Ecn::Ect));
        out.clear();
        let mut echo = ack(1, 0);
        echo.flags = FLAG_ECE;
        tx.on_ack(&echo, 10 * MS, &mut out);
        // FlightSize after this ACK is 9 segments: ssthresh = cwnd = 4.5 (RFC 5681 eq. (4)).
        assert_eq!(tx.cwnd(), 4.5);
        let mut echo2 = ack(2, 0);
        echo2.flags = FLAG_ECE;
        tx.on_ack(&echo2, 11 * MS, &mut out);
        assert_eq!(tx.cwnd(), 4.5, "second ECE in the same window ignored");
        assert_eq!(tx.stats.ecn_reductions, 1);
        // next new segment carries CWR
        out.clear();
        tx.on_ack(&ack(8, 0), 12 * MS, &mut out);
        assert!(out.first().is_some_and(|p| p.has_flag(FLAG_CWR)));
    }

    #[test]
    fn per_ack_laws_see_every_marked_ack_and_need_per_packet_echo() {
        use crate::tcp::cc::{aimd::AimdConfig, CcConfig};
        let config = TcpConfig {
            cc: CcConfig::Aimd(AimdConfig::default()),
            ecn: true,
            initial_window: 10.0,
            initial_ssthresh: 10.0,
            ..TcpConfig::default()
        };
        let err = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "g.tcp").err().unwrap();
        assert!(err.to_string().contains("g.tcp.ecn_echo"), "{err}");
        let config = TcpConfig { ecn_echo: EcnEcho::PerPacket, ..config };
        let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        // two marked ACKs in the same window: two halvings (b·w per marked ACK), no CWR
        for seq in [1, 2] {
            let mut echo = ack(seq, 0);
            echo.flags = FLAG_ECE;
            tx.on_ack(&echo, 10 * MS, &mut out);
        }
        assert_eq!(tx.cwnd(), 2.5);
        assert_eq!(tx.stats.ecn_reductions, 2);
        assert!(out.iter().all(|p| !p.has_flag(FLAG_CWR)));
    }

    #[test]
    fn finite_transfer_completes() {
        let mut tx =
            TcpSender::new(0, 0, &TcpConfig::default(), Some(3000), stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        assert_eq!(seqs(&out), vec![0, 1]);
        assert_eq!(out[1].size_bytes, 1500);
        out.clear();
        tx.on_ack(&ack(2, 0), 10 * MS, &mut out);
        assert_eq!(seqs(&out), vec![2]);
        assert_eq!(out[0].size_bytes, 3000 - 2 * 1460 + 40);
        tx.on_ack(&ack(3, 10 * MS), 20 * MS, &mut out);
        assert_eq!(tx.completed_at, Some(20 * MS));
        assert_eq!(tx.rto_deadline, None);
    }

    /// A tiny network for hand-fed ACK tests: data and ACKs take `ONE_WAY` each (no
    /// serialisation); the first transmission of each segment in `drops` is lost. Returns
    /// every data transmission as (time, seq, retransmission).
    pub(super) const ONE_WAY: Time = 50 * MS;

    fn run_lossy(tx: &mut TcpSender, config: &TcpConfig, drops: &[u64], until: Time) -> Vec<(Time, u64, bool)> {
        run_scripted(tx, config, drops, &[], until)
    }

    /// `run_lossy` that also marks CE (RFC 3168) on the first transmission of each segment
    /// in `marks`; the receiver is the engine's, so ECE follows RFC 3168 Section 6.1.3.
    pub(super) fn run_scripted(
        tx: &mut TcpSender,
        config: &TcpConfig,
        drops: &[u64],
        marks: &[u64],
        until: Time,
    ) -> Vec<(Time, u64, bool)> {
        let mut rx = crate::tcp::receiver::TcpReceiver::new(0, 1, config, None);
        let mut wire: Vec<(Time, u64, Packet)> = Vec::new();
        let mut order = 0u64;
        let mut log = Vec::new();
        let mut dropped: Vec<u64> = Vec::new();
        let mut marked: Vec<u64> = Vec::new();
        let mut out = Vec::new();
        let mut send = |now: Time,
                        out: &mut Vec<Packet>,
                        wire: &mut Vec<(Time, u64, Packet)>,
                        log: &mut Vec<(Time, u64, bool)>,
                        dropped: &mut Vec<u64>| {
            for mut p in out.drain(..) {
                if p.kind == PacketKind::Data {
                    log.push((now, p.seq, p.has_flag(FLAG_RETRANSMIT)));
                    if drops.contains(&p.seq) && !dropped.contains(&p.seq) {
                        dropped.push(p.seq);
                        continue;
                    }
                    if marks.contains(&p.seq) && !marked.contains(&p.seq) && p.ecn == Ecn::Ect {
                        marked.push(p.seq);
                        p.ecn = Ecn::Ce;
                    }
                }
                order += 1;
                wire.push((now + ONE_WAY, order, p));
            }
        };
        tx.start(0, &mut out);
        send(0, &mut out, &mut wire, &mut log, &mut dropped);
        loop {
            let next = wire.iter().enumerate().min_by_key(|(_, (t, o, _))| (*t, *o)).map(|(i, (t, _, _))| (i, *t));
            let timer = tx.rto_deadline;
            match (next, timer) {
                (_, Some(deadline)) if next.is_none_or(|(_, t)| deadline < t) => {
                    if deadline > until {
                        break;
                    }
                    tx.on_timer(deadline, &mut out);
                    send(deadline, &mut out, &mut wire, &mut log, &mut dropped);
                }
                (Some((i, t)), _) => {
                    if t > until {
                        break;
                    }
                    let (_, _, p) = wire.remove(i);
                    match p.kind {
                        PacketKind::Data => rx.on_data(&p, t, &mut out),
                        _ if p.sack != 0 => {
                            let blocks = rx.sack_store.take(p.sack).unwrap_or_default();
                            tx.on_ack_with_sack(&p, blocks.as_slice(), t, &mut out);
                        }
                        _ => tx.on_ack(&p, t, &mut out),
                    }
                    send(t, &mut out, &mut wire, &mut log, &mut dropped);
                }
                (None, _) => break,
            }
        }
        log
    }

    pub(super) fn retransmissions(log: &[(Time, u64, bool)]) -> Vec<(Time, u64)> {
        log.iter().filter(|(_, _, rtx)| *rtx).map(|&(t, seq, _)| (t, seq)).collect()
    }

    fn window_of_20(sack: bool) -> (TcpSender, TcpConfig) {
        let config =
            TcpConfig { sack, initial_window: 20.0, initial_ssthresh: 20.0, max_window: 20.0, ..TcpConfig::default() };
        let tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        (tx, config)
    }

    #[test]
    fn three_losses_in_one_window_sack_repairs_all_within_one_rtt() {
        // A window of 20 segments (receiver window 20, so the flight stays 20); segments
        // 2, 5 and 9 of the first window are lost.
        let (mut tx, config) = window_of_20(true);
        let log = run_lossy(&mut tx, &config, &[2, 5, 9], 1_000 * MS);
        let rtx = retransmissions(&log);
        assert_eq!(rtx.iter().map(|r| r.1).collect::<Vec<_>>(), vec![2, 5, 9]);
        let rtt = 2 * ONE_WAY;
        let first = rtx[0].0;
        // Fast retransmit on the third SACKed segment above snd_una (ACK of segment 6).
        assert_eq!(first, rtt, "the ACKs of 3, 4, 6 arrive one RTT after the burst");
        assert!(rtx.iter().all(|&(t, _)| t < first + rtt), "all holes repaired within one RTT: {rtx:?}");
        assert_eq!((tx.stats.fast_recoveries, tx.stats.timeouts, tx.stats.retransmits), (1, 0, 3));
        // RFC 6675 step (4.2): cwnd = ssthresh = FlightSize/2 (Reno's decrease), then
        // congestion avoidance after recovery.
        assert_eq!(tx.ssthresh(), 10.0);
        assert!(tx.cwnd() > 10.0 && tx.cwnd() < 20.0, "cwnd {}", tx.cwnd());
        assert!(!tx.in_recovery && tx.snd_una > 40);
    }

    #[test]
    fn three_losses_in_one_window_newreno_repairs_one_per_rtt() {
        let (mut tx, config) = window_of_20(false);
        let log = run_lossy(&mut tx, &config, &[2, 5, 9], 1_000 * MS);
        let rtx = retransmissions(&log);
        assert_eq!(rtx.iter().map(|r| r.1).collect::<Vec<_>>(), vec![2, 5, 9]);
        let rtt = 2 * ONE_WAY;
        // RFC 6582: each partial ACK reveals the next hole one RTT later.
        assert_eq!(rtx[0].0, rtt, "third duplicate ACK (of segment 6) one RTT after the burst");
        assert_eq!(rtx[1].0 - rtx[0].0, rtt);
        assert_eq!(rtx[2].0 - rtx[1].0, rtt);
        assert_eq!((tx.stats.fast_recoveries, tx.stats.timeouts, tx.stats.retransmits), (1, 0, 3));
    }

    #[test]
    fn sack_recovery_sends_while_cwnd_minus_pipe_allows() {
        // The same loss pattern fed by hand: ACKs of 0, 1 and then of 3, 4, 6 with SACK.
        let (mut tx, _) = window_of_20(true);
        let mut out = Vec::new();
        tx.start(0, &mut out);
        out.clear();
        let sacked = |tx: &mut TcpSender, blocks: &[(u64, u64)], out: &mut Vec<Packet>| {
            let blocks: Vec<SackBlock> = blocks.iter().map(|&(a, b)| SackBlock::new(a, b)).collect();
            tx.on_ack_with_sack(&ack(2, 0), &blocks, 100 * MS, out);
        };
        tx.on_ack_with_sack(&ack(1, 0), &[], 100 * MS, &mut out);
        tx.on_ack_with_sack(&ack(2, 0), &[], 100 * MS, &mut out);
        // Receiver window 20: segments 20, 21 went out on the two new ACKs.
        assert_eq!(seqs(&out), vec![20, 21]);
        out.clear();
        sacked(&mut tx, &[(3, 4)], &mut out);
        sacked(&mut tx, &[(3, 5)], &mut out);
        assert!(out.is_empty() && !tx.in_recovery, "two SACKed segments: not yet lost");
        sacked(&mut tx, &[(6, 7), (3, 5)], &mut out);
        // DupThresh-th SACKed segment: fast retransmit of 2; FlightSize 20 -> cwnd 10.
        assert!(tx.in_recovery);
        assert_eq!(seqs(&out), vec![2]);
        assert_eq!((tx.cwnd(), tx.ssthresh()), (10.0, 10.0));
        // pipe = 20 outstanding - 3 SACKed - 1 lost (2) + 1 retransmitted (2) = 17.
        assert_eq!(tx.scoreboard.pipe(tx.snd_una, tx.high_tx, tx.rxt_next, 3), 17);
        out.clear();
        // Seven more SACKs (7, 8, 10, ..., 14): pipe falls to 10; then the next one lets
        // cwnd - pipe >= 1 and NextSeg() picks the lost 5 and 9 (rule 1) before new data.
        for (k, top) in [8, 9].into_iter().enumerate() {
            sacked(&mut tx, &[(6, top), (3, 5)], &mut out);
            assert!(out.is_empty(), "step {k}");
        }
        for top in 11..=15 {
            sacked(&mut tx, &[(10, top), (6, 9), (3, 5)], &mut out);
        }
        // SACKed: 3, 4, 6, 7, 8, 10..15 (11); lost: 2, 5, 9; pipe before sending
        // = 20 - 11 - 3 + 1 = 7: 5 and 9 go (rule 1); no new data (rule 2): the receiver's
        // window of 20 is full; nothing for rules (3)-(4) (HighACK = RescueRxt).
        assert_eq!(seqs(&out), vec![5, 9]);
        assert!(out[0].has_flag(FLAG_RETRANSMIT) && out[1].has_flag(FLAG_RETRANSMIT));
        out.clear();
        // A cumulative ACK beyond RecoveryPoint (21) ends recovery with cwnd = ssthresh.
        tx.on_ack_with_sack(&ack(23, 100 * MS), &[], 200 * MS, &mut out);
        assert!(!tx.in_recovery);
        assert_eq!(tx.cwnd(), 10.0);
        assert!(tx.scoreboard.is_empty());
    }

    #[test]
    fn sack_rescue_retransmission_for_a_lost_tail() {
        // A 10-segment transfer sent as one window; 1 and the tail 7, 8, 9 are lost.
        let config = TcpConfig { sack: true, initial_window: 10.0, initial_ssthresh: 10.0, ..TcpConfig::default() };
        let mut tx = TcpSender::new(0, 0, &config, Some(10 * 1460), stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        assert_eq!(out.len(), 10);
        out.clear();
        tx.on_ack_with_sack(&ack(1, 0), &[], 100 * MS, &mut out);
        for top in 3..=7 {
            tx.on_ack_with_sack(&ack(1, 0), &[SackBlock::new(2, top)], 100 * MS, &mut out);
        }
        // Recovery on the third SACKed segment: FlightSize 9 -> cwnd 4.5; 1 retransmitted.
        assert!(tx.in_recovery);
        assert_eq!(seqs(&out), vec![1]);
        assert_eq!(tx.cwnd(), 4.5);
        out.clear();
        // The retransmission is acknowledged: ACK 7, nothing SACKed. pipe = 3 (7, 8, 9 not
        // lost: nothing SACKed above them); rules (1)-(3) fail (no SACK information, no new
        // data) and HighACK (6) > RescueRxt (1): rule (4) rescues 9, the highest unSACKed
        // segment, instead of waiting for the timer.
        tx.on_ack_with_sack(&ack(7, 100 * MS), &[], 200 * MS, &mut out);
        assert_eq!(seqs(&out), vec![9]);
        out.clear();
        // Its ACK SACKs 9: rule (3) now sends 7 and 8 (below the highest SACKed segment).
        tx.on_ack_with_sack(&ack(7, 200 * MS), &[SackBlock::new(9, 10)], 300 * MS, &mut out);
        assert_eq!(seqs(&out), vec![7, 8]);
        out.clear();
        tx.on_ack_with_sack(&ack(10, 300 * MS), &[], 400 * MS, &mut out);
        assert_eq!(tx.completed_at, Some(400 * MS));
        assert_eq!((tx.stats.timeouts, tx.stats.retransmits), (0, 4));
    }

    #[test]
    fn sack_timeout_clears_scoreboard_and_fills_holes() {
        let (mut tx, _) = window_of_20(true);
        let mut out = Vec::new();
        tx.start(0, &mut out);
        out.clear();
        // Only 10..12 SACKed (two segments): no fast retransmit.
        tx.on_ack_with_sack(&ack(0, 0), &[SackBlock::new(10, 12)], 100 * MS, &mut out);
        assert!(!tx.in_recovery && !tx.scoreboard.is_empty());
        let deadline = tx.rto_deadline.unwrap();
        assert!(tx.on_timer(deadline, &mut out));
        // RFC 2018 Section 5: all SACKed bits off; the left edge is retransmitted.
        assert!(tx.scoreboard.is_empty());
        assert_eq!(seqs(&out), vec![0]);
        out.clear();
        // The retransmission is acknowledged; the ACK re-reports 10..12: slow start sends
        // 1, 2 (cwnd 2), then 3..10 skipping nothing yet; with more SACK information the
        // go-back-N skips SACKed segments.
        tx.on_ack_with_sack(&ack(1, deadline), &[SackBlock::new(2, 12)], deadline + 100 * MS, &mut out);
        assert_eq!(seqs(&out), vec![1, 12], "2..12 SACKed since the timeout: skipped");
        // No new recovery before the RecoveryPoint (19) is acknowledged (RFC 6675 5.1).
        out.clear();
        for k in 0..4 {
            tx.on_ack_with_sack(&ack(1, deadline), &[SackBlock::new(2, 14 + k)], deadline + 101 * MS, &mut out);
        }
        assert!(!tx.in_recovery);
        assert_eq!(tx.stats.fast_recoveries, 0);
    }

    #[test]
    fn sack_requires_newreno_recovery() {
        let config = TcpConfig { sack: true, recovery: Recovery::Tahoe, ..TcpConfig::default() };
        let err = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "topology.groups[0].traffic.tcp")
            .err()
            .unwrap();
        assert!(err.to_string().contains("topology.groups[0].traffic.tcp.sack"), "{err}");
    }
}
