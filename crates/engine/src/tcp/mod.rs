//! TCP: sender and receiver machinery shared by every congestion-control algorithm.

pub mod cc;
pub mod ecn;
pub mod limited_transmit;
pub mod prr;
pub mod receiver;
pub mod recovery;
pub mod rto;
pub mod sack;
pub mod sender;
pub mod shared;

use serde::{Deserialize, Serialize};

use crate::time::Time;
pub use cc::CcConfig;
pub use ecn::{EcnReduction, EcnRetransmit};
pub use recovery::RecoveryConfig;
pub use rto::{RtoRestart, RttEstimator, RttSampling};

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
    /// Loss recovery and its parameters (`recovery/`): Tahoe, Reno, NewReno (the default),
    /// SACK (RFC 6675; the receiver then sends RFC 2018 SACK blocks, `docs/sack.md`) or PRR.
    #[serde(default)]
    pub recovery: RecoveryConfig,
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
    /// Limited Transmit (RFC 3042, `limited_transmit.rs`): a new segment on each of the first
    /// two duplicate ACKs (with SACK recovery, RFC 6675 step (3): while cwnd − pipe allows).
    /// Off by default; ns-2's TCP agents have it on (`singledup_ 1`).
    #[serde(default)]
    pub limited_transmit: bool,
    /// With `ecn`: the window reduction after an ECN echo, at once (RFC 3168, default) or
    /// paced by PRR (Linux, ns-3 with PRR; `ecn.rs`).
    #[serde(default)]
    pub ecn_reduction: EcnReduction,
    /// With `ecn`: CWR may go on a retransmission too, the first segment sent after a window
    /// reduction, new or not, as ns-2 2.35's agents do (`SetCWRonRetransmit_ true`, its
    /// default since 2008; tcp.cc `TcpAgent::output`). Off (default): on the first new data
    /// segment only (RFC 3168 Section 6.1.2; `ecn.rs`).
    #[serde(default)]
    pub cwr_on_retransmit: bool,
    /// With `ecn`: whether retransmissions are ECT (RFC 3168 Section 6.1.5: not, the default;
    /// ns-2's agents: they are; `ecn.rs`).
    #[serde(default)]
    pub ecn_retransmit: EcnRetransmit,
    /// Which ACKs restart the retransmission timer: those of new data (RFC 6298, default) or
    /// every ACK, duplicates included (ns-2's TCP-Linux).
    #[serde(default)]
    pub rto_restart: RtoRestart,
    /// Which ACKs give an RTT sample, and which timestamp the receiver echoes: ACKs of new
    /// data (default) or every ACK with TS.Recent echoed (ns-2's TCP-Linux, `rto.rs`).
    #[serde(default)]
    pub rtt_sampling: RttSampling,
    /// Retransmission-timer granularity (ns-2's `tcpTick_`): RTT samples in whole ticks, the
    /// RTO a whole number of them (`rto.rs`). None (default): RFC 6298 with G = 1 ms.
    #[serde(default)]
    pub timer_tick_ns: Option<Time>,
    /// SRTT/RTTVAR/RTO: RFC 6298 (default) or ns-2 2.35's fixed-point estimator in ticks of
    /// `timer_tick_ns`, `Agent/TCP`'s or `Agent/TCP/Linux`'s (`rto.rs`).
    #[serde(default)]
    pub rtt_estimator: RttEstimator,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            cc: CcConfig::Reno(cc::reno::RenoConfig {}),
            recovery: RecoveryConfig::default(),
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
            ecn_reduction: EcnReduction::Immediate,
            cwr_on_retransmit: false,
            ecn_retransmit: EcnRetransmit::NotEct,
            rto_restart: RtoRestart::NewData,
            rtt_sampling: RttSampling::NewData,
            timer_tick_ns: None,
            rtt_estimator: RttEstimator::Rfc6298,
        }
    }
}
