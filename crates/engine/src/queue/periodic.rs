//! Deterministic periodic updates for sampled AQMs (PI, REM, PIE).
//!
//! A controller that runs "every T seconds" is updated lazily: at each arrival or dequeue
//! the policy asks how many whole update instants `kT` (k >= 1) have passed since the last
//! one it processed, up to and including `now`, and applies that many updates in order,
//! before it handles the packet. Between two packet events the queue (and anything else
//! the policy observes) is constant, so the queue seen at every skipped instant is the
//! queue left by the previous event: the result is exactly that of a timer firing at every
//! `kT` whose handler runs before packet events at the same instant, without scheduling
//! events. The trace, sampled between packet events, may show a value that is stale by the
//! updates due since the last packet at that link.

use crate::time::Time;

/// Counts the update instants `kT`, k = 1, 2, ..., that have passed.
#[derive(Clone, Copy, Debug)]
pub struct Ticker {
    period: Time,
    /// Index k of the last update instant already processed.
    done: u64,
}

impl Ticker {
    /// `period` must be > 0 (checked by the policies' constructors).
    pub fn new(period: Time) -> Self {
        debug_assert!(period > 0);
        Ticker { period, done: 0 }
    }

    pub fn period(&self) -> Time {
        self.period
    }

    /// The number of update instants in (last processed, now]; marks them processed.
    pub fn elapsed(&mut self, now: Time) -> u64 {
        let k = now / self.period;
        let n = k.saturating_sub(self.done);
        self.done = self.done.max(k);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_whole_periods_including_an_instant_at_now() {
        let mut t = Ticker::new(10);
        assert_eq!(t.elapsed(0), 0);
        assert_eq!(t.elapsed(9), 0);
        assert_eq!(t.elapsed(10), 1);
        assert_eq!(t.elapsed(10), 0);
        assert_eq!(t.elapsed(45), 3);
        assert_eq!(t.elapsed(49), 0);
        assert_eq!(t.elapsed(50), 1);
    }
}
