//! A queue policy written as a Python class (`aqmlab.extensions.QueuePolicy`), called by the
//! engine through `queue::QueuePolicy`.

use aqmlab_engine::external::ExternalFactory;
use aqmlab_engine::packet::{Ecn, Packet, PacketKind};
use aqmlab_engine::queue::external::ExternalQueueConfig;
use aqmlab_engine::queue::{Departure, DropReason, LinkContext, MarkReason, QueuePolicy, QueueView, Verdict};
use aqmlab_engine::rng::Rng;
use aqmlab_engine::time::{to_secs, Time};
use aqmlab_engine::Result;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::{build_hooked, optional_method, Factory, HookSite};

/// The queue as a Python policy sees it at a decision (valid during the call only).
#[pyclass(module = "aqmlab._engine")]
pub struct QueueState {
    /// Simulated time, s.
    #[pyo3(get)]
    now: f64,
    /// Packets queued (not counting the packet decided on).
    #[pyo3(get)]
    packets: u32,
    /// Bytes queued.
    #[pyo3(get)]
    bytes: u64,
    /// How long the queue has been empty, s (0 when it is not).
    #[pyo3(get)]
    idle_time: f64,
    /// Rate of the link the queue feeds, bits/s.
    #[pyo3(get)]
    link_rate_bps: u64,
    /// The link's random stream for this call (copied back to the link after it).
    rng: Rng,
}

#[pymethods]
impl QueueState {
    /// A number uniform in [0, 1) from the link's own random stream: the draw a built-in
    /// policy on this link would make (`rng.gen::<f64>()`).
    fn uniform(&mut self) -> f64 {
        aqmlab_engine::rng::RngCore::gen::<f64>(&mut self.rng)
    }
}

/// The packet decided on (valid during the call only).
#[pyclass(module = "aqmlab._engine")]
pub struct PacketView {
    #[pyo3(get)]
    flow: u32,
    /// Size on the wire, bytes.
    #[pyo3(get)]
    size: u32,
    /// Data: segment number; ACK: the next segment expected.
    #[pyo3(get)]
    seq: u64,
    #[pyo3(get)]
    is_ack: bool,
    /// ECT or CE: the packet may be marked instead of dropped (RFC 3168 Section 5).
    #[pyo3(get)]
    ecn_capable: bool,
    /// When it entered the queue, s (at dequeue: its sojourn is `queue.now - enqueued_at`).
    #[pyo3(get)]
    enqueued_at: f64,
}

/// The verdicts of `aqmlab.extensions` (ACCEPT, MARK, DROP_EARLY, DROP_FORCED; None = ACCEPT).
const ALLOWED: &str = "aqmlab.extensions.ACCEPT, MARK, DROP_EARLY or DROP_FORCED (None: ACCEPT)";

fn verdict_code(result: &Bound<'_, PyAny>, hook: &str) -> PyResult<u8> {
    if result.is_none() {
        return Ok(0);
    }
    match result.extract::<i64>() {
        Ok(code @ 0..=3) => Ok(code as u8),
        _ => Err(PyValueError::new_err(format!("{hook} returned {}; allowed: {ALLOWED}", result.repr()?))),
    }
}

pub struct PythonPolicy {
    on_enqueue: Py<PyAny>,
    on_dequeue: Option<Py<PyAny>>,
    on_overflow: Option<Py<PyAny>>,
    average_queue: Option<Py<PyAny>>,
    drop_probability: Option<Py<PyAny>>,
    decides_at_arrival: bool,
    state: Py<QueueState>,
    packet: Py<PacketView>,
    site: HookSite,
}

