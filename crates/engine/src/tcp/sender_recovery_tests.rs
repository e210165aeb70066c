//! Sender tests of issue 15: a timeout inside SACK recovery, partial ACKs in SACK recovery,
//! the ECN window of RFC 3168 Section 6.1.2, and Proportional Rate Reduction (RFC 6937).

use super::tests::{ack, prr, retransmissions, run_scripted, sack, seqs, PrrParams, SackParams, ONE_WAY};
use super::*;
use crate::rng::{stream, StreamKind};
use crate::tcp::recovery::prr::{ns3_delivered, PrrDelivered};
use crate::tcp::recovery::sack::{LossFlightSize, PartialAckRetransmit};

const MS: Time = 1_000_000;

fn sender(config: &TcpConfig) -> TcpSender {
    TcpSender::new(0, 0, config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap()
}

fn sack_ack(tx: &mut TcpSender, cum: u64, blocks: &[(u64, u64)], now: Time, out: &mut Vec<Packet>) {
    let blocks: Vec<SackBlock> = blocks.iter().map(|&(a, b)| SackBlock::new(a, b)).collect();
    tx.on_ack_with_sack(&ack(cum, 0), &blocks, now, out);
}

/// A sender in congestion avoidance at a window of 20 segments (receiver window
/// `max_window`), the scripted start of these tests.
fn window_20(recovery: RecoveryConfig, max_window: f64) -> TcpConfig {
    TcpConfig { recovery, initial_window: 20.0, initial_ssthresh: 20.0, max_window, ..TcpConfig::default() }
}

/// The scripted ACKs of these tests: segments 0..19 sent at time 0, 0 and 1 acknowledged at
/// 100 ms, 2 lost; then one ACK per SACKed segment above it at 101 ms, SACKing 3..top for
/// each top of `tops`. Returns the sender and the segments each of those ACKs let out.
fn losing_segment_2(config: &TcpConfig, tops: std::ops::RangeInclusive<u64>) -> (TcpSender, Vec<usize>) {
    let mut tx = sender(config);
    let mut out = Vec::new();
    tx.start(0, &mut out);
    sack_ack(&mut tx, 1, &[], 100 * MS, &mut out);
    sack_ack(&mut tx, 2, &[], 100 * MS, &mut out);
    let mut sent = Vec::new();
    for top in tops {
        out.clear();
        sack_ack(&mut tx, 2, &[(3, top)], 101 * MS, &mut out);
        sent.push(out.len());
    }
    (tx, sent)
}

/// A window of 20 in congestion avoidance loses segment 2; recovery (ssthresh 10) goes on for
/// 60 ACKs that SACK 3..66 while new data keeps the pipe at cwnd; then the retransmission of
/// 2 turns out lost and the timer fires. snd_nxt − snd_una is 73 segments, pipe 10.
fn sender_after_long_sack_recovery(recovery: RecoveryConfig) -> (TcpSender, Vec<Packet>) {
    (losing_segment_2(&window_20(recovery, 1.0e7), 4..=66).0, Vec::new())
}

#[test]
fn timeout_in_sack_recovery_takes_ssthresh_from_pipe_not_from_sacked_data() {
    let (mut tx, mut out) = sender_after_long_sack_recovery(sack());
    assert!(tx.in_recovery);
    assert_eq!(tx.stats.fast_recoveries, 1);
    assert_eq!(tx.ssthresh(), 10.0, "RFC 6675 (4.2): FlightSize 20 at the loss");
    assert_eq!((tx.snd_una, tx.high_tx, tx.snd_nxt), (2, 75, 75));
    // pipe: 2 (lost, retransmitted: 0 + 1) and 66..74 (9, sent, not SACKed, not lost).
    assert_eq!(tx.sack_state().scoreboard.pipe(tx.snd_una, tx.high_tx, tx.sack_state().rxt_next, 3), 10);
    out.clear();
    let deadline = tx.rto_deadline.unwrap();
    assert!(tx.on_timer(deadline, &mut out));
    // RFC 5681 eq. (4) with RFC 6675's pipe as FlightSize: ssthresh = 10 / 2 = 5, cwnd = 1.
    // With snd_nxt - snd_una it was 73 / 2 = 36.5, 3.65 times the recovery's ssthresh.
    assert_eq!((tx.ssthresh(), tx.cwnd()), (5.0, 1.0));
    assert!(!tx.in_recovery && tx.sack_state().scoreboard.is_empty());
    // RFC 6298 Section 5.4: the earliest unacknowledged segment, and only it (cwnd 1).
    assert_eq!(seqs(&out), vec![2]);
    assert!(out[0].has_flag(FLAG_RETRANSMIT));
    out.clear();
    // Its ACK covers everything the receiver holds (3..65): snd_una = 66. Slow start
    // (cwnd 2 < ssthresh 5) resends 66 and 67, sent before the timeout and presumed lost.
    tx.on_ack_with_sack(&ack(66, deadline), &[], deadline + 100 * MS, &mut out);
    assert_eq!(seqs(&out), vec![66, 67]);
    assert!(out.iter().all(|p| p.has_flag(FLAG_RETRANSMIT)));
    assert_eq!((tx.ssthresh(), tx.cwnd()), (5.0, 2.0));
    // No new recovery before RecoveryPoint (74, HighData at the timeout) is acknowledged
    // (RFC 6675 Section 5.1), whatever the SACKs say.
    out.clear();
    for top in 69..=72 {
        sack_ack(&mut tx, 66, &[(68, top)], deadline + 101 * MS, &mut out);
    }
    assert!(!tx.in_recovery);
    assert_eq!(tx.stats.fast_recoveries, 1);
}

#[test]
fn timeout_outside_recovery_does_not_count_sacked_segments_as_in_flight() {
    // 20 segments out, 10..12 SACKed (two: no recovery). The flight is 18, not 20.
    let config = window_20(sack(), 1.0e7);
    let mut tx = sender(&config);
    let mut out = Vec::new();
    tx.start(0, &mut out);
    sack_ack(&mut tx, 0, &[(10, 12)], 100 * MS, &mut out);
    assert!(!tx.in_recovery);
    out.clear();
    assert!(tx.on_timer(tx.rto_deadline.unwrap(), &mut out));
    assert_eq!((tx.ssthresh(), tx.cwnd()), (9.0, 1.0));
}

/// RFC 6675 has no partial-ACK rule: a hole is retransmitted when NextSeg() picks it, by
/// rule (1) once IsLost() holds (DupThresh segments SACKed above it), or by rule (3) when no
/// new data can be sent. (ns-3's TcpSocketBase retransmits the next hole on every partial
/// ACK, `DoRetransmit()` "Assume the next seq is lost"; docs/sack.md.)
#[test]
fn partial_ack_in_sack_recovery_retransmits_the_next_hole_when_rfc_6675_says_so() {
    // Window 20, no receiver-window limit; segments 2 and 20 lost. 20 is the first segment
    // sent after the initial window (on the ACK of 0): only 21 is above it in that RTT.
    let config = window_20(sack(), 1.0e7);
    let mut tx = sender(&config);
    let log = run_scripted(&mut tx, &config, &[2, 20], &[], 2_000 * MS);
    let rtx = retransmissions(&log);
    let rtt = 2 * ONE_WAY;
    assert_eq!(rtx.iter().map(|r| r.1).collect::<Vec<_>>(), vec![2, 20]);
    assert_eq!(rtx[0].0, rtt, "fast retransmit of 2 on the third SACKed segment");
    // The partial ACK (the retransmission of 2 acknowledged, snd_una = 20) arrives at 2 RTT,
    // with the SACKs of the new data sent in recovery right behind it (no serialisation
    // here). On the partial ACK only 21 is SACKed above 20: not lost, and rule (2) sends new
    // data; the third SACKed segment above 20 makes IsLost(20) true and rule (1) resends it
    // in the same instant, without a timeout.
    assert_eq!(rtx[1].0, 2 * rtt);
    let at_partial_ack: Vec<(u64, bool)> =
        log.iter().filter(|&&(t, _, _)| t == 2 * rtt).map(|&(_, seq, r)| (seq, r)).collect();
    let hole = at_partial_ack.iter().position(|&(seq, r)| seq == 20 && r).unwrap();
    assert!(hole >= 1 && at_partial_ack[..hole].iter().all(|&(seq, r)| !r && seq > 21), "{at_partial_ack:?}");
    assert_eq!((tx.stats.fast_recoveries, tx.stats.timeouts, tx.stats.retransmits), (1, 0, 2));
}

/// `partial_ack_retransmit = ns3` (ns-3 3.44's `ProcessAck` → `DoRetransmit()`): the same two
/// losses; at the partial ACK the new head 20 goes out at once, before the new data RFC 6675's
/// NextSeg() sends first, and is not resent when IsLost(20) becomes true.
#[test]
fn partial_ack_retransmit_ns3_resends_the_new_head_at_once() {
    let config = TcpConfig {
        recovery: RecoveryConfig::Sack(SackParams {
            partial_ack_retransmit: PartialAckRetransmit::Ns3,
            ..Default::default()
        }),
        initial_window: 20.0,
        initial_ssthresh: 20.0,
        ..TcpConfig::default()
    };
    let rtt = 2 * ONE_WAY;
    // Segments sent before 20's retransmission in the instant of the partial ACK (the first
    // of them, 29, left on the ACK just before it).
    let sent_before_the_hole = |config: &TcpConfig| {
        let mut tx = sender(config);
        let log = run_scripted(&mut tx, config, &[2, 20], &[], 2_000 * MS);
        assert_eq!(retransmissions(&log).iter().map(|r| r.1).collect::<Vec<_>>(), vec![2, 20]);
        assert_eq!((tx.stats.fast_recoveries, tx.stats.timeouts, tx.stats.retransmits), (1, 0, 2));
        let at_partial_ack: Vec<(u64, bool)> =
            log.iter().filter(|&&(t, _, _)| t == 2 * rtt).map(|&(_, seq, r)| (seq, r)).collect();
        at_partial_ack.iter().position(|&(seq, r)| seq == 20 && r).unwrap()
    };
    let rfc6675 = TcpConfig { recovery: sack(), ..config.clone() };
    assert_eq!(sent_before_the_hole(&config), 1, "ns-3: at once on the partial ACK");
    assert!(sent_before_the_hole(&rfc6675) > 1, "RFC 6675: new data first");
}

/// RFC 3168 Section 6.1.2: at most one reduction per window of data. One CE mark: the
/// receiver echoes ECE on every ACK until the CWR segment reaches it (Section 6.1.3), so
/// the ACKs of the whole window in flight at the reduction, and the ACK of its last
/// segment, still carry ECE; none of them may reduce again.
#[test]
fn one_mark_one_reduction_and_one_per_window_of_data() {
    let config = TcpConfig { ecn: true, initial_window: 10.0, initial_ssthresh: 10.0, ..TcpConfig::default() };
    // Segment 5 marked. The ACKs of 0..4 (100 ms) send 10..14; the ACK of 5 (ECE) finds
    // FlightSize = 15 - 6 = 9: ssthresh = cwnd = 4.5; the reduction's window ends at 15,
    // the first segment that can carry CWR.
    let mut tx = sender(&config);
    run_scripted(&mut tx, &config, &[], &[5], 150 * MS);
    assert_eq!((tx.stats.ecn_reductions, tx.cwnd(), tx.ssthresh()), (1, 4.5, 4.5));
    assert_eq!(tx.ecn_response.recover, Some(15));
    // At 200 ms the ACKs of 10..14 arrive, all with ECE (15, the CWR segment, left at
    // 200 ms on the ACK of 11). The ACK of 14 acknowledges the whole window of the
    // reduction (snd_una = 15) but not the CWR segment: no second reduction, no increase.
    let mut tx = sender(&config);
    run_scripted(&mut tx, &config, &[], &[5], 250 * MS);
    assert_eq!((tx.stats.ecn_reductions, tx.cwnd(), tx.ssthresh()), (1, 4.5, 4.5));
    // Two marks in the same window and a third on a segment sent after the CWR: two
    // reductions; the flow then grows in congestion avoidance.
    let mut tx = sender(&config);
    let log = run_scripted(&mut tx, &config, &[], &[5, 7, 30], 2_000 * MS);
    assert!(log.iter().any(|&(_, seq, _)| seq == 30));
    assert_eq!(tx.stats.ecn_reductions, 2);
    assert_eq!((tx.stats.fast_recoveries, tx.stats.timeouts, tx.stats.retransmits), (0, 0, 0));
}

/// RFC 6937 in the sender: the first ACK of recovery sends the fast retransmit, then one
/// segment per two SACKed ones (ssthresh 10 of RecoverFS 20), where RFC 6675 sends nothing
/// until pipe falls below cwnd and then one per ACK.
#[test]
fn prr_spreads_the_reduction_over_the_acks_of_the_recovery() {
    let mut per_ack = Vec::new();
    for recovery in [sack(), prr()] {
        // 2 lost; segments 3..21 SACKed one per ACK (19 ACKs). Recovery starts on the third.
        let (mut tx, sent) = losing_segment_2(&window_20(recovery, 40.0), 4..=22);
        let mut out = Vec::new();
        assert_eq!(tx.cwnd(), 10.0, "{recovery:?}: ssthresh = cwnd = FlightSize / 2");
        per_ack.push(sent);
        // The retransmission is acknowledged with everything: recovery ends at cwnd 10.
        tx.on_ack_with_sack(&ack(tx.high_tx, 100 * MS), &[], 200 * MS, &mut out);
        assert!(!tx.in_recovery && tx.sack_state().prr.is_none());
        assert_eq!(tx.cwnd(), 10.0);
    }
    // RFC 6675: pipe is 17 after the fast retransmit; nothing until it falls below 10 (the
    // 10th SACK), then one new segment per ACK.
    assert_eq!(per_ack[0], vec![0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    // PRR: the fast retransmit on the third, then CEIL(prr_delivered * 10 / 20) - prr_out:
    // one per two delivered segments from the first.
    let prr = &per_ack[1];
    assert_eq!(prr[2], 1, "fast retransmit");
    assert_eq!(prr.iter().sum::<usize>(), 10, "{prr:?}");
    assert!(prr[3..].windows(2).all(|w| w[0] + w[1] <= 2), "{prr:?}: no burst");
}

/// `prr_delivered = ns3` (ns-3 3.44's TcpPrrRecovery): each ACK that SACKs a new segment
/// counts 2 delivered segments until prr_delivered reaches RecoverFS (20), so PRR sends one
/// segment per ACK for the first half of the recovery instead of one per two; an ACK that
/// also advances snd.una counts its delivered data twice more.
#[test]
fn prr_delivered_ns3_counts_a_segment_more_per_sacked_dupack() {
    let mut per_ack = Vec::new();
    for counting in [PrrDelivered::Rfc6937, PrrDelivered::Ns3] {
        let recovery = RecoveryConfig::Prr(PrrParams { delivered: counting, ..Default::default() });
        // 2 lost; segments 3..21 SACKed one per ACK; recovery starts on the third.
        let (tx, sent) = losing_segment_2(&window_20(recovery, 40.0), 4..=22);
        let prr = tx.sack_state().prr.unwrap();
        per_ack.push((sent, prr.prr_delivered(), prr.prr_out()));
        if counting == PrrDelivered::Ns3 {
            // A partial ACK of 3 segments that also SACKs one: 2 x 4 + (prr_delivered 27 >=
            // RecoverFS 20, so no extra segment).
            assert_eq!(ns3_delivered(tx.sack_state().prr.as_ref(), 4, true), 8);
            assert_eq!(ns3_delivered(tx.sack_state().prr.as_ref(), 1, false), 1);
        }
    }
    // RFC 6937: 17 segments delivered in recovery; one sent per two until pipe reaches
    // ssthresh (10), then PRR-SSRB's one per ACK: 10 sent (as the test above).
    assert_eq!(per_ack[0], (vec![0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1], 17, 10));
    // ns-3: 2 per ACK while prr_delivered < RecoverFS (the ACK entering recovery and the nine
    // after it, prr_delivered 2, 4, ..., 20), then 1: one segment per ACK until then (the flight
    // does not shrink), one per two after; 27 counted, CEIL(27 * 10 / 20) = 14 sent.
    assert_eq!(per_ack[1], (vec![0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1], 27, 14));
}

/// `loss_flight_size = pipe` (ns-3's EnterRecovery): the reduction on entering recovery is
/// from RFC 6675's pipe, not snd_nxt − snd_una; PRR's RecoverFS follows it.
#[test]
fn loss_flight_size_pipe_cuts_from_the_pipe_at_entry() {
    let with_sack = |loss_flight_size| RecoveryConfig::Sack(SackParams { loss_flight_size, ..Default::default() });
    let with_prr = |loss_flight_size| RecoveryConfig::Prr(PrrParams { loss_flight_size, ..Default::default() });
    for (recovery, ssthresh) in [
        (with_sack(LossFlightSize::Rfc5681), 10.0),
        (with_sack(LossFlightSize::Pipe), 8.0),
        (with_prr(LossFlightSize::Pipe), 8.0),
    ] {
        let (tx, _) = losing_segment_2(&window_20(recovery, 20.0), 4..=6);
        // 20 outstanding (2..21), 3 SACKed, 2 lost: pipe = 16, FlightSize = 20.
        assert!(tx.in_recovery);
        assert_eq!(tx.ssthresh(), ssthresh, "{recovery:?}");
        if let Some(mut prr) = tx.sack_state().prr {
            // The entry ACK delivered 1 and sent the fast retransmit. 8 more delivered:
            // CEIL(9 * 8 / RecoverFS) - 1 = CEIL(4.5) - 1 = 4 with RecoverFS = pipe = 16
            // (CEIL(3.6) - 1 = 3 with snd_nxt - snd_una = 20).
            assert_eq!((prr.prr_delivered(), prr.prr_out()), (1, 1));
            assert_eq!(prr.on_ack(8, 15), 4, "RecoverFS = pipe = 16");
        }
    }
}

/// `recovery_exit_credit` (ns-3's TcpSocketBase::ProcessAck leaving CA_RECOVERY): the ACK that
/// ends a SACK recovery sets cwnd = ssthresh and then, with `cumulative`, hands the window law
/// every segment it covers. With Scalable's `ns3` law (+1 per min(cwnd, 100) segments) and 20
/// segments covered at cwnd = ssthresh = 17.5: +20/17.5 segment; `none` leaves cwnd = ssthresh.
#[test]
fn recovery_exit_credit_hands_the_cumulative_ack_to_the_window_law() {
    use crate::tcp::cc::scalable::{ScalableConfig, ScalableDefinition};
    use crate::tcp::CcConfig;
    for (exit_credit, expected) in [(ExitCredit::None, 17.5), (ExitCredit::Cumulative, 17.5 + 20.0 / 17.5)] {
        let config = TcpConfig {
            cc: CcConfig::Scalable(ScalableConfig { definition: ScalableDefinition::Ns3, ..Default::default() }),
            ..window_20(RecoveryConfig::Sack(SackParams { exit_credit, ..Default::default() }), 20.0)
        };
        let mut tx = sender(&config);
        let mut out = Vec::new();
        tx.start(0, &mut out);
        // Segment 0 is lost; 1..19 are SACKed one by one (recovery from the third).
        for top in 2..=20 {
            sack_ack(&mut tx, 0, &[(1, top)], 100 * MS, &mut out);
        }
        assert!(tx.in_recovery);
        assert_eq!(tx.ssthresh(), 17.5, "0.875 x FlightSize 20");
        // The retransmission of 0 arrives; its ACK covers 0..19 (20 segments), RecoveryPoint
        // (19) is passed: recovery ends.
        sack_ack(&mut tx, 20, &[], 200 * MS, &mut out);
        assert!(!tx.in_recovery);
        assert!((tx.cwnd() - expected).abs() < 1e-9, "{exit_credit:?}: cwnd {}", tx.cwnd());
    }
}

/// The window law is handed the segments an ACK *delivers* (RFC 6937's DeliveredData, ns-3's
/// `currentDelivered`, Linux's `acked_sacked`): when a hole is filled outside recovery, the
/// cumulative ACK's advance over segments SACKed earlier is not delivery again.
#[test]
fn window_laws_see_delivered_segments_not_the_cumulative_advance() {
    use crate::tcp::cc::scalable::{ScalableConfig, ScalableDefinition};
    use crate::tcp::CcConfig;
    let config = TcpConfig {
        cc: CcConfig::Scalable(ScalableConfig { definition: ScalableDefinition::Ns3, ..Default::default() }),
        ..window_20(sack(), 20.0)
    };
    let mut tx = sender(&config);
    let mut out = Vec::new();
    tx.start(0, &mut out);
    // Segment 0 arrives late: 1 and 2 are SACKed first (two duplicate ACKs, no recovery).
    sack_ack(&mut tx, 0, &[(1, 2)], 100 * MS, &mut out);
    sack_ack(&mut tx, 0, &[(1, 3)], 100 * MS, &mut out);
    assert!(!tx.in_recovery);
    assert_eq!(tx.cwnd(), 20.0);
    // The ACK of 0 advances snd_una by 3 but delivers one segment: +1/20, not +3/20.
    sack_ack(&mut tx, 3, &[], 101 * MS, &mut out);
    assert!((tx.cwnd() - (20.0 + 1.0 / 20.0)).abs() < 1e-12, "{}", tx.cwnd());
}

/// RFC 5681 Section 3.2 step 2: the segments Limited Transmit sent on the first duplicate ACKs
/// are not part of the FlightSize that sets ssthresh (RFC 6675 (4.2) repeats it for SACK).
/// A window of 10 loses segment 0; the first two duplicate ACKs each let one new segment out
/// (10 and 11); at the third, FlightSize is still 10 and ssthresh 5, not 12 / 2 = 6.
#[test]
fn limited_transmit_segments_are_not_in_the_flight_size_that_sets_ssthresh() {
    for with_sack in [false, true] {
        let config = TcpConfig {
            recovery: if with_sack { sack() } else { RecoveryConfig::default() },
            limited_transmit: true,
            initial_window: 10.0,
            initial_ssthresh: 10.0,
            ..TcpConfig::default()
        };
        let mut tx = sender(&config);
        let mut out = Vec::new();
        tx.start(0, &mut out);
        out.clear();
        for top in 2..=3 {
            sack_ack(&mut tx, 0, &[(1, top)], 100 * MS, &mut out);
        }
        assert_eq!(seqs(&out), vec![10, 11], "sack {with_sack}: limited transmit");
        assert_eq!(tx.limited_transmit_sent, 2);
        sack_ack(&mut tx, 0, &[(1, 4)], 100 * MS, &mut out);
        assert_eq!(tx.stats.fast_recoveries, 1, "sack {with_sack}");
        assert_eq!(tx.ssthresh(), 5.0, "sack {with_sack}: FlightSize 10, limited transmit excluded");
        // A later cumulative ACK starts a new count.
        sack_ack(&mut tx, 12, &[], 200 * MS, &mut out);
        assert_eq!(tx.limited_transmit_sent, 0);
    }
}

/// `rate_halving` (ns-2 2.35 TCP-Linux, tcp-linux.cc `send_much`): the flight may stay at
/// `next_pkts_in_flight_`, which starts at the window before the cut (20) and drops by one
/// per segment sent, so the flight falls from 20 to cwnd 10 by one every second ACK — where
/// RFC 6675 sends nothing until pipe is below cwnd.
#[test]
fn rate_halving_sends_one_segment_per_two_acks_from_the_old_window_down() {
    let halving = RecoveryConfig::Sack(SackParams { rate_halving: true, ..Default::default() });
    let (mut tx, sent) = losing_segment_2(&window_20(halving, 40.0), 4..=22);
    assert_eq!(tx.cwnd(), 10.0, "the law's cut is unchanged: ssthresh = cwnd = 10");
    // The third SACKed ACK: DupThresh reached, next_pkts_in_flight_ = 20. send_much sends
    // the fast retransmit from its loop (tcp-linux.cc lines 629-653): min(20, 16 + 1) = 17
    // before it (pipe 16), min(17, max(17 - 1, 1)) = 16 after it (pipe 17), so it leaves
    // alone; then each ACK takes one from pipe and every second one lets a segment out: the
    // flight falls 17, 16, ... to 10 = cwnd over 14 ACKs, then cwnd - pipe sends one per ACK.
    assert_eq!(sent, vec![0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1]);
    let mut out = Vec::new();
    tx.on_ack_with_sack(&ack(tx.high_tx, 100 * MS), &[], 200 * MS, &mut out);
    assert!(!tx.in_recovery);
    assert_eq!(tx.cwnd(), 10.0, "recovery ends at ssthresh as in RFC 6675");
    assert_eq!(tx.sack_state().next_in_flight, 0, "tcp-linux.cc line 470: stop rate halving");
    // Off (the default) it is RFC 6675's cwnd - pipe (prr_spreads_the_reduction_... above).
    let (_, plain) = losing_segment_2(&window_20(sack(), 40.0), 4..=22);
    assert_eq!(plain, vec![0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    // The same 10 segments over the recovery, spread evenly instead of after a pause.
    assert_eq!(sent.iter().sum::<usize>(), plain.iter().sum::<usize>());
}

/// `timeout_flight_size = cwnd` (ns-2 2.35's `slowdown(CLOSE_SSTHRESH_HALF)` halves
/// `window()`, the congestion window without NewReno's inflation): a timeout inside fast
/// recovery halves the recovery's ssthresh, where RFC 5681's FlightSize (snd_nxt − snd_una)
/// still counts the whole window at the loss.
#[test]
fn newreno_timeout_halves_cwnd_with_ns2_semantics() {
    use crate::tcp::recovery::new_reno::TimeoutFlightSize;
    let mut ssthresh = Vec::new();
    for timeout_flight_size in [TimeoutFlightSize::Rfc5681, TimeoutFlightSize::Cwnd] {
        let recovery = RecoveryConfig::NewReno {
            partial_ack_timer: Default::default(),
            exit_credit: ExitCredit::None,
            timeout_flight_size,
            fast_retransmit_guard: Default::default(),
            partial_ack_deflation: Default::default(),
        };
        let mut tx = sender(&window_20(recovery, 1.0e7));
        let mut out = Vec::new();
        tx.start(0, &mut out);
        // 0 and 1 acknowledged, 2 lost: three duplicate ACKs, fast retransmit at cwnd 20.
        tx.on_ack(&ack(1, 0), 100 * MS, &mut out);
        tx.on_ack(&ack(2, 0), 100 * MS, &mut out);
        for _ in 0..3 {
            tx.on_ack(&ack(2, 0), 101 * MS, &mut out);
        }
        assert!(tx.in_recovery);
        assert_eq!(tx.ssthresh(), 10.0, "FlightSize 20 at the loss");
        let outstanding = tx.snd_nxt - tx.snd_una;
        // The retransmission is lost too: the timer fires inside fast recovery.
        let deadline = tx.rto_deadline.unwrap();
        assert!(tx.on_timer(deadline, &mut out));
        assert_eq!(tx.cwnd(), 1.0);
        ssthresh.push((outstanding, tx.ssthresh()));
    }
    // RFC 5681: (snd_nxt − snd_una) / 2 = 20 / 2, the recovery's ssthresh again; ns-2:
    // window() / 2 = 10 / 2.
    assert_eq!(ssthresh, vec![(20, 10.0), (20, 5.0)]);
}

/// `lost_retransmit = sack_above` (ns-2 2.35 TCP-Linux, scoreboard1.cc lines 212-222): the
/// script of `losing_segment_2` SACKs 3..top for top = 4..=66 while segment 2 and every
/// retransmission of it are lost. Each retransmission of 2 is resent once, on the first ACK
/// whose SACK covers the segment sent after it (the `snd_nxt` at that retransmission), and
/// never on the ACKs in between — the earlier attempt resent it on every ACK and collapsed
/// the goodput. With RFC 6675's rule (the default) 2 goes out once and waits for the timer.
#[test]
fn lost_retransmission_is_resent_once_per_sack_above_its_snd_nxt() {
    use crate::tcp::recovery::sack::LostRetransmit;
    let config = window_20(
        RecoveryConfig::Sack(SackParams { lost_retransmit: LostRetransmit::SackAbove, ..Default::default() }),
        1.0e7,
    );
    let mut tx = sender(&config);
    let mut out = Vec::new();
    tx.start(0, &mut out);
    sack_ack(&mut tx, 1, &[], 100 * MS, &mut out);
    sack_ack(&mut tx, 2, &[], 100 * MS, &mut out);
    // (top of the SACK when 2 went out, HighData + 1 right after it went out)
    let mut resends: Vec<(u64, u64)> = Vec::new();
    for top in 4..=66 {
        out.clear();
        let relost_before = tx.sack_state().relost.len();
        sack_ack(&mut tx, 2, &[(3, top)], 101 * MS, &mut out);
        let twos = seqs(&out).iter().filter(|&&s| s == 2).count();
        assert!(twos <= 1, "one retransmission of 2 per ACK at most (top {top})");
        if twos == 1 {
            // The snd_nxt recorded with this retransmission: HighData + 1 when it was sent
            // (segments after it in `out` are new data sent later on the same ACK).
            let position = seqs(&out).iter().position(|&s| s == 2).unwrap();
            let new_after = seqs(&out)[position + 1..].iter().filter(|&&s| s >= 20).count() as u64;
            resends.push((top, tx.high_tx - new_after));
        }
        assert_eq!(relost_before, 0, "a lost retransmission is resent on the ACK that finds it");
    }
    assert!(tx.in_recovery);
    assert!(resends.len() >= 3, "2 resent more than once without a timeout: {resends:?}");
    // The first is the fast retransmit (the third duplicate ACK, top 6); each later one on
    // the first ACK whose SACK (3..top, its highest segment top − 1) reaches the snd_nxt of
    // the one before: `GetSndNxt() <= fack_`.
    assert_eq!(resends[0].0, 6);
    for pair in resends.windows(2) {
        let (_, snd_nxt) = pair[0];
        assert_eq!(pair[1].0 - 1, snd_nxt, "resent exactly when fack_ reaches {snd_nxt}: {resends:?}");
    }
    // Its acknowledgment ends recovery and forgets the retransmissions.
    out.clear();
    let high = tx.high_tx;
    sack_ack(&mut tx, high, &[], 200 * MS, &mut out);
    assert!(!tx.in_recovery);
    assert!(tx.sack_state().retransmitted.is_empty() && tx.sack_state().relost.is_empty());
    // RFC 6675 (the default): the same script retransmits 2 only once.
    let mut tx = sender(&window_20(sack(), 1.0e7));
    out.clear();
    tx.start(0, &mut out);
    sack_ack(&mut tx, 1, &[], 100 * MS, &mut out);
    sack_ack(&mut tx, 2, &[], 100 * MS, &mut out);
    let mut twos = 0;
    for top in 4..=66 {
        out.clear();
        sack_ack(&mut tx, 2, &[(3, top)], 101 * MS, &mut out);
        twos += seqs(&out).iter().filter(|&&s| s == 2).count();
    }
    assert_eq!(twos, 1);
}

/// scoreboard1.cc line 216: a retransmission is lost again when one sent more than DupThresh
/// + 1 retransmissions after it arrived (`GetRtx() + dupack_threshold + 1 < acked_rtx_id_`),
/// even with no SACK above its snd_nxt: a window of 20 loses 2 and 4..=11 (every other
/// segment is SACKed), the retransmissions of 4..=11 arrive, that of 2 does not.
#[test]
fn lost_retransmission_is_found_by_later_retransmissions_arriving() {
    use crate::tcp::recovery::sack::LostRetransmit;
    let config = window_20(
        RecoveryConfig::Sack(SackParams { lost_retransmit: LostRetransmit::SackAbove, ..Default::default() }),
        20.0,
    );
    let mut tx = sender(&config);
    let mut out = Vec::new();
    tx.start(0, &mut out);
    sack_ack(&mut tx, 2, &[], 100 * MS, &mut out);
    // 12..=19 arrive: recovery, 2 and then 4..=11 are retransmitted as the window allows.
    for top in 13..=20 {
        sack_ack(&mut tx, 2, &[(3, 4), (12, top)], 101 * MS, &mut out);
    }
    assert!(tx.in_recovery);
    let receiver_window_full = tx.high_tx;
    assert_eq!(receiver_window_full, 22, "receiver window 20 above snd_una 2");
    let first: Vec<u64> = tx.sack_state().retransmitted.keys().copied().collect();
    assert!(first.contains(&2), "{first:?}");
    // The retransmissions of 4, 5, ... arrive one by one (SACKed); no SACK reaches 22.
    let mut resent_2 = Vec::new();
    let mut arrived_ids = Vec::new();
    for seq in 4..=11 {
        let id = tx.sack_state().retransmitted.get(&seq).map(|&(_, id)| id);
        out.clear();
        sack_ack(&mut tx, 2, &[(3, seq + 1), (12, 20)], 102 * MS, &mut out);
        arrived_ids.push(id);
        resent_2.push(seqs(&out).contains(&2));
    }
    // 2 has rtx id 0; with DupThresh 3 it is lost again when a retransmission with an id
    // above 0 + 3 + 1 arrives, and resent on that ACK only.
    let expected: Vec<bool> = arrived_ids.iter().map(|id| id.is_some_and(|id| id > 4)).collect();
    let first = expected.iter().position(|&e| e).expect("a late retransmission arrives");
    let resent: Vec<usize> = resent_2.iter().enumerate().filter(|(_, &r)| r).map(|(i, _)| i).collect();
    assert_eq!(resent, vec![first], "ids {arrived_ids:?}");
}
