//! The event queue: events ordered by (time, sequence number), so simultaneous events run
//! in the order they were scheduled and every run is deterministic.

mod quad_heap;

use quad_heap::QuadHeap;

use crate::time::Time;

/// What happens; each names the component it concerns by index (htsim style: a component
/// has at most one pending event of each kind, except where noted in `sim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The link finished serialising the packet it was transmitting.
    TransmissionDone(u32),
    /// The head of the link's propagation FIFO reaches the far end.
    Arrival(u32),
    FlowStart(u32),
    /// A bulk TCP flow stops taking new data (it leaves the network).
    FlowStop(u32),
    /// A UDP source sends its next datagram.
    UdpSend(u32),
    SenderTimer(u32),
    ReceiverTimer(u32),
    Sample,
    MeasureStart,
}

/// The key both queues order by: `(time << 64) | sequence`, unique because the sequence is.
fn key_of(time: Time, sequence: u64) -> u128 {
    (u128::from(time) << 64) | u128::from(sequence)
}

fn time_of(key: u128) -> Time {
    (key >> 64) as Time
}

/// A pending event of the radix heap and its key (`key_of`).
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u128,
    event: Event,
}

/// Above this many pending events expected (about one per link), the radix heap is used (with
/// its prefetch hints). CPU time of the scaled dumbbell, 4-ary heap against radix heap: 3000
/// flows (12 002 links) 2.98 against 3.65 s, 6000 flows (24 002 links) 2.93 against 3.27 s,
/// 10 000 flows (40 002 links) 2.57 against 2.45 s; with 100 000 flows the radix heap is far
/// ahead (benchmarks/scale/README.md). Both pop the same order.
pub const RADIX_ABOVE_EXPECTED_EVENTS: usize = 32_768;

/// The event queue. Both implementations pop by (time, sequence): simultaneous events run
/// in the order they were scheduled.
pub enum EventQueue {
    /// A 4-ary heap: shallower than a binary heap, so `pop` (43 % of the run time with
    /// std's `BinaryHeap`, see benchmarks/dumbbell-60) touches fewer cache lines.
    Heap {
        heap: QuadHeap,
        next_sequence: u64,
        /// The root is the event last popped, left in place while it is processed: the first
        /// event scheduled meanwhile replaces it with one sift-down, where a pop then a push
        /// cost a sift-down and a sift-up (most events schedule at least one other). The
        /// order is unchanged: the root is leaving either way.
        root_taken: bool,
    },
    Radix(RadixHeap),
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue::Heap { heap: QuadHeap::default(), next_sequence: 0, root_taken: false }
    }
}

impl EventQueue {
    /// The implementation suited to about `expected` pending events.
    pub fn for_expected_events(expected: usize) -> Self {
        if expected > RADIX_ABOVE_EXPECTED_EVENTS {
            EventQueue::Radix(RadixHeap::default())
        } else {
            EventQueue::default()
        }
    }

    pub fn schedule(&mut self, time: Time, event: Event) {
        match self {
            EventQueue::Heap { heap, next_sequence, root_taken } => {
                let key = key_of(time, *next_sequence);
                *next_sequence += 1;
                if std::mem::take(root_taken) {
                    heap.replace_top(key, event);
                } else {
                    heap.push(key, event);
                }
            }
            EventQueue::Radix(radix) => radix.schedule(time, event),
        }
    }

    /// Pop the earliest event if it is due at or before `limit`.
    pub fn pop_until(&mut self, limit: Time) -> Option<(Time, Event)> {
        self.pop_until_hinting(limit, |_, _| {})
    }

    /// `pop_until`, calling `soon` on pending events that will probably be popped within the
    /// next few microseconds of simulated time, so that the caller can prefetch what they
    /// touch (the radix heap only; a hint, never a promise: it has no effect on the order).
    /// The hint says how soon: [`Soon::Near`] (within 2^13 ns of the earliest) or
    /// [`Soon::Far`] (within 2^16 ns).
    // Always inlined into the event loop: LLVM's own choice flips with unrelated code elsewhere
    // in the crate (dumbbell-60: +5.7 % instructions when it is out of line; issue 32).
    #[inline(always)]
    pub fn pop_until_hinting(&mut self, limit: Time, soon: impl FnMut(&Event, Soon)) -> Option<(Time, Event)> {
        match self {
            EventQueue::Heap { heap, root_taken, .. } => {
                drop_taken_root(heap, root_taken);
                let (key, event) = heap.peek()?;
                let time = time_of(key);
                if time > limit {
                    return None;
                }
                *root_taken = true;
                Some((time, event))
            }
            EventQueue::Radix(radix) => radix.pop_until(limit, soon),
        }
    }

