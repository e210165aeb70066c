//! CoDel, Controlled Delay (RFC 8289), deciding at dequeue on each packet's sojourn time.
//!
//! This follows the pseudocode of RFC 8289 Section 5 (`dodequeue`, `dequeue`,
//! `control_law`), including the Linux-derived count reuse of Section 5.6 when the
//! dropping state is re-entered. The engine offers heads one at a time
//! ([`QueuePolicy::on_dequeue`]); the `while` loop of the pseudocode becomes a small state
//! machine: after a drop the next head is offered at the same `now` and continues the loop
//! where the pseudocode's `r = dodequeue(now)` left off.
//!
//! Empty queue: the pseudocode resets `first_above_time` and leaves the dropping state when
//! `dequeue` finds the queue empty. The engine does not call the policy then; the same
//! reset is applied at the next arrival when the queue reports it has been idle
//! (`QueueView::idle_since`, set exactly when the link asked for a packet and found none).
//! Nothing reads the state in between, so the result is the pseudocode's. (A drop never
//! empties the queue: `dodequeue` refuses while at most MAXPACKET bytes stay queued.)

use serde::{Deserialize, Serialize};

use super::{Departure, DropReason, Limit, MarkReason, QueuePolicy, QueueView, Verdict};
use crate::error::{EngineError, Result};
use crate::packet::{Ecn, Packet};
use crate::rng::Rng;
use crate::time::Time;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodelConfig {
    pub limit: Limit,
    /// TARGET, the acceptable standing queue delay, ns (RFC 8289 Section 4.3: 5 ms).
    pub target_ns: Time,
    /// INTERVAL, ns (RFC 8289 Section 4.4: 100 ms).
    pub interval_ns: Time,
    /// Mark ECN-capable packets instead of dropping them (RFC 8289 Section 5, as Linux
    /// `codel_dequeue` with `ecn`).
    pub ecn: bool,
    /// MAXPACKET, bytes: no drop while at most this much is queued (RFC 8289 Section 5,
    /// "SHOULD use interface MTU").
    pub mtu_bytes: u32,
}

// The queue kind `codel` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: CodelConfig, _link, field| config.limit, Codel::new(config, field));

/// What the previous `on_dequeue` at this dequeue left pending (the pseudocode's position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// A fresh call to `dequeue()`.
    None,
    /// Inside the `while (now >= drop_next_ && dropping_)` loop after `drop(r.p); ++count_`.
    DropLoop,
    /// After the drop that entered the dropping state: this head is returned.
    Entered,
}

pub struct Codel {
    target: Time,
    interval: Time,
    ecn: bool,
    maxpacket: u64,
    /// `first_above_time_` (0 = not above).
    first_above_time: Time,
    /// `drop_next_`.
    drop_next: Time,
    /// `count_`.
    count: u32,
    /// `lastcount_`.
    lastcount: u32,
    /// `dropping_`.
    dropping: bool,
    pending: Pending,
    /// Sojourn time of the last head examined, s (for inspection).
    last_sojourn: Time,
}

/// RFC 8289 Section 5, `control_law`: t + INTERVAL / sqrt(count).
pub fn control_law(t: Time, interval: Time, count: u32) -> Time {
    t + (interval as f64 / (count.max(1) as f64).sqrt()).round() as Time
}

impl Codel {
    pub fn new(config: &CodelConfig, field: &str) -> Result<Self> {
        if config.target_ns == 0 {
            return Err(EngineError::invalid(format!("{field}.target_ns"), config.target_ns, "a target delay > 0 ns"));
        }
        if config.interval_ns == 0 {
            return Err(EngineError::invalid(format!("{field}.interval_ns"), config.interval_ns, "an interval > 0 ns"));
        }
        if config.mtu_bytes == 0 {
            return Err(EngineError::invalid(format!("{field}.mtu_bytes"), config.mtu_bytes, "a size > 0 bytes"));
        }
        Ok(Codel {
            target: config.target_ns,
            interval: config.interval_ns,
            ecn: config.ecn,
            maxpacket: config.mtu_bytes as u64,
            first_above_time: 0,
            drop_next: 0,
            count: 0,
            lastcount: 0,
            dropping: false,
            pending: Pending::None,
            last_sojourn: 0,
        })
    }

