//! Reno window law (RFC 5681): slow start, congestion avoidance, halving on loss.
//! Loss recovery itself (NewReno, RFC 6582, or Tahoe) is done by the shared sender.

use serde::{Deserialize, Serialize};

use super::{AckEvent, CcInit, CcKind, CongestionControl, Window};
use crate::error::Result;

/// Scenario description of Reno (`kind = "reno"`): no parameters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenoConfig {}

/// The window law `reno` (registered in `super::CcConfig`).
impl CcKind for RenoConfig {
    fn build(&self, init: CcInit, _field: &str) -> Result<Box<dyn CongestionControl>> {
        Ok(Box::new(Reno::new(init.initial_window, init.initial_ssthresh)))
    }
}

pub struct Reno {
    pub(super) state: Window,
}

impl Reno {
    pub fn new(initial_window: f64, initial_ssthresh: f64) -> Self {
        Reno { state: Window::new(initial_window, initial_ssthresh) }
    }

    /// An early (delay-based) reduction of Reno-family variants such as Cx-TCP and PERT:
    /// cwnd and ssthresh both become `window`, so a reduction in slow start ends it.
    pub fn reduce_to(&mut self, window: f64) {
        self.state.cwnd = window;
        self.state.ssthresh = window;
    }
}

/// ssthresh = max(FlightSize / 2, 2 * SMSS): RFC 5681 Section 3.1, eq. (4).
pub fn halve_flight(in_flight: u64) -> f64 {
    (in_flight as f64 / 2.0).max(2.0)
}

impl CongestionControl for Reno {
    super::window_state!();

    fn congestion_avoidance(&mut self, _ack: &AckEvent) {
        // RFC 5681 Section 3.1 eq. (3): congestion avoidance, cwnd += SMSS*SMSS/cwnd per
        // ACK (ns-2's `opencwnd`: 1/cwnd per new ACK). Slow start, the halving on a loss
        // (RFC 5681 Section 3.2 steps 2-3 / RFC 6582 Section 3.2 step 2: ssthresh =
        // FlightSize/2, the window after recovery ssthresh) and cwnd = 1 after a timeout
        // (RFC 5681 Section 3.1 eq. (4) and "LW") are the trait's defaults.
        self.state.cwnd += 1.0 / self.state.cwnd;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_events::{ack, congestion};

    #[test]
    fn slow_start_doubles_per_round_trip() {
        let mut reno = Reno::new(2.0, 1e9);
        // one round: 2 ACKs of one segment -> cwnd 4; next round 4 ACKs -> 8
        for _ in 0..2 {
            reno.on_ack(&ack(1));
        }
        assert_eq!(reno.window(), 4.0);
        for _ in 0..4 {
            reno.on_ack(&ack(1));
        }
        assert_eq!(reno.window(), 8.0);
        // RFC 5681 Section 3.1: a cumulative ACK of many segments still adds one segment.
        reno.on_ack(&ack(1000));
        assert_eq!(reno.window(), 9.0);
    }

    #[test]
    fn congestion_avoidance_adds_about_one_segment_per_round_trip() {
        let mut reno = Reno::new(10.0, 10.0);
        for _ in 0..10 {
            reno.on_ack(&ack(1));
        }
        assert!((reno.window() - 10.95).abs() < 0.05, "{}", reno.window());
    }

    #[test]
    fn loss_halves_flight_and_timeout_resets_to_one() {
        let mut reno = Reno::new(20.0, 1e9);
        reno.on_loss(&congestion(20));
        assert_eq!((reno.window(), reno.ssthresh()), (10.0, 10.0));
        reno.on_rto(&congestion(3));
        assert_eq!((reno.window(), reno.ssthresh()), (1.0, 2.0));
    }
}
