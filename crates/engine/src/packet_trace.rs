//! Per-packet traces (issue 31): every enqueue, dequeue, receive, drop and ECN mark of the
//! chosen links and flows, as columns (the Python layer turns them into an Arrow table and
//! writes Parquet, ns-2 trace lines and pcap from it).
//!
//! Off unless the scenario sets `trace.packets`: the simulation holds an
//! `Option<PacketRecorder>`, and each hook in the event loop is one `if` on it.
//!
//! The events mirror ns-2's link tracing (`trace-all`, ns-2 `trace/trace.cc`): `enqueue` when
//! a packet reaches the link's queue (ns-2's `+`, also written for a packet the queue then
//! drops), `drop` (`d`, with the queue's typed reason), `mark` (CE set by the queue, RFC 3168
//! Section 5; ns-2 has no line for it), `dequeue` when its transmission starts (`-`) and
//! `receive` when its last bit reaches the far end (`r`). A link served without events
//! (Lindley's recursion, `Link::offer_lindley`) knows a packet's departure when it arrives:
//! its `dequeue` and `receive` rows are recorded then, with their future times, and
//! [`PacketRecorder::table`] sorts the rows by time (stably: rows of one instant stay in the
//! order they were recorded) and leaves out those after the end of the run.

use crate::table::table;
use serde::{Deserialize, Serialize};

use crate::error::{EngineError, Result};
use crate::link::Link;
use crate::packet::{Ecn, Packet, PacketKind};
use crate::queue::{DropReason, MarkReason, QueueCounters};
use crate::tcp::sack::SackBlocks;
use crate::time::Time;

/// `trace.packets` of the resolved scenario: which links and flows are traced. Links by
/// name (every link of that name: "bottleneck", a network link's name, or an edge role such
/// as "access"); flows by id and by group index. No links: every link the chosen flows
/// cross; no flows and no groups: every flow on the chosen links.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacketTraceConfig {
    #[serde(default)]
    pub links: Vec<String>,
    #[serde(default)]
    pub flows: Vec<u32>,
    #[serde(default)]
    pub groups: Vec<u32>,
}

/// What happened to a packet at a link (the `event` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PacketEvent {
    Enqueue = 0,
    Dequeue = 1,
    Receive = 2,
    Drop = 3,
    Mark = 4,
}

/// The `reason` column: 0 for enqueue, dequeue and receive rows.
pub const REASON_NONE: u8 = 0;

fn drop_reason_code(reason: DropReason) -> u8 {
    match reason {
        DropReason::Overflow => 1,
        DropReason::Early => 2,
        DropReason::Forced => 3,
    }
}

fn mark_reason_code(reason: MarkReason) -> u8 {
    match reason {
        MarkReason::Early => 2,
        MarkReason::Forced => 3,
    }
}

/// The ECN field of the IP header (RFC 3168 Section 5): 0 Not-ECT, 2 ECT(0), 3 CE. The
/// engine's ECN-capable packets carry ECT(0).
fn ecn_field(ecn: Ecn) -> u8 {
    match ecn {
        Ecn::NotEct => 0b00,
        Ecn::Ect => 0b10,
        Ecn::Ce => 0b11,
    }
}

fn kind_code(kind: PacketKind) -> u8 {
    match kind {
        PacketKind::Data => 0,
        PacketKind::Ack => 1,
        PacketKind::Datagram => 2,
    }
}

table! {
    /// The per-packet trace as columns, one row per event. Sequence numbers count segments as
    /// everywhere in the engine (data: the segment; ACK: the next segment expected); SACK
    /// blocks are `sack_blocks[i]` (start, end) pairs of segments per row, flattened into
    /// `sack_edges`.
    pub struct PacketTrace {
        time_ns: u64,
        event: u8,
        reason: u8,
        link: u32,
        flow: u32,
        kind: u8,
        seq: u64,
        size_bytes: u32,
        ecn: u8,
        /// The packet's `packet::FLAG_*` bits (ECE, CWR, retransmission).
        flags: u8,
        /// Data: when the segment was sent; ACK: the echoed send time (identifies the packet).
        sent_ns: u64,
        sack_blocks: u8,
        sack_edges: u64,
        /// Per link (all links, by id): the node it leaves and the node it enters, numbered in
        /// order of first appearance (ns-2's "from node" and "to node").
        link_from_node: u32,
        link_to_node: u32,
        /// Per flow (all flows, by id): the node its data leaves (the sender) and the node it
        /// reaches (the receiver).
        flow_source_node: u32,
        flow_sink_node: u32,
    }
}

