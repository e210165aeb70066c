//! Delay-based HighSpeed TCP (seed 001 Section V-B): RFC 3649's window law with the Cx-TCP
//! probabilistic backoff of seed 001 Algorithm 1 and Fig. 1 added.
//!
//! Seed 001 V-B "modif[ies] Sally Floyd's High-Speed TCP to incorporate our backoff
//! strategy" without further detail; we compose the two unchanged: per ACK, the Cx backoff
//! (`CxBackoff`) first, halving the window as Algorithm 1 does; otherwise HighSpeed's
//! increase a(w)/w; on loss, HighSpeed's decrease b(w).

use serde::{Deserialize, Serialize};

use super::cx::{halve_window, CxBackoff, CxParams};
use super::highspeed::HighSpeedConfig;
use super::{reduction_base, AckEvent, CongestionControl, CongestionEvent, Window, CcInit, CcKind};
use crate::error::Result;
use crate::rng::Rng;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CxHighSpeedConfig {
    /// The backoff (seed 001 Fig. 1; defaults of Section III-A).
    pub cx: CxParams,
    /// The window law (RFC 3649 Section 5 defaults).
    pub highspeed: HighSpeedConfig,
}

/// The window law `cx_highspeed` (registered in `super::CcConfig`).
impl CcKind for CxHighSpeedConfig {
    fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        Ok(Box::new(CxHighSpeed::new(self, init.initial_window, init.initial_ssthresh, init.rng, field)?))
    }

    fn growth_bounds(&self, max_window: f64) -> Vec<(&'static str, f64, f64, f64)> {
        vec![
            ("highspeed.low_window", self.highspeed.low_window, 0.0, max_window),
            ("highspeed.high_window", self.highspeed.high_window, 0.0, max_window),
        ]
    }
}

pub struct CxHighSpeed {
    law: HighSpeedConfig,
    backoff: CxBackoff,
    state: Window,
}

impl CxHighSpeed {
    pub fn new(
        config: &CxHighSpeedConfig,
        initial_window: f64,
        initial_ssthresh: f64,
        rng: Rng,
        field: &str,
    ) -> Result<Self> {
        config.highspeed.validate(&format!("{field}.highspeed"))?;
        let backoff = CxBackoff::new(&config.cx, rng, &format!("{field}.cx"))?;
        Ok(CxHighSpeed { law: config.highspeed.clone(), backoff, state: Window::new(initial_window, initial_ssthresh) })
    }
}

impl CongestionControl for CxHighSpeed {
    super::window_state!();

    fn ack_signal(&mut self, ack: &AckEvent) -> bool {
        let reduce = self.backoff.on_ack(ack, self.state.cwnd);
        if reduce {
            // Seed 001 Algorithm 1: "if rand < p then reduce cwnd by 0.5·cwnd".
            self.state.cwnd = halve_window(self.state.cwnd);
            self.state.ssthresh = self.state.cwnd;
        }
        reduce
    }

    fn congestion_avoidance(&mut self, _ack: &AckEvent) {
        // RFC 3649 Section 5: w = w + a(w)/w per ACK (after RFC 5681 slow start, the
        // trait's default, which RFC 3649 leaves unchanged).
        self.state.cwnd += self.law.increase(self.state.cwnd) / self.state.cwnd;
    }

    /// RFC 3649 Section 5: w = (1 − b(w)) w on a loss (seed 001: losses as the base TCP), at
    /// w = min(FlightSize, cwnd), at least 2 segments; cwnd = 1 after a timeout (RFC 5681
    /// Section 3.1; the trait's `on_loss` and `on_rto`).
    fn reduced_window(&self, event: &CongestionEvent) -> f64 {
        let w = reduction_base(event, self.state.cwnd);
        ((1.0 - self.law.decrease(w)) * w).max(2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};
    use crate::time::Time;

    const MS: Time = 1_000_000;

    fn ack(now: Time, rtt: Time, min_rtt: Time) -> AckEvent {
        AckEvent {
            now,
            acked_segments: 1,
            delivered_segments: 1,
            rtt_sample_ns: Some(rtt),
            min_rtt_ns: min_rtt,
            srtt_ns: rtt,
            in_flight: 100,
            ece: false,
            snd_una: 0,
            high_tx: 0,
        }
    }

    #[test]
    fn grows_as_highspeed_without_queueing_delay() {
        // δ = 0: the backoff never fires; above Low_Window the increase is a(w)/w per ACK.
        let config = CxHighSpeedConfig::default();
        let mut cc = CxHighSpeed::new(&config, 200.0, 100.0, stream(1, StreamKind::Flow, 0), "cc").unwrap();
        let before = cc.window();
        cc.on_ack(&ack(0, 100 * MS, 100 * MS));
        assert!((cc.window() - (before + config.highspeed.increase(before) / before)).abs() < 1e-12);
        assert!(config.highspeed.increase(before) > 1.0, "faster than Reno above Low_Window");
    }

    #[test]
    fn backs_off_by_half_at_the_threshold_delay() {
        // δ = δth = 20 ms gives p = pmax = 5 % per ACK: over 20 000 ACKs about 1 000 halvings.
        let config = CxHighSpeedConfig::default();
        let mut cc = CxHighSpeed::new(&config, 200.0, 100.0, stream(3, StreamKind::Flow, 0), "cc").unwrap();
        let mut halvings = 0;
        for i in 0..20_000u64 {
            let before = cc.window();
            // The smoothed delay starts at the first sample: hold RTT = min + 20 ms throughout.
            cc.on_ack(&ack(i * MS, 120 * MS, 100 * MS));
            if cc.window() < before {
                assert!((cc.window() - halve_window(before)).abs() < 1e-12);
                halvings += 1;
            }
        }
        assert!((800..1200).contains(&halvings), "{halvings}");
    }

    #[test]
    fn loss_uses_the_highspeed_decrease_and_fields_are_named() {
        let config = CxHighSpeedConfig::default();
        let mut cc = CxHighSpeed::new(&config, 1000.0, 100.0, stream(1, StreamKind::Flow, 0), "cc").unwrap();
        let event = CongestionEvent { now: 0, in_flight: 1000, srtt_ns: 0, min_rtt_ns: 0 };
        cc.on_loss(&event);
        let expected = (1.0 - config.highspeed.decrease(1000.0)) * 1000.0;
        assert!((cc.window() - expected).abs() < 1e-9 && expected > 600.0);
        let mut bad = CxHighSpeedConfig::default();
        bad.cx.p_max = 2.0;
        let error = CxHighSpeed::new(&bad, 2.0, 1e9, stream(1, StreamKind::Flow, 0), "g.cc").err().unwrap().to_string();
        assert!(error.contains("g.cc.cx.p_max"), "{error}");
    }
}
