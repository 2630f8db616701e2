"""The AVX2 quicksort behind sort of float32/int32/uint32 rows (csrc/backends/cpu/kernels/sorting/
vector_quicksort*): bit-exact against numpy's stable sort (NaN payloads and signs of zeros in input
order) on every length 0..300 (the in-register network and the partition's tail handling), long
rows, inputs that defeat naive quicksorts (sorted, reversed, all equal, few unique, organ pipe),
NaN/inf/-0.0, views, inner axes, both thread counts, and under MNN_ISA=scalar (the radix sort)."""
import json

import numpy
import pytest

import mnn
import mnn.numpy as mnp
from helpers import run_under_isa

DTYPES = ["float32", "int32", "uint32"]
BITS = {"float32": "uint32", "float64": "uint64", "int32": "int32", "uint32": "uint32", "int64": "int64"}


def same(got, expected):
    """Bit-for-bit equality: for floats the sign of every zero and every NaN's payload too."""
    g, e = numpy.asarray(got), numpy.asarray(expected)
    assert g.shape == e.shape and g.dtype == e.dtype
    gb, eb = g.view(BITS[e.dtype.name]), e.view(BITS[e.dtype.name])
    if not numpy.array_equal(gb, eb):
        bad = numpy.argwhere(gb != eb)[:5]
        raise AssertionError(f"first mismatches at {bad.tolist()}: got {g[tuple(bad.T)]}, expected {e[tuple(bad.T)]}")


def random_values(n, dtype, rng):
    if dtype.startswith("float"):
        return rng.standard_normal(n).astype(dtype)
    info = numpy.iinfo(dtype)
    return rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)


def with_specials(x, rng, frac=0.2):
    """Sprinkles NaN (both signs, two payloads), +-inf, both zeros and the extremes."""
    if x.size == 0:
        return x
    x = x.copy()
    if x.dtype.kind == "f":
        bits = numpy.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FC00123], dtype=numpy.uint32).view(numpy.float32)
        vals = numpy.concatenate([bits.astype(x.dtype) if x.dtype == numpy.float32 else
                                  numpy.array([numpy.nan, -numpy.nan], dtype=x.dtype),
                                  numpy.array([numpy.inf, -numpy.inf, 0.0, -0.0, 0.0, -0.0], dtype=x.dtype),
                                  numpy.array([numpy.finfo(x.dtype).max, numpy.finfo(x.dtype).min,
                                               numpy.finfo(x.dtype).tiny], dtype=x.dtype)])
    else:
        info = numpy.iinfo(x.dtype)
        vals = numpy.array([info.min, info.max, 0, 1, info.max - 1], dtype=x.dtype)
    where = rng.random(x.size) < frac
    x[where] = vals[rng.integers(0, len(vals), size=int(where.sum()))]
    return x


def check(x):
    same(mnp.sort(mnp.asarray(x)), numpy.sort(x, kind="stable"))


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_short_length(dtype):
    """Lengths 0..300 cover each register count of the network (1, 2, 4, 8, 16 vectors), its
    padding, and partitions with every tail length."""
    rng = numpy.random.default_rng(1)
    for n in range(301):
        check(random_values(n, dtype, rng))
        check(with_specials(random_values(n, dtype, rng), rng, frac=0.3))


@pytest.mark.parametrize("dtype", DTYPES)
def test_fused_copy_pass_every_tail(dtype):
    """Rows from 4096 on take the copy fused with the first partition: every length mod 16, with
    NaN lanes (handled one by one) dense enough to leave the write gap at any size."""
    rng = numpy.random.default_rng(11)
    for n in range(4096, 4096 + 33):
        check(random_values(n, dtype, rng))
        check(with_specials(random_values(n, dtype, rng), rng, frac=0.4))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1000, 4099, 70_001, 300_007])
def test_long_rows(dtype, n):
    rng = numpy.random.default_rng(n)
    check(random_values(n, dtype, rng))
    check(with_specials(random_values(n, dtype, rng), rng, frac=0.05))


