% Seed 000 CTCP-RED with queue averaging (aqmlab model ctcp-red, python/aqmlab/fluid/models/ctcp_red.py)
% as a DDE-BIFTOOL system, in the smooth region (q > 0, 0 < p < 1, no buffer limit) where
% the Hopf curve lies. xx(:,1) = (w, q, r)(t), xx(:,2) = (w, q, r)(t - tau).
% par = [C, tau, gamma, b_min, b_max, p_max, alpha, k, beta, kappa] (ctcp_red_par.m).
function f = ctcp_red_rhs(xx, par)
  C = par(1); tau = par(2); gamma = par(3); bmin = par(4); bmax = par(5); pmax = par(6);
  alpha = par(7); k = par(8); beta = par(9); kappa = par(10);
  rho = pmax / (bmax - bmin);
  w = xx(1, 1, :); q = xx(2, 1, :); r = xx(3, 1, :); wl = xx(1, 2, :); rl = xx(3, 2, :);
  p = rho * (r - bmin);                  % seed 000 eq. (7), p(t)
  pl = rho * (rl - bmin);                % eq. (7), p(t - tau)
  inc = alpha * w.^(k - 1);              % eq. (2): i(w) = alpha w^(k-1)
  dec = beta * w;                        % eq. (2): d(w) = beta w
  f = zeros(3, 1, size(xx, 3));
  f(1, 1, :) = kappa / tau * (inc - (inc + dec) .* pl) .* wl;  % eqs. (1), (9), (19), first line
  f(2, 1, :) = kappa * ((1 - p) .* w / tau - C);               % eq. (9), second line (q > 0)
  f(3, 1, :) = kappa * gamma * C * (q - r);                    % eq. (5) (eq. (8) written in r)
  f = reshape(f, 3, []);
end
