//! NewReno (RFC 6582): Reno's fast recovery (`reno.rs`) that stays in recovery until the
//! ACK of everything outstanding at the loss (`recover`) arrives, retransmitting the first
//! unacknowledged segment on each partial ACK — one hole repaired per round trip.

use serde::{Deserialize, Serialize};

use super::{reno, ExitCredit};
use crate::packet::Packet;
use crate::tcp::cc::CongestionEvent;
use crate::tcp::shared::SenderCore;
use crate::time::Time;

/// When NewReno's fast recovery restarts the retransmission timer on a partial ACK
/// (RFC 6582 Section 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartialAckTimer {
    /// RFC 6582 Section 3.2 step 3: "For the first partial ACK that arrives during fast
    /// recovery, also reset the retransmit timer" (the "Impatient" variant of Section 4;
    /// ns-3's `TcpSocketBase` and ns-2's `Agent/TCP/Newreno` since 2003, `newreno_changes1_ 1`,
    /// do the same). Many losses in one window end in a timeout. The default.
    #[default]
    Impatient,
    /// Reset it on every partial ACK ("Slow-but-Steady", RFC 6582 Section 4): recovery
    /// repairs one loss per round trip however many there are.
    SlowButSteady,
}

/// The FlightSize a retransmission timeout halves (ssthresh = FlightSize / 2, RFC 5681 eq. (4)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutFlightSize {
    /// RFC 5681 Section 3.1: FlightSize = snd_nxt − snd_una, everything outstanding (after a
    /// timeout inside fast recovery, the window at the loss and what recovery sent beyond it).
    /// The default.
    #[default]
    Rfc5681,
    /// ns-2 2.35 (tcp.cc `TcpAgent::timeout` → `slowdown(CLOSE_SSTHRESH_HALF |
    /// CLOSE_CWND_RESTART)`, lines 1241-1296: `halfwin = (int)(window() / 2)`, `window()` =
    /// min(cwnd_, wnd_), line 900): the congestion window without NewReno's inflation
    /// (`dupwnd_` is kept apart), i.e. ssthresh after a timeout in fast recovery is half the
    /// recovery's ssthresh.
    Cwnd,
}

/// Which duplicate ACKs may start a new fast retransmit after an earlier loss episode (a fast
/// retransmit or a timeout) set `recover` to the highest segment then sent (RFC 6582 Section
/// 3.2 step 2: "... if the Cumulative Acknowledgment field covers more than recover ... If not,
/// the TCP does not enter fast retransmit").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FastRetransmitGuard {
    /// Duplicate ACKs of an ACK that acknowledges everything up to `recover` may start one
    /// (snd_una > recover). The default.
    #[default]
    AckCoversRecover,
    /// Only duplicate ACKs of an ACK beyond `recover` may: "the acknowledgment "ack_number"
    /// covers more than recover when ack_number − 1 > recover; i.e., at least one byte more
    /// of data is acknowledged beyond the highest byte that was outstanding" (RFC 6582 Section
    /// 3.2, after step 4), in segments snd_una > recover + 1; ns-2 2.35's Agent/TCP/Newreno
    /// (tcp-newreno.cc `dupack_action`, line 116: `recovered = (highest_ack_ > recover_)`,
    /// `lessCareful_ 0`, read from the binary). So the duplicate ACKs that a go-back-N after a
    /// spurious timeout draws from the receiver (the resent copies of segments it holds, acked
    /// at exactly `recover`) do not halve the window again.
    AckBeyondRecover,
}

impl PartialAckDeflation {
    pub fn is_default(&self) -> bool {
        *self == PartialAckDeflation::default()
    }
}

impl FastRetransmitGuard {
    pub fn is_default(&self) -> bool {
        *self == FastRetransmitGuard::default()
    }

    /// A new loss episode may begin at the current cumulative ACK (`snd_una`, the next
    /// segment expected) after one that set `recover`.
    #[inline]
    pub fn allows(self, snd_una: u64, recover: Option<u64>) -> bool {
        match (self, recover) {
            (_, None) => true,
            (FastRetransmitGuard::AckCoversRecover, Some(recover)) => snd_una > recover,
            (FastRetransmitGuard::AckBeyondRecover, Some(recover)) => snd_una > recover + 1,
        }
    }
}

/// What a partial ACK takes off the window during fast recovery, and what the full ACK leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartialAckDeflation {
    /// RFC 6582 Section 3.2 step 3: "deflate the congestion window by the amount of new data
    /// acknowledged ..., then add back one SMSS", and for a full ACK: it sets cwnd to
    /// ssthresh — the deflation is undone at the exit. The default.
    #[default]
    Rfc6582,
    /// ns-2 2.35's Agent/TCP/Newreno (`partial_window_deflation_ 1`, `exit_recovery_fix_ 0`,
    /// read from the binary): tcp-newreno.cc `partialnewack` (lines 64-80) takes the deflation
    /// from the inflation `dupwnd_` while it lasts (`dupwnd_ -= deflate - 1`) and the rest from
    /// `cwnd_` itself (`cwnd_ -= deflate - dupwnd_; dupwnd_ = 1`, at least 1); the full ACK
    /// (`recv`, lines 226-245) drops the inflation but keeps that `cwnd_`, and grows it as any
    /// new ACK does (`recv_newack_helper` → `opencwnd`): a recovery of several losses ends
    /// below ssthresh, in slow start.
    Ns2,
}

