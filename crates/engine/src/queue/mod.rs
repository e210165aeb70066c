//! Queue disciplines.
//!
//! As in ns-3's queue discs, the base [`Queue`] does the FIFO, the limit and the counting
//! once; a [`QueuePolicy`] only decides, returning a [`Verdict`] with a typed reason.
//! Adding a policy is one file (its configuration struct implementing [`QueueKind`], the
//! policy implementing [`QueuePolicy`]) plus one line in the registry, [`QueueConfig`].

pub mod early;
pub mod params;
pub mod periodic;

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::packet::{Ecn, Packet};
use crate::registry::kind_registry;
use crate::rng::Rng;
use crate::time::Time;

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The buffer (packet or byte limit) was full.
    Overflow,
    /// An early, probabilistic drop (RED between the thresholds, random drop).
    Early,
    /// A forced drop (RED above the maximum threshold, non-gentle).
    Forced,
}

/// Why a packet was ECN-marked instead of dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkReason {
    Early,
    Forced,
}

/// The policy's decision for an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Enqueue,
    /// Enqueue and set CE (only returned for ECN-capable packets).
    Mark(MarkReason),
    Drop(DropReason),
}

/// The policy's decision for the packet at the head of the queue, about to be sent
/// (sojourn-time AQMs such as CoDel decide here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departure {
    Send,
    /// Send with CE set (only honoured for ECN-capable packets; others are dropped).
    Mark(MarkReason),
    /// Drop it and offer the next packet.
    Drop(DropReason),
}

/// What the policy did to a packet at the head of the queue, for per-packet traces
/// ([`Queue::dequeue_observed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtHead {
    Drop(DropReason),
    Mark(MarkReason),
}

/// What a policy may read of the queue it decides for.
#[derive(Clone, Copy, Debug)]
pub struct QueueView {
    /// Packets currently queued (not counting the one arriving).
    pub packets: u32,
    /// Bytes currently queued.
    pub bytes: u64,
    /// When the queue last became empty, if it is empty now (for RED's idle-time correction).
    pub idle_since: Option<Time>,
    /// Serialisation rate of the link the queue feeds, bits per second.
    pub link_rate_bps: u64,
}

/// A queue-management policy: decides on arrival (and optionally on departure).
pub trait QueuePolicy: Send + Sync {
    /// Decide what happens to `packet`, which arrives at a queue in state `queue` at `now`.
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict;

    /// The packet the policy accepted was dropped because the buffer was full.
    fn on_overflow(&mut self) {}

    /// `packet` has just been taken from the head of the queue (`queue` no longer counts
    /// it; `packet.enqueued_at` gives its sojourn time). Return whether it is sent, marked
    /// or dropped; after a drop the next head is offered in turn.
    fn on_dequeue(&mut self, _packet: &Packet, _queue: &QueueView, _now: Time, _rng: &mut Rng) -> Departure {
        Departure::Send
    }

    /// The policy's averaged queue length in packets (or bytes in byte mode), for traces.
    fn average_queue(&self) -> f64 {
        f64::NAN
    }

    /// The policy's current drop/mark probability, for traces.
    fn drop_probability(&self) -> f64 {
        f64::NAN
    }

    /// The length of the policy's virtual queue (E-RED, AVQ), packets or bytes, for traces.
    fn virtual_queue(&self) -> f64 {
        f64::NAN
    }

    /// The policy decides only at arrival: it keeps the default [`QueuePolicy::on_dequeue`]
    /// (every head is sent, no state changes at dequeue) and reads nothing that changes
    /// between a packet's arrival and its departure. A FIFO link with such a policy is a
    /// closed-form function of its arrivals (Lindley's recursion, [`Queue::offer_lindley`]):
    /// it needs no transmission-complete event (the project design, "Engine principles"). A
    /// policy that acts at dequeue (CoDel, PIE, or one catching up periodic updates at
    /// dequeue: PI, REM) keeps the default `false` and event-driven service.
    fn decides_at_arrival(&self) -> bool {
        false
    }

    /// `on_arrival` returns [`Verdict::Enqueue`] for every packet and changes nothing
    /// (DropTail): the queue then does not call it, nor build the view it would read (a
    /// dynamic call on every hop of every per-flow edge link; issue 28, stop 4).
    fn admits_every_arrival(&self) -> bool {
        false
    }
}

/// Buffer limit of a queue.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    Packets(u32),
    Bytes(u64),
}

/// Context a policy may need at construction (for automatic parameters).
#[derive(Clone, Copy, Debug)]
pub struct LinkContext {
    pub rate_bps: u64,
    /// Mean packet size used to convert rates to packets per second.
    pub mean_packet_bytes: u32,
}

