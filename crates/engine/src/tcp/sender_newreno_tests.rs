//! Sender tests of NewReno's parameters with ns-2 2.35's semantics (issue 27): scripted ACKs
//! fed by hand, each test against the default.

use super::tests::ack;
use super::*;
use crate::rng::{stream, StreamKind};
use crate::tcp::recovery::new_reno::{FastRetransmitGuard, PartialAckDeflation};

const MS: Time = 1_000_000;

fn newreno(fast_retransmit_guard: FastRetransmitGuard) -> TcpSender {
    newreno_with(fast_retransmit_guard, PartialAckDeflation::Rfc6582)
}

/// Segments 0..9 sent at time 0 (cwnd = ssthresh = 10, congestion avoidance).
fn newreno_with(fast_retransmit_guard: FastRetransmitGuard, partial_ack_deflation: PartialAckDeflation) -> TcpSender {
    let config = TcpConfig {
        recovery: RecoveryConfig::NewReno {
            partial_ack_timer: Default::default(),
            exit_credit: Default::default(),
            timeout_flight_size: Default::default(),
            fast_retransmit_guard,
            partial_ack_deflation,
        },
        initial_window: 10.0,
        initial_ssthresh: 10.0,
        ..TcpConfig::default()
    };
    TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap()
}

/// A spurious timeout: segments 0..9 sent at time 0, the timer fires (recover = 9) before
/// their ACKs, which then all arrive; the go-back-N has meanwhile resent segments the
/// receiver holds, so it answers with duplicate ACKs of exactly recover + 1 (snd_una 10).
/// Returns the sender after those ACKs and the segments out so far.
fn after_spurious_timeout(guard: FastRetransmitGuard) -> TcpSender {
    let mut tx = newreno(guard);
    let mut out = Vec::new();
    tx.start(0, &mut out);
    assert_eq!(out.len(), 10);
    let deadline = tx.rto_deadline.unwrap();
    assert!(tx.on_timer(deadline, &mut out));
    assert_eq!((tx.recover, tx.cwnd(), tx.ssthresh()), (Some(9), 1.0, 5.0));
    let late = deadline + 10 * MS;
    for k in 1..=10 {
        tx.on_ack(&ack(k, 0), late, &mut out);
    }
    assert_eq!((tx.snd_una, tx.stats.fast_recoveries), (10, 0));
    tx
}

/// `fast_retransmit_guard`: the duplicate ACKs at snd_una = recover + 1 that a go-back-N after
/// a spurious timeout draws start a fast retransmit (and halve the window a second time) by
/// default; with `ack_beyond_recover` (RFC 6582 Section 3.2's note after step 4, "ack_number − 1 >
/// recover", ns-2's tcp-newreno.cc `highest_ack_ > recover_`) they do not, and a loss beyond
/// recover is still repaired by a fast retransmit.
#[test]
fn duplicate_acks_at_recover_start_no_fast_retransmit_beyond_recover_guard() {
    for (guard, spurious) in [(FastRetransmitGuard::AckCoversRecover, 1), (FastRetransmitGuard::AckBeyondRecover, 0)] {
        let mut tx = after_spurious_timeout(guard);
        let cwnd = tx.cwnd();
        let mut out = Vec::new();
        let later = tx.rto_deadline.unwrap() - 1;
        for _ in 0..3 {
            tx.on_ack(&ack(10, 0), later, &mut out);
        }
        assert_eq!(tx.stats.fast_recoveries, spurious, "{guard:?}");
        assert_eq!(tx.in_recovery, spurious == 1, "{guard:?}");
        if spurious == 0 {
            assert_eq!(tx.cwnd(), cwnd, "{guard:?}: the window is not cut again");
            assert!(out.iter().all(|p| p.seq >= tx.snd_una), "{guard:?}: no retransmission");
            // One segment beyond recover acknowledged (snd_una 11 = recover + 2), the next
            // lost: its duplicate ACKs start a fast retransmit of 11.
            tx.on_ack(&ack(11, 0), later, &mut out);
            out.clear();
            for _ in 0..3 {
                tx.on_ack(&ack(11, 0), later, &mut out);
            }
            assert_eq!(tx.stats.fast_recoveries, 1, "{guard:?}");
            assert_eq!(out.first().map(|p| p.seq), Some(11), "{guard:?}");
        }
    }
}

#[test]
fn guard_allows_by_cumulative_ack() {
    use FastRetransmitGuard::*;
    assert!(AckCoversRecover.allows(5, None) && AckBeyondRecover.allows(5, None));
    assert!(!AckCoversRecover.allows(9, Some(9)) && AckCoversRecover.allows(10, Some(9)));
    assert!(!AckBeyondRecover.allows(10, Some(9)) && AckBeyondRecover.allows(11, Some(9)));
}

/// `partial_ack_deflation`: segments 0 and 8 of a window of 10 lost. Three duplicate ACKs: fast
/// retransmit, cwnd = ssthresh = 5, inflation 3; two more: inflation 5. The partial ACK of 8
/// segments deflates the window to 5 + 5 − 8 + 1 = 3 in both (RFC 6582 Section 3.2 step 3; ns-2 takes the
/// 3 beyond the inflation from cwnd: cwnd 2, `dupwnd_` 1). The full ACK: RFC 6582 leaves
/// recovery at cwnd = ssthresh = 5; ns-2 (tcp-newreno.cc) keeps cwnd 2 and slow-starts it to 3.
#[test]
fn partial_ack_deflation_ns2_takes_from_cwnd_and_keeps_it_at_the_exit() {
    for (deflation, exit_cwnd) in [(PartialAckDeflation::Rfc6582, 5.0), (PartialAckDeflation::Ns2, 3.0)] {
        let mut tx = newreno_with(FastRetransmitGuard::AckCoversRecover, deflation);
        let mut out = Vec::new();
        tx.start(0, &mut out);
        for _ in 0..5 {
            tx.on_ack(&ack(0, 0), 100 * MS, &mut out);
        }
        assert_eq!((tx.stats.fast_recoveries, tx.cwnd(), tx.inflation), (1, 5.0, 5.0), "{deflation:?}");
        out.clear();
        tx.on_ack(&ack(8, 0), 200 * MS, &mut out);
        assert!(tx.in_recovery, "{deflation:?}");
        assert_eq!(out.first().map(|p| p.seq), Some(8), "{deflation:?}: the next hole resent");
        assert_eq!(tx.usable_window(), 3, "{deflation:?}: the same window during recovery");
        tx.on_ack(&ack(10, 0), 300 * MS, &mut out);
        assert!(!tx.in_recovery, "{deflation:?}");
        assert_eq!((tx.cwnd(), tx.ssthresh()), (exit_cwnd, 5.0), "{deflation:?}");
    }
}
