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
use pyo3::types::{PyDict, PyIterator, PyList, PyType};

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
    /// The results of the complete run, taken once with the traces moved out of the engine
    /// (`take_results`, issue 28) and handed out again by every later `results()`.
    complete_results: Option<Arc<Results>>,
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
        built.map(|inner| Simulation { inner, hooks, complete_results: None }).map_err(|e| to_py_err(py, e))
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
    /// A complete run hands its traces over by move, once (`take_results`); a run that can go
    /// on (stepped, paused, interrupted) keeps them and hands over a copy.
    fn results<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        if let Some(results) = &self.complete_results {
            return results_to_dict(py, Arc::clone(results));
        }
        let inner = &mut self.inner;
        let (results, complete) = py.allow_threads(move || match inner.take_results() {
            Some(results) => (results, true),
            None => (inner.results(), false),
        });
        let results = Arc::new(results);
        if complete {
            self.complete_results = Some(Arc::clone(&results));
        }
        results_to_dict(py, results)
    }
}

/// One table of the engine's results.
#[derive(Clone, Copy)]
enum Table {
    LinkTrace,
    FlowTrace,
    Flows,
    Links,
    PacketTrace,
}

impl Table {
    fn columns(self, results: &Results) -> Vec<(&'static str, Column<'_>)> {
        match self {
            Table::LinkTrace => results.link_trace.columns(),
            Table::FlowTrace => results.flow_trace.columns(),
            Table::Flows => results.flows.columns(),
            Table::Links => results.links.columns(),
            Table::PacketTrace => results.packet_trace.as_ref().map(|trace| trace.columns()).unwrap_or_default(),
        }
    }
}

/// A numeric column of the engine's results, handed over without a copy (issue 28): it
/// shares the results the engine returned (`Arc`), and NumPy takes it through
/// `__array_interface__` (the array keeps this object, and so the results, alive; Arrow then
/// takes the array). Also a read-only sequence of numbers (`len`, indexing, iteration,
/// `tolist`). Neither NumPy nor pyarrow is imported by the binding.
#[pyclass(module = "aqmlab._engine", frozen)]
struct EngineColumn {
    results: Arc<Results>,
    table: Table,
    index: usize,
}

impl EngineColumn {
    /// The column's values, borrowed from the shared results (never mutated once shared).
    fn with_values<R>(&self, read: impl FnOnce(&Column<'_>) -> R) -> R {
        let columns = self.table.columns(&self.results);
        read(&columns[self.index].1)
    }
}

/// Each numeric column's length, NumPy type string (`__array_interface__`, native byte order)
/// and address.
fn layout(values: &Column<'_>) -> (usize, &'static str, usize) {
    let native = |little: &'static str, big: &'static str| if cfg!(target_endian = "little") { little } else { big };
    match values {
        Column::F64(v) => (v.len(), native("<f8", ">f8"), v.as_ptr() as usize),
        Column::U64(v) => (v.len(), native("<u8", ">u8"), v.as_ptr() as usize),
        Column::U32(v) => (v.len(), native("<u4", ">u4"), v.as_ptr() as usize),
        Column::U8(v) => (v.len(), "|u1", v.as_ptr() as usize),
        Column::Bool(v) => (v.len(), "|b1", v.as_ptr() as usize),
        Column::Text(_) => unreachable!("text columns are handed over as lists of str"),
    }
}

/// Value `index` of a numeric column as a Python number (or bool).
fn item<'py>(py: Python<'py>, values: &Column<'_>, index: usize) -> PyResult<Bound<'py, PyAny>> {
    Ok(match values {
        Column::F64(v) => v[index].into_pyobject(py)?.into_any(),
        Column::U64(v) => v[index].into_pyobject(py)?.into_any(),
        Column::U32(v) => v[index].into_pyobject(py)?.into_any(),
        Column::U8(v) => v[index].into_pyobject(py)?.into_any(),
        Column::Bool(v) => v[index].into_pyobject(py)?.to_owned().into_any(),
        Column::Text(_) => unreachable!("text columns are handed over as lists of str"),
    })
}

#[pymethods]
impl EngineColumn {
    fn __len__(&self) -> usize {
        self.with_values(|values| layout(values).0)
    }

