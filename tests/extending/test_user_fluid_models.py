"""Issue 31: a fluid model in a user's file (or an installed package's entry point) is seen by
`aqmlab stability`, `bifurcation` and `fluid`, and its Hopf point is computed through the CLI."""

from __future__ import annotations

import math
import re

import pytest
from aqmlab.cli import app
from extending_scenarios import GUIDE
from typer.testing import CliRunner

MODEL = f"{GUIDE / 'primal_model.py'}:PrimalOneLink"


def hopf_tau(kappa=1.0, w=10.0, C=100.0) -> float:
    """u̇ = −κ (p + x p′) u(t − τ) at x* = √(wC), p = x/C: κ τ · 2√(w/C) = π/2 at the Hopf point
    (Johari & Tan 2001, one link; seed 004 eq. (14) has the same form)."""
    return math.pi / 2 / (kappa * 2 * math.sqrt(w / C))


def invoke(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_stability_of_a_users_model_by_file_reference():
    below = invoke("stability", "--model", MODEL, "--set", f"tau={0.9 * hopf_tau():.6f}")
    above = invoke("stability", MODEL, "--set", f"tau={1.1 * hopf_tau():.6f}")
    assert "primal-one-link" in below and "equilibrium" in below
    assert re.search(r"x\s*│\s*31\.6228", below), below  # √(w C) = √1000
    assert "verdict: stable" in below
    assert "verdict: unstable" in above


def test_the_hopf_point_of_a_users_model_through_the_cli(tmp_path):
    out = invoke(
        "bifurcation", "--model", MODEL, "--param", "tau=1..4", "--points", "3", "--t-end", "60", "--no-orbits"
    )
    found = float(re.search(r"Hopf: ([0-9.]+)", out).group(1))
    assert found == pytest.approx(hopf_tau(), rel=1e-6), out


def test_fluid_integrates_a_users_model():
    out = invoke("fluid", MODEL, "--set", "tau=0.5", "--t-end", "40")
    assert re.search(r"point 0: x mean 31\.6", out), out


def test_an_installed_packages_model_is_found_by_its_entry_point(tmp_path, monkeypatch):
    package = tmp_path / "site"
    (package / "my_models").mkdir(parents=True)
    (package / "my_models" / "__init__.py").write_text((GUIDE / "primal_model.py").read_text())
    info = package / "my_models-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-models\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[aqmlab.fluid_models]\nprimal-one-link = my_models:PrimalOneLink\n")
    monkeypatch.syspath_prepend(str(package))
    out = invoke("stability", "primal-one-link", "--set", f"tau={1.1 * hopf_tau():.6f}")
    assert "verdict: unstable" in out


def test_bad_references_say_what_is_allowed(tmp_path):
    (tmp_path / "not_a_model.py").write_text("class Thing:\n    pass\n")
    result = CliRunner().invoke(app, ["stability", "--model", f"{tmp_path / 'not_a_model.py'}:Thing"])
    assert result.exit_code == 2
    assert "naming a subclass of aqmlab.fluid.FluidModel" in result.output
    result = CliRunner().invoke(app, ["stability", "ctcp-red", "--model", MODEL])
    assert result.exit_code == 2 and "give the model once" in result.output