/// What the unit tests of a policy feed it: the queue and the packets of the link it decides for.
#[cfg(test)]
impl LinkContext {
    /// A busy queue of `packets` packets of the mean size feeding this link.
    pub(crate) fn queue_of(&self, packets: u32) -> QueueView {
        let bytes = packets as u64 * self.mean_packet_bytes as u64;
        QueueView { packets, bytes, idle_since: None, link_rate_bps: self.rate_bps }
    }

    /// A data packet of the mean size, not ECN-capable, enqueued at time 0.
    pub(crate) fn data_packet(&self) -> Packet {
        Packet::test_data(self.mean_packet_bytes, Ecn::NotEct, 0)
    }
}

/// A kind of queue policy, declared by its configuration struct in the kind's own file: what
/// the registry ([`QueueConfig`]) needs of it.
pub trait QueueKind {
    /// The buffer limit of the queue.
    fn limit(&self) -> Limit;
    /// The policy of this configuration, for a queue feeding `link`; `field` names the
    /// configuration in errors about its parameters.
    fn build(&self, link: LinkContext, field: &str) -> Result<Box<dyn QueuePolicy>>;
}

/// `impl QueueKind` for the configuration struct of a kind, in the kind's file:
/// `queue_kind!(|config: Config, link, field| limit, policy)`, where `limit` is the buffer limit
/// of `config` and `policy` builds the policy (`Result<Policy>`) from `config`, the `link` the
/// queue feeds and the `field` to name in errors.
macro_rules! queue_kind {
    (|$config:ident: $ty:ty, $link:pat_param, $field:pat_param| $limit:expr, $policy:expr) => {
        impl $crate::queue::QueueKind for $ty {
            fn limit(&self) -> $crate::queue::Limit {
                let $config = self;
                $limit
            }
            fn build(
                &self,
                $link: $crate::queue::LinkContext,
                $field: &str,
            ) -> $crate::error::Result<Box<dyn $crate::queue::QueuePolicy>> {
                let $config = self;
                Ok(Box::new($policy?))
            }
        }
    };
}
pub(crate) use queue_kind;

kind_registry! {
    /// Scenario description of a queue discipline (resolved units: packets, bytes,
    /// probabilities): the registry of queue kinds, one line a kind (`crate::registry`).
    pub enum QueueConfig: dyn QueueKind {
        /// Accept every packet; the base queue drops on overflow.
        DropTail("drop_tail", droptail::DropTailConfig),
        /// Random Early Detection (Floyd & Jacobson 1993; ns-2 `queue/red.cc`).
        Red("red", red::RedConfig),
        /// A fixed drop probability (seed 003 Section II-B).
        RandomDrop("random_drop", random_drop::RandomDropConfig),
        /// The PI controller (Hollot et al., INFOCOM 2001).
        Pi("pi", pi::PiConfig),
        /// Random Exponential Marking (Athuraliya et al. 2001; ns-2 `queue/rem.cc`).
        Rem("rem", rem::RemConfig),
        /// Controlled Delay (RFC 8289), at dequeue.
        Codel("codel", codel::CodelConfig),
        /// Proportional Integral controller Enhanced (RFC 8033).
        Pie("pie", pie::PieConfig),
        /// Drop at and above a queue threshold (seed 000 Section VI).
        Threshold("threshold", threshold::ThresholdConfig),
        /// Exponential RED on a virtual queue (seed 002 Section IV-B/C).
        Ered("ered", ered::EredConfig),
        /// RED on a virtual queue served at γ·C (seed 002 Section V-A).
        RedVq("red_vq", redvq::RedVqConfig),
        /// Adaptive RED (Floyd, Gummadi & Shenker 2001; ns-2 `red.cc`).
        AdaptiveRed("adaptive_red", adaptive_red::AdaptiveRedConfig),
        /// Adaptive Virtual Queue (Kunniyur & Srikant, SIGCOMM 2001).
        Avq("avq", avq::AvqConfig),
        Python("python", external::ExternalQueueConfig),
    }
}

impl QueueConfig {
    pub fn limit(&self) -> Limit {
        self.kind().limit()
    }
}

/// Build a policy from its configuration (its kind's [`QueueKind::build`]).
pub fn build_policy(config: &QueueConfig, link: LinkContext, field: &str) -> Result<Box<dyn QueuePolicy>> {
    config.kind().build(link, field)
}

