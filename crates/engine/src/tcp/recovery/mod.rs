//! Loss recovery: what a sender does between the detection of a loss by duplicate ACKs (or
//! SACK information) and the ACK that repairs it — one file per algorithm, the way `cc/` holds
//! the window laws.
//!
//! | kind       | algorithm                                        | file          |
//! |------------|--------------------------------------------------|---------------|
//! | `tahoe`    | fast retransmit, then slow start (no recovery)   | `tahoe.rs`    |
//! | `reno`     | RFC 5681 Section 3.2 fast retransmit/recovery     | `reno.rs`     |
//! | `new_reno` | RFC 6582: Reno plus partial-ACK retransmissions  | `new_reno.rs` |
//! | `sack`     | RFC 6675 loss recovery from RFC 2018 SACK blocks | `sack.rs`     |
//! | `prr`      | RFC 6675 paced by RFC 6937 Proportional Rate Reduction | `prr.rs` |
//!
//! A reference simulator's deviation is a parameter of the algorithm it varies (ns-3's
//! `loss_flight_size`, `partial_ack_retransmit`, PRR `delivered`, the `exit_credit` of NewReno
//! and SACK recovery; NewReno's `partial_ack_timer`; ns-2 TCP-Linux's `rate_halving` of SACK
//! recovery). What RFC 3168 (the ECN response,
//! `tcp/ecn.rs`) and RFC 3042 (Limited Transmit, `tcp/limited_transmit.rs`) define are sender
//! options, not recovery switches.
//!
//! Dispatch is an enum (`LossRecovery`), not a trait object: one match per ACK, no virtual call
//! and the state of each algorithm inline in the sender (dumbbell-60 within noise of the sender
//! before the split: `benchmarks/recovery/README.md`; a trait-object variant was not built).
//! The three recoveries without SACK share RFC 5681 Section 3.2's duplicate-ACK counting and
//! window inflation (`dupack.rs`) and differ in two hooks: the fast retransmit and a new ACK
//! during fast recovery.

pub mod dupack;
pub mod new_reno;
pub mod prr;
pub mod reno;
pub mod sack;
pub mod tahoe;

use serde::{Deserialize, Serialize};

use super::sack::Scoreboard;
use super::shared::SenderCore;
use crate::packet::Packet;
use crate::time::Time;

/// What the ACK that ends loss recovery does besides setting cwnd = ssthresh (a parameter of
/// `reno`, `new_reno`, `sack` and `prr`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExitCredit {
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

impl ExitCredit {
    /// The ACK that ended loss recovery (cwnd = ssthresh already): with `Cumulative`, ns-3's
    /// `IncreaseWindow(tcb, segsAcked)` on leaving `CA_RECOVERY`, every segment the ACK covers
    /// counted (`TcpSocketBase::ProcessAck`). `scoreboard`: a SACK sender's.
    pub fn apply(
        self,
        core: &mut SenderCore,
        acked: u64,
        rtt: Time,
        ece: bool,
        now: Time,
        scoreboard: Option<&Scoreboard>,
    ) {
        if self == ExitCredit::Cumulative {
            core.window_on_new_ack(acked, acked, rtt, ece, now, scoreboard);
        }
    }
}

/// The loss recovery of a TCP sender and its parameters (`TcpConfig::recovery`; serde:
/// a table with `kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RecoveryConfig {
    /// Fast retransmit, then slow start from one segment (`tahoe.rs`). No parameters (a
    /// struct variant so that unknown fields are refused).
    Tahoe {},
    /// RFC 5681 Section 3.2 fast retransmit and fast recovery; any new ACK ends recovery
    /// (ns-2's `Agent/TCP/Reno`; `reno.rs`).
    Reno {
        #[serde(default)]
        exit_credit: ExitCredit,
    },
    /// RFC 6582 NewReno (`new_reno.rs`). The default.
    NewReno {
        #[serde(default)]
        partial_ack_timer: new_reno::PartialAckTimer,
        #[serde(default)]
        exit_credit: ExitCredit,
        /// What a retransmission timeout halves: RFC 5681's FlightSize (default) or ns-2's cwnd.
        #[serde(default)]
        timeout_flight_size: new_reno::TimeoutFlightSize,
        /// Which duplicate ACKs may start a fast retransmit after an earlier episode: RFC 6582
        /// Section 3.2 step 2 as aqmlab reads it (default) or as its note after step 4 and ns-2 do. Left
        /// out of the table at its default, as Python's resolved scenarios leave it out.
        #[serde(default, skip_serializing_if = "new_reno::FastRetransmitGuard::is_default")]
        fast_retransmit_guard: new_reno::FastRetransmitGuard,
        /// What a partial ACK deflates: RFC 6582's inflated window (default) or, as ns-2,
        /// cwnd itself beyond the inflation, kept at the exit. Left out at its default.
        #[serde(default, skip_serializing_if = "new_reno::PartialAckDeflation::is_default")]
        partial_ack_deflation: new_reno::PartialAckDeflation,
    },
    /// RFC 6675 SACK-based loss recovery, cwnd − pipe (`sack.rs`); the receiver sends
    /// RFC 2018 SACK blocks.
    Sack(sack::SackParams),
    /// RFC 6675 recovery paced by RFC 6937 Proportional Rate Reduction (`prr.rs`).
    Prr(prr::PrrParams),
}

