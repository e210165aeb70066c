//! Packets on the wire: each link's propagation FIFO, its entries kept in one pool shared by
//! every link of the simulation.
//!
//! With thousands of flows each per-flow edge link used to keep its FIFO in a `VecDeque` of
//! its own: a packet pushed at the tail wrote to a buffer last touched a window earlier (a
//! cache miss), and every link's buffer kept the capacity of its largest backlog. In one pool
//! a packet takes the slot the last packet to arrive anywhere freed (a free list, last freed
//! first used: that slot is still in cache), a slot is one cache line, and the pool holds
//! only as many slots as packets are on the wire at the busiest instant
//! (benchmarks/scale/README.md, issue 28 stop 3).

use crate::packet::{Ecn, Packet, PacketKind};
use crate::time::Time;

/// No slot (the end of a FIFO, or of the free list).
const NONE: u32 = u32::MAX;

/// One packet on the wire and the slot of the packet after it in the same FIFO (or, free,
/// the next free slot). One cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot {
    arrival: Time,
    packet: Packet,
    next: u32,
}

/// The slots of every link's propagation FIFO but its head (which lives in the link record,
/// `Propagation`).
pub struct WirePool {
    slots: Vec<Slot>,
    free: u32,
}

impl Default for WirePool {
    fn default() -> Self {
        WirePool { slots: Vec::new(), free: NONE }
    }
}

impl WirePool {
    #[inline]
    fn take(&mut self, arrival: Time, packet: Packet) -> u32 {
        let slot = Slot { arrival, packet, next: NONE };
        if self.free != NONE {
            let index = self.free;
            self.free = self.slots[index as usize].next;
            self.slots[index as usize] = slot;
            return index;
        }
        let index = u32::try_from(self.slots.len()).ok().filter(|&i| i != NONE);
        let index = index.expect("fewer than 2^32 - 1 packets on the wire at once");
        self.slots.push(slot);
        index
    }

    /// Put the slot at `index` (read already) on the free list.
    #[inline]
    fn give_back(&mut self, index: u32) {
        self.slots[index as usize].next = self.free;
        self.free = index;
    }

    /// Slots ever used at once (the most packets on the wire beyond the links' heads).
    pub fn capacity_used(&self) -> usize {
        self.slots.len()
    }
}

/// Packets propagating on a link, arrival times non-decreasing. The head is kept inline in
/// the link record and the rest in the simulation's [`WirePool`], linked first to last: an
/// arrival reads the packet from the cache lines the link's other fields share, and refilling
/// the head from the pool is off the packet's path to its next link (with many flows both are
/// cache misses, and the processor overlaps the refill with the next link's;
/// benchmarks/scale/README.md). `repr(C)`: the head first (`sim/prefetch.rs` counts on it).
///
/// The head is a plain packet, meaningful while `len > 0`, not an `Option`: the `Option`'s
/// tag lived in the packet's kind byte, so taking the head wrote the tag into the middle of
/// the packet and copied it out around that byte, and the copy read back stores it
/// overlapped (a store-forwarding stall on every arrival; issue 28, stop 4).
#[repr(C)]
pub struct Propagation {
    head_arrival: Time,
    head: Packet,
    /// The pool slots of the packets after the head, oldest and newest (`NONE` if none).
    first: u32,
    last: u32,
    /// Packets on the wire, the head included.
    len: u32,
}

/// What an empty wire's head holds (never read: `len` is 0).
const NO_PACKET: Packet = Packet {
    flow: 0,
    kind: PacketKind::Data,
    ecn: Ecn::NotEct,
    flags: 0,
    hop: 0,
    route: 0,
    size_bytes: 0,
    seq: 0,
    timestamp: 0,
    enqueued_at: 0,
    sack: 0,
};

impl Default for Propagation {
    fn default() -> Self {
        Propagation { head_arrival: 0, head: NO_PACKET, first: NONE, last: NONE, len: 0 }
    }
}

impl Propagation {
    /// Add a packet arriving at `arrival` (no earlier than those already propagating).
    /// Returns true if it is the head: its arrival needs an event.
    #[inline]
    pub fn push(&mut self, pool: &mut WirePool, arrival: Time, packet: Packet) -> bool {
        self.len += 1;
        if self.len == 1 {
            self.head_arrival = arrival;
            self.head = packet;
            return true;
        }
        let index = pool.take(arrival, packet);
        if self.last == NONE {
            self.first = index;
        } else {
            pool.slots[self.last as usize].next = index;
        }
        self.last = index;
        false
    }

