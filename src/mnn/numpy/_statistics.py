"""Statistics: median, percentile/quantile (every numpy method), average, histograms, bincount,
digitize, cov, corrcoef, ptp and the nan* reductions, with numpy's warnings and errors.

Order statistics sort along the axis (native stable sort, NaNs last) and read the needed ranks
with the native gather, so per-slice ranks (the nan* variants, where each slice has its own
count) cost the same as shared ones. Index arithmetic follows numpy's _quantile step by step, in
the same dtypes, so results agree to the last bit.
"""
import builtins
import math
import operator
import warnings

from .. import _core
from . import _dtypes, _quantile13
from ._common import asarray, ndarray, write_out
from ._creation import full, linspace
from ._manipulation import moveaxis
from ._reductions import all as _all
from ._reductions import any as _any
from ._reductions import argmax as _argmax
from ._reductions import argmin as _argmin
from ._reductions import cumprod as _cumprod
from ._reductions import cumsum as _cumsum
from ._reductions import max as _max
from ._reductions import mean as _mean
from ._reductions import min as _min
from ._reductions import prod as _prod
from ._reductions import std as _std
from ._reductions import sum as _sum
from ._reductions import var as _var
from ._sorting import _axis, _prim, gather, searchsorted, sort
from ._ufuncs import UFUNCS, where

_where = where

_F8, _I64, _B = _dtypes.dtype("float64"), _dtypes.dtype("int64"), _dtypes.dtype("bool")
_isnan, _floor, _ceil, _sqrt = UFUNCS["isnan"], UFUNCS["floor"], UFUNCS["ceil"], UFUNCS["sqrt"]


def _warn(msg, stacklevel=3):
    warnings.warn(msg, RuntimeWarning, stacklevel=stacklevel)


def _true(x):
    return builtins.bool(_any(x).item())


# ---------------------------------------------------------------------------------------------
# order statistics


def _normalize_axes(a, axis, fn):
    """The reduced axes moved last and merged: returns (array with one trailing reduced axis, kept shape)."""
    if axis is None:
        return _core.reshape(a, [-1]), [1] * a.ndim
    axes = [axis] if not isinstance(axis, (tuple, list)) else list(axis)
    axes = [_axis(x, a.ndim, fn) for x in axes]
    if len(set(axes)) != len(axes):
        raise ValueError(f"[mnn.numpy.{fn}] duplicate value in 'axis'")
    rest = [d for d in range(a.ndim) if d not in axes]
    t = _core.transpose(a, rest + axes)
    kept = [1 if d in axes else a.shape[d] for d in range(a.ndim)]
    n = 1
    for d in axes:
        n *= a.shape[d]
    return _core.reshape(_core.as_contiguous(t), [a.shape[d] for d in rest] + [n]), kept  # n: -1 fails on size 0


def _finish(r, qshape, kept, keepdims):
    """r: (rest..., Q) -> numpy's Q + rest (Q + the kept dims of 1 with keepdims)."""
    r = moveaxis(r, -1, 0)
    return _core.reshape(r, list(qshape) + (kept if keepdims else list(r.shape[1:])))


def _lerp(a, b, t, weak):
    """numpy's _lerp; a weak (Python scalar) q makes gamma a Python float, which takes a's float dtype."""
    diff = b - a
    if weak and a.dtype.kind == "f":
        tt, omt = t.astype(a.dtype), (1 - t).astype(a.dtype)
    else:
        tt, omt = t, 1 - t
    lo = a + diff * tt
    hi = b - diff * omt
    return where(t >= 0.5, hi, lo).astype(lo.dtype)


_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
            "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest")
