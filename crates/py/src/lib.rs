//! Thin PyO3 binding of the aqmlab engine: the private module `aqmlab._engine`.
//! All behaviour lives in `aqmlab-engine`; this file only converts types and errors.

mod hooks;

use std::sync::Arc;

use aqmlab_engine::sim::Stop;
use aqmlab_engine::table::Column;
use aqmlab_engine::trace::Results;
use aqmlab_engine::{EngineError, Simulation as EngineSimulation};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyDict, PyMemoryView, PyType};

/// `aqmlab.errors.ScenarioError`, looked up once when the module loads: engine errors are
/// the same class as the Python layer's (an `AqmlabError` and a `ValueError`).
static SCENARIO_ERROR: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// The one place engine errors become Python exceptions.
fn to_py_err(py: Python<'_>, error: EngineError) -> PyErr {
    match SCENARIO_ERROR.get(py) {
        Some(class) => PyErr::from_type(class.bind(py).clone(), error.to_string()),
        None => pyo3::exceptions::PyValueError::new_err(error.to_string()),
    }
}

/// Work (events + packets created) between two checks for Ctrl-C: a few milliseconds of
/// engine time, so an interrupt is honoured well within 0.5 s even inside one long chunk.
const WORK_PER_SIGNAL_CHECK: u64 = 1 << 16;

/// One packet-level run of a resolved scenario (see `_engine.pyi`).
#[pyclass(module = "aqmlab._engine")]
struct Simulation {
    inner: EngineSimulation,
    /// The Python hooks of its queue policies and window laws (`hooks`), if any.
    hooks: Arc<hooks::Hooks>,
}

#[pymethods]
impl Simulation {
    #[new]
    fn new(py: Python<'_>, scenario_json: &str, seed: u64) -> PyResult<Self> {
        let hooks = Arc::new(hooks::Hooks::default());
        let built = hooks::building(&hooks, || EngineSimulation::from_json(scenario_json, seed));
        if let Some(error) = hooks.take_error(py) {
            return Err(error); // user code failed while building: its own traceback
        }
        built.map(|inner| Simulation { inner, hooks }).map_err(|e| to_py_err(py, e))
    }

    #[getter]
    fn now_ns(&self) -> u64 {
        self.inner.now()
    }

    #[getter]
    fn duration_ns(&self) -> u64 {
        self.inner.duration()
    }

    /// Each flow's two-way propagation delay (ns), in flow order (`Simulation::propagation_rtts_ns`).
    #[getter]
    fn propagation_rtts_ns(&self) -> Vec<u64> {
        self.inner.propagation_rtts_ns()
    }

    #[getter]
    fn finished(&self) -> bool {
        self.inner.finished()
    }

    #[getter]
    fn events_processed(&self) -> u64 {
        self.inner.events_processed()
    }

    #[getter]
    fn work(&self) -> u64 {
        self.inner.work()
    }

    /// Stop for good once `work` reaches `limit` (see `run_until`).
    fn set_work_limit(&mut self, limit: u64) {
        self.inner.set_work_limit(limit);
    }

    #[getter]
    fn work_limit_reached(&self) -> bool {
        self.inner.work_limit_reached()
    }

    /// Advance to min(t_ns, duration), or until the work limit, with the GIL released;
    /// returns whether the run is finished. Between slices of work it takes the GIL back to
    /// run Python's signal handlers: Ctrl-C raises `KeyboardInterrupt` here within a few
    /// milliseconds, leaving the simulation between two events (its results can be taken).
    fn run_until(&mut self, py: Python<'_>, t_ns: u64) -> PyResult<bool> {
        loop {
            let inner = &mut self.inner;
            let stop = if self.hooks.used() {
                // Python hooks run on every packet: keep the GIL instead of taking it per call.
                inner.run_for(t_ns, WORK_PER_SIGNAL_CHECK)
            } else {
                py.allow_threads(move || inner.run_for(t_ns, WORK_PER_SIGNAL_CHECK))
            };
            if let Some(error) = self.hooks.take_error(py) {
                return Err(error); // the run failed in user code: no result is to be taken
            }
            py.check_signals()?;
            if stop != Stop::Slice {
                return Ok(self.inner.finished());
            }
        }
    }

    /// The results so far. Neither the columns nor the dictionaries run Python code, so no
    /// signal handler can raise in the middle (a Ctrl-C is seen by the next Python line).
    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let inner = &self.inner;
        let results = py.allow_threads(move || inner.results());
        results_to_dict(py, results)
    }
}

