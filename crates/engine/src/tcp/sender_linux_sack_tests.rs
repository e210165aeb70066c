//! Sender tests of ns-2 2.35 TCP-Linux's scoreboard options of SACK recovery
//! (`recovery/sack.rs`): FACK loss marking (`loss_marking = fack`, tcp/scoreboard1.cc
//! `UpdateScoreBoard` line 168) and the scoreboard kept across a timeout
//! (`timeout_scoreboard = keep`, tcp-linux.cc `enter_loss` lines 550-552), and the flight
//! without SACKed segments outside recovery (`flight_outside_recovery = minus_sacked`,
//! tcp/scoreboard1.h line 162). Scripted ACKs.

use super::tests::{ack, sack, seqs, SackParams};
use super::*;
use crate::rng::{stream, StreamKind};
use crate::tcp::recovery::sack::{FlightOutsideRecovery, LossMarking, TimeoutScoreboard};

const MS: Time = 1_000_000;

fn sender(recovery: RecoveryConfig) -> TcpSender {
    // Congestion avoidance at a window of 20 segments, receiver window 10^7.
    let config =
        TcpConfig { recovery, initial_window: 20.0, initial_ssthresh: 20.0, max_window: 1.0e7, ..TcpConfig::default() };
    TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap()
}

fn fack() -> RecoveryConfig {
    RecoveryConfig::Sack(SackParams { loss_marking: LossMarking::Fack, ..Default::default() })
}

fn sack_ack(tx: &mut TcpSender, cum: u64, blocks: &[(u64, u64)], now: Time) -> Vec<u64> {
    let blocks: Vec<SackBlock> = blocks.iter().map(|&(a, b)| SackBlock::new(a, b)).collect();
    let mut out = Vec::new();
    tx.on_ack_with_sack(&ack(cum, 0), &blocks, now, &mut out);
    seqs(&out)
}

/// Segments 0..19 sent at time 0, 0 and 1 acknowledged at 100 ms.
fn started(recovery: RecoveryConfig) -> TcpSender {
    let mut tx = sender(recovery);
    tx.start(0, &mut Vec::new());
    sack_ack(&mut tx, 1, &[], 100 * MS);
    sack_ack(&mut tx, 2, &[], 100 * MS);
    tx
}

/// One loss (segment 2), the segments after it SACKed one by one: RFC 6675 retransmits on the
/// third duplicate ACK (3, 4, 5 SACKed); FACK when 2 <= fack_ − 4, i.e. once 6 is SACKed —
/// one ACK later (scoreboard1.cc line 168: `lost_seq_threshold = fack_ - (dupack_threshold+1)`).
#[test]
fn fack_marks_a_single_loss_one_sack_later_than_rfc6675() {
    for (recovery, first_top) in [(sack(), 6), (fack(), 7)] {
        let mut tx = started(recovery);
        let mut retransmitted_at = None;
        for top in 4..=8 {
            if sack_ack(&mut tx, 2, &[(3, top)], 101 * MS).contains(&2) {
                retransmitted_at.get_or_insert(top);
            }
        }
        assert_eq!(retransmitted_at, Some(first_top));
        assert!(tx.in_recovery && tx.stats.fast_recoveries == 1);
    }
}

/// A burst loss (2..=5), then one segment above it (6) SACKed: fack_ = 6, so 2 <= 6 − 4 is
/// lost and recovery starts on this first duplicate ACK (tcp-linux.cc line 483,
/// FLAG_DATA_LOST), however few segments are SACKed; RFC 6675 needs three duplicate ACKs or
/// three SACKed segments. The next SACK (7) marks 3 lost too, which leaves pipe.
#[test]
fn fack_marks_a_burst_lost_from_the_distance_to_the_highest_sack() {
    let mut tx = started(sack());
    assert!(!sack_ack(&mut tx, 2, &[(6, 7)], 101 * MS).contains(&2));
    assert!(!tx.in_recovery);
    let mut tx = started(fack());
    let sent = sack_ack(&mut tx, 2, &[(6, 7)], 101 * MS);
    assert_eq!(sent.first(), Some(&2), "{sent:?}");
    assert!(tx.in_recovery && tx.stats.fast_recoveries == 1);
    assert!(!sent.contains(&3), "3 is not yet fack_ − 4 below: {sent:?}");
    // pipe (SetPipe() with FACK's lost segments): 3..=5 and 7..=21 in flight (18; the two
    // ACKs at 100 ms let 20 and 21 out), 2 lost (0) and retransmitted (1): 19, above cwnd
    // 10, so nothing more goes out.
    assert_eq!(tx.high_tx, 22);
    assert_eq!(tx.sack_state().flight_size(&tx), 19);
    assert_eq!(sent, vec![2]);
    // fack_ = 7: 3 lost too (3 <= 7 − 4): 4, 5 and 8..=21 (16) + 2 retransmitted (1) = 17.
    assert!(sack_ack(&mut tx, 2, &[(6, 8)], 102 * MS).is_empty());
    assert_eq!(tx.sack_state().flight_size(&tx), 17);
    // RFC 6675's IsLost() on the same scoreboard: two SACKed segments mark nothing lost.
    let mut tx = started(sack());
    sack_ack(&mut tx, 2, &[(6, 7)], 101 * MS);
    sack_ack(&mut tx, 2, &[(6, 8)], 102 * MS);
    assert!(!tx.in_recovery);
}

