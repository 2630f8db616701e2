"""Advanced indexing and the index functions of mnn.numpy against numpy (and torch for gradients)."""
import numpy
import pytest
import torch

import mnn.numpy as mnp
from helpers import assert_same

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64"]


def _data(shape, dtype, seed=0):
    x = numpy.random.default_rng(seed).standard_normal(shape) * 10
    return (x > 0) if dtype == "bool" else x.astype(dtype)


def _mnn_key(key):
    """The same key with numpy arrays as mnn arrays (lists, ints, slices stay as they are)."""
    conv = lambda k: mnp.asarray(k) if isinstance(k, numpy.ndarray) else k  # noqa: E731
    return tuple(conv(k) for k in key) if isinstance(key, tuple) else conv(key)


M = numpy.random.default_rng(3).standard_normal((4, 5, 6)) > 0
# Keys on a (4, 5, 6) array: every placement of integer arrays, masks, ints, slices, None, Ellipsis.
KEYS = [
    [3, 0, -1, 3],
    numpy.array([[1, 0], [2, -4]]),
    (slice(None), [4, 0, 0]),
    (Ellipsis, [5, -6]),
    ([0, 3], [1, 4]),
    ([0, 3], slice(None), [1, 4]),            # separated: broadcast dims first
    (slice(1, 3), [0, 2], [5, 5]),           # adjacent after a slice: in place
    (0, slice(None), [1, 2]),                 # an int counts as advanced: separated
    (slice(None), 0, [1, 2]),                 # adjacent with the int
    ([[0], [2]], 1, [0, 3, 5]),
    (None, [1, 2], None, slice(None, None, -2), 0),
    ([1, 2], None, [3, 4]),                   # None separates
    (slice(None), [2], Ellipsis, [0, 1]),
    M,
    M[:, :, 0],
    (M[:, :, 0], [1]),
    (slice(None), M[0]),
    (1, M[0, :, 0]),
    (Ellipsis, M[0, 0]),
    ([1], M[0, :, 0], slice(None)),
    True,
    False,
    (0, True),
    (slice(None), False, 1),
    (numpy.array(True), [0, 1]),
    numpy.array([], dtype=numpy.int64),
    [],
    (slice(None), numpy.zeros((2, 0), numpy.int64)),
    (numpy.array(2), [1, 0]),                 # 0-d integer array counts as an integer
    (numpy.array([1, 2], numpy.uint8), numpy.array([0, 4], numpy.int32)),
]


def _sources(dtype):
    base = _data((4, 5, 6), dtype)
    big = _data((8, 5, 12), dtype, seed=1)
    tr = _data((6, 5, 4), dtype, seed=2)
    return [
        ("contiguous", base, lambda: mnp.asarray(base)),
        ("negative strides", big[::-2, :, ::-2], lambda: mnp.asarray(big)[::-2, :, ::-2]),
        ("transposed", tr.transpose(2, 1, 0), lambda: mnp.asarray(tr).transpose(2, 1, 0)),
        ("lazy", base * 1 if dtype != "bool" else base, lambda: mnp.asarray(base) * 1 if dtype != "bool"
         else mnp.asarray(base)),
    ]


