"""argmax/argmin against numpy, index for index.

The run kernel searches L1-sized chunks in one pass (lane-wise best values and the first block that
reached them); a later chunk only wins with a strictly better value; a NaN wins and the FIRST NaN's
index is returned; -0.0 and 0.0 tie (the first wins). Axis 0 of a row-major matrix takes the rows
kernel (per-column best and row), strided runs (reversed rows, transposed views) are gathered into a
buffer chunk by chunk. Lengths straddle the vector widths, the 4-vector blocks and the chunks of 64
blocks (4096 float32 / 16384 int8 elements at AVX-512, half that at AVX2), values are drawn from few
distinct values so ties are everywhere.
"""
import os

import numpy
import pytest

from helpers import run_under_isa

import mnn
import mnn.numpy as mnp

DTYPES = ["float32", "float64", "float16", "int8", "uint8", "int16", "int32", "int64", "bool"]
FLOATS = {"float32", "float64", "float16"}
SIZES = [1, 7, 97, 1031, 4097]
SHAPES_2D = [(1, 4097), (7, 1031), (97, 97), (1031, 7), (4097, 1), (3, 20011)]
VIEWS = {
    "contiguous": lambda x: x,
    "every_other_row": lambda x: x[::2],
    "transposed": lambda x: x.T,
    "reversed_columns": lambda x: x[:, ::-1],
    "reversed_rows_strided_columns": lambda x: x[::-1, 1::3],
}


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    old = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


