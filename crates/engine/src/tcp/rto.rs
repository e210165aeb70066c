//! Retransmission timer computation, RFC 6298.

use serde::{Deserialize, Serialize};

use crate::time::Time;

/// Which ACKs restart the retransmission timer while data is outstanding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RtoRestart {
    /// RFC 6298 Section 5.3: "When an ACK is received that acknowledges new data, restart the
    /// retransmission timer". Duplicate ACKs leave it running. The default.
    #[default]
    NewData,
    /// Every ACK not older than the cumulative ACK restarts it, duplicates included, as ns-2's
    /// `Agent/TCP/Linux` does: a timeout then needs a whole RTO without any ACK, so a long
    /// fast recovery never ends in one.
    EveryAck,
}

/// Clock granularity G of RFC 6298 Section 2 (1 ms, as Linux uses).
const GRANULARITY_NS: Time = 1_000_000;

#[derive(Clone, Debug)]
pub struct RtoEstimator {
    srtt: f64,
    rttvar: f64,
    has_sample: bool,
    backoff_shift: u32,
    min_rto: Time,
    initial_rto: Time,
    max_rto: Time,
    /// ns-2's `tcpTick_` when set: samples in whole ticks, G = one tick, the RTO a whole
    /// number of ticks.
    tick: Option<Time>,
}

impl RtoEstimator {
    pub fn new(min_rto: Time, initial_rto: Time, max_rto: Time) -> Self {
        RtoEstimator {
            srtt: 0.0,
            rttvar: 0.0,
            has_sample: false,
            backoff_shift: 0,
            min_rto,
            initial_rto,
            max_rto,
            tick: None,
        }
    }

    /// A timer of granularity `tick` (ns-2's `tcpTick_`, 10 ms in its defaults): each RTT
    /// sample is counted in whole ticks, at least one (ns-2 `TcpAgent::rtt_update`:
    /// `t_rtt_ = int(tao / tcp_tick_ + 0.5)`, `if (t_rtt_ < 1) t_rtt_ = 1`), RFC 6298's clock
    /// granularity G is one tick (Section 2.3: RTO = SRTT + max(G, K*RTTVAR)), and the RTO is
    /// a whole number of ticks, rounded down as ns-2's integer `t_rtxcur_`.
    pub fn with_tick(self, tick: Option<Time>) -> Self {
        RtoEstimator { tick: tick.filter(|&t| t > 0), ..self }
    }

    /// Feed an RTT measurement (ns). `expected_samples` is how many samples this window of
    /// data yields: with a sample on every ACK (timestamps), RFC 7323 Appendix G divides the
    /// gains by it so that SRTT and RTTVAR move per round trip, as with one timed segment per
    /// RTT (RFC 6298 / ns-2). Without it, per-ACK samples shrink RTTVAR until RTO ≈ SRTT and
    /// a small delay increase fires spurious timeouts.
    pub fn sample(&mut self, rtt: Time, expected_samples: f64) {
        let rtt = match self.tick {
            // ns-2 `rtt_update` with timestamps: whole ticks, rounded, at least one.
            Some(tick) => ((rtt + tick / 2) / tick).max(1) * tick,
            None => rtt,
        };
        let r = rtt as f64;
        if !self.has_sample {
            // RFC 6298 Section 2.2: first measurement.
            self.srtt = r;
            self.rttvar = r / 2.0;
            self.has_sample = true;
        } else {
            // RFC 6298 Section 2.3: beta = 1/4, alpha = 1/8, RTTVAR updated before SRTT;
            // RFC 7323 Appendix G: beta' = beta / ExpectedSamples, alpha' = alpha / ExpectedSamples.
            let samples = expected_samples.max(1.0);
            let (alpha, beta) = (0.125 / samples, 0.25 / samples);
            self.rttvar = (1.0 - beta) * self.rttvar + beta * (self.srtt - r).abs();
            self.srtt = (1.0 - alpha) * self.srtt + alpha * r;
        }
        // RFC 6298 Section 5.7: a new measurement after backoff resets the backoff.
        self.backoff_shift = 0;
    }

    /// Current timeout including exponential backoff (RFC 6298 Section 5.5).
    pub fn rto(&self) -> Time {
        let base = if self.has_sample {
            // RFC 6298 Section 2.3: RTO = SRTT + max(G, K*RTTVAR), K = 4; Section 2.4: >= min.
            let granularity = self.tick.unwrap_or(GRANULARITY_NS) as f64;
            let rto = self.srtt + (4.0 * self.rttvar).max(granularity);
            let rto = match self.tick {
                // ns-2's t_rtxcur_: a whole number of ticks (integer arithmetic, rounded down).
                Some(tick) => (rto as Time / tick) * tick,
                None => rto.round() as Time,
            };
            rto.max(self.min_rto)
        } else {
            // RFC 6298 Section 2.1: initial RTO.
            self.initial_rto
        };
        // RFC 6298 Section 5.5: back off the timer (double it), capped at the maximum (2.5).
        base.saturating_mul(1u64 << self.backoff_shift.min(32)).min(self.max_rto)
    }

    /// The timer expired: double the timeout.
    pub fn back_off(&mut self) {
        self.backoff_shift = (self.backoff_shift + 1).min(32);
    }

    pub fn srtt_ns(&self) -> Time {
        if self.has_sample {
            self.srtt.round() as Time
        } else {
            0
        }
    }

    pub fn has_sample(&self) -> bool {
        self.has_sample
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    #[test]
    fn initial_then_first_sample_then_floor() {
        let mut est = RtoEstimator::new(200 * MS, 1000 * MS, 60_000 * MS);
        assert_eq!(est.rto(), 1000 * MS);
        est.sample(100 * MS, 1.0);
        // srtt 100, rttvar 50 -> 100 + 200 = 300 ms
        assert_eq!(est.rto(), 300 * MS);
        for _ in 0..200 {
            est.sample(10 * MS, 1.0);
        }
        assert_eq!(est.rto(), 200 * MS, "min RTO floor");
    }

    #[test]
    fn ns2_ticks_quantise_samples_and_the_timeout() {
        // 10 ms ticks: a 2 ms sample counts one tick (10 ms), 14 ms one, 16 ms two.
        let mut est = RtoEstimator::new(0, 1000 * MS, 60_000 * MS).with_tick(Some(10 * MS));
        est.sample(2 * MS, 1.0);
        // srtt 10, rttvar 5: RTO = 10 + max(10, 20) = 30 ms, whole ticks.
        assert_eq!((est.srtt_ns(), est.rto()), (10 * MS, 30 * MS));
        let mut fine = RtoEstimator::new(0, 1000 * MS, 60_000 * MS);
        fine.sample(2 * MS, 1.0);
        assert_eq!((fine.srtt_ns(), fine.rto()), (2 * MS, 6 * MS), "1 ms granularity: 2 + max(1, 4)");
        est.sample(16 * MS, 1.0);
        // srtt = 10 + (20 - 10)/8 = 11.25, rttvar = 0.75·5 + 0.25·10 = 6.25: 36.25 ms -> 30 ms.
        assert_eq!(est.rto(), 30 * MS);
        assert_eq!(RtoEstimator::new(0, MS, MS).with_tick(Some(0)).tick, None, "a zero tick is no tick");
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        let mut est = RtoEstimator::new(200 * MS, 1000 * MS, 3000 * MS);
        est.back_off();
        assert_eq!(est.rto(), 2000 * MS);
        est.back_off();
        assert_eq!(est.rto(), 3000 * MS);
        est.sample(100 * MS, 1.0);
        assert_eq!(est.rto(), 300 * MS, "a new sample clears the backoff");
    }
}
