"""The one runner of declared reproductions (`aqmlab.reproduce.declare`): seeds, means and
95 % intervals, verdicts, figures and the record (`reproduction.json`).

Verdicts are on the mean over the seeds. A check is *marginal* when its 95 % Student-t
interval contains a boundary of its criterion, so another set of seeds could flip it. The
claim's verdict is decided per check: it "differs" plainly when some check fails decisively
(its interval clear of every boundary), "differs (marginal)" when every failing check is
marginal, "agrees (marginal)" when all hold and some is marginal, else "agrees".
"""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

from aqmlab.analysis.statistics import confidence_interval, statistics  # noqa: F401 (re-exported)
from aqmlab.reproduce.declare import Check, Claim, Declaration, Evidence
from aqmlab.results_io import write_run


def _fmt(x: float) -> str:
    return "nan" if not math.isfinite(x) else f"{x:.4g}"


def _with_unit(text: str, unit: str) -> str:
    if not unit:
        return text
    return f"{text}{unit}" if unit == "%" else f"{text} {unit}"


def describe_value(stats: dict[str, Any], unit: str) -> str:
    """ "mean ± half-width of the 95 % CI (n seeds, range min–max)" or the one value: the
    interval is the mean's; the range is the seeds' own values, labelled as such."""
    if stats["n"] == 1 or not math.isfinite(stats["mean"]):
        return _with_unit(_fmt(stats["mean"]), unit)
    half = (stats["ci_high"] - stats["ci_low"]) / 2
    return (
        f"{_with_unit(_fmt(stats['mean']), unit)} ± {_fmt(half)} (95 % CI of the mean; {stats['n']} seeds, range "
        f"{_fmt(stats['min'])} to {_fmt(stats['max'])})"
    )


def judge_check(check: Check, values: list[float]) -> dict[str, Any]:
    return judge_stats(check, statistics(values))


def judge_stats(check: Check, stats: dict[str, Any]) -> dict[str, Any]:
    """One check judged on the statistics of its quantity (mean, ci_low, ci_high, n, ...)."""
    mean = stats["mean"]
    holds = math.isfinite(mean) and check.criterion.holds(mean)
    low, high = stats["ci_low"], stats["ci_high"]
    # Marginal: a boundary lies strictly inside the interval (a spread-free value exactly on a
    # boundary, like a queue capped at 15 against "≤ 15", is not fragile).
    marginal = stats["n"] > 1 and math.isfinite(low) and any(low < b < high for b in check.criterion.boundaries())
    return {
        "quantity": check.quantity,
        "label": check.label or check.quantity,
        "unit": check.unit,
        "criterion": check.criterion.describe(check.unit),
        "holds": bool(holds),
        "marginal": bool(marginal),
        **stats,
    }


def verdict_text(agrees: bool, marginal: bool) -> str:
    return ("agrees" if agrees else "differs") + (" (marginal)" if marginal else "")


def decide(checks: list[dict[str, Any]]) -> tuple[bool, bool]:
    """(agrees, marginal) from judged checks, per check: a decisive failure anywhere makes the
    claim plainly differ; a failure is marginal only when every failing check is."""
    failing = [c for c in checks if not c["holds"]]
    if failing:
        return False, all(c["marginal"] for c in failing)
    return True, any(c["marginal"] for c in checks)


def judge_claim(reproduction_id: str, claim: Claim, values: dict[str, list[float]]) -> dict[str, Any]:
    """One claim's entry of the record: its checks with statistics, and the verdict."""
    missing = [c.quantity for c in claim.checks if c.quantity not in values]
    missing += [q for q, _, _ in claim.shows if q not in values]
    if missing:
        raise KeyError(f"{reproduction_id}/{claim.id}: quantities {missing} were not measured; known: {sorted(values)}")
    checks = [judge_check(check, values[check.quantity]) for check in claim.checks]
    shows = [statistics(values[q]) for q, _, _ in claim.shows]
    return claim_entry(reproduction_id, claim, checks, shows)


