//! TCP: sender and receiver machinery shared by every congestion-control algorithm.

pub mod cc;
pub mod prr;
pub mod receiver;
pub mod rto;
pub mod sack;
pub mod sender;

use serde::{Deserialize, Serialize};

use crate::time::Time;
pub use cc::CcConfig;

/// Loss recovery after a fast retransmit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recovery {
    /// NewReno fast recovery (RFC 6582).
    NewReno,
    /// Tahoe: fast retransmit, then slow start from one segment (no fast recovery).
    Tahoe,
}

/// When NewReno's fast recovery restarts the retransmission timer on a partial ACK
/// (RFC 6582 Section 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartialAckTimer {
    /// RFC 6582 Section 3.2 step 4: "For the first partial ACK that arrives during fast
    /// recovery, also reset the retransmit timer" (the "Impatient" variant of Section 4;
    /// ns-3's `TcpSocketBase` and ns-2's `Agent/TCP/Newreno` since 2003, `newreno_changes1_ 1`,
    /// do the same). Many losses in one window end in a timeout. The default.
    #[default]
    Impatient,
    /// Reset it on every partial ACK ("Slow-but-Steady", RFC 6582 Section 4): recovery
    /// repairs one loss per round trip however many there are.
    SlowButSteady,
}

/// How a SACK sender (`sack = true`) paces its transmissions during loss recovery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SackRecovery {
    /// RFC 6675 Section 5 (C): send while cwnd − pipe ≥ 1 segment, cwnd being the window
    /// after the reduction (ns-3's `TcpClassicRecovery` with SACK). The default.
    #[default]
    Rfc6675,
    /// Proportional Rate Reduction (RFC 6937, PRR-SSRB): each ACK allows `sndcnt` segments,
    /// so the flight falls in proportion to the data delivered (Linux's default since 3.2,
    /// ns-3's `TcpPrrRecovery`, its default). `tcp/prr.rs`.
    Prr,
}

/// What a SACK sender takes as FlightSize when it enters loss recovery (RFC 6675 step 4.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossFlightSize {
    /// RFC 6675 step (4.2) and RFC 5681 eq. (4): FlightSize = snd_nxt − snd_una, SACKed and
    /// lost segments included (Linux's Reno likewise halves cwnd). The default.
    #[default]
    Rfc5681,
    /// RFC 6675's pipe (SACKed and lost segments excluded), as ns-3's
    /// `TcpSocketBase::EnterRecovery` (`GetSsThresh(tcb, BytesInFlight())`): DupThresh + 1
    /// segments less at a single loss, a deeper cut at small windows. For comparisons with ns-3.
    Pipe,
}

/// What the ACK that ends loss recovery does besides setting cwnd = ssthresh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryExitCredit {
    /// RFC 6582 Section 3.2 step 3 ("Full acknowledgments ... set cwnd to ... ssthresh"),
    /// RFC 6675 Section 5 (A) (the recovery phase ends; cwnd is step 4.2's ssthresh): the
    /// ACK that ends recovery does not grow the window. The default.
    #[default]
    None,
    /// ns-3 3.44 `TcpSocketBase::ProcessAck`, leaving `CA_RECOVERY`: cwnd = ssthresh, then
    /// `IncreaseWindow(tcb, segsAcked)` with `segsAcked = (ackNumber - oldHeadSequence) /
    /// segmentSize`, every segment the ACK covers (the SACKed ones of the whole recovery
    /// included). Laws that count acknowledged segments (ns-3's TcpScalable, TcpCubic,
    /// TcpHighSpeed; aqmlab's `scalable` `ns3`, `cubic`'s W_est) then grow by about one
    /// window's worth of ACKs at once; Reno's +1/cwnd per ACK does not count them. For
    /// comparisons with ns-3.
    Cumulative,
}

/// What Proportional Rate Reduction counts as DeliveredData (`sack_recovery = prr`).
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

/// What a SACK sender does on a partial ACK during loss recovery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartialAckRetransmit {
    /// RFC 6675 Section 5 (B)-(C): nothing of its own; HighACK and pipe change and NextSeg()
    /// decides (a hole is resent once IsLost() holds, or by rule (3)). The default.
    #[default]
    Rfc6675,
    /// ns-3 3.44 `TcpSocketBase::ProcessAck`, partial ACK in `CA_RECOVERY`: unless the new head
    /// was already retransmitted (`IsRetransmittedDataAcked`), `DoRetransmit()` sends the first
    /// segment marked lost and not yet retransmitted, else the head itself, outside cwnd − pipe
    /// ("Assume the next seq is lost"). For comparisons with ns-3 (docs/sack.md).
    Ns3,
}

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

/// How the receiver echoes Congestion Experienced marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EcnEcho {
    /// RFC 3168 Section 6.1.3: ECE on every ACK from a CE mark until a CWR arrives.
    #[default]
    Rfc3168,
    /// ECE on the ACK of each CE-marked data packet only (like DCTCP / AccECN, which
    /// report every mark): what laws reacting per marked ACK need (seed 002 Section
    /// IV-A). CWR is ignored.
    PerPacket,
}

