//! TCP sender: the machinery every sender shares, whatever its congestion control and loss
//! recovery.
//!
//! Sequence numbers count segments (as ns-2's one-way TCP does). The sender keeps the
//! sequence state, sends what the window allows, takes RTT samples, runs the retransmission
//! timer of RFC 6298 with exponential backoff and marks packets ECN-capable (RFC 3168). The
//! window law is a [`CongestionControl`] (`cc/`); loss recovery after duplicate ACKs or SACK
//! information is a [`LossRecovery`] (`recovery/`: Tahoe, Reno, NewReno, SACK, PRR); the ECN
//! response (`ecn.rs`) and Limited Transmit (`limited_transmit.rs`) are sender options.

use std::ops::{Deref, DerefMut};

use super::cc::CcInit;
use super::ecn::{EcnReduction, EcnResponse};
#[cfg(test)]
use super::recovery::ExitCredit;
use super::recovery::{dupack, LossRecovery, RecoveryConfig};
use super::rto::{RtoEstimator, RtoRestart, RttSampling};
use super::sack::SackBlock;
pub use super::shared::{SenderCore, SenderStats};
use super::{EcnEcho, TcpConfig};
use crate::error::{EngineError, Result};
#[cfg(test)]
use crate::packet::{Ecn, PacketKind, FLAG_CWR, FLAG_RETRANSMIT};
use crate::packet::{FlowId, Packet, RouteId};
use crate::rng::Rng;
use crate::time::Time;

/// A TCP sender: the shared machinery ([`SenderCore`], reached through `Deref`) and its loss
/// recovery.
pub struct TcpSender {
    core: SenderCore,
    recovery: LossRecovery,
}

impl Deref for TcpSender {
    type Target = SenderCore;
    fn deref(&self) -> &SenderCore {
        &self.core
    }
}

