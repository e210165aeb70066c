//! Thin PyO3 binding of the aqmlab engine: the private module `aqmlab._engine`.
//! All behaviour lives in `aqmlab-engine`; this file only converts types and errors.

use aqmlab_engine::trace::Results;
use aqmlab_engine::{EngineError, Simulation as EngineSimulation};
use numpy::IntoPyArray;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

create_exception!(_engine, ScenarioError, PyValueError, "The resolved scenario is invalid.");

/// The one place engine errors become Python exceptions.
fn to_py_err(error: EngineError) -> PyErr {
    ScenarioError::new_err(error.to_string())
}

/// One packet-level run of a resolved scenario (see `_engine.pyi`).
#[pyclass(module = "aqmlab._engine")]
struct Simulation {
    inner: EngineSimulation,
}

#[pymethods]
impl Simulation {
    #[new]
    fn new(scenario_json: &str, seed: u64) -> PyResult<Self> {
        EngineSimulation::from_json(scenario_json, seed).map(|inner| Simulation { inner }).map_err(to_py_err)
    }

    #[getter]
    fn now_ns(&self) -> u64 {
        self.inner.now()
    }

    #[getter]
    fn duration_ns(&self) -> u64 {
        self.inner.duration()
    }

    #[getter]
    fn finished(&self) -> bool {
        self.inner.finished()
    }

    #[getter]
    fn events_processed(&self) -> u64 {
        self.inner.events_processed()
    }

    /// Advance to min(t_ns, duration) with the GIL released; returns whether the run is finished.
    fn run_until(&mut self, py: Python<'_>, t_ns: u64) -> bool {
        let inner = &mut self.inner;
        py.allow_threads(move || inner.run_until(t_ns))
    }

    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        results_to_dict(py, self.inner.results())
    }
}

macro_rules! columns {
    ($py:expr, $source:expr, [$($name:ident),* $(,)?]) => {{
        let dict = PyDict::new($py);
        $( dict.set_item(stringify!($name), $source.$name.into_pyarray($py))?; )*
        dict
    }};
}

fn results_to_dict(py: Python<'_>, r: Results) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    let lt = r.link_trace;
    out.set_item(
        "link_trace",
        columns!(
            py,
            lt,
            [
                time_s,
                link,
                queue_packets,
                queue_bytes,
                average_queue,
                drop_probability,
                arrivals,
                drops,
                marks,
                departures,
                departed_bytes,
                utilisation,
                virtual_queue,
                sojourn_s
            ]
        ),
    )?;
    let ft = r.flow_trace;
    out.set_item("flow_trace", columns!(py, ft, [time_s, flow, cwnd, ssthresh, srtt_s, rtt_s]))?;
    let f = r.flows;
    let core_links = f.core_links.clone();
    out.set_item(
        "flows",
        columns!(
            py,
            f,
            [
                flow,
                group,
                start_s,
                end_s,
                bytes_delivered,
                bytes_delivered_at_measure_start,
                segments_sent,
                retransmits,
                timeouts,
                fast_recoveries,
                ecn_reductions,
                rtt_mean_s
            ]
        ),
    )?;
    out.get_item("flows")?.expect("just set").set_item("core_links", core_links)?;
    let l = r.links;
    let links = PyDict::new(py);
    links.set_item("role", l.role.clone())?;
    links.set_item("name", l.name.clone())?;
    let links_numeric = columns!(
        py,
        l,
        [link, rate_bps, delay_s, monitored, arrivals, enqueued, dropped, marked, departures, dropped_on_dequeue]
    );
    for (k, v) in links_numeric.iter() {
        links.set_item(k, v)?;
    }
    out.set_item("links", links)?;
    let c = r.counters;
    let counters = PyDict::new(py);
    counters.set_item("packets_created", c.packets_created)?;
    counters.set_item("packets_delivered", c.packets_delivered)?;
    counters.set_item("packets_dropped", c.packets_dropped)?;
    counters.set_item("packets_queued", c.packets_queued)?;
    counters.set_item("packets_in_flight", c.packets_in_flight)?;
    counters.set_item("events", c.events)?;
    out.set_item("counters", counters)?;
    Ok(out)
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_class::<Simulation>()?;
    Ok(())
}
