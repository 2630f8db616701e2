"""GEMM paths reworked in session 9 against numpy.

- Matrix-vector kernels (explicit vectors): A @ x sums lane-wise (lane l takes the k = l mod L
  terms in order, then the lanes pairwise) and x @ A adds each column's terms one at a time in k
  order. Both orders are replayed here in numpy with the same dtype, so the results must be
  bit-identical, for every size around the vector width, the four-row block and the 16 KiB
  column chunk, strided operands, and at 1 and 2 threads.
- The packed GEMM: each task packs its A block into a per-thread buffer, and row blocks are
  balanced over threads; tiles at every depth around the 4-step unrolled k loop. Checked against float64 numpy with an error bound scaled by k, and
  bitwise across thread counts.
"""

import numpy
import pytest

import mnn
import mnn.numpy as mnp

# Vector register bytes of each ISA's GEMM kernels (simd/gemm_kernels.cpp, kVecBytes).
VEC_BYTES = {"scalar": 16, "avx2": 32, "avx512": 64, "neon": 16}


@pytest.fixture(params=["float32", "float64"])
def dt(request):
    return request.param


@pytest.fixture(params=[1, 2])
def threads(request):
    before = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(before)


def rand(rng, shape, dt):
    return rng.standard_normal(shape).astype(dt)


def lanes(dt):
    return 2 * VEC_BYTES[mnn._core.isa()] // numpy.dtype(dt).itemsize


def rows_reference(a, x):
    """y[i] = sum_k a[i, k] x[k] in the kernel's order: lane sums, then pairwise."""
    m, k = a.shape
    L = lanes(a.dtype)
    s = numpy.zeros((m, L), a.dtype)
    prod = a * x  # one rounding per product, as the kernel (no FMA contraction)
    for k0 in range(0, k, L):
        blk = prod[:, k0:k0 + L]
        s[:, :blk.shape[1]] = s[:, :blk.shape[1]] + blk
    w = L // 2
    while w >= 1:
        s[:, :w] = s[:, :w] + s[:, w:2 * w]
        w //= 2
    return s[:, 0]


def cols_reference(x, b):
    """y[j] = sum_k x[k] b[k, j], terms added in k order (a single column is a dot product: the
    row kernel's order)."""
    if b.shape[1] == 1:
        return rows_reference(b.T.copy(), x)
    y = numpy.zeros(b.shape[1], b.dtype)
    for k in range(b.shape[0]):
        y = y + x[k] * b[k]
    return y


def same(got, want):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)


EDGE = list(range(1, 34))


@pytest.mark.parametrize("k", EDGE)
def test_matvec_rows_exact(k, dt, threads):
    rng = numpy.random.default_rng(k)
    for m in (1, 3, 4, 5, 8, 33):
        a, x = rand(rng, (m, k), dt), rand(rng, (k,), dt)
        same(mnp.asarray(a) @ mnp.asarray(x), rows_reference(a, x))
        # x @ B with B's columns contiguous (B = C.T) takes the same kernel over C's rows
        same(mnp.asarray(x) @ mnp.asarray(a.copy()).T, rows_reference(a, x))


@pytest.mark.parametrize("n", EDGE)
def test_matvec_cols_exact(n, dt, threads):
    rng = numpy.random.default_rng(100 + n)
    for k in (1, 2, 3, 4, 5, 8, 9, 33):
        b, x = rand(rng, (k, n), dt), rand(rng, (k,), dt)
        same(mnp.asarray(x) @ mnp.asarray(b), cols_reference(x, b))
        # A @ x with A's rows strided and columns contiguous (A = B.T) takes the same kernel
        same(mnp.asarray(b.copy()).T @ mnp.asarray(x), cols_reference(x, b))


@pytest.mark.parametrize("k,n", [(5, 4095), (7, 4097), (9, 8200), (6, 2049), (3, 12289)])
def test_matvec_cols_chunks(k, n, dt, threads):
    # past the 16 KiB column chunk (4096 float32 / 2048 float64 columns) with a vector tail
    rng = numpy.random.default_rng(n)
    b, x = rand(rng, (k, n), dt), rand(rng, (k,), dt)
    same(mnp.asarray(x) @ mnp.asarray(b), cols_reference(x, b))


def test_matvec_strided_operands(dt, threads):
    rng = numpy.random.default_rng(4)
    big = rand(rng, (70, 90), dt)
    v = rand(rng, (200,), dt)
    a = big[3:40, 5:74]  # rows 90 apart: row stride != k
    x = v[1:139:2]  # a strided vector is copied to a contiguous one
    same(mnp.asarray(big)[3:40, 5:74] @ mnp.asarray(v)[1:139:2], rows_reference(a, x))
    bt = big[2:69, 7:50]
    y = v[:67]
    same(mnp.asarray(v)[:67] @ mnp.asarray(big)[2:69, 7:50], cols_reference(y, bt))
    # reversed vector (negative stride)
    xr = v[::-1][:69]
    same(mnp.asarray(big)[3:40, 5:74] @ mnp.asarray(v)[::-1][:69], rows_reference(a, numpy.ascontiguousarray(xr)))


