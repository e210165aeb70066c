"""The `aqmlab` command: run scenarios, inspect results, the demo, and the fluid models."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from aqmlab._lazy_cli import LazyGroup
from aqmlab.cli_common import DEFAULT_OUT, refuse_to_overwrite
from aqmlab.errors import AqmlabError, EmptyWindowError, SimulationInterrupted

app = typer.Typer(
    cls=LazyGroup,
    rich_markup_mode=None,  # click's plain help: rich's costs ~60 ms of the 0.3 s startup budget
    add_completion=False,
    no_args_is_help=True,
    help="aqmlab: TCP congestion control and AQM laboratory.",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"aqmlab {version('aqmlab')}")
        except PackageNotFoundError:  # running from a checkout without an install
            typer.echo("aqmlab (not installed: no version)")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """aqmlab: TCP congestion control and AQM laboratory."""


console = Console(stderr=True)


def _quote(path) -> str:
    """A path as a shell word (printed commands can be pasted)."""
    import shlex

    return shlex.quote(str(path))


def _fail(message: str, code: int = 2) -> None:
    from rich.markup import escape

    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, markup=True, soft_wrap=True)
    raise typer.Exit(code)


#: Statistics shown when there are too many links for one column each.
KEY_STATISTICS = (
    "queue_mean_packets",
    "sojourn_mean_s",
    "loss_percent",
    "mark_percent",
    "utilisation_mean",
    "utilisation_min",
    "throughput_bps",
    "jain_fairness",
    "flows",
)


def summary_table(title: str, summaries: dict[str, dict[str, float]]) -> Table:
    """Rows are statistics and columns are links or runs; with many links, rows are links
    and columns the key statistics."""
    from rich.markup import escape

    from aqmlab.display import header, statistic

    if len(summaries) > 3:
        table = Table(title=escape(title))
        table.add_column("link")
        for key in KEY_STATISTICS:
            table.add_column(escape(header(key)), justify="right")
        for name, summary in summaries.items():
            table.add_row(escape(name), *(statistic(key, summary.get(key)) for key in KEY_STATISTICS))
        return table
    table = Table(title=escape(title))
    table.add_column("statistic")
    for name in summaries:
        table.add_column(escape(name), justify="right")
    first = next(iter(summaries.values()))
    for key in first:
        table.add_row(escape(header(key)), *(statistic(key, summary.get(key)) for summary in summaries.values()))
    return table


def _format(value: float) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value != value:
        return "-"
    return f"{value:.4g}"


def run_with_progress(scenario, *, seed: int | None, quiet: bool, allow_large: bool = False):
    from aqmlab.simulation import simulate

    return simulate(scenario, seed=seed, progress=not quiet, allow_large=allow_large)


@app.command()
def run(
    scenario_file: Annotated[
        Path, typer.Argument(help="Scenario TOML file, or a bundled example's name (`aqmlab examples`).")
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Directory for data, summary and figures [aqmlab-out/run/SCENARIO-NAME]."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: the scenario's).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists and is not empty.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    allow_large: Annotated[
        bool, typer.Option("--allow-large", help="Run even above the work and memory limits (aqmlab.workload).")
    ] = False,
    figures: Annotated[
        bool,
        typer.Option(
            "--figures/--no-figures",
            help="Draw the figures after the results are written (--no-figures: results only, no matplotlib).",
        ),
    ] = True,
) -> None:
    """Simulate SCENARIO_FILE packet by packet and write results to OUT.

    Ctrl-C, SIGTERM and SIGHUP stop the run and write the partial results (marked partial);
    the exit code is 0 only when OUT holds complete results, 128 + the signal (130 for
    Ctrl-C) when it holds partial ones or nothing new. An existing empty OUT (or a mount
    point) is written into; OUT is never replaced without --force, even by a concurrent run."""
    from aqmlab import _signals
    from aqmlab._fsio import os_error_message

    try:
        from aqmlab.scenario import load_scenario

        scenario = load_scenario(scenario_file)
        out = out or DEFAULT_OUT / "run" / scenario.name
        refuse_to_overwrite(out, force)
        try:
            results = run_with_progress(scenario, seed=seed, quiet=quiet, allow_large=allow_large)
        except SimulationInterrupted as interrupted:
            results = interrupted.partial
            state = "complete" if results.finished else "partial"
            console.print(f"{_stopped_by()} at t = {results.end_s:g} s; writing the {state} results", highlight=False)
        from aqmlab.results_io import write_run

        before = _identity(out / "run.json")  # a folder written into keeps its own identity
        try:
            write_run(results, out, force=force, figures=False)  # the figures follow the report
        except KeyboardInterrupt:
            if _identity(out / "run.json") == before:
                _fail(f"{_stopped_by()} while writing the results; nothing written", code=_signals.exit_code())
        # The results are on disk: from now on a signal only cuts the report short, and the
        # exit code still says what OUT holds.
        for signum in _signals.STOPPING:
            if signal.getsignal(signum) not in (signal.SIG_IGN, None):
                signal.signal(signum, _exit_now(0 if results.finished else _signals.exit_code()))
    except AqmlabError as error:
        _fail(str(error))
    except OSError as error:
        _fail(os_error_message(error))
    except KeyboardInterrupt:
        _fail(f"{_stopped_by()}; nothing written", code=_signals.exit_code())
    code = 0 if results.finished else _signals.exit_code()
    if results.finished:
        Console().print(
            summary_table(
                f"{scenario.name} (seed {results.seed}), window [{results.measure_start_s:g}, {results.end_s:g}] s",
                results.summaries(),
            )
        )
        console.print(f"wrote {out} ({results.wall_time_s:.2f} s wall, {results.counters['events']:,} events)")
    else:
        console.print(
            f"wrote PARTIAL results to {out}: the run stopped at t = {results.end_s:g} s of {scenario.duration_s:g} s "
            f"(see `aqmlab summary {_quote(out)}`)",
            highlight=False,
            soft_wrap=True,
        )
    if figures:
        _draw_figures(results, out, code)
    if code:
        raise typer.Exit(code)


def _draw_figures(results, out: Path, code: int) -> None:
    """The figures, after the results are written and reported (issue 28): a stopping signal
    while they are drawn ends them (the one being drawn is not left half-written), says so and
    exits with `code`, what OUT holds; a second signal meanwhile exits at once with `code`."""
    from aqmlab import _signals
    from aqmlab._fsio import os_error_message
    from aqmlab.results_io import draw_figures

    exit_now = _exit_now(code)

    interrupted = False

    def stop(signum, frame) -> None:
        nonlocal interrupted
        interrupted = True
        _signals.last_signal = signum
        for stopping in _signals.STOPPING:
            if signal.getsignal(stopping) is stop:
                signal.signal(stopping, exit_now)
        raise KeyboardInterrupt

    for signum in _signals.STOPPING:
        if signal.getsignal(signum) not in (signal.SIG_IGN, None):
            signal.signal(signum, stop)
    try:
        draw_figures(results, out)
    except KeyboardInterrupt:
        console.print(f"{_stopped_by()} while drawing the figures; the results are in {out}", highlight=False)
        _signals.exit_now(code)
    except AqmlabError as error:
        _fail(f"the results are in {out}, the figures are not: {error}")
    except OSError as error:
        _fail(f"the results are in {out}, the figures are not: {os_error_message(error)}")
    except Exception:
        if not interrupted:
            raise
        # The signal's KeyboardInterrupt was raised inside a library's callback and came out
        # as that library's own error (matplotlib's Agg renderer: "Invalid bounding box").
        console.print(f"{_stopped_by()} while drawing the figures; the results are in {out}", highlight=False)
        _signals.exit_now(code)
    finally:
        for signum in _signals.STOPPING:
            if signal.getsignal(signum) is stop:
                signal.signal(signum, exit_now)


def _stopped_by() -> str:
    """'interrupted' (Ctrl-C), or 'stopped by SIGTERM' / 'stopped by SIGHUP'."""
    from aqmlab import _signals

    signum = _signals.last_signal
    if signum is None or signum == signal.SIGINT:
        return "interrupted"
    return f"stopped by {signal.Signals(signum).name}"


def _exit_now(code: int):
    """A signal handler ending the process at once with `code` (the output is flushed)."""

    def handler(signum, frame) -> None:
        from aqmlab import _signals

        _signals.exit_now(code)

    return handler


def _identity(path: Path) -> tuple[int, int] | None:
    """What is at `path` now (device and inode), to tell whether a write replaced it."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


