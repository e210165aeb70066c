//! Packets: small plain values, copied, never heap-allocated.

use crate::time::Time;

/// Index of a flow (a sender/receiver pair) in the simulation.
pub type FlowId = u32;
/// A route (a list of links) of the simulation: the position of its first link in the
/// simulation's route table (`route::Routes`).
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
    /// Ack of a SACK flow: handle of its SACK blocks (RFC 2018) in the flow's
    /// `tcp::sack::SackStore`; 0 = no SACK option. A `u32` fits in the padding of this
    /// struct, so packets stay 48 bytes (`docs/sack.md`).
    pub sack: u32,
}

// Packets are copied through every queue and link FIFO: keep them at 48 bytes.
const _: () = assert!(std::mem::size_of::<Packet>() == 48);

impl Packet {
    pub fn has_flag(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    /// A data packet of flow 0 on route 0, for the queue disciplines' unit tests.
    #[cfg(test)]
    pub(crate) fn test_data(size_bytes: u32, ecn: Ecn, enqueued_at: Time) -> Packet {
        Packet {
            flow: 0,
            kind: PacketKind::Data,
            ecn,
            flags: 0,
            hop: 0,
            route: 0,
            size_bytes,
            seq: 0,
            timestamp: 0,
            enqueued_at,
            sack: 0,
        }
    }
}
