//! Retransmission timer computation, RFC 6298.

use serde::{Deserialize, Serialize};

use crate::time::{round_to_time, Time};

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

/// Which ACKs give the retransmission timer an RTT sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RttSampling {
    /// Each ACK that acknowledges new data, from the timestamp it echoes (RFC 7323 Section
    /// 4.3 / RFC 6298); the receiver echoes the timestamp of the segment that triggered the
    /// ACK. The default.
    #[default]
    NewData,
    /// ns-2 2.35 TCP-Linux: every ACK not older than snd_una, duplicates included
    /// (tcp-linux.cc `time_processing`, lines 183-195: `rtt_update(now - ts_echo)` on each
    /// ACK `recv` lets through, line 333); the receiver echoes TS.Recent, which an
    /// out-of-order segment does not change (tcp-sink.cc `Acker::update_ts`, lines 87-96, with
    /// `ts_echo_bugfix_ true`, ns-default.tcl line 1076): a duplicate ACK during a loss
    /// echoes the last in-order segment's timestamp, and its sample grows with the time
    /// since that segment.
    EveryAck,
}

/// How SRTT, RTTVAR and the RTO are computed from the RTT samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RttEstimator {
    /// RFC 6298 Section 2 in floating point, with RFC 7323 Appendix G's gains for per-ACK
    /// samples (`sample`'s `expected_samples`). The default.
    #[default]
    Rfc6298,
    /// ns-2 2.35's `Agent/TCP` (tcp.cc `TcpAgent::rtt_update`, `rtt_timeout`, `rtt_backoff`):
    /// fixed point in timer ticks (`timer_tick_ns`, ns-2's `tcpTick_`), SRTT scaled by 8 and
    /// RTTVAR by 4 (`T_SRTT_BITS 3`, `T_RTTVAR_BITS 2`), gains 1/8 and 1/4 per sample whatever
    /// the sampling rate, RTTVAR floored at one quarter tick, RTO = ⌊SRTT + 4·RTTVAR⌋ ticks.
    /// With a sample per ACK RTTVAR collapses to its floor and RTO ≈ SRTT + ¾ tick.
    Ns2,
    /// ns-2 2.35's `Agent/TCP/Linux` (tcp-linux.cc `LinuxTcpAgent::rtt_update`): as `Ns2`, but
    /// a sample below SRTT raises RTTVAR by an eighth of the usual step (Linux's
    /// `tcp_rtt_estimator`) and RTTVAR has no floor.
    Ns2Linux,
}