    /// RFC 8289 Section 5, `dodequeue` for a non-empty queue: whether it is OK to drop
    /// the head (`bytes_after` = what stays queued).
    fn dodequeue(&mut self, packet: &Packet, bytes_after: u64, now: Time) -> bool {
        let sojourn = now - packet.enqueued_at;
        self.last_sojourn = sojourn;
        if sojourn < self.target || bytes_after <= self.maxpacket {
            // went below - stay below for at least INTERVAL
            self.first_above_time = 0;
            false
        } else if self.first_above_time == 0 {
            // just went above from below; if still above at first_above_time, OK to drop
            self.first_above_time = now + self.interval;
            false
        } else {
            now >= self.first_above_time
        }
    }

    /// RFC 8289 Section 5, `dequeue` on an empty queue: `first_above_time_ = 0` (in
    /// `dodequeue`) and "an empty queue takes us out of dropping state".
    fn queue_empty(&mut self) {
        self.first_above_time = 0;
        self.dropping = false;
        self.pending = Pending::None;
    }

    /// Drop (or mark) the head. A mark ends this dequeue: the marked head is sent.
    fn congestion_signal(&self, packet: &Packet) -> Departure {
        if self.ecn && packet.ecn != Ecn::NotEct {
            Departure::Mark(MarkReason::Early)
        } else {
            Departure::Drop(DropReason::Early)
        }
    }

    /// The drop that enters the dropping state, with the count reuse of RFC 8289 Section 5
    /// (the Linux version quoted there): if the state was left recently, start from the
    /// number of drops of the last cycle.
    fn enter_dropping(&mut self, now: Time) {
        self.dropping = true;
        let delta = self.count.wrapping_sub(self.lastcount);
        self.count = 1;
        // now - drop_next_ < 16 * INTERVAL, in signed time as Linux `codel_time_before`.
        if delta > 1 && (now as i128 - self.drop_next as i128) < 16 * self.interval as i128 {
            self.count = delta;
        }
        self.drop_next = control_law(now, self.interval, self.count);
        self.lastcount = self.count;
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn dropping(&self) -> bool {
        self.dropping
    }

    pub fn drop_next(&self) -> Time {
        self.drop_next
    }
}

impl QueuePolicy for Codel {
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, _now: Time, _rng: &mut Rng) -> Verdict {
        if queue.idle_since.is_some() {
            // The link found the queue empty since the last dequeue (see the module notes).
            self.queue_empty();
        }
        let _ = packet;
        Verdict::Enqueue
    }

    fn on_dequeue(&mut self, packet: &Packet, queue: &QueueView, now: Time, _rng: &mut Rng) -> Departure {
        let ok_to_drop = self.dodequeue(packet, queue.bytes, now);
        let pending = std::mem::replace(&mut self.pending, Pending::None);
        // A drop never empties the queue: `dodequeue` refuses while at most MAXPACKET bytes
        // stay queued, so the next head always exists.
        match pending {
            Pending::Entered => Departure::Send,
            Pending::DropLoop => {
                // r = dodequeue(now) inside the while loop:
                if !ok_to_drop {
                    self.dropping = false; // leave drop state
                } else {
                    self.drop_next = control_law(self.drop_next, self.interval, self.count);
                }
                self.drop_loop(packet, now)
            }
            Pending::None => {
                if self.dropping {
                    if !ok_to_drop {
                        // sojourn time below TARGET - leave drop state
                        self.dropping = false;
                    }
                    self.drop_loop(packet, now)
                } else if ok_to_drop {
                    // Above TARGET for INTERVAL: drop, and enter the dropping state.
                    let signal = self.congestion_signal(packet);
                    self.enter_dropping(now);
                    if let Departure::Drop(_) = signal {
                        self.pending = Pending::Entered;
                    }
                    signal
                } else {
                    Departure::Send
                }
            }
        }
    }
}

