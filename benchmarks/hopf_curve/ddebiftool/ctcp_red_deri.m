% Exact partial derivatives of ctcp_red_rhs.m in DDE-BIFTOOL's sys_deri convention:
%   nx = j, np = [], v = []      : A_j = df/dx(t - tau_j)                     (3 x 3)
%   nx = [], np = m, v = []      : df/dpar(m)                                 (3 x 1)
%   nx = j, np = m, v = []       : d A_j / dpar(m)                            (3 x 3)
%   nx = [a b], np = [], v       : J(:, s) = sum_l d2f/(dx_a,l dx_b,s) v_l    (3 x 3)
% Parameter derivatives are written for the two continuation parameters C (1) and tau (2).
function J = ctcp_red_deri(xx, par, nx, np, v)
  C = par(1); tau = par(2); gamma = par(3); bmin = par(4); bmax = par(5); pmax = par(6);
  alpha = par(7); k = par(8); beta = par(9); kappa = par(10);
  rho = pmax / (bmax - bmin);
  w = xx(1, 1); q = xx(2, 1); r = xx(3, 1); wl = xx(1, 2); rl = xx(3, 2);
  p = rho * (r - bmin); pl = rho * (rl - bmin);
  inc = alpha * w^(k - 1); inc1 = alpha * (k - 1) * w^(k - 2); inc2 = alpha * (k - 1) * (k - 2) * w^(k - 3);
  g = inc + beta * w; g1 = inc1 + beta; g2 = inc2;   % g = i + d and its derivatives
  kt = kappa / tau;
  A = zeros(3, 3, 2);
  A(1, 1, 1) = kt * (inc1 - g1 * pl) * wl;
  A(2, 1, 1) = kt * (1 - p);
  A(2, 3, 1) = -kt * rho * w;
  A(3, 2, 1) = kappa * gamma * C;
  A(3, 3, 1) = -kappa * gamma * C;
  A(1, 1, 2) = kt * (inc - g * pl);
  A(1, 3, 2) = -kt * g * rho * wl;
  if numel(nx) == 1 && isempty(np) && isempty(v)
    J = A(:, :, nx + 1);
  elseif isempty(nx) && numel(np) == 1 && isempty(v)
    J = zeros(3, 1);
    if np == 1
      J(2) = -kappa;
      J(3) = kappa * gamma * (q - r);
    elseif np == 2
      J(1) = -kt / tau * (inc - g * pl) * wl;
      J(2) = -kt / tau * (1 - p) * w;
    else
      error('ctcp_red_deri: parameter derivative %d not written (continuation in C, tau only)', np);
    end
  elseif numel(nx) == 1 && numel(np) == 1 && isempty(v)
    J = zeros(3, 3);
    if np == 1
      if nx == 0
        J(3, 2) = kappa * gamma; J(3, 3) = -kappa * gamma;
      end
    elseif np == 2
      J = -A(:, :, nx + 1) / tau;
      J(3, :) = 0;                                   % the third row does not depend on tau
    else
      error('ctcp_red_deri: parameter derivative %d not written (continuation in C, tau only)', np);
    end
  elseif numel(nx) == 2 && isempty(np) && ~isempty(v)
    % Hessians of f1 and f2 in the 6 variables (w, q, r, wl, ql, rl); f3 is linear.
    H1 = zeros(6); H2 = zeros(6);
    H1(1, 1) = kt * (inc2 - g2 * pl) * wl;
    H1(1, 4) = kt * (inc1 - g1 * pl);          H1(4, 1) = H1(1, 4);
    H1(1, 6) = -kt * g1 * rho * wl;            H1(6, 1) = H1(1, 6);
    H1(4, 6) = -kt * g * rho;                  H1(6, 4) = H1(4, 6);
    H2(1, 3) = -kt * rho;                      H2(3, 1) = H2(1, 3);
    ia = 3 * nx(1) + (1:3); ib = 3 * nx(2) + (1:3);
    J = zeros(3, 3);
    J(1, :) = v(:).' * H1(ia, ib);
    J(2, :) = v(:).' * H2(ia, ib);
  else
    error('ctcp_red_deri: derivative nx=%s np=%s not available', mat2str(nx), mat2str(np));
  end
end
