"""`aqmlab report DIR`: one self-contained HTML page for a run, a study or a reproduction.

Figures are embedded as PNG data URIs, so the page can be mailed or archived alone. The
page checks on load that every figure decoded (`body[data-images-ok]`), which the browser
test reads.
"""

from __future__ import annotations

import base64
import datetime
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import aqmlab  # noqa: E402
from aqmlab.errors import ResultsError  # noqa: E402
from aqmlab.results_io import is_reproduction, read_json, read_reproduction  # noqa: E402

KEY_STATISTICS = (
    "queue_mean_packets",
    "sojourn_mean_s",
    "loss_percent",
    "utilisation_mean",
    "utilisation_min",
    "throughput_bps",
    "jain_fairness",
)


@dataclass
class Cell:
    text: str
    css: str = ""


@dataclass
class Table:
    columns: list[str]
    rows: list[list[Cell]]
    #: "text" for tables of sentences (left-aligned).
    css: str = ""


@dataclass
class Figure:
    src: str
    caption: str


@dataclass
class Section:
    id: str
    heading: str
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    code: str = ""
    #: 2: a top-level section (in the table of contents); 3: a part of the section before it.
    level: int = 2


def fmt(value: Any) -> str:
    """Plain numbers: 35,790 not 3.579e+04 (aqmlab.display.number)."""
    from aqmlab.display import number

    return number(value)


def png_figure(path: Path, caption: str) -> Figure:
    return Figure("data:image/png;base64," + base64.b64encode(path.read_bytes()).decode(), caption)


def matplotlib_figure(fig: Any, caption: str) -> Figure:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return Figure("data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode(), caption)


def statistics_table(summaries: dict[str, dict[str, float]]) -> Table:
    from aqmlab.display import header, statistic

    names = list(summaries)
    keys = list(next(iter(summaries.values())))
    return Table(
        ["statistic", *names],
        [[Cell(header(key)), *(Cell(statistic(key, summaries[n].get(key))) for n in names)] for key in keys],
    )


def comparison_section(comparison: list[dict[str, Any]]) -> Section:
    """Paper claims against aqmlab's measurements (reproductions): where in the paper, the
    criterion, aqmlab's mean ± 95 % interval over the seeds, and the verdict."""
    rows = []
    for item in comparison:
        verdict = item.get("verdict") or ("agrees" if item["agrees"] else "differs")
        criterion = item.get("criterion", "")
        if item.get("why"):
            criterion = f"{criterion} ({item['why']})" if criterion else item["why"]
        rows.append(
            [
                Cell(item["claim"]),
                Cell(item.get("where", "")),
                Cell(item["paper"]),
                Cell(criterion),
                Cell(item["aqmlab"]),
                Cell(verdict, "agree" if item["agrees"] else "disagree"),
            ]
        )
    return Section(
        "comparison",
        "Paper against aqmlab",
        tables=[Table(["claim", "where", "paper", "criterion", "aqmlab", ""], rows, "text")],
    )


def run_sections(directory: Path) -> tuple[str, list[Section]]:
    from aqmlab.results import Results

    results = Results.load(directory)
    sections = [
        Section(
            "summary",
            "Summary over the measurement window",
            text=f"Window [{results.measure_start_s:g}, {results.end_s:g}] s, seed {results.seed}.",
            tables=[statistics_table(results.summaries())],
        )
    ]
    figures = [png_figure(p, p.stem) for p in sorted(directory.glob("*.png"))]
    if figures:
        sections.append(Section("figures", "Figures", figures=figures))
    flows = results.to_pandas("flows")
    groups = flows.groupby("group_name", sort=False).agg(
        flows=("flow", "size"),
        goodput_mbps=("goodput_bps", lambda x: x.mean() / 1e6),
        retransmits=("retransmits", "sum"),
        timeouts=("timeouts", "sum"),
        rtt_mean_ms=("rtt_mean_s", lambda x: 1e3 * x.mean()),
    )
    table = Table(
        ["group", *groups.columns],
        [[Cell(str(name)), *(Cell(fmt(float(v))) for v in row)] for name, row in groups.iterrows()],
    )
    sections.append(
        Section("groups", "Flow groups", text="Goodput is the mean per flow over the window.", tables=[table])
    )
    sections.append(
        Section(
            "counters",
            "Packet conservation",
            tables=[Table(["counter", "value"], [[Cell(k), Cell(f"{v:,}")] for k, v in results.counters.items()])],
        )
    )
    sections.append(
        Section("scenario", "Scenario", code=json.dumps(results.scenario.model_dump(mode="json"), indent=2))
    )
    return results.scenario.name, sections


def study_sections(directory: Path) -> tuple[str, list[Section]]:
    from aqmlab.display import header, mean_std, scaled
    from aqmlab.experiments.display import parameter_columns
    from aqmlab.experiments.store import Study

    study = Study(directory)
    meta = read_json(directory / "study.json")
    table = study.table()
    frame = table.to_pandas()
    if frame.empty:
        raise ResultsError(
            f"{directory} holds no completed runs" + (f"; {study.describe_problems()}" if study.problems else "")
        )
    columns = parameter_columns(table)  # 'param.topology.groups.0.rtt' -> ('rtt [ms]', [10.0, ...])
    params = list(columns)
    for column, (_, values) in columns.items():
        frame[column] = values
    frame = frame.sort_values([*params, "link"], kind="stable", key=lambda c: c.map(_sortable))
    grouped = frame.groupby([*params, "link"], sort=False)[list(KEY_STATISTICS)].agg(["mean", "std"])
    rows = []
    for key, row in grouped.iterrows():
        key = key if isinstance(key, tuple) else (key,)
        cells = [Cell(fmt(k)) for k in key]
        for statistic in KEY_STATISTICS:
            mean, std = row[(statistic, "mean")], row[(statistic, "std")]
            std = 0.0 if std != std else std  # one seed: no spread
            cells.append(Cell(mean_std(scaled(statistic, mean), scaled(statistic, std))))
        rows.append(cells)
    names = [label for label, _ in columns.values()]
    sections = [
        Section(
            "runs",
            "Runs",
            text=f"{frame.run_id.nunique()} runs; mean ± standard deviation over seeds.",
            tables=[Table([*names, "link", *(header(s) for s in KEY_STATISTICS)], rows)],
        )
    ]
    figures = []
    for column, (label, _) in columns.items():
        x = frame[column]
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in x):
            continue
        fig, axes = plt.subplots(1, 3, figsize=(12, 3.4), constrained_layout=True)
        for axis, statistic in zip(axes, ("queue_mean_packets", "utilisation_mean", "loss_percent"), strict=True):
            for link, part in frame.assign(x=x.astype(float)).groupby("link"):
                means = part.groupby("x")[statistic].agg(["mean", "std"])
                axis.errorbar(
                    means.index,
                    scaled(statistic, means["mean"]),
                    yerr=scaled(statistic, means["std"].fillna(0)),
                    marker="o",
                    capsize=3,
                    label=link,
                )
            axis.set_xlabel(label)
            axis.set_ylabel(header(statistic))
            axis.grid(alpha=0.3)
        axes[0].legend(fontsize=8)
        figures.append(matplotlib_figure(fig, f"key statistics against {label}"))
    if figures:
        sections.append(Section("figures", "Figures", figures=figures))
    failures = sorted((directory / "failures").glob("*.json")) if (directory / "failures").is_dir() else []
    if failures:
        rows = [[Cell(f.stem), Cell(_failure_error(f))] for f in failures if not f.name.startswith(".")]
        sections.append(Section("failures", "Failed runs", tables=[Table(["run", "error"], rows)]))
    if study.problems:
        rows = [[Cell(run_id), Cell(why)] for run_id, why in sorted(study.problems.items())]
        text = "Left out of the tables and figures above: recompute them with aqmlab sweep SWEEP --out DIR --resume."
        sections.append(Section("damaged", "Damaged runs", text=text, tables=[Table(["run", "problem"], rows)]))
    sections.append(Section("sweep", "Sweep", code=json.dumps(meta, indent=2)))
    return meta.get("name", directory.name), sections