@pytest.mark.parametrize("dtype", DTYPES)
def test_getitem_matches_numpy(dtype):
    for name, x, make in _sources(dtype):
        for key in KEYS:
            expected = x[key]
            got = make()[_mnn_key(key)]
            assert_same(got, expected)


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_setitem_matches_numpy(key):
    for name, x, make in _sources("float64"):
        shape = x[key].shape
        values = [7.5, numpy.arange(shape[-1]) * 1.0 if shape else 3.0,
                  numpy.arange(int(numpy.prod(shape))).reshape(shape) - 2.0]
        for v in values:
            want = x.copy()
            want[key] = v
            got = make()
            got[_mnn_key(key)] = mnp.asarray(v) if isinstance(v, numpy.ndarray) else v
            assert_same(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_setitem_casts_like_numpy(dtype):
    x = _data((6, 4), dtype)
    for key, v in [([0, 5], 2.7), (x[:, 0].astype(bool), -3), (([1, 2], [3, 0]), [True, False]),
                   ((slice(None), [1]), numpy.arange(6.0).reshape(6, 1) * 0.6)]:
        if dtype.startswith("uint") and numpy.any(numpy.asarray(v) < 0):
            continue  # negative into unsigned: numpy itself refuses Python ints and wraps arrays
        want = x.copy()
        want[key] = v
        got = mnp.asarray(x)
        got[_mnn_key(key)] = mnp.asarray(v) if isinstance(v, numpy.ndarray) else v
        assert_same(got, want)


def test_repeated_indices_last_write_wins():
    want = numpy.zeros((5, 3))
    got = mnp.zeros((5, 3))
    idx = [1, 3, 1, -4, 1]
    vals = numpy.arange(15.0).reshape(5, 3)
    want[idx] = vals
    got[idx] = mnp.asarray(vals)
    assert_same(got, want)
    want2, got2 = numpy.zeros(6), mnp.zeros(6)
    want2[[2, 2, 2, 0]] = [1, 2, 3, 4]
    got2[[2, 2, 2, 0]] = mnp.asarray([1.0, 2, 3, 4])
    assert_same(got2, want2)


def test_setitem_through_views_is_visible_everywhere():
    base_n = numpy.arange(40.0).reshape(5, 8)
    base = mnp.asarray(base_n.copy())
    view = base[1:, ::-2]                    # strided, reversed window of the base
    alias = base[:, :]
    view_n = base_n[1:, ::-2]
    view_n[[0, 3], [1, 2]] = -1
    view[[0, 3], [1, 2]] = -1
    view_n[view_n > 30] = 0
    view[view > 30] = 0
    assert_same(base, base_n)
    assert_same(alias, base_n)
    assert_same(view, view_n)
    # a numpy view of the mnn buffer sees the write at once
    exported = numpy.asarray(base)
    base[[0], [0]] = 99.0
    assert exported[0, 0] == 99.0


def test_mask_setitem_broadcasts_values():
    x = numpy.arange(24.0).reshape(4, 6)
    m = x[:, 0] > 5
    for v in [1.5, numpy.arange(6.0), numpy.ones((1, 6)), numpy.arange(int(m.sum()) * 6.0).reshape(-1, 6)]:
        want = x.copy()
        want[m] = v
        got = mnp.asarray(x)
        got[mnp.asarray(m)] = mnp.asarray(v) if isinstance(v, numpy.ndarray) else v
        assert_same(got, want)
    full = x > 10
    want = x.copy()
    want[full] = numpy.arange(full.sum())
    got = mnp.asarray(x)
    got[mnp.asarray(full)] = mnp.arange(int(full.sum()))
    assert_same(got, want)


def test_zero_d_and_empty_arrays():
    s = numpy.array(5.0)
    ms = mnp.asarray(s)
    for key in [True, False, (None, True), numpy.array(True)]:
        assert_same(ms[_mnn_key(key)], s[key])
    ms[True] = 3.0
    assert float(ms) == 3.0
    ms[False] = 4.0
    assert float(ms) == 3.0
    e = numpy.zeros((0, 3))
    me = mnp.asarray(e)
    for key in [[], (slice(None), [0, 2]), e[:, 0] > 0, (numpy.zeros(0, bool),)]:
        assert_same(me[_mnn_key(key)], e[key])
    me[(slice(None), [0, 2])] = 1.0
    assert me.shape == (0, 3)


def test_index_errors():
    a = mnp.zeros((3, 4))
    with pytest.raises(IndexError, match=r"\[mnn.numpy.__getitem__\] index 4 is out of bounds for axis 1 with size 4"):
        a[:, [4]]
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        a[[-4], [0]]
    with pytest.raises(IndexError, match=r"\[mnn.numpy.__setitem__\] index 3 is out of bounds for axis 0"):
        a[[3]] = 1
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 1 with size 4"):
        a[None, 0, [9]]
    with pytest.raises(IndexError, match="integer"):
        a[mnp.asarray([0.5])]
    with pytest.raises(IndexError, match="valid indices"):
        a[1.5, [0]]
    with pytest.raises(IndexError, match="valid indices"):
        a["x"]
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 0; size of axis is 3 "
                                         "but size of corresponding boolean axis is 4"):
        a[mnp.asarray([True, False, True, False])]
    with pytest.raises(IndexError, match="axis 1; size of axis is 4 but size of corresponding boolean axis is 2"):
        a[:, [True, False]]
    with pytest.raises(IndexError, match="shape mismatch: indexing arrays could not be broadcast together"):
        a[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="too many indices for array: array is 2-dimensional, but 3 were indexed"):
        a[[0], 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        a[..., [0], ...]
    with pytest.raises(ValueError, match="shape mismatch: value array of shape \\(3,\\) could not be broadcast to "
                                         "indexing result of shape \\(2, 4\\)"):
        a[[0, 1]] = mnp.zeros(3)
    with pytest.raises(ValueError, match="read-only"):
        mnp.broadcast_to(mnp.zeros(3), (2, 3))[[0]] = 1
    numpy_a = numpy.zeros((3, 4))  # the same errors in numpy, for the record
    with pytest.raises(IndexError):
        numpy_a[:, [4]]
    assert numpy.asarray(a).sum() == 0  # failed writes left the array untouched


@pytest.mark.parametrize("key", [([0, 2, 2],), (slice(None), [1, 1, 3], [0, 4, 4]), "mask",
                                 ([2, 0], slice(1, None), [[1], [3]]), (Ellipsis, [4, -1]), (1, [0, 0])])
def test_getitem_gradient_matches_torch(key):
    x = numpy.random.default_rng(5).standard_normal((3, 4, 5))
    if key == "mask":
        key = (x[:, :, 0] > 0,)
    m = mnp.array(x, requires_grad=True)
    y = m[_mnn_key(key)]
    w = numpy.random.default_rng(6).standard_normal(y.shape)
    y.backward(mnp.array(w))
    t = torch.tensor(x, requires_grad=True)
    tk = tuple(torch.tensor(k) if isinstance(k, (list, numpy.ndarray)) else k for k in key)
    t[tk].backward(torch.tensor(w))
    numpy.testing.assert_allclose(numpy.asarray(m.grad), t.grad.numpy(), rtol=1e-12)


# ---- functions ----

@pytest.mark.parametrize("dtype", ["int8", "float32", "float64", "bool"])
def test_take_and_modes(dtype):
    x = _data((3, 4), dtype)
    for idx, axis, mode in [([1, -1, 5], None, "wrap"), ([[0, 9]], 1, "clip"), (5, None, "raise"),
                            ([-7, 2], 0, "wrap"), ([-1, 20], 1, "clip"), ([], 0, "raise"), ([2, 0, 2], -1, "raise")]:
        assert_same(mnp.take(mnp.asarray(x), idx, axis=axis, mode=mode), numpy.take(x, idx, axis=axis, mode=mode))
    assert_same(mnp.asarray(x).take([0, 2]), x.take([0, 2]))
    with pytest.raises(IndexError, match=r"\[mnn.numpy.take\] index 12 is out of bounds"):
        mnp.take(mnp.asarray(x), 12)
    with pytest.raises(IndexError, match="cannot do a non-empty take from an empty axes"):
        mnp.take(mnp.zeros(0), [0], mode="wrap")
    with pytest.raises(ValueError, match="clipmode"):
        mnp.take(mnp.asarray(x), 0, mode="bad")
    with pytest.raises(TypeError):
        mnp.take(mnp.asarray(x), [0.5])
    out = mnp.zeros(2, dtype=dtype)
    mnp.take(mnp.asarray(x), [1, 3], out=out)
    assert_same(out, numpy.take(x, [1, 3]))


def test_put():
    for ind, v, mode in [([0, 2, -1], [7, 8], "raise"), ([1, 1, 1], [4, 5, 6], "raise"), ([22, -30], 9, "wrap"),
                         ([22, -30], [1, 2], "clip"), ([], [1], "raise")]:
        x = numpy.arange(12.0).reshape(3, 4)
        m = mnp.asarray(x)
        numpy.put(x, ind, v, mode=mode)
        mnp.put(m, ind, v, mode=mode)
        assert_same(m, x)
    x = numpy.arange(24).reshape(4, 6)
    base = mnp.asarray(x.copy())
    view = base[::2, ::-3]                   # put on a non-contiguous view writes through to the base
    numpy.put(x[::2, ::-3], [0, 3], [-1, -2])
    mnp.put(view, [0, 3], [-1, -2])
    assert_same(base, x)
    with pytest.raises(IndexError, match=r"\[mnn.numpy.put\] index 12 is out of bounds for axis 0 with size 12"):
        mnp.put(mnp.zeros((3, 4)), [12], 1.0)
    with pytest.raises(TypeError):
        mnp.put([1, 2], [0], 1)
    with pytest.raises(TypeError, match="safe"):
        mnp.put(mnp.zeros(3), mnp.asarray([1], dtype="uint64"), 1.0)
    # uint64 indices wrap to int64 in numpy's own indexing and take (same_kind casting)
    u = numpy.array([2 ** 64 - 1, 1], numpy.uint64)
    x = numpy.arange(5.0)
    assert_same(mnp.asarray(x)[mnp.asarray(u)], x[u])
    assert_same(mnp.take(mnp.asarray(x), mnp.asarray(u)), numpy.take(x, u))


def test_take_and_put_along_axis():
    x = numpy.random.default_rng(1).standard_normal((3, 4, 5))
    for axis in [0, 1, -1]:
        idx = numpy.argsort(x, axis=axis)
        assert_same(mnp.take_along_axis(mnp.asarray(x), mnp.asarray(idx), axis=axis),
                    numpy.take_along_axis(x, idx, axis=axis))
        first = numpy.take(idx, [0], axis=axis)
        want = x.copy()
        numpy.put_along_axis(want, first, -100.0, axis=axis)
        got = mnp.asarray(x)
        mnp.put_along_axis(got, mnp.asarray(first), -100.0, axis=axis)
        assert_same(got, want)
    bidx = numpy.array([[[0]], [[2]], [[1]]])  # broadcasts against the other axes
    assert_same(mnp.take_along_axis(mnp.asarray(x), mnp.asarray(bidx), 1), numpy.take_along_axis(x, bidx, 1))
    flat = numpy.array([3, 0, 59])
    assert_same(mnp.take_along_axis(mnp.asarray(x), mnp.asarray(flat), None), numpy.take_along_axis(x, flat, None))
    with pytest.raises(IndexError, match="integer"):
        mnp.take_along_axis(mnp.asarray(x), mnp.zeros((3, 4, 5)), 0)
    with pytest.raises(ValueError, match="same number of dimensions"):
        mnp.take_along_axis(mnp.asarray(x), mnp.asarray([0]), 0)
    with pytest.raises(IndexError, match="out of bounds"):
        mnp.take_along_axis(mnp.asarray(x), mnp.asarray(numpy.full((3, 1, 5), 4)), 0)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0,), (7,), (3, 4), (2, 3, 4), (0, 3)])