/// Per-flow TCP settings (resolved units).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcpConfig {
    pub cc: CcConfig,
    pub recovery: Recovery,
    /// Size on the wire of a full data packet, bytes (headers included, as ns-2's packetSize_
    /// plus header); the payload is `packet_size_bytes - header_bytes`.
    pub packet_size_bytes: u32,
    /// TCP/IP header bytes; also the size of a pure ACK.
    pub header_bytes: u32,
    /// Initial congestion window, segments.
    pub initial_window: f64,
    /// Initial slow-start threshold, segments.
    pub initial_ssthresh: f64,
    /// Largest window the sender uses, segments (the receiver's advertised window).
    pub max_window: f64,
    /// Lower bound of the retransmission timeout (RFC 6298 Section 2.4 says 1 s; ns-2 and
    /// Linux use 200 ms).
    pub min_rto_ns: Time,
    /// Retransmission timeout before the first RTT sample (RFC 6298 Section 2.1).
    pub initial_rto_ns: Time,
    /// Upper bound of the retransmission timeout (RFC 6298 Section 2.5).
    pub max_rto_ns: Time,
    /// Acknowledge every second segment or after `delayed_ack_timeout_ns` (RFC 1122 4.2.3.2).
    pub delayed_ack: bool,
    pub delayed_ack_timeout_ns: Time,
    /// Negotiate ECN (RFC 3168): data packets are ECT, routers may mark CE.
    pub ecn: bool,
    /// How CE marks are echoed (default RFC 3168). Laws that react per marked ACK
    /// (`CongestionControl::ecn_per_ack`) need `per_packet` when `ecn` is on.
    #[serde(default)]
    pub ecn_echo: EcnEcho,
    /// Duplicate ACKs that trigger a fast retransmit (RFC 5681 Section 3.2).
    pub dupack_threshold: u32,
    /// Limited Transmit (RFC 3042): a new segment on each of the first two duplicate ACKs.
    /// Off by default, as in ns-2's TCP agents.
    #[serde(default)]
    pub limited_transmit: bool,
    /// Selective acknowledgments: the receiver reports up to 3 SACK blocks per ACK
    /// (RFC 2018) and the sender recovers losses with the scoreboard of RFC 6675 instead of
    /// NewReno's fast recovery (`docs/sack.md`). Requires `recovery = new_reno`. Off by
    /// default (ns-2's `Agent/TCP/Newreno` has none).
    #[serde(default)]
    pub sack: bool,
    /// Timer restarts on NewReno partial ACKs (RFC 6582 Section 4).
    #[serde(default)]
    pub partial_ack_timer: PartialAckTimer,
    /// With `sack`: RFC 6675's cwnd − pipe (default) or Proportional Rate Reduction
    /// (RFC 6937) during loss recovery. `prr` requires `sack = true`.
    #[serde(default)]
    pub sack_recovery: SackRecovery,
    /// With `sack`: FlightSize on entering recovery, RFC 5681's (default) or ns-3's pipe.
    #[serde(default)]
    pub loss_flight_size: LossFlightSize,
    /// The ACK that ends loss recovery: no window growth (default) or ns-3's credit of every
    /// segment it covers.
    #[serde(default)]
    pub recovery_exit_credit: RecoveryExitCredit,
    /// With `sack_recovery = prr`: PRR's DeliveredData, RFC 6937's (default) or ns-3's.
    #[serde(default)]
    pub prr_delivered: PrrDelivered,
    /// With `ecn`: the window reduction after an ECN echo, at once (RFC 3168, default) or
    /// paced by PRR (Linux, ns-3 with PRR).
    #[serde(default)]
    pub ecn_reduction: EcnReduction,
    /// With `sack`: a partial ACK in loss recovery, RFC 6675's (default) or ns-3's at-once
    /// retransmission.
    #[serde(default)]
    pub partial_ack_retransmit: PartialAckRetransmit,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            cc: CcConfig::Reno,
            recovery: Recovery::NewReno,
            packet_size_bytes: 1500,
            header_bytes: 40,
            initial_window: 2.0,
            initial_ssthresh: 1.0e9,
            max_window: 1.0e7,
            min_rto_ns: 200_000_000,
            initial_rto_ns: 1_000_000_000,
            max_rto_ns: 60_000_000_000,
            delayed_ack: false,
            delayed_ack_timeout_ns: 100_000_000,
            ecn: false,
            ecn_echo: EcnEcho::Rfc3168,
            dupack_threshold: 3,
            limited_transmit: false,
            sack: false,
            partial_ack_timer: PartialAckTimer::Impatient,
            sack_recovery: SackRecovery::Rfc6675,
            loss_flight_size: LossFlightSize::Rfc5681,
            recovery_exit_credit: RecoveryExitCredit::None,
            prr_delivered: PrrDelivered::Rfc6937,
            ecn_reduction: EcnReduction::Immediate,
            partial_ack_retransmit: PartialAckRetransmit::Rfc6675,
        }
    }
}