impl Default for RecoveryConfig {
    fn default() -> Self {
        RecoveryConfig::NewReno {
            partial_ack_timer: Default::default(),
            exit_credit: ExitCredit::None,
            timeout_flight_size: Default::default(),
            fast_retransmit_guard: Default::default(),
            partial_ack_deflation: Default::default(),
        }
    }
}

impl RecoveryConfig {
    /// The receiver reports SACK blocks (RFC 2018) for this recovery.
    pub fn uses_sack(&self) -> bool {
        matches!(self, RecoveryConfig::Sack(_) | RecoveryConfig::Prr(_))
    }

    pub fn build(&self) -> LossRecovery {
        match *self {
            RecoveryConfig::Tahoe {} => LossRecovery::Tahoe(tahoe::Tahoe),
            RecoveryConfig::Reno { exit_credit } => LossRecovery::Reno(reno::Reno { exit_credit }),
            RecoveryConfig::NewReno {
                partial_ack_timer,
                exit_credit,
                timeout_flight_size,
                fast_retransmit_guard,
                partial_ack_deflation,
            } => LossRecovery::NewReno(
                new_reno::NewReno::new(partial_ack_timer, exit_credit)
                    .with_timeout_flight_size(timeout_flight_size)
                    .with_fast_retransmit_guard(fast_retransmit_guard)
                    .with_partial_ack_deflation(partial_ack_deflation),
            ),
            RecoveryConfig::Sack(params) => LossRecovery::Sack(sack::Sack::new(params, None)),
            RecoveryConfig::Prr(params) => LossRecovery::Sack(sack::Sack::new(params.sack(), Some(params.delivered))),
        }
    }
}

/// One sender's loss recovery and its state.
pub enum LossRecovery {
    Tahoe(tahoe::Tahoe),
    Reno(reno::Reno),
    NewReno(new_reno::NewReno),
    /// `sack` and `prr` (the latter with `Sack::prr_delivered` set).
    Sack(sack::Sack),
}

impl LossRecovery {
    /// FlightSize for a retransmission timeout (None: snd_nxt − snd_una).
    pub fn timeout_flight_size(&self, core: &SenderCore) -> Option<u64> {
        match self {
            LossRecovery::Sack(sack) => Some(sack.flight_size(core)),
            LossRecovery::NewReno(newreno) => newreno.timeout_flight_size(core),
            _ => None,
        }
    }

    /// A retransmission timeout ended any recovery (`SenderCore::on_timeout` did the shared part).
    pub fn on_timeout(&mut self, core: &SenderCore) {
        if let LossRecovery::Sack(sack) = self {
            sack.on_timeout(core);
        }
    }

    /// Send what the window allows (after a timeout a SACK sender skips what was SACKed).
    pub fn send_available(&mut self, core: &mut SenderCore, now: Time, out: &mut Vec<Packet>) {
        match self {
            LossRecovery::Sack(sack) => sack.send_available(core, now, out),
            _ => core.send_available(now, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_shape_is_a_table_with_kind() {
        let parse = |text: &str| serde_json::from_str::<RecoveryConfig>(text);
        assert_eq!(parse(r#"{"kind": "tahoe"}"#).unwrap(), RecoveryConfig::Tahoe {});
        assert_eq!(parse(r#"{"kind": "new_reno"}"#).unwrap(), RecoveryConfig::default());
        assert_eq!(
            parse(r#"{"kind": "reno", "exit_credit": "cumulative"}"#).unwrap(),
            RecoveryConfig::Reno { exit_credit: ExitCredit::Cumulative }
        );
        let prr = parse(r#"{"kind": "prr", "delivered": "ns3", "loss_flight_size": "pipe"}"#).unwrap();
        assert!(prr.uses_sack() && !RecoveryConfig::default().uses_sack());
        let err = parse(r#"{"kind": "tahoe", "partial_ack_timer": "impatient"}"#).unwrap_err();
        assert!(err.to_string().contains("partial_ack_timer"), "{err}");
        assert!(parse(r#"{"kind": "sack", "delivered": "ns3"}"#).is_err(), "PRR's parameter on plain SACK recovery");
        let cwnd = parse(r#"{"kind": "new_reno", "timeout_flight_size": "cwnd"}"#).unwrap();
        assert!(matches!(cwnd, RecoveryConfig::NewReno { timeout_flight_size: new_reno::TimeoutFlightSize::Cwnd, .. }));
        let halving = parse(r#"{"kind": "sack", "rate_halving": true}"#).unwrap();
        assert_eq!(halving, RecoveryConfig::Sack(sack::SackParams { rate_halving: true, ..Default::default() }));
        assert!(parse(r#"{"kind": "prr", "rate_halving": true}"#).is_err(), "PRR paces the sending itself");
        let lost = parse(r#"{"kind": "sack", "lost_retransmit": "sack_above"}"#).unwrap();
        let sack_above = sack::SackParams { lost_retransmit: sack::LostRetransmit::SackAbove, ..Default::default() };
        assert_eq!(lost, RecoveryConfig::Sack(sack_above));
        assert!(parse(r#"{"kind": "sack", "lost_retransmit": "fack"}"#).is_err());
    }
}
