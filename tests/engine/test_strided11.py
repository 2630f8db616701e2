"""Non-contiguous inputs (backends/cpu/strided.cpp, fused.cpp, simd/transpose_kernels.cpp): rows
with a unit inner stride are read in place (x[::2], slices), rows with inner stride 2 or -1
(x[:, ::2], x[:, ::-1]) are gathered with the ISA's column kernel, other strides with the element
loop, and transposes move as 2-D blocks walked along the input's contiguous dim. Every result must
carry numpy's bits: float32/float64/int32/uint8/int16 (and the other widths the gathers serve),
views rows::k and cols::k (k = 2, 3), negative strides, 2-d and 3-d transposes, odd offsets, 0-size
and 1-element views, copies, casts, fused chains mixing a strided and a contiguous operand,
in-place writes into strided views, 1 and 2 threads, and the scalar ISA target's bits."""
import numpy
import pytest
from helpers import run_under_isa, sample

import mnn
import mnn.numpy as mnp

DTYPES = ["float32", "float64", "int32", "uint8", "int16"]
# views of a (R, C) array: rows::k, cols::k, negative strides, odd offsets, a transpose
VIEWS = {
    "rows2": numpy.s_[::2],
    "rows3": numpy.s_[1::3],
    "cols2": numpy.s_[:, ::2],
    "cols3": numpy.s_[:, 1::3],
    "cols2_odd": numpy.s_[3:, 1:-2:2],
    "rows_rev": numpy.s_[::-1],
    "cols_rev": numpy.s_[:, ::-1],
    "both_rev2": numpy.s_[::-2, ::-2],
    "slice_odd": numpy.s_[1:-1, 1:-1],
    "cols_rev3": numpy.s_[:, ::-3],
}
SHAPES = [(37, 1031), (129, 67), (5, 9000)]


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    old = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


def _bits(a):
    a = numpy.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.itemsize in (2, 4, 8) else a.view(numpy.uint8)


def check(got, want):
    """Same shape, dtype and bits as numpy's result."""
    assert isinstance(got, mnp.ndarray)
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, g.dtype, want.shape, want.dtype)
    assert numpy.array_equal(_bits(g), _bits(want)), f"values differ from numpy:\n{g}\nvs\n{want}"


def data(shape, dtype, seed):
    return sample(shape, dtype, seed=seed)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("view", list(VIEWS))
def test_views_copy_and_arithmetic(dtype, shape, view, threads):
    x = data(shape, dtype, 1)
    X = mnp.asarray(x)
    v, V = x[VIEWS[view]], X[VIEWS[view]]
    one = numpy.dtype(dtype).type(1)
    check(V.copy(), v.copy())
    check(mnp.ascontiguousarray(V), numpy.ascontiguousarray(v))
    check(V + one, v + one)
    check(V * 2, v * 2)
    check(-V if dtype != "uint8" else V // 3, -v if dtype != "uint8" else v // 3)


@pytest.mark.parametrize("dtype", DTYPES + ["int8", "int64", "float16"])
@pytest.mark.parametrize("view", ["cols2", "cols_rev", "cols3", "rows2"])
def test_casts_of_strided_views(dtype, view, threads):
    x = data((67, 1031), dtype, 2)
    X = mnp.asarray(x)
    v, V = x[VIEWS[view]], X[VIEWS[view]]
    for to in ("float64", "float32", "int32", "int16", "uint8"):
        with numpy.errstate(all="ignore"):
            want = v.astype(to)
        check(V.astype(to), want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(37, 1031), (1031, 37), (64, 64), (3, 5000)], ids=str)
def test_transposes_2d(dtype, shape, threads):
    x = data(shape, dtype, 3)
    X = mnp.asarray(x)
    one = numpy.dtype(dtype).type(1)
    check(X.T.copy(), x.T.copy())
    check(X.T * 2, x.T * 2)
    check(X.T + one, x.T + one)
    check(X[::-1].T * 2, x[::-1].T * 2)  # transposed and reversed
    check(X[:, ::2].T + one, x[:, ::2].T + one)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axes", [(1, 0, 2), (0, 2, 1), (2, 1, 0), (1, 2, 0), (2, 0, 1)], ids=str)
