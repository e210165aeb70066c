//! Selective acknowledgments: the SACK blocks of RFC 2018 and the sender's scoreboard of
//! RFC 6675 (IsLost, SetPipe, NextSeg).
//!
//! Sequence numbers count segments (as everywhere in the engine), so "one octet" of the
//! RFCs' byte-level definitions is one segment here and SMSS is 1. A block is the half-open
//! range `[start, end)`: RFC 2018 Section 3 defines the Left Edge as the first sequence
//! number of the block and the Right Edge as the sequence number immediately following its
//! last one.
//!
//! How blocks travel: a [`crate::packet::Packet`] stays a small `Copy` value; an ACK that
//! carries SACK blocks holds only a `u32` handle (`Packet::sack`, 0 = none), and the blocks
//! themselves wait in the flow's [`SackStore`], owned by the receiver, until the ACK reaches
//! the sender (see `docs/sack.md`).

use std::collections::VecDeque;

/// SACK blocks per ACK: RFC 2018 Section 3 (40 bytes of options, 10 used by the timestamp
/// option of RFC 7323, leave room for at most 3 blocks).
pub const MAX_SACK_BLOCKS: usize = 3;

/// One SACK block: segments `start..end` have arrived (RFC 2018 Section 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    pub start: u64,
    pub end: u64,
}

impl SackBlock {
    pub fn new(start: u64, end: u64) -> Self {
        debug_assert!(start < end);
        SackBlock { start, end }
    }

    fn len(&self) -> u64 {
        self.end - self.start
    }

    pub fn contains_block(&self, other: &SackBlock) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

/// The SACK option of one ACK: up to [`MAX_SACK_BLOCKS`] blocks, the first one holding the
/// most recently received segment (RFC 2018 Section 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    blocks: [SackBlock; MAX_SACK_BLOCKS],
    len: u8,
}

