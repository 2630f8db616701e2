"""Basic indexing, shape manipulation, joining/splitting and numpy's aliasing semantics, against numpy."""
import re

import numpy
import pytest

import mnn
import mnn.numpy as mnp
from helpers import ALL_DTYPES, SHAPES, assert_same, non_contiguous, sample


def both(shape, dtype="int64", seed=0):
    x = sample(shape, dtype, seed)
    return x, mnp.asarray(x.copy())


def np_error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return e
    raise AssertionError("numpy did not raise")


def expected_type(e):
    return mnp.AxisError if isinstance(e, numpy.exceptions.AxisError) else type(e)


def check_error(np_fn, mnn_fn, name=None):
    """Same exception type; when name is given, the message is numpy's after '[mnn.numpy.name] '."""
    e = np_error(np_fn)
    with pytest.raises(expected_type(e)) as info:
        mnn_fn()
    if name is not None:
        assert str(info.value) == f"[mnn.numpy.{name}] {e}"


# ------------------------------------------------------------------ basic indexing

KEYS = [
    0, -1, 2, slice(None), slice(1, 3), slice(None, None, -1), slice(None, None, 2), slice(3, 0, -2),
    slice(-2, None), slice(10, 20), slice(-100, 100), slice(None, None, -3), (), Ellipsis, None,
    (0, 1), (-1, slice(None, None, -1)), (slice(None), 2), (Ellipsis, 1), (None, 0), (1, None, slice(1, 3)),
    (slice(None, None, -1), slice(None, None, -2)), (Ellipsis, None), (0, Ellipsis, 0), (slice(2, 2),),
    (slice(0, 3), slice(3, 0, -1), slice(None)),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("shape", [(4, 5, 3), (5, 4), (6,)])
def test_getitem_basic(shape, key):
    x, a = both(shape)
    try:
        expected = x[key]
    except IndexError:
        with pytest.raises(IndexError):
            a[key]
        return
    got = a[key]
    assert_same(got, expected)
    # a view of a negative-stride / non-contiguous source too
    src = non_contiguous(x)[::-1]
    assert_same(mnp.asarray(src)[key], src[key])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_getitem_dtypes_zero_d(dtype):
    x, a = both((3, 2), dtype)
    assert_same(a[1, 1], x[1, 1][()] if False else numpy.asarray(x[1, 1]))
    z = mnp.asarray(numpy.asarray(x[0, 0]))
    assert_same(z[()], numpy.asarray(x[0, 0]))
    assert_same(z[...], numpy.asarray(x[0, 0])[...])
    assert_same(z[None], numpy.asarray(x[0, 0])[None])


@pytest.mark.parametrize("key", [5, -6, (0, 4), (slice(None), 7), (0, 0, 0)], ids=repr)
def test_getitem_out_of_range(key):
    x, a = both((5, 4))
    e = np_error(lambda: x[key])
    with pytest.raises(expected_type(e)):
        a[key]
    with pytest.raises(expected_type(e)):
        a[key] = 1


def test_getitem_two_ellipsis():
    x, a = both((2, 3))
    with pytest.raises(IndexError):
        x[..., ...]
    with pytest.raises(IndexError):
        a[..., ...]


def test_getitem_empty():
    x, a = both((0, 3))
    assert_same(a[:, 1], x[:, 1])
    assert_same(a[::-1], x[::-1])
    with pytest.raises(IndexError):
        a[0]


# ------------------------------------------------------------------ reshape

@pytest.mark.parametrize("dtype", ["int8", "float32", "bool"])
@pytest.mark.parametrize("src,new", [((6,), (2, 3)), ((2, 3), (-1,)), ((2, 3, 4), (4, -1)), ((), (1, 1)),
                                     ((1,), ()), ((0, 3), (3, 0)), ((0, 3), (-1, 5)), ((4, 3), (2, 2, 3)),
                                     ((24,), (2, -1, 3))])
def test_reshape(src, new, dtype):
    x, a = both(src, dtype)
    assert_same(a.reshape(new), x.reshape(new))
    assert_same(mnp.reshape(a, new), numpy.reshape(x, new))
    if len(new) > 1:
        assert_same(a.reshape(*new), x.reshape(*new))


def test_reshape_view_vs_copy():
    x, a = both((3, 4))
    r = a.reshape(12)
    r[0] = 99
    x.reshape(12)[0] = 99
    assert_same(a, x)
    # reshape of a transposed array cannot be a view
    t = a.T.reshape(12)
    t[1] = -7
    xt = x.T.reshape(12)
    xt[1] = -7
    assert_same(a, x)
    assert_same(t, xt)
    with pytest.raises(ValueError):
        numpy.reshape(x.T, 12, copy=False)
    with pytest.raises(ValueError):
        mnp.reshape(a.T, 12, copy=False)
    c = mnp.reshape(a, (2, 6), copy=True)
    c[0, 0] = 1234
    assert_same(a, x)


@pytest.mark.parametrize("src,new", [((6,), (4,)), ((2, 3), (-1, 4)), ((2, 3), (-1, -1)), ((0, 3), (-1, 0)),
                                     ((6,), (-2, 4)), ((7,), (2, -1, 3)), ((6,), (7,)), ((6,), (2, 4))])
def test_reshape_errors(src, new):
    x, a = both(src)
    check_error(lambda: x.reshape(new), lambda: a.reshape(new), "reshape")


def test_ravel_flatten():
    for shape in SHAPES:
        x, a = both(shape)
        assert_same(a.ravel(), x.ravel())
        assert_same(mnp.ravel(a), numpy.ravel(x))
        assert_same(a.flatten(), x.flatten())
        if x.ndim >= 2:
            assert_same(a.T.ravel(), x.T.ravel())
    x, a = both((3, 4))
    r = a.ravel()
    r[0] = 55
    x.ravel()[0] = 55
    f = a.flatten()
    f[1] = 66
    assert_same(a, x)


# ------------------------------------------------------------------ transpose & friends

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_transpose(shape, dtype):
    x = sample(shape, dtype)
    a = mnp.asarray(x)
    assert_same(a.T, x.T)
    assert_same(mnp.transpose(a), numpy.transpose(x))
    assert_same(a.transpose(), x.transpose())
    if x.ndim == 3:
        assert_same(a.transpose(1, 0, 2), x.transpose(1, 0, 2))
        assert_same(a.transpose((2, 0, 1)), x.transpose((2, 0, 1)))
        assert_same(mnp.transpose(a, (-1, 0, 1)), numpy.transpose(x, (-1, 0, 1)))
        assert_same(mnp.moveaxis(a, 0, -1), numpy.moveaxis(x, 0, -1))
        assert_same(mnp.moveaxis(a, [0, 1], [2, 0]), numpy.moveaxis(x, [0, 1], [2, 0]))
        assert_same(mnp.swapaxes(a, 0, 2), numpy.swapaxes(x, 0, 2))
        assert_same(a.swapaxes(-1, 1), x.swapaxes(-1, 1))
    assert_same(mnp.asarray(non_contiguous(x)).T, non_contiguous(x).T)


def test_transpose_errors():
    x, a = both((2, 3, 4))
    for axes in [(0, 1), (0, 1, 1), (0, 1, 3)]:
        e = np_error(lambda: x.transpose(axes))
        with pytest.raises(expected_type(e)):
            a.transpose(axes)
    with pytest.raises(numpy.exceptions.AxisError):
        numpy.moveaxis(x, 3, 0)
    with pytest.raises(mnp.AxisError):
        mnp.moveaxis(a, 3, 0)
    with pytest.raises(ValueError):
        mnp.swapaxes(a, 0, 5)


# ------------------------------------------------------------------ squeeze / expand_dims

@pytest.mark.parametrize("shape,axis", [((1, 3, 1), None), ((1, 3, 1), 0), ((1, 3, 1), -1), ((1, 3, 1), (0, 2)),
                                        ((1,), None), ((), None), ((1, 1), (0, 1)), ((0, 1), 1), ((3,), None)])
def test_squeeze(shape, axis):
    x, a = both(shape)
    assert_same(mnp.squeeze(a, axis), numpy.squeeze(x, axis))
    assert_same(a.squeeze(axis), x.squeeze(axis))


def test_squeeze_errors():
    x, a = both((1, 3))
    e = np_error(lambda: x.squeeze(1))
    with pytest.raises(expected_type(e)):
        a.squeeze(1)
    with pytest.raises(numpy.exceptions.AxisError):
        x.squeeze(4)
    with pytest.raises(mnp.AxisError):
        a.squeeze(4)


@pytest.mark.parametrize("shape,axis", [((3,), 0), ((3,), 1), ((3,), -1), ((2, 3), (0, 3)), ((), 0), ((), (0, 1)),
                                        ((2, 3), -2), ((0,), (0, -1))])
def test_expand_dims(shape, axis):
    x, a = both(shape)
    assert_same(mnp.expand_dims(a, axis), numpy.expand_dims(x, axis))


def test_expand_dims_errors():
    x, a = both((2, 3))
    for axis in [3, -4, (0, 0)]:
        e = np_error(lambda: numpy.expand_dims(x, axis))
        with pytest.raises(expected_type(e)):
            mnp.expand_dims(a, axis)


# ------------------------------------------------------------------ broadcasting

@pytest.mark.parametrize("src,dst", [((), (3,)), ((3,), (2, 3)), ((1, 3), (4, 3)), ((2, 1), (2, 0)), ((3,), (3,)),
                                     ((4, 1, 2), (3, 4, 5, 2))])
def test_broadcast_to(src, dst):
    x, a = both(src)
    b = mnp.broadcast_to(a, dst)
    assert_same(b, numpy.broadcast_to(x, dst))
    assert b.flags.writeable == numpy.broadcast_to(x, dst).flags.writeable
    with pytest.raises(ValueError):
        numpy.broadcast_to(x, dst)[...] = 1
    with pytest.raises(ValueError):
        b[...] = 1


def test_broadcast_to_errors():
    x, a = both((3,))
    check_error(lambda: numpy.broadcast_to(x, (4,)), lambda: mnp.broadcast_to(a, (4,)))
    check_error(lambda: numpy.broadcast_to(x, ()), lambda: mnp.broadcast_to(a, ()))


def test_broadcast_arrays():
    x, a = both((3, 1))
    y, b = both((4,), "float32")
    z, c = both((), "int8")
    for g, e in zip(mnp.broadcast_arrays(a, b, c), numpy.broadcast_arrays(x, y, z)):
        assert_same(g, e)
    assert mnp.broadcast_shapes((3, 1), (4,), ()) == numpy.broadcast_shapes((3, 1), (4,), ())
    check_error(lambda: numpy.broadcast_arrays(x, numpy.zeros((2, 2))),
                lambda: mnp.broadcast_arrays(a, mnp.zeros((2, 2))))


# ------------------------------------------------------------------ flip

@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1), 1])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (0, 3)])
def test_flip(shape, axis):
    x, a = both(shape, "float32")
    assert_same(mnp.flip(a, axis), numpy.flip(x, axis))
    assert_same(mnp.flipud(a), numpy.flipud(x))
    assert_same(mnp.fliplr(a), numpy.fliplr(x))
    if x.size:
        mnp.flip(a, axis)[(0,) * x.ndim] = 0.5
        numpy.flip(x, axis)[(0,) * x.ndim] = 0.5
    assert_same(a, x)


