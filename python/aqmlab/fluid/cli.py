"""`aqmlab fluid MODEL --set name=value ... --t-end 200 --out DIR`: integrate a fluid model
(a batch when a value is a comma list) and write its data (Parquet, JSON) and figures (PNG).

Mounted by the main CLI as `aqmlab fluid`; also runs standalone:
`python -m aqmlab.fluid.cli MODEL ...`. One sub-command per registered model and per model of
an installed package (entry-point group `aqmlab.fluid_models`); a user's model by reference,
`aqmlab fluid path/file.py:Class --set ...` (docs/extending.md).
"""

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from typer.core import TyperGroup

from aqmlab.fluid.models import FluidError, get_model, is_reference, model_class, model_names

console = Console(stderr=True)  # messages and errors
results = Console()  # the analysis: stdout, so that it can be piped


class _ModelGroup(TyperGroup):
    """Sub-commands are models; an unknown one gets an error listing the models."""

    def resolve_command(self, ctx, args):
        if args and args[0] not in self.commands and is_reference(args[0]):
            try:
                self.add_command(_user_command(args[0]), args[0])
            except FluidError as error:
                ctx.fail(str(error))
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            import difflib

            names = model_names()
            match = difflib.get_close_matches(args[0], names, n=1, cutoff=0.6)
            hint = f"; did you mean {match[0]!r}?" if match else ""
            ctx.fail(
                f"model = {args[0]!r} is not a fluid model{hint} (allowed: {', '.join(names)}, or a user's model "
                'as "path/file.py:Class")'
            )
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx):
        return list(self.commands)


app = typer.Typer(
    cls=_ModelGroup,
    add_completion=False,
    no_args_is_help=True,
    help="Integrate a fluid (delay-differential) model: aqmlab fluid MODEL --set name=value ... --out DIR",
)


def _fail(message: str, code: int = 2) -> None:
    from rich.markup import escape

    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise FluidError(
                f"{what} {item!r} is not name=value; allowed: e.g. {what} gamma=0.03 or {what} gamma=0.028,0.032"
            )
        out[key.strip()] = value.strip()
    return out


def parse_values(model, raw: dict[str, str]) -> dict[str, list[float]]:
    """'--set' values: numbers or comma lists of numbers, checked against the model's parameters."""
    values: dict[str, list[float]] = {}
    for key, text in raw.items():
        if key not in model.params:
            raise FluidError(
                f"parameter {key!r} is not a parameter of model {model.name}; allowed: {', '.join(model.params)}"
            )
        spec = model.params[key]
        numbers = []
        for part in text.split(","):
            try:
                numbers.append(float(part))
            except ValueError:
                raise FluidError(
                    f"parameter {key} = {text!r} of model {model.name} is not a number; "
                    f"allowed: numbers in {spec.allowed()} {spec.unit}, or a comma list"
                ) from None
        values[key] = numbers
    return values


