//! The simulation: the event loop that moves packets between links, queues and TCP ends.

use crate::config::Scenario;
use crate::error::{EngineError, Result};
use crate::event::{Event, EventQueue};
use crate::link::{Link, WirePool, NO_DELIVERY_EVENT};
use crate::packet::{Packet, PacketKind, RouteId};
use crate::packet_trace::PacketRecorder;
use crate::queue::QueueCounters;
use crate::queue::Verdict;
use crate::rng::{stream, StreamKind};
use crate::route::Routes;
use crate::tcp::receiver::TcpReceiver;
use crate::tcp::sender::TcpSender;
use crate::time::{to_secs, Time};
use crate::topology::{self, Transport};
use crate::trace::{Counters, FlowRecords, FlowTrace, LinkRecords, LinkTrace, Results};
use crate::udp::{UdpSink, UdpSource};

mod ack_inline;
mod packet_hooks;
mod prefetch;

use ack_inline::{CrossedSamples, SenderSample};
use prefetch::Layout;

struct Flow {
    group: u32,
    /// Route of the flow's data, and of its acknowledgements.
    route: RouteId,
    reverse_route: RouteId,
    start: Time,
    stop: Option<Time>,
    ends: Ends,
    delivered_at_measure_start: Option<u64>,
}

/// The two ends of a flow. Not boxed: TCP ends are on the per-packet path, and flows
/// live in one `Vec`, so the size difference costs memory only for UDP flows. `repr(C, u8)`:
/// a TCP receiver is at a fixed place in its flow record, which `sim/prefetch.rs` prefetches
/// from the flow's index alone, before the record is read (`prefetch::RECEIVER_IN_ENDS`).
#[allow(clippy::large_enum_variant)]
#[repr(C, u8)]
enum Ends {
    Tcp { sender: TcpSender, receiver: TcpReceiver },
    Udp { source: UdpSource, sink: UdpSink },
}

impl Flow {
    fn bytes_delivered(&self) -> u64 {
        match &self.ends {
            Ends::Tcp { receiver, .. } => receiver.bytes_delivered(),
            Ends::Udp { sink, .. } => sink.bytes,
        }
    }

    fn tcp(&self) -> Option<&TcpSender> {
        match &self.ends {
            Ends::Tcp { sender, .. } => Some(sender),
            Ends::Udp { .. } => None,
        }
    }

    fn started(&self) -> bool {
        match &self.ends {
            Ends::Tcp { sender, .. } => sender.started_at.is_some(),
            Ends::Udp { source, .. } => source.started_at.is_some(),
        }
    }

    /// TCP: when a finite (or stopped) transfer was fully acknowledged; UDP: when the
    /// source fell silent.
    fn ended_at(&self) -> Option<Time> {
        match &self.ends {
            Ends::Tcp { sender, .. } => sender.completed_at,
            Ends::Udp { source, .. } => source.stopped_at,
        }
    }

    fn sender_mut(&mut self) -> &mut TcpSender {
        match &mut self.ends {
            Ends::Tcp { sender, .. } => sender,
            Ends::Udp { .. } => unreachable!("TCP event for a UDP flow"),
        }
    }

    fn receiver_mut(&mut self) -> &mut TcpReceiver {
        match &mut self.ends {
            Ends::Tcp { receiver, .. } => receiver,
            Ends::Udp { .. } => unreachable!("TCP event for a UDP flow"),
        }
    }
}

/// Which end of a TCP flow a timer belongs to: the sender (RTO) or the receiver (delayed ACK).
#[derive(Clone, Copy)]
enum TimerOwner {
    Sender,
    Receiver,
}

impl TimerOwner {
    /// The end's deadline and its pending timer event.
    fn slot(self, flow: &mut Flow) -> (Option<Time>, &mut Option<Time>) {
        match self {
            TimerOwner::Sender => {
                let sender = flow.sender_mut();
                (sender.rto_deadline, &mut sender.timer_pending)
            }
            TimerOwner::Receiver => {
                let receiver = flow.receiver_mut();
                (receiver.ack_deadline, &mut receiver.timer_pending)
            }
        }
    }

    fn event(self, flow: u32) -> Event {
        match self {
            TimerOwner::Sender => Event::SenderTimer(flow),
            TimerOwner::Receiver => Event::ReceiverTimer(flow),
        }
    }
}

/// Capacity the reused outbox keeps between events, packets.
const OUTBOX_KEPT: usize = 4096;

