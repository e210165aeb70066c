//! Sender tests of ns-2 2.35 TCP-Linux's scoreboard options of SACK recovery
//! (`recovery/sack.rs`): FACK loss marking (`loss_marking = fack`, tcp/scoreboard1.cc
//! `UpdateScoreBoard` line 168) and the scoreboard kept across a timeout
//! (`timeout_scoreboard = keep`, tcp-linux.cc `enter_loss` lines 550-552), its Loss state
//! after a timeout (`timeout_recovery = linux_loss_state`, tcp-linux.cc lines 459-509), and
//! the flight without SACKed segments outside recovery (`flight_outside_recovery =
//! minus_sacked`, tcp/scoreboard1.h line 162). Scripted ACKs.

use super::tests::{ack, sack, seqs, SackParams};
use super::*;
use crate::rng::{stream, StreamKind};
use crate::tcp::recovery::sack::{
    FlightOutsideRecovery, LossMarking, LostRetransmit, RecoveryExitScoreboard, TimeoutRecovery, TimeoutScoreboard,
};

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

/// `timeout_recovery`: RFC 6675's (default) or ns-2 TCP-Linux's Loss state, with the row's
/// other TCP-Linux options.
fn loss_state(linux: bool, lost_retransmit: LostRetransmit, rate_halving: bool) -> RecoveryConfig {
    let timeout_recovery = if linux { TimeoutRecovery::LinuxLossState } else { TimeoutRecovery::Rfc6675 };
    RecoveryConfig::Sack(SackParams {
        loss_marking: LossMarking::Fack,
        lost_retransmit,
        rate_halving,
        timeout_recovery,
        ..Default::default()
    })
}

/// `started`, then the timer fires (ssthresh = FlightSize 20 / 2 = 10, cwnd 1) and resends 2.
fn timed_out(recovery: RecoveryConfig) -> (TcpSender, Time) {
    let mut tx = started(recovery);
    let deadline = tx.rto_deadline.unwrap();
    let mut out = Vec::new();
    assert!(tx.on_timer(deadline, &mut out));
    assert_eq!((seqs(&out), tx.ssthresh(), tx.cwnd()), (vec![2], 10.0, 1.0));
    (tx, deadline)
}

/// A retransmission lost in the Loss state (tcp-linux.cc line 479, "let it through"). After
/// the timeout the go-back-N resends 2, 3, 4, ... with retransmission numbers 0, 1, 2, ...
/// (scoreboard1.cc `MarkRetran`); 4 is lost again. Once the retransmission of 9 (number 7)
/// is SACKed, 4 (number 2) is lost again (`GetRtx() + dupack_threshold + 1 < acked_rtx_id_`,
/// lines 215-216): TCP-Linux enters Recovery with a second cut and resends 4 at once. RFC 6675
/// Section 5.1 starts no recovery before RecoveryPoint (21) is acknowledged: the go-back-N
/// goes on (11) and 4 waits for the timer.
#[test]
fn a_retransmission_lost_in_the_loss_state_starts_recovery_with_a_second_cut() {
    for linux in [false, true] {
        let (mut tx, t) = timed_out(loss_state(linux, LostRetransmit::SackAbove, false));
        assert_eq!(sack_ack(&mut tx, 3, &[], t + 100 * MS), vec![3, 4], "slow start: cwnd 2");
        assert_eq!(sack_ack(&mut tx, 4, &[], t + 110 * MS), vec![5, 6], "cwnd 3");
        for (top, next) in [(6, 7), (7, 8), (8, 9), (9, 10)] {
            assert_eq!(sack_ack(&mut tx, 4, &[(5, top)], t + 120 * MS), vec![next], "linux {linux}");
        }
        assert!(!tx.in_recovery && tx.stats.fast_recoveries == 0);
        let sent = sack_ack(&mut tx, 4, &[(5, 10)], t + 130 * MS);
        if linux {
            // The law's cut on what the Loss state has in the network (4 and 10: 2 segments),
            // RecoveryPoint the highest segment sent; 4 first (cwnd 2, pipe 1 without it).
            assert_eq!(sent, vec![4]);
            assert!(tx.in_recovery && tx.stats.fast_recoveries == 1);
            assert_eq!((tx.ssthresh(), tx.cwnd(), tx.recover), (2.0, 2.0, Some(21)));
            // The recovery's segments: what the timeout marked lost and the go-back-N had not
            // reached (11..) is resent before new data; the ACK of everything ends the recovery
            // and the timeout's marks with it.
            assert_eq!(sack_ack(&mut tx, 10, &[], t + 140 * MS), vec![11], "cwnd 2, 10 in flight");
            assert!(sack_ack(&mut tx, 22, &[], t + 150 * MS).iter().all(|&seq| seq >= 22));
            assert!(!tx.in_recovery && tx.sack_state().marked_lost_end.is_none());
        } else {
            assert_eq!(sent, vec![10 + 1]);
            assert!(!tx.in_recovery && tx.stats.fast_recoveries == 0);
            assert_eq!(tx.ssthresh(), 10.0);
        }
    }
}