impl PacketTrace {
    fn push(&mut self, event: PacketEvent, reason: u8, time: Time, link: u32, packet: &Packet, sack: &SackBlocks) {
        self.time_ns.push(time);
        self.event.push(event as u8);
        self.reason.push(reason);
        self.link.push(link);
        self.flow.push(packet.flow);
        self.kind.push(kind_code(packet.kind));
        self.seq.push(packet.seq);
        self.size_bytes.push(packet.size_bytes);
        self.ecn.push(ecn_field(packet.ecn));
        self.flags.push(packet.flags);
        self.sent_ns.push(packet.timestamp);
        self.sack_blocks.push(sack.len() as u8);
        for block in sack.as_slice() {
            self.sack_edges.extend([block.start, block.end]);
        }
    }

    pub fn len(&self) -> usize {
        self.time_ns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.time_ns.is_empty()
    }
}

/// What a traced packet's offer is compared with once the queue has decided (see
/// [`PacketRecorder::watch`]): small, so that carrying an empty one costs nothing.
pub struct Watch {
    at: Time,
    /// The link's `busy_until` before the offer: a packet admitted by a link served without
    /// events starts its transmission at max(arrival, busy_until) (Lindley's recursion).
    busy_until: Time,
    /// The queue's counts of marks (all, forced) and of drops by reason before the offer.
    marked: [u64; 2],
    dropped: [u64; 3],
}

fn drop_counts(counters: &QueueCounters) -> [u64; 3] {
    [counters.dropped_overflow, counters.dropped_early, counters.dropped_forced]
}

/// Records the rows of the traced links and flows while the simulation runs.
pub struct PacketRecorder {
    links: Vec<bool>,
    /// `None`: every flow on the traced links.
    flows: Option<Vec<bool>>,
    rows: PacketTrace,
}

impl PacketRecorder {
    /// `flow_groups[i]` is flow i's group; `routes[r]` the links of route r; `flow_routes[i]`
    /// flow i's data and ACK routes.
    pub fn new(
        config: &PacketTraceConfig,
        links: &[Link],
        routes: &[Vec<u32>],
        flow_groups: &[u32],
        flow_routes: &[(u32, u32)],
    ) -> Result<Self> {
        if config.links.is_empty() && config.flows.is_empty() && config.groups.is_empty() {
            return Err(EngineError::invalid(
                "trace.packets",
                "{}",
                "at least one of links, flows or groups (leave trace.packets out for no packet trace)",
            ));
        }
        let mut flows: Option<Vec<bool>> = None;
        if !(config.flows.is_empty() && config.groups.is_empty()) {
            let mut chosen = vec![false; flow_groups.len()];
            for (i, &flow) in config.flows.iter().enumerate() {
                let Some(entry) = chosen.get_mut(flow as usize) else {
                    return Err(EngineError::invalid(
                        format!("trace.packets.flows[{i}]"),
                        flow,
                        format!("a flow id below the number of flows ({})", flow_groups.len()),
                    ));
                };
                *entry = true;
            }
            let groups = flow_groups.iter().copied().max().map_or(0, |g| g + 1);
            for (i, &group) in config.groups.iter().enumerate() {
                if group >= groups {
                    return Err(EngineError::invalid(
                        format!("trace.packets.groups[{i}]"),
                        group,
                        format!("a group index below the number of groups ({groups})"),
                    ));
                }
                for (entry, &g) in chosen.iter_mut().zip(flow_groups) {
                    *entry |= g == group;
                }
            }
            flows = Some(chosen);
        }
        let mut traced = vec![config.links.is_empty(); links.len()];
        for (i, name) in config.links.iter().enumerate() {
            let mut found = false;
            for (entry, link) in traced.iter_mut().zip(links) {
                if &link.name == name {
                    *entry = true;
                    found = true;
                }
            }
            if !found {
                let mut names: Vec<&str> = links.iter().map(|link| link.name.as_str()).collect();
                names.sort_unstable();
                names.dedup();
                return Err(EngineError::invalid(
                    format!("trace.packets.links[{i}]"),
                    name,
                    format!("the name of a link of the topology: {}", names.join(", ")),
                ));
            }
        }
        let (link_from_node, link_to_node) = link_nodes(links.len(), routes, flow_routes);
        let data_route = |&(data, _): &(u32, u32)| &routes[data as usize];
        let flow_source_node = flow_routes.iter().map(|f| link_from_node[data_route(f)[0] as usize]).collect();
        let flow_sink_node = (flow_routes.iter())
            .map(|f| link_to_node[*data_route(f).last().expect("a non-empty route") as usize])
            .collect();
        let rows =
            PacketTrace { link_from_node, link_to_node, flow_source_node, flow_sink_node, ..PacketTrace::default() };
        Ok(PacketRecorder { links: traced, flows, rows })
    }