def test_nonzero_family(dtype, shape):
    x = _data(shape, dtype)
    if dtype.startswith("float"):
        x = x.copy()
        x.flat[::3] = 0
        if x.size > 2:
            x.flat[1] = numpy.nan  # NaN is nonzero
    m = mnp.asarray(x)
    got = mnp.nonzero(m)
    want = numpy.nonzero(x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)
    for g, w in zip(mnp.where(m), numpy.where(x)):
        assert_same(g, w)
    assert_same(mnp.argwhere(m), numpy.argwhere(x))
    assert_same(mnp.flatnonzero(m), numpy.flatnonzero(x))
    assert_same(mnp.extract(m, m), numpy.extract(x, x))


def test_nonzero_of_0d_and_views():
    with pytest.raises(ValueError, match="nonzero on 0d arrays"):
        mnp.nonzero(mnp.asarray(3.0))
    for v in [numpy.array(3.0), numpy.array(0)]:
        assert_same(mnp.argwhere(mnp.asarray(v)), numpy.argwhere(v))
        assert_same(mnp.flatnonzero(mnp.asarray(v)), numpy.flatnonzero(v))
    x = numpy.arange(-10, 14).reshape(4, 6) % 3
    for g, w in zip(mnp.nonzero(mnp.asarray(x)[::-1, 1::2]), numpy.nonzero(x[::-1, 1::2])):
        assert_same(g, w)