/// A segment first sent in the Loss state and lost (scoreboard1.cc lines 223-235: an INFLIGHT
/// block DupThresh + 1 below `fack_` becomes LOST). After the timeout 2, 3 and 4 arrive, the
/// receiver reports 6..=21 (its originals) and the go-back-N skips them to new data: 5
/// (resent) and 22 are lost, 23.. SACKed. SACKed segments are not in flight once the
/// go-back-N has caught up (`packets_in_flight()`), so 23.. go out at cwnd 4. Once 22 <=
/// fack_ − 4 (26 SACKed) TCP-Linux enters Recovery (rate halving from cwnd 4: 22 goes out).
/// RFC 6675's go-back-N counts the SACKed segments in flight once it caught up, sends nothing
/// new, and 5 and 22 wait for the timer.
#[test]
fn a_segment_sent_in_the_loss_state_and_lost_starts_recovery() {
    for linux in [false, true] {
        let (mut tx, t) = timed_out(loss_state(linux, LostRetransmit::Rto, true));
        let above = (6, 22);
        assert_eq!(sack_ack(&mut tx, 3, &[above], t + 100 * MS), vec![3, 4]);
        assert_eq!(sack_ack(&mut tx, 4, &[above], t + 110 * MS), vec![5, 22], "6..=21 skipped");
        let sent = sack_ack(&mut tx, 5, &[above], t + 120 * MS);
        if !linux {
            assert!(sent.is_empty(), "flight (23 - 5 = 18) >= cwnd 4: {sent:?}");
            for top in [24, 25, 26, 27] {
                assert!(sack_ack(&mut tx, 5, &[(23, top), above], t + 130 * MS).is_empty());
            }
            assert!(!tx.in_recovery && tx.stats.fast_recoveries == 0);
            continue;
        }
        assert_eq!(sent, vec![23, 24], "flight: 5 and 22");
        for top in [24, 25, 26] {
            assert_eq!(sack_ack(&mut tx, 5, &[(23, top), above], t + 130 * MS), vec![top + 1]);
            assert!(!tx.in_recovery, "22 not yet 4 below fack_ {}", top - 1);
        }
        let sent = sack_ack(&mut tx, 5, &[(23, 27), above], t + 140 * MS);
        assert!(tx.in_recovery && tx.stats.fast_recoveries == 1);
        assert_eq!(sent, vec![22]);
        // ssthresh = max(FlightSize / 2, 2): 5 and 27 in the network.
        assert_eq!((tx.ssthresh(), tx.recover), (2.0, Some(27)));
    }
}

/// Without a loss marked in it, the Loss state sends as RFC 6675's go-back-N and ends when
/// everything sent before the timeout is acknowledged (tcp-linux.cc lines 460-471); the
/// timeout's marks end with it, so a later loss is an ordinary recovery.
#[test]
fn the_loss_state_without_a_new_loss_is_the_go_back_n() {
    let run = |linux: bool| {
        let (mut tx, t) = timed_out(loss_state(linux, LostRetransmit::SackAbove, true));
        let mut sent = Vec::new();
        for (k, cum) in (3..=25).enumerate() {
            sent.push(sack_ack(&mut tx, cum, &[], t + (100 + k as u64) * MS));
        }
        assert!(!tx.in_recovery && tx.stats.fast_recoveries == 0);
        assert_eq!(tx.sack_state().marked_lost_end, None, "linux {linux}");
        (sent, tx.cwnd(), tx.ssthresh())
    };
    assert_eq!(run(true), run(false));
}

/// The scoreboard as recovery ends (tcp-linux.cc line 462, `ClearScoreBoard`). Recovery from
/// the loss of 2 sends 22..=30; the ACK that ends it (cumulative 22) SACKs 24, and 22, 23, 25,
/// 27 and 29 are lost too. The next ACK reports the three newest blocks (30, 28, 26), not 24:
/// TCP-Linux, having forgotten 24, takes it for lost (it lies below `fack_` − 4) and resends
/// it; RFC 6675's kept scoreboard skips it and resends 25.
#[test]
fn a_scoreboard_cleared_at_the_end_of_recovery_resends_what_it_forgot() {
    for clear in [false, true] {
        let recovery_exit_scoreboard = if clear { RecoveryExitScoreboard::Clear } else { RecoveryExitScoreboard::Keep };
        let mut tx = started(RecoveryConfig::Sack(SackParams {
            loss_marking: LossMarking::Fack,
            recovery_exit_scoreboard,
            ..Default::default()
        }));
        assert_eq!(sack_ack(&mut tx, 2, &[(3, 8)], 101 * MS), vec![2]);
        assert_eq!(sack_ack(&mut tx, 2, &[(3, 22)], 102 * MS), (22..=30).collect::<Vec<_>>());
        sack_ack(&mut tx, 22, &[(24, 25)], 200 * MS);
        assert!(!tx.in_recovery);
        assert_eq!(tx.sack_state().scoreboard.is_sacked(24), !clear, "clear {clear}");
        let newest = [(30, 31), (28, 29), (26, 27)];
        assert_eq!(sack_ack(&mut tx, 22, &newest, 201 * MS), vec![22, 23]);
        assert!(tx.in_recovery && tx.stats.fast_recoveries == 2);
        let next = if clear { 24 } else { 25 };
        assert_eq!(sack_ack(&mut tx, 23, &newest, 300 * MS), vec![next], "clear {clear}");
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