pub struct Simulation {
    now: Time,
    duration: Time,
    measure_start: Time,
    sample_interval: Time,
    traced_flows: usize,
    events: EventQueue,
    links: Vec<Link>,
    /// The packets on every link's wire beyond its head (`link::Propagation`): one pool,
    /// not one buffer per link.
    wire: WirePool,
    /// Every route's links, back to back (one allocation, not one per route).
    routes: Routes,
    /// The monitored links (sampled into the link trace) and their queue counters at the
    /// previous sample: a sample costs O(monitored links), not O(all links) (4 per flow).
    sampled: Vec<(u32, QueueCounters)>,
    flows: Vec<Flow>,
    /// Packets emitted by a TCP end during one event (reused: no allocation per packet).
    outbox: Vec<Packet>,
    /// The same for a receiver computed inline (`deliver_inline`), which may run while a
    /// sender's packets are being emitted from `outbox`.
    inline_outbox: Vec<Packet>,
    /// The same for a sender computed inline (`ack_inline`).
    sender_outbox: Vec<Packet>,
    /// A TCP end's packets are being offered (`emit`, `deliver_inline`, `ack_inline`): no
    /// sender is computed inline meanwhile (its later packets would enter its first link
    /// before the rest of a burst sent earlier).
    emitting: bool,
    /// The MeasureStart event has run (deliveries after it may be computed ahead).
    measure_started: bool,
    link_trace: LinkTrace,
    flow_trace: FlowTrace,
    /// `take_results` moved the traces out (they are empty now).
    traces_taken: bool,
    created: u64,
    delivered: u64,
    events_processed: u64,
    last_sample: Time,
    /// Per traced flow, the samples its ACKs taken inline crossed (`ack_inline`).
    crossed_samples: Vec<CrossedSamples>,
    /// Work (events + packets created) after which `run_for` stops for good; see `work`.
    work_limit: u64,
    /// The per-packet trace (`trace.packets`), if asked for: every hook tests this first.
    packet_trace: Option<PacketRecorder>,
}

/// Why `run_for` returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The requested time (or the end of the run) was reached.
    Reached,
    /// The slice of work was used up first; call again to go on (the caller checks for
    /// interrupts in between).
    Slice,
    /// The work limit is reached: the run stops here, with results up to `now`.
    WorkLimit,
}

impl Simulation {
    /// Parse a resolved scenario (JSON) and build the simulation.
    pub fn from_json(json: &str, seed: u64) -> Result<Self> {
        let deserializer = &mut serde_json::Deserializer::from_str(json);
        let scenario: Scenario = serde_path_to_error::deserialize(deserializer)
            .map_err(|e| EngineError::Parse { path: e.path().to_string(), message: e.inner().to_string() })?;
        Self::new(&scenario, seed)
    }

    pub fn new(scenario: &Scenario, seed: u64) -> Result<Self> {
        Self::build(scenario, seed, ack_inline::enabled_by_environment())
    }