    /// Take the head, which has arrived, and return it with the arrival time of the next
    /// head, if any (its event to schedule).
    #[inline]
    pub fn pop(&mut self, pool: &mut WirePool) -> Option<(Packet, Option<Time>)> {
        if self.len == 0 {
            return None;
        }
        let packet = self.head;
        self.len -= 1;
        if self.first == NONE {
            return Some((packet, None));
        }
        let index = self.first;
        let slot = &pool.slots[index as usize];
        self.head_arrival = slot.arrival;
        self.head = slot.packet;
        self.first = slot.next;
        if self.first == NONE {
            self.last = NONE;
        }
        pool.give_back(index);
        Some((packet, Some(self.head_arrival)))
    }

    /// The packet that arrives next, if any.
    pub fn head(&self) -> Option<&Packet> {
        (self.len > 0).then_some(&self.head)
    }

    /// The packet that arrives after the head, if any (for prefetching: an arrival moves it
    /// into the head).
    pub fn second<'a>(&self, pool: &'a WirePool) -> Option<&'a Packet> {
        (self.first != NONE).then(|| &pool.slots[self.first as usize].packet)
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(seq: u64) -> Packet {
        Packet { seq, ..Packet::test_data(1000, crate::packet::Ecn::NotEct, 0) }
    }

    #[test]
    fn propagation_is_a_fifo_with_the_head_inline() {
        let mut pool = WirePool::default();
        let mut wire = Propagation::default();
        assert!(wire.is_empty() && wire.pop(&mut pool).is_none());
        assert!(wire.push(&mut pool, 10, packet(0)), "the first packet is the head");
        assert!(!wire.push(&mut pool, 12, packet(1)));
        assert!(!wire.push(&mut pool, 12, packet(2)));
        assert_eq!(wire.len(), 3);
        assert_eq!(wire.second(&pool).map(|p| p.seq), Some(1));
        let (first, next) = wire.pop(&mut pool).unwrap();
        assert_eq!((first.seq, next), (0, Some(12)));
        assert!(!wire.push(&mut pool, 15, packet(3)), "the head is still occupied");
        let order: Vec<(u64, Option<Time>)> =
            std::iter::from_fn(|| wire.pop(&mut pool)).map(|(p, next)| (p.seq, next)).collect();
        assert_eq!(order, vec![(1, Some(12)), (2, Some(15)), (3, None)]);
        assert!(wire.is_empty() && wire.second(&pool).is_none());
        assert_eq!(wire.len(), 0);
        assert!(wire.push(&mut pool, 20, packet(4)), "an emptied wire takes a new head");
    }

    /// Many links sharing one pool, pushed and popped in a random interleaving, each stay a
    /// FIFO of their own packets, and freed slots are reused (the pool never holds more
    /// slots than packets were beyond the heads at once).
    #[test]
    fn links_sharing_a_pool_stay_separate_fifos_and_reuse_slots() {
        use crate::rng::{stream, RngCore, StreamKind};
        let mut rng = stream(7, StreamKind::Queue, 0);
        let mut pool = WirePool::default();
        let mut wires: Vec<Propagation> = (0..8).map(|_| Propagation::default()).collect();
        let mut expected: Vec<std::collections::VecDeque<(Time, u64)>> = vec![Default::default(); 8];
        let (mut seq, mut time, mut most_beyond_heads) = (0u64, 0u64, 0usize);
        for _ in 0..20_000 {
            let link = rng.gen_range(0..8usize);
            if rng.gen_bool(0.55) {
                time += rng.gen_range(0..3u64);
                wires[link].push(&mut pool, time, packet(seq));
                expected[link].push_back((time, seq));
                seq += 1;
            } else {
                let popped = wires[link].pop(&mut pool).map(|(p, next)| (p.seq, next));
                let want = expected[link].pop_front().map(|(_, s)| (s, expected[link].front().map(|&(t, _)| t)));
                assert_eq!(popped, want);
            }
            assert_eq!(wires[link].len(), expected[link].len());
            let beyond_heads: usize = expected.iter().map(|fifo| fifo.len().saturating_sub(1)).sum();
            most_beyond_heads = most_beyond_heads.max(beyond_heads);
        }
        assert_eq!(pool.capacity_used(), most_beyond_heads, "freed slots are taken again first");
    }
}
