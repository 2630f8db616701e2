"""Row regions (planner find_regions + backends/cpu/region.cpp): elementwise work and last-axis
reductions planned as one step that runs block by block of rows, so softmax and (x - mean) / std
read their input once and write once. Results must equal the op-by-op results (numpy's)."""
import numpy
import pytest

import mnn
import mnn.numpy as np


def softmax(m, x):
    e = m.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def standardize(m, x):
    return (x - x.mean(-1, keepdims=True)) / x.std(-1, keepdims=True)


def layer_norm(m, x, w, b):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / m.sqrt(var + 1e-5) * w + b


def logsumexp(m, x):
    mx = x.max(-1, keepdims=True)
    return m.log(m.exp(x - mx).sum(-1)) + mx[..., 0]


def run(fn, *args):
    mnn.engine.reset_stats()
    out = fn(np, *[np.asarray(a) for a in args])
    mnn.eval(out)
    return numpy.asarray(out), mnn.engine.stats()


SHAPES = [(4096, 1024), (7, 33), (3, 5, 129), (1000,), (2, 1, 3000)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("fn", [softmax, standardize, logsumexp])
def test_region_matches_numpy_in_one_step(fn, shape):
    x = numpy.random.default_rng(0).standard_normal(shape).astype(numpy.float32)
    got, s = run(fn, x)
    with numpy.errstate(all="ignore"):
        want = fn(numpy, x)
    assert got.shape == want.shape and got.dtype == want.dtype
    numpy.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7)
    assert s["last_steps"] == 1  # the whole computation is one region step
    assert s["arena_bytes"] == 0  # no intermediate ever reaches memory


@pytest.mark.parametrize("dtype", ["float64", "float16"])
def test_region_other_float_dtypes_are_exact(dtype):
    x = numpy.random.default_rng(1).standard_normal((37, 65)).astype(dtype)
    got, s = run(standardize, x)
    want = standardize(numpy, x)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(got, want)


def test_integer_input_averages_in_float64_like_numpy():
    x = numpy.arange(60, dtype=numpy.int16).reshape(6, 10) * 7 % 13
    got, _ = run(standardize, x)
    numpy.testing.assert_array_equal(got, standardize(numpy, x))


def test_layer_norm_with_weight_and_bias_vectors():
    rng = numpy.random.default_rng(2)
    x = rng.standard_normal((64, 96)).astype(numpy.float32)
    w = rng.standard_normal(96).astype(numpy.float32)
    b = rng.standard_normal(96).astype(numpy.float32)
    got, s = run(layer_norm, x, w, b)
    numpy.testing.assert_allclose(got, layer_norm(numpy, x, w, b), rtol=1e-5, atol=1e-6)
    assert s["last_steps"] == 1


def test_noncontiguous_and_broadcast_inputs():
    base = numpy.random.default_rng(3).standard_normal((40, 300)).astype(numpy.float32)
    x = base[::-2, 1::2]  # negative row stride, strided columns
    got, _ = run(standardize, x)
    numpy.testing.assert_array_equal(got, standardize(numpy, x))
    row = numpy.random.default_rng(4).standard_normal(77).astype(numpy.float32)
    xb = numpy.broadcast_to(row, (5, 77))  # every row the same, zero row stride
    got, _ = run(softmax, xb)
    numpy.testing.assert_allclose(got, softmax(numpy, xb), rtol=2e-6, atol=1e-7)


def test_values_needed_outside_stay_correct():
    x = numpy.random.default_rng(5).standard_normal((33, 50)).astype(numpy.float32)
    a = np.asarray(x)
    m = a.max(-1, keepdims=True)
    e = np.exp(a - m)
    y = e / e.sum(-1, keepdims=True)
    mnn.eval(y, m, e)  # m and e are results too: they must be written out
    numpy.testing.assert_array_equal(numpy.asarray(m), x.max(-1, keepdims=True))
    numpy.testing.assert_allclose(numpy.asarray(e), numpy.exp(x - x.max(-1, keepdims=True)), rtol=2e-6)
    numpy.testing.assert_allclose(numpy.asarray(y), softmax(numpy, x), rtol=2e-6, atol=1e-7)


