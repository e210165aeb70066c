"""`aqmlab chart SCENARIO --packet`: the packet stability chart (`chart.packet_chart`)
written to OUT: the probe store (rerun the same command to resume), chart.json (brackets,
confidence, periods, fluid Hopf points), boundaries.parquet, probes.parquet and chart.png."""

from __future__ import annotations

import json
import math
from pathlib import Path


def _clean(value):
    """JSON without NaN: nan → null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def parse_seeds(text: str) -> tuple[int, ...]:
    try:
        seeds = tuple(int(part) for part in text.split(","))
    except ValueError:
        seeds = ()
    if not seeds or any(seed < 1 for seed in seeds):
        raise ValueError(f"--seeds = {text!r}; allowed: positive integers separated by commas, e.g. 1,2,3")
    return seeds


def write_chart(chart, out: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    (out / "result.json").write_text(json.dumps(_clean(chart.describe()), indent=1))
    rows = [{k: (json.dumps(v) if isinstance(v, list) else v) for k, v in row.items()} for row in chart.rows()]
    pq.write_table(pa.Table.from_pylist(rows), out / "boundaries.parquet")
    pq.write_table(pa.Table.from_pylist(chart.probe_rows()), out / "probes.parquet")
    chart.plot(out / "chart.png")


def run_packet_chart(
    scenario: str,
    x: str,
    y: str,
    *,
    seeds: str,
    duration: float,
    analysis_start: float,
    tolerance: float | None,
    log_y: bool,
    max_rounds: int,
    workers: int,
    cluster: str | None,
    out: Path,
    echo,
) -> None:
    """The command's work; every bad input is a ValueError (or AqmlabError) naming the field."""
    from aqmlab.experiments.packet_chart.chart import packet_chart

    def progress(task, record, stored):
        if not stored:
            echo(
                f"  {task.point[0]:g}, {task.point[1]:g} seed {task.seed}: {record['verdict']} "
                f"(r = {record['relative_swing']:.2f})"
            )

    chart = packet_chart(
        scenario,
        x,
        y,
        seeds=parse_seeds(seeds),
        duration_s=duration,
        analysis_start_s=analysis_start,
        tolerance=tolerance,
        log_y=log_y,
        max_rounds=max_rounds,
        workers=workers,
        cluster=cluster,
        out=out,
        progress=progress,
    )
    write_chart(chart, out)
    for row in chart.rows():
        bracket = (
            f"[{row['stable_y']:g} stable, {row['oscillating_y']:g} oscillating] ({100 * row['confidence']:.1f} %)"
            if row["stable_y"] is not None and row["oscillating_y"] is not None
            else "no bracket"
        )
        echo(
            f"{chart.x} = {row[chart.x]:g}: {row['status']}, {chart.y} {bracket}; packet period "
            f"{row['packet_period_s']:.3g} s, fluid Hopf {chart.y} {row.get('fluid_paper_y', math.nan):.4g} (paper) / "
            f"{row.get('fluid_mapped_y', math.nan):.4g} (mapped)"
        )
    echo(
        f"{chart.meta['runs_computed']} runs computed, {chart.meta['runs_stored']} taken from the store, "
        f"{chart.meta['wall_time_s']:.1f} s; written: {out}"
    )
