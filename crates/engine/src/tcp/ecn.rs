//! The ECN sender response of RFC 3168 Section 6.1.2: reduce the window at most once per
//! window of data on an ECN echo, set CWR on the next new segment, and — as a sender option —
//! pace that reduction with Proportional Rate Reduction (RFC 6937) as Linux and ns-3 do.
//! Not a loss recovery: a loss found during a PRR-paced reduction continues it
//! (`EcnResponse::take_reduction`).

use serde::{Deserialize, Serialize};

use super::recovery::prr::{Prr, PrrDelivered, ReductionBound};
use super::sack::Scoreboard;
use super::sender::SenderCore;
use crate::time::Time;

/// How a sender brings its window down after an ECN echo (RFC 3168 Section 6.1.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EcnReduction {
    /// RFC 3168 Section 6.1.2: "the TCP source halves the congestion window" at once (the
    /// congestion control's `on_ecn`); the sender is then silent until the flight falls below
    /// the new window. Other ACKs of the window still grow it. The default.
    #[default]
    Immediate,
    /// The reduction paced by Proportional Rate Reduction (RFC 6937 Section 3), as Linux
    /// does in its CWR state since 3.7 (commit 684bad11, "tcp: use PRR to reduce cwin in CWR
    /// state") and ns-3 3.44 does with `TcpPrrRecovery` (`TcpSocketBase::EnterCwr` calls
    /// `EnterRecovery`, every ACK in `CA_CWR` calls `DoRecovery`): ssthresh is set at once,
    /// each ACK until the window that carried the mark is acknowledged allows `sndcnt`
    /// segments, the window law does not grow, and a loss detected meanwhile continues the
    /// same reduction instead of starting another (Linux's `tcp_enter_recovery` from CWR).
    Prr,
}

/// The state of the sender's ECN response.
#[derive(Clone, Debug)]
pub struct EcnResponse {
    reduction: EcnReduction,
    /// PRR's DeliveredData on the ACK that starts a PRR-paced reduction: ns-3's count when the
    /// loss recovery is `prr` with `delivered = ns3`.
    delivered: PrrDelivered,
    /// RFC 3168 Section 6.1.2: no second ECN reduction until the cumulative ACK passes
    /// this segment (`high_tx` at the reduction: the first segment that can carry CWR).
    pub(crate) recover: Option<u64>,
    /// CWR goes on the next new data segment.
    pub send_cwr: bool,
    /// The PRR episode of the reduction in progress (`EcnReduction::Prr`), until the
    /// cumulative ACK passes `recover`.
    cwr: Option<Prr>,
    /// Segments this ACK allows during that reduction (RFC 6937's sndcnt).
    sndcnt: u64,
}

impl EcnResponse {
    pub fn new(reduction: EcnReduction, delivered: PrrDelivered) -> Self {
        EcnResponse { reduction, delivered, recover: None, send_cwr: false, cwr: None, sndcnt: 0 }
    }

    /// A PRR-paced reduction is in progress: it ends when the cumulative ACK passes the
    /// window that carried the mark (`recover`), with cwnd = ssthresh, the law's window since
    /// `on_ecn` (Linux's tcp_end_cwnd_reduction; ns-3's CA_CWR -> CA_OPEN).
    #[inline]
    pub fn reducing(&mut self, snd_una: u64) -> bool {
        if self.cwr.is_some() && self.recover.is_none_or(|recover| snd_una > recover) {
            self.cwr = None;
        }
        self.cwr.is_some()
    }

    /// A PRR-paced reduction, seen by the sending loop (without ending it).
    #[inline]
    pub fn paced(&self) -> bool {
        self.cwr.is_some()
    }

    /// A timeout or a Tahoe/Reno loss response ends the reduction.
    #[inline]
    pub fn cancel(&mut self) {
        self.cwr = None;
    }

    /// The reduction in progress, handed to SACK loss recovery to continue (RFC 3168
    /// Section 6.1.2: one reduction per window; Linux's tcp_enter_recovery from CWR).
    pub fn take_reduction(&mut self, snd_una: u64) -> Option<Prr> {
        self.reducing(snd_una).then(|| self.cwr.take()).flatten()
    }

