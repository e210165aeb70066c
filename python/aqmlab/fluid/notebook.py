"""Jupyter display of a `FluidResult`: final states with units beside the first state's
time series (`FluidResult._repr_html_`, which finds `fluid_html` through `aqmlab._repr`,
registered in `aqmlab/__init__.py`: the result type does not import its display)."""

from __future__ import annotations

from typing import Any

from aqmlab import display
from aqmlab.notebook import new_figure, png, side_by_side


def fluid_html(result: Any) -> str:
    """Tail statistics of each state with units, beside the first state's time series."""
    from aqmlab.fluid.plots import axis_label, unit_of

    rows = [("model", result.model), ("points", display.number(result.n_points))]
    try:
        final = result.final()
        for index, name in enumerate(result.state_names[:6]):
            unit = unit_of(result, name)
            values = final[:, index]
            shown = display.number(float(values[0])) if values.size == 1 else f"{values.min():.4g} … {values.max():.4g}"
            rows.append((f"final {name}" + (f" [{unit}]" if unit and unit != "1" else ""), shown))
    except Exception:  # a display must never raise
        pass
    figure = new_figure(4.5, 2.6)
    axis = figure.subplots()
    name = result.state_names[0]
    values = result.state(name)
    for point in range(min(values.shape[0], 8)):
        axis.plot(result.times, values[point], lw=0.8)
    axis.set_xlabel("time (RTT steps)" if result.meta.get("time_unit") == "rtt" else "time (s)")
    axis.set_ylabel(axis_label(result, name))
    return side_by_side(display.html_table(rows), png(figure), f"FluidResult: {result.model}")
