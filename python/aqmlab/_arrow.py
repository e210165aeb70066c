"""Arrow tables from numpy columns without pyarrow's pandas shim (issue 19's start-up budget).

`pa.array` and `pa.table` on Python or numpy input first ask pyarrow's pandas compatibility
layer whether the input is a pandas object, and that layer imports pandas the first time
(about 0.3 s of CPU, most of `aqmlab run`'s cost for a short simulation) even when pandas is
never used. `Array.from_buffers` does not ask: numeric and boolean numpy columns, columns of
strings and columns of integer lists are assembled here from their buffers, with the types
`pa.array` infers for them (so the tables, and the Parquet files written from them, are the
same); anything else goes through `pa.array`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

#: Arrow's 32-bit offsets: larger string or list columns are left to `pa.array`.
_MAX_OFFSET = 2**31 - 1


def table(columns: Mapping[str, Any]) -> pa.Table:
    """`pa.table(columns)` for a dict of numpy arrays (or sequences)."""
    names = list(columns)
    return pa.Table.from_arrays([column(columns[name]) for name in names], names=names)


def column(values: Any) -> pa.Array:
    """`pa.array(values)`, built from buffers where the type allows."""
    array = np.asarray(values) if not isinstance(values, np.ndarray) else values
    if array.ndim == 1:
        kind = array.dtype.kind
        if kind in "iuf":
            data = np.ascontiguousarray(array)
            return pa.Array.from_buffers(_numeric_type(data.dtype), len(data), [None, pa.py_buffer(data)])
        if kind == "b":
            bits = np.packbits(array.astype(np.bool_), bitorder="little")
            return pa.Array.from_buffers(pa.bool_(), len(array), [None, pa.py_buffer(bits)])
        if kind == "U" or (kind == "O" and all(isinstance(item, str) for item in array)):
            strings = _strings(array)
            if strings is not None:
                return strings
        if kind == "O" and len(array) and all(_is_int_list(item) for item in array):
            lists = _int_lists(array)
            if lists is not None:
                return lists
    return pa.array(values)


_NUMERIC = {
    np.dtype(np.int8): pa.int8(),
    np.dtype(np.int16): pa.int16(),
    np.dtype(np.int32): pa.int32(),
    np.dtype(np.int64): pa.int64(),
    np.dtype(np.uint8): pa.uint8(),
    np.dtype(np.uint16): pa.uint16(),
    np.dtype(np.uint32): pa.uint32(),
    np.dtype(np.uint64): pa.uint64(),
    np.dtype(np.float32): pa.float32(),
    np.dtype(np.float64): pa.float64(),
}


def _numeric_type(dtype: np.dtype) -> pa.DataType:
    return _NUMERIC[dtype.newbyteorder("=")] if dtype.byteorder in "=|" else _NUMERIC[dtype]


def _strings(array: np.ndarray) -> pa.Array | None:
    encoded = [str(item).encode() for item in array]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(item) for item in encoded], out=offsets[1:])
    if offsets[-1] > _MAX_OFFSET:
        return None
    data = b"".join(encoded)
    return pa.Array.from_buffers(
        pa.string(), len(encoded), [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)]
    )


def _is_int_list(item: Any) -> bool:
    if isinstance(item, np.ndarray):
        return item.ndim == 1 and item.dtype.kind in "iu"
    return isinstance(item, list | tuple) and all(
        isinstance(value, int | np.integer) and not isinstance(value, bool) for value in item
    )


def _int_lists(array: np.ndarray) -> pa.Array | None:
    lengths = [len(item) for item in array]
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if offsets[-1] > _MAX_OFFSET:
        return None
    flat = (
        np.concatenate([np.asarray(item, dtype=np.int64) for item in array]) if offsets[-1] else np.zeros(0, np.int64)
    )
    values = pa.Array.from_buffers(pa.int64(), len(flat), [None, pa.py_buffer(np.ascontiguousarray(flat))])
    return pa.Array.from_buffers(
        pa.list_(pa.int64()), len(lengths), [None, pa.py_buffer(offsets.astype(np.int32))], children=[values]
    )


_NUMPY = {arrow_type: dtype for dtype, arrow_type in _NUMERIC.items()}


def to_numpy(values: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """`values.to_numpy()`, read from the buffers for numeric and boolean columns without
    nulls (read-only, as pyarrow's zero-copy result is)."""
    array = _single(values)
    if array is not None and array.null_count == 0:
        if array.type in _NUMPY:
            dtype = _NUMPY[array.type]
            data = np.frombuffer(array.buffers()[1], dtype=dtype)
            return data[array.offset : array.offset + len(array)]
        if array.type == pa.bool_():
            bits = np.frombuffer(array.buffers()[1], dtype=np.uint8)
            return np.unpackbits(bits, bitorder="little")[array.offset : array.offset + len(array)].astype(np.bool_)
    return values.to_numpy()


def to_strings(values: pa.ChunkedArray | pa.Array) -> list[str]:
    """`values.to_pylist()` for a string column without nulls, read from its buffers."""
    array = _single(values)
    if array is not None and array.null_count == 0 and array.type == pa.string():
        _, offsets_buffer, data_buffer = array.buffers()
        offsets = np.frombuffer(offsets_buffer, dtype=np.int32)[array.offset : array.offset + len(array) + 1]
        data = data_buffer.to_pybytes() if data_buffer is not None else b""
        return [data[begin:end].decode() for begin, end in zip(offsets[:-1], offsets[1:], strict=True)]
    return values.to_pylist()


def _single(values: pa.ChunkedArray | pa.Array) -> pa.Array | None:
    if isinstance(values, pa.Array):
        return values
    if values.num_chunks == 1:
        return values.chunk(0)
    return None
