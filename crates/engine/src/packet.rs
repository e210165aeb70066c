//! Packets: small plain values, copied, never heap-allocated.

use crate::time::Time;

/// Index of a flow (a sender/receiver pair) in the simulation.
pub type FlowId = u32;
/// Index of a route (a list of links) in the simulation.
pub type RouteId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// A data segment; `seq` is its segment number (0-based).
    Data,
    /// A cumulative acknowledgement; `seq` is the next segment expected.
    Ack,
    /// A datagram of an unresponsive source (no acknowledgement).
    Datagram,
}

/// ECN codepoint of the IP header (RFC 3168 Section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ecn {
    NotEct,
    Ect,
    Ce,
}

/// TCP header flag: ECN-Echo (RFC 3168 Section 6.1).
pub const FLAG_ECE: u8 = 1;
/// TCP header flag: Congestion Window Reduced (RFC 3168 Section 6.1).
pub const FLAG_CWR: u8 = 2;
/// The data segment is a retransmission (for traces only; TCP does not read it).
pub const FLAG_RETRANSMIT: u8 = 4;

#[derive(Clone, Copy, Debug)]
pub struct Packet {
    pub flow: FlowId,
    pub kind: PacketKind,
    pub ecn: Ecn,
    pub flags: u8,
    /// Hop index into the route: the position of the link the packet is on or queued for.
    pub hop: u16,
    pub route: RouteId,
    pub size_bytes: u32,
    pub seq: u64,
    /// Data: time the segment was sent. Ack: the echoed send time of the segment that
    /// triggered it (timestamp option, RFC 7323 Section 3).
    pub timestamp: Time,
    /// Time the packet entered its current queue (for sojourn-time AQMs).
    pub enqueued_at: Time,
}

impl Packet {
    pub fn has_flag(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}
