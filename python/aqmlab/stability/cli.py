"""CLI for the stability tools: ``stability``, ``chart``, ``bifurcation``.

``app`` is a typer app with the three commands; the functions :func:`stability_command`,
:func:`chart_command` and :func:`bifurcation_command` can also be registered at the top level
of the main CLI (``app.command("stability")(stability_command)`` etc.).
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from aqmlab.fluid.models.base import FluidError

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Stability and Hopf-bifurcation analysis of fluid models."
)
console = Console()
err = Console(stderr=True)

SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        help="parameter NAME=VALUE (repeatable). The seed 000 models (ctcp-*) are PER FLOW: C = link packets/s ÷ "
        "flows, b_min/b_max/buffer = packets ÷ flows; `aqmlab fluid MODEL --help` says what each is, and "
        "`aqmlab stability SCENARIO.toml` derives them from a packet scenario",
    ),
]
OptOpt = Annotated[
    list[str] | None, typer.Option("--option", "-O", help="model option NAME=VALUE, e.g. tcp=reno (repeatable)")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace OUT if it exists and is not empty.")]
ModelOpt = Annotated[
    str | None,
    typer.Option(
        "--model",
        "-m",
        help='a fluid model: a name, or a user\'s FluidModel subclass as "path/file.py:Class" or "module:Class" '
        "(docs/extending.md); instead of the MODEL argument",
    ),
]


def _one_model(argument: str | None, option: str | None) -> str:
    """The model named by the argument or by --model (exactly one of them)."""
    if (argument is None) == (option is None):
        _fail("give the model once: as the MODEL argument or as --model (e.g. --model my_model.py:MyModel)")
    return argument if option is None else option


def _known_model(name: str) -> bool:
    """A built-in model, an installed package's (entry point), or a class reference."""
    from aqmlab.fluid.models import MODELS, entry_point_models, is_reference

    return name in MODELS or is_reference(name) or name in entry_point_models()


def _default_out(command: str, model: str) -> Path:
    from aqmlab.cli_common import DEFAULT_OUT

    return DEFAULT_OUT / command / model


def _fail(message: str) -> None:
    from rich.markup import escape

    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _pairs(items, what: str, numeric: bool) -> dict:
    out = {}
    for item in items or []:
        if "=" not in item:
            _fail(f"{what} {item!r}; allowed: NAME=VALUE")
        key, value = item.split("=", 1)
        if numeric:
            try:
                out[key.strip()] = float(value)
            except ValueError:
                _fail(f"{what} {key} = {value!r} is not a number; allowed: a number")
        else:
            out[key.strip()] = value.strip()
    return out


def _model(name, options):
    from aqmlab.fluid.models import get_model

    try:
        return get_model(name, **options)
    except FluidError as exc:
        _fail(str(exc))


def _out_dir(out: Path, force: bool):
    """A temporary directory next to ``out`` (renamed into place at the end: nothing half-written);
    an existing non-empty ``out`` is refused unless ``force`` (the one overwrite rule)."""
    from aqmlab.cli_common import refuse_to_overwrite

    out = Path(out)
    refuse_to_overwrite(out, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))


def _publish(tmp: Path, out: Path):
    """Replace ``out`` (already cleared to be replaced by `_out_dir`) with ``tmp``."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out) if out.is_dir() else out.unlink()
    tmp.rename(out)


def _is_scenario(target: str) -> bool:
    """A TOML path, an existing file, or a bundled example's name (not a fluid model)."""
    from aqmlab.fluid.models import MODELS, is_reference

    if target in MODELS or is_reference(target):
        return False
    if target.endswith(".toml") or Path(target).is_file():
        return True
    from aqmlab.scenario import example_names

    return target in example_names()


def _unknown_target(target: str) -> None:
    import difflib

    from aqmlab.fluid.models import model_names
    from aqmlab.scenario import example_names

    known = [*model_names(), *example_names()]
    match = difflib.get_close_matches(target, known, n=1, cutoff=0.6)
    hint = f"; did you mean {match[0]!r}?" if match else ""
    _fail(
        f"MODEL_OR_SCENARIO = {target!r} is neither a fluid model nor a scenario{hint}; allowed: a model "
        f'({", ".join(model_names())}, or a user\'s "file.py:Class"), a scenario TOML file, or a bundled example '
        "(`aqmlab examples`)"
    )


def _pick_out(out: Path | None, force: bool) -> Path | None:
    """Where to write, if anywhere: nothing unless --out (the analysis is always printed)."""
    if out is None:
        return None
    return _out_dir(out, force)