def adversarial(n, dtype, rng):
    """Inputs that break quicksorts with fixed or sampled pivots, or without equal-key handling."""
    base = numpy.sort(random_values(n, dtype, rng))
    few = random_values(3, dtype, rng)
    half = numpy.arange(n) % max(1, n // 2)
    organ = numpy.concatenate([numpy.arange(n // 2), numpy.arange(n - n // 2)[::-1]])
    yield "sorted", base
    yield "reversed", base[::-1].copy()
    yield "all equal", numpy.full(n, base[n // 2] if n else 0, dtype=dtype)
    yield "few unique", few[rng.integers(0, 3, size=n)]
    yield "two values", numpy.where(rng.random(n) < 0.01, few[0], few[1]).astype(dtype)
    yield "sawtooth", base[half]
    yield "organ pipe", base[organ]
    yield "sorted, one swap", numpy.concatenate([base[1:], base[:1]])
    yield "many zeros", numpy.where(rng.random(n) < 0.5, 0, base).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [129, 1000, 100_000])
def test_adversarial_inputs(dtype, n):
    rng = numpy.random.default_rng(7)
    for name, x in adversarial(n, dtype, rng):
        try:
            check(x)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None


def test_signed_zeros_and_nans_keep_input_order():
    """Zeros of both signs and NaNs of several payloads, interleaved: a stable sort keeps them in
    input order, and so must the quicksort's fix-ups (also on a long row and in place of a view)."""
    rng = numpy.random.default_rng(3)
    for n in (17, 130, 5000, 200_000):
        x = numpy.where(rng.random(n) < 0.5, numpy.float32(0.0), numpy.float32(-0.0))
        x[rng.random(n) < 0.3] = numpy.nan
        x[rng.random(n) < 0.1] = -numpy.nan
        x[rng.random(n) < 0.2] = rng.standard_normal(int((rng.random(n) < 0.2).sum()) or 1)[0]
        check(x)
        check(numpy.full(n, numpy.nan, dtype=numpy.float32))
        check(numpy.full(n, -0.0, dtype=numpy.float32))


@pytest.mark.parametrize("dtype", DTYPES)
def test_views_and_axes(dtype):
    """Strided rows (gathered into a scratch row), inner axes, many rows sorted in parallel."""
    rng = numpy.random.default_rng(5)
    x = with_specials(random_values(6 * 700 * 3, dtype, rng), rng, frac=0.1).reshape(6, 700, 3)
    for axis in (0, 1, 2, -1):
        same(mnp.sort(mnp.asarray(x), axis=axis), numpy.sort(x, axis=axis, kind="stable"))
    v = x[:, ::-3, 1]
    same(mnp.sort(mnp.asarray(x)[:, ::-3, 1], axis=1), numpy.sort(v, axis=1, kind="stable"))
    same(mnp.sort(mnp.asarray(x), axis=None), numpy.sort(x, axis=None, kind="stable"))
    big = random_values(40 * 3000, dtype, rng).reshape(40, 3000)
    same(mnp.sort(mnp.asarray(big)), numpy.sort(big, kind="stable"))
    same(mnp.sort(mnp.asarray(big), axis=0), numpy.sort(big, axis=0, kind="stable"))


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_long_row_on_two_threads(dtype):
    """A single long row is split by partition passes and its ranges sorted on the thread pool."""
    rng = numpy.random.default_rng(9)
    x = with_specials(random_values(400_000, dtype, rng), rng, frac=0.01)
    few = random_values(2, dtype, rng)[rng.integers(0, 2, size=300_000)]
    old = mnn.get_num_threads()
    try:
        for t in (1, 2, 3):
            mnn.set_num_threads(t)
            check(x)
            check(few)
            check(numpy.sort(x))
    finally:
        mnn.set_num_threads(old)


def test_scalar_isa_matches():
    """MNN_ISA=scalar keeps the radix sort for these dtypes; it must agree with the vector path."""
    program = """
import json, numpy, mnn.numpy as mnp
rng = numpy.random.default_rng(2)
out = {}
for dt in ("float32", "int32", "uint32"):
    for n in (100, 5000, 70000):
        x = (rng.standard_normal(n) * 1000).astype(dt) if dt == "float32" else rng.integers(0, 2**31 - 1, n).astype(dt)
        if dt == "float32":
            x[::7] = numpy.nan
            x[::11] = -0.0
            x[::13] = 0.0
        out[f"{dt}{n}"] = numpy.asarray(mnp.sort(mnp.asarray(x))).view(numpy.uint32).tolist()
print(json.dumps(out))
"""
    got = run_under_isa(program, "scalar")
    rng = numpy.random.default_rng(2)
    for dt in ("float32", "int32", "uint32"):
        for n in (100, 5000, 70000):
            x = (rng.standard_normal(n) * 1000).astype(dt) if dt == "float32" else rng.integers(0, 2**31 - 1, n).astype(dt)
            if dt == "float32":
                x[::7] = numpy.nan
                x[::11] = -0.0
                x[::13] = 0.0
            assert got[f"{dt}{n}"] == numpy.sort(x, kind="stable").view(numpy.uint32).tolist(), (dt, n)
            same(mnp.sort(mnp.asarray(x)), numpy.sort(x, kind="stable"))
