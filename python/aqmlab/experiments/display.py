"""A study as people read it: swept parameters as numbers with units ("rtt [ms]" 10, 25, ...
rather than the string '"10ms"' under `topology.groups.0.rtt`), rows sorted by parameters,
seed and link, key statistics with units; for `aqmlab study`, the sweep's closing table, the
report's axes and the notebook display."""

from __future__ import annotations

import html
import json
from typing import Any

from aqmlab import display, units
from aqmlab.experiments.frame import short_name, sort_key
from aqmlab.stability.notebook import fmt_g

#: Statistics shown per row, in this order.
STUDY_STATISTICS = ("queue_mean_packets", "loss_percent", "utilisation_mean", "throughput_bps", "jain_fairness")

#: Display unit per dimension: (unit label, parser to SI, factor SI -> display), chosen by size.
_TIME_UNITS = (("s", 1.0), ("ms", 1e3), ("us", 1e6))
_RATE_UNITS = (("Gb/s", 1e-9), ("Mb/s", 1e-6), ("kb/s", 1e-3), ("b/s", 1.0))
_SIZE_UNITS = (("MB", 1e-6), ("kB", 1e-3), ("B", 1.0))


def _as_quantity(values: list[Any]) -> tuple[str, list[Any]]:
    """(unit label, numbers) when every value is a quantity string of one dimension."""
    if not values or not all(isinstance(v, str) for v in values):
        return "", values
    for parse, choices in (
        (units.seconds, _TIME_UNITS),
        (units.bits_per_second, _RATE_UNITS),
        (units.bytes_, _SIZE_UNITS),
    ):
        try:
            si = [float(parse(v)) for v in values]
        except ValueError:
            continue
        largest = max(abs(x) for x in si) or 1.0
        for label, factor in choices:
            if largest * factor >= 1.0:
                return label, [x * factor for x in si]
        label, factor = choices[-1]
        return label, [x * factor for x in si]
    return "", values


def parameter_columns(table) -> dict[str, tuple[str, list[Any]]]:
    """param.PATH column -> (header 'rtt [ms]', values as numbers where they are quantities)."""
    paths = [c.removeprefix("param.") for c in table.column_names if c.startswith("param.")]
    columns = {}
    for path in paths:
        raw = [json.loads(v) if isinstance(v, str) else v for v in table.column(f"param.{path}").to_pylist()]
        unit, values = _as_quantity(raw)
        name = short_name(path, paths)
        columns[f"param.{path}"] = (f"{name} [{unit}]" if unit else name, values)
    return columns


def study_rows(table) -> tuple[list[str], list[list[str]]]:
    """(headers, formatted rows) of a study's summary table, sorted by parameters, seed, link."""
    if table.num_rows == 0:
        return [], []
    params = parameter_columns(table)
    statistics = [s for s in STUDY_STATISTICS if s in table.column_names]
    records = []
    data = {name: table.column(name).to_pylist() for name in ("seed", "link", *statistics)}
    for index in range(table.num_rows):
        key = tuple(sort_key(values[index]) for _, values in params.values())
        key += (sort_key(data["seed"][index]), sort_key(data["link"][index]))
        cells = [display.number(values[index]) for _, values in params.values()]
        cells += [str(data["seed"][index]), str(data["link"][index])]
        cells += [display.statistic(s, data[s][index]) for s in statistics]
        records.append((key, cells))
    records.sort(key=lambda record: record[0])
    headers = [header for header, _ in params.values()] + ["seed", "link"] + [display.header(s) for s in statistics]
    return headers, [cells for _, cells in records]


#: Short headers for a narrow terminal, with the legend printed under the table.
COMPACT = {
    "queue_mean_packets": ("queue", "mean queue, packets"),
    "loss_percent": ("loss%", "packets lost, %"),
    "utilisation_mean": ("util%", "mean utilisation of the link, %"),
    "throughput_bps": ("goodput", "the flows' goodput summed, Mb/s"),
    "jain_fairness": ("Jain", "Jain's fairness index of the flows' goodput"),
}