    /// Whether packets of `flow` are recorded on `link`.
    #[inline]
    pub fn traces(&self, link: u32, flow: u32) -> bool {
        self.links[link as usize] && self.flows.as_ref().is_none_or(|flows| flows[flow as usize])
    }

    /// `packet` reaches the queue of `link` at `at`: records its enqueue row and returns what
    /// the queue's decision is compared with ([`PacketRecorder::offered`]).
    pub fn watch(&mut self, link_id: u32, link: &Link, packet: &Packet, at: Time, sack: &SackBlocks) -> Watch {
        self.rows.push(PacketEvent::Enqueue, REASON_NONE, at, link_id, packet, sack);
        let counters = &link.queue.counters;
        let marked = [counters.marked, counters.marked_forced];
        Watch { at, busy_until: link.busy_until, marked, dropped: drop_counts(counters) }
    }

    /// The queue of `link_id` has decided on the watched `packet`: a drop or a mark shows in
    /// its counters (an offer changes them by its own decisions only).
    pub fn offered(&mut self, watch: &Watch, link_id: u32, link: &Link, packet: &Packet, sack: &SackBlocks) {
        let counters = &link.queue.counters;
        let mut packet = *packet;
        if counters.marked > watch.marked[0] {
            packet.ecn = Ecn::Ce;
            let forced = counters.marked_forced > watch.marked[1];
            let reason = mark_reason_code(if forced { MarkReason::Forced } else { MarkReason::Early });
            self.rows.push(PacketEvent::Mark, reason, watch.at, link_id, &packet, sack);
        }
        let after = drop_counts(counters);
        let reasons = [DropReason::Overflow, DropReason::Early, DropReason::Forced];
        if let Some(i) = (0..3).find(|&i| after[i] > watch.dropped[i]) {
            self.rows.push(PacketEvent::Drop, drop_reason_code(reasons[i]), watch.at, link_id, &packet, sack);
        }
    }

    /// A link served without events admitted the watched `packet` (possibly marked): its
    /// transmission starts at max(arrival, the previous departure) (Lindley's recursion) and
    /// its last bit reaches the far end at `arrives`.
    pub fn admitted_lindley(&mut self, watch: &Watch, link_id: u32, packet: &Packet, arrives: Time, sack: SackBlocks) {
        let starts = watch.at.max(watch.busy_until);
        self.transmitted(link_id, packet, starts, arrives, sack);
    }

    /// `packet` starts its transmission on `link` at `starts` and reaches the far end at
    /// `arrives`.
    pub fn transmitted(&mut self, link: u32, packet: &Packet, starts: Time, arrives: Time, sack: SackBlocks) {
        self.rows.push(PacketEvent::Dequeue, REASON_NONE, starts, link, packet, &sack);
        self.rows.push(PacketEvent::Receive, REASON_NONE, arrives, link, packet, &sack);
    }

