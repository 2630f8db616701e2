"""Reductions against numpy 2.4: the NaN max/min return (sign and payload follow numpy's loop),
and the audit's regressions (tools/reduce_audit.py holds the wide sweep)."""
import numpy as np
import pytest

import mnn.numpy as mp

_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_NANS = {
    np.float16: [0xFE01, 0x7E02, 0x7C03],
    np.float32: [0xFFC00001, 0x7FC00002, 0x7F800003],
    np.float64: [0xFFF8000000000001, 0x7FF8000000000002, 0x7FF0000000000003],
}


def _bits(a):
    a = np.asarray(a)
    return a.view(_UINT[a.itemsize])


def _nan(dt, bits):
    return np.array([bits], _UINT[np.dtype(dt).itemsize]).view(dt)[0]


def _views(a):
    return {"c": lambda x: x, "T": lambda x: x.T, "rev": lambda x: x[..., ::-1],
            "step": lambda x: x[..., ::2], "sub": lambda x: x[..., 1:]}


@pytest.mark.parametrize("fn", ["max", "min"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_row_with_negative_nan_matches_numpy(fn, dt):
    # the case: numpy's SIMD reduce returns +NaN for a row holding -NaN, axis 0 keeps -NaN
    x = np.arange(3 * 17, dtype=dt).reshape(3, 17)
    x[1, 8] = -np.nan
    m = mp.asarray(x)
    for ax in (None, 0, 1, -1):
        np.testing.assert_array_equal(_bits(getattr(mp, fn)(m, axis=ax)), _bits(getattr(np, fn)(x, axis=ax)))


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
def test_single_nan_every_position_1d(dt):
    a = _nan(dt, _NANS[dt][0])
    for n in range(1, 40):
        for p in range(n):
            x = np.arange(n, dtype=dt)
            x[p] = a
            for fn in ("max", "min"):
                assert _bits(getattr(mp, fn)(mp.asarray(x))) == _bits(getattr(np, fn)(x)), (n, p, fn)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5,), (9,), (33,), (130,), (3, 9), (4, 17), (9, 3), (2, 3, 11), (3, 5, 8),
                                   (1, 19), (19, 1), (2, 300)])
@pytest.mark.parametrize("view", ["c", "T", "rev", "step", "sub"])
def test_nan_payloads_views_axes(dt, shape, view):
    rng = np.random.default_rng(hash((np.dtype(dt).name, shape, view)) % 2**32)
    f = _views(None)[view]
    for _ in range(4):
        base = rng.standard_normal(shape).astype(dt)
        flat = base.reshape(-1)
        for _ in range(int(rng.integers(1, 4))):
            flat[rng.integers(0, flat.size)] = _nan(dt, _NANS[dt][int(rng.integers(0, 3))])
        x, xm = f(base), f(mp.asarray(base))
        if x.size == 0:
            continue
        axes = [None] + list(range(x.ndim)) + ([(0, x.ndim - 1), (1, 2)] if x.ndim == 3 else [])
        for ax in axes:
            for fn in ("max", "min", "amax"):
                r, q = getattr(np, fn)(x, axis=ax), getattr(mp, fn)(xm, axis=ax)
                np.testing.assert_array_equal(_bits(q), _bits(r), err_msg=f"{fn} axis={ax}")


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_two_payloads_strided_unrolled(dt):
    # numpy's strided loop keeps eight accumulators: the lowest lane holding a NaN wins
    a, b = _nan(dt, _NANS[dt][0]), _nan(dt, _NANS[dt][1])
    for n, i, j in [(65, 5, 50), (65, 50, 5), (20, 3, 10), (20, 10, 3), (20, 2, 17), (9, 0, 3), (9, 3, 0)]:
        x = np.arange(2 * n, dtype=dt)
        x[2 * i], x[2 * j] = a, b
        for fn in ("max", "min"):
            assert _bits(getattr(mp, fn)(mp.asarray(x)[::2])) == _bits(getattr(np, fn)(x[::2])), (n, i, j)
            assert _bits(getattr(mp, fn)(mp.asarray(x[::2]))) == _bits(getattr(np, fn)(x[::2])), (n, i, j)
            y = np.ascontiguousarray(x[::2])
            assert _bits(getattr(mp, fn)(mp.asarray(y))) == _bits(getattr(np, fn)(y)), (n, i, j)


def test_large_nan_threads():
    x = np.arange(300000, dtype=np.float32)
    x[123457] = -np.nan
    for fn in ("max", "min"):
        assert _bits(getattr(mp, fn)(mp.asarray(x))) == _bits(getattr(np, fn)(x))
        y = x.reshape(300, 1000)
        np.testing.assert_array_equal(_bits(getattr(mp, fn)(mp.asarray(y), axis=1)), _bits(getattr(np, fn)(y, axis=1)))
        np.testing.assert_array_equal(_bits(getattr(mp, fn)(mp.asarray(y), axis=0)), _bits(getattr(np, fn)(y, axis=0)))


# ---- regressions from tools/reduce_audit.py -----------------------------------------------------