def test_compress_extract_choose_select():
    x = numpy.arange(12.0).reshape(3, 4)
    m = mnp.asarray(x)
    for cond, axis in [([1, 0, 1], 0), ([0, 1], 1), ([True, False, True, True, False], None), ([], 0)]:
        assert_same(mnp.compress(cond, m, axis=axis), numpy.compress(cond, x, axis=axis))
    with pytest.raises(IndexError):
        mnp.compress([0, 0, 0, 1], m, axis=0)
    c = numpy.array([[2, 0, 1, 1], [0, 0, 2, 1], [1, 2, 0, 0]])
    choices = [x, -x, numpy.float32(0.5) * numpy.ones(4, numpy.float32)]
    assert_same(mnp.choose(mnp.asarray(c), [mnp.asarray(ch) for ch in choices]), numpy.choose(c, choices))
    for mode in ["wrap", "clip"]:
        cc = c * 2 - 3
        assert_same(mnp.choose(mnp.asarray(cc), [mnp.asarray(ch) for ch in choices], mode=mode),
                    numpy.choose(cc, choices, mode=mode))
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        mnp.choose(mnp.asarray([3]), [m, m])
    assert_same(mnp.asarray(numpy.array([1, 0])).choose([mnp.asarray([1, 2]), mnp.asarray([3, 4])]),
                numpy.array([1, 0]).choose([[1, 2], [3, 4]]))
    xi = numpy.arange(10)
    for default in [0, -1.5]:
        want = numpy.select([xi < 3, xi > 5], [xi, xi ** 2], default)
        got = mnp.select([mnp.asarray(xi) < 3, mnp.asarray(xi) > 5], [mnp.asarray(xi), mnp.asarray(xi ** 2)],
                         default)
        assert_same(got, want)
    for choice, default in [(numpy.arange(3, dtype=numpy.float32), 0), (numpy.arange(3, dtype=numpy.int8), 1.5),
                            (numpy.arange(3, dtype=numpy.float32), numpy.float64(2))]:
        want = numpy.select([choice > 0], [choice], default)
        assert_same(mnp.select([mnp.asarray(choice) > 0], [mnp.asarray(choice)], default), want)
    with pytest.raises(ValueError, match="same length"):
        mnp.select([mnp.asarray(xi) < 3], [])
    with pytest.raises(TypeError, match="invalid entry 0 in condlist"):
        mnp.select([mnp.asarray(xi)], [mnp.asarray(xi)])


