"""A mutation test of the criteria (issue 26): every check of every declared claim is fed a
deliberately wrong measured value, the other checks values that hold, and the claim must then
plainly differ; with every check fed a value that holds, it must agree. A criterion no value can
fail (or none can meet) is caught here. Pure Python: no simulation runs."""

from __future__ import annotations

import pytest
from aqmlab.reproduce import REGISTRY
from aqmlab.reproduce.declare import AtLeast, AtMost, Check, Claim, Criterion, Declaration
from aqmlab.reproduce.runner import judge_claim

SEEDS = 5


def _candidates(criterion: Criterion) -> list[float]:
    """Values around and between the criterion's boundaries, far and near."""
    bounds = sorted(criterion.boundaries())
    values = list(bounds)
    values += [(a + b) / 2 for a, b in zip(bounds, bounds[1:], strict=False)]
    for b in bounds:
        for k in (1e-6, 1e-3, 1, 10):
            step = (abs(b) + 1) * k
            values += [b - step, b + step]
    return values


def wrong_value(criterion: Criterion) -> float | None:
    return next((x for x in _candidates(criterion) if not criterion.holds(x)), None)


def right_value(criterion: Criterion) -> float | None:
    return next((x for x in _candidates(criterion) if criterion.holds(x)), None)


def _values(claim: Claim, wrong: int | None) -> dict[str, list[float]]:
    values: dict[str, list[float]] = {}
    for position, check in enumerate(claim.checks):
        if position != wrong and check.quantity not in values:
            values[check.quantity] = [right_value(check.criterion)] * SEEDS
    if wrong is not None:
        values[claim.checks[wrong].quantity] = [wrong_value(claim.checks[wrong].criterion)] * SEEDS
    for quantity, _, _ in claim.shows:  # shown beside the checks, not judged
        values.setdefault(quantity, [0.0] * SEEDS)
    return values


@pytest.mark.parametrize("reproduction_id", sorted(REGISTRY))
def test_every_check_fails_on_a_wrong_value_and_holds_on_a_right_one(reproduction_id):
    declaration: Declaration = REGISTRY[reproduction_id]
    problems = []
    for claim in declaration.claims:
        for position, check in enumerate(claim.checks):
            name = f"{reproduction_id}/{claim.id} check {check.label or check.quantity!r}"
            if wrong_value(check.criterion) is None:
                problems.append(f"{name}: no value fails {check.criterion.describe()}")
                continue
            if right_value(check.criterion) is None:
                problems.append(f"{name}: no value meets {check.criterion.describe()}")
                continue
            entry = judge_claim(reproduction_id, claim, _values(claim, position))
            if entry["verdict"] != "differs":
                problems.append(f"{name}: fed a wrong value, the verdict is {entry['verdict']!r}")
        quantities = [c.quantity for c in claim.checks]
        if len(set(quantities)) == len(quantities):  # a quantity checked twice may need two values at once
            entry = judge_claim(reproduction_id, claim, _values(claim, None))
            if entry["verdict"] != "agrees":
                problems.append(
                    f"{reproduction_id}/{claim.id}: every check fed a right value, verdict {entry['verdict']!r}"
                )
    assert not problems, "\n".join(problems)


def test_the_mutation_test_covers_every_claim_id():
    covered = {f"{d.id}/{c.id}" for d in REGISTRY.values() for c in d.claims if c.checks}
    declared = {f"{d.id}/{c.id}" for d in REGISTRY.values() for c in d.claims}
    assert covered == declared and len(declared) >= 200


def test_a_decisive_failure_is_not_marginal_and_an_undecided_one_is():
    claim = Claim(
        "almost-equal",
        "loss almost equal",
        "almost equal",
        "Fig. 18",
        (Check("low", AtLeast(0.9), "lowest ratio"), Check("high", AtMost(1.1), "highest ratio")),
    )
    # lowest ratio far below 0.9 (decisive), highest straddling 1.1 (marginal): plainly differs
    decisive = judge_claim("r", claim, {"low": [0.5, 0.51, 0.49, 0.5, 0.5], "high": [1.0, 1.2, 1.05, 1.15, 1.1]})
    assert decisive["verdict"] == "differs"
    # only the marginal failure: differs (marginal)
    undecided = judge_claim("r", claim, {"low": [0.95] * 5, "high": [1.0, 1.3, 1.05, 1.25, 1.1]})
    assert undecided["verdict"] == "differs (marginal)"
