//! Sender tests of the ECN reduction (`ecn_reduction`): at once (RFC 3168 Section 6.1.2) or
//! paced by Proportional Rate Reduction (RFC 6937 Section 3), as Linux's CWR state and ns-3's
//! `TcpPrrRecovery` do. Marks are scripted: the ACKs carry ECE where the test says.

use super::tests::{ack, prr, sack, seqs, FLAG_ECE};
use super::*;
use crate::rng::{stream, StreamKind};
use crate::tcp::EcnRetransmit;

const MS: Time = 1_000_000;

/// An ECN sender starting in congestion avoidance with a window of 20 segments.
fn window_20(ecn_reduction: EcnReduction, with_sack: bool) -> TcpConfig {
    TcpConfig {
        ecn: true,
        ecn_reduction,
        recovery: if with_sack { sack() } else { RecoveryConfig::default() },
        limited_transmit: with_sack,
        initial_window: 20.0,
        initial_ssthresh: 20.0,
        ..TcpConfig::default()
    }
}

/// A window of 20 segments in congestion avoidance (0..19 sent at time 0).
fn sender_with_window_20(ecn_reduction: EcnReduction, sack: bool) -> (TcpSender, Vec<Packet>) {
    let config = window_20(ecn_reduction, sack);
    let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
    let mut out = Vec::new();
    tx.start(0, &mut out);
    assert_eq!(out.len(), 20);
    out.clear();
    (tx, out)
}

fn marked(seq: u64) -> Packet {
    let mut echo = ack(seq, 0);
    echo.flags = FLAG_ECE;
    echo
}

/// Segments sent on each of the ACKs 1..=20 (the first ECE-marked, the others not), and
/// cwnd after each.
fn per_ack_sends(ecn_reduction: EcnReduction) -> (Vec<usize>, Vec<f64>, TcpSender) {
    let (mut tx, mut out) = sender_with_window_20(ecn_reduction, false);
    let (mut sent, mut cwnd) = (Vec::new(), Vec::new());
    for seq in 1..=20 {
        let echo = if seq == 1 { marked(seq) } else { ack(seq, 0) };
        tx.on_ack(&echo, 100 * MS + seq * MS, &mut out);
        sent.push(out.len());
        cwnd.push(tx.cwnd());
        out.clear();
    }
    (sent, cwnd, tx)
}

#[test]
fn immediate_reduction_halves_at_once_and_is_silent_until_the_flight_drains() {
    let (sent, cwnd, tx) = per_ack_sends(EcnReduction::Immediate);
    // The ECE ACK: FlightSize 19, ssthresh = cwnd = 9.5 (RFC 5681 eq. (4)); nothing can go
    // until the flight (19 - k after k more ACKs) is below the window, which grows by
    // 1/cwnd per later ACK (RFC 3168 does not stop growth on ACKs without ECE).
    assert_eq!(cwnd[0], 9.5);
    assert_eq!(&sent[..10], &[0; 10]);
    assert!(sent[10..].iter().all(|&n| n >= 1), "{sent:?}");
    assert!(cwnd[19] > 10.5, "the window grew on the unmarked ACKs: {cwnd:?}");
    assert_eq!(tx.stats.ecn_reductions, 1);
}

#[test]
fn prr_reduction_sends_in_proportion_to_what_is_delivered() {
    let (sent, cwnd, tx) = per_ack_sends(EcnReduction::Prr);
    // RFC 6937 Section 3 with ssthresh 9.5 and RecoverFS 19: while pipe > ssthresh,
    // sndcnt = CEIL(prr_delivered * 9.5 / 19) - prr_out, one segment every other ACK
    // (prr_delivered 1, 2, 3, ... -> 1, 0, 1, 0, ...). The flight falls by one every two
    // ACKs: 19 -> 10 after 19 ACKs; then pipe <= ssthresh and PRR-SSRB lets one out per ACK.
    assert_eq!(&sent[..18], &[1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0], "{sent:?}");
    // No window growth during the reduction (Linux's CWR state, ns-3's CA_CWR).
    assert!(cwnd.iter().all(|&w| w == 9.5), "{cwnd:?}");
    // Over the window both send the same amount: 10 segments for 20 ACKs.
    assert_eq!(sent.iter().sum::<usize>(), 10, "{sent:?}");
    assert_eq!(tx.stats.ecn_reductions, 1);
}

