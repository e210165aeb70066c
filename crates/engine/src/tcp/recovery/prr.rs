//! Proportional Rate Reduction as a loss recovery (`kind = "prr"`, RFC 6937): RFC 6675's
//! recovery (`sack.rs`) whose sending per ACK is RFC 6937 Section 3's sndcnt (the arithmetic:
//! `tcp/prr.rs`), with RFC 6675's parameters and PRR's own, what counts as DeliveredData.

use serde::{Deserialize, Serialize};

use super::sack::{LossFlightSize, PartialAckRetransmit, SackParams};
use super::ExitCredit;
pub use crate::tcp::prr::{ns3_delivered, Prr, PrrDelivered, ReductionBound};

/// The parameters of PRR loss recovery (`kind = "prr"`): RFC 6675's (`SackParams`) and
/// PRR's DeliveredData.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PrrParams {
    /// PRR's DeliveredData, RFC 6937's (default) or ns-3's.
    pub delivered: PrrDelivered,
    /// The parameters of RFC 6675's recovery that PRR paces (`SackParams`).
    pub loss_flight_size: LossFlightSize,
    pub partial_ack_retransmit: PartialAckRetransmit,
    pub exit_credit: ExitCredit,
}

impl PrrParams {
    pub fn sack(&self) -> SackParams {
        SackParams {
            loss_flight_size: self.loss_flight_size,
            partial_ack_retransmit: self.partial_ack_retransmit,
            exit_credit: self.exit_credit,
            // PRR decides the sending itself (RFC 6937's sndcnt).
            rate_halving: false,
            // RFC 6675's: a lost retransmission waits for the timeout.
            lost_retransmit: super::sack::LostRetransmit::Rto,
            // RFC 6675's IsLost() and its expunged scoreboard at a timeout.
            loss_marking: super::sack::LossMarking::Rfc6675,
            timeout_scoreboard: super::sack::TimeoutScoreboard::Clear,
            // RFC 6675 Section 5.1 after a timeout.
            timeout_recovery: super::sack::TimeoutRecovery::Rfc6675,
            recovery_exit_scoreboard: super::sack::RecoveryExitScoreboard::Keep,
            // RFC 5681's FlightSize outside recovery.
            flight_outside_recovery: super::sack::FlightOutsideRecovery::Rfc5681,
        }
    }
}