def _failure_error(path: Path) -> str:
    try:
        return str(json.loads(path.read_text())["error"])
    except (OSError, ValueError, KeyError, TypeError):
        return "(the failure record is unreadable)"


def _sortable(value: Any) -> Any:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else str(value)


def reproduction_sections(directory: Path) -> tuple[str, list[Section]]:
    meta = read_reproduction(directory)
    sections = [Section("about", meta["title"], text=meta.get("description", ""))]
    sections.append(comparison_section(meta["comparison"]))
    figures = [png_figure(directory / name, name) for name in meta.get("figures", [])]
    if figures:
        sections.append(Section("figures", "Figures", figures=figures))
    if meta.get("notes"):
        sections.append(Section("notes", "Notes", text=meta["notes"]))
    return meta["title"], sections


def render(title: str, sections: list[Section], where: str, path: Path) -> Path:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("aqmlab.report", "templates"), autoescape=jinja2.select_autoescape(["html", "j2"])
    )
    figures = [figure for section in sections for figure in section.figures]
    html = environment.get_template("page.html.j2").render(
        title=title,
        sections=sections,
        figures=figures,
        subtitle=f"aqmlab {aqmlab.__version__}, {datetime.datetime.now().isoformat(timespec='seconds')}, {where}",
    )
    from aqmlab._fsio import write_atomic

    return write_atomic(path, html)


def write_combined_report(directories: list[Path], out: Path, title: str, introduction: str) -> Path:
    """One page for several reproductions (the demo's headline study)."""
    sections = [Section("introduction", "What this shows", text=introduction)]
    for index, directory in enumerate(directories):
        _, parts = reproduction_sections(directory)
        for position, part in enumerate(parts):
            part.id = f"r{index}-{part.id}"
            part.level = 2 if position == 0 else 3  # the reproduction's title once, its parts under it
        sections.extend(parts)
    return render(title, sections, str(out.parent), out)


def write_report(directory: str | Path, out: str | Path | None = None) -> Path:
    """Write DIR/report.html (or `out`) for a run, a study or a reproduction directory."""
    directory = Path(directory)
    if is_reproduction(directory):
        title, sections = reproduction_sections(directory)
    elif (directory / "study.json").is_file():
        title, sections = study_sections(directory)
    elif (directory / "scenario.json").is_file():
        title, sections = run_sections(directory)
    else:
        raise ResultsError(f"{directory} is not a run, study or reproduction directory")
    return render(title, sections, str(directory), Path(out) if out is not None else directory / "report.html")
