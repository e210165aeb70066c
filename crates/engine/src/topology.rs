//! Topology builders: turn a scenario's topology into links, routes and flows.

use crate::config::{Dumbbell, Scenario, StartTimes, Topology, Transfer};
use crate::error::{EngineError, Result};
use crate::link::{Link, LinkRole};
use crate::queue::{build_policy, Limit, LinkContext, Queue, QueueConfig};
use crate::rng::{stream, RngCore, StreamKind};
use crate::tcp::TcpConfig;
use crate::time::Time;

/// A flow as built: its routes, start time and transport settings.
pub struct FlowSpec {
    pub group: u32,
    pub forward_route: u32,
    pub reverse_route: u32,
    pub start: Time,
    pub tcp: TcpConfig,
    pub total_bytes: Option<u64>,
}

pub struct Network {
    pub links: Vec<Link>,
    /// Route id -> the links it crosses, in order.
    pub routes: Vec<Vec<u32>>,
    pub flows: Vec<FlowSpec>,
}

struct Builder {
    seed: u64,
    links: Vec<Link>,
    routes: Vec<Vec<u32>>,
}

impl Builder {
    fn link(&mut self, role: LinkRole, rate_bps: u64, delay: Time, queue: &QueueConfig, mean_packet_bytes: u32, field: &str) -> Result<u32> {
        if rate_bps == 0 {
            return Err(EngineError::invalid(format!("{field}.rate_bps"), rate_bps, "a rate > 0 bits per second"));
        }
        match queue.limit() {
            Limit::Packets(0) | Limit::Bytes(0) => {
                return Err(EngineError::invalid(format!("{field}.queue.limit"), 0, "a buffer limit > 0"));
            }
            _ => {}
        }
        let context = LinkContext { rate_bps, mean_packet_bytes };
        let policy = build_policy(queue, context, &format!("{field}.queue"))?;
        let id = self.links.len() as u32;
        let rng = stream(self.seed, StreamKind::Queue, id as u64);
        let monitored = matches!(role, LinkRole::Bottleneck | LinkRole::BottleneckReverse);
        self.links.push(Link::new(role, rate_bps, delay, Queue::new(queue.limit(), rate_bps, policy), rng, monitored));
        Ok(id)
    }

    fn route(&mut self, links: Vec<u32>) -> u32 {
        self.routes.push(links);
        (self.routes.len() - 1) as u32
    }
}

fn check_tcp(tcp: &TcpConfig, field: &str) -> Result<()> {
    if tcp.header_bytes == 0 || tcp.packet_size_bytes <= tcp.header_bytes {
        return Err(EngineError::invalid(format!("{field}.packet_size_bytes"), tcp.packet_size_bytes, "a packet size above the header size"));
    }
    if !(tcp.initial_window >= 1.0 && tcp.initial_window.is_finite()) {
        return Err(EngineError::invalid(format!("{field}.initial_window"), tcp.initial_window, "a window >= 1 segment"));
    }
    if !(tcp.max_window >= 1.0) {
        return Err(EngineError::invalid(format!("{field}.max_window"), tcp.max_window, "a window >= 1 segment"));
    }
    if !(tcp.initial_ssthresh >= 2.0) {
        return Err(EngineError::invalid(format!("{field}.initial_ssthresh"), tcp.initial_ssthresh, "a threshold >= 2 segments"));
    }
    if tcp.min_rto_ns == 0 || tcp.initial_rto_ns == 0 || tcp.max_rto_ns < tcp.min_rto_ns {
        return Err(EngineError::invalid(format!("{field}.max_rto_ns"), tcp.max_rto_ns, "RTO bounds with 0 < min_rto <= max_rto"));
    }
    if tcp.dupack_threshold == 0 {
        return Err(EngineError::invalid(format!("{field}.dupack_threshold"), 0, "at least 1 duplicate ACK"));
    }
    Ok(())
}

