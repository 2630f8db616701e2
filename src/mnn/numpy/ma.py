"""mnn.numpy.ma: the core of numpy.ma (masked arrays) on mnn arrays.

A MaskedArray is a data array plus a boolean mask of the same shape (True = invalid). What is
here: the constructors (array, masked_array, masked_where/invalid/equal/greater/less/...,
masked_inside/outside), data/mask/fill_value/filled/compressed/count, indexing and assignment of
`masked`, arithmetic and comparisons (masks combine; division by zero, log/sqrt/... outside their
domain become masked, as numpy.ma does), and the reductions (sum, prod, mean, var, std, min, max,
ptp, argmin, argmax, any, all) that skip masked elements. Not here: structured/record masks,
hard masks, numpy's exact repr layout (ours shows the same values and mask), and the long tail of
numpy.ma functions.
"""
import builtins
import operator
import sys

from .. import _core
from . import _dtypes

_NDARRAY = _core.ndarray


def _mnp():
    return sys.modules["mnn.numpy"]


class MaskError(Exception):
    pass


class MaskedConstant:
    """`masked`: what indexing a masked element gives, and what assigning it masks."""
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self):
        return "masked"

    def __str__(self):
        return "--"

    def __bool__(self):
        return False

    def _arith(self, *a, **k):
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _arith
    __pow__ = __neg__ = _arith


masked = MaskedConstant()
nomask = False


# -- default fill values (numpy.ma.default_fill_value)
def default_fill_value(obj):
    dt = obj.dtype if hasattr(obj, "dtype") else _dtypes.dtype(obj)
    return {"b": True, "i": 999999, "u": 999999, "f": 1e20, "c": 1e20 + 0j}[dt.kind]


def _fill_for(dt, value):
    if value is None:
        return default_fill_value(dt)
    if dt.kind in "iu":
        return int(value)
    if dt.kind == "f":
        return float(value)
    if dt.kind == "b":
        return bool(value)
    return complex(value)