@app.command()
def validate(
    scenario_file: Annotated[
        Path, typer.Argument(help="Scenario TOML file, or a bundled example's name (`aqmlab examples`).")
    ],
    allow_large: Annotated[
        bool, typer.Option("--allow-large", help="Accept a scenario above the work and memory limits.")
    ] = False,
) -> None:
    """Check SCENARIO_FILE and print the resolved scenario (SI units) as JSON.

    The work estimate comes first: a scenario above the limits is refused before the engine
    allocates anything (with --allow-large it is built, and checked, like any other)."""
    from aqmlab.scenario import load_scenario

    try:
        scenario = load_scenario(scenario_file)
        from aqmlab.simulation import validate as validate_scenario

        estimate = validate_scenario(scenario, allow_large=allow_large)
    except AqmlabError as error:
        _fail(str(error))
    except KeyboardInterrupt:
        _fail("interrupted", code=130)
    print(json.dumps(scenario.resolved(), indent=2, sort_keys=True))
    console.print(f"estimate: {estimate.describe()}", highlight=False, soft_wrap=True)


@app.command()
def summary(directory: Annotated[Path, typer.Argument(help="A results directory written by `aqmlab run`.")]) -> None:
    """Print the summary of saved results. Exit code 0 for complete results, 1 for partial
    ones (an interrupted run: a note says where it stopped), 2 for damaged ones (a file does
    not match its checksum in run.json: the message names it)."""
    from aqmlab._fsio import os_error_message
    from aqmlab.results import Results

    if (directory / "study.json").is_file():  # a study directory: its table is `aqmlab study`
        _fail(f"{directory} is a study (a sweep's runs), not one run; its table: aqmlab study {_quote(directory)}")
    try:
        if not directory.exists():
            _fail(f"{directory} does not exist")
        results = Results.load(directory)
        summaries = results.summaries()
    except EmptyWindowError as error:
        _fail(f"partial results: {error}", code=1)
    except AqmlabError as error:
        _fail(str(error))
    except OSError as error:
        _fail(os_error_message(error))
    title = f"{directory} ({results.scenario.name})" + (" [PARTIAL]" if results.partial else "")
    Console().print(summary_table(title, summaries))
    if results.partial:
        console.print(
            f"partial results: the run stopped at t = {results.end_s:g} s of {results.scenario.duration_s:g} s; "
            f"statistics are over [{results.measure_start_s:g}, {results.end_s:g}] s",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(1)


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the demo report.")] = DEFAULT_OUT / "demo",
    quick: Annotated[bool, typer.Option(help="Shorter runs (100 s instead of 500 s).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists and is not empty.")] = False,
) -> None:
    """The headline study (seed 000 at packet level), ending in one HTML report."""
    from aqmlab.demo import DEMO_REPRODUCTIONS, run_demo
    from aqmlab.progress import showing_simulations, steps_bar

    refuse_to_overwrite(out, force)
    try:
        with steps_bar("demo", len(DEMO_REPRODUCTIONS)) as step, showing_simulations():
            report = run_demo(out, quick=quick, progress=step)
    except AqmlabError as error:
        _fail(str(error))
    except KeyboardInterrupt:
        _fail("interrupted; finished parts are kept", code=130)
    console.print(f"report: {report}")