impl SackBlocks {
    pub fn as_slice(&self) -> &[SackBlock] {
        &self.blocks[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Append a block if there is room (the caller orders them by recency).
    pub fn push(&mut self, block: SackBlock) {
        if (self.len as usize) < MAX_SACK_BLOCKS {
            self.blocks[self.len as usize] = block;
            self.len += 1;
        }
    }

    pub fn from_slice(blocks: &[SackBlock]) -> Self {
        let mut result = SackBlocks::default();
        for &block in blocks {
            result.push(block);
        }
        result
    }

    /// Bytes of the TCP SACK option carrying these blocks: kind and length (2 bytes) plus
    /// 8 bytes per block (RFC 2018 Section 3); 0 without blocks.
    pub fn option_bytes(&self) -> u32 {
        if self.len == 0 {
            0
        } else {
            2 + 8 * self.len as u32
        }
    }
}

/// Where the receiver keeps the SACK blocks of the ACKs it has sent until they arrive.
///
/// Handles are consecutive (`1, 2, ...`, 0 is "no blocks"). The ACKs of one flow follow one
/// route through FIFO queues, so they arrive in the order they were sent (or are dropped):
/// when the ACK with handle `h` arrives, every entry older than `h` belongs to an ACK that
/// was lost and is discarded. The store thus holds exactly the SACK options of the ACKs on
/// their way — nothing is allocated per ACK once the deque has grown to that size. Should
/// ACKs ever be reordered, a late ACK finds its entry gone and counts as an ACK without
/// SACK blocks (as if its option had been stripped).
#[derive(Debug, Default)]
pub struct SackStore {
    entries: VecDeque<(u32, SackBlocks)>,
    next: u32,
}

impl SackStore {
    /// Keep `blocks`; returns the handle the ACK carries.
    pub fn push(&mut self, blocks: SackBlocks) -> u32 {
        self.next = self.next.wrapping_add(1);
        if self.next == 0 {
            self.next = 1;
        }
        self.entries.push_back((self.next, blocks));
        self.next
    }

    /// The blocks of the ACK with this handle (None if they are gone).
    pub fn take(&mut self, handle: u32) -> Option<SackBlocks> {
        while let Some(&(h, blocks)) = self.entries.front() {
            if h == handle {
                self.entries.pop_front();
                return Some(blocks);
            }
            // Wrapping comparison: is `h` older than `handle`?
            if (handle.wrapping_sub(h) as i32) > 0 {
                self.entries.pop_front();
            } else {
                return None;
            }
        }
        None
    }

    /// The blocks of the ACK with this handle, left in the store (for per-packet traces).
    pub fn get(&self, handle: u32) -> Option<SackBlocks> {
        self.entries.iter().rev().find(|(h, _)| *h == handle).map(|&(_, blocks)| blocks)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// What NextSeg() (RFC 6675 Section 4) chose to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextSeg {
    /// Rule (1): the first unSACKed segment above HighRxt that IsLost() declares lost.
    Lost(u64),
    /// Rule (2): new data (the segment after HighData).
    New(u64),
    /// Rule (3): the first unSACKed segment above HighRxt below the highest SACKed one.
    Unsacked(u64),
    /// Rule (4): the rescue retransmission of the highest outstanding unSACKed segment.
    Rescue(u64),
}

/// The sender's state NextSeg() needs besides the scoreboard.
#[derive(Clone, Copy, Debug)]
pub struct SendState {
    /// HighACK + 1: the oldest unacknowledged segment (snd_una).
    pub snd_una: u64,
    /// HighData + 1: one past the highest segment sent.
    pub high_tx: u64,
    /// HighRxt + 1: segments below it have been retransmitted in this recovery.
    pub rxt_next: u64,
    /// Rule (2): unsent data exists and the receiver's window allows sending it.
    pub new_data_allowed: bool,
    /// Rule (4): HighACK > RescueRxt (or RescueRxt undefined).
    pub rescue_allowed: bool,
    /// RecoveryPoint + 1: the rescue is about the data outstanding when recovery began.
    pub recovery_end: u64,
}

/// The SACK scoreboard (RFC 6675 Section 3): the SACKed segments above the cumulative ACK,
/// kept as sorted, disjoint, non-adjacent ranges, so every query costs O(number of holes).
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    sacked: Vec<SackBlock>,
}

impl Scoreboard {
    pub fn is_empty(&self) -> bool {
        self.sacked.is_empty()
    }

    /// The SACKed ranges, lowest first.
    pub fn ranges(&self) -> &[SackBlock] {
        &self.sacked
    }

    /// RFC 2018 Section 5 / RFC 6675 Section 5.1: forget every SACKed bit (after a timeout,
    /// since the receiver may have reneged).
    pub fn clear(&mut self) {
        self.sacked.clear();
    }

    /// The cumulative ACK moved to `snd_una`: drop what it covers.
    pub fn advance(&mut self, snd_una: u64) {
        let covered = self.sacked.iter().take_while(|b| b.end <= snd_una).count();
        self.sacked.drain(..covered);
        if let Some(first) = self.sacked.first_mut() {
            first.start = first.start.max(snd_una);
        }
    }

    /// RFC 6675 Section 4, Update(): mark the segments of `blocks` (clipped to the
    /// outstanding range `[snd_una, high_tx)`) as SACKed. Returns how many segments were
    /// newly SACKed: an ACK that SACKs new data is a "duplicate acknowledgment" in the
    /// sense of RFC 6675 Section 2.
    pub fn update(&mut self, blocks: &[SackBlock], snd_una: u64, high_tx: u64) -> u64 {
        let mut added = 0;
        for block in blocks {
            let start = block.start.max(snd_una);
            let end = block.end.min(high_tx);
            if start < end {
                added += self.insert(SackBlock::new(start, end));
            }
        }
        added
    }

    /// Insert one range, merging with overlapping or adjacent ones; returns the segments
    /// that were not SACKed before.
    fn insert(&mut self, block: SackBlock) -> u64 {
        // First range that ends at or after block.start (may merge), last that starts at or
        // before block.end.
        let first = self.sacked.partition_point(|b| b.end < block.start);
        let last = self.sacked.partition_point(|b| b.start <= block.end);
        if first == last {
            self.sacked.insert(first, block);
            return block.len();
        }
        let already: u64 = self.sacked[first..last]
            .iter()
            .map(|b| b.end.min(block.end).saturating_sub(b.start.max(block.start)))
            .sum();
        let merged =
            SackBlock::new(self.sacked[first].start.min(block.start), self.sacked[last - 1].end.max(block.end));
        self.sacked.splice(first..last, std::iter::once(merged));
        block.len() - already
    }

    pub fn is_sacked(&self, seq: u64) -> bool {
        let i = self.sacked.partition_point(|b| b.end <= seq);
        self.sacked.get(i).is_some_and(|b| b.start <= seq)
    }

    /// SACKed segments in `[from, to)`.
    pub fn sacked_between(&self, from: u64, to: u64) -> u64 {
        self.sacked.iter().map(|b| b.end.min(to).saturating_sub(b.start.max(from))).sum()
    }

    /// SACKed segments above `seq`.
    pub fn sacked_above(&self, seq: u64) -> u64 {
        self.sacked_between(seq + 1, u64::MAX)
    }

    /// One past the highest SACKed segment ("the highest octet covered by any received
    /// SACK", RFC 6675 NextSeg rule (1.b)).
    pub fn highest_sacked_end(&self) -> Option<u64> {
        self.sacked.last().map(|b| b.end)
    }

    /// RFC 6675 Section 4, IsLost(SeqNum): true when DupThresh discontiguous SACKed
    /// sequences lie above SeqNum, or more than (DupThresh − 1)·SMSS bytes above it are
    /// SACKed. With whole segments the second condition reads "at least DupThresh SACKed
    /// segments above SeqNum", and it is implied by the first.
    pub fn is_lost(&self, seq: u64, dupthresh: u32) -> bool {
        self.sacked_above(seq) >= u64::from(dupthresh)
    }

    /// The boundary of IsLost(): `is_lost(s)` holds exactly for `s < lost_below()` — the
    /// DupThresh-th highest SACKed segment. None when fewer than DupThresh are SACKed.
    pub fn lost_below(&self, dupthresh: u32) -> Option<u64> {
        let mut needed = u64::from(dupthresh.max(1));
        for block in self.sacked.iter().rev() {
            if block.len() >= needed {
                return Some(block.end - needed);
            }
            needed -= block.len();
        }
        None
    }

    /// Segments of `[from, to)` that are not SACKed.
    fn unsacked_between(&self, from: u64, to: u64) -> u64 {
        if to <= from {
            return 0;
        }
        (to - from) - self.sacked_between(from, to)
    }

    /// RFC 6675 Section 4, SetPipe(): for every unSACKed segment S1 in `[snd_una, high_tx)`
    /// add one if IsLost(S1) is false (a) and one more if S1 <= HighRxt, i.e. it was
    /// retransmitted in this recovery (b).
    pub fn pipe(&self, snd_una: u64, high_tx: u64, rxt_next: u64, dupthresh: u32) -> u64 {
        self.pipe_with_lost_below(snd_una, high_tx, rxt_next, self.lost_below(dupthresh))
    }

    /// SetPipe() with the unSACKed segments below `lost_below` taken as lost (RFC 6675's
    /// IsLost() boundary is `lost_below(dupthresh)`; `recovery/sack.rs` may give another).
    pub fn pipe_with_lost_below(&self, snd_una: u64, high_tx: u64, rxt_next: u64, lost_below: Option<u64>) -> u64 {
        let outstanding = self.unsacked_between(snd_una, high_tx);
        let lost = lost_below.map_or(0, |below| self.unsacked_between(snd_una, below.min(high_tx)));
        let retransmitted = self.unsacked_between(snd_una, rxt_next.min(high_tx));
        outstanding - lost + retransmitted
    }

    /// The lowest unSACKed segment at or above `seq`.
    pub fn first_unsacked_from(&self, seq: u64) -> u64 {
        let i = self.sacked.partition_point(|b| b.end <= seq);
        match self.sacked.get(i) {
            Some(b) if b.start <= seq => b.end,
            _ => seq,
        }
    }

    /// The highest unSACKed segment in `[snd_una, high_tx)`, if any.
    fn highest_unsacked(&self, snd_una: u64, high_tx: u64) -> Option<u64> {
        let mut top = high_tx;
        for block in self.sacked.iter().rev() {
            if block.end < top {
                break;
            }
            if block.end >= top && block.start < top {
                top = block.start;
            }
        }
        (top > snd_una).then(|| top - 1)
    }

    /// RFC 6675 Section 4, NextSeg(): the next segment to send during loss recovery, rules
    /// (1) to (4) in order; None is rule (5) (nothing to send).
    pub fn next_seg(&self, state: &SendState, dupthresh: u32) -> Option<NextSeg> {
        self.next_seg_with_lost_below(state, self.lost_below(dupthresh))
    }

    /// NextSeg() with rule (1.c)'s IsLost() read as "below `lost_below`" (RFC 6675's boundary
    /// is `lost_below(dupthresh)`; `recovery/sack.rs` may give another).
    pub fn next_seg_with_lost_below(&self, state: &SendState, lost_below: Option<u64>) -> Option<NextSeg> {
        let highest_sacked = self.highest_sacked_end().unwrap_or(0);
        // (1.a) S2 > HighRxt, not SACKed, lowest such.
        let s2 = self.first_unsacked_from(state.rxt_next.max(state.snd_una));
        // (1.b) S2 below the highest SACKed segment; (1.c) IsLost(S2).
        let below_sacked = s2 < highest_sacked;
        if below_sacked && lost_below.is_some_and(|below| s2 < below) {
            return Some(NextSeg::Lost(s2));
        }
        // (2) new data, if there is any and the receiver's window allows it.
        if state.new_data_allowed {
            return Some(NextSeg::New(state.high_tx));
        }
        // (3) an unSACKed segment meeting (1.a) and (1.b) but not (1.c).
        if below_sacked {
            return Some(NextSeg::Unsacked(s2));
        }
        // (4) one rescue retransmission per recovery: the highest outstanding unSACKed
        // segment, if HighACK > RescueRxt. Two readings of "outstanding" (docs/sack.md):
        // at or below RecoveryPoint (not new data sent during this recovery), and above
        // HighRxt (a segment rules (1)/(3) already retransmitted is not sent a third time).
        if state.rescue_allowed {
            let end = state.high_tx.min(state.recovery_end);
            if let Some(seq) = self.highest_unsacked(state.snd_una, end) {
                if seq >= state.rxt_next {
                    return Some(NextSeg::Rescue(seq));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(ranges: &[(u64, u64)], snd_una: u64, high_tx: u64) -> Scoreboard {
        let mut sb = Scoreboard::default();
        let blocks: Vec<SackBlock> = ranges.iter().map(|&(s, e)| SackBlock::new(s, e)).collect();
        sb.update(&blocks, snd_una, high_tx);
        sb
    }

    fn state(snd_una: u64, high_tx: u64, rxt_next: u64) -> SendState {
        SendState { snd_una, high_tx, rxt_next, new_data_allowed: false, rescue_allowed: false, recovery_end: high_tx }
    }

    /// `state` where rule (4), the rescue retransmission, is allowed.
    fn rescuing(snd_una: u64, high_tx: u64, rxt_next: u64) -> SendState {
        SendState { rescue_allowed: true, ..state(snd_una, high_tx, rxt_next) }
    }

    #[test]
    fn update_merges_counts_new_segments_and_clips() {
        let mut sb = Scoreboard::default();
        assert_eq!(sb.update(&[SackBlock::new(5, 7)], 0, 20), 2);
        assert_eq!(sb.update(&[SackBlock::new(9, 10)], 0, 20), 1);
        // Repeated information is not new (not a DupAck in the sense of RFC 6675 Section 2).
        assert_eq!(sb.update(&[SackBlock::new(9, 10), SackBlock::new(5, 7)], 0, 20), 0);
        // Filling 7..9 merges everything into 5..10; 6..8 overlaps 6 already SACKed.
        assert_eq!(sb.update(&[SackBlock::new(6, 9)], 0, 20), 2);
        assert_eq!(sb.ranges(), &[SackBlock::new(5, 10)]);
        // Adjacent ranges merge; blocks are clipped to [snd_una, high_tx).
        assert_eq!(sb.update(&[SackBlock::new(10, 30)], 0, 20), 10);
        assert_eq!(sb.ranges(), &[SackBlock::new(5, 20)]);
        assert_eq!(sb.update(&[SackBlock::new(0, 3)], 2, 20), 1);
        assert_eq!(sb.ranges(), &[SackBlock::new(2, 3), SackBlock::new(5, 20)]);
        sb.advance(6);
        assert_eq!(sb.ranges(), &[SackBlock::new(6, 20)]);
        assert!(sb.is_sacked(6) && sb.is_sacked(19) && !sb.is_sacked(20) && !sb.is_sacked(5));
        sb.clear();
        assert!(sb.is_empty());
    }

    #[test]
    fn is_lost_needs_dupthresh_sacked_segments_above() {
        // Outstanding 0..10; SACKed: 2, 4, 6 (three discontiguous blocks), 8..10.
        let sb = board(&[(2, 3), (4, 5), (6, 7), (8, 10)], 0, 10);
        // Above 5: 6, 8, 9 -> three SACKed segments: lost with DupThresh 3.
        assert!(sb.is_lost(5, 3));
        // Above 6: only 8, 9.
        assert!(!sb.is_lost(7, 3));
        assert!(!sb.is_lost(6, 3));
        // DupThresh 2: 7 has 8, 9 above it.
        assert!(sb.is_lost(7, 2));
        assert_eq!(sb.lost_below(3), Some(6), "the third-highest SACKed segment");
        assert_eq!(sb.lost_below(2), Some(8));
        assert_eq!(sb.lost_below(6), None, "only five segments SACKed");
        for s in 0..10 {
            assert_eq!(sb.is_lost(s, 3), s < 6, "segment {s}");
        }
    }

    #[test]
    fn pipe_counts_unsacked_not_lost_plus_retransmitted() {
        // RFC 6675 SetPipe() on outstanding 0..10 with 3, 5..7 and 8 SACKed (DupThresh 3):
        // the 3rd-highest SACKed segment is 5, so IsLost holds for the unSACKed 0, 1, 2, 4.
        let sb = board(&[(3, 4), (5, 7), (8, 9)], 0, 10);
        assert_eq!(sb.lost_below(3), Some(5));
        // Nothing retransmitted (HighRxt = HighACK): unSACKed and not lost: 7, 9 -> pipe 2.
        assert_eq!(sb.pipe(0, 10, 0, 3), 2);
        // Segments 0 and 1 retransmitted (HighRxt = 1): each counts once more.
        assert_eq!(sb.pipe(0, 10, 2, 3), 4);
        // HighRxt = 4: 0, 1, 2, 4 retransmitted (3 is SACKed and does not count).
        assert_eq!(sb.pipe(0, 10, 5, 3), 6);
        // Brute force against the RFC's per-octet definition.
        for rxt_next in 0..=10 {
            let mut expected = 0;
            for s in 0..10 {
                if sb.is_sacked(s) {
                    continue;
                }
                if !sb.is_lost(s, 3) {
                    expected += 1;
                }
                if s < rxt_next {
                    expected += 1;
                }
            }
            assert_eq!(sb.pipe(0, 10, rxt_next, 3), expected, "HighRxt + 1 = {rxt_next}");
        }
        // Without SACK information pipe is the flight.
        assert_eq!(Scoreboard::default().pipe(4, 14, 4, 3), 10);
    }

    #[test]
    fn next_seg_rule_1_lost_segments_in_order() {
        let sb = board(&[(3, 4), (5, 7), (8, 9)], 0, 10);
        assert_eq!(sb.next_seg(&state(0, 10, 0), 3), Some(NextSeg::Lost(0)));
        assert_eq!(sb.next_seg(&state(0, 10, 1), 3), Some(NextSeg::Lost(1)));
        // 3 is SACKed: after 2 comes 4.
        assert_eq!(sb.next_seg(&state(0, 10, 3), 3), Some(NextSeg::Lost(4)));
        // The cumulative ACK passed HighRxt: start from snd_una.
        assert_eq!(sb.next_seg(&state(2, 10, 1), 3), Some(NextSeg::Lost(2)));
    }

    #[test]
    fn next_seg_rule_2_new_data_before_rule_3() {
        let sb = board(&[(3, 4), (5, 7), (8, 9)], 0, 10);
        // HighRxt = 4: nothing lost above it (7 has only 8 above it): new data first (rule 2)...
        let mut s = state(0, 10, 5);
        s.new_data_allowed = true;
        assert_eq!(sb.next_seg(&s, 3), Some(NextSeg::New(10)));
        // ... else rule (3): unSACKed 7 is below the highest SACKed segment (8).
        s.new_data_allowed = false;
        assert_eq!(sb.next_seg(&s, 3), Some(NextSeg::Unsacked(7)));
        // HighRxt = 7: 9 is above every SACKed segment: rule (3) does not apply.
        assert_eq!(sb.next_seg(&state(0, 10, 8), 3), None, "rule (5): nothing");
    }

    #[test]
    fn next_seg_rule_4_rescue_highest_unsacked() {
        let sb = board(&[(3, 4), (5, 7), (8, 9)], 0, 10);
        let s = rescuing(0, 10, 8);
        assert_eq!(sb.next_seg(&s, 3), Some(NextSeg::Rescue(9)));
        // A lost tail: 0, 1, 3 retransmitted (HighRxt = 3), 6..10 unSACKed above the
        // highest SACKed segment (5): rules (1)-(3) fail, the rescue sends 9...
        let tail = board(&[(2, 3), (4, 6)], 0, 10);
        let mut s = rescuing(0, 10, 4);
        assert_eq!(tail.next_seg(&s, 3), Some(NextSeg::Rescue(9)));
        // ... or the highest one at or below RecoveryPoint (8, 9 are new data sent during
        // recovery).
        s.recovery_end = 8;
        assert_eq!(tail.next_seg(&s, 3), Some(NextSeg::Rescue(7)));
        // Not allowed: nothing (rule 5).
        s.rescue_allowed = false;
        assert_eq!(tail.next_seg(&s, 3), None);
        // Every unSACKed segment up to RecoveryPoint already retransmitted: no rescue.
        let mut s = rescuing(0, 10, 8);
        s.recovery_end = 8;
        assert_eq!(tail.next_seg(&s, 3), None);
        // Everything outstanding SACKed: nothing to rescue.
        let all = board(&[(1, 10)], 1, 10);
        let s = rescuing(1, 10, 1);
        assert_eq!(all.next_seg(&s, 3), None);
    }

    #[test]
    fn store_hands_blocks_to_acks_in_order_and_skips_lost_acks() {
        let mut store = SackStore::default();
        let a = store.push(SackBlocks::from_slice(&[SackBlock::new(3, 4)]));
        let b = store.push(SackBlocks::from_slice(&[SackBlock::new(3, 5)]));
        let c = store.push(SackBlocks::from_slice(&[SackBlock::new(3, 6), SackBlock::new(8, 9)]));
        assert!(a != 0 && b != a && c != b);
        assert_eq!(store.take(a).unwrap().as_slice(), &[SackBlock::new(3, 4)]);
        // The ACK with handle b was dropped: c's lookup discards it.
        let blocks = store.take(c).unwrap();
        assert_eq!(blocks.as_slice(), &[SackBlock::new(3, 6), SackBlock::new(8, 9)]);
        assert_eq!(blocks.option_bytes(), 2 + 16);
        assert!(store.is_empty());
        // A late (reordered) ACK finds nothing.
        assert_eq!(store.take(b), None);
    }

    #[test]
    fn store_handles_wrap_and_never_use_zero() {
        let mut store = SackStore { entries: VecDeque::new(), next: u32::MAX - 1 };
        let a = store.push(SackBlocks::default());
        let b = store.push(SackBlocks::default());
        assert_eq!((a, b), (u32::MAX, 1));
        assert!(store.take(b).is_some(), "older handle across the wrap is discarded");
        assert!(store.is_empty());
    }
}
