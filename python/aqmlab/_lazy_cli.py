"""Commands that are imported only when invoked, so `aqmlab --help` (and any command) does not
load the fluid models, the stability analysis, pyarrow or pydantic it does not use.

`aqmlab --help` lists these commands from their one-line help here; running one imports its
module (`benchmarks/startup/` records the effect: ~4 s down to ~0.1 s).
"""

from __future__ import annotations

import importlib
import sys

import typer
from typer.core import TyperCommand, TyperGroup

#: Click's base of usage errors (typer >= 0.29 bundles its own click: found through typer's class).
_CLICK_ERROR = next(kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException")

#: name -> (module, attribute: a command function or a Typer app, one-line help).
LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "sweep": ("aqmlab.experiments.cli", "sweep", "Run every point of a sweep file into a resumable study directory."),
    "study": ("aqmlab.experiments.cli", "study", "Print a study's runs: swept parameters and key statistics, sorted."),
    "red-config": ("aqmlab.design.cli", "red_config", "Recommend RED parameters for a link, flow range and RTT range."),
    "stability": ("aqmlab.stability.cli", "stability_command", "Linear stability of a fluid model at one point."),
    "chart": ("aqmlab.chart_cli", "chart_command", "A stability chart: the Hopf boundary over two parameters."),
    "bifurcation": ("aqmlab.stability.cli", "bifurcation_command", "A bifurcation diagram by integration."),
    "fluid": ("aqmlab.fluid.cli", "app", "Fluid (delay-differential) models: integrate, plot, save."),
    "examples": ("aqmlab._lazy_cli", "examples_command", "The example scenarios bundled in the package, by name."),
    "schema": ("aqmlab.reference", "schema_command", "The scenario and sweep reference (Markdown) or JSON Schema."),
    "trace": ("aqmlab.traces.cli", "trace_command", "A run's per-packet trace as ns-2 trace lines, pcap or Parquet."),
}


def _as_click(name: str, target):
    if isinstance(target, typer.Typer):
        command = typer.main.get_group(target)
    else:
        holder = typer.Typer(add_completion=False)
        holder.command(name)(target)
        command = typer.main.get_command(holder)
    command.name = name
    return command


class LazyGroup(TyperGroup):
    """A Typer group whose LAZY_COMMANDS are imported on first use."""

    _listing = False

    def list_commands(self, ctx) -> list[str]:
        return [*super().list_commands(ctx), *(name for name in LAZY_COMMANDS if name not in self.commands)]

    def get_command(self, ctx, cmd_name: str):
        if cmd_name in self.commands or cmd_name not in LAZY_COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, attribute, short_help = LAZY_COMMANDS[cmd_name]
        if self._listing:  # `aqmlab --help`: the one-line help is enough
            return TyperCommand(name=cmd_name, help=short_help, short_help=short_help)
        command = _as_click(cmd_name, getattr(importlib.import_module(module), attribute))
        self.commands[cmd_name] = command
        return command

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Click's usage errors ("Usage: ... Try ... Error: ...") as one line in the style of every
        other error: `error: MESSAGE (see `aqmlab COMMAND --help`)`."""
        try:
            value = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _CLICK_ERROR as error:
            if not standalone_mode:
                raise
            one_line_error(error)
            sys.exit(error.exit_code)
        except typer.Abort:
            if not standalone_mode:
                raise
            typer.echo("aborted", err=True)
            sys.exit(1)
        if standalone_mode:
            sys.exit(value if isinstance(value, int) else 0)
        return value

    def format_help(self, ctx, formatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def one_line_error(error: Exception) -> None:
    """`error: MESSAGE (see `aqmlab COMMAND --help`)` on stderr."""
    message = error.format_message().replace("\n", " ")
    ctx = getattr(error, "ctx", None)
    hint = ""
    if ctx is not None:
        words = ctx.command_path.split()
        # `python -m aqmlab.cli fluid ctcp-red` and `aqmlab fluid ctcp-red` alike
        path = " ".join(
            ["aqmlab", *words[3:]] if words[:3] == ["python", "-m", "aqmlab.cli"] else ["aqmlab", *words[1:]]
        )
        hint = f" (see `{path} --help`)"
    typer.echo(f"error: {message}{hint}", err=True)


def examples_command(
    name: str | None = typer.Argument(None, help="An example's name: print its TOML (to copy and edit)."),
) -> None:
    """The example scenarios bundled in the package: `aqmlab run NAME`, `aqmlab stability NAME`
    and `aqmlab validate NAME` take a name from this list anywhere, without a checkout."""
    from importlib import resources

    from aqmlab import _toml
    from aqmlab.scenario import example_names, load_scenario

    names = example_names()
    folder = resources.files("aqmlab") / "scenarios"
    if name is not None:
        if name not in names:
            try:
                load_scenario(name)  # the error with its did-you-mean
            except Exception as error:  # noqa: BLE001 - any failure is the message
                typer.echo(f"error: {error}", err=True)
                raise typer.Exit(2) from None
        typer.echo((folder / f"{name}.toml").read_text(), nl=False)
        return
    import shutil

    width = max(len(n) for n in names)
    room = max(shutil.get_terminal_size().columns - width - 2, 20)
    for entry in names:
        text = (folder / f"{entry}.toml").read_text()
        description = _toml.loads(text).get("description", "")
        if not description:  # the file's first comment line
            description = next((line[1:].strip() for line in text.splitlines() if line.startswith("#")), "")
        if len(description) > room:
            description = description[: room - 1] + "…"
        typer.echo(f"{entry:<{width}}  {description}")