def stability_command(
    target: Annotated[
        str | None,
        typer.Argument(
            metavar="MODEL_OR_SCENARIO",
            help="a fluid model (listed by `aqmlab fluid --help`; parameters per flow, see `aqmlab fluid MODEL "
            '--help`; a user\'s as "file.py:Class"), or a packet scenario: a TOML file or a bundled example '
            "(`aqmlab examples`)",
        ),
    ] = None,
    model_option: ModelOpt = None,
    set_: SetOpt = None,
    opt: OptOpt = None,
    count: Annotated[int, typer.Option(help="number of rightmost roots to show")] = 6,
    degree: Annotated[int, typer.Option("--degree", help="Chebyshev degree N of the generator discretisation")] = 24,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="also write roots, summary and figure into this directory"),
    ] = None,
    force: ForceOpt = False,
    boundaries: Annotated[
        bool, typer.Option("--boundaries/--no-boundaries", help="scenario: search the Hopf boundary along each knob")
    ] = True,
    verify: Annotated[
        bool, typer.Option("--verify", help="scenario: run the packet simulation and say whether the queue oscillates")
    ] = False,
    seeds: Annotated[str, typer.Option(help="--verify: seeds, e.g. 1,2,3")] = "1,2,3",
    duration: Annotated[
        float | None, typer.Option(help="--verify: simulated seconds per run [the scenario's duration]")
    ] = None,
    analysis_start: Annotated[
        float | None, typer.Option(help="--verify: the oscillation is measured after this, s [duration / 5]")
    ] = None,
    tau: Annotated[
        str,
        typer.Option(
            "--tau",
            help="scenario: τ is the RTT's propagation delay ('propagation', seed 000's reading) or "
            "propagation + serialisation + equilibrium queueing ('closed'); docs/fluid-mapping.md",
        ),
    ] = "propagation",
):
    """Linear stability at one point: of a fluid model (--set per-flow parameters), or of a packet
    scenario (its fluid model derived from link rate, flows, packet size, RTT, queue policy and
    TCP; docs/fluid-mapping.md): mapping, equilibrium, rightmost characteristic roots, verdict
    and margin, and where the verdict changes along each physical knob."""
    target = _one_model(target, model_option)
    if _is_scenario(target):
        if set_ or opt:
            _fail("--set and --option are for fluid models; a scenario's parameters come from its file")
        _scenario_stability(target, count, out, force, boundaries, verify, seeds, duration, analysis_start, tau)
        return
    if verify:
        _fail("--verify needs a packet scenario (a TOML file or `aqmlab examples` name); got a fluid model")
    if not _known_model(target):
        _unknown_target(target)
    from aqmlab.fluid.models import MODELS
    from aqmlab.stability.conditions import conditions_for
    from aqmlab.stability.linearise import linearise
    from aqmlab.stability.roots import characteristic_roots

    model = target
    params = _pairs(set_, "--set", True)
    options = _pairs(opt, "--option", False)
    m = _model(model, options)
    try:
        lin = linearise(m, params)
        roots = characteristic_roots(lin, count=count, N=degree)
        conds = conditions_for(m.name, params, options) if target in MODELS else []  # the papers' models
    except FluidError as exc:
        _fail(str(exc))
    eq = Table(title=f"{m.name} equilibrium")
    eq.add_column("state")
    eq.add_column("value", justify="right")
    for name, value in zip(lin.state_names, lin.equilibrium, strict=True):
        eq.add_row(name, f"{value:.6g}")
    console.print(eq)
    _print_roots(roots)
    if conds:
        ct = Table(title="papers' conditions")
        for col in ("condition", "kind", "lhs", "bound", "holds", "source"):
            ct.add_column(col)
        for c in conds:
            ct.add_row(c.name, c.kind, f"{c.lhs:.6g}", f"{c.rhs:.6g}", "yes" if c.holds else "no", c.source)
        console.print(ct)
    tmp = _pick_out(out, force)
    if tmp is None:
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    from aqmlab.stability.plots import plot_roots

    pq.write_table(
        pa.table({"re": roots.roots.real, "im": roots.roots.imag, "converged": roots.converged}),
        tmp / "roots.parquet",
    )
    summary = {
        "model": m.name,
        "params": lin.params,
        "options": options,
        "equilibrium": dict(zip(lin.state_names, lin.equilibrium.tolist(), strict=True)),
        "verdict": roots.verdict(),
        "margin": roots.margin,
        "conditions": [
            {k: (bool(v) if isinstance(v, (bool,)) or type(v).__name__ == "bool_" else v) for k, v in c.row().items()}
            for c in conds
        ],
    }
    (tmp / "summary.json").write_text(json.dumps(summary, indent=1, default=float))
    plot_roots(roots, tmp / "roots.png", title=f"{m.name}: {roots.verdict()}")
    _publish(tmp, out)
    console.print(f"written: {out}")


