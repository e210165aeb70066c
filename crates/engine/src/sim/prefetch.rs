//! Prefetching ahead of the event loop: while the radix heap settles, it reports the events
//! due within microseconds, and [`Layout::prefetch_for`] brings into cache the records their
//! handlers will touch (benchmarks/scale/README.md, issue 19). Hints only: no effect on
//! results.

use super::{Ends, Flow};
use crate::event::{Event, Soon};
use crate::link::{Link, WirePool};
use crate::packet::PacketKind;
use crate::route::Routes;
use crate::tcp::receiver::TcpReceiver;
use crate::tcp::sender::TcpSender;

/// What the event loop reads, for prefetching ahead of it.
pub(super) struct Layout<'a> {
    pub links: &'a [Link],
    pub wire: &'a WirePool,
    pub routes: &'a Routes,
    pub flows: &'a [Flow],
}

impl Layout<'_> {
    /// Bring into cache what `event`, due within microseconds, will touch: with many flows
    /// the per-flow records (edge links, routes, TCP ends) do not fit in the caches, and an
    /// arrival otherwise waits for four of them from memory one after the other (its link,
    /// the route, the next link or the TCP end). Here, during the event queue's settling, the
    /// loads of different events are independent and overlap. Reads only; no effect on
    /// results (benchmarks/scale/README.md).
    ///
    /// An event only [`Soon::Far`] gets its link record's first lines prefetched, with no
    /// read: reading the head packet there to follow the route would wait for memory. By
    /// the time it is [`Soon::Near`] the record is in cache and the reads below find the
    /// next records without waiting (issue 28, stop 3).
    pub fn prefetch_for(&self, event: &Event, soon: Soon) {
        if soon == Soon::Far {
            if let Event::Arrival(link) | Event::TransmissionDone(link) = *event {
                prefetch_lines(&self.links[link as usize], LINK_HEAD_LINES);
            }
            return;
        }
        match *event {
            Event::Arrival(link) => {
                let propagating = &self.links[link as usize].propagating;
                let Some(packet) = propagating.head() else { return };
                if let Some(second) = propagating.second(self.wire) {
                    prefetch_lines(second, 1);
                }
                if let Some(next_link) = self.routes.link(packet.route, packet.hop + 1) {
                    self.prefetch_link(next_link);
                    // Served without events, the next link hands the packet on at once to
                    // the link after it, or to the receiver, when those are computed inline
                    // (`Simulation::offer_event_free`): their records too.
                    if self.links[next_link as usize].event_free {
                        match self.routes.link(packet.route, packet.hop + 2) {
                            // Offered inline, it runs Lindley's step: its queue's fields too.
                            Some(after) => {
                                prefetch_lines(&self.links[after as usize], INLINE_LINK_LINES);
                                // The last link of data: its receiver may be computed inline
                                // in the same event (a dumbbell's receiver link); of an ACK:
                                // its sender may take it at once (`Simulation::ack_inline`).
                                let last = self.routes.link(packet.route, packet.hop + 3).is_none();
                                if last && packet.kind == PacketKind::Data {
                                    self.prefetch_receiver_by_place(packet.flow);
                                } else if last && packet.kind == PacketKind::Ack {
                                    self.prefetch_receiver(packet.flow, packet.kind);
                                }
                            }
                            None => self.prefetch_receiver(packet.flow, packet.kind),
                        }
                    }
                    return;
                }
                self.prefetch_receiver(packet.flow, packet.kind);
            }
            Event::TransmissionDone(link) => self.prefetch_link(link),
            _ => {}
        }
    }

    /// The TCP end a packet of `kind` reaches at the end of its route, and the first link of
    /// the route its answer takes.
    fn prefetch_receiver(&self, flow: u32, kind: PacketKind) {
        let flow = &self.flows[flow as usize];
        match &flow.ends {
            // An ACK makes the sender send on its data route, data makes the receiver
            // acknowledge on the reverse route.
            Ends::Tcp { sender, receiver } => match kind {
                PacketKind::Ack => {
                    prefetch_lines(sender, 8);
                    self.prefetch_link(self.routes.first_link(flow.route));
                }
                _ => {
                    prefetch_lines(receiver, RECEIVER_LINES);
                    self.prefetch_link(self.routes.first_link(flow.reverse_route));
                }
            },
            Ends::Udp { sink, .. } => prefetch_lines(sink, 1),
        }
    }

    /// A TCP receiver about to be computed inline (`Simulation::deliver_inline`), from the
    /// flow's index alone: the line of its flow record holding the kind of its ends, and the
    /// receiver at its fixed place (a UDP flow's record is as long: the hint stays inside it).
    /// Ahead of the event, so that the read of that kind and the receiver's first touch do not
    /// wait for memory (issue 28, stop 6: 29 % of `offer_event_free`'s samples and 41 % of
    /// `on_data`'s at 10 000 flows).
    fn prefetch_receiver_by_place(&self, flow: u32) {
        let Some(record) = self.flows.get(flow as usize) else { return };
        let ends = &record.ends as *const Ends as *const u8;
        prefetch(ends);
        let receiver = ends.wrapping_add(RECEIVER_IN_ENDS);
        prefetch_bytes(receiver, std::mem::size_of::<TcpReceiver>().min(64 * RECEIVER_LINES));
    }

    /// Data reaches a receiver computed inline in this event: the receiver, and the first
    /// link of the route of its ACKs, whose Lindley step follows at once.
    pub fn prefetch_delivery(&self, flow: u32) {
        let record = &self.flows[flow as usize];
        if let Ends::Tcp { receiver, .. } = &record.ends {
            prefetch_lines(receiver, RECEIVER_LINES);
            let ack_link = self.routes.first_link(record.reverse_route);
            prefetch_lines(&self.links[ack_link as usize], INLINE_LINK_LINES);
        }
    }

    /// The link record's fields that a packet touches, and, for a link with events, the head
    /// and tail of its queue. A link served without events never holds packets in that
    /// buffer, and its header is past the record's hot lines: reading it there stalled on a
    /// line nothing else needs (issue 28, stop 6: 76 % of this function's samples at 10 000
    /// flows).
    fn prefetch_link(&self, link: u32) {
        let link = &self.links[link as usize];
        prefetch_lines(link, INLINE_LINK_LINES);
        if link.event_free {
            return;
        }
        let (head, tail) = link.queue.ends();
        if let Some(head) = head {
            prefetch_lines(head, 1);
        }
        if let Some(tail) = tail {
            // The next packet queued goes right after the tail.
            prefetch_lines(tail, 2);
        }
    }
}