#[test]
fn prr_reduction_ends_once_the_marked_window_is_acknowledged() {
    let (mut tx, mut out) = sender_with_window_20(EcnReduction::Prr, false);
    tx.on_ack(&marked(1), 100 * MS, &mut out);
    // The reduction covers the window up to high_tx at the mark (21 after the first send).
    let recover = tx.ecn_response.recover.unwrap();
    let mut seq = 2;
    while tx.snd_una <= recover {
        tx.on_ack(&ack(seq, 0), 100 * MS + seq * MS, &mut out);
        seq += 1;
    }
    assert!(!tx.ecn_response.paced(), "the reduction ended at the ACK beyond {recover}");
    assert_eq!(tx.ssthresh(), 9.5);
    // Then congestion avoidance grows the window again, and a new ECE reduces again.
    let before = tx.cwnd();
    tx.on_ack(&ack(seq, 0), 200 * MS, &mut out);
    assert!(tx.cwnd() > before);
    tx.on_ack(&marked(seq + 1), 201 * MS, &mut out);
    assert_eq!(tx.stats.ecn_reductions, 2);
    assert!(tx.ecn_response.paced());
}

/// ECE on the ACK of segment 0; the ACKs of 1..=8 follow; segment 9 is lost and the next
/// three ACKs SACK 10, 11 and 12. Returns the sender once it entered loss recovery.
fn loss_after_a_mark(ecn_reduction: EcnReduction, recovery: RecoveryConfig) -> TcpSender {
    let config = TcpConfig { recovery, ..window_20(ecn_reduction, true) };
    let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
    let mut out = Vec::new();
    tx.start(0, &mut out);
    tx.on_ack_with_sack(&marked(1), &[], 100 * MS, &mut out);
    assert_eq!(tx.ssthresh(), 9.5, "FlightSize 19 at the mark");
    for seq in 2..=9 {
        tx.on_ack_with_sack(&ack(seq, 0), &[], 100 * MS + seq * MS, &mut out);
    }
    out.clear();
    for top in 11..=13 {
        tx.on_ack_with_sack(&ack(9, 0), &[SackBlock::new(10, top)], 110 * MS, &mut out);
    }
    assert!(tx.in_recovery, "{ecn_reduction:?} {recovery:?}");
    assert_eq!(tx.stats.fast_recoveries, 1);
    assert!(out.iter().any(|p| p.seq == 9 && p.has_flag(FLAG_RETRANSMIT)), "{:?}", seqs(&out));
    tx
}

#[test]
fn a_loss_in_the_marked_window_continues_the_prr_reduction() {
    for recovery in [sack(), prr()] {
        // RFC 3168 Section 6.1.2, "the congestion window should be reduced only once in
        // response to a series of dropped and/or CE packets from a single window of data":
        // ssthresh stays the mark's 9.5 (Linux's tcp_enter_recovery from CWR).
        let tx = loss_after_a_mark(EcnReduction::Prr, recovery);
        assert_eq!(tx.ssthresh(), 9.5, "{recovery:?}");
        assert!(!tx.ecn_response.paced());
        assert_eq!(tx.sack_state().prr.is_some(), matches!(recovery, RecoveryConfig::Prr(_)));
    }
    // The default reduces again at the loss, from the FlightSize then: 11 segments of the
    // marked window, silent since the mark (the one limited transmit sent is not counted,
    // RFC 5681 Section 3.2 step 2): ssthresh 5.5.
    let tx = loss_after_a_mark(EcnReduction::Immediate, sack());
    assert_eq!(tx.ssthresh(), 5.5);
}

#[test]
fn prr_reduction_needs_ecn_and_a_once_per_window_law() {
    let config = TcpConfig { ecn_reduction: EcnReduction::Prr, ..TcpConfig::default() };
    let err = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "g.tcp").err().unwrap();
    assert!(err.to_string().contains("g.tcp.ecn_reduction"), "{err}");
}

