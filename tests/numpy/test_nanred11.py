"""nanmax/nanmin/nanargmax/nanargmin, count_nonzero, sums of bools/small integers (int64, read
narrow), means of integers (float64 in numpy's 8192-element cast blocks) and clip of uint8,
bit for bit against numpy: dtypes, axes, odd sizes, views, NaN placements, empty arrays,
keepdims, out=, threads and ISA targets.

(Signed zeros tied with each other are left out of the nanmax inputs: which of +0.0 and -0.0
numpy's fmax keeps depends on its SIMD lane order, as for max.)"""
import json
import warnings

import numpy
import pytest

import mnn
import mnn.numpy as mp
from tests.helpers import run_under_isa

SHAPES = [(7,), (1,), (37, 53), (5, 1), (1, 9), (300, 70), (3, 17, 129), (2, 3, 8193)]
AXES_2D = [None, 0, 1, -1]


def _rng(seed=0):
    return numpy.random.default_rng(seed)


def _floats(shape, dtype, seed=0, nan=0.2, allnan_row=True):
    x = _rng(seed).standard_normal(shape).astype(dtype)
    x[_rng(seed + 1).random(shape) < nan] = numpy.nan
    if x.ndim >= 2 and allnan_row:
        x[0] = numpy.nan  # an all-NaN slice along the last axes
        x[..., -1] = numpy.nan  # and along the first
    return x


def _axes(nd):
    return [None] + list(range(nd)) + [-1] + ([(0, nd - 1)] if nd >= 2 else [])


def _same(r, e):
    r = numpy.asarray(r)
    e = numpy.asarray(e)
    assert r.dtype == e.dtype, (r.dtype, e.dtype)
    assert r.shape == e.shape, (r.shape, e.shape)
    assert numpy.array_equal(r, e, equal_nan=True), (r, e)
    if e.dtype.kind == "f":  # bit for bit, NaNs aside
        ok = ~numpy.isnan(e)
        assert numpy.array_equal(r[ok].view(f"u{e.itemsize}"), e[ok].view(f"u{e.itemsize}"))


def _both(fn, x, *args, **kw):
    """(mnn result, numpy result, mnn warnings, numpy warnings)."""
    with warnings.catch_warnings(record=True) as wm:
        warnings.simplefilter("always")
        r = getattr(mp, fn)(mp.asarray(x), *args, **kw)
    with warnings.catch_warnings(record=True) as wn:
        warnings.simplefilter("always")
        e = getattr(numpy, fn)(x, *args, **kw)
    return r, e, [str(w.message) for w in wm], [str(w.message) for w in wn]


# ---- nanmax / nanmin ---------------------------------------------------------------------------