    /// The policy dropped or marked `packet` at the head of the queue of `link` at `now`.
    pub fn at_head(&mut self, link: u32, packet: &Packet, now: Time, outcome: crate::queue::AtHead, sack: SackBlocks) {
        match outcome {
            crate::queue::AtHead::Drop(reason) => {
                self.rows.push(PacketEvent::Drop, drop_reason_code(reason), now, link, packet, &sack)
            }
            crate::queue::AtHead::Mark(reason) => {
                let mut marked = *packet;
                marked.ecn = Ecn::Ce;
                self.rows.push(PacketEvent::Mark, mark_reason_code(reason), now, link, &marked, &sack)
            }
        }
    }

    /// Rows recorded so far, sorted by time (stably), up to and including `until`.
    pub fn table(&self, until: Time) -> PacketTrace {
        let rows = &self.rows;
        let mut order: Vec<usize> = (0..rows.len()).filter(|&i| rows.time_ns[i] <= until).collect();
        order.sort_by_key(|&i| rows.time_ns[i]);
        let mut sack_start = Vec::with_capacity(rows.len());
        let mut offset = 0usize;
        for &count in &rows.sack_blocks {
            sack_start.push(offset);
            offset += 2 * count as usize;
        }
        fn gather<T: Copy>(column: &[T], order: &[usize]) -> Vec<T> {
            order.iter().map(|&i| column[i]).collect()
        }
        let mut sack_edges = Vec::new();
        for &i in &order {
            let start = sack_start[i];
            sack_edges.extend_from_slice(&rows.sack_edges[start..start + 2 * rows.sack_blocks[i] as usize]);
        }
        PacketTrace {
            time_ns: gather(&rows.time_ns, &order),
            event: gather(&rows.event, &order),
            reason: gather(&rows.reason, &order),
            link: gather(&rows.link, &order),
            flow: gather(&rows.flow, &order),
            kind: gather(&rows.kind, &order),
            seq: gather(&rows.seq, &order),
            size_bytes: gather(&rows.size_bytes, &order),
            ecn: gather(&rows.ecn, &order),
            flags: gather(&rows.flags, &order),
            sent_ns: gather(&rows.sent_ns, &order),
            sack_blocks: gather(&rows.sack_blocks, &order),
            sack_edges,
            link_from_node: rows.link_from_node.clone(),
            link_to_node: rows.link_to_node.clone(),
            flow_source_node: rows.flow_source_node.clone(),
            flow_sink_node: rows.flow_sink_node.clone(),
        }
    }
}

/// The nodes at the ends of every link. Link `l` leaves end `2l` and enters end `2l + 1`;
/// ends are merged where they are one node: the node a link of a route enters is the one the
/// next link leaves, and a flow's ACK route crosses its data route's nodes in reverse. Nodes
/// are then numbered in order of first appearance by link id.
fn link_nodes(links: usize, routes: &[Vec<u32>], flow_routes: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut parent: Vec<usize> = (0..2 * links).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    fn union(parent: &mut [usize], a: usize, b: usize) {
        let (a, b) = (find(parent, a), find(parent, b));
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    }
    let leaves = |link: u32| 2 * link as usize;
    let enters = |link: u32| 2 * link as usize + 1;
    for route in routes {
        for pair in route.windows(2) {
            union(&mut parent, enters(pair[0]), leaves(pair[1]));
        }
    }
    for &(data, acks) in flow_routes {
        let (data, acks) = (&routes[data as usize], &routes[acks as usize]);
        // The ACKs retrace the data's path backwards (both topologies build them so): the
        // node data link i leaves is the one ACK link k-1-i enters.
        if data.len() == acks.len() {
            for (&forward, &backward) in data.iter().zip(acks.iter().rev()) {
                union(&mut parent, leaves(forward), enters(backward));
                union(&mut parent, enters(forward), leaves(backward));
            }
        }
    }
    let mut number = vec![u32::MAX; 2 * links];
    let mut next = 0u32;
    let mut node_of = |parent: &mut Vec<usize>, end: usize| {
        let root = find(parent, end);
        if number[root] == u32::MAX {
            number[root] = next;
            next += 1;
        }
        number[root]
    };
    let mut from = Vec::with_capacity(links);
    let mut to = Vec::with_capacity(links);
    for link in 0..links as u32 {
        from.push(node_of(&mut parent, leaves(link)));
        to.push(node_of(&mut parent, enters(link)));
    }
    (from, to)
}