/// A window of 20 segments (0..19) is sent, nothing comes back and the timer fires at 1 s:
/// segment 0 goes again, cwnd = 1, ssthresh = FlightSize / 2 = 10 (RFC 5681 eq. (4)). Then
/// the ACKs of the go-back-N (1, 2, ...) all echo ECE: the receiver saw a CE mark on a segment
/// of the window before the timeout and echoes it until a CWR arrives (RFC 3168 Section
/// 6.1.3), which only new data can carry (Section 6.1.2). Returns cwnd after each ACK, the
/// segments sent and the sender.
fn echoes_after_a_timeout(acks: u64) -> (Vec<f64>, Vec<Packet>, TcpSender) {
    let (mut tx, mut out) = sender_with_window_20(EcnReduction::Immediate, false);
    let deadline = tx.rto_deadline.unwrap();
    assert!(tx.on_timer(deadline, &mut out));
    assert_eq!((seqs(&out), tx.cwnd(), tx.ssthresh()), (vec![0], 1.0, 10.0));
    let mut cwnd = Vec::new();
    for seq in 1..=acks {
        tx.on_ack(&marked(seq), deadline + 100 * MS + seq * MS, &mut out);
        cwnd.push(tx.cwnd());
    }
    (cwnd, out, tx)
}

/// The stall of issue "ECN NewReno senders stall for a whole run": before the fix the first ECE
/// ACK after the timeout halved the one-segment window again (ssthresh = 2) and no ECE ACK grew
/// it, so the go-back-N crept at two segments per RTT until it reached new data.
/// RFC 3168 Section 6.1.2: the timeout answered that window's congestion ("reduced only once in
/// response to a series of dropped and/or CE packets from a single window of data"; "should not
/// decrease the slow-start threshold, ssthresh, if it has been decreased within the last round
/// trip time"); slow start goes on below ssthresh on such echoes (Linux `tcp_may_raise_cwnd`).
#[test]
fn echoes_of_a_window_answered_by_a_timeout_neither_reduce_nor_stop_slow_start() {
    let (cwnd, out, tx) = echoes_after_a_timeout(19);
    assert_eq!(tx.stats.ecn_reductions, 0, "no second reduction for the window the timeout answered");
    assert_eq!(tx.ssthresh(), 10.0);
    // Slow start up to ssthresh (one segment per ACK), then congestion avoidance, where an ECE
    // ACK grows nothing (RFC 3168 Section 6.1.2, "SHOULD NOT increase").
    let expected: Vec<f64> = (1..=19).map(|k| ((k + 1) as f64).min(10.0)).collect();
    assert_eq!(cwnd, expected);
    // Retransmissions up to 19 carry no CWR (Section 6.1.2); the first new segment, 20, does:
    // the timeout is a window reduction ("because of a retransmit timeout").
    let rtx: Vec<&Packet> = out.iter().filter(|p| p.seq < 20).collect();
    assert!(rtx.iter().all(|p| p.has_flag(FLAG_RETRANSMIT) && !p.has_flag(FLAG_CWR)));
    let first_new = out.iter().find(|p| p.seq == 20).expect("new data within the go-back-N's window");
    assert!(first_new.has_flag(FLAG_CWR) && first_new.ecn == Ecn::Ect);
    assert_eq!(out.iter().filter(|p| p.has_flag(FLAG_CWR)).count(), 1);
}

/// Once a segment sent after the timeout is acknowledged (beyond `high_tx` = 20 at the
/// timeout), ECE is a new mark again and reduces the window (RFC 3168 Section 6.1.2).
#[test]
fn after_the_timeouts_window_a_new_echo_reduces_again() {
    let (_, mut out, mut tx) = echoes_after_a_timeout(19);
    tx.on_ack(&marked(20), 2_000 * MS, &mut out);
    assert_eq!(tx.stats.ecn_reductions, 0, "the ACK of 19 is still the timeout's window");
    tx.on_ack(&marked(21), 2_001 * MS, &mut out);
    assert_eq!(tx.stats.ecn_reductions, 1);
    assert!(tx.ssthresh() < 10.0);
}

/// The same end to end, with the engine's receiver: segment 0 lost, 1 CE-marked, 2..19 lost;
/// the timeout resends 0 and every later segment up to 19 is a retransmission. Before the fix
/// the window stayed at 2 segments and the go-back-N took 9 RTTs to reach new data (19 / 2
/// per RTT); slow start from 1 reaches segment 20 in 5 (1, 2, 4, 8 segments, then 20 as
/// cwnd 10 allows).
#[test]
fn the_go_back_n_after_a_timeout_slow_starts_through_ece_echoes() {
    let config = window_20(EcnReduction::Immediate, false);
    let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
    let drops: Vec<u64> = std::iter::once(0).chain(2..20).collect();
    let log = super::tests::run_scripted(&mut tx, &config, &drops, &[1], 3_000 * MS);
    assert_eq!(tx.stats.timeouts, 1);
    let timeout = log.iter().find(|&&(_, seq, rtx)| seq == 0 && rtx).unwrap().0;
    assert_eq!(timeout, 1_000 * MS, "initial RTO");
    let new_data = log.iter().find(|&&(_, seq, _)| seq == 20).unwrap().0;
    let rtt = 2 * super::tests::ONE_WAY;
    assert!(new_data <= timeout + 5 * rtt, "segment 20 at {} ms", (new_data - timeout) / MS);
    assert_eq!(tx.stats.ecn_reductions, 0);
}