def _print_roots(roots) -> None:
    rt = Table(title="rightmost characteristic roots")
    for col in ("Re λ (1/s)", "Im λ (rad/s)", "period (s)", "Newton"):
        rt.add_column(col, justify="right")
    for r, ok in zip(roots.roots, roots.converged, strict=True):
        rt.add_row(
            f"{r.real:.6g}",
            f"{r.imag:.6g}",
            f"{2 * math.pi / r.imag:.4g}" if r.imag > 1e-12 else "-",
            "ok" if ok else "no",
        )
    console.print(rt)
    console.print(f"verdict: [bold]{roots.verdict()}[/]  margin −max Re λ = {roots.margin:.6g} 1/s")


def verify_packet(scenario, seeds: list[int], duration: float | None, analysis_start: float | None, echo=None):
    """Run `scenario` with each seed and classify its queue with the packet charts' detector
    (`aqmlab.analysis.oscillation`): the per-run measures and the verdict over
    seeds."""
    from aqmlab.analysis.oscillation import combine, measure_run
    from aqmlab.simulation import simulate

    duration = duration or scenario.duration_s
    start = analysis_start if analysis_start is not None else duration / 5
    if not 0 <= start < duration:
        raise ValueError(f"--analysis-start = {start:g} s; allowed: 0 <= it < the duration {duration:g} s")
    runs = []
    for seed in seeds:
        changed = scenario.with_changes(seed=seed, duration=f"{duration}s", measure_start=None)
        measures = measure_run(simulate(changed), start)
        runs.append(measures)
        if echo:
            echo(
                f"  seed {seed}: {measures.verdict} (swing {measures.swing:.3g} of a {measures.band:g}-packet band, "
                f"r = {measures.relative_swing:.2f}; period {measures.period_s:.3g} s)"
            )
    return runs, combine([run.verdict for run in runs])


