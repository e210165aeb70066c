//! The per-packet trace (`trace.packets`, issue 31) as a dict of typed memoryview columns
//! (as every other result column, so NumPy is not needed to hand it over); the Python
//! layer (`aqmlab.traces`) builds the Arrow table from it.

use aqmlab_engine::packet_trace::PacketTrace;
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub fn to_dict(py: Python<'_>, trace: PacketTrace) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    macro_rules! put {
        ($($name:ident),*) => { $( dict.set_item(stringify!($name), crate::column(py, &trace.$name)?)?; )* };
    }
    put!(
        time_ns,
        event,
        reason,
        link,
        flow,
        kind,
        seq,
        size_bytes,
        ecn,
        flags,
        sent_ns,
        sack_blocks,
        sack_edges,
        link_from_node,
        link_to_node,
        flow_source_node,
        flow_sink_node
    );
    Ok(dict)
}
