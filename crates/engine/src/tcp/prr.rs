//! Proportional Rate Reduction (RFC 6937): how much a SACK sender may send on each ACK
//! during loss recovery, so that the flight falls smoothly from its size at the loss to
//! ssthresh instead of waiting (RFC 6675's cwnd − pipe) and then bursting.
//!
//! Units are segments (SMSS = 1), as in the rest of the engine. This file is the arithmetic
//! of RFC 6937 Section 3 (and what counts as DeliveredData), shared by the `prr` loss recovery
//! (`recovery/prr.rs`, `recovery/sack.rs`: RFC 6675 sends what NextSeg() picks, `sndcnt`
//! segments at most per ACK) and the ECN response paced by PRR (`ecn.rs`).
//!
//! RFC 6937 Section 3, the pseudo-code this follows line by line:
//!
//! ```text
//! At the beginning of recovery:
//!    ssthresh = CongCtrlAlg()      // Target cwnd after recovery
//!    prr_delivered = 0             // Total bytes delivered during recovery
//!    prr_out = 0                   // Total bytes sent during recovery
//!    RecoverFS = snd.nxt-snd.una   // FlightSize at the start of recovery
//! On every ACK during recovery compute:
//!    DeliveredData = change_in(snd.una) + change_in(SACKd)
//!    prr_delivered += DeliveredData
//!    pipe = (RFC 6675 pipe algorithm)
//!    if (pipe > ssthresh) {
//!       // Proportional Rate Reduction
//!       sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out
//!    } else {
//!       // Two versions of the Reduction Bound
//!       if (conservative) {        // PRR-CRB
//!          limit = prr_delivered - prr_out
//!       } else {                   // PRR-SSRB
//!          limit = MAX(prr_delivered - prr_out, DeliveredData) + MSS
//!       }
//!       // Attempt to catch up, as permitted by limit
//!       sndcnt = MIN(ssthresh - pipe, limit)
//!    }
//! On any data transmission or retransmission:
//!    prr_out += (data sent)        // strictly less than or equal to sndcnt
//! ```
//!
//! RFC 6937 Section 5 recommends PRR-SSRB ("we recommend PRR-SSRB as the reduction bound");
//! it is the default here. ns-3 3.44's `TcpPrrRecovery` follows the later revision
//! (draft-ietf-tcpm-prr-rfc6937bis, RFC 9937): RecoverFS = pipe instead of snd.nxt − snd.una,
//! and CRB unless the ACK cumulatively acknowledges a retransmission (`docs/sack.md`).

use serde::{Deserialize, Serialize};

/// What Proportional Rate Reduction counts as DeliveredData.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrrDelivered {
    /// RFC 6937 Section 3: DeliveredData = change_in(snd.una) + change_in(SACKd). The default.
    #[default]
    Rfc6937,
    /// As ns-3 3.44's `TcpPrrRecovery` receives it: one segment more on every ACK that SACKs
    /// new data while prr_delivered < RecoverFS (`DoRecovery`: `if (isDupAck && m_prrDelivered <
    /// m_recoveryFlightSize) deliveredBytes += segmentSize`, on top of the SACKed bytes), and
    /// an ACK that both SACKs new data and advances snd.una counted twice (`DupAck` and the
    /// partial-ACK branch of `ProcessAck` each call `DoRecovery` with the same delivered
    /// bytes). For comparisons with ns-3 (docs/sack.md).
    Ns3,
}

/// The bound on sending once pipe has fallen to ssthresh (RFC 6937 Section 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReductionBound {
    /// PRR-SSRB, slow-start reduction bound: one segment more than was delivered (RFC 6937
    /// Section 5's recommendation). The default.
    #[default]
    SlowStart,
    /// PRR-CRB, conservative reduction bound: never more than was delivered (strict
    /// packet conservation).
    Conservative,
}

/// The state of one PRR episode (RFC 6937 Section 3), in segments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prr {
    /// "ssthresh = CongCtrlAlg()  // Target cwnd after recovery".
    ssthresh: f64,
    /// "RecoverFS = snd.nxt-snd.una  // FlightSize at the start of recovery".
    recover_fs: u64,
    /// "prr_delivered  // Total bytes delivered during recovery".
    prr_delivered: u64,
    /// "prr_out  // Total bytes sent during recovery".
    prr_out: u64,
    bound: ReductionBound,
}