class MaskedArray:
    """Data and a same-shape boolean mask; see numpy.ma.MaskedArray."""
    __array_priority__ = 150  # our operators win over plain arrays'

    def __init__(self, data, mask=nomask, dtype=None, copy=False, fill_value=None, keep_mask=True, **kwargs):
        mnp = _mnp()
        if isinstance(data, MaskedArray):
            base_mask = data._mask if keep_mask else None
            data = data._data
        else:
            base_mask = None
        d = mnp.array(data, dtype=dtype, copy=copy) if copy or dtype is not None else mnp.asarray(data)
        if mask is nomask or mask is None:
            m = mnp.zeros(d.shape, dtype=bool)
            self._hasmask = False
        else:
            m = mnp.asarray(mask)
            if m.dtype != _dtypes.bool_:
                m = m != 0
            if tuple(m.shape) != tuple(d.shape):
                if m.size == 1:
                    m = mnp.broadcast_to(m.reshape(()), d.shape)
                elif m.size == d.size:
                    m = m.reshape(d.shape)
                else:
                    raise MaskError(f"[mnn.numpy.ma.MaskedArray] Mask and data not compatible: data size is {d.size}, "
                                    f"mask size is {m.size}.")
            m = mnp.array(m, copy=True)
            self._hasmask = True
        if base_mask is not None and base_mask is not False:
            m = m | base_mask
            self._hasmask = True
        self._data = d
        self._mask = m
        self._fill_value = _fill_for(d.dtype, fill_value)

    # -- basic attributes
    @property
    def data(self):
        return self._data

    @property
    def mask(self):
        return self._mask if self._hasmask else nomask

    @mask.setter
    def mask(self, value):
        self._mask = _mnp().broadcast_to(_mnp().asarray(value, dtype=bool), self.shape).copy()
        self._hasmask = True

    @property
    def fill_value(self):
        return self._fill_value

    @fill_value.setter
    def fill_value(self, value):
        self._fill_value = _fill_for(self.dtype, value)

    @property
    def shape(self):
        return tuple(self._data.shape)

    @property
    def dtype(self):
        return self._data.dtype

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        return self._data.size

    def __len__(self):
        return len(self._data)

    @property
    def T(self):
        return MaskedArray(self._data.T, self._mask.T if self._hasmask else nomask, fill_value=self._fill_value)

    def _new(self, data, mask):
        r = MaskedArray(data, mask, fill_value=None)
        if r.dtype == self.dtype:
            r._fill_value = self._fill_value
        return r

    # -- conversions
    def filled(self, fill_value=None):
        mnp = _mnp()
        fv = self._fill_value if fill_value is None else fill_value
        if not self._hasmask:
            return self._data.copy()
        return mnp.where(self._mask, mnp.asarray(fv).astype(self.dtype), self._data)

    def compressed(self):
        return self._data.ravel()[~self._mask.ravel()]

    def count(self, axis=None, keepdims=False):
        return _mnp().sum(~self._mask, axis=axis, keepdims=keepdims)

    def copy(self):
        return self._new(self._data.copy(), self._mask.copy() if self._hasmask else nomask)

    def astype(self, dtype):
        return MaskedArray(self._data.astype(dtype), self.mask)

    def reshape(self, *shape, **kw):
        return self._new(self._data.reshape(*shape, **kw), self._mask.reshape(*shape, **kw) if self._hasmask else
                         nomask)

    def ravel(self):
        return self._new(self._data.ravel(), self._mask.ravel() if self._hasmask else nomask)

    def tolist(self, fill_value=None):
        data, mask = self._data.tolist(), self._mask.tolist()

        def walk(d, m):
            if isinstance(d, list):
                return [walk(x, y) for x, y in zip(d, m)]
            return fill_value if m else d
        return walk(data, mask)

    def __array__(self, dtype=None, copy=None):
        return self._data.__array__(dtype)

    # -- indexing
    def __getitem__(self, key):
        d = self._data[key]
        m = self._mask[key]
        if isinstance(d, _NDARRAY) and d.ndim == 0 and not _is_array_index(key, self.ndim):
            return masked if bool(m) else d
        return self._new(d, m if self._hasmask else nomask)

    def __setitem__(self, key, value):
        if value is masked:
            self._mask[key] = True
            self._hasmask = True
            return
        if isinstance(value, MaskedArray):
            self._data[key] = value._data
            self._mask[key] = value._mask
            self._hasmask = self._hasmask or value._hasmask
            return
        self._data[key] = value
        self._mask[key] = False

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # -- printing: numpy's values and mask, in a simpler layout
    def __str__(self):
        if self.ndim == 0:
            return "--" if bool(self._mask) else str(self._data.item())
        return _format_str(self.tolist(fill_value=_MASKED_TOKEN), 0, self.ndim)

    def __repr__(self):
        return (f"masked_array(data={_format(self.tolist(fill_value=_MASKED_TOKEN))},\n"
                f"             mask={_format(self._mask.tolist()) if self._hasmask else False},\n"
                f"       fill_value={self._fill_value!r})")

    # -- reductions (masked elements skipped; all-masked results are `masked`)
    def _reduce(self, fn, axis, keepdims, fill, **kw):
        mnp = _mnp()
        filled = mnp.where(self._mask, mnp.asarray(fill).astype(self.dtype), self._data) if self._hasmask \
            else self._data
        r = getattr(mnp, fn)(filled, axis=axis, keepdims=keepdims, **kw)
        n = self.count(axis=axis, keepdims=keepdims)
        return _wrap_reduced(r, n == 0)

    def sum(self, axis=None, dtype=None, keepdims=False):
        return self._reduce("sum", axis, keepdims, 0, dtype=dtype)

    def prod(self, axis=None, dtype=None, keepdims=False):
        return self._reduce("prod", axis, keepdims, 1, dtype=dtype)

    def min(self, axis=None, keepdims=False):
        return self._reduce("min", axis, keepdims, _extreme(self.dtype, True))

    def max(self, axis=None, keepdims=False):
        return self._reduce("max", axis, keepdims, _extreme(self.dtype, False))

    def ptp(self, axis=None, keepdims=False):
        hi, lo = self.max(axis, keepdims), self.min(axis, keepdims)
        return masked if hi is masked else hi - lo

    def argmin(self, axis=None):
        return _mnp().argmin(self.filled(_extreme(self.dtype, True)), axis=axis)

    def argmax(self, axis=None):
        return _mnp().argmax(self.filled(_extreme(self.dtype, False)), axis=axis)

    def any(self, axis=None, keepdims=False):
        return self._reduce("any", axis, keepdims, False)

    def all(self, axis=None, keepdims=False):
        return self._reduce("all", axis, keepdims, True)

    def mean(self, axis=None, dtype=None, keepdims=False):
        mnp = _mnp()
        n = self.count(axis=axis, keepdims=keepdims)
        s = mnp.sum(self.filled(0), axis=axis, keepdims=keepdims,
                    dtype=dtype if dtype is not None else (mnp.float64 if self.dtype.kind in "biu" else None))
        with mnp.errstate(all="ignore"):
            r = s / n
        return _wrap_reduced(r, n == 0)

    def var(self, axis=None, dtype=None, ddof=0, keepdims=False):
        mnp = _mnp()
        n = self.count(axis=axis, keepdims=keepdims)
        mu = self.mean(axis=axis, keepdims=True)
        if mu is masked:
            return masked
        mu = mu.filled(0) if isinstance(mu, MaskedArray) else mu
        dev = mnp.where(self._mask, 0, mnp.abs(self._data - mu) ** 2)
        with mnp.errstate(all="ignore"):
            r = mnp.sum(dev, axis=axis, keepdims=keepdims) / (n - ddof)
        return _wrap_reduced(r, n - ddof <= 0)

    def std(self, axis=None, dtype=None, ddof=0, keepdims=False):
        v = self.var(axis=axis, ddof=ddof, keepdims=keepdims)
        if v is masked:
            return masked
        return _sqrt_masked(v)

    def cumsum(self, axis=None):
        return self._new(_mnp().cumsum(self.filled(0), axis=axis),
                         self._mask.ravel() if axis is None and self._hasmask else (self._mask if self._hasmask
                                                                                    else nomask))

    # -- arithmetic
    def _binary(self, other, op, domain=None, reflected=False):
        mnp = _mnp()
        od, om = _split(other)
        a, b = (od, self._data) if reflected else (self._data, od)
        with mnp.errstate(all="ignore"):
            r = op(a, b)
        m = self._mask | om if om is not False else self._mask
        if domain is not None:
            m = m | domain(a, b)
        has = self._hasmask or om is not False or domain is not None
        res = MaskedArray(r, m if has else nomask)
        if has:  # numpy keeps the operands' values where the result is masked
            res._data = mnp.where(m, a if not reflected else b, r) if r.dtype == self.dtype else r
        return res

    def __add__(self, o):
        return self._binary(o, operator.add)

    def __radd__(self, o):
        return self._binary(o, operator.add, reflected=True)

    def __sub__(self, o):
        return self._binary(o, operator.sub)

    def __rsub__(self, o):
        return self._binary(o, operator.sub, reflected=True)

    def __mul__(self, o):
        return self._binary(o, operator.mul)

    def __rmul__(self, o):
        return self._binary(o, operator.mul, reflected=True)

    def __truediv__(self, o):
        return self._binary(o, operator.truediv, _div_domain)

    def __rtruediv__(self, o):
        return self._binary(o, operator.truediv, _div_domain, reflected=True)

    def __floordiv__(self, o):
        return self._binary(o, operator.floordiv, _div_domain)

    def __mod__(self, o):
        return self._binary(o, operator.mod, _div_domain)

    def __pow__(self, o):
        return self._binary(o, operator.pow, _pow_domain)

    def __neg__(self):
        return self._new(-self._data, self.mask)

    def __abs__(self):
        return self._new(builtins.abs(self._data), self.mask)

    def _compare(self, other, op):
        od, om = _split(other)
        r = op(self._data, od)
        m = self._mask | om if om is not False else self._mask
        return MaskedArray(r, m if (self._hasmask or om is not False) else nomask)

    def __eq__(self, o):
        return self._compare(o, operator.eq)

    def __ne__(self, o):
        return self._compare(o, operator.ne)

    def __lt__(self, o):
        return self._compare(o, operator.lt)

    def __le__(self, o):
        return self._compare(o, operator.le)

    def __gt__(self, o):
        return self._compare(o, operator.gt)

    def __ge__(self, o):
        return self._compare(o, operator.ge)

    def __and__(self, o):
        return self._compare(o, operator.and_)

    def __or__(self, o):
        return self._compare(o, operator.or_)

    def __invert__(self):
        return self._new(~self._data, self.mask)

    __hash__ = None