/// Counters kept by every queue (cumulative since the start of the run). `repr(C)`: the ones
/// every packet of a link served without events touches (arrivals, admissions, departures and
/// their bytes, the sojourn sum) in the first 64 bytes, with the overflow drops of a full
/// edge-link buffer, and the other drop and mark counters after them, so that Lindley's step
/// reads one line of them (`sim/prefetch.rs`, `INLINE_LINK_LINES`; issue 28, stop 6).
///
/// A queue served without events (`Queue::offer_lindley`) counts a packet's departure, its
/// bytes and its sojourn when it admits it (its start is known then); the packets that have
/// not started yet are taken off by `Queue::counters_at` and `Queue::counters_at_end`, which is
/// how its counters are to be read (issue 28, stop 7: the ring's entries need not be read
/// when the packets start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct QueueCounters {
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub enqueued: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    pub dropped_overflow: u64,
    /// Sum of the queueing (sojourn) times of departed packets, ns. 128 bits: a u64 would
    /// wrap after 1.8e19 ns of summed sojourn (about 6 h at 100 Gb/s with 100 ms queues).
    /// At byte 48: six `u64` before it, so the 16-byte alignment costs no padding.
    pub sojourn_ns_sum: u128,
    pub dropped_early: u64,
    pub dropped_forced: u64,
    pub marked: u64,
    /// Of `marked`, those the policy forced (for per-packet traces, which tell mark reasons).
    pub marked_forced: u64,
    /// Drops decided when packets reached the head of the queue (sojourn-time AQMs).
    pub dropped_on_dequeue: u64,
}

/// The counters every packet of a link served without events moves end within the first line
/// of the counters.
const _: () = assert!(std::mem::offset_of!(QueueCounters, sojourn_ns_sum) + 16 == 64);

impl QueueCounters {
    pub fn dropped(&self) -> u64 {
        self.dropped_overflow + self.dropped_early + self.dropped_forced
    }
}

/// A packet admitted by a queue served without events ([`Queue::offer_lindley`]) whose
/// transmission has not started yet.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    /// When its transmission starts (it leaves the queue): max(arrival, previous departure).
    starts: Time,
    arrived: Time,
    size_bytes: u32,
}

/// A FIFO queue with a limit, counters and a policy. `repr(C)`: the fields every packet of a
/// link served without events touches, in this order, right after the link's (see
/// `link::Link`): the ring, the bytes queued, the idle instant, the limit and the flag saying
/// whether the policy is called (64 bytes), then the counters every packet moves (64 bytes);
/// what only a policy that decides (a view of the queue, the policy itself) or an event-driven
/// link reads (its buffer) comes last. Most links, the per-flow edge links above all, are
/// DropTail links served without events: they read two lines of their queue, not three
/// (issue 28, stop 6).
///
/// Two ways of serving it: event-driven (`enqueue`, `pass_through`, `dequeue` when the link
/// finishes a packet: `fifo` holds the packets) or, for a policy that decides at arrival,
/// without events (`offer_lindley`: every departure is known at arrival, `waiting` holds
/// when each admitted packet not yet sent will start). One of the two buffers is always empty.
#[repr(C)]
pub struct Queue {
    waiting: VecDeque<Waiting>,
    bytes: u64,
    /// When the queue last became empty, if it is empty now; `NOT_IDLE` otherwise (an
    /// `Option<Time>` took 16 bytes of the record, this takes 8; `Queue::idle_since`).
    idle: Time,
    /// The buffer limit ([`Limit`]): packets, or bytes if `limit_in_bytes` (a `Limit` takes 16
    /// bytes, these two 9, which leaves room for the flag below in the same 16).
    limit: u64,
    limit_in_bytes: bool,
    /// [`QueuePolicy::admits_every_arrival`], asked once.
    admits_every_arrival: bool,
    /// Served without events: the packets the ring held when it was last read
    /// (`Queue::settle`), all waiting then.
    waiting_when_read: u32,
    pub counters: QueueCounters,
    link_rate_bps: u64,
    policy: Box<dyn QueuePolicy>,
    fifo: VecDeque<Packet>,
}

/// What Lindley's step of a DropTail queue reads ends where the counters every packet moves
/// end: two lines from the start of the queue.
const _: () = assert!(std::mem::offset_of!(Queue, counters) == 64);

/// Entries the ring of a queue served without events may gain between two reads (`Queue::settle`):
/// 16 entries of 24 bytes, six cache lines.
const RING_SLACK: usize = 16;

/// `Queue::idle` of a queue that is not empty (no instant of a run is this late:
/// `Scenario::check_bounds` caps durations far below it).
const NOT_IDLE: Time = Time::MAX;