def test_matvec_batched(dt, threads):
    rng = numpy.random.default_rng(8)
    a, x = rand(rng, (5, 17, 29), dt), rand(rng, (5, 29, 1), dt)
    got = numpy.asarray(mnp.asarray(a) @ mnp.asarray(x))
    for i in range(5):
        same(got[i, :, 0], rows_reference(a[i], x[i, :, 0]))
    xs, b = rand(rng, (3, 1, 21), dt), rand(rng, (3, 21, 30), dt)
    got = numpy.asarray(mnp.asarray(xs) @ mnp.asarray(b))
    for i in range(3):
        same(got[i, 0], cols_reference(xs[i, 0], b[i]))


def test_matvec_zero_k_and_special(dt, threads):
    same(mnp.asarray(numpy.ones((7, 0), dt)) @ mnp.asarray(numpy.ones((0,), dt)), numpy.zeros(7, dt))
    same(mnp.asarray(numpy.ones((0,), dt)) @ mnp.asarray(numpy.ones((0, 9), dt)), numpy.zeros(9, dt))
    a = numpy.ones((6, 40), dt)
    a[2, 17] = numpy.inf
    a[4, 3] = numpy.nan
    x = numpy.ones(40, dt)
    got = numpy.asarray(mnp.asarray(a) @ mnp.asarray(x))
    numpy.testing.assert_array_equal(got, a @ x)
    got = numpy.asarray(mnp.asarray(x) @ mnp.asarray(a.T.copy()))
    numpy.testing.assert_array_equal(got, x @ a.T)


def check_gemm(a, b, dt):
    got = numpy.asarray(mnp.asarray(a) @ mnp.asarray(b))
    a64, b64 = a.astype("float64"), b.astype("float64")
    want = a64 @ b64
    assert got.dtype == numpy.dtype(dt) and got.shape == want.shape
    k = a.shape[-1]
    eps = numpy.finfo(dt).eps
    bound = 2 * eps * (k + 2) * (numpy.abs(a64) @ numpy.abs(b64)) + numpy.finfo(dt).tiny
    assert numpy.all(numpy.abs(got - want) <= bound)
    return got


@pytest.mark.parametrize("k", EDGE + [63, 64, 65, 255, 256, 257, 300])
def test_full_tiles_every_depth(k, dt, threads):
    # whole 6 x 16 (float32) / 6 x 8 (float64) tiles go straight to C, partial ones through a
    # buffer; the k loop runs 4 steps at a time plus a remainder; depths past 256 accumulate
    rng = numpy.random.default_rng(k)
    for m, n in [(12, 32), (36, 48), (7, 17), (13, 33)]:
        check_gemm(rand(rng, (m, k), dt), rand(rng, (k, n), dt), dt)


@pytest.mark.parametrize("m", [145, 289, 433, 1000, 2048])
def test_row_blocks_and_threads(m, dt):
    # several row blocks (the per-thread packed A block), balanced differently per thread count;
    # the depth order never changes, so every thread count gives the same bits
    rng = numpy.random.default_rng(m)
    k, n = (300, 37) if m < 2048 else (40, 50)
    a, b = rand(rng, (m, k), dt), rand(rng, (k, n), dt)
    before = mnn.get_num_threads()
    try:
        res = []
        for nt in (1, 2, 3):
            mnn.set_num_threads(nt)
            res.append(check_gemm(a, b, dt))
        numpy.testing.assert_array_equal(res[0], res[1])
        numpy.testing.assert_array_equal(res[0], res[2])
    finally:
        mnn.set_num_threads(before)


def test_gemm_non_contiguous_and_batched(dt, threads):
    rng = numpy.random.default_rng(12)
    big_a, big_b = rand(rng, (400, 300), dt), rand(rng, (300, 260), dt)
    got = numpy.asarray(mnp.asarray(big_a)[1:390:2, ::3] @ mnp.asarray(big_b)[:100, 7:250])
    want = big_a[1:390:2, ::3].astype("float64") @ big_b[:100, 7:250].astype("float64")
    scale = numpy.abs(big_a[1:390:2, ::3]).astype("float64") @ numpy.abs(big_b[:100, 7:250]).astype("float64")
    assert numpy.all(numpy.abs(got - want) <= 2 * numpy.finfo(dt).eps * 102 * scale)
    a, b = rand(rng, (3, 150, 70), dt), rand(rng, (3, 70, 90), dt)
    got = numpy.asarray(mnp.asarray(a) @ mnp.asarray(b))
    for i in range(3):
        numpy.testing.assert_array_equal(got[i], numpy.asarray(mnp.asarray(a[i]) @ mnp.asarray(b[i])))
        check_gemm(a[i], b[i], dt)


def test_gemm_zero_k(dt, threads):
    got = numpy.asarray(mnp.asarray(numpy.ones((200, 0), dt)) @ mnp.asarray(numpy.ones((0, 300), dt)))
    numpy.testing.assert_array_equal(got, numpy.zeros((200, 300), dt))