@app.command()
def report(
    directory: Annotated[Path, typer.Argument(help="A run, study or reproduction directory.")],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Directory for report.html [DIRECTORY itself].")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT/report.html if it exists.")] = False,
) -> None:
    """Write a self-contained HTML report, OUT/report.html (figures, tables, scenario, paper comparison).

    Damaged runs of a study (files not matching their checksums) are left out and named."""
    from aqmlab import _signals
    from aqmlab._fsio import os_error_message
    from aqmlab.progress import status
    from aqmlab.report import write_report

    if not directory.exists():
        _fail(f"{directory} does not exist")
    target = (out or directory) / "report.html"
    refuse_to_overwrite(target, force)
    problems = ""
    try:
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
        with status(f"writing the report of {directory}"):
            path = write_report(directory, target)
        if (directory / "study.json").is_file():
            from aqmlab.experiments.store import Study

            study = Study(directory)
            study.table()
            problems = study.describe_problems() if study.problems else ""
    except AqmlabError as error:
        _fail(str(error))
    except OSError as error:
        _fail(os_error_message(error))
    except KeyboardInterrupt:
        _fail(f"{_stopped_by()}; no report written", code=_signals.exit_code())
    console.print(f"wrote {path}")
    if problems:
        console.print(f"[bold yellow]warning:[/] {problems}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)


@app.command()
def reproduce(
    reproduction_id: Annotated[str | None, typer.Argument(help="Reproduction id (see --list), or 'all'.")] = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Directory for the outputs, one subdirectory per id.")
    ] = DEFAULT_OUT / "reproduce",
    quick: Annotated[bool, typer.Option(help="Reduced durations, sizes and seeds (CI, demo).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT/ID if it exists and is not empty.")] = False,
    list_: Annotated[bool, typer.Option("--list", help="List the reproductions.")] = False,
    record_into: Annotated[
        Path | None,
        typer.Option(
            "--record-into",
            help="Markdown file whose section for each id is replaced by this run's results (appended if new); "
            "or a directory (docs/reproduction): each id goes into DIR/seedNNN.md, recorded as soon as it finishes.",
        ),
    ] = None,
    index: Annotated[
        Path | None,
        typer.Option(help="With --record-into DIR: recompute the counts of this index (docs/reproduction.md)."),
    ] = None,
    update_verdicts: Annotated[
        bool,
        typer.Option(
            "--update-verdicts",
            help="Write these claims' verdicts into the verdict file (quick mode only; say why in the commit).",
        ),
    ] = False,
    verdicts: Annotated[Path, typer.Option(help="The verdict file for --update-verdicts.")] = Path(
        "tests/reproduce/verdicts.json"
    ),
) -> None:
    """Reproduce a figure or claim of the seed papers: figures, data, and paper against aqmlab."""
    from aqmlab.report import write_report
    from aqmlab.reproduce import REGISTRY
    from aqmlab.reproduce import reproduce as run_reproduction
    from aqmlab.reproduce.record import page_for, record_sections, update_index
    from aqmlab.results_io import read_reproduction

    if list_ or reproduction_id is None:
        table = Table(title=f"{len(REGISTRY)} reproductions")
        for column in ("id", "title", "full run"):
            table.add_column(column)
        for item in REGISTRY.values():
            table.add_row(item.id, item.title, item.full_cost)
        Console().print(table)
        return
    if update_verdicts and not quick:
        _fail("--update-verdicts records quick-mode verdicts; add --quick")
    if index is not None and (record_into is None or not record_into.is_dir()):
        _fail("--index needs --record-into DIR (a directory of per-paper pages)")
    ids = list(REGISTRY) if reproduction_id == "all" else [reproduction_id]
    unknown = [i for i in ids if i not in REGISTRY]
    if unknown:
        _fail(f"unknown reproduction {unknown[0]!r}; known: {', '.join(REGISTRY)}")
    for item_id in ids:
        refuse_to_overwrite(out / item_id, force)
    from aqmlab.progress import showing_simulations

    disagreements, directories, records = 0, [], []
    for item_id in ids:
        console.print(f"reproducing {item_id}{' (quick)' if quick else ''} ...")
        with showing_simulations():
            directory = run_reproduction(item_id, out / item_id, quick=quick)
        directories.append(directory)
        write_report(directory)
        meta = read_reproduction(directory)
        records.append(meta)
        for claim in meta["comparison"]:
            verdict = claim.get("verdict", "agrees" if claim["agrees"] else "differs")
            mark = f"[green]{verdict}[/]" if claim["agrees"] else f"[red]{verdict}[/]"
            console.print(f"  {mark} {claim['claim']}: {claim['aqmlab']}", highlight=False)
            disagreements += not claim["agrees"]
        console.print(f"  wrote {directory} ({meta['wall_time_s']:.1f} s)")
        if record_into is not None and record_into.is_dir():
            page = page_for(item_id, record_into)
            record_sections(page, [directory])
            if index is not None:
                update_index(index, record_into)
            console.print(f"  recorded in {page}")
    console.print(f"{disagreements} claim(s) differ from the paper" if disagreements else "all claims agree")
    if record_into is not None and not record_into.is_dir():
        console.print(f"recorded {', '.join(record_sections(record_into, directories))} in {record_into}")
    if update_verdicts:
        from aqmlab.reproduce.verdicts import update

        update(verdicts, records, registered=set(REGISTRY) if reproduction_id == "all" else None)
        console.print(f"updated {sum(len(r['comparison']) for r in records)} verdict(s) in {verdicts}")


