"""benchmarks/ns2/referee/fluid_factors.py: seed 000's Hopf τ of system (26) by eqs. (29)-(33)
equals the characteristic roots' with the equilibrium as printed, and the printed 0.273 s follows
from the rate balance read as w* = C̃τ (referee.toml, seed000-stability/hopf-tau-no-averaging)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ns2" / "referee"))

# imports below need the sys.path entry above
from fluid_factors import SEED000_PRINTED_TAU, tau_33, tau_noavg  # noqa: E402


def test_eq_33_with_the_printed_equilibrium_is_the_roots_hopf_tau():
    assert tau_33(False, False) == pytest.approx(tau_noavg({}), rel=1e-6)


def test_the_printed_tau_at_three_decimals_needs_the_rate_balance_without_one_minus_p():
    assert round(tau_33(False, False), 3) != SEED000_PRINTED_TAU
    assert round(tau_33(False, True), 3) != SEED000_PRINTED_TAU
    assert round(tau_33(True, False), 3) == SEED000_PRINTED_TAU