@pytest.mark.parametrize("fn", ["nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("shape", SHAPES)
def test_nan_extreme(fn, dtype, shape):
    x = _floats(shape, dtype)
    for axis in _axes(len(shape)):
        for keepdims in (False, True):
            r, e, wm, wn = _both(fn, x, axis=axis, keepdims=keepdims)
            _same(r, e)
            assert ("All-NaN slice encountered" in wm) == ("All-NaN slice encountered" in wn), (axis, wm, wn)


@pytest.mark.parametrize("fn", ["nanmax", "nanmin"])
def test_nan_extreme_placements(fn):
    n = 301
    for case in range(8):
        x = numpy.arange(n, dtype=numpy.float64) * (1 if case % 2 else -1)
        if case == 0:
            x[:] = numpy.nan
        elif case == 1:
            x[:-1] = numpy.nan  # one number at the end
        elif case == 2:
            x[1:] = numpy.nan  # one number at the start
        elif case == 3:
            x[::2] = numpy.nan
        elif case == 4:
            x[:] = -numpy.inf if fn == "nanmax" else numpy.inf  # the start value itself
            x[5] = numpy.nan
        elif case == 5:
            x[:] = numpy.nan
            x[200] = -numpy.inf if fn == "nanmax" else numpy.inf
        elif case == 6:
            x[100] = numpy.inf
            x[101] = -numpy.inf
        for dt in ("float32", "float64"):
            y = x.astype(dt)
            r, e, wm, wn = _both(fn, y)
            _same(r, e)
            assert wm == wn
            m = numpy.stack([y, y[::-1], numpy.full(n, numpy.nan, dt)])
            for axis in (0, 1):
                r, e, wm, wn = _both(fn, m, axis=axis)
                _same(r, e)
                assert wm == wn


@pytest.mark.parametrize("fn", ["nanmax", "nanmin"])
def test_nan_extreme_views_out_ints(fn):
    x = _floats((64, 81), "float32", seed=3, allnan_row=False)
    for v in (x[::2, 1::3], x.T, x[::-1], x[:, ::-1], x[5]):
        for axis in (None, 0, -1):
            if v.ndim == 1 and axis == 0:
                continue
            r, e, _, _ = _both(fn, v, axis=axis)
            _same(r, e)
    out = mp.zeros(81, dtype="float32")
    r = getattr(mp, fn)(mp.asarray(x), axis=0, out=out)
    assert r is out
    _same(out, getattr(numpy, fn)(x, axis=0))
    for dt in ("int32", "uint8", "bool", "int64"):
        xi = _rng(4).integers(0, 100, (33, 17)).astype(dt)
        for axis in (None, 0, 1):
            r, e, _, _ = _both(fn, xi, axis=axis)
            _same(r, e)


@pytest.mark.parametrize("fn", ["nanmax", "nanmin"])
def test_nan_extreme_empty(fn):
    x = numpy.zeros((0, 3), numpy.float32)
    with pytest.raises(ValueError, match="zero-size array"):
        getattr(mp, fn)(mp.asarray(x))
    with pytest.raises(ValueError, match="zero-size array"):
        getattr(mp, fn)(mp.asarray(x), axis=0)
    r, e, _, _ = _both(fn, x, axis=1)  # reducing 3 elements into no outputs
    _same(r, e)


# ---- nanargmax / nanargmin ---------------------------------------------------------------------

@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(7,), (37, 53), (300, 70), (3, 17, 129), (2, 9000)])
def test_nanarg(fn, dtype, shape):
    x = _floats(shape, dtype, allnan_row=False)
    for k in range(x.ndim):  # index 0 along each axis holds numbers: no all-NaN slice
        sl = [slice(None)] * x.ndim
        sl[k] = slice(0, 1)
        v = x[tuple(sl)]
        v[numpy.isnan(v)] = 0.5
    x.flat[::11] = -numpy.inf if fn == "nanargmax" else numpy.inf  # ties with the replaced NaNs
    for axis in [None] + list(range(len(shape))) + [-1]:
        for keepdims in (False, True):
            r, e, _, _ = _both(fn, x, axis=axis, keepdims=keepdims)
            _same(r, e)
    for v in (x[..., ::-1], x[..., 1::2]):
        r, e, _, _ = _both(fn, v, axis=-1)
        _same(r, e)


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
def test_nanarg_all_nan(fn):
    x = _floats((6, 40), "float32", allnan_row=False)
    x[2] = numpy.nan
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(mp, fn)(mp.asarray(x), axis=1)
    r, e, _, _ = _both(fn, x, axis=0)
    _same(r, e)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(mp, fn)(mp.asarray(numpy.full(9, numpy.nan)))
    xi = _rng(2).integers(-50, 50, (9, 13)).astype("int32")
    for axis in (None, 0, 1):
        r, e, _, _ = _both(fn, xi, axis=axis)
        _same(r, e)


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
def test_nanarg_long_runs(fn):
    """Runs longer than the kernel's 2048-element chunks: NaN-only chunks, ties with the value
    a NaN stands for (-inf / +inf) across chunks, NaN at chunk edges."""
    worst = -numpy.inf if fn == "nanargmax" else numpy.inf
    n = 5000
    cases = []
    x = numpy.full(n, numpy.nan)
    x[3000] = worst  # chunk 0 all NaN (its NaNs count as `worst`, index 0 wins)
    cases.append(x)
    x = numpy.full(n, numpy.nan)
    x[4999] = 1.0
    cases.append(x)
    x = _rng(3).standard_normal(n)
    x[[0, 2047, 2048, 4095, 4096]] = numpy.nan
    cases.append(x)
    x = numpy.full(n, worst)
    x[10] = numpy.nan
    cases.append(x)
    for x in cases:
        for dt in ("float32", "float64"):
            y = x.astype(dt)
            for v in (y, y[::-1], numpy.stack([y, y[::-1]]).T.copy().T):
                r, e, _, _ = _both(fn, v, axis=-1)
                _same(r, e)