def test_repeated_runs_hit_the_plan_cache():
    x = np.asarray(numpy.random.default_rng(6).standard_normal((128, 64)).astype(numpy.float32))
    mnn.eval(softmax(np, x))
    mnn.engine.reset_stats()
    for _ in range(5):
        mnn.eval(softmax(np, x))
    s = mnn.engine.stats()
    assert s["plan_hits"] == 5 and s["plan_misses"] == 0


def test_threads_give_identical_bits():
    x = numpy.random.default_rng(7).standard_normal((513, 257)).astype(numpy.float32)
    before = mnn.get_num_threads()
    try:
        mnn.set_num_threads(1)
        one, _ = run(standardize, x)
        mnn.set_num_threads(2)
        two, _ = run(standardize, x)
    finally:
        mnn.set_num_threads(before)
    numpy.testing.assert_array_equal(one, two)


def test_softmax_gradient_matches_torch():
    torch = pytest.importorskip("torch")
    x0 = numpy.random.default_rng(8).standard_normal((6, 10))
    w = numpy.random.default_rng(9).standard_normal((6, 10))
    x = np.array(x0, requires_grad=True)
    (softmax(np, x) * np.asarray(w)).sum().backward()
    tx = torch.tensor(x0, requires_grad=True)
    (torch.softmax(tx, -1) * torch.tensor(w)).sum().backward()
    numpy.testing.assert_allclose(numpy.asarray(x.grad), tx.grad.numpy(), rtol=1e-10, atol=1e-12)


# ---- the exp(x - m) row kernel (region.cpp run_exp_shift, vmath exp_shifted / exp_sum_shifted) ----
# Softmax's exp(x - max) runs as one float32 kernel, and the row sum that follows is taken in the
# same pass in numpy's pairwise order. Both must give the bits of the op-by-op evaluation.

def _op_by_op_softmax(x):
    xm = np.asarray(x)
    m = xm.max(-1, keepdims=True)
    mnn.eval(m)
    e = np.exp(xm - m)
    mnn.eval(e)
    s = e.sum(-1, keepdims=True)
    mnn.eval(s)
    y = e / s
    mnn.eval(y)
    return numpy.asarray(e), numpy.asarray(s), numpy.asarray(y)


@pytest.mark.parametrize("cols", [8, 9, 15, 16, 100, 128, 129, 136, 1000, 1024, 2049, 3000, 16384, 16385])
@pytest.mark.parametrize("scale", [1.0, 60.0])  # 60: many x - max below -87, exps subnormal or 0
def test_softmax_row_kernel_equals_op_by_op_bits(cols, scale):
    x = (numpy.random.default_rng(cols).standard_normal((6, cols)) * scale).astype(numpy.float32)
    e1, s1, y1 = _op_by_op_softmax(x)
    got, st = run(softmax, x)
    assert st["last_steps"] == 1
    numpy.testing.assert_array_equal(got, y1)
    lse, _ = run(lambda m, v: m.exp(v - v.max(-1, keepdims=True)).sum(-1), x)  # region ending in the sum
    numpy.testing.assert_array_equal(lse, s1[:, 0])
    with numpy.errstate(all="ignore"):
        want = softmax(numpy, x)
    numpy.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-30)


def test_softmax_row_kernel_non_finite_rows():
    x = numpy.random.default_rng(5).standard_normal((6, 300)).astype(numpy.float32)
    x[0, 7] = numpy.nan
    x[1, 3] = numpy.inf
    x[2, :] = -numpy.inf
    x[3, 10] = -numpy.inf
    x[4, 299] = 100.0
    with numpy.errstate(all="ignore"):
        want = softmax(numpy, x)
        got, _ = run(softmax, x)
        _, _, y1 = _op_by_op_softmax(x)
    numpy.testing.assert_array_equal(got, y1)
    numpy.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-30)