def test_transposes_3d(dtype, axes, threads):
    x = data((9, 37, 131), dtype, 4)
    X = mnp.asarray(x)
    check(X.transpose(axes).copy(), x.transpose(axes).copy())
    check(X.transpose(axes) * 2, x.transpose(axes) * 2)
    check(X.transpose(axes)[::2, :, ::-1] + 1, x.transpose(axes)[::2, :, ::-1] + numpy.dtype(dtype).type(1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_chains_mixing_strided_and_contiguous(dtype, threads):
    x = data((129, 2050), dtype, 5)
    y = data((129, 1025), dtype, 6)
    X, Y = mnp.asarray(x), mnp.asarray(y)
    two = numpy.dtype(dtype).type(2)
    with numpy.errstate(all="ignore"):
        check(X[:, ::2] * Y + two, x[:, ::2] * y + two)
        check(Y - X[:, 1::2] * two, y - x[:, 1::2] * two)
        check(mnp.maximum(X[:, ::-2], Y) + X[:, ::2], numpy.maximum(x[:, ::-2], y) + x[:, ::2])
        check(X[1::2, :1025] * Y[::-2][1:] + X[::2, 1025:][1:], x[1::2, :1025] * y[::-2][1:] + x[::2, 1025:][1:])
        yt = data((1025, 129), dtype, 7)  # a strided and a transposed operand
        check(X[:, ::2] + mnp.asarray(yt).T, x[:, ::2] + yt.T)
        # a strided operand and a cast in one chain
        check(X[:, ::2].astype("float64") * 0.5 + Y, x[:, ::2].astype("float64") * 0.5 + y)


@pytest.mark.parametrize("shape", [(0, 7), (7, 0), (1, 1), (1, 9), (9, 1), (2, 2)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "int16"])
def test_zero_size_and_one_element(shape, dtype):
    x = data(shape, dtype, 8)
    X = mnp.asarray(x)
    for s in (numpy.s_[::2], numpy.s_[:, ::2], numpy.s_[::-1, ::-1], numpy.s_[:, 1::3]):
        check(X[s].copy(), x[s].copy())
        check(X[s] * 2, x[s] * 2)
        check(X[s].T + 1, x[s].T + numpy.dtype(dtype).type(1))
        check(X[s].astype("float64"), x[s].astype("float64"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", ["rows2", "cols2", "cols_rev", "both_rev2", "cols3"])
def test_in_place_into_strided_views(dtype, view, threads):
    x = data((67, 1031), dtype, 9)
    X = mnp.asarray(x.copy())
    s = VIEWS[view]
    one = numpy.dtype(dtype).type(1)
    x[s] += one
    V = X[s]
    V += one
    check(X, x)
    # written from another strided view and from a transpose of the same shape
    y = data((67, 1031), dtype, 10)
    Y = mnp.asarray(y)
    x[s] = y[s] * 2
    X[s] = Y[s] * 2
    check(X, x)
    sq = data((129, 129), dtype, 11)
    SQ = mnp.asarray(sq.copy())
    sq[::2] = sq.T[::2] + one
    SQ[::2] = SQ.T[::2] + one
    check(SQ, sq)


def test_large_views_split_over_threads(threads):
    # past the fused path's grain, so two threads each take part of every path
    x = data((515, 4099), "float32", 12)
    X = mnp.asarray(x)
    check(X[::2] * 2, x[::2] * 2)
    check(X[:, ::2] * 2, x[:, ::2] * 2)
    check(X[:, ::-1].copy(), x[:, ::-1].copy())
    check(X.T * 2, x.T * 2)
    check(X[:, ::2].astype("float64"), x[:, ::2].astype("float64"))
    xi = data((515, 4099), "int32", 13)
    check(mnp.asarray(xi)[:, ::2] + 1, xi[:, ::2] + 1)


PROGRAM = r"""
import hashlib, json, numpy, mnn, mnn.numpy as mnp
out = []
for dt in ("uint8", "int16", "int32", "float32", "float64"):
    rng = numpy.random.default_rng(0)
    x = (rng.standard_normal((97, 1031)) * 50).astype(dt)
    X = mnp.asarray(x)
    for z in (X[:, ::2].copy(), X[:, ::-1].copy(), X[:, ::2] + 1, X[:, ::-1] * 2, X[::-2, ::2] * 3, X.T * 2,
              X.T.copy(), X[:, 1::3] + 1, X[:, ::2].astype("float64")):
        out.append(hashlib.sha1(numpy.ascontiguousarray(numpy.asarray(z)).tobytes()).hexdigest())
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_isa_matches_scalar(isa):
    assert run_under_isa(PROGRAM, isa) == run_under_isa(PROGRAM, "scalar")
