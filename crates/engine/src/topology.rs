//! Topology builders: turn a scenario's topology into links, routes and flows.

use std::collections::HashMap;

use petgraph::algo::astar;
use petgraph::graph::{DiGraph, NodeIndex};

use crate::config::{
    Direction, Dumbbell, FlowGroup, NetworkConfig, RouterPath, Scenario, SizeDistribution, StartTimes, StopTimes,
    Topology, Traffic, Transfer,
};
use crate::error::{EngineError, Result};
use crate::link::{Link, LinkRole};
use crate::queue::{build_policy, Limit, LinkContext, Queue, QueueConfig};
use crate::rng::{stream, RngCore, StreamKind};
use crate::tcp::TcpConfig;
use crate::time::Time;

/// A flow as built: its routes, start and stop times and transport.
pub struct FlowSpec {
    pub group: u32,
    /// Route of the data (sender to receiver).
    pub forward_route: u32,
    /// Route of the acknowledgements (receiver to sender).
    pub reverse_route: u32,
    pub start: Time,
    /// When a bulk flow stops sending new data / a UDP source falls silent.
    pub stop: Option<Time>,
    pub transport: Transport,
}

// A flow's description, built once per flow before the run (not per packet): the TCP variant's
// size (TcpConfig, 216 bytes) costs nothing that boxing it would save.
#[allow(clippy::large_enum_variant)]
pub enum Transport {
    Tcp { tcp: TcpConfig, total_bytes: Option<u64> },
    Udp { rate_bps: u64, packet_bytes: u32 },
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
    #[allow(clippy::too_many_arguments)]
    fn link(
        &mut self,
        role: LinkRole,
        name: &str,
        rate_bps: u64,
        delay: Time,
        queue: &QueueConfig,
        mean_packet_bytes: u32,
        field: &str,
    ) -> Result<u32> {
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
        let monitored =
            matches!(role, LinkRole::Bottleneck | LinkRole::BottleneckReverse | LinkRole::Core | LinkRole::CoreReverse);
        let queue = Queue::new(queue.limit(), rate_bps, policy);
        self.links.push(Link::new(role, name, rate_bps, delay, queue, rng, monitored));
        Ok(id)
    }

    fn route(&mut self, links: Vec<u32>) -> u32 {
        self.routes.push(links);
        (self.routes.len() - 1) as u32
    }
}

// `!(x >= bound)` on purpose: it also rejects NaN.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn check_tcp(tcp: &TcpConfig, field: &str) -> Result<()> {
    if tcp.header_bytes == 0 || tcp.packet_size_bytes <= tcp.header_bytes {
        return Err(EngineError::invalid(
            format!("{field}.packet_size_bytes"),
            tcp.packet_size_bytes,
            "a packet size above the header size",
        ));
    }
    if !(tcp.initial_window >= 1.0 && tcp.initial_window.is_finite()) {
        return Err(EngineError::invalid(
            format!("{field}.initial_window"),
            tcp.initial_window,
            "a window >= 1 segment",
        ));
    }
    if !(tcp.max_window >= 1.0) {
        return Err(EngineError::invalid(format!("{field}.max_window"), tcp.max_window, "a window >= 1 segment"));
    }
    if !(tcp.initial_ssthresh >= 2.0) {
        return Err(EngineError::invalid(
            format!("{field}.initial_ssthresh"),
            tcp.initial_ssthresh,
            "a threshold >= 2 segments",
        ));
    }
    if tcp.min_rto_ns == 0 || tcp.initial_rto_ns == 0 || tcp.max_rto_ns < tcp.min_rto_ns {
        return Err(EngineError::invalid(
            format!("{field}.max_rto_ns"),
            tcp.max_rto_ns,
            "RTO bounds with 0 < min_rto <= max_rto",
        ));
    }
    if tcp.dupack_threshold == 0 {
        return Err(EngineError::invalid(format!("{field}.dupack_threshold"), 0, "at least 1 duplicate ACK"));
    }
    Ok(())
}

/// The core links a group's packets cross, by link id: data in path order, ACKs in the
/// opposite direction and order; `delay` is the one-way propagation delay of the path.
struct CorePath {
    data: Vec<u32>,
    acks: Vec<u32>,
    delay: Time,
}