# ---- count_nonzero -----------------------------------------------------------------------------

CNZ_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "float16", "float32",
              "float64"]


@pytest.mark.parametrize("dtype", CNZ_DTYPES)
@pytest.mark.parametrize("shape", SHAPES + [(70001,)])
def test_count_nonzero(dtype, shape):
    rng = _rng(5)
    x = (rng.integers(-2, 3, shape) * (rng.random(shape) < 0.6)).astype(dtype)
    if numpy.dtype(dtype).kind == "f":
        x.flat[::13] = numpy.nan
        x.flat[1::17] = -0.0
    for axis in _axes(len(shape)):
        for keepdims in (False, True):
            r, e, _, _ = _both("count_nonzero", x, axis=axis, keepdims=keepdims)
            if axis is None and not keepdims:
                assert int(r) == int(e)
            else:
                _same(r, e)


def test_count_nonzero_views_empty():
    x = (_rng(6).random((90, 71)) < 0.3).astype(numpy.float32)
    for v in (x.T, x[::3, 2::5], x[::-1, ::-1]):
        for axis in (None, 0, 1):
            r, e, _, _ = _both("count_nonzero", v, axis=axis)
            assert numpy.array_equal(numpy.asarray(r), e) and numpy.asarray(r).dtype == numpy.asarray(e).dtype
    for shape, axis in (((0,), None), ((0, 4), 0), ((0, 4), 1), ((3, 0), 1)):
        r, e, _, _ = _both("count_nonzero", numpy.zeros(shape, numpy.int32), axis=axis)
        assert numpy.array_equal(numpy.asarray(r), e)


# ---- sums of bools / small integers, means of integers ------------------------------------------

SUM_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32"]


def _ints(shape, dtype, seed=7):
    info = numpy.iinfo(dtype) if dtype != "bool" else None
    rng = _rng(seed)
    if info is None:
        return rng.random(shape) < 0.5
    return rng.integers(info.min, info.max, shape, endpoint=True, dtype=dtype)


@pytest.mark.parametrize("dtype", SUM_DTYPES)
@pytest.mark.parametrize("shape", SHAPES + [(100003,)])
def test_sum_widening(dtype, shape):
    x = _ints(shape, dtype)
    for axis in _axes(len(shape)):
        for keepdims in (False, True):
            r, e, _, _ = _both("sum", x, axis=axis, keepdims=keepdims)
            _same(r, e)
    r, e, _, _ = _both("sum", x, dtype="int64")
    _same(r, e)
    r, e, _, _ = _both("sum", x, dtype="uint64")
    _same(r, e)


@pytest.mark.parametrize("dtype", SUM_DTYPES + ["int64", "uint64"])
@pytest.mark.parametrize("shape", [(7,), (37, 53), (3, 8193), (70001,), (3, 17, 129), (20000, 3)])
def test_mean_of_ints(dtype, shape):
    x = _ints(shape, dtype, seed=8)
    for axis in _axes(len(shape)):
        r, e, _, _ = _both("mean", x, axis=axis)
        _same(r, e)
        r, e, _, _ = _both("sum", x, axis=axis, dtype="float64")
        _same(r, e)
    r, e, _, _ = _both("sum", x, dtype="float32")
    _same(r, e)


def test_sum_mean_views_out():
    x = _ints((70, 301), "int32")
    for v in (x.T, x[::2, 3::4], x[:, ::-1]):
        for axis in (None, 0, 1):
            for fn in ("sum", "mean"):
                r, e, _, _ = _both(fn, v, axis=axis)
                _same(r, e)
    out = mp.zeros(301, dtype="int64")
    assert mp.sum(mp.asarray(x), axis=0, out=out) is out
    _same(out, x.sum(axis=0))
    b = _ints((64, 33), "bool")
    w = _rng(9).random((64, 33)) < 0.5
    _same(mp.sum(mp.asarray(b), axis=1, where=mp.asarray(w)), b.sum(axis=1, where=w))
    _same(mp.mean(mp.asarray(x), axis=1, keepdims=True), x.mean(axis=1, keepdims=True))
    for shape in ((0,), (0, 3), (3, 0)):
        for axis in (None, 0):
            r, e, _, _ = _both("sum", numpy.zeros(shape, numpy.uint8), axis=axis)
            _same(r, e)