/// The scoreboard at a timeout. Holes at 2, 4, 6, 8 and 10, segments 3, 5, 7, 9 and 11..=16
/// SACKed; recovery resends the holes, they are lost too, the timer fires and resends 2. Its
/// ACK (cumulative 4) can carry only three SACK blocks, and 5 is left out: RFC 2018/6675's
/// expunged scoreboard lets the go-back-N send 4 and 5 (5 already held by the receiver); the
/// kept one (ns-2 TCP-Linux's `MarkLoss`, no `ClearScoreBoard`) sends 4 and 6.
#[test]
fn kept_scoreboard_skips_segments_sacked_before_the_timeout() {
    let keep = RecoveryConfig::Sack(SackParams { timeout_scoreboard: TimeoutScoreboard::Keep, ..Default::default() });
    for (recovery, expected) in [(sack(), vec![4, 5]), (keep, vec![4, 6])] {
        let mut tx = started(recovery);
        let mut blocks = vec![(3, 4), (5, 6), (7, 8)];
        sack_ack(&mut tx, 2, &blocks, 101 * MS);
        blocks = vec![(9, 10), (5, 6), (7, 8)];
        sack_ack(&mut tx, 2, &blocks, 101 * MS);
        for top in 12..=17 {
            sack_ack(&mut tx, 2, &[(11, top), (9, 10), (7, 8)], 101 * MS);
        }
        assert!(tx.in_recovery);
        let deadline = tx.rto_deadline.unwrap();
        let mut out = Vec::new();
        assert!(tx.on_timer(deadline, &mut out));
        assert_eq!(seqs(&out), vec![2]);
        let sent = sack_ack(&mut tx, 4, &[(11, 17), (9, 10), (7, 8)], deadline + 100 * MS);
        assert_eq!(sent, expected);
    }
}

/// After a timeout, once the go-back-N has caught up with HighData: segments 0..=21 sent, 2
/// and 10 lost, the timer resends 2 (cwnd 1). Its ACK (cumulative 10, 11..=21 SACKed, cwnd 2)
/// lets 10 and 22 out; 10 is lost again and the ACK of 22 SACKs 11..=22. snd_nxt = HighData =
/// 23: RFC 5681's flight, 23 − 10 = 13, sends nothing until the next timeout; ns-2 TCP-Linux's
/// `packets_in_flight()` = t_seqno_ − snd_una − SACKed = 13 − 12 = 1 < cwnd 2 (tcp-linux.cc
/// `send_much` line 631, scoreboard1.h line 162) sends 23.
#[test]
fn minus_sacked_flight_keeps_sending_after_the_go_back_n_caught_up() {
    let minus_sacked = RecoveryConfig::Sack(SackParams {
        flight_outside_recovery: FlightOutsideRecovery::MinusSacked,
        ..Default::default()
    });
    for (recovery, expected) in [(sack(), vec![]), (minus_sacked, vec![23])] {
        let mut tx = started(recovery);
        assert_eq!(tx.high_tx, 22);
        let deadline = tx.rto_deadline.unwrap();
        let mut out = Vec::new();
        assert!(tx.on_timer(deadline, &mut out));
        assert_eq!(seqs(&out), vec![2]);
        let now = deadline + 100 * MS;
        assert_eq!(sack_ack(&mut tx, 10, &[(11, 22)], now), vec![10, 22]);
        assert_eq!(tx.cwnd(), 2.0);
        assert!(!tx.in_recovery, "RFC 6675 Section 5.1: no recovery before 21 is acknowledged");
        assert_eq!((tx.snd_nxt, tx.high_tx), (23, 23));
        assert_eq!(sack_ack(&mut tx, 10, &[(11, 23)], now + MS), expected);
    }
}