    /// Time of the earliest pending event.
    pub fn next_time(&mut self) -> Option<Time> {
        match self {
            EventQueue::Heap { heap, root_taken, .. } => {
                drop_taken_root(heap, root_taken);
                heap.peek().map(|(key, _)| time_of(key))
            }
            EventQueue::Radix(radix) => radix.settle(&mut |_, _| {}).map(time_of),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            EventQueue::Heap { heap, root_taken, .. } => heap.len() - usize::from(*root_taken),
            EventQueue::Radix(radix) => radix.len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Entries settled into this bucket or a lower one are due within 2^13 ns (8.2 µs) of the
/// earliest pending event: `pop_until_hinting` reports them as coming soon. At 10 000 flows
/// that is ~30 events ahead, far enough for a prefetch to complete, near enough for the lines
/// to stay in cache (2^10-2^16 ns were tried: benchmarks/scale/README.md).
const SOON_BUCKET: usize = 65 + 12;

/// Entries settled into a bucket above `SOON_BUCKET` up to this one are due within 2^16 ns
/// (65 µs, about a hundred events at 10 000 flows): reported as [`Soon::Far`], so that the
/// caller can start bringing in the record an event reads first and, once the event is
/// near, read it from cache to find what comes next (issue 28, stop 3:
/// benchmarks/scale/README.md; a third stage, 2^13 / 2^15 / 2^17 ns, was no faster).
const FAR_BUCKET: usize = 65 + 15;

/// How soon an event reported by [`EventQueue::pop_until_hinting`] is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Soon {
    /// Within 2^13 ns of the earliest pending event.
    Near,
    /// Within 2^16 ns.
    Far,
}

/// The 4-ary heap's root, if taken by the last pop, leaves for good now (no event was
/// scheduled to replace it).
fn drop_taken_root(heap: &mut QuadHeap, root_taken: &mut bool) {
    if std::mem::take(root_taken) {
        heap.pop();
    }
}

/// Buckets of the radix heap: bucket 0 holds keys equal to `last`, bucket b ≥ 1 the keys
/// whose highest bit differing from `last` is bit b - 1.
const BUCKETS: usize = 129;

/// A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan 1990, "Faster algorithms for the shortest
/// path problem", J. ACM 37(2), Section 3) on the keys `(time, sequence)`. It pops exactly the
/// order of a binary heap on the same keys because the keys are unique and only ever grow:
/// an event is never scheduled before the event being processed (`schedule` checks it).
/// Pushes and pops append to and take from the ends of bucket vectors, and an entry only
/// moves to a lower bucket: memory is touched sequentially, where a d-ary heap's sift-down
/// touches one random cache line per level. With 10 000 flows the 4-ary heap held ~30 000
/// entries and took a quarter of the run time (benchmarks/scale/README.md).
pub struct RadixHeap {
    buckets: Vec<Vec<Entry>>,
    /// The key last taken out (every pending key is ≥ it).
    last: u128,
    len: usize,
    next_sequence: u64,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap { buckets: (0..BUCKETS).map(|_| Vec::new()).collect(), last: 0, len: 0, next_sequence: 0 }
    }
}

fn bucket_of(key: u128, last: u128) -> usize {
    (128 - (key ^ last).leading_zeros()) as usize
}

impl RadixHeap {
    fn schedule(&mut self, time: Time, event: Event) {
        let key = key_of(time, self.next_sequence);
        assert!(key >= self.last, "event scheduled at {time} ns, before the event being processed");
        self.next_sequence += 1;
        self.buckets[bucket_of(key, self.last)].push(Entry { key, event });
        self.len += 1;
    }