impl Prr {
    /// "At the beginning of recovery, initialize PRR state": `ssthresh` is the congestion
    /// control's target, `recover_fs` = snd.nxt − snd.una; prr_delivered = prr_out = 0.
    pub fn start(ssthresh: f64, recover_fs: u64, bound: ReductionBound) -> Self {
        Prr { ssthresh, recover_fs: recover_fs.max(1), prr_delivered: 0, prr_out: 0, bound }
    }

    pub fn prr_delivered(&self) -> u64 {
        self.prr_delivered
    }

    pub fn recover_fs(&self) -> u64 {
        self.recover_fs
    }

    pub fn prr_out(&self) -> u64 {
        self.prr_out
    }

    /// "On every ACK during recovery": `delivered` is DeliveredData = change_in(snd.una) +
    /// change_in(SACKd) of this ACK, `pipe` RFC 6675's pipe after it. Returns sndcnt, the
    /// segments this ACK allows to be sent (never negative).
    pub fn on_ack(&mut self, delivered: u64, pipe: u64) -> u64 {
        // prr_delivered += DeliveredData
        self.prr_delivered += delivered;
        let pipe_f = pipe as f64;
        let sndcnt = if pipe_f > self.ssthresh {
            // Proportional Rate Reduction:
            // sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out
            let target = (self.prr_delivered as f64 * self.ssthresh / self.recover_fs as f64).ceil();
            target - self.prr_out as f64
        } else {
            let behind = self.prr_delivered.saturating_sub(self.prr_out);
            let limit = match self.bound {
                // PRR-CRB: limit = prr_delivered - prr_out
                ReductionBound::Conservative => behind,
                // PRR-SSRB: limit = MAX(prr_delivered - prr_out, DeliveredData) + MSS
                ReductionBound::SlowStart => behind.max(delivered) + 1,
            };
            // sndcnt = MIN(ssthresh - pipe, limit): whole segments, so ssthresh - pipe is
            // rounded down (sending the fraction would overshoot the target).
            (self.ssthresh - pipe_f).floor().min(limit as f64)
        };
        sndcnt.max(0.0) as u64
    }

    /// "On any data transmission or retransmission: prr_out += (data sent)".
    pub fn on_sent(&mut self, segments: u64) {
        self.prr_out += segments;
    }
}