/// Clock granularity G of RFC 6298 Section 2 (1 ms, as Linux uses).
const GRANULARITY_NS: Time = 1_000_000;
/// ns-2's `T_SRTT_BITS` and `T_RTTVAR_BITS` (ns-default.tcl lines 962-963; `rttvar_exp_ 2`,
/// line 964, is the K = 4 of RTO = SRTT + 4·RTTVAR).
const T_SRTT_BITS: u32 = 3;
const T_RTTVAR_BITS: u32 = 2;
const RTTVAR_EXP: u32 = 2;

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
    /// `Ns2`/`Ns2Linux`: `srtt` and `rttvar` hold ns-2's integers `t_srtt_` (8 × SRTT) and
    /// `t_rttvar_` (4 × RTTVAR) in ticks, exactly (f64 holds them without rounding).
    estimator: RttEstimator,
    /// `Ns2`/`Ns2Linux`: ns-2's `t_rtxcur_` in ticks, set by each sample.
    rtxcur_ticks: u32,
    /// `Ns2`: the backoff ends only when an ACK covers a segment sent after the last timeout
    /// (its number, `high_tx` then), as ns-2's timed segment (`rtt_seq_`) must be new data.
    karn_seq: u64,
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
            estimator: RttEstimator::Rfc6298,
            rtxcur_ticks: 0,
            karn_seq: 0,
        }
    }

    /// ns-2's estimator (`Ns2`, `Ns2Linux`) at the tick set by `with_tick` (`Ns2` without a
    /// tick: ns-2's default `tcpTick_` 10 ms; config.rs refuses that combination).
    pub fn with_estimator(self, estimator: RttEstimator) -> Self {
        RtoEstimator { estimator, ..self }
    }

    /// The tick of ns-2's estimator (ns-default.tcl line 952: `tcpTick_ 0.01`).
    fn ns2_tick(&self) -> Time {
        self.tick.unwrap_or(10_000_000)
    }

    /// ns-2 2.35 tcp.cc `TcpAgent::rtt_update` (lines 565-609) with `ts_option_` (the sample
    /// from the echoed timestamp), and tcp-linux.cc `LinuxTcpAgent::rtt_update` (lines 237-305)
    /// for `Ns2Linux`.
    fn ns2_sample(&mut self, rtt: Time) {
        let tick = self.ns2_tick();
        // tcp.cc line 569: `t_rtt_ = int(tao / tcp_tick_ + 0.5)`; lines 576-577: at least 1.
        let t_rtt = ((rtt + tick / 2) / tick).clamp(1, i32::MAX as Time) as i32;
        let (mut t_srtt, mut t_rttvar) = (self.srtt as i32, self.rttvar as i32);
        if t_srtt != 0 {
            // Lines 586-596: `register short delta = t_rtt_ - (t_srtt_ >> T_SRTT_BITS)`, a 16-bit
            // integer: SRTT += delta/8, RTTVAR += (|delta| − RTTVAR)/4, both floored at 1.
            let mut delta = t_rtt.wrapping_sub(t_srtt >> T_SRTT_BITS) as i16;
            t_srtt = t_srtt.wrapping_add(i32::from(delta));
            if t_srtt <= 0 {
                t_srtt = 1;
            }
            match self.estimator {
                RttEstimator::Ns2Linux => {
                    // tcp-linux.cc lines 282-289: a sample below SRTT moves RTTVAR up by an
                    // eighth of the step only; no floor.
                    if delta < 0 {
                        delta = delta.wrapping_neg().wrapping_sub((t_rttvar >> T_RTTVAR_BITS) as i16);
                        if delta > 0 {
                            delta >>= T_SRTT_BITS;
                        }
                    } else {
                        delta = delta.wrapping_sub((t_rttvar >> T_RTTVAR_BITS) as i16);
                    }
                    t_rttvar = t_rttvar.wrapping_add(i32::from(delta));
                }
                _ => {
                    delta = delta.wrapping_abs().wrapping_sub((t_rttvar >> T_RTTVAR_BITS) as i16);
                    t_rttvar = t_rttvar.wrapping_add(i32::from(delta));
                    if t_rttvar <= 0 {
                        t_rttvar = 1;
                    }
                }
            }
        } else {
            // Lines 597-598: the first sample (or the first after `rtt_backoff` cleared SRTT):
            // SRTT = rtt, RTTVAR = rtt / 2.
            t_srtt = t_rtt << T_SRTT_BITS;
            t_rttvar = t_rtt << (T_RTTVAR_BITS - 1);
        }
        // Lines 605-606: t_rtxcur_ = (((t_rttvar_ << (rttvar_exp_ + (T_SRTT_BITS -
        // T_RTTVAR_BITS))) + t_srtt_) >> T_SRTT_BITS) * tcp_tick_ — ⌊SRTT + 4·RTTVAR⌋ ticks.
        let rtxcur = ((t_rttvar << (RTTVAR_EXP + T_SRTT_BITS - T_RTTVAR_BITS)) + t_srtt) >> T_SRTT_BITS;
        self.rtxcur_ticks = rtxcur.max(0) as u32;
        (self.srtt, self.rttvar) = (f64::from(t_srtt), f64::from(t_rttvar));
    }

    /// ns-2 2.35 tcp.cc `TcpAgent::rtt_timeout` (lines 529-561) with `rfc2988_ true`
    /// (ns-default.tcl line 969): minrto_ clamps before the backoff, then maxrto_, then at
    /// least two ticks. Before the first sample `t_rtxcur_` is `rtxcur_init_` (initial RTO).
    fn ns2_rto(&self) -> Time {
        let tick = self.ns2_tick();
        let rtxcur = if self.has_sample { Time::from(self.rtxcur_ticks) * tick } else { self.initial_rto };
        let timeout = rtxcur.max(self.min_rto).saturating_mul(1u64 << self.backoff_shift.min(32));
        timeout.min(self.max_rto).max(2 * tick)
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
        if self.estimator != RttEstimator::Rfc6298 {
            self.ns2_sample(rtt);
            self.has_sample = true;
            if self.estimator == RttEstimator::Ns2Linux {
                // tcp-linux.cc `time_processing`, lines 196-198: `ts_resetRTO_` (true for
                // Agent/TCP/Linux, ns-default.tcl line 1582) ends the backoff on every sample.
                self.backoff_shift = 0;
            }
            return;
        }
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
        if self.estimator != RttEstimator::Rfc6298 {
            return self.ns2_rto();
        }
        let base = if self.has_sample {
            // RFC 6298 Section 2.3: RTO = SRTT + max(G, K*RTTVAR), K = 4; Section 2.4: >= min.
            let granularity = self.tick.unwrap_or(GRANULARITY_NS) as f64;
            let rto = self.srtt + (4.0 * self.rttvar).max(granularity);
            let rto = match self.tick {
                // ns-2's t_rtxcur_: a whole number of ticks (integer arithmetic, rounded down).
                Some(tick) => (rto as Time / tick) * tick,
                None => round_to_time(rto),
            };
            rto.max(self.min_rto)
        } else {
            // RFC 6298 Section 2.1: initial RTO.
            self.initial_rto
        };
        // RFC 6298 Section 5.5: back off the timer (double it), capped at the maximum (2.5).
        base.saturating_mul(1u64 << self.backoff_shift.min(32)).min(self.max_rto)
    }

    /// The cumulative ACK reached `ack` (the next segment expected). `Ns2`: tcp.cc `newack`,
    /// lines 1390-1400: without `ts_resetRTO_` (false for Agent/TCP, ns-default.tcl line 947)
    /// the backoff ends when the timed segment is acknowledged, and after a timeout
    /// (`reset_rtx_timer` clears `rtt_active_`, line 972) only a segment sent for the first
    /// time (`seqno > maxseq_`, line 780) is timed again: an ACK beyond the data sent before
    /// the timeout. (The other estimators end the backoff on the sample, `sample`.)
    pub fn on_cumulative_ack(&mut self, ack: u64) {
        if self.estimator == RttEstimator::Ns2 && ack > self.karn_seq {
            self.backoff_shift = 0;
        }
    }

    /// A retransmission timeout with `high_tx` segments sent (0..high_tx): back off, and
    /// (`Ns2`) keep the backoff until data beyond them is acknowledged.
    pub fn on_timeout(&mut self, high_tx: u64) {
        self.back_off();
        self.karn_seq = high_tx;
    }

    /// The timer expired: double the timeout.
    pub fn back_off(&mut self) {
        self.backoff_shift = (self.backoff_shift + 1).min(32);
        if self.estimator != RttEstimator::Rfc6298 && self.backoff_shift > 3 {
            // tcp.cc `rtt_backoff` lines 618-626: past a backoff of 8, "clobber the srtt value,
            // storing it in the mean deviation instead"; the next sample starts afresh.
            self.rttvar += (self.srtt as i32 >> T_SRTT_BITS) as f64;
            self.srtt = 0.0;
        }
    }

    pub fn srtt_ns(&self) -> Time {
        if self.estimator != RttEstimator::Rfc6298 {
            return if self.has_sample { (self.srtt as Time >> T_SRTT_BITS) * self.ns2_tick() } else { 0 };
        }
        if self.has_sample {
            round_to_time(self.srtt)
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

    /// ns-2's fixed-point estimator at a 1-ms tick (TCP-Linux's, and the matrix's per-ACK
    /// setting): the first sample, then the collapse of RTTVAR under per-ACK samples that
    /// `benchmarks/ns2/probe_flow.py` shows in ns-2 itself (`rttvar_ 3`, RTO 203 ms at 200 ms).
    #[test]
    fn ns2_fixed_point_estimator_collapses_rttvar_with_per_ack_samples() {
        let ns2 = |estimator| {
            RtoEstimator::new(200 * MS, 3000 * MS, 60_000 * MS).with_tick(Some(MS)).with_estimator(estimator)
        };
        let mut est = ns2(RttEstimator::Ns2);
        assert_eq!(est.rto(), 3000 * MS, "rtxcur_init_ before a sample");
        est.sample(200 * MS, 50.0);
        // t_srtt_ = 1600, t_rttvar_ = 400: ((400 << 3) + 1600) >> 3 = 600 ticks.
        assert_eq!((est.srtt, est.rttvar, est.rto()), (1600.0, 400.0, 600 * MS));
        for _ in 0..100 {
            est.sample(200 * MS, 50.0);
        }
        // delta 0 each time: t_rttvar_ -= t_rttvar_ >> 2 until 3 >> 2 = 0 stops it.
        assert_eq!((est.srtt, est.rttvar, est.rto()), (1600.0, 3.0, 203 * MS));
        // RFC 6298 with Appendix G's gains keeps its variance over the same samples.
        let mut rfc = RtoEstimator::new(200 * MS, 3000 * MS, 60_000 * MS);
        for _ in 0..101 {
            rfc.sample(200 * MS, 50.0);
        }
        assert!(rfc.rto() > 300 * MS, "{}", rfc.rto());
        // A queue lifting the RTT by 5 ms: the ns-2 timer (203 ms) is below it.
        est.sample(205 * MS, 50.0);
        // delta 5: t_srtt_ 1605, t_rttvar_ = 3 + (5 - 0) = 8: (64 + 1605) >> 3 = 208 ticks.
        assert_eq!((est.srtt, est.rttvar, est.rto()), (1605.0, 8.0, 208 * MS));
        assert_eq!(est.srtt_ns(), 200 * MS, "SRTT in whole ticks (t_srtt_ >> 3)");
    }

    #[test]
    fn ns2_linux_damps_rttvar_on_samples_below_srtt() {
        let run = |estimator| {
            let mut est = RtoEstimator::new(0, 3000 * MS, 60_000 * MS).with_tick(Some(MS)).with_estimator(estimator);
            est.sample(200 * MS, 1.0);
            est.sample(40 * MS, 1.0);
            (est.srtt, est.rttvar, est.rto())
        };
        // delta = 40 - 200 = -160: t_srtt_ 1440; |delta| - (400 >> 2) = 60.
        // tcp.cc: t_rttvar_ 460, RTO (3680 + 1440) >> 3 = 640 ticks; tcp-linux.cc: 60 >> 3 = 7,
        // t_rttvar_ 407, RTO (3256 + 1440) >> 3 = 587 ticks.
        assert_eq!(run(RttEstimator::Ns2), (1440.0, 460.0, 640 * MS));
        assert_eq!(run(RttEstimator::Ns2Linux), (1440.0, 407.0, 587 * MS));
        // A sample below SRTT by less than RTTVAR/4 lowers RTTVAR in both (delta stays negative).
        let mut linux =
            RtoEstimator::new(0, 3000 * MS, 60_000 * MS).with_tick(Some(MS)).with_estimator(RttEstimator::Ns2Linux);
        linux.sample(200 * MS, 1.0);
        linux.sample(190 * MS, 1.0);
        // delta -10: t_srtt_ 1590; 10 - 100 = -90: t_rttvar_ 310.
        assert_eq!((linux.srtt, linux.rttvar), (1590.0, 310.0));
    }

    #[test]
    fn ns2_timeout_clamps_backs_off_and_clobbers_srtt() {
        let tick = 10 * MS;
        let mut est = RtoEstimator::new(200 * MS, 3000 * MS, 2000 * MS).with_estimator(RttEstimator::Ns2);
        assert_eq!(est.ns2_tick(), tick, "ns-2's default tcpTick_");
        // 14 ms rounds to 1 tick, 16 ms to 2 (int(tao / tcp_tick_ + 0.5)).
        est.sample(14 * MS, 1.0);
        assert_eq!(est.srtt, 8.0);
        est.sample(16 * MS, 1.0);
        // delta 1: t_srtt_ 9, t_rttvar_ = 2 + (1 - 0) = 3: (24 + 9) >> 3 = 4 ticks = 40 ms,
        // below minrto_ 200 ms: clamped before the backoff (rfc2988_).
        assert_eq!((est.srtt, est.rttvar, est.rto()), (9.0, 3.0, 200 * MS));
        est.back_off();
        assert_eq!(est.rto(), 400 * MS);
        est.back_off();
        est.back_off();
        assert_eq!((est.srtt, est.rto()), (9.0, 1600 * MS), "t_backoff_ 8: SRTT kept");
        est.back_off();
        // t_backoff_ 16 > 8: t_rttvar_ += t_srtt_ >> 3 (1), t_srtt_ = 0; maxrto_ caps.
        assert_eq!((est.srtt, est.rttvar, est.rto()), (0.0, 4.0, 2000 * MS));
        assert_eq!(est.srtt_ns(), 0);
        // The next sample starts afresh (t_srtt_ == 0 is ns-2's "no sample yet"); the ACK of
        // a timed segment ends the backoff.
        est.sample(100 * MS, 1.0);
        est.on_cumulative_ack(1);
        assert_eq!((est.srtt, est.rttvar, est.rto()), (80.0, 20.0, 300 * MS));
        // At least two ticks whatever minrto_ and rtxcur_init_ say; a 1-ms RTT counts one tick,
        // t_rttvar_ stays at 2 (2 >> 2 = 0): (16 + 8) >> 3 = 3 ticks.
        let mut tiny = RtoEstimator::new(0, MS, 60_000 * MS).with_estimator(RttEstimator::Ns2);
        assert_eq!(tiny.rto(), 2 * tick);
        for _ in 0..50 {
            tiny.sample(MS, 1.0);
        }
        assert_eq!((tiny.srtt, tiny.rttvar, tiny.rto()), (8.0, 2.0, 3 * tick));
    }

    #[test]
    fn ns2_backoff_ends_on_new_data_acked_linux_on_any_sample() {
        let est = |estimator| {
            let mut est =
                RtoEstimator::new(200 * MS, 3000 * MS, 60_000 * MS).with_tick(Some(MS)).with_estimator(estimator);
            est.sample(300 * MS, 1.0);
            est
        };
        let mut ns2 = est(RttEstimator::Ns2);
        let base = ns2.rto();
        assert_eq!(base, 900 * MS, "300 + 4 x 150");
        // A timeout with segments 0..50 sent; the ACK of the retransmission (up to 40) gives a
        // sample but the backoff stays: ns-2 times only new data after a timeout.
        ns2.on_timeout(50);
        ns2.sample(300 * MS, 1.0);
        ns2.on_cumulative_ack(40);
        ns2.on_cumulative_ack(50);
        assert_eq!(ns2.rto(), 2 * ns2.rtxcur_ticks as Time * MS, "still backed off");
        ns2.on_cumulative_ack(51);
        assert_eq!(ns2.rto(), ns2.rtxcur_ticks as Time * MS, "segment 50, sent after the timeout, acknowledged");
        // TCP-Linux (ts_resetRTO_ true) and RFC 6298 (Section 5.7) end it on the next sample.
        for estimator in [RttEstimator::Ns2Linux, RttEstimator::Rfc6298] {
            let mut other = est(estimator);
            other.on_timeout(50);
            let backed_off = other.rto();
            other.sample(300 * MS, 1.0);
            assert!(other.rto() < backed_off, "{estimator:?}");
        }
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