/// `duration`: web arrivals of groups without a stop time are generated up to it.
fn dumbbell(topology: &Dumbbell, seed: u64, duration: Time) -> Result<Network> {
    let mut b = Builder { seed, links: Vec::new(), routes: Vec::new() };
    if topology.groups.is_empty() {
        return Err(EngineError::invalid("topology.groups", "[]", "at least one flow group"));
    }
    let bottleneck = &topology.bottleneck;
    let mean_packet = packet_bytes(&topology.groups[0]);
    let forward = b.link(
        LinkRole::Bottleneck,
        "bottleneck",
        bottleneck.rate_bps,
        bottleneck.delay_ns,
        &bottleneck.queue,
        mean_packet,
        "topology.bottleneck",
    )?;
    let reverse = b.link(
        LinkRole::BottleneckReverse,
        "bottleneck_reverse",
        bottleneck.rate_bps,
        bottleneck.delay_ns,
        &bottleneck.reverse_queue,
        mean_packet,
        "topology.bottleneck.reverse",
    )?;
    let mut flows = Vec::new();
    for (g, group) in topology.groups.iter().enumerate() {
        let field = format!("topology.groups[{g}]");
        if group.path.is_some() {
            return Err(EngineError::invalid(
                format!("{field}.path"),
                "a path",
                "no path: dumbbell flows cross the bottleneck",
            ));
        }
        let core = CorePath { data: vec![forward], acks: vec![reverse], delay: bottleneck.delay_ns };
        attach_group(&mut b, group, g as u32, &field, core, seed, duration, &mut flows)?;
    }
    Ok(Network { links: b.links, routes: b.routes, flows })
}

/// A general network of routers and duplex core links.
fn network(topology: &NetworkConfig, seed: u64, duration: Time) -> Result<Network> {
    let mut b = Builder { seed, links: Vec::new(), routes: Vec::new() };
    if topology.groups.is_empty() {
        return Err(EngineError::invalid("topology.groups", "[]", "at least one flow group"));
    }
    // Edge weight: (link carrying this direction, link of the opposite direction, delay).
    let mut graph: DiGraph<String, (u32, u32, Time)> = DiGraph::new();
    let mut routers = HashMap::new();
    for (i, name) in topology.routers.iter().enumerate() {
        if routers.insert(name.clone(), graph.add_node(name.clone())).is_some() {
            return Err(EngineError::invalid(format!("topology.routers[{i}]"), name, "unique router names"));
        }
    }
    let router = |name: &str, field: String| {
        routers.get(name).copied().ok_or_else(|| EngineError::invalid(field, name, "one of topology.routers"))
    };
    let mean_packet = packet_bytes(&topology.groups[0]);
    let mut names = HashMap::new();
    for (i, link) in topology.links.iter().enumerate() {
        let field = format!("topology.links[{i}]");
        let from = router(&link.from, format!("{field}.from"))?;
        let to = router(&link.to, format!("{field}.to"))?;
        if from == to {
            return Err(EngineError::invalid(format!("{field}.to"), &link.to, "a router other than `from`"));
        }
        if names.insert(link.name.clone(), i).is_some() {
            return Err(EngineError::invalid(format!("{field}.name"), &link.name, "unique link names"));
        }
        let forward =
            b.link(LinkRole::Core, &link.name, link.rate_bps, link.delay_ns, &link.queue, mean_packet, &field)?;
        let reverse_name = format!("{}_reverse", link.name);
        let reverse = b.link(
            LinkRole::CoreReverse,
            &reverse_name,
            link.rate_bps,
            link.delay_ns,
            &link.reverse_queue,
            mean_packet,
            &field,
        )?;
        graph.add_edge(from, to, (forward, reverse, link.delay_ns));
        graph.add_edge(to, from, (reverse, forward, link.delay_ns));
    }
    let mut flows = Vec::new();
    for (g, group) in topology.groups.iter().enumerate() {
        let field = format!("topology.groups[{g}]");
        let hops: Vec<NodeIndex> = match &group.path {
            None => {
                return Err(EngineError::invalid(
                    format!("{field}.path"),
                    "none",
                    "a path (routers or shortest) in a network",
                ))
            }
            Some(RouterPath::Routers { routers: names }) => {
                if names.len() < 2 {
                    return Err(EngineError::invalid(
                        format!("{field}.path.routers"),
                        names.len(),
                        "at least two routers",
                    ));
                }
                names
                    .iter()
                    .enumerate()
                    .map(|(i, name)| router(name, format!("{field}.path.routers[{i}]")))
                    .collect::<Result<_>>()?
            }
            Some(RouterPath::Shortest { from, to }) => {
                let (from, to) = (router(from, format!("{field}.path.from"))?, router(to, format!("{field}.path.to"))?);
                // Least propagation delay; a tiny per-hop cost prefers fewer hops on ties.
                let found = astar(&graph, from, |n| n == to, |e| e.weight().2 as f64 + 1e-3, |_| 0.0);
                match found {
                    Some((_, nodes)) if nodes.len() >= 2 => nodes,
                    _ => {
                        return Err(EngineError::invalid(
                            format!("{field}.path.to"),
                            &graph[to],
                            "a router reachable from `from`",
                        ))
                    }
                }
            }
        };
        let mut data = Vec::new();
        let mut acks = Vec::new();
        let mut delay = 0;
        for (i, pair) in hops.windows(2).enumerate() {
            let Some(edge) = graph.find_edge(pair[0], pair[1]) else {
                return Err(EngineError::invalid(
                    format!("{field}.path.routers[{}]", i + 1),
                    &graph[pair[1]],
                    format!("a router joined to {} by a link", graph[pair[0]]),
                ));
            };
            let (id, opposite, link_delay) = graph[edge];
            data.push(id);
            acks.insert(0, opposite);
            delay += link_delay;
        }
        attach_group(&mut b, group, g as u32, &field, CorePath { data, acks, delay }, seed, duration, &mut flows)?;
    }
    Ok(Network { links: b.links, routes: b.routes, flows })
}