_ALPHA_BETA = {"interpolated_inverted_cdf": (0, 1), "hazen": (0.5, 0.5), "weibull": (0, 0),
               "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0)}


def _virtual(method, n, q):
    """numpy's virtual index and gamma for one method. n: count (array of q's dtype), q: quantiles.

    Returns (prev_idx, next_idx, gamma) with gamma None for methods that pick one element."""
    if method in ("inverted_cdf", "closest_observation"):
        idx = n * q - 1 if method == "inverted_cdf" else n * q - 1 - 0.5
        prev = _floor(idx)
        gamma = idx - prev
        cond = gamma == 0 if method == "inverted_cdf" else (gamma == 0) & (prev % 2 == 1)
        res = where(cond, prev, prev + 1).astype(_I64)
        return where(res < 0, 0, res), None, None
    if method == "lower":
        return _floor((n - 1) * q).astype(_I64), None, None
    if method == "higher":
        return _ceil((n - 1) * q).astype(_I64), None, None
    if method == "nearest":
        return UFUNCS["rint"]((n - 1) * q).astype(_I64), None, None
    if method == "linear":
        vi = (n - 1) * q
    elif method == "midpoint":
        vi = 0.5 * (_floor((n - 1) * q) + _ceil((n - 1) * q))
    elif method == "averaged_inverted_cdf":
        vi = n * q - 1
    else:
        alpha, beta = _ALPHA_BETA[method]
        vi = n * q + (alpha + q * (1 - alpha - beta)) - 1
    prev = _floor(vi)
    gamma = vi - prev
    if method == "averaged_inverted_cdf":
        gamma = where(gamma == 0, 0.5, 1.0).astype(vi.dtype)
    elif method == "midpoint":
        gamma = where(vi % 1 == 0, 0.0, 0.5).astype(vi.dtype)
    nxt = prev + 1
    above = vi >= n - 1
    below = vi < 0
    prev = where(above, n - 1, where(below, 0, prev)).astype(_I64)
    nxt = where(above, n - 1, where(below, 0, nxt)).astype(_I64)
    return prev, nxt, gamma.astype(vi.dtype)


def _q_array(q, scale):
    """numpy 2.4: q as an array (a Python float is float64), percentiles divided by 100; and whether
    q was a Python scalar (then the result keeps a float input's dtype)."""
    weak = type(q) in (int, float)
    qa = asarray(q)
    if qa.dtype.kind not in "fiub":
        raise TypeError("[mnn.numpy.quantile] q must be real numbers")
    if scale != 1:
        qa = qa / scale
    return qa, weak


def _check_q(qa, fn, hi):
    if qa.size and not builtins.bool(_all((qa >= 0) & (qa <= 1)).item()):
        raise ValueError(f"[mnn.numpy.{fn}] {'Percentiles' if hi == 100 else 'Quantiles'} must be in the range "
                         f"[0, {hi}]")


def _quantile_core(a, qa, weak, axis, method, keepdims, fn, weights=None, nan_aware=False):
    if method not in _METHODS:
        raise ValueError(f"[mnn.numpy.{fn}] {method!r} is not a valid method. Use one of: {_METHODS}")
    if a.dtype.kind not in "biuf":
        raise TypeError(f"[mnn.numpy.{fn}] a must be an array of real numbers")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"[mnn.numpy.{fn}] Only method 'inverted_cdf' supports weights. Got: {method}.")
    discrete = method in ("lower", "higher", "nearest", "inverted_cdf", "closest_observation")
    if qa.dtype.kind != "f":
        if method == "linear":  # integer virtual indices: numpy takes the elements directly
            method, discrete = "lower", True
        qa = qa.astype(_F8)
    if a.dtype == _B and not discrete and weights is None:
        raise TypeError(f"[mnn.numpy.{fn}] numpy boolean subtract, the `-` operator, is not supported, use the "
                        "bitwise_xor, the `^` operator, or the logical_xor function instead.")
    a2, kept = _normalize_axes(a, axis, fn)
    n = a2.shape[-1]
    floats = a.dtype.kind == "f"
    qshape = list(qa.shape)
    qf = _core.reshape(qa, [-1])
    if weights is not None:
        return _weighted(a, a2, qf, qshape, axis, weights, kept, keepdims, fn, nan_aware)
    if n == 0 and nan_aware:
        raise IndexError(f"[mnn.numpy.{fn}] index -1 is out of bounds for axis 0 with size 0")
    if n == 0:
        raise IndexError(f"[mnn.numpy.{fn}] index -1 is out of bounds for axis 0 with size 0")
    if nan_aware and floats:
        s = sort(a2, axis=-1)
        cnt = _sum(~_isnan(s), axis=-1, keepdims=True)
        nn = cnt.astype(qa.dtype) if qa.dtype.kind == "f" else cnt
        prev, nxt, gamma = _virtual(method, nn, qf)  # shapes (rest..., 1) x (Q,) -> (rest..., Q)
    else:
        cnt = None
        nn = n  # a Python int, weak as in numpy
        prev, nxt, gamma = _virtual(method, nn, qf)  # shapes (Q,)
        s = _quantile13.ordered(a2, n, prev, nxt, qf.size)
        if s is None:
            s = sort(a2, axis=-1)
    full_shape = list(s.shape[:-1]) + [qf.size]

    def pick(idx):
        idx = _core.as_contiguous(_core.broadcast_to(idx, full_shape))
        if cnt is not None:  # all-NaN rows: read the last element (NaN) instead of rank -1
            idx = where(idx < 0, n - 1, idx).astype(_I64)
        return gather(s, idx, s.ndim - 1)

    lo = pick(prev)
    r = lo if gamma is None else _lerp(lo, pick(nxt), gamma, weak)
    if floats:
        last = s[..., n - 1:n]
        if cnt is None:
            r = where(_isnan(last), last, r).astype(r.dtype)
        else:
            allnan = cnt == 0
            if _true(allnan):
                _warn("All-NaN slice encountered", 4)
            r = where(allnan, _core.scalar(float("nan"), r.dtype._code), r).astype(r.dtype)
    return _finish(r, qshape, kept, keepdims)


