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
        bool,
        typer.Option("--force", help="Replace OUT if it exists and is not empty (start anew; the folder is kept)."),
    ] = False,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")] = None,
    cluster: Annotated[str | None, typer.Option(help="Dask scheduler address, or 'local' for a LocalCluster.")] = None,
    cache: Annotated[Path | None, typer.Option(help="Another study whose completed runs are reused.")] = None,
) -> None:
    """Run every point of SWEEP_FILE into a resumable study directory.

    --resume recomputes damaged runs and rewrites damaged or missing summaries (and says so).
    Ctrl-C, SIGTERM and SIGHUP stop the sweep and its workers; completed runs are kept."""

    from aqmlab import _signals
    from aqmlab._fsio import os_error_message
    from aqmlab.experiments.runner import SweepStopped

    resume_command = "aqmlab sweep ... --resume"
    try:
        from aqmlab.experiments.runner import run_sweep
        from aqmlab.experiments.sweep import Sweep

        plan = Sweep.from_toml(sweep_file)
        out = out or DEFAULT_OUT / "sweep" / plan.name
        resume_command = f"aqmlab sweep {shlex.quote(str(sweep_file))} --out {shlex.quote(str(out))} --resume"
        if resume and force:
            _fail("--resume continues the study in OUT and --force replaces it: give one")
        if out.exists() and not out.is_dir() and resume:
            _fail(f"{out} is a file, not a study directory")
        if not resume:
            refuse_to_overwrite(out, force, what=" (continue it with --resume)")
        ids = {run.id for run in plan.runs()}
        total = len(ids)
        failed, done_now = [], []
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("[red]{task.fields[failed]} failed"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console) as bar:
            task = bar.add_task(plan.name, total=total, completed=0, failed=0)

            def progress(outcome):
                (done_now if outcome.ok else failed).append(outcome)
                bar.update(task, advance=1, failed=len(failed))

            def announce(line: str) -> None:
                console.print(line, highlight=False, soft_wrap=True)

            run_sweep(
                plan,
                out,
                resume=resume,
                force=force,
                workers=workers,
                cluster=cluster,
                cache=cache,
                progress=progress,
                announce=announce,
                already=lambda count: bar.update(task, completed=count),  # verified runs kept
            )
    except SweepStopped as error:
        _fail(f"{error}; completed runs are kept — continue with: {resume_command}")
    except AqmlabError as error:
        _fail(str(error))
    except OSError as error:
        _fail(os_error_message(error))
    except KeyboardInterrupt:
        stopped = "interrupted" if _signals.last_signal in (None, 2) else f"stopped by {_signal_name()}"
        _fail(f"{stopped}; completed runs are kept — continue with: {resume_command}", code=_signals.exit_code())
    for outcome in failed:
        console.print(
            f"[red]failed[/] {outcome.run_id}: {outcome.error} (see {out}/failures/{outcome.run_id}.json)",
            highlight=False,
            soft_wrap=True,
        )
    console.print(f"{total - len(failed)} of {total} runs done in {out}")
    if total - len(failed):
        try:
            print_study(out)
        except (AqmlabError, OSError) as error:
            _fail(os_error_message(error) if isinstance(error, OSError) else str(error))
        console.print(
            f"again: aqmlab study {shlex.quote(str(out))}; HTML: aqmlab report {shlex.quote(str(out))}", highlight=False
        )
    if failed:
        raise typer.Exit(1)


def _signal_name() -> str:
    import signal

    from aqmlab import _signals

    return signal.Signals(_signals.last_signal).name


def print_study(directory: Path) -> tuple[bool, bool]:
    """The study's runs on stdout: parameters with units, sorted, sized to the terminal (or to
    its content when stdout is not a terminal). A damaged run or summary is left out and named
    in a warning on stderr. (any rows shown, any damage found)."""
    from aqmlab.experiments.display import print_study_table
    from aqmlab.experiments.store import Study

    study = Study(directory)
    table = study.table()
    if study.problems:
        console.print(f"[bold yellow]warning:[/] {study.describe_problems()}", highlight=False, soft_wrap=True)
    return print_study_table(Console(), f"{directory}", table), bool(study.problems)


def study(directory: Annotated[Path, typer.Argument(help="A study directory (aqmlab sweep --out).")]) -> None:
    """Print a study's runs: swept parameters (with units) and key statistics, sorted.

    Every run is checked against its checksums: damaged ones are named (exit code 1)."""
    from aqmlab._fsio import os_error_message

    if not directory.exists():
        _fail(f"{directory} does not exist")
    if not directory.is_dir() or not (directory / "study.json").is_file():
        _fail(f"{directory} is not a study directory (no study.json)")
    try:
        shown, damaged = print_study(directory)
    except AqmlabError as error:
        _fail(str(error))
    except OSError as error:
        _fail(os_error_message(error))
    if not shown:
        _fail(f"{directory} holds no completed runs", code=1)
    if damaged:
        raise typer.Exit(1)