@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
def test_float_prod_in_numpy_order(dt):
    rng = np.random.default_rng(3)
    for n in (5, 40, 1000, 70000):
        x = (rng.standard_normal(n) * 0.3 + 1).astype(dt)
        assert _bits(mp.prod(mp.asarray(x))) == _bits(np.prod(x)), n
    # the running product reaches 0 before overflowing: numpy's answer is 0, lanes would meet inf * 0
    x = np.full(400, 100.0, np.float32)
    x[3] = 0
    assert _bits(mp.prod(mp.asarray(x))) == _bits(np.prod(x))


def test_nansum_complex_nan_replaced_whole():
    x = np.array([complex(np.nan, 1), 2 + 1j, complex(3, np.nan), 1j], np.complex128)
    for ax in (None, 0):
        np.testing.assert_array_equal(np.asarray(mp.nansum(mp.asarray(x), axis=ax)), np.nansum(x, axis=ax))
    y = x.astype(np.complex64).reshape(2, 2)
    np.testing.assert_array_equal(np.asarray(mp.nansum(mp.asarray(y), axis=1)), np.nansum(y, axis=1))


@pytest.mark.parametrize("fn", ["nanmax", "nanmin"])
def test_nan_extreme_empty(fn):
    x = np.zeros((3, 0), np.float32)
    r = getattr(mp, fn)(mp.asarray(x), axis=0)
    assert np.asarray(r).shape == getattr(np, fn)(x, axis=0).shape == (0,)
    with pytest.raises(ValueError, match=rf"^\[mnn.numpy.{fn}\] zero-size array"):
        getattr(mp, fn)(mp.asarray(x), axis=1)


def test_median_complex_and_empty():
    x = np.array([1 + 1j, 2 + 5j, -1 + 0.5j, 3j], np.complex64)
    for v in (x, x[:3], np.array([1 + 1j, complex(np.nan, 1), 5], np.complex128)):
        r, q = np.median(v), np.asarray(mp.median(mp.asarray(v)))
        assert q.dtype == r.dtype
        np.testing.assert_array_equal(q, r)
    for shape, ax in [((3, 0), 0), ((0, 3), 1), ((0, 3), -1)]:
        z = np.zeros(shape, bool)
        r, q = np.median(z, axis=ax), np.asarray(mp.median(mp.asarray(z), axis=ax))
        assert q.shape == r.shape and q.dtype == r.dtype


def test_reduce_audit_quick_subset():
    # the audit's sweep on small shapes (0-d, empty, 1xN, Nx1, views) for the functions fixed here
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "tools" / "reduce_audit.py"
    spec = importlib.util.spec_from_file_location("reduce_audit", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rep = mod.audit(["max", "min", "argmax", "prod", "nansum", "nanmax", "median"], quick=True)
    rep = [line for line in rep if not line.startswith("UNSUPPORTED")]
    assert rep == []


@pytest.mark.parametrize("src", ["bool", "int8", "float32"])
def test_var_and_cast_sums_follow_memory_order(src):
    # numpy's temporaries (astype, x - mean, dtype= casts) keep the input's memory order, and the
    # summation order follows: an F-ordered input reduced over its strided axis sums sequentially
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((3, 130)) * 50).astype(src).T.copy().T
    x3 = (rng.standard_normal((4, 5, 70)) * 50).astype(src).transpose(2, 0, 1)
    for arr in (x, x3):
        m = mp.asarray(arr)
        for ax in [None, 0, 1, -1, (0, 1)]:
            for kd in (False, True):
                # bit-exact for 2-d; 3-d multi-axis reductions may split numpy's buffer differently
                check = np.testing.assert_array_equal if arr.ndim == 2 else \
                    (lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-12 if b.dtype == np.float64 else 2e-6))
                r, q = np.var(arr, axis=ax, keepdims=kd), np.asarray(mp.var(m, axis=ax, keepdims=kd))
                assert q.shape == r.shape
                check(q, r)
                r = np.sum(arr, axis=ax, dtype=np.float32, keepdims=kd)
                q = np.asarray(mp.sum(m, axis=ax, dtype="float32", keepdims=kd))
                assert q.shape == r.shape
                check(q, r) if arr.ndim == 2 else np.testing.assert_allclose(q, r, rtol=1e-5)


@pytest.mark.parametrize("fn", ["sum", "prod"])
def test_float16_kept_axis_innermost_rounds_each_step(fn):
    # numpy's elementwise half loop rounds after every row: a product overflows to inf, then * 0 = NaN
    rng = np.random.default_rng(7)
    for _ in range(10):
        x = (rng.standard_normal((130, 3)) * 3).astype(np.float16)
        x[rng.integers(0, 130), :] = 0
        for v in (x[:, ::-1], x[::2, ::-1], x[:, ::2]):
            with np.errstate(all="ignore"):
                r = getattr(np, fn)(v, axis=0)
            q = np.asarray(getattr(mp, fn)(mp.asarray(v), axis=0))
            np.testing.assert_array_equal(_bits(q), _bits(r))
