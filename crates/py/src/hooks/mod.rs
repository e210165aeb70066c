//! Queue policies and window laws written as Python classes (docs/extending.md).
//!
//! The engine builds them through the factories installed here in its registries of external
//! components (`queue::external::POLICIES`, `tcp::cc::external::LAWS`); `aqmlab.extensions` (Python) resolves the class reference, checks the
//! class and calls its constructor. An exception raised by user code is kept (the first
//! one), the hooks stop calling Python, and the binding raises it as one
//! `aqmlab.errors.UserCodeError` carrying the user's traceback when the current slice of
//! work ends (`Simulation::run_until`): the run fails and no result is taken from it.

mod cc;
mod queue;

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use aqmlab_engine::rng::{Rng, RngCore};
use aqmlab_engine::time::Time;
use pyo3::prelude::*;

/// Where a hook failed, for the message.
struct Failure {
    error: PyErr,
    /// e.g. "my_red.py:PyRed.on_enqueue"
    hook: String,
    /// The scenario field of the configuration, e.g. "topology.bottleneck.queue".
    field: String,
    at: Time,
}

/// The Python hooks of one simulation: whether any was built, and the first failure.
#[derive(Default)]
pub struct Hooks {
    used: AtomicBool,
    failed: AtomicBool,
    failure: Mutex<Option<Failure>>,
}

impl Hooks {
    /// Whether a Python hook of this simulation has raised (no hook calls Python after).
    #[inline(always)]
    fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// A user class that could not be built: its error kept for the run (with the user's
    /// traceback), and the engine's error naming `field.key` and the class reference.
    fn build_failed(&self, error: PyErr, reference: &str, field: &str, key: &str) -> aqmlab_engine::EngineError {
        let message = error.to_string();
        self.fail(error, format!("{reference} (building it)"), field, 0);
        aqmlab_engine::EngineError::invalid(format!("{field}.{key}"), reference, message)
    }

    /// Keep the first failure.
    fn fail(&self, error: PyErr, hook: String, field: &str, at: Time) {
        let mut slot = self.failure.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if slot.is_none() {
            *slot = Some(Failure { error, hook, field: field.to_string(), at });
        }
        self.failed.store(true, Ordering::Relaxed);
    }

    /// Whether the simulation calls Python hooks.
    pub fn used(&self) -> bool {
        self.used.load(Ordering::Relaxed)
    }

    /// The first failure as the exception to raise: `UserCodeError` with the user's traceback
    /// (a `KeyboardInterrupt` raised while a hook ran is passed on as it is).
    pub fn take_error(&self, py: Python<'_>) -> Option<PyErr> {
        if !self.failed() {
            return None;
        }
        let failure = self.failure.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()?;
        if failure.error.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
            return Some(failure.error);
        }
        let describe = || -> PyResult<PyErr> {
            // `into_value` attaches the traceback (the user's frames) to the exception.
            let error = py.import("aqmlab.extensions")?.getattr("_hook_error")?.call1((
                failure.error.clone_ref(py).into_value(py),
                &failure.hook,
                &failure.field,
                failure.at as f64 / 1e9,
            ))?;
            Ok(PyErr::from_value(error))
        };
        Some(describe().unwrap_or_else(|e| e))
    }
}

thread_local! {
    /// The hooks of the simulation being built on this thread (`building`).
    static BUILDING: RefCell<Option<Arc<Hooks>>> = const { RefCell::new(None) };
}

/// Run `build` (which builds a simulation) with `hooks` receiving its Python hooks.
pub fn building<T>(hooks: &Arc<Hooks>, build: impl FnOnce() -> T) -> T {
    BUILDING.with(|b| *b.borrow_mut() = Some(hooks.clone()));
    let built = build();
    BUILDING.with(|b| *b.borrow_mut() = None);
    built
}

/// The hooks of the simulation being built (marked used).
fn current_hooks() -> Arc<Hooks> {
    let hooks = BUILDING.with(|b| b.borrow().clone()).unwrap_or_default();
    hooks.used.store(true, Ordering::Relaxed);
    hooks
}

/// A random stream of the engine handed to Python: `uniform()` draws exactly what a
/// built-in component's `rng.gen::<f64>()` draws (53 random bits, [0, 1)).
#[pyclass(module = "aqmlab._engine")]
pub struct RandomStream {
    rng: Rng,
}

