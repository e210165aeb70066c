"""The papers' closed-form stability conditions, one named function each.

Every function takes a parameter mapping (missing names take the model's defaults) and returns
a :class:`Condition`: the left-hand side, the bound, whether it holds, the kind (sufficient,
necessary-and-sufficient, Hopf boundary) and the source equation. The tests compare each with
the numerically computed characteristic roots (:mod:`aqmlab.stability.roots`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from aqmlab.stability.linearise import StabilityError

__all__ = [
    "Condition",
    "seed000_coefficients_avg",
    "seed000_sufficient_17",
    "seed000_sufficient_18",
    "seed000_hopf_21_22",
    "seed000_coefficients_noavg",
    "seed000_hopf_33",
    "seed000_condition_35",
    "seed000_threshold_40",
    "seed000_threshold_41",
    "seed000_threshold_42",
    "seed000_threshold_43",
    "seed000_reno_44",
    "seed004_ecn",
    "seed004_gaussian_16",
    "seed004_gaussian_17",
    "seed002_ered_sufficient",
    "seed001_equilibria",
    "conditions_for",
]


@dataclass
class Condition:
    name: str
    source: str
    kind: str  # 'sufficient', 'necessary and sufficient', 'Hopf boundary'
    lhs: float
    rhs: float
    holds: bool
    extra: dict = field(default_factory=dict)

    def row(self) -> dict:
        return {
            "condition": self.name,
            "source": self.source,
            "kind": self.kind,
            "lhs": self.lhs,
            "rhs": self.rhs,
            "holds": self.holds,
            **{k: v for k, v in self.extra.items() if isinstance(v, (int, float, str))},
        }


def _resolve(model_name: str, params, options=None):
    from aqmlab.fluid.models import get_model

    model = get_model(model_name, **dict(options or {}))
    P, size = model.resolve(params)
    if size != 1:
        raise StabilityError("params: one parameter point; allowed: scalar values")
    return model, P


def _compound(P):
    if "alpha" not in P or "k" not in P or "beta" not in P:
        raise StabilityError("tcp: the seed 000 conditions are written for Compound TCP; allowed: tcp=compound")
    return P["alpha"], P["k"], P["beta"]


# ---------------------------------------------------------------- seed 000, with averaging (system 9/19)


def seed000_coefficients_avg(params: Mapping[str, object] | None = None) -> dict:
    """Equilibrium (10) and the coefficients a1..a4 of characteristic equation (12), eq. (13)."""
    model, P = _resolve("ctcp-red", params)
    al, k, be = _compound(P)
    C, tau, g = P["C"], P["tau"], P["gamma"]
    rho = P["p_max"] / (P["b_max"] - P["b_min"])
    w = float(model.equilibrium(P, 1)[0, 0])
    p = 1.0 - C * tau / w  # eq. (10): w*(1 − p*) = C̃τ
    i = al * w ** (k - 1)
    a1 = g * C + (2 - k) * i * (1 - p) / tau  # eq. (13)
    a2 = g * C * (rho * w + (2 - k) * i * (1 - p)) / tau  # eq. (13)
    a3 = rho * g * C**2 * (2 - k) * i / tau  # eq. (13)
    a4 = rho * g * C**2 * i / (p * tau)  # eq. (13)
    return {
        "w": w,
        "p": p,
        "i": i,
        "rho": rho,
        "a1": a1,
        "a2": a2,
        "a3": a3,
        "a4": a4,
        "tau": tau,
        "C": C,
        "gamma": g,
        "alpha": al,
        "k": k,
        "beta": be,
        "kappa": P["kappa"],
    }


def _phase_crossover(a, tau):
    """The smallest ω > 0 where L(jω) = a4 e^(−jωτ)/(λ³ + a1λ² + a2λ + a3) has phase −π, eq. (15)."""
    a1, a2, a3 = a["a1"], a["a2"], a["a3"]

    def phase(w):
        P = (1j * w) ** 3 + a1 * (1j * w) ** 2 + a2 * (1j * w) + a3
        return -w * tau - np.unwrap(np.angle(P))

    grid = np.geomspace(1e-6, 1e4, 20000) / tau
    ph = phase(grid)
    idx = np.nonzero(ph <= -math.pi)[0]
    if idx.size == 0:
        raise StabilityError("no phase crossover of the loop transfer function (14)")
    j = int(idx[0])
    lo, hi = grid[j - 1], grid[j]
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        seg = phase(np.linspace(grid[0], mid, 4000))
        if seg[-1] > -math.pi:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def seed000_sufficient_17(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 000 condition (16)/(17): a4|sin(ωcτ)|/|a2ωc − ωc³| < 1 at the phase crossover ωc
    of (15) — the Nyquist test |L(jωc)| < 1, sufficient for local stability of system (9)."""
    a = seed000_coefficients_avg(params)
    tau = a["tau"]
    wc = _phase_crossover(a, tau)
    lhs = a["a4"] * abs(math.sin(wc * tau)) / abs(a["a2"] * wc - wc**3)  # eq. (16)
    return Condition(
        "(17) Nyquist sufficient", "seed 000 eqs. (15)-(17)", "sufficient", lhs, 1.0, lhs < 1.0, {"omega_c": wc}
    )


