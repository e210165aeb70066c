//! Simulation time: an integer number of nanoseconds (exact and deterministic).

/// Simulation time in nanoseconds since the start of the run.
pub type Time = u64;

pub const NANOS_PER_SEC: u64 = 1_000_000_000;

/// Convert seconds (f64) to nanoseconds, rounding to the nearest nanosecond.
pub fn from_secs(seconds: f64) -> Time {
    (seconds * NANOS_PER_SEC as f64).round() as Time
}

/// Convert nanoseconds to seconds.
pub fn to_secs(t: Time) -> f64 {
    t as f64 / NANOS_PER_SEC as f64
}

/// `x.round() as Time` (nearest, halves away from zero; negative and NaN to 0, beyond
/// `Time::MAX` to it), without the call to libm's `round` that `f64::round` compiles to on
/// the x86-64 baseline (no SSE4.1): two calls per ACK in the RTO estimator were 1 % of a
/// dumbbell run's instructions (issue 28, stop 4). Exact: below 2^53 the truncation `t` is
/// exact and so is `x - t`; from 2^53 on `x` is an integer (`x - t` is 0, or `t` saturated).
#[inline]
pub fn round_to_time(x: f64) -> Time {
    let truncated = x as Time;
    let fraction = x - truncated as f64;
    // Added, not branched on: the fraction of an SRTT is a coin toss (as a branch it cost
    // more than the call it replaced: +12 % CPU on dumbbell-60).
    truncated.saturating_add(u64::from(fraction >= 0.5))
}

/// Serialisation time of `bytes` at `rate_bps`, rounded up to a whole nanosecond.
pub fn transmission_time(bytes: u32, rate_bps: u64) -> Time {
    if bytes < 1 << 30 {
        // bytes * 8 * 1e9 < 2^30 * 8e9 < 2^64: the same value in 64-bit arithmetic,
        // without a call to 128-bit division (4 % of a dumbbell run).
        return (bytes as u64 * 8 * NANOS_PER_SEC).div_ceil(rate_bps);
    }
    let bits = bytes as u128 * 8;
    let ns = (bits * NANOS_PER_SEC as u128).div_ceil(rate_bps as u128);
    ns as Time
}

/// Serialisation times of a sequence of packets on one link, exact over the long run: each
/// packet's time is rounded down to a whole nanosecond and the remainder (in units of
/// 1/rate ns) is carried to the next packet, so n packets take floor(total bits · 1e9 / rate)
/// ns in all instead of drifting by up to 1 ns per packet (a 40-byte ACK at 100 Gb/s is
/// 3.2 ns: 3, 3, 3, 3, 4, ...). Where bits · 1e9 is a multiple of the rate (1500 B at 100 Mb/s,
/// 40 B at 1 Gb/s) there is never a remainder and every time is exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Serialiser {
    /// bits · 1e9 carried from earlier packets, always below the rate.
    carry: u64,
}

impl Serialiser {
    /// The serialisation time of the next packet of `bytes` at `rate_bps` (> 0), ns.
    pub fn next(&mut self, bytes: u32, rate_bps: u64) -> Time {
        // 64-bit arithmetic when it cannot overflow (every packet of a realistic size), which
        // avoids a 128-bit division on the per-packet path.
        if let Some(total) = (bytes as u64 * 8).checked_mul(NANOS_PER_SEC).and_then(|n| n.checked_add(self.carry)) {
            self.carry = total % rate_bps;
            return total / rate_bps;
        }
        let total = bytes as u128 * 8 * NANOS_PER_SEC as u128 + self.carry as u128;
        self.carry = (total % rate_bps as u128) as u64;
        (total / rate_bps as u128) as Time
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmission_time_is_exact_for_round_numbers() {
        assert_eq!(transmission_time(1500, 100_000_000), 120_000);
        assert_eq!(transmission_time(1500, 2_000_000), 6_000_000);
        // 40-byte ACK at 1 Gb/s = 320 ns
        assert_eq!(transmission_time(40, 1_000_000_000), 320);
        // rounds up: 1 byte at 3 b/s = 8/3 s
        assert_eq!(transmission_time(1, 3), 2_666_666_667);
    }

    #[test]
    fn serialiser_carries_the_remainder_so_long_runs_do_not_drift() {
        // 40-byte ACKs at 100 Gb/s: 3.2 ns each; 1000 of them take 3200 ns, not 4000.
        let mut link = Serialiser::default();
        let times: Vec<Time> = (0..1000).map(|_| link.next(40, 100_000_000_000)).collect();
        assert_eq!(&times[..5], &[3, 3, 3, 3, 4]);
        assert_eq!(times.iter().sum::<Time>(), 3200);
        // Round numbers never leave a remainder: the same times as `transmission_time`.
        let mut round = Serialiser::default();
        for _ in 0..10 {
            assert_eq!(round.next(1500, 100_000_000), transmission_time(1500, 100_000_000));
            assert_eq!(round.next(40, 1_000_000_000), 320);
        }
        // Huge packets at the slowest rate stay exact (128-bit arithmetic).
        assert_eq!(Serialiser::default().next(u32::MAX, 1000), u32::MAX as u64 * 8 * (NANOS_PER_SEC / 1000));
    }

    #[test]
    fn round_to_time_is_f64_round_as_time() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            0.49999999999999994,
            4503599627370495.5,
            4503599627370497.0,
            9007199254740993.0,
            -0.5,
            -0.7,
            -3.5,
            1.8446744073709552e19,
            1.8446744073709553e19,
            1e30,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MAX,
            f64::MIN_POSITIVE,
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..100_000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let bits = state >> 12;
            values.push(f64::from_bits(state));
            values.push(bits as f64 / 4096.0);
            values.push((bits % 1_000_000_000_000) as f64 + 0.5);
        }
        for x in values {
            assert_eq!(round_to_time(x), x.round() as Time, "{x:e}");
        }
    }

    #[test]
    fn seconds_round_trip() {
        assert_eq!(from_secs(0.2), 200_000_000);
        assert_eq!(to_secs(1_500_000_000), 1.5);
    }
}
