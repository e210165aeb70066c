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