/// Give each flow of `group` its edge links and routes through `core`.
#[allow(clippy::too_many_arguments)]
fn attach_group(
    b: &mut Builder,
    group: &FlowGroup,
    g: u32,
    field: &str,
    core: CorePath,
    seed: u64,
    duration: Time,
    flows: &mut Vec<FlowSpec>,
) -> Result<()> {
    if group.rtt_ns < 2 * core.delay {
        return Err(EngineError::invalid(
            format!("{field}.rtt_ns"),
            group.rtt_ns,
            format!("a round-trip time >= twice the one-way delay of the core path ({} ns)", 2 * core.delay),
        ));
    }
    let packet = packet_bytes(group);
    let shared = group.shared_access || matches!(group.traffic, Traffic::Web { .. });
    let mut shared_edge: Option<[u32; 4]> = None;
    for (index, pending) in group_flows(group, field, g, seed, duration)?.into_iter().enumerate() {
        let edge = match shared_edge {
            Some(links) if shared => links,
            _ => {
                // Two-way propagation = 2 (core + access + receiver delay); what the RTT leaves
                // beyond the core is split equally between the access and receiver links.
                let rtt = if shared || group.rtt_spread_ns == 0 {
                    group.rtt_ns
                } else {
                    let mut rng = stream(seed, StreamKind::Rtt, ((g as u64) << 32) | index as u64);
                    group.rtt_ns + (rng.gen::<f64>() * group.rtt_spread_ns as f64) as Time
                };
                let edge_one_way = (rtt - 2 * core.delay) / 2;
                let access_delay = edge_one_way / 2;
                let receiver_delay = edge_one_way - access_delay;
                let (access, receiver) = (format!("{field}.access"), format!("{field}.receiver"));
                let mut link = |role, name, rate_bps, delay, field: &str| {
                    b.link(role, name, rate_bps, delay, &group.access_queue, packet, field)
                };
                let links = [
                    link(LinkRole::Access, "access", group.access_rate_bps, access_delay, &access)?,
                    link(LinkRole::AccessReverse, "access_reverse", group.access_rate_bps, access_delay, &access)?,
                    link(LinkRole::Receiver, "receiver", group.receiver_rate_bps, receiver_delay, &receiver)?,
                    link(
                        LinkRole::ReceiverReverse,
                        "receiver_reverse",
                        group.receiver_rate_bps,
                        receiver_delay,
                        &receiver,
                    )?,
                ];
                shared_edge = Some(links);
                links
            }
        };
        let [access, access_back, receiver, receiver_back] = edge;
        let outbound: Vec<u32> = [access].into_iter().chain(core.data.iter().copied()).chain([receiver]).collect();
        let inbound: Vec<u32> =
            [receiver_back].into_iter().chain(core.acks.iter().copied()).chain([access_back]).collect();
        let (data, acks) = match group.direction {
            Direction::Forward => (outbound, inbound),
            Direction::Reverse => (inbound, outbound),
        };
        let forward_route = b.route(data);
        let reverse_route = b.route(acks);
        flows.push(FlowSpec { group: g, forward_route, reverse_route, ..pending });
    }
    Ok(())
}