impl ExternalFactory<dyn QueuePolicy> for Factory {
    fn build(&self, config: &ExternalQueueConfig, _link: LinkContext, field: &str) -> Result<Box<dyn QueuePolicy>> {
        build_hooked("_build_queue_policy", &config.policy, &config.params, field, "policy", |object, site| {
            let py = object.py();
            let state = QueueState {
                now: 0.0,
                packets: 0,
                bytes: 0,
                idle_time: 0.0,
                link_rate_bps: 0,
                rng: aqmlab_engine::rng::stream(0, aqmlab_engine::rng::StreamKind::Queue, 0),
            };
            let packet = PacketView { flow: 0, size: 0, seq: 0, is_ack: false, ecn_capable: false, enqueued_at: 0.0 };
            let policy: Box<dyn QueuePolicy> = Box::new(PythonPolicy {
                on_enqueue: object.getattr("on_enqueue")?.unbind(),
                on_dequeue: optional_method(object, "on_dequeue")?,
                on_overflow: optional_method(object, "on_overflow")?,
                average_queue: optional_method(object, "average_queue")?,
                drop_probability: optional_method(object, "drop_probability")?,
                decides_at_arrival: object.getattr("decides_at_arrival")?.is_truthy()?,
                state: Py::new(py, state)?,
                packet: Py::new(py, packet)?,
                site,
            });
            Ok(policy)
        })
    }
}

impl PythonPolicy {
    /// Call `method(queue, packet)` with the current state and `rng`; the verdict code, or
    /// None after a failure (kept by the `site`).
    fn decide(
        &self,
        method: &Py<PyAny>,
        hook: &str,
        packet: &Packet,
        queue: &QueueView,
        now: Time,
        rng: &mut Rng,
    ) -> Option<u8> {
        if self.site.failed() {
            return None;
        }
        Python::with_gil(|py| {
            let state = self.state.bind(py);
            {
                let mut s = state.borrow_mut();
                s.now = to_secs(now);
                s.packets = queue.packets;
                s.bytes = queue.bytes;
                s.idle_time = match queue.idle_since {
                    Some(since) if now > since => to_secs(now - since),
                    _ => 0.0,
                };
                s.link_rate_bps = queue.link_rate_bps;
                s.rng = rng.clone();
            }
            let view = self.packet.bind(py);
            {
                let mut p = view.borrow_mut();
                p.flow = packet.flow;
                p.size = packet.size_bytes;
                p.seq = packet.seq;
                p.is_ack = packet.kind == PacketKind::Ack;
                p.ecn_capable = packet.ecn != Ecn::NotEct;
                p.enqueued_at = to_secs(packet.enqueued_at);
            }
            let result = method.bind(py).call1((state, view)).and_then(|r| verdict_code(&r, hook));
            *rng = state.borrow().rng.clone();
            match result {
                Ok(code) => Some(code),
                Err(error) => {
                    self.site.fail(error, hook, now);
                    None
                }
            }
        })
    }

    /// A trace measure (`average_queue()`, `drop_probability()`), NaN when not defined.
    fn measure(&self, method: &Option<Py<PyAny>>, hook: &str) -> f64 {
        let Some(method) = method else { return f64::NAN };
        if self.site.failed() {
            return f64::NAN;
        }
        Python::with_gil(|py| match method.bind(py).call0().and_then(|v| v.extract::<f64>()) {
            Ok(value) => value,
            Err(error) => {
                self.site.fail(error, hook, 0);
                f64::NAN
            }
        })
    }
}

impl QueuePolicy for PythonPolicy {
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict {
        match self.decide(&self.on_enqueue, "on_enqueue", packet, queue, now, rng) {
            Some(1) => Verdict::Mark(MarkReason::Early),
            Some(2) => Verdict::Drop(DropReason::Early),
            Some(3) => Verdict::Drop(DropReason::Forced),
            _ => Verdict::Enqueue,
        }
    }

    fn on_overflow(&mut self) {
        if let Some(method) = &self.on_overflow {
            if self.site.failed() {
                return;
            }
            Python::with_gil(|py| {
                if let Err(error) = method.bind(py).call0() {
                    self.site.fail(error, "on_overflow", 0);
                }
            });
        }
    }

    fn on_dequeue(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Departure {
        let Some(method) = &self.on_dequeue else { return Departure::Send };
        match self.decide(method, "on_dequeue", packet, queue, now, rng) {
            Some(1) => Departure::Mark(MarkReason::Early),
            Some(2) => Departure::Drop(DropReason::Early),
            Some(3) => Departure::Drop(DropReason::Forced),
            _ => Departure::Send,
        }
    }

    fn average_queue(&self) -> f64 {
        self.measure(&self.average_queue, "average_queue")
    }

    fn drop_probability(&self) -> f64 {
        self.measure(&self.drop_probability, "drop_probability")
    }

    fn decides_at_arrival(&self) -> bool {
        self.decides_at_arrival
    }
}
