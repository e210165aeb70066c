"""One-factor experiments on the fluid-model and analysis claims that differ from their paper
(class (c): no ns-2 counterpart; issue 27): the claim's own computation with one parameter
changed, each a candidate cause, recorded in `fluid_factors.json`.

    python benchmarks/ns2/referee/fluid_factors.py            # all experiments (about 1 min)

- seed 000, Hopf τ of system (26) without averaging (`seed000-stability/hopf-tau-no-averaging`,
  `seed000-fig4/fig4c-default-alpha-on-boundary`): the paper's 0.273 s against aqmlab's
  characteristic roots. Factors: each Compound and RED default of Section IV-A moved by ±1 %
  (the elasticity of τ, and the value each would need alone for 0.273), the Reno window law,
  and RED's piecewise law of eq. (6) in place of the affine (25). Fig. 4c's boundary α at the
  printed τ = 0.273 s and at aqmlab's own Hopf τ.
- seed 000, Appendix B's τ = 0.7751 at "C = 100" (`seed000-appendix/hopf-tau`): the
  per-flow capacity C̃ the Hopf point needs, the averaging model (19), the Reno law,
  b̄ = 500, p̄ = 0.05.
- seed 002, Theorem III.2 "very close to being necessary" (`seed002-fig10/theorem32-close-to-necessary`,
  `seed002-fig10/critical-alpha-1`): the fluid Hopf α of `primal-dual` with E-RED-iq for
  Reno at the model's defaults (RTTs 40/80/120 ms, D = 120 ms), for Reno with three routes of
  one RTT (Theorem III.2's delay-free setting read at 200 ms), for Scalable TCP in Fig. 10's
  setting (the simulation the paper cites for the claim), and Fig. 10's Hopf α with Scalable
  TCP's a and b (ours; the paper's were lost) doubled and halved.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from aqmlab.stability import find_hopf
from aqmlab.stability.conditions import seed000_coefficients_noavg
from aqmlab.stability.hopf import resolve_model
from scipy.optimize import brentq

HERE = Path(__file__).resolve().parent
STORE = HERE / "fluid_factors.json"

#: seed 000 Section IV-A: C̃ = 100 packets/s with the fluid models' defaults (the paper's).
SEED000 = {"C": 100.0}
SEED000_PRINTED_TAU = 0.273
SEED000_APPENDIX_TAU = 0.7751
#: seed 002 Fig. 10 (seed002_fluid.fig10): 3 users of 10 Mb/s, RTT 200 ms, 1040-byte packets.
FIG10_CAPACITY = 3 * 10e6 / (8 * 1040)
FIG10_OPTIONS = {"link": "ered-iq", "rtts": "0.2,0.2,0.2", "capacities": f"{FIG10_CAPACITY:.1f}"}
FIG10_SCALABLE = {"a": 0.01, "n": 0.0, "b": 0.125, "m": 1.0, "gamma": 0.95, "p_min": 1e-4}
RENO_BOUND = 0.5


def tau_noavg(params: dict[str, Any], options: dict[str, Any] | None = None, hi: float = 2.0) -> float:
    return find_hopf("ctcp-red-noavg", "tau", 0.01, hi, {**SEED000, **params}, options=options).value


def seed000_no_averaging() -> dict[str, Any]:
    base = tau_noavg({})
    defaults = resolve_model("ctcp-red-noavg", None).params
    factors = {}
    for name in ("alpha", "k", "beta", "b_min", "b_max", "p_max"):
        value = defaults[name].default
        up, down = tau_noavg({name: 1.01 * value}), tau_noavg({name: 0.99 * value})
        elasticity = (up - down) / (0.02 * base)
        factors[name] = {
            "default": value,
            "tau_plus_1pct": up,
            "tau_minus_1pct": down,
            "elasticity": elasticity,
            # The value this parameter alone would need for the printed τ (linear in the elasticity).
            "needed_for_printed": value * (1 + (SEED000_PRINTED_TAU / base - 1) / elasticity),
        }
    alpha_printed = find_hopf("ctcp-red-noavg", "alpha", 0.05, 0.3, {**SEED000, "tau": SEED000_PRINTED_TAU}).value
    alpha_own = find_hopf("ctcp-red-noavg", "alpha", 0.05, 0.3, {**SEED000, "tau": base}).value
    return {
        "hopf_tau_s": base,
        "printed_tau_s": SEED000_PRINTED_TAU,
        "relative_difference": SEED000_PRINTED_TAU / base - 1,
        "parameters": factors,
        "tau_reno_law": tau_noavg({}, {"tcp": "reno"}),
        "tau_piecewise_red": tau_noavg({}, {"red_law": "piecewise"}),
        "fig4c_alpha_at_printed_tau": alpha_printed,
        "fig4c_alpha_at_own_tau": alpha_own,
    }


def tau_33(drop_rate_factor: bool, drop_window_factor: bool) -> float:
    """The crossing delay of system (26) from seed 000 eqs. (29)-(33) at the Section IV-A defaults,
    the equilibrium recomputed at each τ (below (26)): i(w*)(1 − p*) = d(w*)p* and
    w*(1 − p*) = C̃τ. `drop_rate_factor` reads the rate balance as w* = C̃τ, `drop_window_factor`
    the window balance as i(w*) = d(w*)p*: the factor 1 − p* set to 1 in one of them."""
    P = {name: param.default for name, param in resolve_model("ctcp-red-noavg", None).params.items()}
    al, k, be, C, kap = P["alpha"], P["k"], P["beta"], SEED000["C"], P["kappa"]
    rho = P["p_max"] / (P["b_max"] - P["b_min"])  # eq. (25): p = ρ(q − b)

    def equilibrium(tau: float) -> tuple[float, float]:
        def p_of(w: float) -> float:  # window balance i(w)(1 − p) = βwp, or i(w) = βwp
            i = al * w ** (k - 1)
            return i / (be * w) if drop_window_factor else i / (i + be * w)

        if drop_rate_factor:
            w = C * tau
        else:
            w = brentq(lambda w: w * (1 - p_of(w)) - C * tau, C * tau, 10 * C * tau + 10)
        return w, p_of(w)

    def residual(tau: float) -> float:
        w, p = equilibrium(tau)
        i = al * w ** (k - 1)
        a1 = (rho * w + (2 - k) * i * (1 - p)) / tau  # eq. (29)
        a2 = rho * C * (2 - k) * i / tau  # eq. (29)
        a3 = rho * C * i / (p * tau)  # eq. (29)
        x = ((2 - k) * be * p) ** 2
        omega = math.sqrt((-(rho**2 + x) + math.sqrt((rho**2 - x) ** 2 + 4 * rho**2 * be**2)) / 2)  # Ω after (32)
        w0 = kap * omega * w / tau  # ω0 = κΩw*/τ
        phase = math.atan2(a1 * w0 / (kap * a3), (w0**2 - kap**2 * a2) / (kap**2 * a3)) % (2 * math.pi)  # (30)
        return w0 * tau - phase  # zero on the crossing curve (33)

    return brentq(residual, 0.05, 2.0, xtol=1e-12)


def seed000_analytic_route() -> dict[str, Any]:
    """Section IV-A's τ = 0.273 s "computed using the Hopf condition (33)": (29)-(33) with the
    equilibrium as printed (this must equal the characteristic roots' Hopf τ) and with 1 − p*
    dropped from one or both equilibrium equations; printed to three decimals."""
    exact = tau_33(False, False)
    hopf_window = seed000_coefficients_noavg({**SEED000, "tau": exact})["w"]  # w* at the Hopf point
    return {
        "tau_33_equilibrium_as_printed": exact,
        "tau_roots": tau_noavg({}),
        "tau_33_w_equals_C_tau": tau_33(True, False),
        "tau_33_i_equals_d_p": tau_33(False, True),
        "tau_33_both_without_1_minus_p": tau_33(True, True),
        "hopf_window_w_star": hopf_window,
        "hopf_window_over_C": hopf_window / SEED000["C"],
        "printed_tau_s": SEED000_PRINTED_TAU,
    }


def seed000_appendix() -> dict[str, Any]:
    base = tau_noavg({})
    needed_c = SEED000["C"] * base / SEED000_APPENDIX_TAU  # the Hopf point sits at a nearly constant C̃τ
    return {
        "hopf_tau_s": base,
        "printed_tau_s": SEED000_APPENDIX_TAU,
        "C_needed_estimate": needed_c,
        "tau_at_C_needed": tau_noavg({"C": needed_c}, hi=5.0),
        "tau_averaging_model": find_hopf("ctcp-red", "tau", 0.001, 5.0, dict(SEED000)).value,
        "tau_reno_law": tau_noavg({}, {"tcp": "reno"}, hi=5.0),
        "tau_b_max_500": tau_noavg({"b_max": 500.0}, hi=5.0),
        "tau_p_max_0.05": tau_noavg({"p_max": 0.05}, hi=5.0),
    }


def hopf_alpha(params: dict[str, Any], options: dict[str, Any]) -> float:
    return find_hopf("primal-dual", "alpha", 0.05, 100.0, params, options=options).value


def seed002_theorem32() -> dict[str, Any]:
    reno_defaults = hopf_alpha({}, {"link": "ered-iq"})
    reno_one_rtt = hopf_alpha({}, {"link": "ered-iq", "rtts": "0.2,0.2,0.2"})
    scalable = hopf_alpha(FIG10_SCALABLE, FIG10_OPTIONS)
    ab = {
        f"{name}_x{factor:g}": hopf_alpha({**FIG10_SCALABLE, name: FIG10_SCALABLE[name] * factor}, FIG10_OPTIONS)
        for name in ("a", "b")
        for factor in (0.5, 2.0)
    }
    return {
        "reno_defaults_hopf_alpha": reno_defaults,
        "reno_defaults_over_bound": reno_defaults / RENO_BOUND,
        "reno_one_rtt_200ms_hopf_alpha": reno_one_rtt,
        "reno_one_rtt_200ms_over_bound": reno_one_rtt / RENO_BOUND,
        "scalable_fig10_hopf_alpha": scalable,
        "scalable_fig10_over_bound": scalable / RENO_BOUND,
        "paper_own_ratio": 1.0 / RENO_BOUND,  # "α = 1 is the critical point", bound 1/2
        "scalable_fig10_hopf_alpha_with": ab,
    }


def main() -> None:
    record = {
        "seed000-no-averaging": seed000_no_averaging(),
        "seed000-appendix": seed000_appendix(),
        "seed000-analytic-route": seed000_analytic_route(),
        "seed002-theorem32": seed002_theorem32(),
    }
    STORE.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(json.dumps(record, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