impl Queue {
    pub fn new(limit: Limit, link_rate_bps: u64, policy: Box<dyn QueuePolicy>) -> Self {
        // Start empty and grow with use: most links of a large topology (per-flow access and
        // receiver links) hold no packet most of the time (an idle link puts a packet straight
        // on the wire through the queue), and reserving their whole limit up front cost 48 KB
        // per link (386 MB for 2000 flows); even 16 packets each were 3 KB per flow.
        let (limit, limit_in_bytes) = match limit {
            Limit::Packets(packets) => (u64::from(packets), false),
            Limit::Bytes(bytes) => (bytes, true),
        };
        Queue {
            fifo: VecDeque::new(),
            bytes: 0,
            waiting: VecDeque::new(),
            limit,
            limit_in_bytes,
            idle: 0,
            link_rate_bps,
            admits_every_arrival: policy.admits_every_arrival(),
            waiting_when_read: 0,
            policy,
            counters: QueueCounters::default(),
        }
    }

    /// When the queue last became empty, if it is empty now (RED's idle-time correction).
    #[inline(always)]
    pub fn idle_since(&self) -> Option<Time> {
        (self.idle != NOT_IDLE).then_some(self.idle)
    }

    /// Packets queued (not yet on the wire), whichever way the queue is served.
    #[inline(always)]
    fn queued(&self) -> usize {
        self.fifo.len() + self.waiting.len()
    }

    /// [`Queue::queued`] of a queue served the way `EVENT_DRIVEN` says: the other buffer is
    /// empty, and not reading its header keeps Lindley's step off the record's last lines (a
    /// cache miss on every hop of a per-flow edge link; issue 28, stop 6).
    #[inline(always)]
    fn queued_as<const EVENT_DRIVEN: bool>(&self) -> usize {
        if EVENT_DRIVEN {
            self.fifo.len()
        } else {
            self.waiting.len()
        }
    }

    fn view<const EVENT_DRIVEN: bool>(&self) -> QueueView {
        QueueView {
            packets: self.queued_as::<EVENT_DRIVEN>() as u32,
            bytes: self.bytes,
            idle_since: self.idle_since(),
            link_rate_bps: self.link_rate_bps,
        }
    }

    fn fits<const EVENT_DRIVEN: bool>(&self, packet: &Packet) -> bool {
        if self.limit_in_bytes {
            self.bytes + packet.size_bytes as u64 <= self.limit
        } else {
            (self.queued_as::<EVENT_DRIVEN>() as u64) < self.limit
        }
    }

    /// Count an arriving packet and decide on it: the policy's verdict, a mark turned into a
    /// drop for a packet that is not ECN-capable, the buffer limit. A dropped packet is counted;
    /// an admitted one carries CE if marked, and, if `EVENT_DRIVEN`, its enqueue time (read
    /// only when it leaves an event-driven queue: `leave`, and the policies' `on_dequeue`).
    /// `EVENT_DRIVEN` also says which buffer holds the queue (`queued_as`).
    #[inline(always)]
    fn admit<const EVENT_DRIVEN: bool>(&mut self, packet: &mut Packet, now: Time, rng: &mut Rng) -> Verdict {
        self.counters.arrivals += 1;
        self.counters.arrival_bytes += packet.size_bytes as u64;
        let mut verdict = if self.admits_every_arrival {
            Verdict::Enqueue
        } else {
            let view = self.view::<EVENT_DRIVEN>();
            self.policy.on_arrival(packet, &view, now, rng)
        };
        if let Verdict::Mark(_) = verdict {
            if packet.ecn == Ecn::NotEct {
                // A policy may only mark ECN-capable packets (RFC 3168 Section 5).
                verdict = Verdict::Drop(DropReason::Early);
            }
        }
        if !matches!(verdict, Verdict::Drop(_)) && !self.fits::<EVENT_DRIVEN>(packet) {
            verdict = Verdict::Drop(DropReason::Overflow);
            self.policy.on_overflow();
        }
        match verdict {
            Verdict::Drop(reason) => self.count_drop(reason),
            Verdict::Mark(_) | Verdict::Enqueue => {
                if let Verdict::Mark(reason) = verdict {
                    packet.ecn = Ecn::Ce;
                    self.counters.marked += 1;
                    self.counters.marked_forced += u64::from(reason == MarkReason::Forced);
                }
                if EVENT_DRIVEN {
                    packet.enqueued_at = now;
                }
                self.idle = NOT_IDLE;
                self.counters.enqueued += 1;
            }
        }
        verdict
    }