impl DerefMut for TcpSender {
    fn deref_mut(&mut self) -> &mut SenderCore {
        &mut self.core
    }
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
                format!("\"per_packet\" with ecn on: {} reacts to every marked ACK", config.cc.kind_name()),
            ));
        }
        if config.ecn_reduction == EcnReduction::Prr && (!config.ecn || cc.ecn_per_ack()) {
            return Err(EngineError::invalid(
                format!("{field}.ecn_reduction"),
                "prr",
                "\"immediate\" without ecn, or with a law reacting per marked ACK (PRR paces the once-per-window ECN reduction)",
            ));
        }
        let prr_delivered = match config.recovery {
            RecoveryConfig::Prr(params) => params.delivered,
            _ => Default::default(),
        };
        let core = SenderCore {
            flow,
            route,
            cc,
            packet_bytes: config.packet_size_bytes,
            last_packet_bytes: (last_payload as u32).max(1) + config.header_bytes,
            max_window: config.max_window,
            ecn: config.ecn,
            ect_retransmissions: config.ecn_retransmit == super::ecn::EcnRetransmit::Ect,
            dupack_threshold: config.dupack_threshold,
            limited_transmit: config.limited_transmit,
            rto_restart: config.rto_restart,
            rtt_sampling: config.rtt_sampling,
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
            ecn_response: EcnResponse::new(config.ecn_reduction, prr_delivered, config.cwr_on_retransmit),
            rto: RtoEstimator::new(config.min_rto_ns, config.initial_rto_ns, config.max_rto_ns)
                .with_tick(config.timer_tick_ns)
                .with_estimator(config.rtt_estimator),
            min_rtt_ns: 0,
            last_rtt_ns: None,
            rto_deadline: None,
            timer_pending: None,
            started_at: None,
            completed_at: None,
            stats: SenderStats::default(),
        };
        Ok(TcpSender { core, recovery: config.recovery.build() })
    }

    /// Congestion window of the algorithm, segments.
    pub fn cwnd(&self) -> f64 {
        self.core.cc.window()
    }

    pub fn ssthresh(&self) -> f64 {
        self.core.cc.ssthresh()
    }

    pub fn srtt_ns(&self) -> Option<Time> {
        self.core.rto.has_sample().then(|| self.core.rto.srtt_ns())
    }

    pub fn last_rtt_ns(&self) -> Option<Time> {
        self.core.last_rtt_ns
    }

    pub fn is_complete(&self) -> bool {
        self.core.completed_at.is_some()
    }

    /// Start sending (the flow's start time).
    pub fn start(&mut self, now: Time, out: &mut Vec<Packet>) {
        self.core.started_at = Some(now);
        self.core.send_available(now, out);
    }

    /// The application closes: no new data beyond what was sent; the flow completes when
    /// that is acknowledged (its end time is recorded as for a finite transfer).
    pub fn stop(&mut self, now: Time) {
        let core = &mut self.core;
        if core.completed_at.is_some() {
            return;
        }
        let sent = core.high_tx.max(1);
        core.total_segments = Some(core.total_segments.map_or(sent, |total| total.min(sent)));
        if core.snd_una >= sent {
            core.completed_at = Some(now);
            core.rto_deadline = None;
        }
    }

    /// An ACK arrived (without SACK blocks).
    #[inline]
    pub fn on_ack(&mut self, ack: &Packet, now: Time, out: &mut Vec<Packet>) {
        self.on_ack_with_sack(ack, &[], now, out);
    }

    /// An ACK arrived carrying these SACK blocks (RFC 2018); a sender whose loss recovery
    /// does not use SACK ignores them.
    // Not inlined into the simulation's event loop: kept out of line, the loop keeps its own
    // hot paths inlined (measured on dumbbell-60 with callgrind: +5 % instructions otherwise).
    #[inline(never)]
    pub fn on_ack_with_sack(&mut self, ack: &Packet, blocks: &[SackBlock], now: Time, out: &mut Vec<Packet>) {
        let core = &mut self.core;
        if core.rtt_sampling == RttSampling::EveryAck && ack.seq == core.snd_una && core.completed_at.is_none() {
            // ns-2's TCP-Linux takes an RTT sample from a duplicate ACK too, before its loss
            // recovery sees the ACK (tcp-linux.cc `recv`: `time_processing` before
            // `tcp_fastretrans_alert`); an ACK of new data gives its sample in `advance_una`.
            core.rto.sample(now.saturating_sub(ack.timestamp), 1.0);
        }
        match &mut self.recovery {
            LossRecovery::Sack(sack) => sack.on_ack(&mut self.core, ack, blocks, now, out),
            recovery => dupack::on_ack(recovery, &mut self.core, ack, now, out),
        }
        let core = &mut self.core;
        if core.rto_restart == RtoRestart::EveryAck && ack.seq == core.snd_una && core.completed_at.is_none() {
            // ns-2's TCP-Linux: every ACK that is not older than snd_una restarts the timer,
            // duplicates included (RFC 6298 Section 5.3 restarts it on new data only).
            core.arm_timer(now);
        }
    }

    /// The timer event fired at `now`; returns true if it was a retransmission timeout.
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<Packet>) -> bool {
        match self.core.rto_deadline {
            Some(deadline) if deadline <= now => {}
            _ => return false,
        }
        let flight = self.recovery.timeout_flight_size(&self.core);
        self.core.on_timeout(now, flight);
        self.recovery.on_timeout(&self.core);
        // Go-back-N from the first unacknowledged segment (as ns-2 does).
        self.core.snd_nxt = self.core.snd_una;
        self.core.rto_deadline = None;
        self.recovery.send_available(&mut self.core, now, out);
        self.core.arm_timer(now);
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
#[path = "sender_newreno_tests.rs"]
mod newreno_tests;

#[cfg(test)]
#[path = "sender_linux_sack_tests.rs"]
mod linux_sack_tests;

#[cfg(test)]
mod tests {
    use super::*;
    pub(super) use crate::packet::FLAG_ECE;
    use crate::rng::{stream, StreamKind};
    pub(super) use crate::tcp::recovery::new_reno::PartialAckTimer;
    pub(super) use crate::tcp::recovery::prr::PrrParams;
    pub(super) use crate::tcp::recovery::sack::{Sack, SackParams};

    /// RFC 6675 SACK loss recovery with its default parameters.
    pub(super) fn sack() -> RecoveryConfig {
        RecoveryConfig::Sack(SackParams::default())
    }

    /// RFC 6937 PRR loss recovery with its default parameters.
    pub(super) fn prr() -> RecoveryConfig {
        RecoveryConfig::Prr(PrrParams::default())
    }

    impl TcpSender {
        /// The state of a SACK sender's loss recovery.
        pub(super) fn sack_state(&self) -> &Sack {
            match &self.recovery {
                LossRecovery::Sack(sack) => sack,
                _ => panic!("not a SACK sender"),
            }
        }
    }

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
                recovery: RecoveryConfig::NewReno {
                    partial_ack_timer: variant,
                    exit_credit: ExitCredit::None,
                    timeout_flight_size: Default::default(),
                    fast_retransmit_guard: Default::default(),
                    partial_ack_deflation: Default::default(),
                },
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
        let config = TcpConfig {
            initial_window: 8.0,
            initial_ssthresh: 8.0,
            recovery: RecoveryConfig::Tahoe {},
            ..TcpConfig::default()
        };
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

    fn window_of_20(with_sack: bool) -> (TcpSender, TcpConfig) {
        let recovery = if with_sack { sack() } else { RecoveryConfig::default() };
        let config = TcpConfig {
            recovery,
            initial_window: 20.0,
            initial_ssthresh: 20.0,
            max_window: 20.0,
            ..TcpConfig::default()
        };
        let tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        (tx, config)
    }

    /// `window_of_20` with SACK, its 20 segments sent at time 0.
    fn started_window_of_20_with_sack() -> (TcpSender, Vec<Packet>) {
        let (mut tx, _) = window_of_20(true);
        let mut out = Vec::new();
        tx.start(0, &mut out);
        out.clear();
        (tx, out)
    }

    /// A window of 20 segments (receiver window 20, so the flight stays 20) whose segments 2, 5
    /// and 9 are lost: the sender and its retransmissions, which are those three.
    fn three_losses_in_one_window(with_sack: bool) -> (TcpSender, Vec<(Time, u64)>) {
        let (mut tx, config) = window_of_20(with_sack);
        let log = run_lossy(&mut tx, &config, &[2, 5, 9], 1_000 * MS);
        let rtx = retransmissions(&log);
        assert_eq!(rtx.iter().map(|r| r.1).collect::<Vec<_>>(), vec![2, 5, 9]);
        (tx, rtx)
    }

    #[test]
    fn three_losses_in_one_window_sack_repairs_all_within_one_rtt() {
        let (tx, rtx) = three_losses_in_one_window(true);
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

    /// Plain Reno (RFC 5681 Section 3.2, ns-2's `Agent/TCP/Reno`): the partial ACK of the first
    /// retransmission ends fast recovery (cwnd = ssthresh) without resending the next hole, and
    /// the `recover` guard keeps its duplicate ACKs from a second fast retransmit: the second
    /// loss of the window waits for the timer. NewReno repairs both in recovery.
    #[test]
    fn two_losses_in_one_window_reno_leaves_recovery_on_the_partial_ack() {
        for (recovery, timeouts) in
            [(RecoveryConfig::Reno { exit_credit: ExitCredit::None }, 1), (RecoveryConfig::default(), 0)]
        {
            let config = TcpConfig { recovery, ..window_of_20(false).1 };
            let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
            let log = run_lossy(&mut tx, &config, &[2, 5], 3_000 * MS);
            let rtx = retransmissions(&log);
            assert_eq!(rtx.first().map(|r| (r.0, r.1)), Some((2 * ONE_WAY, 2)), "{recovery:?}");
            assert_eq!((tx.stats.fast_recoveries, tx.stats.timeouts), (1, timeouts), "{recovery:?}: {rtx:?}");
            if timeouts == 1 {
                // The hole at 5 is resent only by the timer, at least min RTO after the partial ACK.
                let second = rtx.iter().find(|r| r.1 == 5).unwrap().0;
                assert!(second >= 4 * ONE_WAY + 200 * MS, "{rtx:?}");
            }
        }
    }

    /// `rto_restart = every_ack` (ns-2's TCP-Linux): duplicate ACKs restart the timer too.
    #[test]
    fn rto_restart_every_ack_moves_the_deadline_on_duplicate_acks() {
        for (rto_restart, moves) in [(RtoRestart::NewData, false), (RtoRestart::EveryAck, true)] {
            let config =
                TcpConfig { rto_restart, initial_window: 10.0, initial_ssthresh: 10.0, ..TcpConfig::default() };
            let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
            let mut out = Vec::new();
            tx.start(0, &mut out);
            tx.on_ack(&ack(1, 0), 100 * MS, &mut out);
            let after_new_data = tx.rto_deadline.unwrap();
            tx.on_ack(&ack(1, 0), 150 * MS, &mut out);
            assert_eq!(tx.rto_deadline.unwrap() != after_new_data, moves, "{rto_restart:?}");
            // An ACK below snd_una (reordered) never restarts it.
            let before = tx.rto_deadline;
            tx.on_ack(&ack(0, 0), 170 * MS, &mut out);
            assert_eq!(tx.rto_deadline, before, "{rto_restart:?}");
        }
    }

    /// `rtt_sampling = every_ack` (ns-2's TCP-Linux, tcp-linux.cc `time_processing`): a
    /// duplicate ACK gives an RTT sample too. With ns-2 TCP-Linux's estimator at 1-ms ticks, a
    /// 100-ms sample from the ACK of new data sets RTO = 100 + 4 × 50 = 300 ms; a duplicate ACK
    /// at 400 ms echoing the timestamp of segment 0 (sent at 0) is a 400-ms sample: `t_srtt_`
    /// 800 + 300 = 1100, `t_rttvar_` 200 + 300 − 50 = 450, RTO ⌊(450·8 + 1100) / 8⌋ = 587 ms;
    /// by default it is not a sample.
    #[test]
    fn every_ack_sampling_takes_a_sample_from_duplicate_acks() {
        use crate::tcp::rto::RttEstimator;
        let mut rtos = Vec::new();
        for rtt_sampling in [RttSampling::NewData, RttSampling::EveryAck] {
            let config = TcpConfig {
                rtt_sampling,
                rtt_estimator: RttEstimator::Ns2Linux,
                timer_tick_ns: Some(MS),
                min_rto_ns: 0,
                initial_window: 10.0,
                initial_ssthresh: 10.0,
                ..TcpConfig::default()
            };
            let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
            let mut out = Vec::new();
            tx.start(0, &mut out);
            tx.on_ack(&ack(1, 0), 100 * MS, &mut out);
            assert_eq!(tx.core.rto.rto(), 300 * MS, "{rtt_sampling:?}");
            tx.on_ack(&ack(1, 0), 400 * MS, &mut out);
            rtos.push(tx.core.rto.rto());
        }
        assert_eq!(rtos, vec![300 * MS, 587 * MS]);
    }

    #[test]
    fn three_losses_in_one_window_newreno_repairs_one_per_rtt() {
        let (tx, rtx) = three_losses_in_one_window(false);
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
        let (mut tx, mut out) = started_window_of_20_with_sack();
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
        assert_eq!(tx.sack_state().scoreboard.pipe(tx.snd_una, tx.high_tx, tx.sack_state().rxt_next, 3), 17);
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
        assert!(tx.sack_state().scoreboard.is_empty());
    }

    #[test]
    fn sack_rescue_retransmission_for_a_lost_tail() {
        // A 10-segment transfer sent as one window; 1 and the tail 7, 8, 9 are lost.
        let config =
            TcpConfig { recovery: sack(), initial_window: 10.0, initial_ssthresh: 10.0, ..TcpConfig::default() };
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
        let (mut tx, mut out) = started_window_of_20_with_sack();
        // Only 10..12 SACKed (two segments): no fast retransmit.
        tx.on_ack_with_sack(&ack(0, 0), &[SackBlock::new(10, 12)], 100 * MS, &mut out);
        assert!(!tx.in_recovery && !tx.sack_state().scoreboard.is_empty());
        let deadline = tx.rto_deadline.unwrap();
        assert!(tx.on_timer(deadline, &mut out));
        // RFC 2018 Section 5: all SACKed bits off; the left edge is retransmitted.
        assert!(tx.sack_state().scoreboard.is_empty());
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
}