def test_exp_sum_row_kernel_overflow_matches_op_by_op():
    # exp(x - row min) overflows: the row falls back to the program, the sum to the reduction
    x = numpy.stack([numpy.linspace(0.0, hi, 256, dtype=numpy.float32) for hi in (200.0, 50.0, 89.0, 10.0)])
    with numpy.errstate(all="ignore"):
        got, _ = run(lambda m, v: m.exp(v - v.min(-1, keepdims=True)).sum(-1), x)
        want = numpy.exp(x - x.min(-1, keepdims=True)).sum(-1)
    assert numpy.isinf(got[0]) and numpy.isinf(want[0])
    numpy.testing.assert_allclose(got, want, rtol=2e-6)


@pytest.mark.parametrize("shape", [(300, 257), (2100, 1100)])  # the second: streamed out (> 8 MB)
def test_kept_intermediate_is_a_side_output_of_the_region(shape):
    # e held by the caller (the plain-ops softmax keeps it in a variable): still one region step,
    # which writes e to its own buffer as it goes; e and y both equal the op-by-op results
    x = numpy.random.default_rng(11).standard_normal(shape).astype(numpy.float32)
    xm = np.asarray(x)
    mnn.engine.reset_stats()
    e = np.exp(xm - xm.max(-1, keepdims=True))
    d = xm - xm.mean(-1, keepdims=True)  # a kept value inside a fused program of its own region
    y = e / e.sum(-1, keepdims=True)
    z = d / xm.std(-1, keepdims=True)
    mnn.eval(y, z)
    assert mnn.engine.stats()["last_steps"] == 2 and mnn.engine.stats()["arena_bytes"] == 0
    e1, _, y1 = _op_by_op_softmax(x)
    numpy.testing.assert_array_equal(numpy.asarray(e), e1)
    numpy.testing.assert_array_equal(numpy.asarray(y), y1)
    numpy.testing.assert_allclose(numpy.asarray(d), x - x.mean(-1, keepdims=True), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(numpy.asarray(z), standardize(numpy, x), rtol=1e-5, atol=1e-6)
    e[0, 0] = 5.0  # the side output is an ordinary array of its own
    assert float(numpy.asarray(e)[0, 0]) == 5.0 and numpy.asarray(y)[0, 0] == y1[0, 0]


# ---- large regions (region.cpp): the next block's rows prefetched while a block computes, the
# result's rows written with streaming stores as they are made, IEEE flags read once per block ----

def _warnings_of(fn):
    import warnings
    with warnings.catch_warnings(record=True) as w, mnp_errstate_warn():
        warnings.simplefilter("always")
        out = fn()
    return out, sorted({str(x.message) for x in w})


def mnp_errstate_warn():
    return np.errstate(all="warn")


def _special_rows(shape, seed, kind):
    x = (numpy.random.default_rng(seed).standard_normal(shape) * 3).astype(numpy.float32)
    r = shape[0]
    x[r // 2 + 3, 7] = numpy.nan  # NaN propagates, no flag
    if kind == "softmax":
        x[1, 5] = numpy.inf        # inf - inf in the subtract: invalid
        x[r // 2, :] = -numpy.inf  # a row of -inf: -inf - -inf
        x[r - 5, 9] = 1e30         # exp(x - max) underflows to 0 across the row
    else:
        x[r - 2, :] = 2.5          # a constant row: std 0, 0 / 0 in the division
    return x


# One source of flags per region: a region that raises the same flag in two of its ops names one
# of them (errstate attribution is per step), where op by op names both.
@pytest.mark.parametrize("shape", [(2100, 1100), (1030, 2048), (333, 100)])
def test_large_softmax_and_standardize_bits_and_warnings_match_op_by_op(shape):
    xs = _special_rows(shape, 12, "softmax")
    xd = _special_rows(shape, 12, "std")

    def region(fn, x):
        def f():
            y = fn(np, np.asarray(x))
            mnn.eval(y)
            return numpy.asarray(y)
        return f

    def steps_std():
        xm = np.asarray(xd)
        mu = xm.mean(-1, keepdims=True)
        mnn.eval(mu)
        sd = xm.std(-1, keepdims=True)
        mnn.eval(sd)
        d = xm - mu
        mnn.eval(d)
        y = d / sd
        mnn.eval(y)
        return numpy.asarray(y)

    for fn, x, steps in ((softmax, xs, lambda: _op_by_op_softmax(xs)[2]), (standardize, xd, steps_std)):
        mnn.engine.reset_stats()
        got, w_got = _warnings_of(region(fn, x))
        assert mnn.engine.stats()["last_steps"] == 1
        want, w_want = _warnings_of(steps)
        assert w_got == w_want and len(w_got) == 1  # the flag comes up, named as op by op
        numpy.testing.assert_array_equal(got.view(numpy.uint32), want.view(numpy.uint32))


@pytest.mark.parametrize("kept", [False, True])
def test_large_softmax_dead_or_kept_exp_gives_the_same_bits(kept):
    # numpy's function body (e dead once it returns) and the same code with e still held
    x = (numpy.random.default_rng(13).standard_normal((2100, 1100)) * 4).astype(numpy.float32)
    xm = np.asarray(x)
    e1, _, y1 = _op_by_op_softmax(x)
    if kept:
        e = np.exp(xm - xm.max(-1, keepdims=True))
        y = e / e.sum(-1, keepdims=True)
        mnn.eval(y)
        numpy.testing.assert_array_equal(numpy.asarray(e), e1)
    else:
        y = softmax(np, xm)
        mnn.eval(y)
    numpy.testing.assert_array_equal(numpy.asarray(y), y1)


def test_large_softmax_threads_and_row_views():
    base = (numpy.random.default_rng(14).standard_normal((2200, 2100)) * 2).astype(numpy.float32)
    x = base[::2, 3:2051]  # strided rows, unaligned start: prefetched row by row, stored unaligned
    _, _, y1 = _op_by_op_softmax(numpy.ascontiguousarray(x))
    before = mnn.get_num_threads()
    try:
        for t in (1, 2):
            mnn.set_num_threads(t)
            got, _ = run(softmax, x)
            numpy.testing.assert_array_equal(got, y1)
    finally:
        mnn.set_num_threads(before)


def test_large_standardize_in_place_over_a_temporary_with_a_flag():
    # the result written over its own dead input (an mnn-owned leaf nothing else holds): the block
    # whose division raises must still be recomputed from intact rows
    x = (numpy.random.default_rng(15).standard_normal((2100, 1100)) * 3).astype(numpy.float32)
    x[700, :] = 2.5  # std 0: 0 / 0

    def region():
        def body():
            h = np.array(x)
            mnn.eval(h)
            return standardize(np, h)
        y = body()
        mnn.eval(y)
        return numpy.asarray(y)

    def steps():
        h = np.array(x)
        mu = h.mean(-1, keepdims=True)
        mnn.eval(mu)
        sd = h.std(-1, keepdims=True)
        mnn.eval(sd)
        y = (h - mu) / sd
        mnn.eval(y)
        return numpy.asarray(y)

    got, w_got = _warnings_of(region)
    want, w_want = _warnings_of(steps)
    assert w_got == w_want == ["invalid value encountered in divide"]
    numpy.testing.assert_array_equal(got.view(numpy.uint32), want.view(numpy.uint32))
    assert numpy.isnan(got[700]).all() and numpy.isfinite(got[701]).all()


def test_large_softmax_in_place_over_a_temporary_with_a_flag():
    # softmax written over its own dead input: a block whose subtract raises (inf - inf) is run again
    # step by step, so it must still find its input rows intact (the rows after the flagged ones)
    x = (numpy.random.default_rng(17).standard_normal((2100, 1100)) * 3).astype(numpy.float32)
    x[700, 5] = numpy.inf
    x[701, :] = -numpy.inf

    def region():
        h = np.array(x)
        mnn.eval(h)
        y = softmax(np, h)
        del h
        mnn.eval(y)
        return numpy.asarray(y)

    got, w_got = _warnings_of(region)
    want, w_want = _warnings_of(lambda: _op_by_op_softmax(x)[2])
    assert w_got == w_want == ["invalid value encountered in subtract"]
    same = (got == want) | (numpy.isnan(got) & numpy.isnan(want))
    assert same.all(), numpy.nonzero(~same.all(1))[0][:8]
    assert numpy.isnan(got[700:702]).all() and numpy.isfinite(got[702:]).all()


# Rows long enough to stream (the result over 8 MB): each row's e / s is done between the next
# row's exps (vmath exp_sum_div_f32); row lengths cover short rows, unaligned row starts and tails.
@pytest.mark.parametrize("cols", [8, 63, 100, 1024, 1029, 4100])
def test_large_softmax_interleaved_division_equals_op_by_op_bits(cols):
    rows = (8 << 20) // (4 * cols) + 5
    x = (numpy.random.default_rng(cols).standard_normal((rows, cols)) * 5).astype(numpy.float32)
    _, _, y1 = _op_by_op_softmax(x)
    before = mnn.get_num_threads()
    try:
        for t in (1, 2):
            mnn.set_num_threads(t)
            got, st = run(softmax, x)
            assert st["last_steps"] == 1
            numpy.testing.assert_array_equal(got.view(numpy.uint32), y1.view(numpy.uint32))
    finally:
        mnn.set_num_threads(before)
    numpy.testing.assert_allclose(got, softmax(numpy, x), rtol=2e-6, atol=1e-30)


ROW_CHAINS = {
    "(m - x) / s": lambda x, m, s: (m - x) / s,
    "s / (x + m)": lambda x, m, s: s / (x + m),
    "x * m + s": lambda x, m, s: x * m + s,
    "x / s - m": lambda x, m, s: x / s - m,
    "(x - m) * s - m": lambda x, m, s: (x - m) * s - m,
}


@pytest.mark.parametrize("name", list(ROW_CHAINS))
@pytest.mark.parametrize("shape", [(2100, 1100), (1050, 2047), (40, 1001)])  # streamed, odd rows, small
def test_row_chain_results_equal_op_by_op(name, shape):
    # the result step as the table's row kernel (simd/row_kernels.cpp): each operand order and op
    x = (numpy.random.default_rng(16).standard_normal(shape) * 3).astype(numpy.float32)
    x[3, 4] = numpy.nan
    xm = np.asarray(x)
    fn = ROW_CHAINS[name]
    mnn.engine.reset_stats()
    y = fn(xm, xm.max(-1, keepdims=True), xm.sum(-1, keepdims=True))
    mnn.eval(y)
    assert mnn.engine.stats()["last_steps"] == 1
    m = xm.max(-1, keepdims=True)
    s = xm.sum(-1, keepdims=True)
    mnn.eval(m, s)
    with np.errstate(all="ignore"):
        want = fn(xm, m, s)
        mnn.eval(want)
    numpy.testing.assert_array_equal(numpy.asarray(y).view(numpy.uint32), numpy.asarray(want).view(numpy.uint32))
    with numpy.errstate(all="ignore"):
        ref = fn(x, x.max(-1, keepdims=True), x.sum(-1, keepdims=True))
    numpy.testing.assert_allclose(numpy.asarray(y), ref, rtol=1e-5, atol=1e-5)
