//! The ECN sender response of RFC 3168 Section 6.1.2: reduce the window at most once per
//! window of data on an ECN echo, set CWR on the next new segment, and — as a sender option —
//! pace that reduction with Proportional Rate Reduction (RFC 6937) as Linux and ns-3 do.
//! Not a loss recovery: a loss found during a PRR-paced reduction continues it
//! (`EcnResponse::take_reduction`). This file holds the option and its state; the reaction to
//! an ECE ACK is the shared sender's (`shared.rs`, `ecn_echo_once_per_window`, `cwr_on_ack`).

use serde::{Deserialize, Serialize};

use super::prr::{Prr, PrrDelivered};

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

/// Whether retransmitted data packets are ECN-capable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EcnRetransmit {
    /// RFC 3168 Section 6.1.5: "the TCP data sender MUST NOT set an ECT codepoint in the IP
    /// header of a retransmitted data packet". The default.
    #[default]
    NotEct,
    /// Every data packet is ECT, retransmissions included, as ns-2 2.35's agents send them
    /// (tcp.cc `TcpAgent::output`, lines 702-704: `if (ecn_) hf->ect() = 1`, for every
    /// packet but a SYN; Agent/TCP/Linux sends through it too): an AQM marks a retransmission
    /// where RFC 3168's sender would see it dropped.
    Ect,
}

/// The state of the sender's ECN response.
#[derive(Clone, Debug)]
pub struct EcnResponse {
    pub(crate) reduction: EcnReduction,
    /// PRR's DeliveredData on the ACK that starts a PRR-paced reduction: ns-3's count when the
    /// loss recovery is `prr` with `delivered = ns3`.
    pub(crate) delivered: PrrDelivered,
    /// RFC 3168 Section 6.1.2: no second ECN reduction until the cumulative ACK passes
    /// this segment (`high_tx` at the reduction: the first segment that can carry CWR).
    pub(crate) recover: Option<u64>,
    /// CWR goes on the next new data segment (RFC 3168 Section 6.1.2).
    pub send_cwr: bool,
    /// ns-2's `SetCWRonRetransmit_` (`TcpConfig::cwr_on_retransmit`): CWR goes on the next
    /// segment sent, a retransmission too (ns-2 2.35 tcp.cc `TcpAgent::output`:
    /// `if (cong_action_ && (!is_retransmit || SetCWRonRetransmit_))`).
    pub(crate) cwr_on_retransmit: bool,
    /// The PRR episode of the reduction in progress (`EcnReduction::Prr`), until the
    /// cumulative ACK passes `recover`.
    pub(crate) cwr: Option<Prr>,
    /// Segments this ACK allows during that reduction (RFC 6937's sndcnt).
    pub(crate) sndcnt: u64,
}

impl EcnResponse {
    pub fn new(reduction: EcnReduction, delivered: PrrDelivered, cwr_on_retransmit: bool) -> Self {
        EcnResponse { reduction, delivered, recover: None, send_cwr: false, cwr_on_retransmit, cwr: None, sndcnt: 0 }
    }

    /// Whether this segment carries CWR: the first new data segment after a window reduction
    /// (RFC 3168 Section 6.1.2: "the CWR bit in the TCP header SHOULD NOT be set on
    /// retransmitted packets"), or with `cwr_on_retransmit` the first segment of any kind
    /// (ns-2 2.35 tcp.cc `TcpAgent::output`, `SetCWRonRetransmit_`).
    #[inline]
    pub fn take_cwr(&mut self, retransmit: bool) -> bool {
        let cwr = self.send_cwr && (!retransmit || self.cwr_on_retransmit);
        if cwr {
            self.send_cwr = false;
        }
        cwr
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