def test_flip_zero_d():
    x, a = both(())
    assert_same(mnp.flip(a), numpy.flip(x))


# ------------------------------------------------------------------ joining / splitting

@pytest.mark.parametrize("d1,d2", [("int8", "int8"), ("int8", "uint8"), ("int32", "float32"), ("bool", "int16"),
                                   ("float16", "float32"), ("uint64", "int64"), ("bool", "bool")])
def test_concatenate_promotion(d1, d2):
    x, y = sample((2, 3), d1), sample((4, 3), d2, seed=1)
    assert_same(mnp.concatenate([mnp.asarray(x), mnp.asarray(y)]), numpy.concatenate([x, y]))
    assert_same(mnp.concatenate((mnp.asarray(x), mnp.asarray(y)), axis=None), numpy.concatenate([x, y], axis=None))


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_concatenate_axes(axis):
    xs = [sample((2, 3, 4), "int32", seed=i) for i in range(3)]
    xs[1] = non_contiguous(xs[1])
    xs[2] = xs[2][::-1]
    assert_same(mnp.concatenate([mnp.asarray(v) for v in xs], axis), numpy.concatenate(xs, axis))


def test_concatenate_dtype_out_and_errors():
    x, a = both((2, 3), "int32")
    assert_same(mnp.concatenate([a, a], dtype="float32"), numpy.concatenate([x, x], dtype="float32"))
    out = mnp.zeros((4, 3))
    r = mnp.concatenate([a, a], out=out)
    assert r is out
    assert_same(out, numpy.concatenate([x, x], out=numpy.zeros((4, 3))))
    assert_same(mnp.concatenate([a, mnp.zeros((0, 3), "int32")]), numpy.concatenate([x, numpy.zeros((0, 3), "int32")]))
    check_error(lambda: numpy.concatenate([x, numpy.zeros((2, 4))]), lambda: mnp.concatenate([a, mnp.zeros((2, 4))]))
    check_error(lambda: numpy.concatenate([x, numpy.zeros(3)]), lambda: mnp.concatenate([a, mnp.zeros(3)]))
    check_error(lambda: numpy.concatenate([]), lambda: mnp.concatenate([]))
    check_error(lambda: numpy.concatenate([x, x], axis=2), lambda: mnp.concatenate([a, a], axis=2))
    z = numpy.zeros(())
    check_error(lambda: numpy.concatenate([z, z]), lambda: mnp.concatenate([mnp.zeros(()), mnp.zeros(())]))