impl Codel {
    /// `while (now >= drop_next_ && dropping_) { drop(r.p); ++count_; ... }` for head `packet`.
    fn drop_loop(&mut self, packet: &Packet, now: Time) -> Departure {
        if now >= self.drop_next && self.dropping {
            self.count = self.count.wrapping_add(1);
            let signal = self.congestion_signal(packet);
            match signal {
                Departure::Drop(_) => self.pending = Pending::DropLoop,
                // Linux codel_dequeue with ECN: mark, schedule the next drop, send.
                _ => self.drop_next = control_law(self.drop_next, self.interval, self.count),
            }
            signal
        } else {
            Departure::Send
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::LinkContext;

    const LINK: LinkContext = LinkContext { rate_bps: 10_000_000, mean_packet_bytes: 1500 };

    const MS: Time = 1_000_000;

    fn config() -> CodelConfig {
        CodelConfig {
            limit: Limit::Packets(1000),
            target_ns: 5 * MS,
            interval_ns: 100 * MS,
            ecn: false,
            mtu_bytes: 1500,
        }
    }

    fn packet(enqueued_at: Time, ecn: Ecn) -> Packet {
        Packet::test_data(1500, ecn, enqueued_at)
    }

    /// Dequeue one packet every `step` ns from `start` to `end`, every packet having waited
    /// `sojourn` ns, with `backlog` packets left behind; returns the drop times (a dequeue
    /// that drops offers the next head at the same instant, as the engine does).
    fn standing_queue(codel: &mut Codel, start: Time, end: Time, step: Time, sojourn: Time, backlog: u32) -> Vec<Time> {
        let mut rng = crate::rng::stream(1, crate::rng::StreamKind::Queue, 0);
        let mut drops = Vec::new();
        let mut now = start;
        while now < end {
            while let Departure::Drop(_) =
                codel.on_dequeue(&packet(now - sojourn, Ecn::NotEct), &LINK.queue_of(backlog), now, &mut rng)
            {
                drops.push(now);
            }
            now += step;
        }
        drops
    }

    /// Tests start at B so that every packet's enqueue time `now - sojourn` is >= 0.
    const B: Time = 1_000 * MS;

    #[test]
    fn drop_spacing_follows_interval_over_sqrt_count_in_a_standing_queue() {
        let mut codel = Codel::new(&config(), "q").unwrap();
        // A dequeue every 0.1 ms, a standing 20 ms sojourn and 20 packets behind.
        let drops = standing_queue(&mut codel, B, B + 2_000 * MS, 100_000, 20 * MS, 20);
        // First above target at B: first_above_time = B + INTERVAL, the first drop then.
        assert_eq!(drops[0], B + 100 * MS);
        assert_eq!(drops[1], B + 200 * MS);
        // Drop k+1 is scheduled INTERVAL/sqrt(k) after drop k (count = k after drop k);
        // drops land on the first dequeue at or after drop_next (0.1 ms grid).
        assert!(drops.len() > 40);
        for (i, pair) in drops.windows(2).enumerate() {
            let count = (i + 1) as f64;
            let expected = 100.0 * MS as f64 / count.sqrt();
            let gap = (pair[1] - pair[0]) as f64;
            assert!((gap - expected).abs() <= 100_000.0 + 1.0, "gap {i}: {gap} vs {expected}");
        }
        // Over many drops the grid error does not accumulate: drop n is at the sum.
        let n = drops.len();
        let scheduled: f64 = (1..n).map(|k| (100.0 * MS as f64 / (k as f64).sqrt()).round()).sum();
        assert!(((drops[n - 1] - drops[0]) as f64 - scheduled).abs() <= 100_000.0 + n as f64);
        assert!(codel.dropping());
        assert_eq!(codel.count() as usize, n);
    }

    #[test]
    fn no_drops_while_sojourn_is_below_target_or_backlog_below_one_mtu() {
        let mut codel = Codel::new(&config(), "q").unwrap();
        assert!(standing_queue(&mut codel, B, B + 2_000 * MS, 100_000, 4_999_999, 50).is_empty());
        assert!(!codel.dropping());
        // Large sojourn but at most one MTU left in the queue: no drops either.
        let mut codel = Codel::new(&config(), "q").unwrap();
        assert!(standing_queue(&mut codel, B, B + 2_000 * MS, 100_000, 50 * MS, 1).is_empty());
    }

    #[test]
    fn sojourn_must_stay_above_target_for_a_whole_interval() {
        let mut codel = Codel::new(&config(), "q").unwrap();
        // 90 ms above target, then one packet below: the clock restarts.
        assert!(standing_queue(&mut codel, B, B + 90 * MS, MS, 10 * MS, 20).is_empty());
        assert!(standing_queue(&mut codel, B + 90 * MS, B + 91 * MS, MS, MS, 20).is_empty());
        let drops = standing_queue(&mut codel, B + 91 * MS, B + 300 * MS, MS, 10 * MS, 20);
        assert_eq!(drops[0], B + 191 * MS);
    }

    #[test]
    fn reentering_dropping_state_reuses_count() {
        let mut codel = Codel::new(&config(), "q").unwrap();
        let mut drops = standing_queue(&mut codel, B, B + 1_000 * MS, MS, 20 * MS, 20);
        let first_cycle = drops.len() as u32;
        assert!(first_cycle > 2);
        assert_eq!(codel.count(), first_cycle);
        // The queue drains below target for 50 ms: leave the dropping state.
        drops = standing_queue(&mut codel, B + 1_000 * MS, B + 1_050 * MS, MS, MS, 20);
        assert!(drops.is_empty());
        assert!(!codel.dropping());
        // Above target again: after INTERVAL, enter with count = count - lastcount
        // (lastcount = 1 from the first entry), since drop_next is within 16 intervals.
        drops = standing_queue(&mut codel, B + 1_050 * MS, B + 1_151 * MS, MS, 20 * MS, 20);
        assert_eq!(drops, vec![B + 1_150 * MS]);
        assert_eq!(codel.count(), first_cycle - 1);
        assert!(codel.dropping());
        assert_eq!(codel.drop_next(), control_law(B + 1_150 * MS, 100 * MS, first_cycle - 1));

        // Long after (more than 16 intervals since drop_next), count restarts at 1.
        let mut codel = Codel::new(&config(), "q").unwrap();
        standing_queue(&mut codel, B, B + 1_000 * MS, MS, 20 * MS, 20);
        standing_queue(&mut codel, B + 1_000 * MS, B + 3_000 * MS, MS, MS, 20);
        let drops = standing_queue(&mut codel, B + 3_000 * MS, B + 3_101 * MS, MS, 20 * MS, 20);
        assert_eq!(drops, vec![B + 3_100 * MS]);
        assert_eq!(codel.count(), 1);
    }

    #[test]
    fn an_empty_or_idle_queue_leaves_the_dropping_state() {
        let mut codel = Codel::new(&config(), "q").unwrap();
        standing_queue(&mut codel, B, B + 500 * MS, MS, 20 * MS, 20);
        assert!(codel.dropping());
        let mut rng = crate::rng::stream(1, crate::rng::StreamKind::Queue, 0);
        let idle = QueueView { idle_since: Some(B + 500 * MS), ..LINK.queue_of(0) };
        codel.on_arrival(&packet(0, Ecn::NotEct), &idle, B + 501 * MS, &mut rng);
        assert!(!codel.dropping());
        assert_eq!(codel.first_above_time, 0);
        // A head that would leave the queue empty is never dropped (bytes <= MAXPACKET).
        let mut codel = Codel::new(&config(), "q").unwrap();
        standing_queue(&mut codel, B, B + 101 * MS, MS, 20 * MS, 20);
        assert!(codel.dropping());
        let d = codel.on_dequeue(&packet(B + 80 * MS, Ecn::NotEct), &LINK.queue_of(0), B + 300 * MS, &mut rng);
        assert_eq!(d, Departure::Send);
        assert!(!codel.dropping());
    }

    #[test]
    fn ecn_marks_and_sends_the_head() {
        let mut c = config();
        c.ecn = true;
        let mut codel = Codel::new(&c, "q").unwrap();
        let mut rng = crate::rng::stream(1, crate::rng::StreamKind::Queue, 0);
        let mut marks = Vec::new();
        let mut now = B;
        while now < B + 400 * MS {
            match codel.on_dequeue(&packet(now - 20 * MS, Ecn::Ect), &LINK.queue_of(20), now, &mut rng) {
                Departure::Mark(_) => marks.push(now - B),
                Departure::Drop(_) => panic!("ECN-capable heads are marked, not dropped"),
                Departure::Send => {}
            }
            now += MS;
        }
        // Enter at 100 ms (count 1), then 100 ms later (count 2), then 100/sqrt(2) = 70.7 ms
        // later -> 270.7 ms, on the 1 ms grid 271 ms; then +57.7 -> 328.4 -> 329 ms.
        assert_eq!(&marks[..4], &[100 * MS, 200 * MS, 271 * MS, 329 * MS]);
        // Non-ECT heads are still dropped.
        assert!(matches!(
            codel.on_dequeue(&packet(0, Ecn::NotEct), &LINK.queue_of(20), 10_000 * MS, &mut rng),
            Departure::Drop(_)
        ));
    }

    #[test]
    fn invalid_parameters_name_the_field() {
        let mut bad = config();
        bad.interval_ns = 0;
        assert!(Codel::new(&bad, "l.queue").err().unwrap().to_string().contains("l.queue.interval_ns"));
    }
}