def _scenario_stability(
    target, count, out, force, boundaries, verify, seeds, duration, analysis_start, tau="propagation"
) -> None:
    from rich.markup import escape

    from aqmlab.errors import AqmlabError
    from aqmlab.scenario import load_scenario
    from aqmlab.stability.scenario import of_scenario

    try:
        scenario = load_scenario(target)
        result = of_scenario(scenario, tau=tau, boundaries=boundaries, count=count)
    except (AqmlabError, FluidError, ValueError) as exc:
        _fail(str(exc))
    mapping = result.mapping
    physical = mapping.physical
    console.print(
        f"[bold]{escape(result.name)}[/]: {physical.flows} flows, {physical.rate_bps / 1e6:.6g} Mb/s, "
        f"{physical.packet_bytes:g} B packets, RTT {physical.rtt_s * 1e3:.4g} ms, {physical.policy}, {physical.cc} "
        f"→ fluid model {mapping.model} (tcp = {mapping.options['tcp']})",
        highlight=False,
    )
    table = Table(title="mapping (docs/fluid-mapping.md)")
    for col in ("parameter", "value", "unit", "from the scenario", "seed 000"):
        table.add_column(col)
    for row in mapping.rows:
        value = "" if row.value != row.value else f"{row.value:.4g}"
        table.add_row(row.symbol, value, row.unit, escape(row.physical), row.source)
    console.print(table)
    for note in mapping.notes:
        console.print(f"note: {escape(note)}", highlight=False)
    eq = ", ".join(f"{k}* = {v:.4g}" for k, v in result.equilibrium.items())
    queue = (
        f"; whole queue N q* = {result.equilibrium['q'] * physical.flows:.4g} packets"
        if "q" in result.equilibrium
        else ""
    )
    console.print(f"equilibrium (per flow): {eq}{queue}", highlight=False)
    _print_roots(result.roots)
    for b in result.boundaries:
        console.print(f"  {b.sentence(result.stable)}", highlight=False)
    predicted = result.predicted
    if predicted:
        line = (
            f"Hopf point in τ: {predicted['hopf_tau_s'] * 1e3:.4g} ms, period there {predicted['period_s']:.3g} s"
            + (f", {predicted['kind']}" if "kind" in predicted else "")
        )
        amplitude = predicted.get("queue_amplitude_packets", predicted.get("window_amplitude_packets"))
        if amplitude is not None:
            what = "queue" if "queue_amplitude_packets" in predicted else "window"
            if result.stable and predicted.get("kind") == "subcritical":  # the cycle that bounds the basin
                line += f"; an unstable cycle here, {what} amplitude ±{amplitude:.3g} packets: larger swings grow"
            else:
                line += f"; predicted {what} amplitude here ±{amplitude:.3g} packets"
            if not predicted.get("valid_near_boundary"):
                line += " (normal form, far from the boundary: order of magnitude only)"
        console.print(line, highlight=False)
    summary = result.summary()
    if verify:
        seed_list = _seed_list(seeds)
        console.print(
            f"packet check: {len(seed_list)} run(s) of {duration or scenario.duration_s:g} s ...", highlight=False
        )
        try:
            runs, verdict = verify_packet(
                scenario, seed_list, duration, analysis_start, echo=lambda line: console.print(line, highlight=False)
            )
        except (AqmlabError, ValueError) as exc:
            _fail(str(exc))
        agree = {"stable": "stable", "unstable": "oscillating"}.get(result.verdict)
        relation = (
            "agrees with"
            if verdict.verdict == agree
            else "undecided against"
            if verdict.verdict == "undecided"
            else "disagrees with"
        )
        console.print(
            f"packet: [bold]{verdict.verdict}[/] ({verdict.oscillating} of {verdict.seeds} seeds oscillating) — "
            f"{relation} the fluid verdict {result.verdict}",
            highlight=False,
        )
        summary["packet"] = {"verdict": verdict.row(), "runs": [run.row() for run in runs]}
    tmp = _pick_out(out, force)
    if tmp is None:
        return
    (tmp / "summary.json").write_text(json.dumps(summary, indent=1, default=float))
    _publish(tmp, out)
    console.print(f"written: {out}")


def _seed_list(text: str) -> list[int]:
    try:
        seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        _fail(f"--seeds {text!r}; allowed: integers separated by commas, e.g. 1,2,3")
    if not seeds or any(seed < 0 for seed in seeds):
        _fail(f"--seeds {text!r}; allowed: one or more non-negative integers, e.g. 1,2,3")
    return seeds


#: The packet-chart runner of `aqmlab chart --packet`, set by the top-level CLI (aqmlab.chart_cli):
#: the stability layer does not import the experiments (tests/architecture/test_imports.py).
PACKET_CHART = None