    /// The policy's decision on `packet`, just taken from the head (`view` no longer counts
    /// it): true if it is sent (with CE if marked), false if dropped (counted).
    /// `observe` hears of the drop or mark (per-packet traces; a no-op closure otherwise).
    #[inline(always)]
    fn leave(
        &mut self,
        packet: &mut Packet,
        view: &QueueView,
        now: Time,
        rng: &mut Rng,
        observe: &mut impl FnMut(&Packet, AtHead),
    ) -> bool {
        let mut departure = self.policy.on_dequeue(packet, view, now, rng);
        if let Departure::Mark(reason) = departure {
            if packet.ecn == Ecn::NotEct {
                // RFC 3168 Section 5: only ECN-capable packets may be marked.
                departure = Departure::Drop(DropReason::Early);
            } else {
                packet.ecn = Ecn::Ce;
                self.counters.marked += 1;
                self.counters.marked_forced += u64::from(reason == MarkReason::Forced);
                observe(packet, AtHead::Mark(reason));
            }
        }
        if let Departure::Drop(reason) = departure {
            observe(packet, AtHead::Drop(reason));
            self.count_drop(reason);
            self.counters.dropped_on_dequeue += 1;
            return false;
        }
        self.counters.departures += 1;
        self.counters.departure_bytes += packet.size_bytes as u64;
        self.counters.sojourn_ns_sum += u128::from(now - packet.enqueued_at);
        true
    }

    /// Offer a packet to the queue. Returns the verdict; on `Drop` the packet is gone.
    pub fn enqueue(&mut self, mut packet: Packet, now: Time, rng: &mut Rng) -> Verdict {
        let verdict = self.admit::<true>(&mut packet, now, rng);
        if !matches!(verdict, Verdict::Drop(_)) {
            self.bytes += packet.size_bytes as u64;
            self.fifo.push_back(packet);
        }
        verdict
    }

    /// Offer a packet to this queue while it is empty and its link idle, and take it straight
    /// back for transmission: exactly [`Queue::enqueue`] followed by [`Queue::dequeue`] at
    /// the same instant (same policy calls with the same views, same counters; the sojourn is
    /// 0), without touching the FIFO's buffer. Most hops of a large topology cross an idle
    /// per-flow edge link, and the buffer is a separate allocation: one cache miss saved per
    /// hop (benchmarks/scale/README.md). Returns the packet to transmit, or `None` if the
    /// policy or the limit dropped it.
    pub fn pass_through(&mut self, mut packet: Packet, now: Time, rng: &mut Rng) -> Option<Packet> {
        debug_assert!(self.fifo.is_empty(), "pass_through on a non-empty queue");
        if let Verdict::Drop(_) = self.admit::<true>(&mut packet, now, rng) {
            return None;
        }
        // `dequeue` of that single packet: the policy sees the queue empty again.
        let view = QueueView { packets: 0, bytes: 0, idle_since: None, link_rate_bps: self.link_rate_bps };
        if self.leave(&mut packet, &view, now, rng, &mut |_, _| {}) {
            return Some(packet);
        }
        // `dequeue` finds the queue empty after the drop: idle from now (ns-2).
        self.idle = now;
        None
    }

    /// The link went idle at `since` with this queue empty (ns-2: the link asked for a
    /// packet and found none). Used when the engine skips that request for an idle link.
    pub fn note_idle_since(&mut self, since: Time) {
        if self.fifo.is_empty() && self.idle == NOT_IDLE {
            self.idle = since;
        }
    }

    /// Take the head packet for transmission, after the policy's dequeue decision (which
    /// may drop heads). As in ns-2, a queue asked for a packet when it has none becomes
    /// idle from that instant (RED's idle-time correction uses it).
    pub fn dequeue(&mut self, now: Time, rng: &mut Rng) -> Option<Packet> {
        self.dequeue_observed(now, rng, |_, _| {})
    }

    /// [`Queue::dequeue`], telling `observe` of every head the policy drops or marks (for
    /// per-packet traces).
    #[inline(always)]
    pub fn dequeue_observed(
        &mut self,
        now: Time,
        rng: &mut Rng,
        mut observe: impl FnMut(&Packet, AtHead),
    ) -> Option<Packet> {
        loop {
            let Some(mut packet) = self.fifo.pop_front() else {
                if self.idle == NOT_IDLE {
                    self.idle = now;
                }
                return None;
            };
            self.bytes -= packet.size_bytes as u64;
            let view = self.view::<true>();
            if self.leave(&mut packet, &view, now, rng, &mut observe) {
                return Some(packet);
            }
        }
    }

