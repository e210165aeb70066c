"""The result of a batch fluid integration: times, states and parameters as numpy arrays,
Arrow tables (long format), tail statistics (mean, amplitude, period), save to Parquet."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from aqmlab import _repr
from aqmlab.fluid.models.base import FluidError

__all__ = ["FluidResult"]


@dataclass
class FluidResult:
    """``times``: (T,) seconds (or RTT steps for maps); ``states``: (B, T, n_states);
    ``params``: name -> (B,) arrays; ``derived``: name -> (B, T) (e.g. the probability p);
    ``delays``: name -> (B,) seconds; ``phase_delay``: (B,) delay for phase portraits."""

    model: str
    state_names: tuple[str, ...]
    times: np.ndarray
    states: np.ndarray
    params: dict[str, np.ndarray]
    derived: dict[str, np.ndarray] = field(default_factory=dict)
    delays: dict[str, np.ndarray] = field(default_factory=dict)
    phase_delay: np.ndarray | None = None
    meta: dict = field(default_factory=dict)

    # ---- access ---------------------------------------------------------------------
    @property
    def n_points(self) -> int:
        return self.states.shape[0]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.state_names) + tuple(self.derived)

    def state(self, name: str) -> np.ndarray:
        """(B, T) values of a state or derived quantity."""
        if name in self.state_names:
            return self.states[:, :, self.state_names.index(name)]
        if name in self.derived:
            return self.derived[name]
        raise FluidError(f"{name!r} is not a recorded quantity of {self.model}; allowed: {', '.join(self.names)}")

    def final(self) -> np.ndarray:
        """(B, n_states): the states at the last recorded time."""
        return self.states[:, -1, :]

    def _tail(self, tail: float) -> np.ndarray:
        if not 0 < tail <= 1:
            raise FluidError(f"tail = {tail!r}; allowed: a fraction in (0, 1]")
        start = self.times[0] + (1 - tail) * (self.times[-1] - self.times[0])
        return self.times >= start - 1e-12

    def mean(self, name: str, tail: float = 0.25) -> np.ndarray:
        """(B,) time average over the last ``tail`` fraction of the run."""
        return self.state(name)[:, self._tail(tail)].mean(axis=1)

    def amplitude(self, name: str, tail: float = 0.25) -> np.ndarray:
        """(B,) half the peak-to-peak excursion over the last ``tail`` fraction of the run."""
        values = self.state(name)[:, self._tail(tail)]
        return 0.5 * (values.max(axis=1) - values.min(axis=1))

    def period(self, name: str, tail: float = 0.5, min_amplitude: float = 1e-6) -> np.ndarray:
        """(B,) mean spacing of upward crossings of the tail mean (linear interpolation);
        NaN where the relative amplitude is below ``min_amplitude`` or fewer than two
        crossings occur."""
        mask = self._tail(tail)
        t = self.times[mask]
        out = np.full(self.n_points, np.nan)
        for b, values in enumerate(self.state(name)[:, mask]):
            mean = values.mean()
            if 0.5 * (values.max() - values.min()) <= min_amplitude * max(1.0, abs(mean)):
                continue
            x = values - mean
            up = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
            if up.size < 2:
                continue
            crossings = t[up] - x[up] * (t[up + 1] - t[up]) / (x[up + 1] - x[up])
            out[b] = float(np.mean(np.diff(crossings)))
        return out

    def lagged(self, name: str, delay=None) -> np.ndarray:
        """(B, T): the quantity at ``t - delay`` (linear interpolation of the samples; NaN
        before the first sample). ``delay`` defaults to ``phase_delay``."""
        values = self.state(name)
        delay = self.phase_delay if delay is None else np.broadcast_to(np.asarray(delay, dtype=float), (self.n_points,))
        out = np.empty_like(values)
        for b in range(self.n_points):
            out[b] = np.interp(self.times - delay[b], self.times, values[b], left=np.nan)
        return out

    # ---- tables -----------------------------------------------------------------------
    def to_arrow(self) -> pa.Table:
        """Long table: one row per (point, time) with every state and derived quantity."""
        n_times = self.times.size
        columns = {
            "point": pa.array(np.repeat(np.arange(self.n_points, dtype=np.int64), n_times)),
            "t": pa.array(np.tile(self.times, self.n_points)),
        }
        for name in self.names:
            columns[name] = pa.array(self.state(name).reshape(-1))
        return pa.table(columns, metadata={"model": self.model, "meta": json.dumps(_jsonable(self.meta))})

    def params_table(self) -> pa.Table:
        columns = {"point": pa.array(np.arange(self.n_points, dtype=np.int64))}
        columns.update({key: pa.array(value) for key, value in self.params.items()})
        columns.update(
            {f"delay_{key}": pa.array(value) for key, value in self.delays.items() if key not in self.params}
        )
        return pa.table(columns)

    def summary(self, tail: float = 0.25) -> pa.Table:
        """Per point: parameters, and for every quantity its tail mean, amplitude and period."""
        table = self.params_table()
        for name in self.names:
            table = table.append_column(f"{name}_mean", pa.array(self.mean(name, tail)))
            table = table.append_column(f"{name}_amplitude", pa.array(self.amplitude(name, tail)))
            table = table.append_column(f"{name}_period", pa.array(self.period(name, max(tail, 0.5))))
        return table

    def to_pandas(self):
        return self.to_arrow().to_pandas()

    def _repr_html_(self) -> str | None:
        """Jupyter: final states with units and the first state's time series (drawn by
        `aqmlab.fluid.notebook.fluid_html`, registered in `aqmlab/__init__.py`)."""
        return _repr.html(self)

    def to_polars(self):
        try:
            import polars as pl
        except ImportError:
            raise ImportError("to_polars needs polars: pip install 'aqmlab[polars]'") from None

        return pl.from_arrow(self.to_arrow())

    def save(self, directory: str | Path, *, overwrite: bool = False, extra=None) -> Path:
        """Write timeseries.parquet, params.parquet, summary.parquet and meta.json (and whatever
        ``extra(staging_dir)`` writes) into ``directory``, all or nothing."""
        directory = Path(directory)
        if directory.exists() and not overwrite:
            raise FluidError(f"out = {directory} exists; allowed: a new directory (or overwrite)")
        directory.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
        try:
            pq.write_table(self.to_arrow(), staging / "timeseries.parquet")
            pq.write_table(self.params_table(), staging / "params.parquet")
            pq.write_table(self.summary(), staging / "summary.parquet")
            meta = {
                "model": self.model,
                "states": list(self.state_names),
                "derived": list(self.derived),
                "points": self.n_points,
                **_jsonable(self.meta),
            }
            (staging / "meta.json").write_text(json.dumps(meta, indent=2))
            if extra is not None:
                extra(staging)
            if directory.exists():
                shutil.rmtree(directory)
            os.replace(staging, directory)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return directory


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value