def data(shape, dtype, seed, pattern="ties"):
    """Values with many ties; pattern adds the cases under test: type extremes / infinities,
    NaNs at the first, a middle, the last and several random positions, or all-equal rows."""
    rng = numpy.random.default_rng(seed)
    n = int(numpy.prod(shape))
    if dtype == "bool":
        a = rng.random(n) < (0.02 if pattern == "ties" else 0.5)
    elif dtype in FLOATS:
        a = rng.integers(-3, 4, n).astype(dtype)
        zeros = a == 0
        a[zeros] = numpy.where(rng.random(int(zeros.sum())) < 0.5, -0.0, 0.0).astype(dtype)  # -0.0/0.0 ties
    else:
        info = numpy.iinfo(dtype)
        a = rng.integers(max(info.min, -5), min(info.max, 5) + 1, n).astype(dtype)
    if pattern == "extremes" and n:
        k = rng.integers(0, n, max(1, n // 50))
        if dtype in FLOATS:
            a[k] = numpy.where(rng.random(k.size) < 0.5, numpy.inf, -numpy.inf).astype(dtype)
        elif dtype != "bool":
            info = numpy.iinfo(dtype)
            a[k] = numpy.where(rng.random(k.size) < 0.5, info.max, info.min).astype(dtype)
    if pattern == "nan" and n and dtype in FLOATS:
        a = a.reshape(shape)
        a[..., 0] = numpy.nan
        flat = a.reshape(-1)
        flat[rng.integers(0, n, max(1, n // 300))] = numpy.nan
        flat[n // 2] = -numpy.nan  # sign does not matter to argmax; first NaN wins
        flat[-1] = numpy.nan
        a = flat
    if pattern == "nan_late" and n and dtype in FLOATS:
        a[n - 1 - n // 7] = numpy.nan
        a[n - 1] = numpy.nan
    if pattern == "equal":
        a = numpy.full(n, a[0] if n else 0, dtype=dtype)
    return a.reshape(shape)


def check(got, want):
    g = numpy.asarray(got)
    assert isinstance(got, mnp.ndarray) or numpy.ndim(got) == 0
    assert g.shape == numpy.shape(want) and g.dtype == numpy.asarray(want).dtype, (g.shape, g.dtype)
    assert numpy.array_equal(g, want), f"indices differ from numpy:\n{g}\nvs\n{want}"


_HERE = os.path.dirname(os.path.abspath(__file__))
PATTERNS = ["ties", "extremes", "nan", "nan_late", "equal"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_1d_runs(dtype, threads):
    for n in SIZES + [8192 * 2 + 5, 150001]:
        for seed, pattern in enumerate(PATTERNS):
            a = data((n,), dtype, seed, pattern)
            m = mnp.asarray(a)
            for fn in ("argmax", "argmin"):
                check(getattr(mnp, fn)(m), getattr(numpy, fn)(a))
                check(getattr(m, fn)(axis=0), getattr(a, fn)(axis=0))
                check(getattr(m[::-1], fn)(), getattr(a[::-1], fn)())
                check(getattr(m[::3], fn)(), getattr(a[::3], fn)())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_2d_axes_and_views(dtype, view, threads):
    for i, shape in enumerate(SHAPES_2D):
        for pattern in PATTERNS:
            a = VIEWS[view](data(shape, dtype, 10 * i + PATTERNS.index(pattern), pattern))
            m = VIEWS[view](mnp.asarray(data(shape, dtype, 10 * i + PATTERNS.index(pattern), pattern)))
            if a.size == 0:  # a column slice of a one-column matrix (empty inputs: test_empty_raises)
                continue
            for fn in ("argmax", "argmin"):
                for axis in (None, 0, 1, -1):
                    check(getattr(m, fn)(axis=axis), getattr(a, fn)(axis=axis))


@pytest.mark.parametrize("dtype", DTYPES)
def test_3d_every_axis(dtype, threads):
    for shape in [(5, 7, 1031), (3, 97, 13), (2, 1, 4097)]:
        for seed, pattern in enumerate(PATTERNS):
            a = data(shape, dtype, 100 + seed, pattern)
            m = mnp.asarray(a)
            for fn in ("argmax", "argmin"):
                for axis in (None, 0, 1, 2, -1):
                    check(getattr(m, fn)(axis=axis), getattr(a, fn)(axis=axis))
                # a channel-first view of a channel-last buffer
                check(getattr(m.transpose(2, 0, 1), fn)(axis=-1), getattr(a.transpose(2, 0, 1), fn)(axis=-1))


def test_nan_positions_and_signed_zero_ties():
    for dt in ("float32", "float64", "float16"):
        for n in (7, 64, 97, 2048, 2049, 4097, 10000):
            for pos in (0, 1, n // 2, n - 1):
                a = numpy.zeros(n, dt)
                a[::2] = -0.0
                a[pos] = numpy.nan
                if pos + 3 < n:
                    a[pos + 3] = numpy.nan
                for fn in ("argmax", "argmin"):
                    assert int(getattr(mnp, fn)(mnp.asarray(a))) == int(getattr(numpy, fn)(a)) == pos
            z = numpy.zeros(n, dt)
            z[: n // 2] = -0.0
            for fn in ("argmax", "argmin"):  # -0.0 == 0.0: the first zero
                assert int(getattr(mnp, fn)(mnp.asarray(z))) == 0
            # an infinity is beaten only by a NaN; the best in a late chunk wins over an early one
            b = numpy.zeros(n, dt)
            b[n - 1] = numpy.inf
            b[0] = -numpy.inf
            assert int(mnp.argmax(mnp.asarray(b))) == n - 1 and int(mnp.argmin(mnp.asarray(b))) == 0


def test_int_limits():
    for dt in ("int8", "uint8", "int16", "int32", "int64"):
        info = numpy.iinfo(dt)
        for n in (7, 300, 8192 * 2 + 9):
            a = numpy.zeros(n, dt)
            a[n // 3] = info.max
            a[n - 1] = info.max
            a[n // 4] = info.min
            a[n - 2] = info.min
            m = mnp.asarray(a)
            assert int(mnp.argmax(m)) == int(numpy.argmax(a)) == n // 3
            assert int(mnp.argmin(m)) == int(numpy.argmin(a))


@pytest.mark.parametrize("dtype", ["float32", "int8", "bool"])
def test_keepdims_and_out(dtype):
    a = data((7, 97), dtype, 5)
    m = mnp.asarray(a)
    for fn in ("argmax", "argmin"):
        for axis in (None, 0, 1, -1):
            check(getattr(mnp, fn)(m, axis=axis, keepdims=True), getattr(numpy, fn)(a, axis=axis, keepdims=True))
        out = mnp.zeros(97, dtype="int64")
        r = getattr(mnp, fn)(m, axis=0, out=out)
        assert r is out
        check(out, getattr(numpy, fn)(a, axis=0))
        out2 = mnp.zeros((7, 1), dtype="int64")
        getattr(m, fn)(axis=1, out=out2, keepdims=True)
        check(out2, getattr(a, fn)(axis=1, keepdims=True))


def test_empty_raises_numpys_error():
    for fn in ("argmax", "argmin"):
        for shape, axis in [((0,), None), ((3, 0), 1), ((0, 4), 0), ((0, 4), None)]:
            a = numpy.zeros(shape, "float32")
            with pytest.raises(ValueError) as want:
                getattr(numpy, fn)(a, axis=axis)
            with pytest.raises(ValueError, match=rf"^\[mnn\.numpy\.{fn}\] attempt to get {fn} of an empty sequence$"):
                getattr(mnp, fn)(mnp.asarray(a), axis=axis)
            assert f"attempt to get {fn} of an empty sequence" in str(want.value)
        # reducing a non-empty axis of an empty array is fine (an empty result), as in numpy
        check(getattr(mnp, fn)(mnp.zeros((0, 4), "float32"), axis=1), getattr(numpy, fn)(numpy.zeros((0, 4), "float32"), axis=1))


PROGRAM = r"""
import json, sys
import numpy
sys.path.insert(0, 'tests')
from numpy_argreduce_cases import cases
import mnn, mnn.numpy as mnp
out = []
for threads in (1, 2):
    mnn.set_num_threads(threads)
    for a, axis, view in cases():
        m = mnp.asarray(a)
        for fn in ("argmax", "argmin"):
            g = numpy.asarray(getattr(view(m), fn)(axis=axis)).tolist()
            out.append(g)
print(json.dumps(out))
"""


def _cases_source():
    # the subprocess rebuilds the same cases from this file's generator
    return PROGRAM.replace(
        "sys.path.insert(0, 'tests')\nfrom numpy_argreduce_cases import cases",
        "sys.path[:0] = %r\nfrom test_argreduce11 import isa_cases as cases" % [_HERE, os.path.dirname(_HERE)],
    )


def isa_cases():
    for dt in DTYPES:
        for shape in [(7, 1031), (97, 97), (3, 20011), (1031, 7)]:
            for pattern in PATTERNS:
                a = data(shape, dt, 7, pattern)
                for axis in (None, 0, 1):
                    for view in (lambda x: x, lambda x: x[:, ::-1], lambda x: x.T):
                        yield a, axis, view


@pytest.mark.parametrize("isa", ["avx2", "avx512"])
def test_isas_match_scalar(isa):
    program = _cases_source()
    got, want = run_under_isa(program, isa), run_under_isa(program, "scalar")
    assert len(got) == len(want) > 1000
    assert got == want
    # and the scalar target agrees with numpy
    k = 0
    for threads in (1, 2):
        for a, axis, view in isa_cases():
            for fn in ("argmax", "argmin"):
                assert want[k] == numpy.asarray(getattr(view(a), fn)(axis=axis)).tolist()
                k += 1