#[derive(Clone, Copy, Debug)]
pub struct NewReno {
    partial_ack_timer: PartialAckTimer,
    exit_credit: ExitCredit,
    pub(crate) timeout_flight_size: TimeoutFlightSize,
    pub(crate) fast_retransmit_guard: FastRetransmitGuard,
    partial_ack_deflation: PartialAckDeflation,
    /// A partial ACK has arrived in the current fast recovery.
    partial_ack_seen: bool,
}

impl NewReno {
    pub fn new(partial_ack_timer: PartialAckTimer, exit_credit: ExitCredit) -> Self {
        NewReno {
            partial_ack_timer,
            exit_credit,
            timeout_flight_size: TimeoutFlightSize::Rfc5681,
            fast_retransmit_guard: FastRetransmitGuard::AckCoversRecover,
            partial_ack_deflation: PartialAckDeflation::Rfc6582,
            partial_ack_seen: false,
        }
    }

    /// With `timeout_flight_size` (default RFC 5681's).
    pub fn with_timeout_flight_size(self, timeout_flight_size: TimeoutFlightSize) -> Self {
        NewReno { timeout_flight_size, ..self }
    }

    /// With `fast_retransmit_guard` (default `AckCoversRecover`).
    pub fn with_fast_retransmit_guard(self, fast_retransmit_guard: FastRetransmitGuard) -> Self {
        NewReno { fast_retransmit_guard, ..self }
    }

    /// With `partial_ack_deflation` (default `Rfc6582`).
    pub fn with_partial_ack_deflation(self, partial_ack_deflation: PartialAckDeflation) -> Self {
        NewReno { partial_ack_deflation, ..self }
    }

    /// FlightSize for a retransmission timeout (None: RFC 5681's snd_nxt − snd_una).
    pub fn timeout_flight_size(&self, core: &SenderCore) -> Option<u64> {
        match self.timeout_flight_size {
            TimeoutFlightSize::Rfc5681 => None,
            // ns-2's `(int) window()`: the law's window, whole segments, without inflation.
            TimeoutFlightSize::Cwnd => Some(core.cc.window().max(0.0) as u64),
        }
    }

    /// RFC 6582 Section 3.2 step 2: as Reno's (ssthresh, retransmit, cwnd = ssthresh + 3).
    pub fn on_fast_retransmit(
        &mut self,
        core: &mut SenderCore,
        event: &CongestionEvent,
        now: Time,
        out: &mut Vec<Packet>,
    ) {
        self.partial_ack_seen = false;
        reno::enter(core, event, now, out);
    }

    /// A new ACK in fast recovery; true when it was a partial ACK (handled here entirely).
    pub fn on_recovery_ack(
        &mut self,
        core: &mut SenderCore,
        acked: u64,
        rtt: Time,
        ece: bool,
        now: Time,
        out: &mut Vec<Packet>,
    ) -> bool {
        if core.snd_una > core.recover.unwrap_or(0) {
            // RFC 6582 Section 3.2 step 3: full ACK, leave fast recovery with
            // cwnd = ssthresh (the algorithm's window after `on_loss`).
            core.in_recovery = false;
            core.inflation = 0.0;
            if self.partial_ack_deflation == PartialAckDeflation::Ns2 {
                // ns-2: the full ACK is a new ACK like any other (`opencwnd`).
                core.window_on_new_ack(acked, acked, rtt, ece, now, None);
            }
            self.exit_credit.apply(core, acked, rtt, ece, now, None);
            return false;
        }
        // RFC 6582 Section 3.2 step 3: partial ACK: retransmit the first unacked
        // segment, deflate by the amount acknowledged, add back one segment, and
        // "for the first partial ACK ... also reset the retransmit timer" (Impatient);
        // Slow-but-Steady (Section 4) resets it on every partial ACK.
        core.retransmit_first_unacked(now, out);
        let deflate = acked as f64;
        match self.partial_ack_deflation {
            PartialAckDeflation::Rfc6582 => core.inflation = core.inflation - deflate + 1.0,
            // tcp-newreno.cc `partialnewack`, lines 72-79.
            PartialAckDeflation::Ns2 if core.inflation > deflate => core.inflation -= deflate - 1.0,
            PartialAckDeflation::Ns2 => {
                let window = core.cc.state_mut();
                window.cwnd = (window.cwnd - (deflate - core.inflation)).max(1.0);
                core.inflation = 1.0;
            }
        }
        if !self.partial_ack_seen || self.partial_ack_timer == PartialAckTimer::SlowButSteady {
            core.arm_timer(now);
        }
        self.partial_ack_seen = true;
        core.send_available(now, out);
        true
    }
}
