"""Commands that are imported only when invoked, so `aqmlab --help` (and any command) does not
load the fluid models, the stability analysis, pyarrow or pydantic it does not use.

`aqmlab --help` lists these commands from their one-line help here; running one imports its
module (`benchmarks/startup/` records the effect: ~4 s down to ~0.1 s).
"""

from __future__ import annotations

import importlib

import typer
from typer.core import TyperCommand, TyperGroup

#: name -> (module, attribute: a command function or a Typer app, one-line help).
LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "sweep": ("aqmlab.experiments.cli", "sweep", "Run every point of a sweep file into a resumable study directory."),
    "study": ("aqmlab.experiments.cli", "study", "Print a study's runs: swept parameters and key statistics, sorted."),
    "red-config": ("aqmlab.design.cli", "red_config", "Recommend RED parameters for a link, flow range and RTT range."),
    "stability": ("aqmlab.stability.cli", "stability_command", "Linear stability of a fluid model at one point."),
    "chart": ("aqmlab.chart_cli", "chart_command", "A stability chart: the Hopf boundary over two parameters."),
    "bifurcation": ("aqmlab.stability.cli", "bifurcation_command", "A bifurcation diagram by integration."),
    "fluid": ("aqmlab.fluid.cli", "app", "Fluid (delay-differential) models: integrate, plot, save."),
    "schema": ("aqmlab.reference", "schema_command", "The scenario and sweep reference (Markdown) or JSON Schema."),
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

    def format_help(self, ctx, formatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False