    /// [`Simulation::new`]; `inline_senders` allows senders computed inline (`ack_inline`).
    fn build(scenario: &Scenario, seed: u64, inline_senders: bool) -> Result<Self> {
        scenario.check_bounds()?;
        if scenario.duration_ns == 0 {
            return Err(EngineError::invalid("duration_ns", 0, "a duration > 0"));
        }
        if scenario.measure_start_ns > scenario.duration_ns {
            return Err(EngineError::invalid(
                "measure_start_ns",
                scenario.measure_start_ns,
                "a time within the run duration",
            ));
        }
        if scenario.trace.interval_ns == 0 {
            return Err(EngineError::invalid("trace.interval_ns", 0, "an interval > 0"));
        }
        let mut network = topology::build(scenario, seed)?;
        mark_inline_links(&mut network.links, &network.routes);
        let uses = route_uses(&network);
        mark_inline_receivers(&mut network, &uses);
        if inline_senders {
            ack_inline::mark_inline_senders(&mut network, &uses);
        }
        let packet_trace = match &scenario.trace.packets {
            None => None,
            Some(config) => {
                let groups: Vec<u32> = network.flows.iter().map(|spec| spec.group).collect();
                let routes: Vec<(u32, u32)> =
                    network.flows.iter().map(|spec| (spec.forward_route, spec.reverse_route)).collect();
                Some(PacketRecorder::new(config, &network.links, &network.routes, &groups, &routes)?)
            }
        };
        // Packets carry the table position of their route (`route::Routes`).
        let (routes, route_ids) = Routes::new(&network.routes);
        // About one pending event per link (the head of its propagation FIFO).
        let mut events = EventQueue::for_expected_events(network.links.len());
        let flows = network
            .flows
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let id = i as u32;
                events.schedule(spec.start, Event::FlowStart(id));
                let field = format!("topology.groups[{}].traffic.tcp", spec.group);
                let ends = match &spec.transport {
                    Transport::Tcp { tcp, total_bytes } => {
                        let rng = stream(seed, StreamKind::Flow, i as u64);
                        Ends::Tcp {
                            sender: TcpSender::new(
                                id,
                                route_ids[spec.forward_route as usize],
                                tcp,
                                *total_bytes,
                                rng,
                                &field,
                            )?,
                            receiver: TcpReceiver::new(id, route_ids[spec.reverse_route as usize], tcp, *total_bytes),
                        }
                    }
                    Transport::Udp { rate_bps, packet_bytes } => Ends::Udp {
                        source: UdpSource::new(
                            id,
                            route_ids[spec.forward_route as usize],
                            *rate_bps,
                            *packet_bytes,
                            spec.stop,
                        ),
                        sink: UdpSink::default(),
                    },
                };
                if let (Some(stop), Ends::Tcp { .. }) = (spec.stop, &ends) {
                    events.schedule(stop, Event::FlowStop(id));
                }
                Ok(Flow {
                    group: spec.group,
                    route: route_ids[spec.forward_route as usize],
                    reverse_route: route_ids[spec.reverse_route as usize],
                    start: spec.start,
                    stop: spec.stop,
                    ends,
                    delivered_at_measure_start: None,
                })
            })
            .collect::<Result<Vec<Flow>>>()?;
        events.schedule(scenario.trace.interval_ns, Event::Sample);
        let samples = (scenario.duration_ns / scenario.trace.interval_ns) as usize;
        let traced_flows = (scenario.trace.flows as usize).min(flows.len());
        let sampled: Vec<(u32, QueueCounters)> = (network.links.iter().enumerate())
            .filter(|(_, link)| link.monitored)
            .map(|(id, _)| (id as u32, QueueCounters::default()))
            .collect();
        events.schedule(scenario.measure_start_ns, Event::MeasureStart);
        Ok(Simulation {
            now: 0,
            duration: scenario.duration_ns,
            measure_start: scenario.measure_start_ns,
            sample_interval: scenario.trace.interval_ns,
            traced_flows,
            events,
            links: network.links,
            wire: WirePool::default(),
            routes,
            flows,
            outbox: Vec::with_capacity(64),
            inline_outbox: Vec::with_capacity(4),
            sender_outbox: Vec::with_capacity(4),
            emitting: false,
            measure_started: false,
            link_trace: LinkTrace::with_capacity(samples * sampled.len()),
            sampled,
            flow_trace: FlowTrace::with_capacity(samples * traced_flows),
            traces_taken: false,
            created: 0,
            delivered: 0,
            events_processed: 0,
            last_sample: 0,
            crossed_samples: (0..traced_flows).map(|_| CrossedSamples::default()).collect(),
            work_limit: u64::MAX,
            packet_trace,
        })
    }

    pub fn now(&self) -> Time {
        self.now
    }

    pub fn duration(&self) -> Time {
        self.duration
    }

    pub fn finished(&self) -> bool {
        self.now >= self.duration
    }

    pub fn events_processed(&self) -> u64 {
        self.events_processed
    }

    /// Work done so far: events processed plus packets created. A single event may create
    /// many packets (a TCP sender opening a large window), so slices and limits count both.
    pub fn work(&self) -> u64 {
        self.events_processed + self.created
    }

    /// Stop for good once `work()` reaches `limit` (the guard of `aqmlab.workload`).
    pub fn set_work_limit(&mut self, limit: u64) {
        self.work_limit = limit;
    }

    pub fn work_limit_reached(&self) -> bool {
        self.work() >= self.work_limit && !self.finished()
    }

    /// Run until `until` (capped at the duration). Returns true once the run is finished.
    pub fn run_until(&mut self, until: Time) -> bool {
        while self.run_for(until, u64::MAX) == Stop::Slice {}
        self.finished()
    }

    /// Run until `until` (capped at the duration), or until `max_work` more work is done, or
    /// until the work limit, whichever comes first. Stopping early leaves the clock at the
    /// last event processed, between events: the state is consistent and the run can go on
    /// (or its results be taken).
    pub fn run_for(&mut self, until: Time, max_work: u64) -> Stop {
        let limit = until.min(self.duration);
        let slice_end = self.work().saturating_add(max_work);
        let stop_at = slice_end.min(self.work_limit);
        loop {
            if self.work() >= stop_at && self.events.next_time().is_some_and(|next| next <= limit) {
                return if self.work() >= self.work_limit { Stop::WorkLimit } else { Stop::Slice };
            }
            let layout = Layout { links: &self.links, wire: &self.wire, routes: &self.routes, flows: &self.flows };
            let Some((time, event)) =
                self.events.pop_until_hinting(limit, |event, soon| layout.prefetch_for(event, soon))
            else {
                break;
            };
            self.now = time;
            self.events_processed += 1;
            match event {
                Event::TransmissionDone(link) => self.on_transmission_done(link),
                Event::Arrival(link) => self.on_arrival(link),
                Event::FlowStart(flow) => self.on_flow_start(flow),
                Event::FlowStop(flow) => self.on_flow_stop(flow),
                Event::UdpSend(flow) => self.on_udp_send(flow),
                Event::SenderTimer(flow) => self.on_timer(flow, TimerOwner::Sender),
                Event::ReceiverTimer(flow) => self.on_timer(flow, TimerOwner::Receiver),
                Event::Sample => self.on_sample(),
                Event::MeasureStart => self.on_measure_start(),
            }
        }
        self.now = self.now.max(limit);
        Stop::Reached
    }

    /// Offer a packet to a link: through its queue, then onto the wire if the link is idle.
    /// By reference, here and down the chain of links computed inline: the caller's packet
    /// (just taken off a wire, or in a TCP end's outbox) is read where it is and copied once,
    /// onto the wire it ends on. Passed by value, it was copied at every call, each copy
    /// reading whole what had just been written a field at a time (`hop`), which stalls the
    /// copy (no store forwarding; issue 28, stop 7). The packet may be changed (hop, ECN).
    fn send_on_link(&mut self, link_id: u32, packet: &mut Packet) {
        if self.packet_trace.is_some() {
            return self.send_on_link_traced(link_id, packet);
        }
        self.send_on_link_as::<false>(link_id, packet)
    }

    /// [`Simulation::send_on_link`], with the per-packet trace's hooks if `TRACED` (compiled
    /// away otherwise: without a trace the event loop runs the code it ran before them).
    #[inline(always)]
    fn send_on_link_as<const TRACED: bool>(&mut self, link_id: u32, packet: &mut Packet) {
        let now = self.now;
        if self.links[link_id as usize].event_free {
            return self.offer_event_free::<TRACED>(link_id, packet, now);
        }
        let watch = if TRACED { self.trace_watch(link_id, packet, now) } else { None };
        let link = &mut self.links[link_id as usize];
        // Idle: nothing queued and the last transmission has ended. Such a link needs no
        // TransmissionDone event: the packet goes straight onto the wire (most links of a
        // dumbbell are idle most of the time, so this halves their events).
        let idle = !link.done_pending && link.busy_until <= now;
        if idle && link.queue.len_packets() == 0 {
            // ns-2 semantics: the queue has been idle since the link finished its last packet.
            link.queue.note_idle_since(link.busy_until);
            // Enqueue then dequeue at once, without touching the queue's buffer.
            let passed = link.queue.pass_through(*packet, now, &mut link.rng);
            if let Some(watch) = &watch {
                self.trace_offered(watch, link_id, packet);
            }
            if let Some(packet) = passed {
                self.transmit(link_id, packet);
            }
            return;
        }
        let verdict = link.queue.enqueue(*packet, now, &mut link.rng);
        if let Some(watch) = &watch {
            self.trace_offered(watch, link_id, packet);
        }
        if let Verdict::Drop(_) = verdict {
            return; // counted by the queue
        }
        let link = &mut self.links[link_id as usize];
        if idle {
            self.start_transmission(link_id);
        } else if !link.done_pending {
            link.done_pending = true;
            let done = link.busy_until;
            self.events.schedule(done, Event::TransmissionDone(link_id));
        }
    }

    /// Offer a packet arriving at `at` to a link served without events (`Link::event_free`):
    /// its departure is known now, so it goes straight into the propagation FIFO, due at the
    /// far end at D_n + delay, with no transmission-complete event. If the next link of its
    /// route is computed by this one (`Link::inline`), the packet is offered there at once,
    /// at its arrival time there, and so on: only the last link of the chain schedules an
    /// arrival event. Arrivals after the end of the run stay on the wire, as they would.
    fn offer_event_free<const TRACED: bool>(&mut self, mut link_id: u32, packet: &mut Packet, mut at: Time) {
        loop {
            let next = self.routes.link(packet.route, packet.hop + 1);
            // What comes after this link, into cache while this one decides (with many flows
            // each is a miss; benchmarks/scale/README.md): the next link, or for data the
            // receiver. Not an ACK's sender: reading its flow record here to find it only
            // stalled (issue 28: 46 % of this function at 10 000 flows); the record is read
            // below only when the ACK may be taken inline (`ack_inline`).
            match next {
                Some(next) => prefetch::prefetch_lines(&self.links[next as usize], prefetch::INLINE_LINK_LINES),
                None if packet.kind == PacketKind::Data => {
                    let layout =
                        Layout { links: &self.links, wire: &self.wire, routes: &self.routes, flows: &self.flows };
                    layout.prefetch_delivery(packet.flow);
                }
                None => {}
            }
            let watch = if TRACED { self.trace_watch(link_id, packet, at) } else { None };
            let link = &mut self.links[link_id as usize];
            // Lindley's recursion: D_n = max(A_n, D_{n-1}) + L_n / C.
            let departs = link.offer_lindley(packet, at);
            let delay = link.delay;
            if let Some(watch) = &watch {
                self.trace_lindley(watch, link_id, packet, departs.map(|departs| departs + delay));
            }
            let Some(departs) = departs else {
                return; // dropped, counted by the queue
            };
            let arrives = departs + delay;
            match next {
                Some(next) if self.links[next as usize].inline && arrives <= self.duration => {
                    packet.hop += 1;
                    link_id = next;
                    at = arrives;
                    continue;
                }
                Some(_) => {}
                None if packet.kind == PacketKind::Data => {
                    let link = &mut self.links[link_id as usize];
                    // Inline: within the run, and after every delivery by an event (order).
                    if link.delivers_inline
                        && arrives <= self.duration
                        && (link.delivery_event_due == NO_DELIVERY_EVENT || link.delivery_event_due < self.now)
                    {
                        packet.hop += 1;
                        return self.deliver_inline::<TRACED>(packet, arrives);
                    }
                    link.delivery_event_due = arrives;
                }
                // An ACK for a sender computed inline (`ack_inline`), if nothing can see or
                // change the sender before the ACK reaches it; else by an event, and later
                // ACKs wait for that one (order).
                None if !TRACED && packet.kind == PacketKind::Ack && self.links[link_id as usize].delivers_inline => {
                    if self.sender_computable_at(packet.flow, arrives, self.links[link_id as usize].delivery_event_due)
                    {
                        packet.hop += 1;
                        return self.ack_inline(packet, arrives);
                    }
                    self.links[link_id as usize].delivery_event_due = arrives;
                }
                None => {}
            }
            let link = &mut self.links[link_id as usize];
            if link.propagating.push(&mut self.wire, arrives, *packet) {
                self.events.schedule(arrives, Event::Arrival(link_id));
            }
            return;
        }
    }

    /// Put the head of the queue on the wire.
    fn start_transmission(&mut self, link_id: u32) {
        let head = if self.packet_trace.is_some() {
            self.dequeue_traced(link_id)
        } else {
            let link = &mut self.links[link_id as usize];
            link.queue.dequeue(self.now, &mut link.rng)
        };
        if let Some(packet) = head {
            self.transmit(link_id, packet);
        }
    }

    /// `packet` leaves the queue now: it reaches the far end one transmission time plus the
    /// propagation delay from now (the propagation FIFO holds it from now on).
    fn transmit(&mut self, link_id: u32, packet: Packet) {
        let now = self.now;
        let link = &mut self.links[link_id as usize];
        let done = now + link.serialiser.next(packet.size_bytes, link.rate_bps);
        link.busy_until = done;
        let arrival = done + link.delay;
        if self.packet_trace.is_some() {
            self.trace_transmitted(link_id, &packet, arrival);
        }
        let link = &mut self.links[link_id as usize];
        if link.propagating.push(&mut self.wire, arrival, packet) {
            self.events.schedule(arrival, Event::Arrival(link_id));
        }
    }

    fn on_transmission_done(&mut self, link_id: u32) {
        self.links[link_id as usize].done_pending = false;
        self.start_transmission(link_id);
        let link = &mut self.links[link_id as usize];
        if link.queue.len_packets() > 0 {
            link.done_pending = true;
            let done = link.busy_until;
            self.events.schedule(done, Event::TransmissionDone(link_id));
        }
    }

    fn on_arrival(&mut self, link_id: u32) {
        let link = &mut self.links[link_id as usize];
        let (mut packet, next_head) = link.propagating.pop(&mut self.wire).expect("arrival on an empty link");
        if let Some(next) = next_head {
            self.events.schedule(next, Event::Arrival(link_id));
        }
        packet.hop += 1;
        match self.routes.link(packet.route, packet.hop) {
            Some(next_link) => self.send_on_link(next_link, &mut packet),
            None => self.deliver(packet),
        }
    }

    /// The packet reached the end of its route.
    fn deliver(&mut self, packet: Packet) {
        self.delivered += 1;
        let now = self.now;
        let flow = packet.flow;
        let mut out = std::mem::take(&mut self.outbox);
        match packet.kind {
            PacketKind::Data => {
                self.flows[flow as usize].receiver_mut().on_data(&packet, now, &mut out);
                self.emit(&mut out);
                self.schedule_timer(flow, TimerOwner::Receiver);
            }
            PacketKind::Ack => {
                sender_takes_ack(&mut self.flows[flow as usize].ends, &packet, now, &mut out);
                self.emit(&mut out);
                self.schedule_timer(flow, TimerOwner::Sender);
            }
            PacketKind::Datagram => {
                if let Ends::Udp { sink, .. } = &mut self.flows[flow as usize].ends {
                    sink.on_datagram(&packet, now);
                }
            }
        }
        self.outbox = out;
    }

    /// Data reaching at `at` (now or later) a receiver computed inline (`Link::delivers_inline`):
    /// it acknowledges at once, and its ACKs are offered to the first link of their route at
    /// `at` (served without events and carrying nothing else, so they are in order there).
    fn deliver_inline<const TRACED: bool>(&mut self, packet: &Packet, at: Time) {
        self.delivered += 1;
        let flow = &mut self.flows[packet.flow as usize];
        if !self.measure_started && at >= self.measure_start && flow.delivered_at_measure_start.is_none() {
            // The first delivery at or after the measurement start, computed before it: the
            // bytes delivered at the start are those before this one (deliveries reach the
            // receiver in order; MeasureStart runs before deliveries at its instant).
            flow.delivered_at_measure_start = Some(flow.bytes_delivered());
        }
        let mut out = std::mem::take(&mut self.inline_outbox);
        flow.receiver_mut().on_data(packet, at, &mut out);
        self.offer_ahead::<TRACED>(&mut out, at);
        self.inline_outbox = out;
    }

    /// Offer the packets a TCP end computed inline sent at `at` to the first links of their
    /// routes (served without events), flagged as emitting meanwhile (`ack_inline`).
    fn offer_ahead<const TRACED: bool>(&mut self, out: &mut Vec<Packet>, at: Time) {
        let emitting = std::mem::replace(&mut self.emitting, true);
        for packet in out.iter_mut() {
            self.created += 1;
            let first = self.routes.first_link(packet.route);
            self.offer_event_free::<TRACED>(first, packet, at);
        }
        out.clear();
        self.emitting = emitting;
    }

    /// Put the packets a TCP end produced on the first link of their routes.
    fn emit(&mut self, out: &mut Vec<Packet>) {
        let emitting = std::mem::replace(&mut self.emitting, true);
        for packet in out.iter_mut() {
            self.created += 1;
            let first = self.routes.first_link(packet.route);
            self.send_on_link(first, packet);
        }
        out.clear();
        self.emitting = emitting;
        if out.capacity() > OUTBOX_KEPT {
            // One huge burst (a sender opening a large window) must not pin its memory.
            out.shrink_to(OUTBOX_KEPT);
        }
    }

    fn on_flow_start(&mut self, flow: u32) {
        let now = self.now;
        let entry = &mut self.flows[flow as usize];
        if entry.stop.is_some_and(|stop| stop <= now) {
            return; // leaves before it enters: never starts
        }
        match &mut entry.ends {
            Ends::Tcp { sender, .. } => {
                let mut out = std::mem::take(&mut self.outbox);
                sender.start(now, &mut out);
                self.emit(&mut out);
                self.outbox = out;
                self.schedule_timer(flow, TimerOwner::Sender);
            }
            Ends::Udp { .. } => self.on_udp_send(flow),
        }
    }

    /// A bulk TCP flow stops taking new data: it finishes what it has sent and ends.
    fn on_flow_stop(&mut self, flow: u32) {
        let now = self.now;
        self.flows[flow as usize].sender_mut().stop(now);
        self.schedule_timer(flow, TimerOwner::Sender);
    }

    /// A UDP source sends its next datagram and schedules the one after.
    fn on_udp_send(&mut self, flow: u32) {
        let now = self.now;
        let Ends::Udp { source, .. } = &mut self.flows[flow as usize].ends else {
            unreachable!("UDP event for a TCP flow")
        };
        let (packet, next) = source.send(now);
        if let Some(next) = next {
            self.events.schedule(next, Event::UdpSend(flow));
        }
        if let Some(mut packet) = packet {
            self.created += 1;
            let first = self.routes.first_link(packet.route);
            self.send_on_link(first, &mut packet);
        }
    }

    /// Keep one pending timer event no later than the deadline of one end of a flow (the
    /// sender's RTO, the receiver's delayed ACK). Deadlines usually move later (restarted on
    /// each ACK), so an early event just re-arms itself.
    fn schedule_timer(&mut self, flow: u32, owner: TimerOwner) {
        let (deadline, pending) = owner.slot(&mut self.flows[flow as usize]);
        if let Some(deadline) = deadline {
            if pending.is_none_or(|at| at > deadline) {
                *pending = Some(deadline);
                self.events.schedule(deadline, owner.event(flow));
            }
        }
    }

    fn on_timer(&mut self, flow: u32, owner: TimerOwner) {
        let now = self.now;
        let entry = &mut self.flows[flow as usize];
        let (_, pending) = owner.slot(entry);
        if *pending != Some(now) {
            return; // superseded by an earlier event that was scheduled after this one
        }
        *pending = None;
        let mut out = std::mem::take(&mut self.outbox);
        match owner {
            TimerOwner::Sender => {
                entry.sender_mut().on_timer(now, &mut out);
            }
            TimerOwner::Receiver => entry.receiver_mut().on_timer(now, &mut out),
        }
        self.emit(&mut out);
        self.outbox = out;
        self.schedule_timer(flow, owner);
    }

    fn on_measure_start(&mut self) {
        self.measure_started = true;
        for flow in &mut self.flows {
            // Unless a delivery computed ahead took the snapshot at its instant already.
            flow.delivered_at_measure_start.get_or_insert(flow.bytes_delivered());
        }
    }

    fn on_sample(&mut self) {
        let now = self.now;
        let t = to_secs(now);
        let interval_s = to_secs(now - self.last_sample);
        self.last_sample = now;
        let trace = &mut self.link_trace;
        for (id, at_last_sample) in &mut self.sampled {
            let link = &mut self.links[*id as usize];
            // Served without events: the packets that started before now have left (as
            // the transmission-complete events before this sample would have taken them).
            link.queue.depart_before(now);
            let link = &*link;
            let c = link.queue.counters_at(now);
            let p = *at_last_sample;
            *at_last_sample = c;
            let departed_bytes = (c.departure_bytes - p.departure_bytes) as f64;
            trace.time_s.push(t);
            trace.link.push(*id);
            trace.queue_packets.push(link.queue.len_packets() as f64);
            trace.queue_bytes.push(link.queue.len_bytes() as f64);
            trace.average_queue.push(link.queue.average_queue());
            trace.drop_probability.push(link.queue.drop_probability());
            trace.arrivals.push((c.arrivals - p.arrivals) as f64);
            trace.drops.push((c.dropped() - p.dropped()) as f64);
            trace.marks.push((c.marked - p.marked) as f64);
            trace.departures.push((c.departures - p.departures) as f64);
            trace.departed_bytes.push(departed_bytes);
            trace.utilisation.push(departed_bytes * 8.0 / (link.rate_bps as f64 * interval_s));
            trace.virtual_queue.push(link.queue.virtual_queue());
            let departed = c.departures - p.departures;
            let sojourn_ns = (c.sojourn_ns_sum - p.sojourn_ns_sum) as f64;
            trace.sojourn_s.push(if departed > 0 { sojourn_ns / departed as f64 / 1e9 } else { f64::NAN });
        }
        let flows = &mut self.flow_trace;
        let traced = self.flows.iter().zip(&mut self.crossed_samples).enumerate();
        for (id, (flow, crossed)) in traced {
            flows.time_s.push(t);
            flows.flow.push(id as u32);
            // As the sender was before an ACK taken inline that crossed this sample.
            let values = crossed.take(now).unwrap_or_else(|| SenderSample::of(flow));
            flows.cwnd.push(values.cwnd);
            flows.ssthresh.push(values.ssthresh);
            flows.srtt_s.push(values.srtt_s);
            flows.rtt_s.push(values.rtt_s);
        }
        let next = now + self.sample_interval;
        if next <= self.duration {
            self.events.schedule(next, Event::Sample);
        }
    }

    /// Each flow's two-way propagation delay (ns), in flow order: the delays of the links its
    /// data and its acknowledgements cross, without serialisation or queueing. With an RTT
    /// spread it is the RTT `topology.rs` `attach_group` drew for the flow (up to the 1 ns its
    /// equal split between access and receiver link rounds away): what a second simulator
    /// needs to give each flow the same path (benchmarks/ns2/ns2_mapping.py).
    pub fn propagation_rtts_ns(&self) -> Vec<Time> {
        let route_delay = |route: RouteId| -> Time {
            self.routes.links(route).iter().map(|&link| self.links[link as usize].delay).sum()
        };
        self.flows.iter().map(|flow| route_delay(flow.route) + route_delay(flow.reverse_route)).collect()
    }

    /// Packet conservation counters at this instant.
    pub fn counters(&self) -> Counters {
        let now = self.now;
        // Served without events, a link's queued packets are in a propagation FIFO already
        // (its own or, computed inline, a later link's); event-driven, in its queue's buffer.
        let waiting: u64 = self.links.iter().filter(|l| l.event_free).map(|l| l.queue.waiting_at_end(now)).sum();
        let buffered: u64 = self.links.iter().filter(|l| !l.event_free).map(|l| l.queue.len_packets() as u64).sum();
        let queued = waiting + buffered;
        let in_flight: u64 = self.links.iter().map(Link::propagation_len).sum::<u64>() - waiting;
        Counters {
            packets_created: self.created,
            packets_delivered: self.delivered,
            packets_dropped: self.links.iter().map(|l| l.queue.counters.dropped()).sum(),
            packets_queued: queued,
            packets_in_flight: in_flight,
            events: self.events_processed,
        }
    }

    /// Everything recorded so far, as columns; the traces are cloned, so the simulation can go on.
    pub fn results(&self) -> Results {
        assert!(!self.traces_taken, "the traces were moved out by take_results: keep what it returned");
        self.results_with_traces(self.link_trace.clone(), self.flow_trace.clone())
    }

    /// The results of a complete run, its traces moved out instead of cloned (issue 28: the
    /// clone cost 0.012 s of dumbbell-60's hand-over, 0.059 s on a 500-s run). `None` while the
    /// simulation can still record (before its end, or with events left at its end time: it
    /// keeps its traces, use `results`) and once they have been taken: the first call's results
    /// are the run's, to be kept by the caller.
    pub fn take_results(&mut self) -> Option<Results> {
        let duration = self.duration;
        let complete = self.finished() && self.events.next_time().is_none_or(|next| next > duration);
        if !complete || self.traces_taken {
            return None;
        }
        self.traces_taken = true;
        let link_trace = std::mem::take(&mut self.link_trace);
        let flow_trace = std::mem::take(&mut self.flow_trace);
        Some(self.results_with_traces(link_trace, flow_trace))
    }

    /// The results: the given traces, and the flow and link records and counters as they are now.
    fn results_with_traces(&self, link_trace: LinkTrace, flow_trace: FlowTrace) -> Results {
        let mut flows = FlowRecords::default();
        for (id, flow) in self.flows.iter().enumerate() {
            let stats = flow.tcp().map(|sender| sender.stats).unwrap_or_default();
            flows.flow.push(id as u32);
            flows.group.push(flow.group);
            let traced: Vec<&str> = (self.routes.links(flow.route).iter())
                .map(|&link| &self.links[link as usize])
                .filter(|link| link.monitored)
                .map(|link| link.name.as_str())
                .collect();
            flows.core_links.push(traced.join(","));
            flows.start_s.push(if flow.started() { to_secs(flow.start) } else { f64::NAN });
            flows.end_s.push(flow.ended_at().map_or(f64::NAN, to_secs));
            flows.bytes_delivered.push(flow.bytes_delivered() as f64);
            flows.bytes_delivered_at_measure_start.push(flow.delivered_at_measure_start.map_or(f64::NAN, |b| b as f64));
            let segments_sent = match &flow.ends {
                Ends::Tcp { .. } => stats.segments_sent,
                Ends::Udp { source, .. } => source.datagrams_sent,
            };
            flows.segments_sent.push(segments_sent as f64);
            flows.retransmits.push(stats.retransmits as f64);
            flows.timeouts.push(stats.timeouts as f64);
            flows.fast_recoveries.push(stats.fast_recoveries as f64);
            flows.ecn_reductions.push(stats.ecn_reductions as f64);
            let rtt_mean = match &flow.ends {
                Ends::Tcp { .. } if stats.rtt_samples > 0 => stats.rtt_sum_ns as f64 / stats.rtt_samples as f64 / 1e9,
                // UDP: mean one-way delay (there are no round trips).
                Ends::Udp { sink, .. } if sink.datagrams > 0 => sink.delay_sum_ns as f64 / sink.datagrams as f64 / 1e9,
                _ => f64::NAN,
            };
            flows.rtt_mean_s.push(rtt_mean);
        }
        let mut links = LinkRecords::default();
        for (id, link) in self.links.iter().enumerate() {
            let c = link.queue.counters_at_end(self.now);
            links.link.push(id as u32);
            links.role.push(link.role.name());
            links.name.push(link.name.clone());
            links.rate_bps.push(link.rate_bps as f64);
            links.delay_s.push(to_secs(link.delay));
            links.monitored.push(link.monitored);
            links.arrivals.push(c.arrivals as f64);
            links.enqueued.push(c.enqueued as f64);
            links.dropped.push(c.dropped() as f64);
            links.marked.push(c.marked as f64);
            links.departures.push(c.departures as f64);
            links.dropped_on_dequeue.push(c.dropped_on_dequeue as f64);
        }
        Results {
            link_trace,
            flow_trace,
            flows,
            links,
            counters: self.counters(),
            packet_trace: self.packet_trace.as_ref().map(|recorder| recorder.table(self.now)),
        }
    }

    pub fn measure_start(&self) -> Time {
        self.measure_start
    }
}