_MASKED_TOKEN = object()


def _format(v):
    if isinstance(v, list):
        return "[" + ", ".join(_format(x) for x in v) + "]"
    return "--" if v is _MASKED_TOKEN else repr(v)


def _format_str(v, depth, ndim):
    """numpy.ma's str layout: space-separated elements, '--' where masked, one row per line, a blank
    line between blocks of 3-d and higher arrays."""
    if not isinstance(v, list):
        return "--" if v is _MASKED_TOKEN else str(v)
    if depth == ndim - 1:
        return "[" + " ".join(_format_str(x, depth + 1, ndim) for x in v) + "]"
    sep = "\n" * (ndim - depth - 1) + " " * (depth + 1)
    return "[" + sep.join(_format_str(x, depth + 1, ndim) for x in v) + "]"


def _is_array_index(key, ndim):
    keys = key if isinstance(key, tuple) else (key,)
    return builtins.any(not isinstance(k, int) and not hasattr(k, "__index__") for k in keys) or len(keys) < ndim


def _split(other):
    if isinstance(other, MaskedArray):
        return other._data, (other._mask if other._hasmask else False)
    if other is masked:
        raise TypeError("[mnn.numpy.ma] arithmetic with `masked` is not supported")
    return other, False


def _div_domain(a, b):
    return _mnp().asarray(b) == 0