def _weighted(a, a2, qf, qshape, axis, weights, kept, keepdims, fn, nan_aware):
    w = asarray(weights)
    if w.shape != a.shape:
        if axis is None or isinstance(axis, (tuple, list)) or w.ndim != 1 or w.shape[0] != a.shape[axis]:
            raise ValueError(f"[mnn.numpy.{fn}] Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        shp = [1] * a.ndim
        shp[_axis(axis, a.ndim, fn)] = w.shape[0]
        w = _core.broadcast_to(_core.reshape(w, shp), list(a.shape))
    if w.size and _true(w < 0):
        raise ValueError(f"[mnn.numpy.{fn}] Weights must be non-negative.")
    w2, _ = _normalize_axes(w, axis, fn)
    from ._sorting import argsort
    order = argsort(a2, axis=-1)
    s = gather(a2, order, a2.ndim - 1)
    ws = gather(_core.as_contiguous(w2), order, a2.ndim - 1)
    if nan_aware and a.dtype.kind == "f":
        ws = where(_isnan(s), 0.0, ws)
    n = s.shape[-1]
    cdf = _cumsum(ws, axis=-1, dtype=_F8)
    cdf = cdf / cdf[..., n - 1:n]
    if _true(_isnan(cdf[..., n - 1:n])):
        raise ValueError(f"[mnn.numpy.{fn}] Weights included NaN, inf or were all zero.")
    if qf.dtype.kind == "f":
        cdf = cdf.astype(qf.dtype)
    # numpy sets zero cdf entries (leading zero weights) to -1, so q = 0 picks the first weighted element
    cdf = where(cdf == 0, _core.scalar(-1, cdf.dtype._code), cdf).astype(cdf.dtype)
    # searchsorted(cdf, q, 'left') per slice: the number of cdf values below q.
    below = _core.expand_dims(cdf, cdf.ndim) < _core.reshape(qf, [1] * cdf.ndim + [-1])
    idx = _sum(below, axis=-2, dtype=_I64)
    idx = where(idx > n - 1, n - 1, idx).astype(_I64)
    r = gather(s, _core.as_contiguous(idx), s.ndim - 1)
    if a.dtype.kind == "f" and not nan_aware:
        last = s[..., n - 1:n]
        r = where(_isnan(last), last, r).astype(r.dtype)
    return _finish(r, qshape, kept, keepdims)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
             interpolation=None):
    a = asarray(a)
    qa, weak = _q_array(q, 1)
    _check_q(qa, "quantile", 1)
    return write_out(_quantile_core(a, qa, weak, axis, interpolation or method, keepdims, "quantile", weights), out,
                     "quantile", "unsafe")


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
               interpolation=None):
    a = asarray(a)
    qa, weak = _q_array(q, 100)
    _check_q(qa, "percentile", 100)
    return write_out(_quantile_core(a, qa, weak, axis, interpolation or method, keepdims, "percentile", weights), out,
                     "percentile", "unsafe")


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
                interpolation=None):
    a = asarray(a)
    qa, weak = _q_array(q, 1)
    _check_q(qa, "nanquantile", 1)
    return write_out(_quantile_core(a, qa, weak, axis, interpolation or method, keepdims, "nanquantile", weights, True),
                     out, "nanquantile", "unsafe")


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None, interpolation=None):
    a = asarray(a)
    qa, weak = _q_array(q, 100)
    _check_q(qa, "nanpercentile", 100)
    r = _quantile_core(a, qa, weak, axis, interpolation or method, keepdims, "nanpercentile", weights, True)
    return write_out(r, out, "nanpercentile", "unsafe")


def _median_dtype(a):
    return a.dtype if a.dtype.kind in "fc" else _F8


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return write_out(_median(asarray(a), axis, keepdims, False), out, "median", "unsafe")


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return write_out(_median(asarray(a), axis, keepdims, True), out, "nanmedian", "unsafe")


