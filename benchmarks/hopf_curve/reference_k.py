"""Referee for issue 33 (the Hopf curve benchmark and tests/stability/test_exact.py): the Hopf
points of seed 000's RED models at 50 digits, independent of aqmlab and DDE-BIFTOOL. Defaults
γ = 1e-4, b = 50, b̄ = 550, p̄ = 0.1, Compound α = 0.125, k = 0.75, β = 0.5, κ = 1, C̃ = 100: the
equilibrium of eq. (10), the linearisation written out by hand (for ctcp-red the same matrices as
ddebiftool/ctcp_red_deri.m: states (w, q, r), A0 = ∂f/∂x(t), A1 = ∂f/∂x(t − τ) of eqs. (1), (4),
(5) with p = ρ(r − b), eq. (7); for ctcp-red-noavg states (w, q), eqs. (25)-(26)), and
det(iω I − A0 − A1 e^(−iωτ)) = 0 solved by mpmath's Newton for
  ctcp-red, τ at C̃ = 100 (K = 100 τ is the Hopf value of C̃τ of the benchmark's curve),
  ctcp-red, γ at C̃ = 100, τ = 0.171 (seed 000 Fig. 2b/3),
  ctcp-red-noavg, τ at C̃ = 100.
Needs mpmath (`pip install mpmath`); not part of aqmlab's dependencies.

Run: python3 benchmarks/hopf_curve/reference_k.py
Printed on 2026-11-27:
  red tau 0.08483410465411442846720593 0.099470578043776934649      (K = 8.483410465411442846720593)
  red gamma 0.03004847592857223515173625 0.9380008729046219941
  noavg tau 0.2717512862283584111698168 0.98839362780907741266
  dlambda/dtau at the tau point (0.13770427158001562095 + 0.660026645762014751j)
  dlambda/dgamma at the gamma point (-3.412286184340696098 + 2.9027746737910521106j)
"""

import mpmath as mp

mp.mp.dps = 50  # digits
b_min, b_max, p_max = mp.mpf(50), mp.mpf(550), mp.mpf("0.1")
alpha, k, beta, kappa = mp.mpf("0.125"), mp.mpf("0.75"), mp.mpf("0.5"), mp.mpf(1)
rho = p_max / (b_max - b_min)


def parts(C, tau):
    ctau = C * tau
    w = mp.findroot(lambda w: alpha * w ** (k - 1) * ctau - beta * w * (w - ctau), 1.5 * ctau)
    p = 1 - ctau / w
    inc, inc1 = alpha * w ** (k - 1), alpha * (k - 1) * w ** (k - 2)
    return w, p, inc, inc1, inc + beta * w, inc1 + beta, kappa / tau


def red(C, tau, gamma, omega):
    w, p, inc, inc1, g, g1, kt = parts(C, tau)
    a0 = mp.matrix(
        [[kt * (inc1 - g1 * p) * w, 0, 0], [kt * (1 - p), 0, -kt * rho * w], [0, kappa * gamma * C, -kappa * gamma * C]]
    )
    a1 = mp.matrix([[kt * (inc - g * p), 0, -kt * g * rho * w], [0, 0, 0], [0, 0, 0]])
    lam = 1j * omega
    return mp.det(lam * mp.eye(3) - a0 - a1 * mp.exp(-lam * tau))


def noavg(C, tau, omega):
    w, p, inc, inc1, g, g1, kt = parts(C, tau)
    a0 = mp.matrix([[kt * (inc1 - g1 * p) * w, 0], [kt * (1 - p), -kt * rho * w]])
    a1 = mp.matrix([[kt * (inc - g * p), -kt * g * rho * w], [0, 0]])
    lam = 1j * omega
    return mp.det(lam * mp.eye(2) - a0 - a1 * mp.exp(-lam * tau))


def ri(z):
    return [mp.re(z), mp.im(z)]


t_red, om_red = mp.findroot(
    lambda t, o: ri(red(mp.mpf(100), t, mp.mpf("1e-4"), o)), (mp.mpf("0.0848"), mp.mpf("0.0995"))
)
print("red tau", mp.nstr(t_red, 25), mp.nstr(om_red, 20))
g_red, om_gamma = mp.findroot(
    lambda g, o: ri(red(mp.mpf(100), mp.mpf("0.171"), g, o)),
    (mp.mpf("0.030048475928572318"), mp.mpf("0.9380008729046221")),
)
print("red gamma", mp.nstr(g_red, 25), mp.nstr(om_gamma, 20))
t, om = mp.findroot(
    lambda t, o: ri(noavg(mp.mpf(100), t, o)), (mp.mpf("0.2717512862283638"), mp.mpf("0.9883936278090756"))
)
print("noavg tau", mp.nstr(t, 25), mp.nstr(om, 20))


# Transversality dλ/dp at those Hopf points (implicit differentiation of det Δ(λ; p) = 0:
# dλ/dp = −(∂det/∂p)/(∂det/∂λ), the p-derivative through the equilibrium, the Jacobians and the
# delay), by mpmath's numerical differentiation at 50 digits: the referee of aqmlab's
# step-controlled parameter derivative (tests/stability/test_exact.py).
def red_at(C, tau, gamma, lam):
    w, p, inc, inc1, g, g1, kt = parts(C, tau)
    a0 = mp.matrix(
        [[kt * (inc1 - g1 * p) * w, 0, 0], [kt * (1 - p), 0, -kt * rho * w], [0, kappa * gamma * C, -kappa * gamma * C]]
    )
    a1 = mp.matrix([[kt * (inc - g * p), 0, -kt * g * rho * w], [0, 0, 0], [0, 0, 0]])
    return mp.det(lam * mp.eye(3) - a0 - a1 * mp.exp(-lam * tau))


C100, tau_c, gamma_c = mp.mpf(100), t_red, g_red
lam_c = 1j * om_red
dlam_tau = -mp.diff(lambda s: red_at(C100, s, mp.mpf("1e-4"), lam_c), tau_c) / mp.diff(
    lambda z: red_at(C100, tau_c, mp.mpf("1e-4"), z), lam_c
)
print("dlambda/dtau at the tau point", mp.nstr(dlam_tau, 20))
lam_g = 1j * om_gamma
dlam_gamma = -mp.diff(lambda s: red_at(C100, mp.mpf("0.171"), s, lam_g), gamma_c) / mp.diff(
    lambda z: red_at(C100, mp.mpf("0.171"), gamma_c, z), lam_g
)
print("dlambda/dgamma at the gamma point", mp.nstr(dlam_gamma, 20))
