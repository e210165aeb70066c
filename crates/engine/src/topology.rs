//! Topology builders: turn a scenario's topology into links, routes and flows.

use crate::config::{Direction, Dumbbell, FlowGroup, Scenario, SizeDistribution, StartTimes, StopTimes, Topology, Traffic, Transfer};
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

/// `duration`: web arrivals of groups without a stop time are generated up to it.
fn dumbbell(topology: &Dumbbell, seed: u64, duration: Time) -> Result<Network> {
    let mut b = Builder { seed, links: Vec::new(), routes: Vec::new() };
    if topology.groups.is_empty() {
        return Err(EngineError::invalid("topology.groups", "[]", "at least one flow group"));
    }
    let bottleneck = &topology.bottleneck;
    let mean_packet = packet_bytes(&topology.groups[0]);
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
        if group.rtt_ns < 2 * bottleneck.delay_ns {
            return Err(EngineError::invalid(
                format!("{field}.rtt_ns"),
                group.rtt_ns,
                format!("a round-trip time >= twice the bottleneck delay ({} ns)", 2 * bottleneck.delay_ns),
            ));
        }
        let flows_of_group = group_flows(group, &field, g as u32, seed, duration)?;
        // Two-way propagation = 2 (bottleneck + access + receiver delay); the rest of the
        // RTT beyond the bottleneck is split equally between access and receiver links.
        let edge_one_way = (group.rtt_ns - 2 * bottleneck.delay_ns) / 2;
        let access_delay = edge_one_way / 2;
        let receiver_delay = edge_one_way - access_delay;
        let packet = packet_bytes(group);
        let shared = group.shared_access || matches!(group.traffic, Traffic::Web { .. });
        let mut edge: Option<[u32; 4]> = None;
        for pending in flows_of_group {
            let [access, access_back, receiver, receiver_back] = match edge {
                Some(links) if shared => links,
                _ => {
                    let links = [
                        b.link(LinkRole::Access, group.access_rate_bps, access_delay, &group.access_queue, packet, &format!("{field}.access"))?,
                        b.link(LinkRole::AccessReverse, group.access_rate_bps, access_delay, &group.access_queue, packet, &format!("{field}.access"))?,
                        b.link(LinkRole::Receiver, group.receiver_rate_bps, receiver_delay, &group.access_queue, packet, &format!("{field}.receiver"))?,
                        b.link(
                            LinkRole::ReceiverReverse,
                            group.receiver_rate_bps,
                            receiver_delay,
                            &group.access_queue,
                            packet,
                            &format!("{field}.receiver"),
                        )?,
                    ];
                    edge = Some(links);
                    links
                }
            };
            let left_to_right = vec![access, forward, receiver];
            let right_to_left = vec![receiver_back, reverse, access_back];
            let (data, acks) = match group.direction {
                Direction::Forward => (left_to_right, right_to_left),
                Direction::Reverse => (right_to_left, left_to_right),
            };
            let forward_route = b.route(data);
            let reverse_route = b.route(acks);
            flows.push(FlowSpec { group: g as u32, forward_route, reverse_route, ..pending });
        }
    }
    Ok(Network { links: b.links, routes: b.routes, flows })
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
                    return Err(EngineError::invalid(format!("{field}.traffic.transfer.bytes"), bytes, "a size > 0 bytes"))
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
                return Err(EngineError::invalid(format!("{field}.traffic.arrival_rate_per_s"), arrival_rate_per_s, "a rate > 0 flows per second"));
            }
            check_size(size, &format!("{field}.traffic.size"))?;
            let first = match group.start {
                StartTimes::Fixed { at_ns } => at_ns,
                _ => return Err(EngineError::invalid(format!("{field}.start.kind"), "not fixed", "a fixed start: when web arrivals begin")),
            };
            let last = match group.stop {
                StopTimes::Never => until,
                StopTimes::Fixed { at_ns } => at_ns,
                StopTimes::Staggered { .. } => {
                    return Err(EngineError::invalid(format!("{field}.stop.kind"), "staggered", "never or fixed: when web arrivals end"))
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
    }
}