    /// Whether the queue can be served without events ([`QueuePolicy::decides_at_arrival`]).
    pub fn decides_at_arrival(&self) -> bool {
        self.policy.decides_at_arrival()
    }

    /// Offer a packet arriving at `now` to a queue served without events, on a link whose
    /// last admitted packet finishes its transmission at `busy_until`. Returns when the
    /// packet's transmission starts, or `None` if it was dropped (counted).
    ///
    /// Lindley's recursion: the n-th packet starts at S_n = max(A_n, D_{n-1}) and departs at
    /// D_n = S_n + L_n/C (the caller adds L_n/C with the link's `Serialiser`, which carries
    /// the sub-nanosecond remainder). The policy sees exactly what the event-driven queue
    /// would show it at `now`: the packets admitted earlier whose transmission starts at or
    /// after `now` (a transmission starting at `now` is counted waiting, as when the arrival
    /// event runs before the link's transmission-complete event at the same instant) and,
    /// if none is waiting and the link is idle, idle since the last departure (ns-2, as
    /// [`Queue::note_idle_since`]). Only for policies that decide at arrival: `on_dequeue`
    /// is not called. An admitted packet's departure is counted at once (`QueueCounters`).
    pub fn offer_lindley(&mut self, packet: &mut Packet, now: Time, busy_until: Time, rng: &mut Rng) -> Option<Time> {
        debug_assert!(self.fifo.is_empty() && self.policy.decides_at_arrival());
        self.settle(now, busy_until);
        if self.waiting.is_empty() {
            // Idle since the link finished its last packet, or busy with one (never idle
            // while a packet is being sent: it was admitted, which clears `idle`).
            self.idle = if busy_until <= now { busy_until } else { NOT_IDLE };
        }
        // No enqueue time: this queue never dequeues, and the next queue stamps its own.
        // Written here, just before the caller copies the packet onto the wire, the stamp
        // stalled that copy (a wide load over a narrower store not yet in the cache: no store
        // forwarding; issue 28, stop 4).
        if let Verdict::Drop(_) = self.admit::<false>(packet, now, rng) {
            return None;
        }
        let starts = now.max(busy_until);
        self.counters.departures += 1;
        self.counters.departure_bytes += packet.size_bytes as u64;
        if starts != now {
            // Waits: in the ring until it starts (straight onto the wire otherwise, as
            // `pass_through`, sojourn 0).
            self.counters.sojourn_ns_sum += u128::from(starts - now);
            self.bytes += packet.size_bytes as u64;
            self.waiting.push_back(Waiting { starts, arrived: now, size_bytes: packet.size_bytes });
        }
        Some(starts)
    }

    /// Before Lindley's step at `now` on a link busy until `busy_until`: take out of the ring
    /// the packets that started before `now`, as far as the step needs it, reading the ring's
    /// entries (a separate heap buffer: on a per-flow edge link each first read is a cache
    /// miss, 73 % of this step's samples at 10 000 flows; issue 28, stop 7) only when it must:
    ///
    /// - the link finished its last packet before `now`: every packet in the ring has started
    ///   (S_k <= D_last = `busy_until` < `now`), so the ring empties without being read (its
    ///   departures were counted at admission);
    /// - a policy that admits every arrival with a limit in packets reads only whether the
    ///   queue is below its limit: while the ring (the waiting packets and some that started
    ///   since) holds fewer than the limit, so does the queue, and the ring is left as it is
    ///   until it holds [`RING_SLACK`] entries more than when it was last read (its memory
    ///   stays bounded: at 10 000 flows an access link's limit of 1000 packets would be 24 KB
    ///   a link). Then the packets that started are taken out in one pass over consecutive
    ///   entries, not one entry at each step;
    /// - otherwise (a policy reading the queue, a limit in bytes): [`Queue::depart_before`].
    ///
    /// What the step then sees is what the event-driven queue shows: the waiting count and
    /// bytes are exact whenever they are read (the limit, a policy's view), the idle instant
    /// is set when the ring empties (with packets in the ring and the link busy, the packet
    /// offered is admitted, which clears it in either case).
    #[inline(always)]
    fn settle(&mut self, now: Time, busy_until: Time) {
        if self.waiting.is_empty() {
            return;
        }
        if busy_until < now {
            self.waiting.clear();
            self.bytes = 0;
            self.waiting_when_read = 0;
            return;
        }
        let held = self.waiting.len() as u64;
        let below_limit_unread = self.admits_every_arrival
            && !self.limit_in_bytes
            && held < self.limit
            && held < u64::from(self.waiting_when_read) + RING_SLACK as u64;
        if !below_limit_unread {
            self.depart_before(now);
        }
    }