def _pow_domain(a, b):
    mnp = _mnp()
    with mnp.errstate(all="ignore"):
        r = mnp.power(a, b)
    return ~mnp.isfinite(r) if r.dtype.kind in "fc" else mnp.zeros(r.shape, dtype=bool)


def _extreme(dt, for_min):
    if dt.kind == "f":
        return float("inf") if for_min else float("-inf")
    if dt.kind == "b":
        return True if for_min else False
    info = _dtypes.iinfo(dt)
    return info.max if for_min else info.min


def _wrap_reduced(r, empty):
    mnp = _mnp()
    if r.ndim == 0:
        return masked if bool(empty) else r
    return MaskedArray(r, mnp.broadcast_to(empty, r.shape) if bool(mnp.any(empty)) else nomask)


def _sqrt_masked(v):
    if isinstance(v, MaskedArray):
        return MaskedArray(_mnp().sqrt(v._data), v.mask)
    return _mnp().sqrt(v)


# ------------------------------------------------------------------ constructors


def array(data, dtype=None, copy=False, mask=nomask, fill_value=None, keep_mask=True, **kwargs):
    return MaskedArray(data, mask=mask, dtype=dtype, copy=copy, fill_value=fill_value, keep_mask=keep_mask)


masked_array = MaskedArray
asarray = array