def test_concatenate_result_is_independent():
    x, a = both((3,))
    c = mnp.concatenate([a, a])
    a[0] = 1000
    assert_same(c, numpy.concatenate([x, x]))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack(axis):
    xs = [sample((2, 3), "float32", seed=i) for i in range(3)]
    assert_same(mnp.stack([mnp.asarray(v) for v in xs], axis), numpy.stack(xs, axis))
    zs = [sample((), "int16", seed=i) for i in range(2)]
    if -1 <= axis <= 0:
        assert_same(mnp.stack([mnp.asarray(v) for v in zs], axis), numpy.stack(zs, axis))
    assert_same(mnp.stack([mnp.asarray(xs[0]), mnp.asarray(xs[1].astype("int8"))]),
                numpy.stack([xs[0], xs[1].astype("int8")]))


def test_stack_errors():
    x, a = both((2, 3))
    check_error(lambda: numpy.stack([x, x[:1]]), lambda: mnp.stack([a, a[:1]]))
    check_error(lambda: numpy.stack([]), lambda: mnp.stack([]))
    check_error(lambda: numpy.stack([x, x], axis=3), lambda: mnp.stack([a, a], axis=3))


def test_vstack_hstack():
    x, a = both((3,))
    y, b = both((2, 3), seed=2)
    assert_same(mnp.vstack([a, b]), numpy.vstack([x, y]))
    assert_same(mnp.hstack([a, a]), numpy.hstack([x, x]))
    assert_same(mnp.hstack([b, b]), numpy.hstack([y, y]))