/// A column's element type as Python's `struct` module (and `memoryview.cast`) names it,
/// in native byte order, and its bytes.
trait Element: Copy {
    const FORMAT: &'static str;
    const SIZE: usize;
    fn write(self, out: &mut [u8]);
}

/// The numeric element types: their bytes in native byte order.
macro_rules! numeric_element {
    ($($type:ty => $format:literal),* $(,)?) => {$(
        impl Element for $type {
            const FORMAT: &'static str = $format;
            const SIZE: usize = std::mem::size_of::<$type>();
            fn write(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_ne_bytes());
            }
        }
    )*};
}

numeric_element!(f64 => "d", u32 => "I", u64 => "Q", u8 => "B");

impl Element for bool {
    const FORMAT: &'static str = "?";
    const SIZE: usize = 1;
    fn write(self, out: &mut [u8]) {
        out[0] = u8::from(self);
    }
}

/// A column as a typed, read-only `memoryview` over one `bytes` object: NumPy
/// (`np.asarray`) and Arrow (`pa.py_buffer`) take it without a copy, and neither has to be
/// imported for the engine to hand its results over (issue 28's hand-off).
fn column<'py, T: Element>(py: Python<'py>, values: &[T]) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyBytes::new_with(py, values.len() * T::SIZE, |out| {
        for (value, slot) in values.iter().zip(out.chunks_exact_mut(T::SIZE)) {
            value.write(slot);
        }
        Ok(())
    })?;
    PyMemoryView::from(&bytes)?.call_method1("cast", (T::FORMAT,))
}

/// A result table (`aqmlab_engine::table`) as a dict of columns: numbers as typed
/// memoryviews, text as lists of `str`.
fn table_to_dict<'py>(py: Python<'py>, columns: Vec<(&'static str, Column<'_>)>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, values) in columns {
        match values {
            Column::F64(values) => dict.set_item(name, column(py, values)?)?,
            Column::U64(values) => dict.set_item(name, column(py, values)?)?,
            Column::U32(values) => dict.set_item(name, column(py, values)?)?,
            Column::U8(values) => dict.set_item(name, column(py, values)?)?,
            Column::Bool(values) => dict.set_item(name, column(py, values)?)?,
            Column::Text(values) => dict.set_item(name, values)?,
        }
    }
    Ok(dict)
}

fn results_to_dict(py: Python<'_>, r: Results) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("link_trace", table_to_dict(py, r.link_trace.columns())?)?;
    out.set_item("flow_trace", table_to_dict(py, r.flow_trace.columns())?)?;
    out.set_item("flows", table_to_dict(py, r.flows.columns())?)?;
    out.set_item("links", table_to_dict(py, r.links.columns())?)?;
    let c = r.counters;
    let counters = PyDict::new(py);
    counters.set_item("packets_created", c.packets_created)?;
    counters.set_item("packets_delivered", c.packets_delivered)?;
    counters.set_item("packets_dropped", c.packets_dropped)?;
    counters.set_item("packets_queued", c.packets_queued)?;
    counters.set_item("packets_in_flight", c.packets_in_flight)?;
    counters.set_item("events", c.events)?;
    out.set_item("counters", counters)?;
    if let Some(trace) = r.packet_trace {
        // The Python layer (`aqmlab.traces`) builds the Arrow table of the per-packet trace.
        out.set_item("packet_trace", table_to_dict(py, trace.columns())?)?;
    }
    Ok(out)
}

/// Struct name -> the field names serde reads, for every struct of the resolved scenario
/// (`aqmlab_engine::fields`): what the Python declarations are tested against.
#[pyfunction]
fn scenario_fields(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let structs = PyDict::new(py);
    for (name, fields) in aqmlab_engine::fields::scenario_structs() {
        structs.set_item(name, fields.to_vec())?;
    }
    Ok(structs)
}

/// The resolved scenario `scenario_json` as the engine reads it, serialised back with every
/// field it leaves out filled with the engine's default (`aqmlab_engine::fields`).
#[pyfunction]
fn with_engine_defaults(py: Python<'_>, scenario_json: &str) -> PyResult<String> {
    aqmlab_engine::fields::with_engine_defaults(scenario_json).map_err(|e| to_py_err(py, e))
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let errors = py.import("aqmlab.errors")?;
    let class = errors.getattr("ScenarioError")?.downcast_into::<PyType>()?;
    m.add("ScenarioError", &class)?;
    SCENARIO_ERROR.get_or_init(py, || class.unbind());
    m.add_class::<Simulation>()?;
    hooks::install(m)?;
    m.add_function(wrap_pyfunction!(scenario_fields, m)?)?;
    m.add_function(wrap_pyfunction!(with_engine_defaults, m)?)?;
    Ok(())
}