    /// Take out of the ring of a queue served without events the packets whose transmission
    /// started before `now` (what the link's transmission-complete events did when they ran;
    /// their departures were counted when they were admitted).
    pub fn depart_before(&mut self, now: Time) {
        while let Some(&w) = self.waiting.front() {
            if w.starts >= now {
                break;
            }
            self.waiting.pop_front();
            self.bytes -= w.size_bytes as u64;
        }
        self.waiting_when_read = self.waiting.len() as u32;
    }

    /// The counters of a queue served without events as the event-driven queue shows them
    /// with the packets of the ring for which `not_started` holds still waiting: their
    /// departures (counted at admission) taken off. Those packets are the ring's last ones
    /// (transmissions start in order).
    fn counters_without(&self, not_started: impl Fn(&Waiting) -> bool) -> QueueCounters {
        let mut c = self.counters;
        for w in self.waiting.iter().rev().take_while(|w| not_started(w)) {
            c.departures -= 1;
            c.departure_bytes -= w.size_bytes as u64;
            c.sojourn_ns_sum -= u128::from(w.starts - w.arrived);
        }
        c
    }

    /// The counters at `now`, before the events at `now` (a sample): the packets starting at
    /// or after `now` have not departed.
    pub fn counters_at(&self, now: Time) -> QueueCounters {
        self.counters_without(|w| w.starts >= now)
    }

    /// The counters at the end of a run that stopped at `now`: every event at `now` has run,
    /// so the packets starting after `now` have not departed.
    pub fn counters_at_end(&self, now: Time) -> QueueCounters {
        self.counters_without(|w| w.starts > now)
    }

    /// Packets of a queue served without events still queued at the end of a run that
    /// stopped at `now`: admitted by `now` and starting after it (an upstream may have
    /// offered packets arriving later: they are still on its wire).
    pub fn waiting_at_end(&self, now: Time) -> u64 {
        self.waiting.iter().filter(|w| w.arrived <= now && w.starts > now).count() as u64
    }

    fn count_drop(&mut self, reason: DropReason) {
        match reason {
            DropReason::Overflow => self.counters.dropped_overflow += 1,
            DropReason::Early => self.counters.dropped_early += 1,
            DropReason::Forced => self.counters.dropped_forced += 1,
        }
    }

    /// Where the ring of a queue served without events takes its next entry, or about (for
    /// prefetching: past the ring's last entry; at its buffer's end, the ring wraps instead).
    #[inline(always)]
    pub fn next_waiting_entry(&self) -> *const u8 {
        let (first, second) = self.waiting.as_slices();
        let last = if second.is_empty() { first } else { second };
        last.as_ptr_range().end as *const u8
    }

    /// The packets at the head and the tail of the queue (for prefetching).
    pub fn ends(&self) -> (Option<&Packet>, Option<&Packet>) {
        (self.fifo.front(), self.fifo.back())
    }

    /// Packets queued (served without events: as of the last `depart_before`; between two,
    /// Lindley's step may leave in its ring packets that have started, `Queue::settle`).
    pub fn len_packets(&self) -> u32 {
        self.queued() as u32
    }

    pub fn len_bytes(&self) -> u64 {
        self.bytes
    }

    /// Packets and bytes queued at `now`, before the events at `now`, whether or not
    /// `depart_before(now)` ran (the ring may hold packets that have started, `Queue::settle`).
    /// For the tests that compare it with the event-driven queue: the engine itself reads the
    /// queue after `depart_before`.
    #[cfg(test)]
    pub fn queued_at(&self, now: Time) -> (u32, u64) {
        let (started, started_bytes) = self
            .waiting
            .iter()
            .take_while(|w| w.starts < now)
            .fold((0, 0), |(packets, bytes), w| (packets + 1, bytes + w.size_bytes as u64));
        ((self.queued() - started) as u32, self.bytes - started_bytes)
    }

    pub fn limit(&self) -> Limit {
        if self.limit_in_bytes {
            Limit::Bytes(self.limit)
        } else {
            Limit::Packets(self.limit as u32)
        }
    }

    pub fn average_queue(&self) -> f64 {
        self.policy.average_queue()
    }

    pub fn drop_probability(&self) -> f64 {
        self.policy.drop_probability()
    }

    pub fn virtual_queue(&self) -> f64 {
        self.policy.virtual_queue()
    }
}