/// `cwr_on_retransmit` (ns-2 2.35's `SetCWRonRetransmit_ true`, tcp.cc `TcpAgent::output`):
/// CWR goes on the first segment after a reduction even if it is a retransmission, here the
/// timeout's resend of segment 0, so the receiver stops echoing one RTT after the timeout.
/// Off (RFC 3168 Section 6.1.2) it waits for new data: segment 20.
#[test]
fn cwr_on_retransmit_puts_cwr_on_the_timeouts_retransmission() {
    for (cwr_on_retransmit, carrier) in [(false, 20), (true, 0)] {
        let config = TcpConfig { cwr_on_retransmit, ..window_20(EcnReduction::Immediate, false) };
        let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        assert!(out.iter().all(|p| !p.has_flag(FLAG_CWR)), "no reduction yet");
        out.clear();
        let deadline = tx.rto_deadline.unwrap();
        tx.on_timer(deadline, &mut out);
        for seq in 1..=19 {
            tx.on_ack(&ack(seq, 0), deadline + 100 * MS + seq * MS, &mut out);
        }
        let cwr: Vec<(u64, bool)> =
            out.iter().filter(|p| p.has_flag(FLAG_CWR)).map(|p| (p.seq, p.has_flag(FLAG_RETRANSMIT))).collect();
        assert_eq!(cwr, vec![(carrier, carrier < 20)], "cwr_on_retransmit = {cwr_on_retransmit}");
        // Either way retransmissions stay not-ECT (RFC 3168 Section 6.1.5).
        assert!(out.iter().filter(|p| p.has_flag(FLAG_RETRANSMIT)).all(|p| p.ecn == Ecn::NotEct));
    }
}

/// After an ECN reduction whose next segment is a retransmission (a loss found later in the
/// same window is repaired first), `cwr_on_retransmit` sends CWR on that retransmission.
#[test]
fn cwr_on_retransmit_after_an_ecn_reduction() {
    let config = TcpConfig { cwr_on_retransmit: true, ..window_20(EcnReduction::Immediate, false) };
    let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
    let mut out = Vec::new();
    tx.start(0, &mut out);
    out.clear();
    // ECE on the ACK of segment 0 (ssthresh = cwnd = 9.5); segment 1 is lost: three
    // duplicate ACKs fast-retransmit it before any new segment could go (flight 19 > 9.5).
    tx.on_ack(&marked(1), 100 * MS, &mut out);
    assert!(out.is_empty());
    for _ in 0..3 {
        tx.on_ack(&ack(1, 0), 101 * MS, &mut out);
    }
    assert_eq!(seqs(&out), vec![1]);
    assert!(out[0].has_flag(FLAG_RETRANSMIT) && out[0].has_flag(FLAG_CWR));
}

/// `ecn_retransmit`: a retransmission is not ECT (RFC 3168 Section 6.1.5) unless `ect` (ns-2's
/// tcp.cc `output` marks every data packet ECT); new data is ECT either way.
#[test]
fn retransmissions_are_ect_only_with_ecn_retransmit_ect() {
    for (setting, expected) in [(EcnRetransmit::NotEct, Ecn::NotEct), (EcnRetransmit::Ect, Ecn::Ect)] {
        let config = TcpConfig { ecn_retransmit: setting, ..window_20(EcnReduction::Immediate, false) };
        let mut tx = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let mut out = Vec::new();
        tx.start(0, &mut out);
        assert!(out.iter().all(|p| p.ecn == Ecn::Ect), "new data is ECT");
        out.clear();
        // The retransmission timer fires (nothing acknowledged): segment 0 is resent.
        assert!(tx.on_timer(5_000 * MS, &mut out));
        assert_eq!(out[0].seq, 0);
        assert_eq!(out[0].ecn, expected, "{setting:?}");
    }
}
