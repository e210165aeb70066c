"""`aqmlab sweep` and `aqmlab study`."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from aqmlab.cli_common import DEFAULT_OUT, refuse_to_overwrite
from aqmlab.errors import AqmlabError

console = Console(stderr=True)


def _fail(message: str, code: int = 2) -> None:
    from rich.markup import escape

    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def sweep(
    sweep_file: Annotated[Path, typer.Argument(help="Sweep TOML file.")],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Study directory [aqmlab-out/sweep/SWEEP-NAME].")
    ] = None,
    resume: Annotated[bool, typer.Option(help="Continue an interrupted study in OUT.")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Replace OUT if it exists and is not empty (start the study anew).")
    ] = False,
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
        out = out or DEFAULT_OUT / "sweep" / plan.name
        if resume and force:
            _fail("--resume continues the study in OUT and --force replaces it: give one")
        if not resume:
            refuse_to_overwrite(out, force, what=" (continue it with --resume)")
            if force and out.exists():
                import shutil

                shutil.rmtree(out) if out.is_dir() else out.unlink()
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

            run_sweep(
                plan,
                out,
                resume=resume,
                workers=workers,
                cluster=cluster,
                cache=cache,
                progress=progress,
                announce=lambda line: console.print(line, highlight=False),
            )
    except AqmlabError as error:
        _fail(str(error))
    except KeyboardInterrupt:
        _fail(
            "interrupted; completed runs are kept — continue with: "
            f"aqmlab sweep {shlex.quote(str(sweep_file))} --out {shlex.quote(str(out))} --resume",
            code=130,
        )
    for outcome in failed:
        console.print(f"[red]failed[/] {outcome.run_id}: {outcome.error} (see {out}/failures/{outcome.run_id}.json)")
    console.print(f"{total - len(failed)} of {total} runs done in {out}")
    if total - len(failed):
        print_study(out)
        console.print(
            f"again: aqmlab study {shlex.quote(str(out))}; HTML: aqmlab report {shlex.quote(str(out))}", highlight=False
        )
    if failed:
        raise typer.Exit(1)


def print_study(directory: Path) -> bool:
    """The study's runs on stdout: parameters with units, sorted, sized to the terminal (or to
    its content when stdout is not a terminal). False when there are no completed runs."""
    from aqmlab.experiments.display import print_study_table
    from aqmlab.experiments.store import Study

    return print_study_table(Console(), f"{directory}", Study(directory).table())


def study(directory: Annotated[Path, typer.Argument(help="A study directory (aqmlab sweep --out).")]) -> None:
    """Print a study's runs: swept parameters (with units) and key statistics, sorted."""
    if not print_study(directory):
        _fail(f"{directory} holds no completed runs")