@pytest.mark.parametrize("ios,axis", [(3, 0), ([1, 4], 0), ([2, 2], 0), ([-2], 0), ([5, 1], 0), (2, 1), ([1], -1),
                                      (1, 0), ([0, 10], 0)])
def test_split(ios, axis):
    x, a = both((6, 4))
    try:
        expected = numpy.split(x, ios, axis)
    except ValueError:
        with pytest.raises(ValueError):
            mnp.split(a, ios, axis)
        return
    got = mnp.split(a, ios, axis)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_same(g, e)


def test_split_errors_and_views():
    x, a = both((6, 4))
    check_error(lambda: numpy.split(x, 4), lambda: mnp.split(a, 4))
    check_error(lambda: numpy.split(x, 0), lambda: mnp.split(a, 0))
    parts = mnp.split(a, 2)
    parts[1][0, 0] = -1
    numpy.split(x, 2)[1][0, 0] = -1
    assert_same(a, x)


@pytest.mark.parametrize("ios,axis", [(4, 0), (3, 1), (7, 0), (1, 0), ([1, 3], 1), (6, 0)])
def test_array_split(ios, axis):
    x, a = both((6, 5))
    got, expected = mnp.array_split(a, ios, axis), numpy.array_split(x, ios, axis)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_same(g, e)