def chart_command(
    model: Annotated[str, typer.Argument(help="fluid model name (with --packet: a scenario, embedded name or TOML)")],
    x: Annotated[
        str,
        typer.Option(
            "--x", help="NAME=LOW..HIGH of the continuation parameter (--packet: NAME=LOW..HIGH:N or NAME=V1,V2,...)"
        ),
    ],
    y: Annotated[str, typer.Option("--y", help="NAME, or NAME=LOW..HIGH (range scanned for the first Hopf point)")],
    set_: SetOpt = None,
    opt: OptOpt = None,
    points: Annotated[int, typer.Option(help="points along the boundary")] = 200,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="also write chart.png, .parquet, .json into this directory (--packet: the probe store "
            "[aqmlab-out/chart/packet-SCENARIO])",
        ),
    ] = None,
    force: ForceOpt = False,
    packet: Annotated[
        bool,
        typer.Option(
            "--packet",
            help="Locate the boundary in packet simulations (axes rtt, per_flow_capacity, q_th); OUT is the "
            "probe store: rerun to resume",
        ),
    ] = False,
    seeds: Annotated[str, typer.Option(help="--packet: seeds of every probe")] = "1,2,3",
    duration: Annotated[float, typer.Option(help="--packet: simulated seconds per run")] = 150.0,
    analysis_start: Annotated[float, typer.Option(help="--packet: the oscillation is measured after this, s")] = 50.0,
    tolerance: Annotated[
        float | None, typer.Option(help="--packet: widest accepted bracket in y [range/16; 2^(1/4) with --log-y]")
    ] = None,
    log_y: Annotated[bool, typer.Option("--log-y", help="--packet: bisect at geometric midpoints")] = False,
    max_rounds: Annotated[int, typer.Option(help="--packet: most bisections per x")] = 6,
    workers: Annotated[int, typer.Option(help="--packet: processes (or Dask workers with --cluster local)")] = 1,
    cluster: Annotated[
        str | None, typer.Option(help="--packet: Dask scheduler address, or 'local' for a LocalCluster")
    ] = None,
):
    """Stability chart: the Hopf boundary traced by continuation, with ω and the period along it;
    with --packet, the boundary where packet simulations start to oscillate (bracketed and bisected
    over several seeds per probe) beside the fluid model's Hopf curve (docs/stability.md)."""
    if packet:
        from aqmlab.errors import AqmlabError

        run_packet_chart = PACKET_CHART
        if run_packet_chart is None:
            _fail("--packet: run it as `aqmlab chart` (the packet chart is wired in by aqmlab.chart_cli)")
        if set_ or opt:
            _fail("--set and --option are for fluid charts; allowed with --packet: the scenario's own values")
        target = Path(out or _default_out("chart", f"packet-{Path(model).stem}"))
        if force and target.exists():
            shutil.rmtree(target) if target.is_dir() else target.unlink()
        elif not (target / "chart.json").is_file():  # a packet chart's directory is resumed, nothing else is touched
            from aqmlab.cli_common import refuse_to_overwrite

            refuse_to_overwrite(target, force, what=" and holds no packet chart to resume")
        try:
            run_packet_chart(
                model,
                x,
                y,
                seeds=seeds,
                duration=duration,
                analysis_start=analysis_start,
                tolerance=tolerance,
                log_y=log_y,
                max_rounds=max_rounds,
                workers=workers,
                cluster=cluster,
                out=target,
                echo=lambda line: console.print(line, highlight=False),
            )
        except (ValueError, AqmlabError) as exc:
            _fail(str(exc))
        return
    import pyarrow.parquet as pq

    from aqmlab.cli_common import named_range, refuse_to_overwrite
    from aqmlab.stability.charts import hopf_chart
    from aqmlab.stability.plots import plot_chart

    params = _pairs(set_, "--set", True)
    options = _pairs(opt, "--option", False)
    m = _model(model, options)
    xname, xr = named_range(x, "--x")
    yname, yr = named_range(y, "--y", need_range=False)
    if points < 2:
        _fail(f"--points = {points}; allowed: an integer >= 2")
    if out is not None:
        refuse_to_overwrite(out, force)
    try:
        chart = hopf_chart(m, xname, xr, yname, yr, params, points=points)
    except FluidError as exc:
        _fail(str(exc))
    _print_chart(chart)
    tmp = _pick_out(out, force)
    if tmp is None:
        return
    pq.write_table(chart.table(), tmp / "chart.parquet")
    plot_chart(chart, tmp / "chart.png")
    (tmp / "chart.json").write_text(
        json.dumps(
            {
                "model": m.name,
                "x": xname,
                "y": yname,
                "params": params,
                "options": options,
                "stable_below": chart.stable_below,
                **chart.meta,
            },
            indent=1,
        )
    )
    _publish(tmp, out)
    console.print(f"written: {out}")


def _print_chart(chart, rows: int = 11) -> None:
    """The boundary at `rows` evenly spaced points of the chart, which side is stable, and the
    summary line (issue 30: analysis commands print; files only with --out)."""
    import numpy as np

    table = Table(title=f"{chart.model}: Hopf boundary, {chart.y} against {chart.x}")
    for name in (chart.x, chart.y, "period (s)"):
        table.add_column(name, justify="right")
    for i in np.unique(np.linspace(0, chart.xs.size - 1, min(rows, chart.xs.size)).round().astype(int)):
        table.add_row(f"{chart.xs[i]:.6g}", f"{chart.ys[i]:.6g}", f"{chart.period[i]:.4g}")
    console.print(table)
    if chart.stable_below is not None:
        side = f"below the boundary (smaller {chart.y})"
        if not chart.stable_below:
            side = f"above the boundary (larger {chart.y})"
        console.print(f"stable {side}", highlight=False)
    console.print(
        f"{chart.model}: {chart.xs.size} boundary points in {chart.meta['wall_time_s']:.3g} s "
        f"({chart.y} from {chart.ys[0]:.6g} to {chart.ys[-1]:.6g}); nothing written without --out",
        highlight=False,
    )