    /// The window a PRR-paced reduction allows for this ACK: its sndcnt segments beyond the
    /// flight, within the receiver's window (Linux's tcp_cwnd_reduction: cwnd = in_flight +
    /// sndcnt). None when no such reduction is in progress.
    #[inline]
    pub fn paced_window(&mut self, flight: u64, max_window: f64) -> Option<u64> {
        self.cwr.is_some().then(|| (flight + std::mem::take(&mut self.sndcnt)).min(max_window.floor() as u64))
    }

    /// RFC 6937 Section 3: "prr_out += (data sent)".
    #[inline]
    pub fn on_sent(&mut self, sent: u64) {
        if let Some(prr) = self.cwr.as_mut() {
            prr.on_sent(sent);
        }
    }
}

impl SenderCore {
    /// An ACK echoing ECE for a law that reacts once per window (RFC 3168 Section 6.1.2):
    /// react to ECE at most once per window of data, and never increase the window in
    /// response to an ECE ACK. The window ends only when a segment sent after the reduction
    /// is acknowledged: the receiver echoes ECE on every ACK until the CWR segment reaches it
    /// (Section 6.1.3), and the first segment that can carry CWR is `high_tx` at the
    /// reduction, so the ACKs up to and including the one of `high_tx - 1` still echo the mark
    /// already answered. As Linux's CWR state ("CWR is to be held something *above* high_seq
    /// is ACKed for CWR bit to reach receiver", tcp_input.c) and ns-3's (`ackNumber >
    /// m_recover`, m_recover = m_highTxMark, TcpSocketBase::ReceivedAck). `docs/packet.md`.
    pub(crate) fn ecn_echo_once_per_window(&mut self, delivered: u64, now: Time, scoreboard: Option<&Scoreboard>) {
        if self.ecn_response.recover.is_none_or(|r| self.snd_una > r) {
            let event = self.congestion_event(now);
            self.cc.on_ecn(&event);
            self.ecn_response.recover = Some(self.high_tx);
            self.ecn_response.send_cwr = true;
            self.stats.ecn_reductions += 1;
            if self.ecn_response.reduction == EcnReduction::Prr {
                // RFC 6937 Section 3 "at the beginning of recovery": ssthresh is the
                // law's window after `on_ecn`, RecoverFS the FlightSize it was given.
                self.ecn_response.cwr = Some(Prr::start(self.cc.window(), event.in_flight, ReductionBound::SlowStart));
                self.cwr_on_ack(delivered, true, scoreboard);
            }
        } else if self.ecn_response.cwr.is_some() {
            // An ECE ACK of the window already answered: the reduction goes on.
            self.cwr_on_ack(delivered, false, scoreboard);
        }
    }

    /// RFC 6937 Section 3 for one ACK of a PRR-paced ECN reduction: `delivered` is its
    /// DeliveredData; the segments it allows go out in `send_available`. `entering`: the ACK
    /// that starts the reduction (with `delivered = ns3` counted as ns-3 does: EnterCwr's
    /// DoRecovery adds a segment as for a duplicate ACK, then ProcessAck's CA_CWR branch
    /// calls DoRecovery again with the same bytes).
    pub(crate) fn cwr_on_ack(&mut self, delivered: u64, entering: bool, scoreboard: Option<&Scoreboard>) {
        let ecn = &mut self.ecn_response;
        let delivered = if entering && ecn.delivered == PrrDelivered::Ns3 { 2 * delivered + 1 } else { delivered };
        // RFC 6675's pipe outside loss recovery: sent, neither acknowledged nor SACKed.
        let flight = self.snd_nxt - self.snd_una;
        let pipe = flight - scoreboard.map_or(0, |board| board.sacked_between(self.snd_una, self.snd_nxt));
        let Some(prr) = ecn.cwr.as_mut() else { return };
        if delivered == 0 {
            // Linux's tcp_cwnd_reduction and ns-3's DoRecovery return when nothing was delivered.
            return;
        }
        // Both also send one segment while prr_out is 0 (Linux: `max(sndcnt, prr_out ? 0 : 1)`).
        let floor = u64::from(prr.prr_out() == 0);
        ecn.sndcnt = prr.on_ack(delivered, pipe).max(floor);
    }
}