#[pymethods]
impl RandomStream {
    /// A number uniform in [0, 1).
    fn uniform(&mut self) -> f64 {
        self.rng.gen::<f64>()
    }
}

/// x to the integer power n as the engine computes it (`f64::powi`: square and multiply), so
/// that a Python port of a built-in policy rounds as the policy does.
#[pyfunction]
fn powi(x: f64, n: i32) -> f64 {
    x.powi(n)
}

/// Where the hooks of one user object report to: the class reference and the scenario field
/// (for messages) and the simulation's [`Hooks`].
struct HookSite {
    /// e.g. "my_red.py:PyRed"
    reference: String,
    /// e.g. "topology.bottleneck.queue"
    field: String,
    hooks: Arc<Hooks>,
}

impl HookSite {
    /// Whether a hook of this simulation has raised (then no hook calls Python).
    #[inline(always)]
    fn failed(&self) -> bool {
        self.hooks.failed()
    }

    /// Keep `error`, raised by the object's `hook` at simulated time `at`.
    fn fail(&self, error: PyErr, hook: &str, at: Time) {
        self.hooks.fail(error, format!("{}.{hook}", self.reference), &self.field, at);
    }
}

/// Build a component from a user class: `aqmlab.extensions.<builder>(reference, params,
/// field)` makes the object, then `wire` reads its hooks into the component. A failure in user
/// code (import, constructor, a missing hook) is the engine's error for `field.key`, with the
/// exception kept for the binding to raise with its traceback.
fn build_hooked<T: ?Sized>(
    builder: &str,
    reference: &str,
    params: &serde_json::Map<String, serde_json::Value>,
    field: &str,
    key: &str,
    wire: impl FnOnce(&Bound<'_, PyAny>, HookSite) -> PyResult<Box<T>>,
) -> aqmlab_engine::Result<Box<T>> {
    let hooks = current_hooks();
    Python::with_gil(|py| {
        let object = build_object(py, builder, reference, params, &format!("{field}.{key}"), &hooks)?;
        let site = HookSite { reference: reference.to_string(), field: field.to_string(), hooks: hooks.clone() };
        wire(&object, site).map_err(|error| hooks.build_failed(error, reference, field, key))
    })
}

/// The Python object of a hook: `aqmlab.extensions.<builder>(reference, params, field)`.
fn build_object<'py>(
    py: Python<'py>,
    builder: &str,
    reference: &str,
    params: &serde_json::Map<String, serde_json::Value>,
    field: &str,
    hooks: &Hooks,
) -> aqmlab_engine::Result<Bound<'py, PyAny>> {
    let attempt = || -> PyResult<Bound<'py, PyAny>> {
        let json = serde_json::to_string(params).expect("JSON values serialise");
        let params = py.import("json")?.getattr("loads")?.call1((json,))?;
        py.import("aqmlab.extensions")?.getattr(builder)?.call1((reference, params, field))
    };
    attempt().map_err(|error| {
        let message = error.to_string();
        hooks.fail(error, format!("{reference} (building it)"), field, 0);
        aqmlab_engine::EngineError::invalid(field, reference, message)
    })
}

/// A method of `object` if its class defines it (None for attributes set to None).
fn optional_method(object: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<Py<PyAny>>> {
    let method = object.getattr(name).ok().filter(|m| !m.is_none());
    Ok(method.map(Bound::unbind))
}

/// The factory of every kind of component written as a Python class (one registry each).
struct Factory;

/// Install the factories and add the classes of this module.
pub fn install(m: &Bound<'_, PyModule>) -> PyResult<()> {
    aqmlab_engine::queue::external::POLICIES.install(Box::new(Factory));
    aqmlab_engine::tcp::cc::external::LAWS.install(Box::new(Factory));
    m.add_class::<RandomStream>()?;
    m.add_class::<queue::QueueState>()?;
    m.add_class::<queue::PacketView>()?;
    m.add_class::<cc::AckView>()?;
    m.add_class::<cc::CongestionView>()?;
    m.add_function(wrap_pyfunction!(powi, m)?)?;
    Ok(())
}
