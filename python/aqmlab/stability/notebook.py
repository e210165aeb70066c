"""Jupyter display of the stability analysis (issue 30 item 6): `HopfPoint`, `Roots`, `Chart`,
`ScenarioStability` and the packet charts' `PacketChart` as short tables with sensible digits
(and the chart as its figure), instead of dataclass reprs with whole arrays."""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np

from aqmlab import display
from aqmlab.notebook import new_figure, png, side_by_side


def fmt_g(value: Any, digits: int = 4) -> str:
    """A number as `%g` with `digits` significant digits (complex as a ± bi; "–" for none)."""
    if value is None:
        return "–"
    if isinstance(value, complex):
        return f"{value.real:.{digits}g} {'+' if value.imag >= 0 else '−'} {abs(value.imag):.{digits}g}i"
    if isinstance(value, float | np.floating) and not math.isfinite(value):
        return "–"
    return display.number(value, digits) if isinstance(value, int | float | np.number) else str(value)


def hopf_html(point: Any) -> str:
    rows = [
        ("parameter", point.param),
        (f"critical {point.param}", fmt_g(point.value, 6)),
        ("ω at the crossing [rad/s]", fmt_g(point.omega, 4)),
        ("period 2π/ω [s]", fmt_g(point.period, 4)),
        ("Newton verified", "yes" if point.verified else "no (bisection)"),
    ]
    others = {k: v for k, v in point.params.items() if k != point.param}
    if others:
        rows.append(("other parameters", ", ".join(f"{k} = {fmt_g(v)}" for k, v in others.items())))
    return f"<div><strong>Hopf point</strong>{display.html_table(rows)}</div>"


def hopf_text(point: Any) -> str:
    return (
        f"HopfPoint({point.param} = {point.value:.6g}, ω = {point.omega:.4g} rad/s, "
        f"period {point.period:.4g} s, verified={point.verified})"
    )


def roots_html(roots: Any, shown: int = 6) -> str:
    head = "<tr><th>Re λ [1/s]</th><th>Im λ [rad/s]</th><th>period [s]</th><th>Newton</th></tr>"
    body = ""
    for root, ok in list(zip(roots.roots, roots.converged, strict=True))[:shown]:
        period = fmt_g(2 * math.pi / root.imag) if root.imag > 1e-12 else "–"
        body += f"<tr><td>{fmt_g(root.real)}</td><td>{fmt_g(root.imag)}</td><td>{period}</td>"
        body += f"<td>{'ok' if ok else 'no'}</td></tr>"
    caption = f"verdict {roots.verdict()}, margin −max Re λ = {fmt_g(roots.margin)} 1/s"
    return f"<div><strong>Characteristic roots</strong> ({html.escape(caption)})<table>{head}{body}</table></div>"


def roots_text(roots: Any) -> str:
    return (
        f"Roots(verdict={roots.verdict()!r}, margin={roots.margin:.4g} 1/s, rightmost={fmt_g(roots.rightmost)}, "
        f"{len(roots.roots)} roots, N={roots.N})"
    )


def chart_html(chart: Any) -> str:
    rows = [
        ("model", chart.model),
        ("boundary points", display.number(int(np.size(chart.xs)))),
        (f"{chart.x} range", f"{fmt_g(float(np.min(chart.xs)))} … {fmt_g(float(np.max(chart.xs)))}"),
        (
            f"{chart.y} on the boundary",
            f"{fmt_g(float(np.min(chart.ys)))} … {fmt_g(float(np.max(chart.ys)))}",
        ),
        (
            "period on the boundary [s]",
            f"{fmt_g(float(np.min(chart.period)))} … {fmt_g(float(np.max(chart.period)))}",
        ),
        (
            "stable side",
            {True: f"below the curve (smaller {chart.y})", False: f"above (larger {chart.y})"}.get(
                chart.stable_below, "–"
            ),
        ),
    ]
    figure = new_figure(4.2, 2.8)
    axis = figure.subplots()
    axis.plot(chart.xs, chart.ys, lw=1.2)
    axis.set_xlabel(chart.x)
    axis.set_ylabel(chart.y)
    axis.set_title("Hopf boundary", fontsize=9)
    return side_by_side(display.html_table(rows), png(figure), f"Stability chart: {chart.model}")


def chart_text(chart: Any) -> str:
    return (
        f"Chart({chart.model}: {chart.y} against {chart.x}, {np.size(chart.xs)} boundary points, "
        f"{chart.x} {float(np.min(chart.xs)):.4g}…{float(np.max(chart.xs)):.4g}, "
        f"{chart.y} {float(np.min(chart.ys)):.4g}…{float(np.max(chart.ys)):.4g})"
    )


def scenario_html(result: Any) -> str:
    mapping = result.mapping
    rows = [
        (row.symbol, f"{fmt_g(row.value)} {row.unit}" if row.value == row.value else row.unit, row.physical)
        for row in mapping.rows
    ]
    table = (
        "<table><tr><th>parameter</th><th>value</th><th>from the scenario</th></tr>"
        + "".join(
            "<tr>" + "".join(f"<td style='text-align:left'>{html.escape(c)}</td>" for c in row) + "</tr>"
            for row in rows
        )
        + "</table>"
    )
    lines = [
        f"<p><strong>{html.escape(result.name)}</strong> → {html.escape(mapping.model)} "
        f"(tcp = {html.escape(mapping.options['tcp'])}): <strong>{html.escape(result.verdict)}</strong>, "
        f"margin {fmt_g(result.margin)} 1/s</p>",
        table,
    ]
    lines += [f"<p>{html.escape(note)}</p>" for note in mapping.notes]
    if result.boundaries:
        items = "".join(f"<li>{html.escape(b.sentence(result.stable))}</li>" for b in result.boundaries)
        lines.append(f"<ul>{items}</ul>")
    predicted = result.predicted
    if predicted:
        text = f"Hopf point in τ at {predicted['hopf_tau_s'] * 1e3:.4g} ms, period there {predicted['period_s']:.3g} s"
        text += f" ({predicted['kind']})" if "kind" in predicted else ""
        for key, what in (("queue_amplitude_packets", "queue"), ("window_amplitude_packets", "window")):
            if key in predicted:
                text += f"; predicted {what} amplitude here ±{predicted[key]:.3g} packets"
        lines.append(f"<p>{html.escape(text)}</p>")
    return "<div>" + "".join(lines) + "</div>"


def diagram_html(diagram: Any) -> str:
    """Jupyter: a bifurcation diagram's Hopf point and branch end beside amplitude and period
    against the parameter (integration dots; orbit branch stable solid, unstable dashed)."""
    from aqmlab.stability.plots import draw_diagram

    rows = [("model", diagram.model), ("parameter", diagram.param), ("points", display.number(len(diagram.values)))]
    branch = diagram.orbits
    if branch is not None:
        rows += [
            ("Hopf point", display.number(branch.hopf_value)),
            ("l1", f"{branch.l1:.6g}"),
            ("orbits", display.number(len(branch.orbits))),
            ("folds of cycles", ", ".join(f"{branch.values[i]:.6g}" for i in branch.folds) or "none"),
            ("branch end", branch.stop),
        ]
    figure = new_figure(9.0 if branch is not None else 4.5, 3.0)
    try:
        draw_diagram(figure, diagram, critical=branch.hopf_value if branch is not None else None)
    except Exception:  # a display must never raise
        pass
    return side_by_side(display.html_table(rows), png(figure), f"Bifurcation diagram: {diagram.model}")