def masked_where(condition, a, copy=True):
    mnp = _mnp()
    cond = mnp.asarray(condition, dtype=bool)
    if isinstance(a, MaskedArray):
        d, m = a._data, a._mask
    else:
        d, m = mnp.asarray(a), False
    if tuple(cond.shape) != tuple(d.shape):
        raise IndexError(f"[mnn.numpy.ma.masked_where] Inconsistent shape between the condition and the input "
                         f"(got {cond.shape} and {d.shape})")
    return MaskedArray(d.copy() if copy else d, cond | m)


def masked_invalid(a, copy=True):
    mnp = _mnp()
    d = a._data if isinstance(a, MaskedArray) else mnp.asarray(a)
    bad = ~mnp.isfinite(d) if d.dtype.kind in "fc" else mnp.zeros(d.shape, dtype=bool)
    return masked_where(bad, a, copy)


def masked_equal(x, value, copy=True):
    r = masked_where(_data_of(x) == value, x, copy)
    r.fill_value = value
    return r


def masked_not_equal(x, value, copy=True):
    return masked_where(_data_of(x) != value, x, copy)


def masked_greater(x, value, copy=True):
    return masked_where(_data_of(x) > value, x, copy)


def masked_greater_equal(x, value, copy=True):
    return masked_where(_data_of(x) >= value, x, copy)


def masked_less(x, value, copy=True):
    return masked_where(_data_of(x) < value, x, copy)


def masked_less_equal(x, value, copy=True):
    return masked_where(_data_of(x) <= value, x, copy)


def masked_inside(x, v1, v2, copy=True):
    lo, hi = builtins.min(v1, v2), builtins.max(v1, v2)
    d = _data_of(x)
    return masked_where((d >= lo) & (d <= hi), x, copy)


def masked_outside(x, v1, v2, copy=True):
    lo, hi = builtins.min(v1, v2), builtins.max(v1, v2)
    d = _data_of(x)
    return masked_where((d < lo) | (d > hi), x, copy)


def masked_values(x, value, rtol=1e-5, atol=1e-8, copy=True, shrink=True):
    mnp = _mnp()
    d = _data_of(x)
    cond = mnp.isclose(d, value, rtol=rtol, atol=atol) if d.dtype.kind in "fc" else d == value
    r = masked_where(cond, x, copy)
    r.fill_value = value
    return r


def _data_of(x):
    return x._data if isinstance(x, MaskedArray) else _mnp().asarray(x)


# ------------------------------------------------------------------ inspection


def getmask(a):
    return a.mask if isinstance(a, MaskedArray) else nomask


def getmaskarray(a):
    mnp = _mnp()
    if isinstance(a, MaskedArray):
        return a._mask.copy()
    return mnp.zeros(mnp.asarray(a).shape, dtype=bool)


def getdata(a):
    return _data_of(a)


def is_masked(x):
    return isinstance(x, MaskedArray) and x._hasmask and bool(_mnp().any(x._mask))


def count_masked(arr, axis=None):
    return _mnp().sum(getmaskarray(arr), axis=axis)


def filled(a, fill_value=None):
    return a.filled(fill_value) if isinstance(a, MaskedArray) else _mnp().asarray(a)


def compressed(x):
    return x.compressed() if isinstance(x, MaskedArray) else _mnp().asarray(x).ravel()


# ------------------------------------------------------------------ functions over masked arrays
# (below, sum/min/max/any/all/abs/round name numpy.ma's functions; module code above uses builtins.*)