def seed000_sufficient_18(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 000 condition (18): (17) with sin(ωcτ) = 1, ωc = π/(2τ) and the Compound functions
    substituted, written as ργα(w*)^k τ/p* / |γ(ρ(w*)² + (2 − k)β(w*)²p*) − π²/(4(1 − p*))| < π/2.
    (The extraction prints an extra C̃ in the numerator; substituting C̃τ = w*(1 − p*) from (10)
    into (17) gives the form used here, see docs/stability.md.)"""
    a = seed000_coefficients_avg(params)
    al, k, be, g, rho, w, p, tau = a["alpha"], a["k"], a["beta"], a["gamma"], a["rho"], a["w"], a["p"], a["tau"]
    num = rho * g * al * w**k * tau / p  # eq. (18), numerator
    den = abs(g * (rho * w**2 + (2 - k) * be * w**2 * p) - math.pi**2 / (4 * (1 - p)))  # eq. (18), denominator
    lhs = num / den
    return Condition(
        "(18) simplified sufficient", "seed 000 eq. (18)", "sufficient", lhs, math.pi / 2, lhs < math.pi / 2
    )


def seed000_hopf_21_22(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 000 Hopf condition (21)-(22) for system (19): with ω = κν, (22) becomes the cubic
    ν⁶ + ν⁴(a1² − 2a2) + ν²(a2² − 2a1a3) + (a3² − a4²) = 0 in ν²; (21) then gives
    sin(κντ) = (a2ν − ν³)/a4, cos(κντ) = (a1ν² − a3)/a4, hence the critical κc. Stable iff
    κ < κc (transversality, eq. 24: Re dλ/dκ > 0). Reported as κ/κc < 1."""
    a = seed000_coefficients_avg(params)
    a1, a2, a3, a4, tau, kappa = a["a1"], a["a2"], a["a3"], a["a4"], a["tau"], a["kappa"]
    if not (a1 > 0 and a1 * a2 > a3 + a4 and a3 + a4 > 0):
        # κ -> 0 limit of (20) is the delay-free cubic λ³ + a1λ² + a2λ + a3 + a4: Routh-Hurwitz fails,
        # so the system is unstable for every small κ (the paper assumes the delay-free system is stable)
        return Condition(
            "(21)-(22) Hopf",
            "seed 000 eqs. (20)-(22)",
            "necessary and sufficient",
            math.inf,
            1.0,
            False,
            {"kappa_c": 0.0, "routh_hurwitz_delay_free": a1 * a2 - a3 - a4},
        )
    roots = np.roots([1.0, a1**2 - 2 * a2, a2**2 - 2 * a1 * a3, a3**2 - a4**2])  # eq. (22) in ν²
    best = None
    for r in roots:
        if abs(r.imag) > 1e-9 * max(1.0, abs(r)) or r.real <= 0:
            continue
        nu = math.sqrt(r.real)
        angle = math.atan2((a2 * nu - nu**3) / a4, (a1 * nu**2 - a3) / a4) % (2 * math.pi)  # eq. (21)
        kc = angle / (nu * tau)
        if kc > 0 and (best is None or kc < best[0]):
            best = (kc, nu)
    if best is None:
        return Condition(
            "(21)-(22) Hopf",
            "seed 000 eqs. (21)-(22)",
            "necessary and sufficient",
            0.0,
            1.0,
            True,
            {"kappa_c": math.inf},
        )
    kc, nu = best
    return Condition(
        "(21)-(22) Hopf",
        "seed 000 eqs. (21)-(22)",
        "necessary and sufficient",
        kappa / kc,
        1.0,
        kappa < kc,
        {"kappa_c": kc, "omega": kc * nu},
    )


# ---------------------------------------------------------------- seed 000, without averaging (system 26)


def seed000_coefficients_noavg(params: Mapping[str, object] | None = None) -> dict:
    """Equilibrium below (26) and a1, a2, a3 of (28), eq. (29); Ω of the text after (32)."""
    model, P = _resolve("ctcp-red-noavg", params)
    al, k, be = _compound(P)
    C, tau = P["C"], P["tau"]
    rho = P["p_max"] / (P["b_max"] - P["b_min"])
    w = float(model.equilibrium(P, 1)[0, 0])
    p = 1.0 - C * tau / w
    i = al * w ** (k - 1)
    a1 = (rho * w + (2 - k) * i * (1 - p)) / tau  # eq. (29)
    a2 = rho * C * (2 - k) * i / tau  # eq. (29)
    a3 = rho * C * i / (p * tau)  # eq. (29)
    s = (rho**2 - (2 - k) ** 2 * be**2 * p**2) ** 2
    Omega = math.sqrt((-(rho**2 + (2 - k) ** 2 * be**2 * p**2) + math.sqrt(s + 4 * rho**2 * be**2)) / 2)  # Ω after (32)
    return {
        "w": w,
        "p": p,
        "i": i,
        "rho": rho,
        "a1": a1,
        "a2": a2,
        "a3": a3,
        "Omega": Omega,
        "tau": tau,
        "C": C,
        "alpha": al,
        "k": k,
        "beta": be,
        "kappa": P["kappa"],
    }


def seed000_hopf_33(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 000 (32)-(33): ω0 = κΩw*/τ and the crossing delay τ_c = (1/ω0) sin⁻¹(a1ω0/(κa3)) of
    the stability crossing curve; reported as τ/τ_c (< 1 stable). The branch of sin⁻¹ is fixed by
    cos(ω0τ) = (ω0² − κ²a2)/(κ²a3) from (30) (the printed principal value is also returned)."""
    a = seed000_coefficients_noavg(params)
    kap, tau, w = a["kappa"], a["tau"], a["w"]
    # with τ varying, w*, a_i change; (33) is an implicit equation in τ: report its residual form
    w0 = kap * a["Omega"] * w / tau  # ω0 = κΩw*/τ
    s = a["a1"] * w0 / (kap * a["a3"])  # sin(ω0τ_c) from (30)
    c = (w0**2 - kap**2 * a["a2"]) / (kap**2 * a["a3"])  # cos(ω0τ_c) from (30)
    phase = math.atan2(s, c) % (2 * math.pi)
    tau_c = phase / w0  # eq. (33) with the branch from (30)
    principal = math.asin(min(1.0, s)) / w0 if abs(s) <= 1 else math.nan  # eq. (33) as printed
    return Condition(
        "(33) crossing curve",
        "seed 000 eqs. (30)-(33)",
        "Hopf boundary",
        tau / tau_c,
        1.0,
        tau < tau_c,
        {"omega0": w0, "tau_c_fixed_equilibrium": tau_c, "tau_c_principal": principal},
    )


def seed000_condition_35(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 000 necessary and sufficient condition (35) for system (26):
    κ a3 sin(ω0τ)/(ω0 a1) = ρα(w*)^(k−3)C̃τ sin(κw*Ω)/(Ωp*(ρ + (2−k)βp*)) < 1, ω0 = κΩw*/τ."""
    a = seed000_coefficients_noavg(params)
    kap, tau, w, rho, p, k, be, al, C, Om = (
        a["kappa"],
        a["tau"],
        a["w"],
        a["rho"],
        a["p"],
        a["k"],
        a["beta"],
        a["alpha"],
        a["C"],
        a["Omega"],
    )
    w0 = kap * Om * w / tau
    lhs = kap * a["a3"] * math.sin(w0 * tau) / (w0 * a["a1"])  # eq. (35), first form
    closed = (
        rho * al * w ** (k - 3) * C * tau * math.sin(kap * w * Om) / (Om * p * (rho + (2 - k) * be * p))
    )  # (35), second form
    return Condition(
        "(35) necessary and sufficient",
        "seed 000 eq. (35)",
        "necessary and sufficient",
        lhs,
        1.0,
        lhs < 1.0,
        {"closed_form": closed, "omega0": w0},
    )


# ---------------------------------------------------------------- seed 000, threshold policy (system 36)


def _threshold(params, options=None):
    model, P = _resolve("ctcp-threshold", params, options)
    w = float(model.equilibrium(P, 1)[0, 0])
    p = float(model.drop(np.array([w]), P)[0])
    tau, q = P["tau"], P["q_th"]
    law = model.law
    i = float(law.increase(np.array([w]), P)[0])
    h = 1e-6 * w
    di = float((law.increase(np.array([w + h]), P)[0] - law.increase(np.array([w - h]), P)[0]) / (2 * h))
    dd = float((law.decrease(np.array([w + h]), P)[0] - law.decrease(np.array([w - h]), P)[0]) / (2 * h))
    a1 = -(di * (1 - p) - dd * p) * w / tau * P["kappa"]  # eq. (39): a1 = −(i′(1−p) − d′p) w*/τ (= (2−k)i(1−p)/τ)
    a2 = q * i / tau * P["kappa"]  # eq. (39): a2 = p′(i + d) w*/τ = q_th i(w*)/τ
    return model, P, w, p, a1, a2


def seed000_threshold_40(params: Mapping[str, object] | None = None, *, options=None) -> Condition:
    """Seed 000 (40): τ sqrt(a2² − a1²) < cos⁻¹(−a1/a2) for λ + a1 + a2 e^(−λτ) = 0 (eq. 39);
    necessary and sufficient (always stable when a2 <= a1)."""
    model, P, w, p, a1, a2 = _threshold(params, options)
    tau = P["tau"]
    if a2 <= abs(a1):
        return Condition(
            "(40) threshold N&S",
            "seed 000 eqs. (39)-(40)",
            "necessary and sufficient",
            0.0,
            1.0,
            a1 + a2 > 0,
            {"a1": a1, "a2": a2, "w": w},
        )
    lhs = tau * math.sqrt(a2**2 - a1**2)  # eq. (40)
    rhs = math.acos(-a1 / a2)
    return Condition(
        "(40) threshold N&S",
        "seed 000 eqs. (39)-(40)",
        "necessary and sufficient",
        lhs,
        rhs,
        lhs < rhs,
        {"a1": a1, "a2": a2, "w": w, "omega": math.sqrt(a2**2 - a1**2)},
    )


def seed000_threshold_41(params: Mapping[str, object] | None = None, *, options=None) -> Condition:
    """Seed 000 (41): a2τ < π/2, sufficient."""
    model, P, w, p, a1, a2 = _threshold(params, options)
    lhs = a2 * P["tau"]  # eq. (41)
    return Condition(
        "(41) threshold sufficient", "seed 000 eq. (41)", "sufficient", lhs, math.pi / 2, lhs < math.pi / 2
    )


def seed000_threshold_42(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 000 (42): α(w*)^(k−1) sqrt(q_th² − (k−2)²(1−p*)²) < cos⁻¹((k−2)(1−p*)/q_th) (= (40) for Compound)."""
    model, P, w, p, a1, a2 = _threshold(params)
    al, k, _ = _compound(P)
    lhs = al * w ** (k - 1) * math.sqrt(P["q_th"] ** 2 - (k - 2) ** 2 * (1 - p) ** 2)  # eq. (42)
    rhs = math.acos((k - 2) * (1 - p) / P["q_th"])
    return Condition(
        "(42) threshold N&S (Compound)", "seed 000 eq. (42)", "necessary and sufficient", lhs, rhs, lhs < rhs
    )


def seed000_threshold_43(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 000 (43): α q_th (w*)^(k−1) < π/2, sufficient (= (41) for Compound)."""
    model, P, w, p, a1, a2 = _threshold(params)
    al, k, _ = _compound(P)
    lhs = al * P["q_th"] * w ** (k - 1)  # eq. (43)
    return Condition(
        "(43) threshold sufficient (Compound)", "seed 000 eq. (43)", "sufficient", lhs, math.pi / 2, lhs < math.pi / 2
    )


def seed000_reno_44(params: Mapping[str, object] | None = None) -> tuple[Condition, Condition]:
    """Seed 000 Section VI-D for TCP Reno with the threshold policy: the necessary and sufficient
    condition (1/w*) sqrt(q_th² − 4(1−p*)²) < cos⁻¹(−2(1−p*)/q_th) and the sufficient (44) q_th/w* < π/2."""
    model, P = _resolve("ctcp-threshold", params, {"tcp": "reno"})
    w = float(model.equilibrium(P, 1)[0, 0])
    p = float(model.drop(np.array([w]), P)[0])
    q = P["q_th"]
    lhs = math.sqrt(max(q**2 - 4 * (1 - p) ** 2, 0.0)) / w  # N&S, Section VI-D
    rhs = math.acos(-2 * (1 - p) / q) if q > 2 * (1 - p) else math.pi
    ns = Condition("Reno threshold N&S", "seed 000 Section VI-D", "necessary and sufficient", lhs, rhs, lhs < rhs)
    suf = Condition("(44) Reno sufficient", "seed 000 eq. (44)", "sufficient", q / w, math.pi / 2, q / w < math.pi / 2)
    return ns, suf


# ---------------------------------------------------------------- seed 004, ECN (system 13)


def seed004_ecn(params: Mapping[str, object] | None = None, *, resource: str = "mm1") -> Condition:
    """Seed 004 eq. (14): u̇ = −κ(p + xp′)u(t − τ) (the extraction prints κτ(p + xp′); the
    linearisation of (13) has −κ, and τ enters through the delay). Stable iff
    κτ(p + xp′) < π/2: κτp(1 + B) < π/2 for (11), κτ < π/2 for (12), eq. (16) for (15);
    at equality a Hopf bifurcation with ω = π/(2τ), period 4τ."""
    model, P = _resolve("ecn", params, {"resource": resource})
    from aqmlab.fluid.models.resources import gain_at, marking

    x = float(model.equilibrium(P, 1)[0, 0])
    p = float(marking(resource, np.array([x]), P["C"], P)[0])
    if resource == "mm1":
        # κτp(1 + B) < π/2 below C; for w >= C the equilibrium is x = w, p = 1 flat: κτ < π/2
        lhs = P["kappa"] * P["tau"] * (p * (1 + P["B"]) if x <= P["C"] else 1.0)
    elif resource == "overflow":
        lhs = P["kappa"] * P["tau"] * (1.0 if x > P["C"] else 0.0)  # κτ < π/2
    else:
        lhs = P["kappa"] * P["tau"] * (1 + 2 * P["B"] * P["C"] / (x * P["sigma2"])) * p  # eq. (16)
    gain = float(gain_at(resource, np.array([x]), P["C"], P)[0])
    return Condition(
        f"seed 004 ECN ({resource})",
        "seed 004 eqs. (13)-(16)",
        "necessary and sufficient",
        lhs,
        math.pi / 2,
        lhs < math.pi / 2,
        {
            "omega": math.pi / (2 * P["tau"]),
            "period": 4 * P["tau"],
            "x": x,
            "p": p,
            "gain_check": P["kappa"] * P["tau"] * gain,
        },
    )


def seed004_gaussian_16(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 004 eq. (16): κτ(1 + 2BC/(xσ²))p(x) = π/2 is the first Hopf point of (13) with (15)."""
    return seed004_ecn(params, resource="gaussian")


def seed004_gaussian_17(params: Mapping[str, object] | None = None) -> Condition:
    """Seed 004 eq. (17): κτ(1 + 2B/σ²) < π/2, sufficient for every w < C."""
    _, P = _resolve("ecn", params, {"resource": "gaussian"})
    lhs = P["kappa"] * P["tau"] * (1 + 2 * P["B"] / P["sigma2"])  # eq. (17)
    return Condition("(17) gaussian sufficient", "seed 004 eq. (17)", "sufficient", lhs, math.pi / 2, lhs < math.pi / 2)


# ---------------------------------------------------------------- seed 002, E-RED


def seed002_ered_sufficient(params: Mapping[str, object] | None = None, *, options=None) -> Condition:
    """Seed 002 Theorem III.2 / Section IV-B for E-RED with TCP-Reno: α <= 1/2 is sufficient for
    local stability (reconstructed: the extraction lost the symbols; the Reno case and the bound
    1/2 survive, and the simulations found stability at α = 1 and instability at α = 8). α is the
    gain of the RTT-normalised law κ = α/(c·D) (docs/queues/ered.md); the model's exact Hopf α
    for Reno at one RTT is 2.11, so the bound is sufficient, by a factor 4.2."""
    from aqmlab.fluid.models import get_model

    opts = dict(options or {})
    model = get_model("primal-dual", **opts)
    if model.link not in ("ered-iq", "ered-aq"):
        raise StabilityError(f"link = {model.link!r}; allowed: ered-iq, ered-aq (the condition is for E-RED)")
    P, _ = model.resolve(params)
    if not (P["n"] == -1 and P["m"] == 1):
        raise StabilityError(
            f"n = {P['n']:g}, m = {P['m']:g}; allowed: n = -1, m = 1 (the bound 1/2 is quoted for TCP-Reno)"
        )
    lhs = P["alpha"]
    return Condition(
        "E-RED α <= 1/2 (Reno)", "seed 002 Theorem III.2, Section IV-B", "sufficient", lhs, 0.5, lhs <= 0.5
    )


# ---------------------------------------------------------------- seed 001, Cx-TCP


def seed001_equilibria(params: Mapping[str, object] | None = None, *, options=None) -> list[Condition]:
    """Seed 001 Lemmas 4.2-4.3 / Corollary 4.5: an equilibrium on the rising side of p(δ)
    (region A, δ* <= δ_th) is locally asymptotically stable, one on the falling side (region B)
    is unstable. One Condition per equilibrium, lhs = p′(δ*) (> 0 predicts stable)."""
    from aqmlab.fluid.models import get_model

    model = get_model("cx-tcp", **dict(options or {}))
    P, _ = model.resolve(params)
    eq, regions = model.equilibria(P, 1)
    out = []
    for row in range(eq.shape[0]):
        if not regions[row, 0]:
            continue
        delta = eq[row, -1, 0] / P["C"]
        slope = (
            P["p_max"] / (P["delta_th"] - P["delta_min"])
            if delta <= P["delta_th"]
            else -P["p_max"] / (P["delta_max"] - P["delta_th"])
        )  # Algorithm 1: p′(δ)
        out.append(
            Condition(
                f"Cx-TCP equilibrium δ*={delta * 1e3:.3f} ms (region {regions[row, 0]})",
                "seed 001 Lemmas 4.2-4.3, Corollary 4.5",
                "necessary and sufficient",
                slope,
                0.0,
                slope > 0,
                {"delta": delta, "region": regions[row, 0], "state": eq[row, :, 0].tolist()},
            )
        )
    return out


def conditions_for(model_name: str, params: Mapping[str, object] | None = None, options=None) -> list[Condition]:
    """All the papers' conditions that apply to a model (for the CLI's side-by-side table)."""
    params = dict(params or {})
    options = dict(options or {})
    tcp = options.get("tcp", "compound")
    out: list[Condition] = []
    if model_name == "ctcp-red" and tcp == "compound" and options.get("red_law", "affine") == "affine":
        out += [seed000_sufficient_17(params), seed000_sufficient_18(params), seed000_hopf_21_22(params)]
    elif model_name == "ctcp-red-noavg" and tcp == "compound" and options.get("red_law", "affine") == "affine":
        out += [seed000_hopf_33(params), seed000_condition_35(params)]
    elif model_name == "ctcp-threshold":
        out += [seed000_threshold_40(params, options=options), seed000_threshold_41(params, options=options)]
        if tcp == "compound":
            out += [seed000_threshold_42(params), seed000_threshold_43(params)]
        if tcp == "reno":
            out += list(seed000_reno_44(params))
    elif model_name == "ecn":
        res = options.get("resource", "mm1")
        out.append(seed004_ecn(params, resource=res))
        if res == "gaussian":
            out.append(seed004_gaussian_17(params))
    elif model_name == "primal-dual" and options.get("link", "ered-iq") in ("ered-iq", "ered-aq"):
        try:
            out.append(seed002_ered_sufficient(params, options=options))
        except StabilityError:
            pass
    elif model_name == "cx-tcp":
        out += seed001_equilibria(params, options=options)
    return out
