//! The event queue: events ordered by (time, sequence number), so simultaneous events run
//! in the order they were scheduled and every run is deterministic.

use dary_heap::QuaternaryHeap;
use std::cmp::Ordering;

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

/// A pending event ordered by (time, sequence): by time, then by scheduling order. 24 bytes
/// (a `u128` key made it 32 with its 16-byte alignment): at 10 000 flows the heap holds
/// ~30 000 entries and its lower levels miss the cache (benchmarks/scale/README.md).
#[derive(Clone, Copy, Debug)]
struct Entry {
    time: Time,
    sequence: u64,
    event: Event,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.time, self.sequence) == (other.time, other.sequence)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Reversed so that the max-heap pops the earliest (time, sequence) first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time, other.sequence).cmp(&(self.time, self.sequence))
    }
}

const _: () = assert!(std::mem::size_of::<Entry>() == 24);

#[derive(Default)]
pub struct EventQueue {
    /// A 4-ary heap: shallower than a binary heap, so `pop` (43 % of the run time with
    /// std's `BinaryHeap`, see benchmarks/dumbbell-60) touches fewer cache lines.
    heap: QuaternaryHeap<Entry>,
    next_sequence: u64,
}

impl EventQueue {
    pub fn schedule(&mut self, time: Time, event: Event) {
        self.heap.push(Entry { time, sequence: self.next_sequence, event });
        self.next_sequence += 1;
    }

    /// Pop the earliest event if it is due at or before `limit`.
    pub fn pop_until(&mut self, limit: Time) -> Option<(Time, Event)> {
        if self.heap.peek()?.time > limit {
            return None;
        }
        self.heap.pop().map(|e| (e.time, e.event))
    }

    /// Time of the earliest pending event.
    pub fn next_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| e.time)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_schedule_order() {
        let mut q = EventQueue::default();
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

    #[test]
    fn respects_the_limit() {
        let mut q = EventQueue::default();
        q.schedule(7, Event::Sample);
        assert_eq!(q.pop_until(6), None);
        assert_eq!(q.pop_until(7), Some((7, Event::Sample)));
    }
}