def bifurcation_command(
    model: Annotated[
        str | None, typer.Argument(help='fluid model name, or a user\'s model "file.py:Class" (or --model)')
    ] = None,
    model_option: ModelOpt = None,
    param: Annotated[str, typer.Option("--param", help="NAME=LOW..HIGH")] = "",
    set_: SetOpt = None,
    opt: OptOpt = None,
    points: Annotated[int, typer.Option(help="parameter values (one batch)")] = 40,
    state: Annotated[str | None, typer.Option(help="state whose amplitude is plotted (default: the first)")] = None,
    t_end: Annotated[float | None, typer.Option(help="integration time, s (default 600 delays)")] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="also write bifurcation.png, .parquet and .json into this directory"),
    ] = None,
    orbits: Annotated[
        bool,
        typer.Option("--orbits/--no-orbits", help="continue the periodic orbits from the Hopf point (collocation)"),
    ] = True,
    force: ForceOpt = False,
):
    """Bifurcation diagram: limit-cycle amplitude against a parameter, from batch integration,
    with the Hopf point, the normal-form square-root law and the branch of periodic orbits
    (collocation, stable and unstable, with period and Floquet multipliers) when a Hopf point
    lies in the range."""
    import numpy as np
    import pyarrow.parquet as pq

    from aqmlab.cli_common import named_range, refuse_to_overwrite
    from aqmlab.stability.bifurcation import bifurcation_diagram
    from aqmlab.stability.hopf import find_hopf, lyapunov
    from aqmlab.stability.plots import plot_diagram

    model = _one_model(model, model_option)
    if not param:
        _fail("--param NAME=LOW..HIGH is required: the parameter swept")
    params = _pairs(set_, "--set", True)
    options = _pairs(opt, "--option", False)
    m = _model(model, options)
    name, (lo, hi) = named_range(param, "--param")
    if points < 1:
        _fail(f"--points = {points}; allowed: an integer >= 1")
    if out is not None:
        refuse_to_overwrite(out, force)
    try:
        values = np.linspace(lo, hi, points)
        diagram = bifurcation_diagram(m, name, values, params, state=state, t_end=t_end)
        info = {}
        predicted = None
        try:
            h = find_hopf(m, name, lo, hi, params)
            L = lyapunov(m, h.params, h.omega, param=name)
            j = m.index(diagram.state)
            beyond = values[(values - h.value) / L.mu2 > 0]
            predicted = (beyond, [L.amplitude(v - h.value)[j] for v in beyond])
            info = {"hopf": h.value, "omega": h.omega, "kind": L.kind, "l1": L.l1, "mu2": L.mu2, "beta2": L.beta2}
            if orbits:
                from aqmlab.stability.orbits import orbit_branch

                try:
                    branch = orbit_branch(m, name, lo, hi, params, hopf=h)
                    diagram.orbits = branch
                    info["orbits"] = {
                        "points": len(branch.orbits),
                        "folds": [float(branch.values[i]) for i in branch.folds],
                        "end": branch.stop,
                    }
                except (FluidError, RuntimeError, np.linalg.LinAlgError) as exc:  # the diagram stands without it
                    info["orbits"] = {"note": f"no orbit branch: {exc}"}
        except FluidError as exc:
            info = {"hopf": None, "note": str(exc)}
    except FluidError as exc:
        _fail(str(exc))
    console.print(
        f"{m.name}: {points} points of {name} in [{lo:g}, {hi:g}]; Hopf: {info.get('hopf')} ({info.get('kind', '-')})",
        highlight=False,
    )
    if diagram.orbits is not None:
        b = diagram.orbits
        kinds = "stable" if b.stable.all() else "unstable" if not b.stable.any() else "stable and unstable"
        console.print(f"periodic orbits: {len(b.orbits)} ({kinds}), folds: {len(b.folds)}; branch end: {b.stop}")
    if out is None:  # the analysis is printed; files only with --out
        return
    tmp = _out_dir(out, force)
    pq.write_table(diagram.table(), tmp / "bifurcation.parquet")
    if diagram.orbits is not None:
        pq.write_table(diagram.orbits.table(), tmp / "orbits.parquet")
    plot_diagram(diagram, tmp / "bifurcation.png", critical=info.get("hopf"), predicted=predicted)
    (tmp / "bifurcation.json").write_text(
        json.dumps({"model": m.name, "param": name, **info, **diagram.meta}, indent=1, default=float)
    )
    _publish(tmp, out)
    console.print(f"written: {out}")


app.command("stability")(stability_command)
app.command("chart")(chart_command)
app.command("bifurcation")(bifurcation_command)
