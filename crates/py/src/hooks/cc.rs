//! A window law written as a Python class (`aqmlab.extensions.WindowLaw`), called by the
//! engine's shared TCP sender through `tcp::cc::CongestionControl`. The class keeps cwnd and
//! ssthresh as attributes; they are read back after every hook.

use aqmlab_engine::external::ExternalFactory;
use aqmlab_engine::tcp::cc::external::ExternalCcConfig;
use aqmlab_engine::tcp::cc::{AckEvent, CcInit, CongestionControl, CongestionEvent, Window};
use aqmlab_engine::time::{to_secs, Time};
use aqmlab_engine::Result;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;

use super::{build_hooked, Factory, HookSite, RandomStream};

/// What the sender knows when an ACK acknowledges new data (`tcp::cc::AckEvent`).
#[pyclass(module = "aqmlab._engine", frozen)]
pub struct AckView {
    /// Simulated time, s.
    #[pyo3(get)]
    now: f64,
    /// Segments newly acknowledged (the cumulative ACK's advance).
    #[pyo3(get)]
    acked: u64,
    /// Segments newly delivered (RFC 6937 DeliveredData: with SACK, also newly SACKed ones).
    #[pyo3(get)]
    delivered: u64,
    /// The RTT sample this ACK carries, s (None without one).
    #[pyo3(get)]
    rtt: Option<f64>,
    /// Smallest RTT so far, s (0 before the first sample).
    #[pyo3(get)]
    min_rtt: f64,
    /// Smoothed RTT (RFC 6298), s (0 before the first sample).
    #[pyo3(get)]
    srtt: f64,
    /// Segments in flight after this ACK.
    #[pyo3(get)]
    in_flight: u64,
    /// The ACK echoes a mark (only with `ecn_per_ack = True`).
    #[pyo3(get)]
    ece: bool,
}

/// What the sender knows at a congestion event (`tcp::cc::CongestionEvent`).
#[pyclass(module = "aqmlab._engine", frozen)]
pub struct CongestionView {
    #[pyo3(get)]
    now: f64,
    /// Segments in flight when congestion was detected (FlightSize, RFC 5681 eq. (4)).
    #[pyo3(get)]
    in_flight: u64,
    #[pyo3(get)]
    srtt: f64,
    #[pyo3(get)]
    min_rtt: f64,
}

impl CongestionView {
    fn of(event: &CongestionEvent) -> Self {
        CongestionView {
            now: to_secs(event.now),
            in_flight: event.in_flight,
            srtt: to_secs(event.srtt_ns),
            min_rtt: to_secs(event.min_rtt_ns),
        }
    }
}

pub struct PythonLaw {
    object: Py<PyAny>,
    on_ack: Py<PyAny>,
    on_loss: Py<PyAny>,
    on_timeout: Py<PyAny>,
    on_ecn: Py<PyAny>,
    ecn_per_ack: bool,
    window: Window,
    site: HookSite,
}

impl ExternalFactory<dyn CongestionControl> for Factory {
    fn build(&self, config: &ExternalCcConfig, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        build_hooked("_build_window_law", &config.law, &config.params, field, "law", |object, site| {
            object.setattr("cwnd", init.initial_window)?;
            object.setattr("ssthresh", init.initial_ssthresh)?;
            object.setattr("rng", Py::new(object.py(), RandomStream { rng: init.rng.clone() })?)?;
            let law: Box<dyn CongestionControl> = Box::new(PythonLaw {
                on_ack: object.getattr("on_ack")?.unbind(),
                on_loss: object.getattr("on_loss")?.unbind(),
                on_timeout: object.getattr("on_timeout")?.unbind(),
                on_ecn: object.getattr("on_ecn")?.unbind(),
                ecn_per_ack: object.getattr("ecn_per_ack")?.is_truthy()?,
                window: Window::new(init.initial_window, init.initial_ssthresh),
                object: object.clone().unbind(),
                site,
            });
            Ok(law)
        })
    }
}

impl PythonLaw {
    /// Call `method(event)` and read cwnd and ssthresh back (None after a failure: the window
    /// stays as it was).
    fn call<E: pyo3::PyClass + Into<PyClassInitializer<E>>>(
        &self,
        method: &Py<PyAny>,
        hook: &str,
        event: E,
        now: Time,
    ) -> Option<Window> {
        if self.site.failed() {
            return None;
        }
        let outcome = Python::with_gil(|py| -> PyResult<Window> {
            method.bind(py).call1((Py::new(py, event)?,))?;
            let object = self.object.bind(py);
            let read = |name: &Bound<'_, pyo3::types::PyString>| -> PyResult<f64> {
                let value: f64 = object.getattr(name)?.extract()?;
                if value.is_finite() && value > 0.0 {
                    Ok(value)
                } else {
                    Err(PyValueError::new_err(format!("{hook} left {name} = {value}; allowed: a finite number > 0")))
                }
            };
            Ok(Window::new(read(intern!(py, "cwnd"))?, read(intern!(py, "ssthresh"))?))
        });
        match outcome {
            Ok(window) => Some(window),
            Err(error) => {
                self.site.fail(error, hook, now);
                None
            }
        }
    }
}

impl CongestionControl for PythonLaw {
    fn state(&self) -> &Window {
        &self.window
    }

    fn state_mut(&mut self) -> &mut Window {
        &mut self.window
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        let view = AckView {
            now: to_secs(ack.now),
            acked: ack.acked_segments,
            delivered: ack.delivered_segments,
            rtt: ack.rtt_sample_ns.map(to_secs),
            min_rtt: to_secs(ack.min_rtt_ns),
            srtt: to_secs(ack.srtt_ns),
            in_flight: ack.in_flight,
            ece: ack.ece,
        };
        if let Some(window) = self.call(&self.on_ack, "on_ack", view, ack.now) {
            self.window = window;
        }
    }

    fn on_loss(&mut self, event: &CongestionEvent) {
        if let Some(window) = self.call(&self.on_loss, "on_loss", CongestionView::of(event), event.now) {
            self.window = window;
        }
    }

    fn on_rto(&mut self, event: &CongestionEvent) {
        if let Some(window) = self.call(&self.on_timeout, "on_timeout", CongestionView::of(event), event.now) {
            self.window = window;
        }
    }

    fn on_ecn(&mut self, event: &CongestionEvent) {
        if let Some(window) = self.call(&self.on_ecn, "on_ecn", CongestionView::of(event), event.now) {
            self.window = window;
        }
    }

    fn ecn_per_ack(&self) -> bool {
        self.ecn_per_ack
    }
}
