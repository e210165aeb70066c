//! Proportional Rate Reduction as a loss recovery (`kind = "prr"`, RFC 6937): RFC 6675's
//! recovery (`sack.rs`) whose sending per ACK is RFC 6937 Section 3's sndcnt (the arithmetic:
//! `tcp/prr.rs`), with RFC 6675's parameters and PRR's own, what counts as DeliveredData.

use serde::{Deserialize, Serialize};

use super::sack::{LossFlightSize, PartialAckRetransmit, SackParams};
use super::ExitCredit;
pub use crate::tcp::prr::{Prr, PrrDelivered, ReductionBound};

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
        }
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