# ---- clip of uint8 -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "uint64"])
@pytest.mark.parametrize("shape", [(7,), (37, 53), (3, 17, 129)])
def test_clip_int(dtype, shape):
    x = _ints(shape, dtype)
    for lo, hi in ((10, 200), (0, 255), (None, 100), (50, None), (200, 10), (-5, 300), (-5, None), (None, -5),
                   (300, None), (-200, 2 ** 64)):
        try:
            e = numpy.clip(x, lo, hi)
        except OverflowError:  # a bound outside the dtype on the side that clips (NEP 50)
            with pytest.raises(OverflowError):
                mp.clip(mp.asarray(x), lo, hi)
            continue
        _same(mp.clip(mp.asarray(x), lo, hi), e)
    if dtype == "uint64":
        _same(mp.clip(mp.asarray(x), 2 ** 63 + 5, 2 ** 64 - 3), numpy.clip(x, 2 ** 63 + 5, 2 ** 64 - 3))
    if dtype != "uint8":
        return
    _same(mp.clip(mp.asarray(x)[..., ::2], 3, 90), numpy.clip(x[..., ::2], 3, 90))
    out = mp.zeros(shape, dtype="uint8")
    assert mp.clip(mp.asarray(x), 3, 90, out=out) is out
    _same(out, numpy.clip(x, 3, 90))
    _same(mp.clip(mp.asarray(x), 2.5, 100), numpy.clip(x, 2.5, 100))  # a float bound: float64
    _same(mp.clip(mp.asarray(x), numpy.nan, 100), numpy.clip(x, numpy.nan, 100))


# ---- threads and ISA targets -------------------------------------------------------------------

def _battery():
    x = _floats((129, 257), "float32", seed=11, allnan_row=True)
    xd = _floats((3, 40001), "float64", seed=12, allnan_row=False)
    i = _ints((129, 257), "int16")
    b = _ints((300001,), "bool")
    u = _ints((129, 257), "uint8")
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for axis in (None, 0, 1):
            out += [mp.nanmax(mp.asarray(x), axis=axis), mp.nanmin(mp.asarray(x), axis=axis),
                    mp.count_nonzero(mp.asarray(x), axis=axis), mp.sum(mp.asarray(i), axis=axis),
                    mp.mean(mp.asarray(u), axis=axis), mp.nanmax(mp.asarray(xd), axis=axis if axis != 0 else None)]
        out += [mp.sum(mp.asarray(b)), mp.count_nonzero(mp.asarray(b)), mp.mean(mp.asarray(b)),
                mp.nanargmax(mp.asarray(xd), axis=1), mp.clip(mp.asarray(u), 10, 200)]
    return [numpy.asarray(r).tolist() for r in out]


def _canon(v):
    return json.loads(json.dumps(v).replace("NaN", '"nan"'))


def test_threads_agree():
    mnn.set_num_threads(1)
    one = _canon(_battery())
    mnn.set_num_threads(2)
    try:
        two = _canon(_battery())
    finally:
        mnn.set_num_threads(1)
    assert one == two


_ISA_PROGRAM = """
import json, sys
sys.path.insert(0, sys.argv[1])
import test_nanred11 as t
print(json.dumps(t._canon(t._battery())))
"""


@pytest.mark.parametrize("isa", ["avx2", "avx512"])
def test_isa_targets_match_scalar(isa):
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    prog = "import sys; sys.path.insert(0, %r)\n" % os.path.dirname(os.path.dirname(here)) + _ISA_PROGRAM
    scalar = run_under_isa(prog, "scalar", (here,))
    other = run_under_isa(prog, isa, (here,))
    assert scalar == other