def _median(a, axis, keepdims, nan_aware):
    fn = "nanmedian" if nan_aware else "median"
    a2, kept = _normalize_axes(a, axis, fn)
    n = a2.shape[-1]
    rd = _median_dtype(a)
    if n and a2.size == 0:  # numpy: an empty result, no warning (the reduced axes are not empty)
        r = full(list(a2.shape[:-1]), 0, rd)
        return _core.reshape(r, kept) if keepdims else r
    if n == 0:
        _warn("Mean of empty slice", 4)
        r = full(list(a2.shape[:-1]), float("nan"), rd)
        return _core.reshape(r, kept) if keepdims else r
    s = sort(a2, axis=-1)
    # numpy: the mean of the middle one or two elements, in mean's dtypes.
    acc = _dtypes.dtype("float32") if a.dtype == _dtypes.dtype("float16") else rd
    if nan_aware and a.dtype.kind == "f":
        cnt = _sum(~_isnan(s), axis=-1, keepdims=True)
        lo_i = where(cnt == 0, n - 1, (cnt - 1) // 2).astype(_I64)
        hi_i = where(cnt == 0, n - 1, cnt // 2).astype(_I64)
        lo, hi = gather(s, lo_i, s.ndim - 1).astype(acc), gather(s, hi_i, s.ndim - 1).astype(acc)
        r = where(lo_i == hi_i, lo, (lo + hi) / _core.scalar(2, acc._code)).astype(rd)
        allnan = cnt == 0
        if _true(allnan):
            _warn("All-NaN slice encountered", 4)
    else:
        lo = s[..., (n - 1) // 2:(n - 1) // 2 + 1].astype(acc)
        hi = s[..., n // 2:n // 2 + 1].astype(acc)
        r = (lo if n % 2 else (lo + hi) / _core.scalar(2, acc._code)).astype(rd)
        if a.dtype.kind in "fc":  # numpy: a NaN sorts last and is the median, as it is
            last = s[..., n - 1:n]
            r = where(_isnan(last), last.astype(rd), r).astype(rd)
    r = _core.reshape(r, list(r.shape[:-1]))
    return _core.reshape(r, kept) if keepdims else r


# ---------------------------------------------------------------------------------------------
# moments and spreads


def ptp(a, axis=None, out=None, keepdims=False):
    a = asarray(a)
    return write_out(_max(a, axis, keepdims=keepdims) - _min(a, axis, keepdims=keepdims), out, "ptp", "unsafe")


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = asarray(a)
    if weights is None:
        avg = _mean(a, axis, keepdims=keepdims)
        scl = _core.full(list(avg.shape), _core.scalar(a.size / builtins.max(avg.size, 1), avg.dtype._code),
                         avg.dtype._code)
    else:
        wgt = asarray(weights)
        rt = _dtypes.result_type(a.dtype, wgt.dtype, "f8") if a.dtype.kind in "iub" else \
            _dtypes.result_type(a.dtype, wgt.dtype)
        if a.shape != wgt.shape:
            if axis is None:
                raise TypeError("[mnn.numpy.average] Axis must be specified when shapes of a and weights differ.")
            axes = [axis] if not isinstance(axis, (tuple, list)) else list(axis)
            axes = [_axis(x, a.ndim, "average") for x in axes]
            if wgt.shape != tuple(a.shape[x] for x in axes):
                raise ValueError("[mnn.numpy.average] Shape of weights must be consistent with shape of a along "
                                 "specified axis.")
            shp = [a.shape[d] if d in axes else 1 for d in range(a.ndim)]
            if len(axes) > 1 and axes != sorted(axes):
                wgt = _core.transpose(wgt, [sorted(axes).index(x) for x in axes])
            wgt = _core.reshape(wgt, shp)
        scl = _sum(wgt, axis, dtype=rt, keepdims=keepdims)
        if _true(scl == 0.0):
            raise ZeroDivisionError("[mnn.numpy.average] Weights sum to zero, can't be normalized")
        avg = _sum(a.astype(rt) * wgt.astype(rt), axis, keepdims=keepdims) / scl
    if returned:
        if scl.shape != avg.shape:
            scl = _core.broadcast_to(scl, list(avg.shape))
        return avg, scl
    return avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    if ddof is not None and ddof != int(ddof):
        raise ValueError("[mnn.numpy.cov] ddof must be integer")
    m = asarray(m)
    if m.ndim > 2:
        raise ValueError("[mnn.numpy.cov] m has more than 2 dimensions")
    if dtype is None:
        dtype = _dtypes.result_type(m, _F8) if y is None else _dtypes.result_type(m, asarray(y), _F8)
    X = _core.reshape(m, [1, -1]) if m.ndim < 2 else m
    X = X.astype(dtype)
    if not rowvar and X.shape[0] != 1:
        X = _core.transpose(X, [1, 0])
    if X.shape[0] == 0:
        return _core.reshape(full([0], 0.0, _F8), [0, 0])
    if y is not None:
        y = asarray(y)
        if y.ndim > 2:
            raise ValueError("[mnn.numpy.cov] y has more than 2 dimensions")
        Y = (_core.reshape(y, [1, -1]) if y.ndim < 2 else y).astype(dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = _core.transpose(Y, [1, 0])
        X = _core.concatenate([X, Y], 0, None)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        fw = asarray(fweights)
        if fw.dtype.kind == "f" and not builtins.bool(_all(fw == UFUNCS["rint"](fw)).item()):
            raise TypeError("[mnn.numpy.cov] fweights must be integer")
        if fw.ndim > 1:
            raise RuntimeError("[mnn.numpy.cov] cannot handle multidimensional fweights")
        if fw.shape[0] != X.shape[1]:
            raise RuntimeError("[mnn.numpy.cov] incompatible numbers of samples and fweights")
        if _true(fw < 0):
            raise ValueError("[mnn.numpy.cov] fweights cannot be negative")
        w = fw.astype(_F8)
    aw = None
    if aweights is not None:
        aw = asarray(aweights)
        if aw.ndim > 1:
            raise RuntimeError("[mnn.numpy.cov] cannot handle multidimensional aweights")
        if aw.shape[0] != X.shape[1]:
            raise RuntimeError("[mnn.numpy.cov] incompatible numbers of samples and aweights")
        if _true(aw < 0):
            raise ValueError("[mnn.numpy.cov] aweights cannot be negative")
        w = aw.astype(_F8) if w is None else w * aw
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = float(w_sum[0].item())
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aw is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * float(_sum(w * aw).item()) / w_sum
    if fact <= 0:
        _warn("Degrees of freedom <= 0 for slice", 3)
        fact = 0.0
    Xc = X - _core.expand_dims(avg, 1)
    XT = _core.transpose(Xc if w is None else Xc * w, [1, 0])
    c = _core.matmul(Xc, XT)
    c = c * (1.0 / fact if fact else float("inf"))
    return _core.squeeze(c, [])


def corrcoef(x, y=None, rowvar=True, bias=None, ddof=None, *, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    from ._manipulation import diagonal
    d = _core.as_contiguous(diagonal(c))
    sd = _sqrt(d)
    c = c / _core.expand_dims(sd, 1)
    c = c / _core.expand_dims(sd, 0)
    from ._ufuncs import clip
    return clip(c, -1, 1)


# ---------------------------------------------------------------------------------------------
# counting and binning


def bincount(x, /, weights=None, minlength=0):
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("[mnn.numpy.bincount] object of too small depth for desired array")
    if x.ndim > 1:
        raise ValueError("[mnn.numpy.bincount] object too deep for desired array")
    if x.size == 0 and x.dtype.kind == "f":
        x = x.astype(_I64)
    if not _dtypes.can_cast(x.dtype, _I64, "safe"):
        raise TypeError(f"[mnn.numpy.bincount] Cannot cast array data from {x.dtype!r} to dtype('int64') according "
                        "to the rule 'safe'")
    if minlength is None:
        raise TypeError("[mnn.numpy.bincount] use 0 instead of None for minlength")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("[mnn.numpy.bincount] 'minlength' must not be negative")
    xs = [x.astype(_I64)]
    if weights is not None:
        w = asarray(weights)
        if w.shape != x.shape:
            raise ValueError("[mnn.numpy.bincount] The weights and list don't have the same length.")
        xs.append(w.astype(_F8))
    return _prim("bincount", xs, [minlength])


def _monotonicity(bins):
    if bins.size < 2:
        return 1
    d = bins[1:] >= bins[:-1]
    if builtins.bool(_all(d).item()):
        return 1
    if builtins.bool(_all(bins[1:] <= bins[:-1]).item()):
        return -1
    return 0


def digitize(x, bins, right=False):
    x, bins = asarray(x), asarray(bins)
    if bins.ndim != 1:
        raise ValueError("[mnn.numpy.digitize] object too deep for desired array" if bins.ndim > 1
                         else "[mnn.numpy.digitize] object of too small depth for desired array")
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("[mnn.numpy.digitize] bins must be monotonically increasing or decreasing")
    if mono == -1:
        from ._manipulation import flip
        return bins.shape[0] - searchsorted(_core.as_contiguous(flip(bins)), x, side="left" if right else "right")
    return searchsorted(bins, x, side="left" if right else "right")


def _hist_range(a, rng):
    if rng is not None:
        first, last = rng
        if first > last:
            raise ValueError("[mnn.numpy.histogram] max must be larger than min in range parameter.")
        if not (math.isfinite(first) and math.isfinite(last)):
            raise ValueError(f"[mnn.numpy.histogram] supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = _min(a).item(), _max(a).item()
        if not (math.isfinite(first) and math.isfinite(last)):
            raise ValueError(f"[mnn.numpy.histogram] autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _est_ptp(x):
    return float(_max(x).item()) - float(_min(x).item()) if x.size else 0.0


def _hist_bin_width(name, x):
    n = x.size
    xf = x.astype(_F8)
    if name == "sqrt":
        return _est_ptp(x) / math.sqrt(n)
    if name == "sturges":
        return _est_ptp(x) / (math.log2(n) + 1.0)
    if name == "rice":
        return _est_ptp(x) / (2.0 * n ** (1.0 / 3))
    if name == "scott":
        return (24.0 * math.pi ** 0.5 / n) ** (1.0 / 3.0) * float(_std(xf).item())
    if name == "stone":
        raise NotImplementedError("[mnn.numpy.histogram] the 'stone' estimator is not supported yet")
    if name == "doane":
        if n > 2:
            sg1 = math.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
            sigma = float(_std(xf).item())
            if sigma > 0.0:
                g1 = float(_mean(((xf - _mean(xf)) / sigma) ** 3).item())
                return _est_ptp(x) / (1.0 + math.log2(n) + math.log2(1.0 + abs(g1) / sg1))
        return 0.0
    if name == "fd":
        p = percentile(xf, [75, 25]).tolist()
        return 2.0 * (p[0] - p[1]) * n ** (-1.0 / 3.0)
    if name == "auto":
        fd = _hist_bin_width("fd", x)
        st = _hist_bin_width("sturges", x)
        return builtins.min(fd, st) if fd else st
    raise ValueError(f"[mnn.numpy.histogram] {name!r} is not a valid estimator for `bins`")


def _compress(a, mask):
    from ._sorting import mask_positions
    return _prim("take", [a, mask_positions(mask)], [0])


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    a = _core.reshape(asarray(a), [-1])
    return _bin_edges(a, bins, range, weights)[0]


def _bin_edges(a, bins, rng, weights):
    if isinstance(bins, str):
        if weights is not None:
            raise TypeError("[mnn.numpy.histogram] Automated estimation of the number of bins is not supported for "
                            "weighted data")
        first, last = _hist_range(a, rng)
        x = a
        if rng is not None:
            keep = (a >= first) & (a <= last)
            if not builtins.bool(_all(keep).item()):
                x = _compress(a, keep)
        if x.size == 0:
            nb = 1
        else:
            width = _hist_bin_width(bins, x)
            nb = int(math.ceil((last - first) / width)) if width else 1
        bins = nb
    if isinstance(bins, (int,)) or (isinstance(bins, ndarray) and bins.ndim == 0):
        nb = operator.index(bins)
        if nb < 1:
            raise ValueError("[mnn.numpy.histogram] `bins` must be positive, when an integer")
        first, last = _hist_range(a, rng)
        # numpy's linspace runs in the dtype of the range's ends: a float input's own dtype when the
        # range was read from it (numpy scalars), float64 for a given range; then casts to the bin dtype.
        cd = a.dtype if rng is None and a.dtype.kind == "f" else _F8
        bt = a.dtype if a.dtype.kind == "f" else _F8
        return _np_linspace(first, last, nb + 1, cd).astype(bt), True
    edges = asarray(bins)
    if edges.ndim != 1:
        raise ValueError("[mnn.numpy.histogram] `bins` must be 1d, when an array")
    if edges.size > 1 and not builtins.bool(_all(edges[:-1] <= edges[1:]).item()):
        raise ValueError("[mnn.numpy.histogram] `bins` must increase monotonically, when an array")
    return edges, False


def _np_linspace(start, stop, num, cd):
    from ._creation import arange
    div = num - 1
    st = _core.full([], _core.scalar(start, cd._code), cd._code)
    delta = _core.full([], _core.scalar(stop, cd._code), cd._code) - st
    step = delta / div
    y = arange(0, num, dtype=cd)
    y = y / div * delta if float(step.item()) == 0 else y * step
    y = y + st
    return _core.concatenate([y[:-1], _core.full([1], _core.scalar(stop, cd._code), cd._code)], 0, None)


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    a = _core.reshape(asarray(a), [-1])
    w = None
    if weights is not None:
        w = _core.reshape(asarray(weights), [-1])
        if w.shape != a.shape:
            raise ValueError("[mnn.numpy.histogram] weights should have the same shape as a.")
    edges, _ = _bin_edges(a, bins, range, weights)
    nb = edges.shape[0] - 1
    if nb < 1:
        raise ValueError("[mnn.numpy.histogram] `bins` must have at least one edge pair")
    idx = _bin_index(a, edges, nb)
    # idx is in [0, nb] by construction, so the output length is known: a scatter_add (which
    # adds in index order from zero, as bincount does) records without bincount's evaluation
    # of idx to size its output
    n = idx.shape[0]
    if w is None:
        counts = _prim("scatter_add", [_core.full([n], _core.scalar(1, _I64._code), _I64._code), idx], [0, nb + 1])[:nb]
    else:
        counts = _prim("scatter_add", [w.astype(_F8), idx], [0, nb + 1])[:nb]
        if w.dtype.kind in "iub":
            counts = counts.astype(w.dtype if w.dtype.kind != "b" else _I64)
        elif w.dtype != _F8:
            counts = counts.astype(w.dtype)
    if density:
        db = (edges[1:] - edges[:-1]).astype(_F8)
        return counts / db / _sum(counts), edges
    return counts, edges


def _bin_index(a, edges, nb):
    """Bin of each sample, numpy's half-open bins with the last closed; nb (a spare bin) outside."""
    ce = edges
    dt = _dtypes.result_type(a, edges)
    if a.dtype != dt:
        a = a.astype(dt)
    if ce.dtype != dt:
        ce = ce.astype(dt)
    ce = _core.as_contiguous(ce)
    idx = searchsorted(ce, a, side="right") - 1
    last = ce[nb:nb + 1]
    idx = where(a == last, nb - 1, idx)
    ok = (idx >= 0) & (idx < nb) & (a >= ce[0:1]) & (a <= last)
    return _core.as_contiguous(where(ok, idx, nb).astype(_I64))


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    if isinstance(sample, ndarray):
        s = sample if sample.ndim == 2 else _core.reshape(sample, [-1, 1])
    else:
        try:
            s = asarray(sample)
            s = _core.reshape(s, [-1, 1]) if s.ndim == 1 else s
        except Exception:  # noqa: BLE001  sequences of unequal-length arrays fall through to numpy's error
            raise ValueError("[mnn.numpy.histogramdd] sample must be a 2-D array or a sequence of 1-D arrays")
        if not isinstance(sample, ndarray) and isinstance(sample, (list, tuple)) and len(sample) and \
                not isinstance(sample[0], (int, float)):
            s = _core.transpose(asarray(sample), [1, 0])
    N, D = s.shape
    try:
        M = len(bins)
        if M != D:
            raise ValueError("[mnn.numpy.histogramdd] The dimension of bins must be equal to the dimension of the "
                             "sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D  # noqa: A001
    elif len(range) != D:
        raise ValueError("[mnn.numpy.histogramdd] range argument must have one entry per dimension")
    edges, nbin = [], []
    for i in builtins.range(D):
        col = _core.as_contiguous(s[:, i])
        b = bins[i]
        if isinstance(b, int) or (isinstance(b, ndarray) and b.ndim == 0):
            b = operator.index(b)
            if b < 1:
                raise ValueError(f"[mnn.numpy.histogramdd] `bins[{i}]` must be positive, when an integer")
            if range[i] is not None:
                smin, smax = range[i]
                if smin > smax:
                    raise ValueError(f"[mnn.numpy.histogramdd] max must be larger than min in range parameter.")
            elif col.size == 0:
                smin, smax = 0, 1
            else:
                smin, smax = _min(col).item(), _max(col).item()
                if not (math.isfinite(smin) and math.isfinite(smax)):
                    raise ValueError(f"[mnn.numpy.histogramdd] autodetected range of [{smin}, {smax}] is not finite")
            if smin == smax:
                smin, smax = smin - 0.5, smax + 0.5
            e = linspace(smin, smax, b + 1, dtype=_F8)
        else:
            e = asarray(b)
            if e.ndim != 1:
                raise ValueError(f"[mnn.numpy.histogramdd] `bins[{i}]` must be a scalar or 1d array")
            if e.size > 1 and not builtins.bool(_all(e[:-1] <= e[1:]).item()):
                raise ValueError(f"[mnn.numpy.histogramdd] `bins[{i}]` must be monotonically increasing, when an "
                                 "array")
        edges.append(e)
        nbin.append(e.shape[0] + 1)  # outliers on both sides
    flat = None
    for i in builtins.range(D):
        col = _core.as_contiguous(s[:, i])
        e = edges[i]
        dt = _dtypes.result_type(col, e)
        c, ee = col.astype(dt), _core.as_contiguous(e.astype(dt))
        k = searchsorted(ee, c, side="right")
        k = where(c == ee[e.shape[0] - 1:e.shape[0]], k - 1, k).astype(_I64)
        flat = k if flat is None else flat * nbin[i] + k
    total = math.prod(nbin)
    ws = [] if weights is None else [_core.reshape(asarray(weights), [-1]).astype(_F8)]
    if flat is None or N == 0:
        flat = full([0], 0, _I64)
        ws = [full([0], 0.0, _F8)] if weights is not None else []
    h = _prim("bincount", [_core.as_contiguous(flat)] + ws, [total]).astype(_F8)
    h = _core.reshape(h, nbin)
    h = h[tuple(slice(1, -1) for _ in builtins.range(D))]
    if density:
        tot = _sum(h)
        for i in builtins.range(D):
            shp = [1] * D
            shp[i] = nbin[i] - 2
            de = _core.reshape((edges[i][1:] - edges[i][:-1]).astype(_F8), shp)
            h = h / de
        h = h / tot
    return h, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = asarray(bins)
        bins = [xedges, yedges]
    x, y = asarray(x), asarray(y)
    h, e = histogramdd(_core.transpose(_core.concatenate([_core.reshape(x, [1, -1]), _core.reshape(y, [1, -1])],
                                                         0, None), [1, 0]), bins, range, density, weights)
    return h, e[0], e[1]


# ---------------------------------------------------------------------------------------------
# nan-ignoring reductions


def _replace_nan(a, value):
    a = asarray(a)
    if a.dtype.kind not in "fc":  # numpy: a complex with a NaN part is replaced whole
        return a, None
    mask = _isnan(a)
    return where(mask, _core.scalar(value, a.dtype._code), a).astype(a.dtype), mask


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A002
    a, _ = _replace_nan(a, 0)
    return _sum(a, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A002
    a, _ = _replace_nan(a, 1)
    return _prod(a, axis, dtype, out, keepdims, initial, where)


def nancumsum(a, axis=None, dtype=None, out=None):
    a, _ = _replace_nan(a, 0)
    return _cumsum(a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    a, _ = _replace_nan(a, 1)
    return _cumprod(a, axis, dtype, out)


def _nan_extreme(a, axis, out, keepdims, fn, fill, reduce_fn):
    a = asarray(a)
    if a.dtype.kind != "f":
        return reduce_fn(a, axis, out, keepdims)
    # One native pass that skips NaN (numpy's fmax/fmin reduce); an all-NaN slice comes out NaN.
    kind = _NANMAX if fn == "nanmax" else _NANMIN
    from ._common import axis_tuple
    from ._reductions import _zero_d_axis
    axis = _zero_d_axis(a, axis)
    r = _core.reduce(kind, a, axis_tuple(axis, fn), builtins.bool(keepdims), None, fn)
    if r.size and _true(_isnan(r)):
        _warn("All-NaN slice encountered", 4)
    return write_out(r, out, fn, "unsafe")


_NANMAX, _NANMIN, _COUNT_NONZERO = 6, 7, 8


def _unsupported(fn, **kw):
    for k, v in kw.items():
        if v is not None and v is not True:
            raise NotImplementedError(f"[mnn.numpy.{fn}] {k}= is not supported yet")


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A002
    _unsupported("nanmin", initial=initial, where=where)
    return _nan_extreme(a, axis, out, keepdims, "nanmin", float("inf"),
                        lambda x, ax, o, k: _min(x, ax, o, k))


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A002
    _unsupported("nanmax", initial=initial, where=where)
    return _nan_extreme(a, axis, out, keepdims, "nanmax", float("-inf"),
                        lambda x, ax, o, k: _max(x, ax, o, k))


def _nanarg(a, axis, out, keepdims, fn, fill, arg):
    a = asarray(a)
    if a.dtype.kind == "f" and a.size:
        # one native search that treats NaN as -inf / +inf, as numpy's replacement; -1 marks an
        # all-NaN slice
        ax = None if axis is None else operator.index(axis)
        if a.ndim == 0 and ax is not None:
            if ax not in (0, -1):
                raise _core.AxisError(f"[mnn.numpy.{fn}] axis {ax} is out of bounds for array of dimension 1")
            ax = None
        r = _core.argreduce(2 if fn == "nanargmax" else 3, a, ax, builtins.bool(keepdims), fn)
        if _true(r < 0):
            raise ValueError(f"[mnn.numpy.{fn}] All-NaN slice encountered")
        return write_out(r, out, fn, "unsafe")
    a2, mask = _replace_nan(a, fill)
    if mask is not None and mask.size:
        m = _all(mask, axis) if not (a.ndim == 0 and axis is not None) else mask
        if _true(m):
            raise ValueError(f"[mnn.numpy.{fn}] All-NaN slice encountered")
    return arg(a2, axis, out, keepdims=keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nanarg(a, axis, out, keepdims, "nanargmin", float("inf"), _argmin)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _nanarg(a, axis, out, keepdims, "nanargmax", float("-inf"), _argmax)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):  # noqa: A002
    _unsupported("nanmean", where=where)
    a = asarray(a)
    arr, mask = _replace_nan(a, 0)
    if mask is None:
        return _mean(arr, axis, dtype, out, keepdims)
    cnt = _sum(~mask, axis, dtype=_I64, keepdims=keepdims)
    tot = _sum(arr, axis, dtype, None, keepdims)
    avg = (tot.astype(_F8) / cnt).astype(tot.dtype)
    if _true(cnt == 0):
        _warn("Mean of empty slice", 3)
    return write_out(avg, out, "nanmean", "unsafe")


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,  # noqa: A002
           correction=None):
    _unsupported("nanvar", where=where, mean=mean)
    if correction is not None:
        ddof = correction
    a = asarray(a)
    arr, mask = _replace_nan(a, 0)
    if mask is None:
        return _var(arr, axis, dtype, out, ddof, keepdims)
    cnt = _sum(~mask, axis, dtype=_I64, keepdims=True)
    avg = _sum(arr, axis, dtype, None, True)
    avg = (avg.astype(_F8) / cnt).astype(avg.dtype)
    d = _where(mask, _core.scalar(0, arr.dtype._code), arr - avg)
    d = d.astype(avg.dtype)
    v = _sum(d * d, axis, dtype, None, keepdims)
    dof = cnt - ddof
    if not keepdims:
        dof = _core.reshape(dof, list(v.shape))
    v = (v.astype(_F8) / dof).astype(v.dtype)
    bad = dof <= 0
    if _true(bad):
        _warn("Degrees of freedom <= 0 for slice.", 3)
        v = _where(bad, _core.scalar(float("nan"), v.dtype._code), v).astype(v.dtype)
    return write_out(v, out, "nanvar", "unsafe")


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,  # noqa: A002
           correction=None):
    _unsupported("nanstd", where=where, mean=mean)
    v = nanvar(a, axis, dtype, None, ddof, keepdims, correction=correction)
    return write_out(_sqrt(v), out, "nanstd", "unsafe")