def test_array_split_errors():
    x, a = both((6,))
    check_error(lambda: numpy.array_split(x, 0), lambda: mnp.array_split(a, 0))


# ------------------------------------------------------------------ aliasing semantics

def test_slice_write_changes_base():
    x, a = both((6,))
    b = a[1:3]
    b[:] = 7
    xb = x[1:3]
    xb[:] = 7
    assert_same(a, x)
    assert_same(b, xb)


def test_inplace_visible_through_every_view():
    x, a = both((3, 4))
    v1, v2, v3 = a[1], a[:, ::-2], a.T
    a += 1
    x += 1
    assert_same(v1, x[1])
    assert_same(v2, x[:, ::-2])
    assert_same(v3, x.T)
    v2 *= 2
    xv2 = x[:, ::-2]
    xv2 *= 2
    assert_same(a, x)
    assert_same(v1, x[1])


def test_row_write():
    x, a = both((3, 4))
    row = a[0]
    row[:] = 0
    x[0][:] = 0
    assert_same(a, x)
    a[0] = 5  # and the base write is visible through row
    assert_same(row, numpy.full(4, 5, dtype=x.dtype))


@pytest.mark.parametrize("dtype", ["int32", "float64", "uint8", "bool"])
def test_write_through_transposed_and_strided(dtype):
    x = sample((4, 6), dtype)
    a = mnp.asarray(x.copy())
    t = a.T
    t[1] = t[2]
    xt = x.T
    xt[1] = xt[2]
    s = a[::2, ::-3]
    s[...] = s[::-1]
    xs = x[::2, ::-3]
    xs[...] = xs[::-1].copy()
    assert_same(a, x)
    d = mnp.diagonal(a)
    assert_same(d, numpy.diagonal(x))


def test_write_into_numpy_backed_view():
    x = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    a = mnp.asarray(x)
    a[:, 1] = -1
    assert_same(a, x.copy())
    x[0, 0] = 42
    assert_same(a, x.copy())


def test_lazy_result_keeps_old_value():
    x, a = both((5,), "float64")
    c = a * 2
    v = a[1:]
    cv = v + 0
    a[0] = 100
    a[1:] = -1
    assert_same(c, x * 2)
    assert_same(cv, x[1:] + 0)
    x[0] = 100
    x[1:] = -1
    assert_same(a, x)
    d = a.copy()
    a += 1
    assert_same(d, x)


def test_setitem_broadcast_and_cast():
    x, a = both((3, 4), "int32")
    a[:, 1] = 2.9
    x[:, 1] = 2.9
    a[1] = [-1.7, 2.2, 3.9, 4.1]
    x[1] = [-1.7, 2.2, 3.9, 4.1]
    a[...] = a[0]
    x[...] = x[0]
    assert_same(a, x)
    f, b = both((2, 3), "float32")
    b[0] = mnp.asarray(numpy.array([1, 2, 3], dtype=numpy.int64))
    f[0] = numpy.array([1, 2, 3], dtype=numpy.int64)
    b[1, 2] = True
    f[1, 2] = True
    assert_same(b, f)
    u, c = both((4,), "uint8")
    c[0] = 255
    u[0] = 255
    c[1:3] = mnp.asarray(numpy.array([1.5, 300.0]))[0]
    u[1:3] = numpy.array([1.5, 300.0])[0]
    assert_same(c, u)
    bo, d = both((3,), "bool")
    d[0] = 2.5
    bo[0] = 2.5
    d[1] = 0
    bo[1] = 0
    assert_same(d, bo)