def claim_entry(
    reproduction_id: str, claim: Claim, checks: list[dict[str, Any]], shows: list[dict[str, Any]]
) -> dict[str, Any]:
    """The record entry of a claim from its judged checks and the statistics of its shows."""
    agrees, marginal = decide(checks)
    shown = [f"{c['label']} {describe_value(c, c['unit'])}" for c in checks]
    shown += [
        f"{label} {describe_value(stats, unit)}" for (_, label, unit), stats in zip(claim.shows, shows, strict=True)
    ]
    return {
        "id": f"{reproduction_id}/{claim.id}",
        "claim": claim.statement,
        "paper": claim.paper,
        "where": claim.where,
        "criterion": "; ".join(f"{c['label']}: {c['criterion']}" for c in checks),
        "why": claim.why,
        "aqmlab": "; ".join(shown),
        "agrees": bool(agrees),
        "marginal": bool(marginal),
        "verdict": verdict_text(agrees, marginal),
        "seeds": max(c["n"] for c in checks),
        "checks": checks,
        "kind": claim.kind,
        "cause": claim.cause,
    }


def run_packet(declaration: Declaration, out: Path, quick: bool) -> tuple[dict[str, list[float]], dict[str, Any], int]:
    """Every run for every seed: per-seed values of every quantity, the kept first-seed
    results, and the number of seeds."""
    from aqmlab.simulation import simulate

    assert declaration.runs is not None
    runs = declaration.runs(quick)
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        raise ValueError(f"{declaration.id}: run names {names} are not unique")
    seeds = declaration.seeds.count(quick)
    values: dict[str, list[float]] = {}
    kept: dict[str, Any] = {}
    for seed in range(1, seeds + 1):
        measures: dict[str, dict[str, float]] = {}
        for run in runs:
            scenario = copy.deepcopy(run.scenario)
            scenario["seed"] = seed
            results = simulate(scenario)
            measures[run.name] = {key: float(value) for key, value in run.measure(results).items()}
            if run.keep and seed == 1:
                write_run(results, out / run.name, force=True)
                kept[run.name] = results
            del results
        flat = {f"{run}.{key}": value for run, row in measures.items() for key, value in row.items()}
        if declaration.derive is not None:
            flat.update({key: float(value) for key, value in declaration.derive(measures, quick).items()})
        if seed > 1 and set(flat) != set(values):
            raise ValueError(f"{declaration.id}: seed {seed} measured {sorted(set(flat) ^ set(values))} differently")
        for key, value in flat.items():
            values.setdefault(key, []).append(value)
    return values, kept, seeds


def run_declaration(declaration: Declaration, out: Path, quick: bool) -> dict[str, Any]:
    """Run `declaration` into the directory `out`; returns the record's body (comparison,
    figures, notes, data, quantities, seeds)."""
    notes = declaration.note(quick)
    data: dict[str, Any] = {}
    figures: list[str] = []
    if declaration.compute is not None:
        computed = declaration.compute(out, quick)
        values = {
            key: [float(v) for v in value] if isinstance(value, list | tuple) else [float(value)]
            for key, value in computed.values.items()
        }
        figures += computed.figures
        notes = " ".join(part for part in (notes, computed.notes) if part)
        data = computed.data
        seeds = max(len(series) for series in values.values())
    else:
        values, kept, seeds = run_packet(declaration, out, quick)
        if declaration.figures is not None:
            figures += declaration.figures(out, Evidence(kept, values, quick))
    comparison = [
        judge_claim(declaration.id, claim, values) for claim in declaration.claims if not (quick and claim.full_only)
    ]
    return {
        "seeds": seeds,
        "comparison": comparison,
        "figures": figures,
        "notes": notes,
        "data": data,
        "quantities": {key: statistics(series) for key, series in sorted(values.items())},
    }