def test_grids_and_index_conversion():
    for args in [([0, 2], [True, False, True, True]), ([1],), ([], [1, 2]), (numpy.array([2, 1], numpy.int32), [0])]:
        got, want = mnp.ix_(*args), numpy.ix_(*args)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    with pytest.raises(ValueError, match="Cross index must be 1 dimensional"):
        mnp.ix_([[0, 1]])
    a = numpy.arange(20).reshape(4, 5)
    assert_same(mnp.asarray(a)[mnp.ix_([0, 3], [4, 1, 1])], a[numpy.ix_([0, 3], [4, 1, 1])])
    for dims, dtype in [((2, 3), int), ((4,), numpy.int32), ((2, 0, 3), float), ((), int)]:
        assert_same(mnp.indices(dims, dtype=dtype), numpy.indices(dims, dtype=dtype))
        for g, w in zip(mnp.indices(dims, dtype=dtype, sparse=True), numpy.indices(dims, dtype=dtype, sparse=True)):
            assert_same(g, w)
    for idx, shape, order in [([5, 7, 0, 11], (3, 4), "C"), (5, (3, 4), "F"), ([[1, 2], [3, 23]], (2, 3, 4), "C"),
                              (numpy.array([], numpy.int64), (2, 2), "C")]:
        got, want = mnp.unravel_index(idx, shape, order=order), numpy.unravel_index(idx, shape, order=order)
        for g, w in zip(got, want):
            assert_same(g, numpy.asarray(w))
        back = mnp.ravel_multi_index(got, shape, order=order)
        assert_same(back, numpy.asarray(numpy.ravel_multi_index(want, shape, order=order)))
    with pytest.raises(ValueError, match="index 12 is out of bounds for array with size 12"):
        mnp.unravel_index([12], (3, 4))
    with pytest.raises(TypeError):
        mnp.unravel_index([1.0], (3, 4))
    multi = ([1, 5, -1], [3, -1, 9])
    for mode in [("clip", "wrap"), "clip", "wrap"]:
        assert_same(mnp.ravel_multi_index(multi, (3, 4), mode=mode),
                    numpy.ravel_multi_index(multi, (3, 4), mode=mode))
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        mnp.ravel_multi_index(multi, (3, 4))
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        mnp.ravel_multi_index(([-1], [0]), (3, 4))