def test_setitem_errors():
    x, a = both((3, 4))
    check_error(lambda: x.__setitem__(0, numpy.zeros(3)), lambda: a.__setitem__(0, mnp.zeros(3)))
    check_error(lambda: x.__setitem__((slice(None), 0), numpy.zeros((3, 1))),
                lambda: a.__setitem__((slice(None), 0), mnp.zeros((3, 1))))


def test_setitem_scalar_overflow_errors():
    x, a = both((3,), "uint8")
    check_error(lambda: x.__setitem__(0, 300), lambda: a.__setitem__(0, 300))
    check_error(lambda: x.__setitem__(0, -1), lambda: a.__setitem__(0, -1))


def test_setitem_self_overlap():
    x, a = both((8,))
    a[1:] = a[:-1]
    x[1:] = x[:-1]
    assert_same(a, x)
    a[::-1] = a
    x[::-1] = x.copy()
    assert_same(a, x)


def test_long_setitem_loop_bounded():
    n = 7
    x = numpy.zeros(n, dtype=numpy.int64)
    a = mnp.zeros(n, dtype="int64")
    b = a[2:]
    for i in range(2000):
        a[i % n] = i
        x[i % n] = i
        assert mnn._core.pending_depth(a) <= mnn._core.MAX_PENDING_DEPTH
    assert mnn._core.pending_depth(b) <= mnn._core.MAX_PENDING_DEPTH
    assert_same(a, x)
    assert_same(b, x[2:])
    stats = mnn.engine.stats()
    assert isinstance(stats, dict) and stats


def test_long_inplace_loop_bounded():
    x = numpy.zeros((4, 4), dtype=numpy.float32)
    a = mnp.zeros((4, 4), dtype="float32")
    for i in range(1500):
        r = a[i % 4]
        r += 1
        x[i % 4] += 1
        assert mnn._core.pending_depth(a) <= mnn._core.MAX_PENDING_DEPTH
    assert_same(a, x)


def test_readonly_numpy_source():
    x = numpy.arange(4)
    x.flags.writeable = False
    a = mnp.asarray(x)
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[0] = 1
    with pytest.raises(ValueError):
        a += 1
    assert_same(a, numpy.arange(4))


@pytest.mark.parametrize("src", ["int32", "float64", "uint8", "complex128", "int16"])
@pytest.mark.parametrize("dst", ["uint8", "int16", "float32", "int64", "complex64", "float64"])
def test_view_as_other_dtype(src, dst):
    # the bytes read as another dtype (numpy's rules for the last axis); a read-only copy in mnn
    for shape in ((2, 4), (8,), (0,), ()):
        x = (numpy.arange(int(numpy.prod(shape))) * 37 + 5).astype(src).reshape(shape)
        try:
            ref = x.view(dst)
        except ValueError:
            with pytest.raises(ValueError, match=r"^\[mnn.numpy.ndarray.view\]"):
                mnp.asarray(x).view(dst)
            continue
        got = mnp.asarray(x).view(dst)
        assert got.shape == ref.shape and got.dtype == ref.dtype
        assert numpy.asarray(got).tobytes() == ref.tobytes()
        if got.size and src != dst:  # same dtype: a real (writable) view
            with pytest.raises(ValueError, match="read-only"):
                got[...] = 0


def test_shape_assignment_in_place():
    # `a.shape = ...` changes this array's window; aliases keep theirs and still share the memory
    a, n = mnp.arange(6), numpy.arange(6)
    v = a[1:3]
    a.shape = (2, 3)
    n.shape = (2, 3)
    assert a.shape == n.shape == (2, 3)
    a[0, 1] = 9
    assert v.tolist() == [9, 2]
    a.shape = (3, -1)
    assert a.shape == (3, 2)
    a.shape = 6
    assert a.shape == (6,)
    t = mnp.arange(6).reshape(2, 3).T
    with pytest.raises(AttributeError, match=r"^\[mnn.numpy.ndarray.shape\] Incompatible shape"):
        t.shape = (6,)
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.reshape\]"):
        a.shape = (4,)
    r = mnp.ones(3)
    r.setflags(write=False)
    r.shape = (3, 1)
    assert r.shape == (3, 1) and not r.flags.writeable