    /// Make bucket 0 hold the smallest pending key (if any): move `last` to the smallest key
    /// of the lowest non-empty bucket and spread that bucket over the buckets below it.
    fn settle(&mut self, soon: &mut impl FnMut(&Event, Soon)) -> Option<u128> {
        if let Some(entry) = self.buckets[0].last() {
            return Some(entry.key);
        }
        let lowest = (1..BUCKETS).find(|&b| !self.buckets[b].is_empty())?;
        let mut entries = std::mem::take(&mut self.buckets[lowest]);
        let smallest = entries.iter().map(|e| e.key).min().expect("a non-empty bucket");
        self.last = smallest;
        for entry in entries.drain(..) {
            let bucket = bucket_of(entry.key, smallest);
            if bucket <= SOON_BUCKET {
                soon(&entry.event, Soon::Near);
            } else if bucket <= FAR_BUCKET {
                soon(&entry.event, Soon::Far);
            }
            self.buckets[bucket].push(entry);
        }
        // Keep the emptied vector's buffer for the bucket's next entries.
        self.buckets[lowest] = entries;
        Some(smallest)
    }

    fn pop_until(&mut self, limit: Time, mut soon: impl FnMut(&Event, Soon)) -> Option<(Time, Event)> {
        if time_of(self.settle(&mut soon)?) > limit {
            return None;
        }
        let entry = self.buckets[0].pop().expect("settled");
        self.len -= 1;
        Some((time_of(entry.key), entry.event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_schedule_order() {
        for mut q in [EventQueue::default(), EventQueue::Radix(RadixHeap::default())] {
            q.schedule(5, Event::Sample);
            q.schedule(3, Event::FlowStart(1));
            q.schedule(5, Event::FlowStart(2));
            q.schedule(3, Event::FlowStart(0));
            let order: Vec<_> = std::iter::from_fn(|| q.pop_until(10)).collect();
            assert_eq!(
                order,
                vec![(3, Event::FlowStart(1)), (3, Event::FlowStart(0)), (5, Event::Sample), (5, Event::FlowStart(2))]
            );
        }
    }

    #[test]
    fn respects_the_limit() {
        for mut q in [EventQueue::default(), EventQueue::Radix(RadixHeap::default())] {
            q.schedule(7, Event::Sample);
            assert_eq!(q.pop_until(6), None);
            assert_eq!(q.pop_until(7), Some((7, Event::Sample)));
        }
    }

    /// Against a binary heap on (time, sequence), for both implementations: the same order
    /// for interleaved pushes and pops (runs of pops, pushes right after a pop, which replace
    /// the 4-ary heap's taken root, and `next_time` between), with many events at equal times,
    /// near times and far times (RTO-like).
    #[test]
    fn pops_in_the_order_of_a_binary_heap() {
        use rand::{Rng, SeedableRng};
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let queues = [EventQueue::default(), EventQueue::for_expected_events(RADIX_ABOVE_EXPECTED_EVENTS + 1)];
        assert!(matches!(queues[1], EventQueue::Radix(_)));
        for mut queue in queues {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
            let mut reference = BinaryHeap::new();
            let mut sequence = 0u32;
            let mut now: Time = 0;
            let mut popped = 0;
            for _ in 0..200_000 {
                if rng.gen_bool(0.52) || reference.is_empty() {
                    let ahead = match rng.gen_range(0..4) {
                        0 => 0,
                        1 => rng.gen_range(0..10),
                        2 => rng.gen_range(0..1_000_000),
                        _ => rng.gen_range(0..(1u64 << 40)),
                    };
                    queue.schedule(now + ahead, Event::Arrival(sequence));
                    reference.push(Reverse((now + ahead, sequence)));
                    sequence += 1;
                } else {
                    let Reverse((time, id)) = reference.pop().unwrap();
                    if rng.gen_bool(0.5) {
                        assert_eq!(queue.next_time(), Some(time));
                    }
                    assert_eq!(queue.pop_until(time), Some((time, Event::Arrival(id))));
                    now = time;
                    popped += 1;
                }
                assert_eq!(queue.len(), reference.len());
            }
            assert!(popped > 50_000);
            while let Some(Reverse((time, id))) = reference.pop() {
                assert_eq!(queue.pop_until(Time::MAX), Some((time, Event::Arrival(id))));
            }
            assert_eq!(queue.pop_until(Time::MAX), None);
            assert!(queue.is_empty());
        }
    }

    #[test]
    #[should_panic(expected = "before the event being processed")]
    fn refuses_an_event_in_the_past() {
        let mut q = EventQueue::Radix(RadixHeap::default());
        q.schedule(10, Event::Sample);
        q.pop_until(10);
        q.schedule(9, Event::Sample);
    }
}
