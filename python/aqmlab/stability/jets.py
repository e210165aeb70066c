"""Exact derivatives of the fluid models' right-hand sides: univariate truncated Taylor
arithmetic ("jets", forward-mode automatic differentiation of any order) that the models'
vectorised numpy code evaluates unchanged.

A :class:`Jet` of order K is an array of Taylor coefficients ``c`` of shape ``(K + 1, *shape)``:
the value (c[0]) and c[k] = g^(k)(0)/k! of g(t) = f(x + t d) along a direction d. Arithmetic
uses the standard recurrences (Griewank and Walther, *Evaluating Derivatives*, 2nd ed., SIAM
2008, §13.2, Table 13.2: products by the Cauchy convolution, quotients, exp, log and powers by
their first-order ODE recurrences), so every coefficient is exact to rounding; no step size is
involved. Branches (``np.minimum``, ``np.clip``, ``np.where`` on comparisons) are taken on the
value, as in any forward-mode AD: at a point where the model is smooth the derivatives are those
of the active branch. Coefficients may be complex (complex directions: the multilinear forms
B(u, v), C(u, v, w) of complex vectors are the bilinear/trilinear extensions and need no
polarisation over real and imaginary parts).

:func:`taylor_rhs` evaluates ``model.rhs`` along a batch of directions in one call (the batch
dimension of the models carries the directions) and returns the coefficients; the
linearisation (order 1), the Hopf refinement and the normal-form coefficients (orders 2 and 3,
:mod:`aqmlab.stability.hopf`) and the periodic-orbit collocation (:mod:`aqmlab.stability.orbits`)
use it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Jet", "taylor_rhs", "jacobians", "jacobians_at"]


def _is_jet(x) -> bool:
    return isinstance(x, Jet)


class Jet(np.lib.mixins.NDArrayOperatorsMixin):
    """Truncated Taylor series with array coefficients ``c`` (shape (K + 1, *shape))."""

    __array_priority__ = 100

    def __init__(self, c: np.ndarray):
        self.c = c

    # ---- array protocol ------------------------------------------------------------------
    @property
    def order(self) -> int:
        return self.c.shape[0] - 1

    @property
    def value(self) -> np.ndarray:
        return self.c[0]

    @property
    def shape(self):
        return self.c.shape[1:]

    @property
    def ndim(self) -> int:
        return self.c.ndim - 1

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def dtype(self):
        return self.c.dtype

    @property
    def T(self):
        return Jet(np.moveaxis(self.c, 0, -1).T.copy()) if self.ndim else self

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        return f"Jet(order={self.order}, shape={self.shape})"

    @staticmethod
    def _key(idx):
        if not isinstance(idx, tuple):
            idx = (idx,)
        return (slice(None), *idx)

    def __getitem__(self, idx):
        return Jet(self.c[self._key(idx)])

    def __setitem__(self, idx, val):
        key = self._key(idx)
        if _is_jet(val):
            self.c[key] = _coeffs(val, self.order)
        else:
            self.c[key] = 0.0
            self.c[(0, *key[1:])] = val

    def copy(self):
        return Jet(self.c.copy())

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        return Jet(self.c.reshape(self.c.shape[0], *shape))

    def sum(self, axis=None, **kwargs):
        if axis is None:
            return Jet(self.c.reshape(self.c.shape[0], -1).sum(axis=1))
        axes = tuple(a + 1 if a >= 0 else a for a in np.atleast_1d(axis))
        return Jet(self.c.sum(axis=axes, **kwargs))

    def __float__(self):
        raise TypeError("a Jet has no float value: keep it in numpy arithmetic")

    # ---- ufuncs --------------------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if method != "__call__":
            return NotImplemented
        K = self.c.shape[0] - 1  # jets meeting in one expression share their order (taylor_rhs)
        rule = _RULES.get(ufunc.__name__)
        if rule is None:
            return NotImplemented
        result = rule(K, *inputs, **kwargs)
        if out is not None:
            target = out[0] if isinstance(out, tuple) else out
            if _is_jet(target):
                target.c[...] = _coeffs(result, K) if _is_jet(result) else result
                return target
            if _is_jet(result):
                raise TypeError(f"{ufunc.__name__}: out= is a plain array but the result is a Jet")
            target[...] = result
            return target
        return result

    def __array_function__(self, func, types, args, kwargs):
        rule = _FUNCTIONS.get(func.__name__)
        if rule is None:
            return NotImplemented
        return rule(*args, **kwargs)


def _order_of(*xs) -> int:
    return max((x.order for x in xs if _is_jet(x)), default=0)


def _coeffs(x, K: int) -> np.ndarray:
    """Taylor coefficients of x (Jet or constant), K + 1 of them."""
    if _is_jet(x):
        if x.order == K:
            return x.c
        out = np.zeros((K + 1, *x.shape), dtype=x.c.dtype)
        out[: x.order + 1] = x.c[: K + 1]
        return out
    x = np.asarray(x)
    out = np.zeros((K + 1, *x.shape), dtype=np.result_type(x.dtype, float))
    out[0] = x
    return out


def _align(*cs: np.ndarray) -> list[np.ndarray]:
    """Coefficient arrays with the value axes right-aligned (as numpy broadcasts values)."""
    nd = max(c.ndim for c in cs)
    return [c.reshape(c.shape[0], *([1] * (nd - c.ndim)), *c.shape[1:]) for c in cs]


def _value(x):
    return x.c[0] if _is_jet(x) else x


def _linear(op):
    def rule(K, a, b, **kw):
        if not _is_jet(a):
            c = _coeffs(b, K).copy()
            c[0] = op(a, c[0])
            c[1:] = op(0.0, c[1:]) if op is np.subtract else c[1:]
            return Jet(c)
        if not _is_jet(b):
            c = _coeffs(a, K).copy()
            c[0] = op(c[0], b)
            return Jet(c)
        return Jet(op(*_align(_coeffs(a, K), _coeffs(b, K))))

    return rule


def _mul_coeffs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = _align(a, b)
    K = a.shape[0] - 1
    if K == 1:  # dual numbers (the linearisation): (a0 b0, a0 b1 + a1 b0)
        return np.stack(np.broadcast_arrays(a[0] * b[0], a[0] * b[1] + a[1] * b[0]))
    out = np.zeros(np.broadcast_shapes(a.shape, b.shape), dtype=np.result_type(a, b))
    for k in range(K + 1):  # Cauchy product (Griewank-Walther Table 13.2)
        for j in range(k + 1):
            out[k] += a[j] * b[k - j]
    return out


def _multiply(K, a, b, **kw):
    if not _is_jet(a):
        return Jet(_coeffs(b, K) * np.asarray(a))
    if not _is_jet(b):
        return Jet(_coeffs(a, K) * np.asarray(b))
    return Jet(_mul_coeffs(_coeffs(a, K), _coeffs(b, K)))


def _div_coeffs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = _align(a, b)
    K = b.shape[0] - 1
    if K == 1:  # (a0/b0, (a1 − b1 a0/b0)/b0)
        q = a[0] / b[0]
        return np.stack(np.broadcast_arrays(q, (a[1] - b[1] * q) / b[0]))
    out = np.zeros(np.broadcast_shapes(a.shape, b.shape), dtype=np.result_type(a, b))
    for k in range(K + 1):  # c = a/b: c_k = (a_k − Σ_{j=1}^k b_j c_{k−j}) / b_0
        acc = a[k].copy() if a.shape[0] > k else np.zeros_like(out[0])
        for j in range(1, k + 1):
            acc = acc - b[j] * out[k - j]
        out[k] = acc / b[0]
    return out


def _divide(K, a, b, **kw):
    if not _is_jet(b):
        return Jet(_coeffs(a, K) / np.asarray(b))
    return Jet(_div_coeffs(_coeffs(a, K), _coeffs(b, K)))


def _exp_coeffs(a: np.ndarray) -> np.ndarray:
    K = a.shape[0] - 1
    out = np.zeros_like(a)
    out[0] = np.exp(a[0])
    for k in range(1, K + 1):  # e_k = (1/k) Σ_{j=1}^k j a_j e_{k−j}
        out[k] = sum(j * a[j] * out[k - j] for j in range(1, k + 1)) / k
    return out


def _log_coeffs(a: np.ndarray) -> np.ndarray:
    K = a.shape[0] - 1
    out = np.zeros_like(a)
    out[0] = np.log(a[0])
    for k in range(1, K + 1):  # l_k = (a_k − (1/k) Σ_{j=1}^{k−1} j l_j a_{k−j}) / a_0
        acc = a[k] - sum(j * out[j] * a[k - j] for j in range(1, k)) / k
        out[k] = acc / a[0]
    return out


def _pow_const(a: np.ndarray, r) -> np.ndarray:
    """a^r for a constant exponent r (scalar or array)."""
    K = a.shape[0] - 1
    r = np.asarray(r)
    if r.ndim == 0 and float(r) == int(r) and 0 <= int(r) <= 8:  # integer powers by products (a_0 may be 0)
        out = np.zeros_like(a)
        out[0] = 1.0
        for _ in range(int(r)):
            out = _mul_coeffs(out, a)
        return out
    a, rc = _align(a, r[None])
    r = rc[0]
    out = np.zeros(np.broadcast_shapes(a.shape, rc.shape), dtype=np.result_type(a, r, float))
    out[0] = a[0] ** r
    # where a_0 = 0 the derivatives of a^r are undefined (NaN); a branch (np.where/minimum)
    # usually discards those entries, so no warning is raised for them
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(1, K + 1):  # p_k = (1/(k a_0)) Σ_{j=1}^k (r j − (k − j)) a_j p_{k−j}
            out[k] = sum((r * j - (k - j)) * a[j] * out[k - j] for j in range(1, k + 1)) / (k * a[0])
    return out


def _power(K, a, b, **kw):
    if not _is_jet(b):
        return Jet(_pow_const(_coeffs(a, K), b))
    # a^b = exp(b log a)
    loga = _log_coeffs(_coeffs(a, K)) if _is_jet(a) else _coeffs(np.log(np.asarray(a, dtype=float)), K)
    return Jet(_exp_coeffs(_mul_coeffs(loga, _coeffs(b, K))))


def _unary(fn):
    def rule(K, a, **kw):
        return Jet(fn(_coeffs(a, K)))

    return rule


def _select(cond, a, b, K):
    ca, cb = _align(_coeffs(a, K), _coeffs(b, K))
    return Jet(np.where(cond, ca, cb))


def _maximum(K, a, b, **kw):
    return _select(np.asarray(np.real(_value(a)) >= np.real(_value(b))), a, b, K)  # the branch is taken on the value


def _minimum(K, a, b, **kw):
    return _select(np.asarray(np.real(_value(a)) <= np.real(_value(b))), a, b, K)


def _clip(K, a, low, high, **kw):
    return _minimum(K, _maximum(K, a, low), high)


def _abs(K, a, **kw):
    s = np.sign(np.real(_value(a)))
    return Jet(_coeffs(a, K) * np.where(s == 0, 1.0, s))


def _compare(op):
    def rule(K, a, b, **kw):
        return op(np.real(_value(a)), np.real(_value(b)))

    return rule


def _on_value(op):
    def rule(K, *xs, **kw):
        return op(*[_value(x) for x in xs])

    return rule


def _matmul(K, a, b, **kw):
    if not _is_jet(a):
        return Jet(np.matmul(np.asarray(a), _coeffs(b, K)))
    if not _is_jet(b):
        return Jet(np.matmul(_coeffs(a, K), np.asarray(b)))
    ca, cb = _coeffs(a, K), _coeffs(b, K)
    out = None
    for k in range(K + 1):
        terms = sum(np.matmul(ca[j], cb[k - j]) for j in range(k + 1))
        out = np.zeros((K + 1, *terms.shape), dtype=terms.dtype) if out is None else out
        out[k] = terms
    return Jet(out)


_RULES = {
    "add": _linear(np.add),
    "subtract": _linear(np.subtract),
    "multiply": _multiply,
    "true_divide": _divide,
    "divide": _divide,
    "power": _power,
    "float_power": _power,
    "negative": _unary(np.negative),
    "positive": _unary(lambda c: c.copy()),
    "exp": _unary(_exp_coeffs),
    "log": _unary(_log_coeffs),
    "log1p": lambda K, a, **kw: Jet(_log_coeffs(_coeffs(a + 1.0, K) if _is_jet(a) else _coeffs(1.0 + a, K))),
    "sqrt": lambda K, a, **kw: Jet(_pow_const(_coeffs(a, K), 0.5)),
    "square": lambda K, a, **kw: Jet(_mul_coeffs(_coeffs(a, K), _coeffs(a, K))),
    "reciprocal": lambda K, a, **kw: Jet(_div_coeffs(_coeffs(1.0, K), _coeffs(a, K))),
    "maximum": _maximum,
    "minimum": _minimum,
    "fmax": _maximum,
    "fmin": _minimum,
    "clip": _clip,
    "absolute": _abs,
    "sign": _on_value(np.sign),
    "less": _compare(np.less),
    "less_equal": _compare(np.less_equal),
    "greater": _compare(np.greater),
    "greater_equal": _compare(np.greater_equal),
    "equal": _compare(np.equal),
    "not_equal": _compare(np.not_equal),
    "isinf": _on_value(np.isinf),
    "isnan": _on_value(np.isnan),
    "isfinite": _on_value(np.isfinite),
    "matmul": _matmul,
}


def _where(cond, a, b):
    K = _order_of(a, b)
    cond = np.asarray(_value(cond)).astype(bool)
    return _select(cond, a, b, K)


def _like(fill):
    def rule(a, dtype=None, **kw):
        c = np.zeros_like(a.c) if dtype is None else np.zeros(a.c.shape, dtype=np.result_type(a.c.dtype, dtype))
        if fill is not None:
            c[0] = fill
        return Jet(c)

    return rule


def _broadcast_to(a, shape, **kw):
    return Jet(np.broadcast_to(a.c, (a.c.shape[0], *shape)))


def _join(op):
    def rule(arrays, axis=0, **kw):
        arrays = list(arrays)
        K = _order_of(*arrays)
        cs = [_coeffs(x, K) for x in arrays]
        ax = axis + 1 if axis >= 0 else axis
        return Jet(op(cs, axis=ax))

    return rule


def _sum(a, axis=None, **kw):
    return a.sum(axis=axis) if _is_jet(a) else np.sum(a, axis=axis, **kw)


_FUNCTIONS = {
    "where": _where,
    "empty_like": _like(None),
    "zeros_like": _like(None),
    "ones_like": _like(1.0),
    "broadcast_to": _broadcast_to,
    "stack": _join(np.stack),
    "concatenate": _join(np.concatenate),
    "sum": _sum,
    "ndim": lambda a: a.ndim,
    "shape": lambda a: a.shape,
    "size": lambda a, axis=None: a.size if axis is None else a.shape[axis],
    "copy": lambda a, **kw: a.copy(),
    "clip": lambda a, lo, hi, out=None, **kw: _clip(a.order, a, lo, hi),
    "any": lambda a, *args, **kw: np.any(_value(a), *args, **kw),
    "all": lambda a, *args, **kw: np.all(_value(a), *args, **kw),
    "real": lambda a: a,  # the real-valued model function, extended to complex directions (bilinear forms)
}


def taylor_rhs(model, P: dict, y: np.ndarray, lag: np.ndarray, dy: np.ndarray, dlag: np.ndarray, order: int):
    """Taylor coefficients of t ↦ f(y + t dy, lag + t dlag; P), shape (order + 1, n, B).

    ``y`` (n, B) and ``lag`` (m, n, B) are real (the expansion point, one column per direction
    or per point), ``dy``/``dlag`` the directions (real or complex, same shapes); ``P`` is the
    prepared parameter dict for the B columns. Coefficient k is f^(k)[d, ..., d]/k!.
    """
    dtype = np.result_type(dy, dlag, float)
    cy = np.zeros((order + 1, *y.shape), dtype=dtype)
    cy[0], cy[1] = y, dy
    cl = np.zeros((order + 1, *lag.shape), dtype=dtype)
    cl[0], cl[1] = lag, dlag
    out = model.rhs(0.0, Jet(cy), Jet(cl), P)
    if not _is_jet(out):  # the right-hand side does not depend on the state
        return _coeffs(np.asarray(out), order)
    return _coeffs(out, order)


def jacobians(model, P: dict, size: int, y_eq: np.ndarray) -> np.ndarray:
    """∂f/∂x(t − τ_a) for a = 0 (no delay) .. m at the constant state ``y_eq`` (n, B) (history
    equal to it): shape (B, m + 1, n_out, n_in), exact. ``P`` unprepared, as from ``resolve``."""
    m = len(model.delay_names)
    lag = np.repeat(y_eq[None], m, axis=0) if m else np.empty((0, *y_eq.shape))
    return jacobians_at(model, P, y_eq, lag)


def jacobians_at(model, P: dict, y: np.ndarray, lag: np.ndarray) -> np.ndarray:
    """∂f/∂x(t) and ∂f/∂x(t − τ_k) at the states ``y`` (n, B) with delayed states ``lag``
    (m, n, B): shape (B, m + 1, n_out, n_in), exact (order-1 jets, one batch column per point,
    argument and state, one call of the right-hand side). ``P`` unprepared (floats or (B,))."""
    n, size = y.shape
    m = lag.shape[0]
    K = (m + 1) * n  # one direction per (argument, state)
    Y = np.repeat(y[:, :, None], K, axis=2)  # (n, B, K)
    L = np.repeat(lag[:, :, :, None], K, axis=3)  # (m, n, B, K)
    dY = np.zeros_like(Y)
    dL = np.zeros_like(L)
    col = 0
    for a in range(m + 1):
        for j in range(n):
            (dY if a == 0 else dL[a - 1])[j, :, col] = 1.0
            col += 1
    Q = {key: (np.repeat(np.asarray(v, dtype=float), K) if np.ndim(v) else v) for key, v in P.items()}
    Q = model.prepare(Q)
    flat = (n, size * K)
    c = taylor_rhs(
        model,
        Q,
        Y.reshape(flat),
        L.reshape(m, *flat),
        dY.reshape(flat),
        dL.reshape(m, *flat),
        1,
    )
    d = np.real(c[1]).reshape(n, size, m + 1, n)  # (n_out, B, arg, n_in)
    return np.transpose(d, (1, 2, 0, 3))