/// The flows of one group (routes filled in by the caller); web arrivals end at `until`
/// unless the group stops earlier.
fn group_flows(group: &FlowGroup, field: &str, g: u32, seed: u64, until: Time) -> Result<Vec<FlowSpec>> {
    let spec = |start: Time, stop: Option<Time>, transport: Transport| FlowSpec {
        group: g,
        forward_route: 0,
        reverse_route: 0,
        start,
        stop,
        transport,
    };
    match &group.traffic {
        Traffic::Tcp { count, tcp, transfer } => {
            check_tcp(tcp, &format!("{field}.traffic.tcp"))?;
            check_count(*count, field)?;
            let total_bytes = match transfer {
                Transfer::Bulk => None,
                Transfer::Finite { bytes } if *bytes > 0 => Some(*bytes),
                Transfer::Finite { bytes } => {
                    return Err(EngineError::invalid(
                        format!("{field}.traffic.transfer.bytes"),
                        bytes,
                        "a size > 0 bytes",
                    ))
                }
            };
            (0..*count)
                .map(|i| {
                    let start = start_time(&group.start, field, seed, g, i)?;
                    Ok(spec(start, stop_time(&group.stop, field, i)?, Transport::Tcp { tcp: tcp.clone(), total_bytes }))
                })
                .collect()
        }
        Traffic::Udp { count, rate_bps, packet_size_bytes } => {
            check_count(*count, field)?;
            if *rate_bps == 0 {
                return Err(EngineError::invalid(format!("{field}.traffic.rate_bps"), 0, "a rate > 0 bits per second"));
            }
            if *packet_size_bytes == 0 {
                return Err(EngineError::invalid(format!("{field}.traffic.packet_size_bytes"), 0, "a size > 0 bytes"));
            }
            (0..*count)
                .map(|i| {
                    let start = start_time(&group.start, field, seed, g, i)?;
                    let transport = Transport::Udp { rate_bps: *rate_bps, packet_bytes: *packet_size_bytes };
                    Ok(spec(start, stop_time(&group.stop, field, i)?, transport))
                })
                .collect()
        }
        Traffic::Web { arrival_rate_per_s, size, tcp } => {
            check_tcp(tcp, &format!("{field}.traffic.tcp"))?;
            if !(arrival_rate_per_s.is_finite() && *arrival_rate_per_s > 0.0) {
                return Err(EngineError::invalid(
                    format!("{field}.traffic.arrival_rate_per_s"),
                    arrival_rate_per_s,
                    "a rate > 0 flows per second",
                ));
            }
            check_size(size, &format!("{field}.traffic.size"))?;
            let first = match group.start {
                StartTimes::Fixed { at_ns } => at_ns,
                _ => {
                    return Err(EngineError::invalid(
                        format!("{field}.start.kind"),
                        "not fixed",
                        "a fixed start: when web arrivals begin",
                    ))
                }
            };
            let last = match group.stop {
                StopTimes::Never => until,
                StopTimes::Fixed { at_ns } => at_ns,
                StopTimes::Staggered { .. } => {
                    return Err(EngineError::invalid(
                        format!("{field}.stop.kind"),
                        "staggered",
                        "never or fixed: when web arrivals end",
                    ))
                }
            };
            // Poisson arrivals: exponential gaps of mean 1/rate, from the group's own stream.
            let mut rng = stream(seed, StreamKind::Traffic, g as u64);
            let mut flows = Vec::new();
            let mut t = first as f64 / 1e9;
            loop {
                t += -(1.0 - rng.gen::<f64>()).ln() / arrival_rate_per_s;
                let at = (t * 1e9) as Time;
                if at >= last {
                    break;
                }
                let bytes = draw_size(size, &mut rng);
                flows.push(spec(at, None, Transport::Tcp { tcp: tcp.clone(), total_bytes: Some(bytes) }));
            }
            Ok(flows)
        }
    }
}

