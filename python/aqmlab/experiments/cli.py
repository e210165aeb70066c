"""`aqmlab sweep` and `aqmlab study`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from aqmlab.errors import AqmlabError

console = Console(stderr=True)


def _fail(message: str, code: int = 2) -> None:
    console.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def sweep(
    sweep_file: Annotated[Path, typer.Argument(help="Sweep TOML file.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Study directory.")],
    resume: Annotated[bool, typer.Option(help="Continue an interrupted study in OUT.")] = False,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")] = None,
    cluster: Annotated[str | None, typer.Option(help="Dask scheduler address, or 'local' for a LocalCluster.")] = None,
    cache: Annotated[Path | None, typer.Option(help="Another study whose completed runs are reused.")] = None,
) -> None:
    """Run every point of SWEEP_FILE into a resumable study directory."""
    from aqmlab.experiments.runner import run_sweep
    from aqmlab.experiments.store import Study
    from aqmlab.experiments.sweep import Sweep

    try:
        plan = Sweep.from_toml(sweep_file)
        ids = {run.id for run in plan.runs()}
        total = len(ids)
        already = len(ids & Study(out).done_ids()) if resume else 0
        failed = []
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("[red]{task.fields[failed]} failed"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console) as bar:
            task = bar.add_task(plan.name, total=total, completed=already, failed=0)

            def progress(outcome):
                if not outcome.ok:
                    failed.append(outcome)
                bar.update(task, advance=1, failed=len(failed))

            run_sweep(plan, out, resume=resume, workers=workers, cluster=cluster, cache=cache, progress=progress)
    except AqmlabError as error:
        _fail(str(error))
    except KeyboardInterrupt:
        _fail(
            f"interrupted; completed runs are kept — continue with: aqmlab sweep {sweep_file} --out {out} --resume",
            code=130,
        )
    for outcome in failed:
        console.print(f"[red]failed[/] {outcome.run_id}: {outcome.error} (see {out}/failures/{outcome.run_id}.json)")
    console.print(f"{total - len(failed)} of {total} runs done in {out}")
    if failed:
        raise typer.Exit(1)


def study(directory: Annotated[Path, typer.Argument(help="A study directory.")]) -> None:
    """Print the per-run summaries of a study."""
    from aqmlab.experiments.store import Study

    table = Study(directory).table()
    if table.num_rows == 0:
        _fail(f"{directory} holds no completed runs")
    columns = [
        "run_id",
        "seed",
        "link",
        *[c for c in table.column_names if c.startswith("param.")],
        "queue_mean_packets",
        "loss_percent",
        "utilisation_mean",
        "throughput_bps",
        "jain_fairness",
    ]
    out = Table(title=f"{directory}: {table.num_rows} rows")
    for column in columns:
        out.add_column(column.removeprefix("param."))
    for row in table.select(columns).to_pylist():
        out.add_row(*(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row.values()))
    Console().print(out)