def _as_ma(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _reducer(name):
    def f(a, axis=None, **kw):
        return getattr(_as_ma(a), name)(axis=axis, **kw)
    f.__name__ = name
    return f


sum = _reducer("sum")  # noqa: A001
prod = _reducer("prod")
mean = _reducer("mean")
var = _reducer("var")
std = _reducer("std")
min = _reducer("min")  # noqa: A001
max = _reducer("max")  # noqa: A001
ptp = _reducer("ptp")
any = _reducer("any")  # noqa: A001
all = _reducer("all")  # noqa: A001
argmin = _reducer("argmin")
argmax = _reducer("argmax")
count = _reducer("count")


def average(a, axis=None, weights=None):
    mnp = _mnp()
    a = _as_ma(a)
    if weights is None:
        return a.mean(axis=axis)
    w = mnp.asarray(weights, dtype=float)
    if w.ndim == 1 and a.ndim > 1 and axis is not None:
        shape = [1] * a.ndim
        shape[axis] = w.shape[0]
        w = w.reshape(shape)
    w = mnp.where(a._mask, 0.0, mnp.broadcast_to(w, a.shape))
    num = mnp.sum(a.filled(0) * w, axis=axis)
    den = mnp.sum(w, axis=axis)
    with mnp.errstate(all="ignore"):
        r = num / den
    return _wrap_reduced(r, den == 0)


def _unary(name, domain=None):
    def f(x, *args, **kw):
        mnp = _mnp()
        a = _as_ma(x)
        with mnp.errstate(all="ignore"):
            r = getattr(mnp, name)(a._data, *args, **kw)
        m = a._mask
        if domain is not None:
            m = m | domain(a._data)
        has = a._hasmask or domain is not None
        out = MaskedArray(r, m if has else nomask)
        if has and r.dtype == a.dtype:
            out._data = mnp.where(m, a._data, r)  # numpy keeps the input where the result is masked
        return out
    f.__name__ = name
    return f


def _nonpositive(x):
    return _mnp().asarray(x) <= 0


def _negative(x):
    return _mnp().asarray(x) < 0


def _outside_unit(x):
    return _mnp().abs(x) > 1


log = _unary("log", _nonpositive)
log2 = _unary("log2", _nonpositive)
log10 = _unary("log10", _nonpositive)
sqrt = _unary("sqrt", _negative)
arcsin = _unary("arcsin", _outside_unit)
arccos = _unary("arccos", _outside_unit)
exp = _unary("exp")
sin = _unary("sin")
cos = _unary("cos")
tan = _unary("tan")
abs = absolute = _unary("absolute")  # noqa: A001
floor = _unary("floor")
ceil = _unary("ceil")
round = _unary("round")  # noqa: A001


def divide(a, b):
    return _as_ma(a) / b


def where(condition, x, y):
    mnp = _mnp()
    c = filled(condition, False) if isinstance(condition, MaskedArray) else mnp.asarray(condition, dtype=bool)
    xd, xm = _data_of(x), getmaskarray(x)
    yd, ym = _data_of(y), getmaskarray(y)
    d = mnp.where(c, xd, yd)
    m = mnp.where(c, xm, ym)
    if isinstance(condition, MaskedArray):
        m = m | getmaskarray(condition)
    return MaskedArray(d, m)


def concatenate(arrays, axis=0):
    mnp = _mnp()
    return MaskedArray(mnp.concatenate([_data_of(a) for a in arrays], axis=axis),
                       mnp.concatenate([getmaskarray(a) for a in arrays], axis=axis))


def zeros(shape, dtype=float):
    return MaskedArray(_mnp().zeros(shape, dtype=dtype))


def ones(shape, dtype=float):
    return MaskedArray(_mnp().ones(shape, dtype=dtype))


def masked_all(shape, dtype=float):
    mnp = _mnp()
    return MaskedArray(mnp.zeros(shape, dtype=dtype), mnp.ones(shape, dtype=bool))


def fix_invalid(a, mask=nomask, copy=True, fill_value=None):
    r = masked_invalid(a if mask is nomask else MaskedArray(a, mask), copy)
    r._data = r.filled(fill_value)
    return r


isMaskedArray = isMA = lambda x: isinstance(x, MaskedArray)  # noqa: E731
