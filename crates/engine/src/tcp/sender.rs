//! TCP sender: the machinery shared by every congestion-control algorithm.
//!
//! Sequence numbers count segments (as ns-2's one-way TCP does). The sender implements
//! slow start / congestion avoidance through the [`CongestionControl`] hooks, fast
//! retransmit and NewReno fast recovery (RFC 6582) or Tahoe, the retransmission timer of
//! RFC 6298 with exponential backoff, and the ECN sender side of RFC 3168.

use super::cc::{AckEvent, CcInit, CongestionControl, CongestionEvent};
use super::rto::RtoEstimator;
use super::{EcnEcho, Recovery, TcpConfig};
use crate::packet::{Ecn, FlowId, Packet, PacketKind, RouteId, FLAG_CWR, FLAG_ECE, FLAG_RETRANSMIT};
use crate::error::{EngineError, Result};
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
    in_recovery: bool,
    /// RFC 6582 `recover`: highest segment sent when the last loss episode began.
    recover: Option<u64>,
    /// Window inflation during fast recovery (RFC 6582 Section 3.2 steps 3-4), segments.
    inflation: f64,
    /// RFC 3168 Section 6.1.2: no second ECN reduction until this segment is acknowledged.
    ecn_recover: Option<u64>,
    send_cwr: bool,
    rto: RtoEstimator,
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
            segments_per_ack: if config.delayed_ack { 2.0 } else { 1.0 },
            total_segments,
            snd_una: 0,
            snd_nxt: 0,
            high_tx: 0,
            dupacks: 0,
            in_recovery: false,
            recover: None,
            inflation: 0.0,
            ecn_recover: None,
            send_cwr: false,
            rto: RtoEstimator::new(config.min_rto_ns, config.initial_rto_ns, config.max_rto_ns),
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
        self.total_segments.map_or(true, |total| seq < total)
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
        }
    }

    fn arm_timer(&mut self, now: Time) {
        // RFC 6298 Section 5.1/5.3: (re)start the timer when data is outstanding.
        self.rto_deadline = if self.snd_una < self.high_tx.max(self.snd_nxt) { Some(now + self.rto.rto()) } else { None };
    }

    fn send_available(&mut self, now: Time, out: &mut Vec<Packet>) {
        let window = self.usable_window();
        let mut sent_any = false;
        while self.snd_nxt - self.snd_una < window && self.has_data(self.snd_nxt) {
            let packet = self.segment(self.snd_nxt, now);
            out.push(packet);
            self.snd_nxt += 1;
            self.high_tx = self.high_tx.max(self.snd_nxt);
            sent_any = true;
        }
        if sent_any && self.rto_deadline.is_none() {
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

    /// An ACK arrived.
    pub fn on_ack(&mut self, ack: &Packet, now: Time, out: &mut Vec<Packet>) {
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

    fn on_new_ack(&mut self, ack: &Packet, ece: bool, now: Time, out: &mut Vec<Packet>) {
        let acked = ack.seq - self.snd_una;
        // RFC 7323 Appendix G: ExpectedSamples = the ACKs one window of data brings.
        let expected_samples = (self.in_flight() as f64 / self.segments_per_ack).ceil();
        self.snd_una = ack.seq;
        if self.snd_nxt < self.snd_una {
            self.snd_nxt = self.snd_una;
        }
        self.dupacks = 0;
        // RTT from the echoed timestamp (RFC 7323 Section 4; valid for retransmissions too).
        let rtt = now.saturating_sub(ack.timestamp);
        self.rto.sample(rtt, expected_samples);
        self.last_rtt_ns = Some(rtt);
        self.min_rtt_ns = if self.min_rtt_ns == 0 { rtt } else { self.min_rtt_ns.min(rtt) };
        self.stats.rtt_samples += 1;
        self.stats.rtt_sum_ns += rtt as u128;

        if self.in_recovery {
            let recover = self.recover.unwrap_or(0);
            if ack.seq > recover {
                // RFC 6582 Section 3.2 step 3: full ACK, leave fast recovery with
                // cwnd = ssthresh (the algorithm's window after `on_loss`).
                self.in_recovery = false;
                self.inflation = 0.0;
            } else {
                // RFC 6582 Section 3.2 step 4: partial ACK: retransmit the first unacked
                // segment, deflate by the amount acknowledged, add back one segment, and
                // reset the timer ("Slow-but-Steady", Section 4).
                self.retransmit_first_unacked(now, out);
                self.inflation = self.inflation - acked as f64 + 1.0;
                self.arm_timer(now);
                self.send_available(now, out);
                return;
            }
        } else if ece && !self.cc.ecn_per_ack() {
            // RFC 3168 Section 6.1.2: react to ECE at most once per window of data, and never
            // increase the window in response to an ECE ACK.
            if self.ecn_recover.map_or(true, |r| self.snd_una > r) {
                let event = self.congestion_event(now);
                self.cc.on_ecn(&event);
                self.ecn_recover = Some(self.high_tx.saturating_sub(1));
                self.send_cwr = true;
                self.stats.ecn_reductions += 1;
            }
        } else {
            if ece {
                // A law reacting per marked ACK (`ecn_per_ack`): count each marked ACK.
                self.stats.ecn_reductions += 1;
            }
            let event = AckEvent {
                now,
                acked_segments: acked,
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

        if let Some(total) = self.total_segments {
            if self.snd_una >= total {
                self.completed_at = Some(now);
                self.rto_deadline = None;
                return;
            }
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
            if self.limited_transmit {
                // RFC 3042 Section 2: on each of the first two duplicate ACKs send one new
                // segment if the flight stays within cwnd + 2; cwnd itself is unchanged.
                let allowed = self.usable_window() + u64::from(self.dupacks.min(2));
                if self.snd_nxt - self.snd_una < allowed && self.has_data(self.snd_nxt) && self.snd_nxt == self.high_tx {
                    let packet = self.segment(self.snd_nxt, now);
                    out.push(packet);
                    self.snd_nxt += 1;
                    self.high_tx = self.snd_nxt;
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
        let event = self.congestion_event(now);
        self.stats.fast_recoveries += 1;
        match self.recovery_mode {
            Recovery::NewReno => {
                // RFC 6582 Section 3.2 step 2: ssthresh = FlightSize/2, retransmit,
                // cwnd = ssthresh + 3 segments.
                self.cc.on_loss(&event);
                self.in_recovery = true;
                self.inflation = self.dupack_threshold as f64;
                self.retransmit_first_unacked(now, out);
                self.arm_timer(now);
                self.send_available(now, out);
            }
            Recovery::Tahoe => {
                // Tahoe: fast retransmit, then slow start from one segment (go-back-N).
                self.cc.on_rto(&event);
                self.snd_nxt = self.snd_una;
                self.arm_timer(now);
                self.send_available(now, out);
            }
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
        let event = self.congestion_event(now);
        self.cc.on_rto(&event);
        self.rto.back_off();
        // RFC 6582 Section 3.2 step 1 and Section 4: after a timeout, `recover` = highest sent.
        self.recover = Some(self.high_tx.saturating_sub(1));
        self.in_recovery = false;
        self.inflation = 0.0;
        self.dupacks = 0;
        // Go-back-N from the first unacknowledged segment (as ns-2 does).
        self.snd_nxt = self.snd_una;
        self.rto_deadline = None;
        self.send_available(now, out);
        self.arm_timer(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    const MS: Time = 1_000_000;

    fn ack(seq: u64, echo: Time) -> Packet {
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
        }
    }

    fn seqs(out: &[Packet]) -> Vec<u64> {
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

    #[test]
    fn tahoe_restarts_from_one_segment() {
        let config = TcpConfig { initial_window: 8.0, initial_ssthresh: 8.0, recovery: Recovery::Tahoe, ..TcpConfig::default() };
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
        let mut tx = TcpSender::new(0, 0, &TcpConfig::default(), Some(3000), stream(1, StreamKind::Flow, 0), "tcp").unwrap();
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
}