    /// NumPy's array interface (version 3): a read-only, one-dimensional array over the
    /// engine's own memory.
    #[getter]
    fn __array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (len, typestr, address) = self.with_values(layout);
        let interface = PyDict::new(py);
        interface.set_item("shape", (len,))?;
        interface.set_item("typestr", typestr)?;
        interface.set_item("data", (address, true))?;
        interface.set_item("version", 3)?;
        Ok(interface)
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        self.with_values(|values| {
            let len = layout(values).0;
            let position = if index < 0 { index + len as isize } else { index };
            if position < 0 || position >= len as isize {
                return Err(pyo3::exceptions::PyIndexError::new_err("column index out of range"));
            }
            item(py, values, position as usize)
        })
    }

    fn tolist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.with_values(|values| {
            let items = (0..layout(values).0).map(|index| item(py, values, index)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)
        })
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.tolist(py)?.try_iter()
    }
}

/// A result table as a dict of columns: numbers as `EngineColumn`s over the shared results,
/// text as lists of `str`.
fn table_to_dict<'py>(py: Python<'py>, results: &Arc<Results>, table: Table) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (index, (name, values)) in table.columns(results).into_iter().enumerate() {
        match values {
            Column::Text(values) => dict.set_item(name, values)?,
            _ => dict.set_item(name, EngineColumn { results: Arc::clone(results), table, index })?,
        }
    }
    Ok(dict)
}

fn results_to_dict(py: Python<'_>, r: Arc<Results>) -> PyResult<Bound<'_, PyDict>> {
    let c = r.counters;
    let traced_packets = r.packet_trace.is_some();
    let out = PyDict::new(py);
    out.set_item("link_trace", table_to_dict(py, &r, Table::LinkTrace)?)?;
    out.set_item("flow_trace", table_to_dict(py, &r, Table::FlowTrace)?)?;
    out.set_item("flows", table_to_dict(py, &r, Table::Flows)?)?;
    out.set_item("links", table_to_dict(py, &r, Table::Links)?)?;
    let counters = PyDict::new(py);
    counters.set_item("packets_created", c.packets_created)?;
    counters.set_item("packets_delivered", c.packets_delivered)?;
    counters.set_item("packets_dropped", c.packets_dropped)?;
    counters.set_item("packets_queued", c.packets_queued)?;
    counters.set_item("packets_in_flight", c.packets_in_flight)?;
    counters.set_item("events", c.events)?;
    out.set_item("counters", counters)?;
    if traced_packets {
        // The Python layer (`aqmlab.traces`) builds the Arrow table of the per-packet trace.
        out.set_item("packet_trace", table_to_dict(py, &r, Table::PacketTrace)?)?;
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

/// Registry -> kind -> the struct its configuration is read into, for every kind of the
/// engine's registries (`queue`, `cc`; `aqmlab_engine::fields::registered_kinds`).
#[pyfunction]
fn registered_kinds(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let registries = PyDict::new(py);
    for kind in aqmlab_engine::fields::registered_kinds() {
        let kinds = match registries.get_item(kind.registry)? {
            Some(kinds) => kinds.downcast_into::<PyDict>()?,
            None => {
                let kinds = PyDict::new(py);
                registries.set_item(kind.registry, &kinds)?;
                kinds
            }
        };
        kinds.set_item(kind.kind, kind.struct_name)?;
    }
    Ok(registries)
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
    m.add_class::<EngineColumn>()?;
    hooks::install(m)?;
    m.add_function(wrap_pyfunction!(scenario_fields, m)?)?;
    m.add_function(wrap_pyfunction!(registered_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(with_engine_defaults, m)?)?;
    Ok(())
}