fn dumbbell(topology: &Dumbbell, seed: u64) -> Result<Network> {
    let mut b = Builder { seed, links: Vec::new(), routes: Vec::new() };
    if topology.groups.is_empty() {
        return Err(EngineError::invalid("topology.groups", "[]", "at least one flow group"));
    }
    let bottleneck = &topology.bottleneck;
    let mean_packet = topology.groups[0].tcp.packet_size_bytes;
    let forward = b.link(LinkRole::Bottleneck, bottleneck.rate_bps, bottleneck.delay_ns, &bottleneck.queue, mean_packet, "topology.bottleneck")?;
    let reverse = b.link(
        LinkRole::BottleneckReverse,
        bottleneck.rate_bps,
        bottleneck.delay_ns,
        &bottleneck.reverse_queue,
        mean_packet,
        "topology.bottleneck.reverse",
    )?;
    let mut flows = Vec::new();
    for (g, group) in topology.groups.iter().enumerate() {
        let field = format!("topology.groups[{g}]");
        check_tcp(&group.tcp, &format!("{field}.tcp"))?;
        if group.count == 0 {
            return Err(EngineError::invalid(format!("{field}.count"), 0, "at least 1 flow"));
        }
        if group.rtt_ns < 2 * bottleneck.delay_ns {
            return Err(EngineError::invalid(
                format!("{field}.rtt_ns"),
                group.rtt_ns,
                format!("a round-trip time >= twice the bottleneck delay ({} ns)", 2 * bottleneck.delay_ns),
            ));
        }
        // Two-way propagation = 2 (bottleneck + access + receiver delay); the rest of the
        // RTT beyond the bottleneck is split equally between access and receiver links.
        let edge_one_way = (group.rtt_ns - 2 * bottleneck.delay_ns) / 2;
        let access_delay = edge_one_way / 2;
        let receiver_delay = edge_one_way - access_delay;
        let total_bytes = match group.transfer {
            Transfer::Bulk => None,
            Transfer::Finite { bytes } if bytes > 0 => Some(bytes),
            Transfer::Finite { bytes } => return Err(EngineError::invalid(format!("{field}.transfer.bytes"), bytes, "a size > 0 bytes")),
        };
        let packet = group.tcp.packet_size_bytes;
        for _ in 0..group.count {
            let flow_index = flows.len() as u64;
            let access = b.link(LinkRole::Access, group.access_rate_bps, access_delay, &group.access_queue, packet, &format!("{field}.access"))?;
            let access_back =
                b.link(LinkRole::AccessReverse, group.access_rate_bps, access_delay, &group.access_queue, packet, &format!("{field}.access"))?;
            let receiver =
                b.link(LinkRole::Receiver, group.receiver_rate_bps, receiver_delay, &group.access_queue, packet, &format!("{field}.receiver"))?;
            let receiver_back = b.link(
                LinkRole::ReceiverReverse,
                group.receiver_rate_bps,
                receiver_delay,
                &group.access_queue,
                packet,
                &format!("{field}.receiver"),
            )?;
            let forward_route = b.route(vec![access, forward, receiver]);
            let reverse_route = b.route(vec![receiver_back, reverse, access_back]);
            let start = match group.start {
                StartTimes::Fixed { at_ns } => at_ns,
                StartTimes::Uniform { low_ns, high_ns } => {
                    if high_ns < low_ns {
                        return Err(EngineError::invalid(format!("{field}.start.high_ns"), high_ns, "a time >= start.low_ns"));
                    }
                    let mut rng = stream(seed, StreamKind::StartTime, flow_index);
                    low_ns + (rng.gen::<f64>() * (high_ns - low_ns) as f64) as Time
                }
            };
            flows.push(FlowSpec { group: g as u32, forward_route, reverse_route, start, tcp: group.tcp.clone(), total_bytes });
        }
    }
    Ok(Network { links: b.links, routes: b.routes, flows })
}

/// Build the network of a scenario.
pub fn build(scenario: &Scenario, seed: u64) -> Result<Network> {
    match &scenario.topology {
        Topology::Dumbbell(d) => dumbbell(d, seed),
    }
}