def test_triangle_and_diagonal_indices():
    for n, k, m in [(4, 0, None), (4, 1, 5), (3, -1, 2), (0, 0, None), (5, -7, None), (3, 9, 3)]:
        for got, want in [(mnp.tril_indices(n, k, m), numpy.tril_indices(n, k, m)),
                          (mnp.triu_indices(n, k, m), numpy.triu_indices(n, k, m))]:
            for g, w in zip(got, want):
                assert_same(g, w)
    x = numpy.zeros((3, 5))
    for got, want in [(mnp.tril_indices_from(mnp.asarray(x), 1), numpy.tril_indices_from(x, 1)),
                      (mnp.triu_indices_from(mnp.asarray(x), -1), numpy.triu_indices_from(x, -1))]:
        for g, w in zip(got, want):
            assert_same(g, w)
    for got, want in [(mnp.diag_indices(4), numpy.diag_indices(4)), (mnp.diag_indices(2, 3), numpy.diag_indices(2, 3)),
                      (mnp.diag_indices_from(mnp.zeros((3, 3, 3))), numpy.diag_indices_from(numpy.zeros((3, 3, 3))))]:
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    with pytest.raises(ValueError, match="equal length"):
        mnp.diag_indices_from(mnp.zeros((3, 4)))
    with pytest.raises(ValueError, match="at least 2-d"):
        mnp.diag_indices_from(mnp.zeros(3))
    with pytest.raises(ValueError, match="2-d"):
        mnp.tril_indices_from(mnp.zeros(3))
    a = numpy.arange(16.0).reshape(4, 4)
    ma = mnp.asarray(a)
    ma[mnp.triu_indices(4, 1)] = 0.0
    a[numpy.triu_indices(4, 1)] = 0.0
    assert_same(ma, a)


def test_put_primitive_gradient():
    from mnn import _core
    x = numpy.random.default_rng(0).standard_normal((5, 3))
    vals = numpy.random.default_rng(1).standard_normal((4, 3))
    idx = numpy.array([1, 3, 1, 0])
    w = numpy.random.default_rng(2).standard_normal((5, 3))
    m, mv = mnp.array(x, requires_grad=True), mnp.array(vals, requires_grad=True)
    y = _core.prim("put", [m * 1.0, mnp.asarray(idx), mv * 1.0], [0])
    want_y = x.copy()
    want_y[idx] = vals
    assert_same(y, want_y)
    y.backward(mnp.array(w))
    g_dst = w.copy()
    g_dst[idx] = 0
    g_vals = w[idx] * numpy.array([0, 1, 1, 1])[:, None]  # the first write to row 1 is overwritten
    numpy.testing.assert_allclose(numpy.asarray(m.grad), g_dst)
    numpy.testing.assert_allclose(numpy.asarray(mv.grad), g_vals)


def test_large_gathers_and_scatters_use_every_thread_path():
    rng = numpy.random.default_rng(11)
    x = rng.standard_normal((300_000,)).astype(numpy.float32)
    idx = rng.integers(-300_000, 300_000, 200_000)
    m = mnp.asarray(x)
    assert_same(m[mnp.asarray(idx)], x[idx])
    rows = rng.standard_normal((5000, 24))
    ridx = rng.integers(0, 5000, 7000)
    assert_same(mnp.asarray(rows)[mnp.asarray(ridx)], rows[ridx])
    assert_same(mnp.asarray(rows)[:, [3, 1]], rows[:, [3, 1]])
    mask = rng.standard_normal((700, 300)) > 0.3  # several nonzero chunks
    assert_same(mnp.asarray(mask * 1.0)[mnp.asarray(mask)], (mask * 1.0)[mask])
    for got, want in zip(mnp.nonzero(mnp.asarray(mask)), numpy.nonzero(mask)):
        assert_same(got, want)
    wide = rng.standard_normal((3, 2000))  # one outer block with wide rows: split by bytes
    want = wide.copy()
    want[[2, 0, 2]] = numpy.arange(6000.0).reshape(3, 2000)
    got = mnp.asarray(wide)
    got[[2, 0, 2]] = mnp.arange(6000.0).reshape(3, 2000)
    assert_same(got, want)
    big = rng.standard_normal((400, 50))
    want = big.copy()
    want[:, [7, 7, 1]] = -numpy.arange(1200.0).reshape(400, 3)
    got = mnp.asarray(big)
    got[:, [7, 7, 1]] = -mnp.arange(1200.0).reshape(400, 3)
    assert_same(got, want)