/// The sender of a TCP flow takes `ack` at `at`, with the ACK's SACK blocks from the store
/// where they wait at its receiver (docs/sack.md).
fn sender_takes_ack(ends: &mut Ends, ack: &Packet, at: Time, out: &mut Vec<Packet>) {
    let Ends::Tcp { sender, receiver } = ends else { unreachable!("an ACK for a UDP flow") };
    if ack.sack == 0 {
        sender.on_ack(ack, at, out);
    } else {
        let blocks = receiver.sack_store.take(ack.sack).unwrap_or_default();
        sender.on_ack_with_sack(ack, blocks.as_slice(), at, out);
    }
}

/// How many flow routes (data and ACK) cross each link.
fn route_uses(network: &topology::Network) -> Vec<u32> {
    let mut uses = vec![0u32; network.links.len()];
    for spec in &network.flows {
        for route in [spec.forward_route, spec.reverse_route] {
            for &link in &network.routes[route as usize] {
                uses[link as usize] += 1;
            }
        }
    }
    uses
}

/// Mark the links whose data is delivered to a receiver computed inline
/// (`Link::delivers_inline`): the last link of one flow's data route, used by no other route,
/// served without events; the flow a TCP flow without delayed ACKs (no timer: its receiver is
/// a function of the data it gets, in order); the first link of its ACK route used by no
/// other route, served without events and untraced (the ACKs offered there ahead of time
/// are in order, and no trace sees them early).
fn mark_inline_receivers(network: &mut topology::Network, uses: &[u32]) {
    for spec in &network.flows {
        let Transport::Tcp { tcp, .. } = &spec.transport else { continue };
        let (last, chain) = inline_end(network, uses, spec.forward_route, spec.reverse_route);
        network.links[last].delivers_inline = !tcp.delayed_ack && chain;
    }
}

