"""The SIMD reduction kernels (simd/reduce_kernels.cpp via kernels/reduce.cpp) against numpy: both
loop shapes (runs: reduced axis innermost; rows: kept axis innermost), odd lengths and vector
tails, misaligned and strided views, every dtype, NaN, threads, and every ISA against scalar."""

import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.numpy as mnp

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"]
OPS = ["sum", "prod", "max", "min", "any", "all", "argmax", "argmin"]


def data(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith("float"):
        return rng.standard_normal(shape).astype(dtype)
    info = numpy.iinfo(dtype)
    lo, hi = max(info.min, -100), min(info.max, 100)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def views(a):
    """name -> (numpy view, mnn view) of the same elements."""
    A = mnp.asarray(a)
    return {
        "contiguous": (a, A),
        "misaligned": (a[1:, 1:], A[1:, 1:]),
        "strided": (a[::2, ::3], A[::2, ::3]),
        "transposed": (a.T, A.T),
    }


def check(op, x, X, axis, exact_sums=True):
    with numpy.errstate(all="ignore"):
        want = getattr(x, op)(axis=axis)
        got = numpy.asarray(getattr(X, op)(axis=axis))
    assert got.dtype == want.dtype, (op, axis, got.dtype, want.dtype)
    if op == "sum" and want.dtype.kind == "f" and not exact_sums:
        # a strided view: numpy picks its own order (and rounds float16 per step); mnn sums in float
        half = want.dtype == numpy.float16
        numpy.testing.assert_allclose(got, want, rtol=1e-2 if half else 1e-6, atol=2e-2 if half else 1e-5)
    elif op == "prod" and want.dtype.kind == "f":
        # numpy multiplies in order; the kernel keeps several lanes of partial products
        numpy.testing.assert_allclose(got, want, rtol=4e-3 if want.dtype == numpy.float16 else 1e-5)
    else:
        numpy.testing.assert_array_equal(got, want, err_msg=f"{op} axis={axis}")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", OPS)
def test_against_numpy_every_dtype(op, dtype):
    # odd sizes: vector tails in both loop shapes; rows of 67 leave a tail after the 2-vector body
    a = data((45, 67), dtype)
    if op == "prod" and dtype.startswith("float"):
        a = (1 + a / 64).astype(dtype)
    for name, (x, X) in views(a).items():
        for axis in (0, 1, None):
            check(op, x, X, axis, exact_sums=name == "contiguous" or (axis is not None and name != "strided"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_float_sums_bit_exact_with_numpy(dtype):
    # numpy's pairwise order (runs) and in-order row accumulation (axis 0) are reproduced exactly
    for shape in [(1, 1), (3, 7), (129, 131), (64, 4096), (1000, 1031), (5, 100003)]:
        a = data(shape, dtype, seed=shape[1])
        A = mnp.asarray(a)
        for axis in (0, 1, None):
            numpy.testing.assert_array_equal(numpy.asarray(A.sum(axis=axis)), a.sum(axis=axis),
                                             err_msg=f"{shape} axis={axis}")


def test_long_sum_accuracy():
    a = (numpy.random.default_rng(3).random(1_000_003) * 1000).astype(numpy.float32)
    got = float(mnp.asarray(a).sum())
    numpy.testing.assert_allclose(got, float(a.sum()), rtol=1e-6)
    assert got == float(a.sum())
    numpy.testing.assert_allclose(got, float(a.astype(numpy.float64).sum()), rtol=1e-6)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_threads_do_not_change_results(threads):
    a = numpy.random.default_rng(4).standard_normal((700, 3001)).astype(numpy.float32)
    b = numpy.random.default_rng(5).standard_normal(3_000_017).astype(numpy.float32)
    b[2_900_000] = numpy.nan
    old = mnn.get_num_threads() if hasattr(mnn, "get_num_threads") else None
    mnn.set_num_threads(threads)
    try:
        A, B = mnp.asarray(a), mnp.asarray(b)
        for axis in (0, 1, None):
            numpy.testing.assert_array_equal(numpy.asarray(A.sum(axis=axis)), a.sum(axis=axis))
            numpy.testing.assert_array_equal(numpy.asarray(A.max(axis=axis)), a.max(axis=axis))
            numpy.testing.assert_array_equal(numpy.asarray(A.argmin(axis=axis)), a.argmin(axis=axis))
        assert float(B[:2_000_000].sum()) == float(b[:2_000_000].sum())
        assert int(B.argmax()) == 2_900_000 and int(B[:2_000_000].argmax()) == int(b[:2_000_000].argmax())
        assert numpy.isnan(float(B.max())) and numpy.isnan(float(B.min()))
        assert int(mnp.asarray(a.astype(numpy.int64) * 10**15).sum()) == int((a.astype(numpy.int64) * 10**15).sum())
    finally:
        if old is not None:
            mnn.set_num_threads(old)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_nan_positions(dtype):
    a = data((33, 70), dtype)
    a[5, 3] = numpy.nan    # early in a run and in a row
    a[20, 69] = numpy.nan  # in the column tail
    a[31, :] = numpy.nan   # a whole row
    A = mnp.asarray(a)
    for op in ("max", "min", "argmax", "argmin", "sum", "any", "all"):
        for axis in (0, 1, None):
            check(op, a, A, axis)
    # a NaN first, last, in a vector body and in a tail of long runs
    for pos in (0, 1, 31, 32, 1000, 4095, 4096, 9998):
        b = data(9999, dtype, seed=pos)
        b[pos] = numpy.nan
        B = mnp.asarray(b)
        assert int(B.argmax()) == pos and int(B.argmin()) == pos
        assert numpy.isnan(float(B.max())) and numpy.isnan(float(B.min()))


def test_argmax_first_of_ties_and_infinities():
    a = numpy.zeros(5000, numpy.float32)
    a[[7, 300, 4000]] = 5
    a[[9, 301]] = -numpy.inf
    assert int(mnp.asarray(a).argmax()) == 7 and int(mnp.asarray(a).argmin()) == 9
    m = numpy.zeros((50, 40), numpy.int32)
    m[[3, 10, 40], 5] = 9
    numpy.testing.assert_array_equal(numpy.asarray(mnp.asarray(m).argmax(axis=0)), m.argmax(axis=0))
    numpy.testing.assert_array_equal(numpy.asarray(mnp.asarray(m).argmin(axis=1)), m.argmin(axis=1))


def test_integer_wraparound():
    a = numpy.full((17, 1001), 2**62, numpy.int64)
    A = mnp.asarray(a)
    for axis in (0, 1, None):
        numpy.testing.assert_array_equal(numpy.asarray(A.sum(axis=axis)), a.sum(axis=axis))
    b = numpy.arange(1, 3001, dtype=numpy.int32).reshape(3, 1000)
    numpy.testing.assert_array_equal(numpy.asarray(mnp.asarray(b).sum(axis=1, dtype="int32")),
                                     b.sum(axis=1, dtype="int32"))
    numpy.testing.assert_array_equal(numpy.asarray(mnp.asarray(b).prod(axis=1)), b.prod(axis=1))
    u = numpy.full(1000, 2**63 + 5, numpy.uint64)
    assert int(mnp.asarray(u).sum()) == int(u.sum())
    assert int(mnp.asarray(u).max()) == int(u.max())


def test_any_all_truth_values():
    a = numpy.zeros((9, 300), numpy.float32)
    a[2, 5] = -0.0
    a[4, 299] = numpy.nan
    A = mnp.asarray(a)
    for op in ("any", "all"):
        for axis in (0, 1, None):
            check(op, a, A, axis)
    h = numpy.array([0.0, -0.0, 0.0] * 100, numpy.float16)
    assert bool(mnp.asarray(h).any()) is False
    h[-1] = 6e-8  # a subnormal is true
    assert bool(mnp.asarray(h).any()) is True


def test_other_geometries():
    a = data((6, 35, 41), "float32")
    A = mnp.asarray(a)
    for axis in (0, 1, 2, (0, 2), (1, 2), (0, 1)):
        numpy.testing.assert_allclose(numpy.asarray(A.sum(axis=axis)), a.sum(axis=axis), rtol=1e-6, atol=1e-5)
        numpy.testing.assert_array_equal(numpy.asarray(A.max(axis=axis)), a.max(axis=axis))
        numpy.testing.assert_array_equal(numpy.asarray(A.any(axis=axis)), a.any(axis=axis))
    for axis in (0, 1, 2):
        numpy.testing.assert_array_equal(numpy.asarray(A.argmax(axis=axis)), a.argmax(axis=axis))
        numpy.testing.assert_array_equal(numpy.asarray(A[:, ::2].argmin(axis=axis)), a[:, ::2].argmin(axis=axis))


PROGRAM = r"""
import json, sys
import numpy
import mnn.numpy as mnp
rng = numpy.random.default_rng(11)
out = {}
for dt in ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64"]:
    if dt == "bool":
        a = rng.random((67, 1031)) < 0.5
    else:
        a = (rng.standard_normal((67, 1031)) * (1 if dt[0] == "f" else 50)).astype(dt)
    if dt[0] == "f":
        a[3, 7] = numpy.nan
    A = mnp.asarray(a)
    for name, X in (("c", A), ("v", A[1:, 3:]), ("t", A.T)):
        for op in ["sum", "prod", "max", "min", "any", "all", "argmax", "argmin"]:
            for axis in (0, 1, None):
                r = numpy.asarray(getattr(X, op)(axis=axis)).astype("float64")
                out[f"{dt}.{name}.{op}.{axis}"] = [None if x != x else x for x in r.ravel().tolist()]
json.dump(out, sys.stdout)
"""


def run_with(isa):
    return run_under_isa(PROGRAM, isa)


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_isa_reductions_match_scalar(isa):
    # lane arithmetic is exact IEEE in every target, so every result is bit-identical
    ref, got = run_with("scalar"), run_with(isa)
    assert ref.keys() == got.keys()
    for key in ref:
        assert ref[key] == got[key], key