#[cfg(test)]
pub(crate) mod pass_through_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    /// A dequeue-side AQM for tests: drops the heads `first`, `first + every`, ... and marks
    /// the others with `mark`.
    pub(super) struct DropsEveryNthHead {
        pub(super) first: u64,
        pub(super) every: u64,
        pub(super) mark: MarkReason,
        pub(super) heads: u64,
    }

    impl QueuePolicy for DropsEveryNthHead {
        fn on_arrival(&mut self, _: &Packet, _: &QueueView, _: Time, _: &mut Rng) -> Verdict {
            Verdict::Enqueue
        }
        fn on_dequeue(&mut self, _: &Packet, _: &QueueView, _: Time, _: &mut Rng) -> Departure {
            self.heads += 1;
            if self.heads >= self.first && (self.heads - self.first).is_multiple_of(self.every) {
                Departure::Drop(DropReason::Early)
            } else {
                Departure::Mark(self.mark)
            }
        }
    }

    fn packet(ecn: Ecn) -> Packet {
        Packet::test_data(1000, ecn, 0)
    }

    /// A DropTail link kept busy for 10 000 packets with two or three waiting: its ring keeps
    /// the packets that started unread (`Queue::settle`), but never more than `RING_SLACK`
    /// beyond those waiting when it was last read, and the counters read at any instant are
    /// those of the packets started by then.
    #[test]
    fn a_busy_drop_tail_ring_holds_at_most_its_slack_of_started_packets() {
        let mut queue = Queue::new(Limit::Packets(1000), 8_000_000_000, Box::new(droptail::DropTail));
        let mut rng = stream(1, StreamKind::Queue, 0);
        // 1000-byte packets take 1000 ns; two arrive every 2000 ns, so the link never idles.
        let (mut busy_until, mut longest, mut sojourn) = (0, 0, 0u128);
        for n in 0..10_000u64 {
            let now = n / 2 * 2_000;
            let starts = queue.offer_lindley(&mut packet(Ecn::Ect), now, busy_until, &mut rng).unwrap();
            busy_until = starts + 1_000;
            sojourn += u128::from(starts - now);
            longest = longest.max(queue.waiting.len());
            let started_by_now = n + 1 - queue.queued_at(now).0 as u64;
            assert_eq!(queue.counters_at(now).departures, started_by_now);
        }
        assert!(longest > 3, "the ring was read at every step: {longest} entries at most");
        assert!(longest <= 3 + RING_SLACK, "the ring grew to {longest} entries");
        assert_eq!(queue.counters_at_end(busy_until).sojourn_ns_sum, sojourn);
        assert_eq!(queue.counters_at_end(busy_until).departures, 10_000);
    }

    #[test]
    fn dequeue_decisions_drop_heads_mark_ect_and_count_sojourn() {
        let mut queue = Queue::new(
            Limit::Packets(10),
            1_000_000,
            Box::new(DropsEveryNthHead { first: 1, every: 2, mark: MarkReason::Early, heads: 0 }),
        );
        let mut rng = stream(1, StreamKind::Queue, 0);
        for ecn in [Ecn::Ect, Ecn::Ect, Ecn::Ect, Ecn::NotEct] {
            queue.enqueue(packet(ecn), 1_000, &mut rng);
        }
        // Heads 1 and 3 are dropped and 2 is marked; 4 would be marked but is not
        // ECN-capable, so it is dropped (RFC 3168 Section 5).
        let sent: Vec<Packet> = std::iter::from_fn(|| queue.dequeue(5_000, &mut rng)).collect();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].ecn, Ecn::Ce);
        let c = queue.counters;
        assert_eq!((c.arrivals, c.enqueued, c.dropped_early, c.dropped_on_dequeue, c.marked), (4, 4, 3, 3, 1));
        assert_eq!(c.departures, 1);
        assert_eq!(c.sojourn_ns_sum, 4_000);
        assert_eq!(queue.len_packets(), 0);
        assert_eq!(queue.len_bytes(), 0);
    }

    #[test]
    fn the_sojourn_sum_does_not_wrap_past_u64() {
        // ~6 h at 100 Gb/s with 100 ms queues sums more than u64::MAX ns (issue 17).
        let mut queue = Queue::new(Limit::Packets(10), 1_000_000, Box::new(droptail::DropTail));
        let mut rng = stream(1, StreamKind::Queue, 0);
        queue.counters.sojourn_ns_sum = u64::MAX as u128 - 10;
        queue.enqueue(packet(Ecn::NotEct), 0, &mut rng);
        queue.dequeue(1_000, &mut rng);
        assert_eq!(queue.counters.sojourn_ns_sum, u64::MAX as u128 + 990);
    }
}