/// The TCP end between route `arriving` (which delivers to it) and route `leaving` (whose
/// first link takes what it sends), as the inline receivers and senders need it: the last
/// link of `arriving` and the first of `leaving` each used by that route alone and served
/// without events, the first of `leaving` untraced. Returns the last link of `arriving` and
/// whether those hold.
fn inline_end(network: &topology::Network, uses: &[u32], arriving: u32, leaving: u32) -> (usize, bool) {
    let last = *network.routes[arriving as usize].last().expect("a non-empty route") as usize;
    let first = network.routes[leaving as usize][0] as usize;
    let leaving_link = &network.links[first];
    let chain = uses[last] == 1
        && uses[first] == 1
        && network.links[last].event_free
        && leaving_link.event_free
        && !leaving_link.monitored;
    (last, chain)
}

/// Mark the links their upstream computes (`Link::inline`): served without events, not
/// traced (a trace sample must not see arrivals computed ahead of it), never the first link
/// of a route (a source sends at its own times) and always entered from the same link. The
/// project design, "Engine principles" (a link with one upstream can be computed by that
/// upstream; events belong where packets from several upstreams meet).
fn mark_inline_links(links: &mut [Link], routes: &[Vec<u32>]) {
    #[derive(Clone, Copy, PartialEq)]
    enum Upstream {
        Unused,
        One(u32),
        Several,
    }
    let mut upstream = vec![Upstream::Unused; links.len()];
    for route in routes {
        upstream[route[0] as usize] = Upstream::Several;
        for pair in route.windows(2) {
            let entry = &mut upstream[pair[1] as usize];
            *entry = match *entry {
                Upstream::Unused => Upstream::One(pair[0]),
                Upstream::One(from) if from == pair[0] => Upstream::One(from),
                _ => Upstream::Several,
            };
        }
    }
    for (link, upstream) in links.iter_mut().zip(upstream) {
        link.inline = link.event_free && !link.monitored && matches!(upstream, Upstream::One(_));
    }
}