/// `delivered = ns3`: the DeliveredData ns-3 3.44's `TcpPrrRecovery::DoRecovery` ends up
/// adding for an ACK that SACKs new data, from RFC 6937's `delivered`. ns-3 treats it as a
/// duplicate ACK and adds one segment while prr_delivered < RecoverFS (RFC 6937 Section 3
/// estimates DeliveredData as 1 MSS per duplicate ACK only when SACK is not in use; ns-3 adds
/// it to the SACKed bytes, including on the ACK that starts recovery), and when the ACK also
/// advances snd.una it calls `DoRecovery` a second time with the same bytes
/// (`TcpSocketBase::DupAck`, then `ProcessAck`'s partial-ACK branch). `episode`: the PRR
/// state of the recovery in progress (None: this ACK starts recovery). Docs: docs/sack.md.
pub fn ns3_delivered(episode: Option<&Prr>, delivered: u64, advanced_una: bool) -> u64 {
    let Some(prr) = episode else {
        // The ACK that starts recovery: EnterRecovery -> DoRecovery(delivered, isDupAck).
        return delivered + 1;
    };
    let dupack_segment = u64::from(prr.prr_delivered() < prr.recover_fs());
    let second_call = if advanced_una { delivered } else { 0 };
    delivered + dupack_segment + second_call
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Halving (ssthresh 10 of RecoverFS 20) with one segment lost and every later ACK
    /// SACKing one segment: while pipe > ssthresh every other ACK sends one segment; the
    /// last ACKs, with pipe at or below ssthresh, are bounded by ssthresh - pipe. The 19
    /// ACKs of the survivors send 10 segments and the flight ends at ssthresh.
    #[test]
    fn proportional_part_sends_one_segment_per_two_acks_when_halving() {
        let mut prr = Prr::start(10.0, 20, ReductionBound::SlowStart);
        let mut sent = Vec::new();
        let mut pipe = 19; // 20 outstanding, one lost
        for _ack in 0..19 {
            // each ACK delivers (SACKs) one segment: pipe falls by one, rises by what is sent
            pipe -= 1;
            let sndcnt = prr.on_ack(1, pipe);
            prr.on_sent(sndcnt);
            pipe += sndcnt;
            sent.push(sndcnt);
        }
        // ACKs 1-16: CEIL(k * 10 / 20) - prr_out = 1, 0, 1, 0, ...; ACK 17: pipe = 10, not
        // above ssthresh: MIN(10 - 10, limit) = 0; ACKs 18-19: pipe 9: MIN(1, limit) = 1.
        let mut expected: Vec<u64> = [1, 0].repeat(8);
        expected.extend([0, 1, 1]);
        assert_eq!(sent, expected);
        assert_eq!((prr.prr_delivered(), prr.prr_out()), (19, 10));
        assert_eq!(pipe, 10, "the flight ends at ssthresh");
    }

    #[test]
    fn proportional_part_rounds_up_and_never_goes_negative() {
        // CUBIC-like target: ssthresh 14 of RecoverFS 20 (beta 0.7).
        let mut prr = Prr::start(14.0, 20, ReductionBound::SlowStart);
        // 3 delivered: CEIL(3 * 14 / 20) = CEIL(2.1) = 3, minus prr_out 0.
        assert_eq!(prr.on_ack(3, 17), 3);
        prr.on_sent(3);
        // 1 more delivered: CEIL(4 * 0.7) = 3, minus 3 sent = 0.
        assert_eq!(prr.on_ack(1, 19), 0);
        // A sender that sent more than allowed (e.g. a forced fast retransmit): clamped to 0.
        prr.on_sent(2);
        assert_eq!(prr.on_ack(1, 18), 0);
    }

    #[test]
    fn reduction_bounds_when_pipe_is_below_ssthresh() {
        // Heavy loss: pipe 4 against ssthresh 10; 2 delivered so far, 1 sent.
        let mut crb = Prr::start(10.0, 20, ReductionBound::Conservative);
        let mut ssrb = Prr::start(10.0, 20, ReductionBound::SlowStart);
        for prr in [&mut crb, &mut ssrb] {
            prr.on_ack(1, 12);
            prr.on_sent(1);
        }
        // this ACK delivers 1 more: prr_delivered 2, prr_out 1, pipe 4
        // CRB: limit = 2 - 1 = 1; sndcnt = min(10 - 4, 1) = 1
        assert_eq!(crb.on_ack(1, 4), 1);
        // SSRB: limit = max(2 - 1, 1) + 1 = 2; sndcnt = min(6, 2) = 2
        assert_eq!(ssrb.on_ack(1, 4), 2);
        // An ACK delivering 5 at once (a repaired hole), nothing sent in between: SSRB's
        // limit = max(7 - 1, 5) + 1 = 7, capped by ssthresh - pipe = 6; CRB's limit
        // = 7 - 1 = 6 binds even with room for 8 (pipe 2).
        assert_eq!(ssrb.on_ack(5, 4), 6);
        assert_eq!(crb.on_ack(5, 2), 6);
    }

    #[test]
    fn catching_up_stops_at_ssthresh_with_fractional_targets() {
        // ssthresh 7.5 (a fractional congestion-control target), pipe 5: at most
        // floor(7.5 - 5) = 2 segments, whatever the bound allows.
        let mut prr = Prr::start(7.5, 15, ReductionBound::SlowStart);
        assert_eq!(prr.on_ack(4, 5), 2);
        // pipe already at 7: floor(0.5) = 0.
        assert_eq!(prr.on_ack(1, 7), 0);
        // pipe exactly at ssthresh is the bounded branch too (pipe > ssthresh is false).
        let mut prr = Prr::start(8.0, 16, ReductionBound::SlowStart);
        assert_eq!(prr.on_ack(1, 8), 0);
    }

    #[test]
    fn an_empty_flight_does_not_divide_by_zero() {
        let mut prr = Prr::start(2.0, 0, ReductionBound::SlowStart);
        assert_eq!(prr.on_ack(1, 3), 2, "CEIL(1 * 2 / 1) - 0");
    }
}