/// The lines of a TCP receiver prefetched ahead of a data packet.
const RECEIVER_LINES: usize = 4;

/// Where the receiver lies in a TCP flow's `Ends`: `repr(C, u8)` lays it out as a `u8` tag
/// followed by the variant's fields as a `repr(C)` struct, aligned for the largest variant
/// (the Rust reference, "Type layout", primitive representation of enums with fields). The
/// test below checks it against a receiver's address.
const RECEIVER_IN_ENDS: usize = {
    let fields = std::mem::align_of::<Ends>();
    let align = std::mem::align_of::<TcpReceiver>();
    fields + std::mem::size_of::<TcpSender>().div_ceil(align) * align
};

/// The lines of a link record that hold its header and the head of its propagation FIFO
/// (what an arrival reads first; the test below checks it).
pub(super) const LINK_HEAD_LINES: usize = 2;

/// The lines of a link record that Lindley's step on a DropTail link computed inline touches:
/// its header, serialiser and propagation FIFO, and its queue's ring, limit and the counters
/// every packet moves (`Link` is `repr(C, align(64))`, and `Queue` and `QueueCounters` put
/// those first; the test below checks they are within). Four lines; five before the policy
/// and the queue's rate moved after the counters (issue 28, stop 6), seven before the drop
/// and mark counters and the event-driven buffer moved after them (stop 3).
pub(super) const INLINE_LINK_LINES: usize = 4;

/// Prefetch the cache lines holding the first `64 * lines` bytes of `record` (or all of it,
/// if smaller). By address: a record that does not start on a line boundary (a packet in a
/// FIFO, a TCP end inside a flow record) spans one line more than its size suggests, and that
/// line was missed when the count came from the size alone (issue 28).
#[inline(always)]
pub(super) fn prefetch_lines<T>(record: &T, lines: usize) {
    prefetch_bytes(record as *const T as *const u8, (64 * lines).min(std::mem::size_of::<T>()));
}

/// Prefetch the cache lines holding `bytes` bytes from `start`.
#[inline(always)]
fn prefetch_bytes(start: *const u8, bytes: usize) {
    let offset = start as usize % 64;
    let first_line = start.wrapping_sub(offset);
    for line in 0..(offset + bytes).div_ceil(64) {
        prefetch(first_line.wrapping_add(64 * line));
    }
}

/// A prefetch hint for the cache line at `address`.
#[inline(always)]
pub(super) fn prefetch(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no architectural effect (any address is
    // allowed); SSE, which provides it, is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::{Queue, QueueCounters};

    #[test]
    fn a_receiver_is_where_its_place_in_the_flow_record_says() {
        use crate::rng::{stream, StreamKind};
        use crate::tcp::TcpConfig;
        let config = TcpConfig::default();
        let sender = TcpSender::new(0, 0, &config, None, stream(1, StreamKind::Flow, 0), "tcp").unwrap();
        let ends = Ends::Tcp { sender, receiver: TcpReceiver::new(0, 0, &config, None) };
        let Ends::Tcp { receiver, .. } = &ends else { unreachable!() };
        let offset = receiver as *const TcpReceiver as usize - &ends as *const Ends as usize;
        assert_eq!(offset, RECEIVER_IN_ENDS);
    }

    #[test]
    fn link_head_lines_cover_the_propagation_head() {
        // The propagation FIFO starts with its inline head (arrival time and packet, 56 bytes).
        let head_end = std::mem::offset_of!(Link, propagating) + 56;
        assert!(head_end <= 64 * LINK_HEAD_LINES, "the head ends at byte {head_end}");
    }

    #[test]
    fn inline_link_lines_cover_the_queue_counters() {
        // Every packet moves the counters up to the sojourn sum; the drop and mark counters
        // after them only on a drop or a mark.
        let counters = std::mem::offset_of!(Link, queue) + std::mem::offset_of!(Queue, counters);
        let hot_end = counters + std::mem::offset_of!(QueueCounters, sojourn_ns_sum) + 16;
        assert!(hot_end <= 64 * INLINE_LINK_LINES, "the counters every packet moves end at byte {hot_end}");
        assert!(hot_end > 64 * (INLINE_LINK_LINES - 1), "one line fewer would do: {hot_end}");
    }
}