def _width(headers: list[str], rows: list[list[str]]) -> int:
    """Characters a rich table of these cells takes (one space of padding each side, borders;
    a header may have two lines)."""
    widths = [max(*(len(line) for line in h.split("\n")), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    return sum(widths) + 3 * len(widths) + 1


def study_layout(table, width: int) -> tuple[list[str], list[list[str]], str, list[str]]:
    """(headers, rows, title note, legend) of a study for a terminal `width` characters wide:
    the full headers when they fit; otherwise a single link moves into the title and the
    statistics take short headers explained in a legend (issue 30: at 80 columns every header,
    seed and Jain's index stay readable)."""
    headers, rows = study_rows(table)
    if not rows or _width(headers, rows) <= width:
        return headers, rows, "", []
    note = ""
    link = headers.index("link")
    if len({row[link] for row in rows}) == 1:
        note = f"link {rows[0][link]}"
        headers = headers[:link] + headers[link + 1 :]
        rows = [row[:link] + row[link + 1 :] for row in rows]
    legend = []
    statistics = [s for s in STUDY_STATISTICS if s in table.column_names]
    first = len(headers) - len(statistics)
    for offset, key in enumerate(statistics):
        short, meaning = COMPACT.get(key, (headers[first + offset], ""))
        headers[first + offset] = short
        if meaning:
            legend.append(f"{short}: {meaning}")
    if _width(headers, rows) > width:  # many swept parameters: their units on a second header line
        headers = [h.replace(" [", "\n[", 1) for h in headers]
    if _width(headers, rows) > width:  # still too wide: parameters wider than their values become letters
        seed = headers.index("seed")
        letters = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        named = []
        for index in range(seed):
            widest = max(len(row[index]) for row in rows)
            if max(len(line) for line in headers[index].split("\n")) > max(widest, 2):
                letter = next(letters, None)
                if letter is None:
                    break
                named.append(f"{letter}: {headers[index].replace(chr(10), ' ')}")
                headers[index] = letter
        legend = named + legend
    return headers, rows, note, legend


def print_study_table(out: Any, title: str, table) -> bool:
    """`aqmlab study`'s table on the rich console `out`: sized to the terminal (`study_layout`;
    columns wrap rather than cut when even the short headers do not fit), or to its content when
    `out` is not a terminal. False when there are no rows."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    width = out.width if out.is_terminal else 10_000  # a file or pipe: the whole table, one line a row
    headers, rows, note, legend = study_layout(table, width)
    if not rows:
        return False
    fits = _width(headers, rows) <= width
    shown = Table(title=escape(f"{title}: {len(rows)} rows" + (f", {note}" if note else "")), header_style="bold")
    for index, header in enumerate(headers):
        shown.add_column(
            escape(header),
            justify="left" if header == "link" else "right",
            no_wrap=fits and index < len(headers) - 1,
            overflow="fold",
        )
    for row in rows:
        shown.add_row(*(escape(cell) for cell in row))
    if not out.is_terminal:
        out = Console(width=max(80, _width(headers, rows)))
    out.print(shown)
    for line in legend:
        out.print(escape(line), highlight=False)
    return True


def study_html(study: Any) -> str:
    """The study's runs as `aqmlab study` prints them (numeric, sorted, with units)."""
    headers, rows = study_rows(study.table())
    if not rows:
        return f"<p>Study {html.escape(str(study.directory))}: no completed runs</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<p>Study {html.escape(str(study.directory))}: {len(rows)} rows</p><table><tr>{head}</tr>{body}</table>"


def packet_chart_html(chart: Any) -> str:
    rows = chart.rows()
    head = f"<tr><th>{html.escape(chart.x)}</th><th>status</th><th>stable {html.escape(chart.y)}</th>"
    head += f"<th>oscillating {html.escape(chart.y)}</th><th>confidence</th><th>packet period [s]</th></tr>"
    body = "".join(
        f"<tr><td>{fmt_g(r[chart.x])}</td><td>{html.escape(str(r['status']))}</td><td>{fmt_g(r['stable_y'])}</td>"
        f"<td>{fmt_g(r['oscillating_y'])}</td><td>{fmt_g(r['confidence'], 3)}</td>"
        f"<td>{fmt_g(r['packet_period_s'], 3)}</td></tr>"
        for r in rows
    )
    title = f"Packet stability chart: {chart.scenario} ({chart.y} against {chart.x})"
    return f"<div><strong>{html.escape(title)}</strong><table>{head}{body}</table></div>"