/// Size of a full data packet of the group, bytes.
fn packet_bytes(group: &FlowGroup) -> u32 {
    match &group.traffic {
        Traffic::Tcp { tcp, .. } | Traffic::Web { tcp, .. } => tcp.packet_size_bytes,
        Traffic::Udp { packet_size_bytes, .. } => *packet_size_bytes,
    }
}

fn check_count(count: u32, field: &str) -> Result<()> {
    if count == 0 {
        return Err(EngineError::invalid(format!("{field}.traffic.count"), 0, "at least 1 flow"));
    }
    Ok(())
}

fn check_size(size: &SizeDistribution, field: &str) -> Result<()> {
    match *size {
        SizeDistribution::Pareto { mean_bytes, shape } => {
            if !(mean_bytes.is_finite() && mean_bytes >= 1.0) {
                return Err(EngineError::invalid(format!("{field}.mean_bytes"), mean_bytes, "a mean >= 1 byte"));
            }
            if !(shape.is_finite() && shape > 1.0) {
                return Err(EngineError::invalid(format!("{field}.shape"), shape, "a shape > 1 (finite mean)"));
            }
        }
        SizeDistribution::Exponential { mean_bytes } => {
            if !(mean_bytes.is_finite() && mean_bytes >= 1.0) {
                return Err(EngineError::invalid(format!("{field}.mean_bytes"), mean_bytes, "a mean >= 1 byte"));
            }
        }
        SizeDistribution::Fixed { bytes } => {
            if bytes == 0 {
                return Err(EngineError::invalid(format!("{field}.bytes"), 0, "a size > 0 bytes"));
            }
        }
    }
    Ok(())
}

/// One transfer size, at least one byte.
fn draw_size(size: &SizeDistribution, rng: &mut crate::rng::Rng) -> u64 {
    let u = 1.0 - rng.gen::<f64>(); // in (0, 1]
    let bytes = match *size {
        // Pareto: x_m / U^(1/shape) with scale x_m = mean (shape - 1) / shape.
        SizeDistribution::Pareto { mean_bytes, shape } => mean_bytes * (shape - 1.0) / shape / u.powf(1.0 / shape),
        SizeDistribution::Exponential { mean_bytes } => -mean_bytes * u.ln(),
        SizeDistribution::Fixed { bytes } => bytes as f64,
    };
    (bytes.ceil() as u64).max(1)
}

fn start_time(start: &StartTimes, field: &str, seed: u64, group: u32, index: u32) -> Result<Time> {
    Ok(match *start {
        StartTimes::Fixed { at_ns } => at_ns,
        StartTimes::Staggered { first_ns, spacing_ns } => first_ns + index as Time * spacing_ns,
        StartTimes::Uniform { low_ns, high_ns } => {
            if high_ns < low_ns {
                return Err(EngineError::invalid(format!("{field}.start.high_ns"), high_ns, "a time >= start.low_ns"));
            }
            // One stream per (group, flow), so changing one group leaves the others' draws alone.
            let mut rng = stream(seed, StreamKind::StartTime, ((group as u64) << 32) | index as u64);
            low_ns + (rng.gen::<f64>() * (high_ns - low_ns) as f64) as Time
        }
    })
}

fn stop_time(stop: &StopTimes, _field: &str, index: u32) -> Result<Option<Time>> {
    Ok(match *stop {
        StopTimes::Never => None,
        StopTimes::Fixed { at_ns } => Some(at_ns),
        StopTimes::Staggered { first_ns, spacing_ns } => Some(first_ns + index as Time * spacing_ns),
    })
}

/// Build the network of a scenario.
pub fn build(scenario: &Scenario, seed: u64) -> Result<Network> {
    match &scenario.topology {
        Topology::Dumbbell(d) => dumbbell(d, seed, scenario.duration_ns),
        Topology::Network(n) => network(n, seed, scenario.duration_ns),
    }
}
