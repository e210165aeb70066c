% DDE-BIFTOOL side of benchmarks/hopf_curve (issue 33): the 200-point Hopf curve of seed 000
% Fig. 2a (ctcp-red with averaging, tau against C in [100, 500], other parameters at aqmlab's
% defaults) with the exact derivatives of ctcp_red_deri.m, timed as CPU time of this process.
%
% Run (from this folder): octave-cli --no-gui -q hopf_curve_bench.m
% with DDEBIFTOOL_DIR naming a DDE-BIFTOOL checkout (its folders ddebiftool/ and
% ddebiftool_utilities/). Prints one line per repeat and the medians.
%
% Two ways of computing the curve, both with DDE-BIFTOOL's own Hopf system (dde_hopf_jac_res):
%   arclength : br_contn from the Hopf point at C = 100, parameter step capped at 400/199 in C,
%               stopped at C = 500 (DDE-BIFTOOL's own continuation);
%   grid      : p_correc at the same 200 C values as aqmlab (np.linspace(100, 500, 200)) with a
%               secant predictor, tau free (what aqmlab's hopf_chart does).
% Both start from an equilibrium at C = 100, tau = 0.08 (near the Hopf point), whose rightmost
% eigenvalues DDE-BIFTOOL computes and turns into a Hopf point (p_tohopf, p_correc).
1;
base = getenv('DDEBIFTOOL_DIR');
if isempty(base)
  error('DDEBIFTOOL_DIR is not set: name a DDE-BIFTOOL checkout (see benchmarks/hopf_curve/setup.sh)');
end
addpath(fullfile(base, 'ddebiftool'), fullfile(base, 'ddebiftool_utilities'));
repeats = str2double(getenv('REPEATS')); if isnan(repeats), repeats = 5; end
K = str2double(getenv('HOPF_CTAU'));     % the exact curve is tau = K/C (bench.py prints K)
ind_C = 1; ind_tau = 2;
par0 = [100, 0.08, 1e-4, 50, 550, 0.1, 0.125, 0.75, 0.5, 1];
funcs = set_funcs('sys_rhs', @ctcp_red_rhs, 'sys_tau', @() ind_tau, 'sys_deri', @ctcp_red_deri);

function x = equilibrium(par)
  % seed 000 eq. (10): i(w) C tau = d(w)(w - C tau), p = 1 - C tau/w, q = r = b_min + p/rho
  ctau = par(1) * par(2); a = par(7); k = par(8); b = par(9);
  w = fzero(@(w) a * w^(k - 1) * ctau - b * w * (w - ctau), [ctau * (1 + 1e-12), 10 * ctau]);
  p = 1 - ctau / w; rho = par(6) / (par(5) - par(4));
  x = [w; par(4) + p / rho; par(4) + p / rho];
end

function [hopf, pm] = first_hopf(funcs, par0, ind_tau)
  stst = dde_stst_create('x', equilibrium(par0), 'parameter', par0);
  pm = df_mthod(funcs, 'stst');
  pm.stability.minimal_real_part = -10;
  stst.stability = p_stabil(funcs, stst, pm.stability);
  hopf = p_tohopf(funcs, stst);
  hm = df_mthod(funcs, 'hopf');
  [hopf, ok] = p_correc(funcs, hopf, ind_tau, [], hm.point);
  if ~ok, error('DDE-BIFTOOL: the first Hopf point did not converge'); end
  pm = hm;
end

function pts = curve_arclength(funcs, par0, ind_C, ind_tau)
  [hopf, hm] = first_hopf(funcs, par0, ind_tau);
  br = df_brnch(funcs, [ind_C, ind_tau], 'hopf');
  step = 400 / 199;
  br.parameter.min_bound = [ind_C, 100 - 1e-9; ind_tau, 0];
  br.parameter.max_bound = [ind_C, 500 + 1e-9];
  br.parameter.max_step = [ind_C, step; ind_tau, 1];
  br.method.continuation.plot = 0;
  br.point = hopf;
  second = hopf; second.parameter(ind_C) = 100 + step;
  second.parameter(ind_tau) = hopf.parameter(ind_tau) * 100 / (100 + step);  % tau ~ 1/C guess
  [second, ok] = p_correc(funcs, second, ind_tau, [], hm.point);
  if ~ok, error('DDE-BIFTOOL: the second Hopf point did not converge'); end
  br.point(2) = second;
  [br, s, f, r] = br_contn(funcs, br, 198);
  pts = br.point;
end

function pts = curve_grid(funcs, par0, ind_C, ind_tau)
  [hopf, hm] = first_hopf(funcs, par0, ind_tau);
  Cs = linspace(100, 500, 200);
  pts = repmat(hopf, 1, 200);
  for i = 2:200
    if i == 2
      pred = pts(1); pred.parameter(ind_tau) = pts(1).parameter(ind_tau) * Cs(1) / Cs(2);
    else
      t = (Cs(i) - Cs(i - 1)) / (Cs(i - 1) - Cs(i - 2));
      pred = p_axpy(t, p_axpy(-1, pts(i - 2), pts(i - 1)), pts(i - 1));   % secant predictor
    end
    pred.parameter(ind_C) = Cs(i);
    [pt, ok] = p_correc(funcs, pred, ind_tau, [], hm.point);
    if ~ok, error('DDE-BIFTOOL: Hopf point %d (C = %g) did not converge', i, Cs(i)); end
    pts(i) = pt;
  end
end

names = {'arclength', 'grid'};
fns = {@curve_arclength, @curve_grid};
printf('octave %s, DDE-BIFTOOL at %s\n', version(), base);
for m = 1:2
  cpu = zeros(1, repeats); wall = zeros(1, repeats);
  for rep = 1:repeats
    c0 = cputime(); t0 = tic();
    pts = fns{m}(funcs, par0, ind_C, ind_tau);
    cpu(rep) = cputime() - c0; wall(rep) = toc(t0);
  end
  C = arrayfun(@(p) p.parameter(ind_C), pts); tau = arrayfun(@(p) p.parameter(ind_tau), pts);
  err = NaN; if ~isnan(K), err = max(abs(C .* tau / K - 1)); end
  printf('%s: %d points, C %.6g..%.6g; CPU median %.3f s (all %s); wall median %.3f s; largest error %.2e\n', ...
         names{m}, numel(pts), min(C), max(C), median(cpu), mat2str(cpu, 4), median(wall), err);
end