def run(
    model_name: str,
    sets: list[str],
    options: list[str],
    grid: bool,
    t_end: float,
    h: float | None,
    method: str,
    history: str,
    perturbation: float,
    record_dt: float | None,
    out: Path | None,
    force: bool,
) -> Path | None:
    """Validate everything, integrate, print a summary, then (with `out`) write all outputs
    atomically."""
    from aqmlab.cli_common import refuse_to_overwrite
    from aqmlab.fluid.integrate import grid as cartesian
    from aqmlab.fluid.integrate import integrate
    from aqmlab.fluid.plots import plot_phase, plot_timeseries

    if out is not None:
        refuse_to_overwrite(out, force)
    model = get_model(model_name, **_pairs(options, "--option"))
    values = parse_values(model, _pairs(sets, "--set"))
    params = cartesian(**values) if grid and values else values
    model.resolve(params)  # every parameter error before any work
    if history not in ("perturbed", "equilibrium"):
        raise FluidError(f"history = {history!r}; allowed: perturbed, equilibrium")
    kwargs = dict(history=history, perturbation=perturbation)
    if model.kind == "map":
        result = integrate(model, params, t_end=int(t_end), **kwargs)
    else:
        result = integrate(model, params, t_end=t_end, h=h, method=method, record_dt=record_dt, **kwargs)

    def figures(staging: Path) -> None:
        plot_timeseries(result, staging / "timeseries.png")
        plot_phase(result, staging / "phase.png")
        (staging / "figures.json").write_text(
            json.dumps(
                {
                    "timeseries.png": "timeseries.parquet: every state against t, one line per point",
                    "phase.png": (
                        f"timeseries.parquet: {result.state_names[0]}(t) against {result.state_names[0]}(t - delay)"
                    ),
                },
                indent=2,
            )
        )

    summary = result.summary()
    first = result.state_names[0]
    for row in summary.to_pylist()[:10]:
        results.print(
            f"point {row['point']}: {first} mean {row[first + '_mean']:.5g}, amplitude "
            f"{row[first + '_amplitude']:.3g}, period {row[first + '_period']:.4g}",
            highlight=False,
        )
    if summary.num_rows > 10:
        results.print(f"... {summary.num_rows - 10} more point(s)", highlight=False)
    if out is None:
        console.print(
            f"{result.n_points} point(s) in {result.meta['wall_time_s']:.2f} s; nothing written (--out DIR writes "
            "the time series, summary and figures)",
            highlight=False,
        )
        return None
    path = result.save(out, overwrite=force, extra=figures)
    console.print(f"wrote {path} ({result.n_points} point(s), {result.meta['wall_time_s']:.2f} s)")
    return path


def _user_command(reference: str):
    """The click command of a user's model named by reference (made when it is asked for)."""
    single = typer.Typer(add_completion=False)
    cls = model_class(reference)
    single.command(name=reference, short_help=cls.title)(_make_command(reference))
    return typer.main.get_command(single)


def _make_command(name: str):
    cls = model_class(name)
    options_help = "; ".join(f"{key} (default {default}: {allowed})" for key, (default, allowed) in cls.options.items())

    def command(
        sets: Annotated[
            list[str], typer.Option("--set", "-s", help="name=value or name=v1,v2,... (a batch); repeatable.")
        ] = [],  # noqa: B006
        options: Annotated[
            list[str], typer.Option("--option", "-O", help=f"Model option key=value. {options_help or 'None.'}")
        ] = [],  # noqa: B006
        grid: Annotated[
            bool, typer.Option("--grid", help="Cartesian product of the listed values (default: zip).")
        ] = False,
        t_end: Annotated[float, typer.Option("--t-end", help="End time, s (maps: number of RTT steps).")] = 200.0,
        h: Annotated[float | None, typer.Option("--h", help="Step, s (default: shortest delay / 20).")] = None,
        method: Annotated[str, typer.Option("--method", help="rk4 or rk3.")] = "rk4",
        history: Annotated[str, typer.Option("--history", help="perturbed or equilibrium.")] = "perturbed",
        perturbation: Annotated[float, typer.Option("--perturbation", help="Relative offset of the history.")] = 0.1,
        record_dt: Annotated[
            float | None, typer.Option("--record-dt", help="Sampling interval of the output, s.")
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option("--out", "-o", help="Also write the time series, summary and figures into this directory."),
        ] = None,
        force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists and is not empty.")] = False,
    ) -> None:
        try:
            run(name, sets, options, grid, t_end, h, method, history, perturbation, record_dt, out, force)
        except FluidError as error:
            _fail(str(error))
        except KeyboardInterrupt:
            _fail("interrupted; nothing was written", code=130)

    from aqmlab.analysis.fluid_mapping import PER_FLOW, PER_FLOW_MODELS

    physical = PER_FLOW if name in PER_FLOW_MODELS else {}
    params_help = "\n\n".join(
        f"{key} = {spec.default:g} {spec.unit}: {spec.doc}" + (f" — {physical[key]}" if key in physical else "")
        for key, spec in getattr(cls(), "params", {}).items()
    )
    command.__doc__ = f"{cls.title}. Source: {cls.source}.\n\nParameters (--set):\n\n{params_help}"
    return command


for _name in model_names():
    try:
        app.command(name=_name, help=None, short_help=model_class(_name).title)(_make_command(_name))
    except FluidError:  # a broken package's entry point: reported when it is named (`get_model`)
        pass


if __name__ == "__main__":
    app()
