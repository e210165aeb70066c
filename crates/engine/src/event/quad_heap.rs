//! A 4-ary min-heap of events on unique `u128` keys, `(time << 64) | sequence`.
//!
//! Keys and events are kept apart (structure of arrays): sifting compares keys only, and the
//! four children of a node are 64 contiguous bytes of keys. The smallest of four children is
//! chosen by comparisons whose results select (no branch on them), because which child is
//! smallest is unpredictable: with a general-purpose heap (`dary_heap`) the mispredicted
//! branches of `pop` were a third of dumbbell-60's run time (benchmarks/scale/README.md).

use super::Event;

#[derive(Debug, Default)]
pub struct QuadHeap {
    keys: Vec<u128>,
    events: Vec<Event>,
}

impl QuadHeap {
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The smallest key and its event.
    #[inline]
    pub fn peek(&self) -> Option<(u128, Event)> {
        Some((*self.keys.first()?, self.events[0]))
    }

    pub fn push(&mut self, key: u128, event: Event) {
        let mut hole = self.keys.len();
        self.keys.push(key);
        self.events.push(event);
        while hole > 0 {
            let parent = (hole - 1) / 4;
            if self.keys[parent] < key {
                break;
            }
            self.fill(hole, parent);
            hole = parent;
        }
        self.place(hole, key, event);
    }

    /// Remove the smallest entry.
    pub fn pop(&mut self) -> Option<(u128, Event)> {
        let top = self.peek()?;
        let (key, event) = (self.keys.pop().expect("not empty"), self.events.pop().expect("not empty"));
        if !self.keys.is_empty() {
            self.sift_down(key, event);
        }
        Some(top)
    }

    /// Remove the smallest entry and add `(key, event)`: one sift-down. The heap must not be
    /// empty.
    pub fn replace_top(&mut self, key: u128, event: Event) {
        assert!(!self.keys.is_empty(), "replace_top on an empty heap");
        self.sift_down(key, event);
    }

    /// Put `(key, event)` at the root's place and move it down to where it belongs.
    ///
    /// The slices are cut to one length up front, so that the loop indexes keys and events
    /// within bounds the compiler can see (dumbbell-60: the bounds checks were a quarter of
    /// this function's instructions; issue 28, stop 4).
    #[inline]
    fn sift_down(&mut self, key: u128, event: Event) {
        let len = self.keys.len();
        let keys = &mut self.keys[..len];
        let events = &mut self.events[..len];
        let mut hole = 0;
        loop {
            let first = 4 * hole + 1;
            let child = if let Some(k) = keys.get(first..first + 4) {
                // Selects, not branches: which of the four is smallest is a coin toss (carrying
                // the smallest key out of the last comparison made it a branch: +9 % CPU on
                // dumbbell-60 for 1.5 % fewer instructions; issue 28, stop 4).
                let (low_a, a) = if k[1] < k[0] { (k[1], 1) } else { (k[0], 0) };
                let (low_b, b) = if k[3] < k[2] { (k[3], 3) } else { (k[2], 2) };
                first + if low_b < low_a { b } else { a }
            } else if first < len {
                (first..len).min_by_key(|&c| keys[c]).expect("a child")
            } else {
                break;
            };
            let low = keys[child];
            if key < low {
                break;
            }
            keys[hole] = low;
            events[hole] = events[child];
            hole = child;
        }
        keys[hole] = key;
        events[hole] = event;
    }

    /// Move the entry at `from` into the hole at `hole`.
    #[inline(always)]
    fn fill(&mut self, hole: usize, from: usize) {
        self.keys[hole] = self.keys[from];
        self.events[hole] = self.events[from];
    }

    #[inline(always)]
    fn place(&mut self, at: usize, key: u128, event: Event) {
        self.keys[at] = key;
        self.events[at] = event;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Random pushes, pops and replacements against a sorted reference.
    #[test]
    fn pops_keys_in_increasing_order() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut heap = QuadHeap::default();
        let mut reference = std::collections::BTreeMap::new();
        for step in 0..100_000u32 {
            let key = u128::from(rng.gen_range(0..1_000u64)) << 64 | u128::from(step);
            match rng.gen_range(0..3) {
                0 if !reference.is_empty() => {
                    let expected = reference.pop_first();
                    assert_eq!(heap.pop(), expected);
                }
                1 if !reference.is_empty() => {
                    let removed = reference.pop_first().unwrap();
                    assert_eq!(heap.peek(), Some(removed));
                    heap.replace_top(key, Event::Arrival(step));
                    reference.insert(key, Event::Arrival(step));
                }
                _ => {
                    heap.push(key, Event::Arrival(step));
                    reference.insert(key, Event::Arrival(step));
                }
            }
            assert_eq!(heap.len(), reference.len());
            assert_eq!(heap.peek(), reference.first_key_value().map(|(k, e)| (*k, *e)));
        }
        while let Some(expected) = reference.pop_first() {
            assert_eq!(heap.pop(), Some(expected));
        }
        assert!(heap.is_empty() && heap.pop().is_none());
    }
}
