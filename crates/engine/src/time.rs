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
    fn seconds_round_trip() {
        assert_eq!(from_secs(0.2), 200_000_000);
        assert_eq!(to_secs(1_500_000_000), 1.5);
    }
}