def main() -> None:
    from aqmlab import _signals
    from aqmlab._fsio import os_error_message

    _signals.install()  # SIGTERM and SIGHUP stop a command like Ctrl-C
    try:
        app()
        code = 0
    except KeyboardInterrupt:
        console.print(f"[bold red]error:[/] {_stopped_by()}", highlight=False)
        code = _signals.exit_code()
    except OSError as error:  # a path no command anticipated: still one line, never a traceback
        console.print(f"[bold red]error:[/] {os_error_message(error)}", highlight=False, soft_wrap=True)
        code = 2
    except SystemExit as exit:
        # The command has decided the exit code (and written what it writes): a signal
        # while the interpreter shuts down must not turn it into death by that signal.
        for signum in _signals.STOPPING:
            signal.signal(signum, signal.SIG_IGN)
        if not isinstance(exit.code, int | None):
            raise
        code = exit.code or 0
        if code == 130 and _signals.last_signal not in (None, signal.SIGINT):
            # typer turns a KeyboardInterrupt no command caught (a SIGTERM or SIGHUP while
            # it loads a command) into a silent exit 130: say what stopped it, and exit 128 + it.
            console.print(f"[bold red]error:[/] {_stopped_by()}", highlight=False)
            code = _signals.exit_code()
    if _signals.last_signal is not None:
        # CPython ends a process by SIGINT, whatever its exit code, once a KeyboardInterrupt
        # went through code it ran from a string (eval, as pydantic does while importing),
        # even if that interrupt was caught: end with the code the command chose instead.
        _signals.exit_now(code)
    sys.exit(code)


if __name__ == "__main__":
    main()