def test_numpy_arrays_and_scalars_as_keys():
    """numpy arrays define __index__ (only 0-d integer ones convert): they must reach advanced indexing."""
    x = numpy.arange(24.0).reshape(4, 6)
    m = mnp.asarray(x)
    keys = [numpy.array([3, 0]), (slice(None), numpy.array([5, 5])), x > 10, (x[:, 0] > 5,), numpy.int64(2),
            (numpy.array(1), numpy.array([0, 2])), (numpy.uint8(1), slice(None, None, -2)), numpy.array([True] * 4)]
    for key in keys:
        assert_same(m[key], x[key])
        want, got = x.copy(), mnp.asarray(x)
        want[key] = -1.0
        got[key] = -1.0
        assert_same(got, want)


def test_compound_and_self_referencing_writes():
    x = numpy.arange(12.0).reshape(3, 4)
    m = mnp.asarray(x)
    want = x.copy()
    want[[1, 1, 2]] += 1          # numpy: a repeated index is incremented once
    m[[1, 1, 2]] += 1
    assert_same(m, want)
    want[[0, 2]] = want[[2, 0]]   # a swap reads the old rows
    m[[0, 2]] = m[[2, 0]]
    assert_same(m, want)
    want[want > 5] = want[want > 5] * -2
    m[m > 5] = m[m > 5] * -2
    assert_same(m, want)
    want[:, [3, 0]] = want[:, [0, 3]]
    m[:, [3, 0]] = m[:, [0, 3]]
    assert_same(m, want)


@pytest.mark.parametrize("key", [([1, 0, 1], slice(None), [2, 2, 0]), ([0, 2],), (slice(None), [[1, 0]], [2])])
def test_gradient_through_strided_views(key):
    x = numpy.random.default_rng(8).standard_normal((4, 3, 5))
    m = mnp.array(x, requires_grad=True)
    y = m.transpose(2, 0, 1)[::-2][_mnn_key(key)]
    w = numpy.random.default_rng(9).standard_normal(y.shape)
    y.backward(mnp.array(w))
    t = torch.tensor(x, requires_grad=True)
    tk = tuple(torch.tensor(k) if isinstance(k, list) else k for k in key)
    t.permute(2, 0, 1).flip(0)[::2][tk].backward(torch.tensor(w))
    numpy.testing.assert_allclose(numpy.asarray(m.grad), t.grad.numpy(), rtol=1e-12)


def test_putmask_and_place():
    for dtype in ["int32", "float64", "uint8"]:
        for mask_fn, values in [(lambda x: x > 2, [10, 20]), (lambda x: x % 2 == 1, 1.7), (lambda x: x > 100, [5]),
                                (lambda x: x >= 0, numpy.arange(12, dtype=numpy.uint8) * 3)]:
            x = numpy.arange(12).reshape(3, 4).astype(dtype)
            for fn in ["putmask", "place"]:
                want, got = x.copy(), mnp.asarray(x)
                getattr(numpy, fn)(want, mask_fn(want), values)
                getattr(mnp, fn)(got, mask_fn(got), values)
                assert_same(got, want)
    base = numpy.arange(20.0).reshape(4, 5)
    got_base = mnp.asarray(base.copy())
    mnp.putmask(got_base[:, ::-2], got_base[:, ::-2] > 7, [-1.0, -2.0])
    numpy.putmask(base[:, ::-2], base[:, ::-2] > 7, [-1.0, -2.0])
    assert_same(got_base, base)
    with pytest.raises(ValueError, match="mask and data must be the same size"):
        mnp.putmask(mnp.zeros(3), [True], 1)
    with pytest.raises(TypeError, match="according to the rule 'safe'"):  # arrays cast safely, as in numpy
        mnp.putmask(mnp.zeros(3, dtype="int32"), [True, False, True], mnp.asarray([1.5, 2.5]))
    with pytest.raises(TypeError, match="first argument must be an array"):
        mnp.putmask([1, 2], [True, False], 1)
    with pytest.raises(ValueError, match="Cannot insert from an empty array"):
        mnp.place(mnp.zeros(3), mnp.asarray([True, False, True]), [])
    with pytest.raises(TypeError):
        mnp.place([1, 2], [True, False], [3])
