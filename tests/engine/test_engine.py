"""The engine's promises, asserted on mnn.engine.stats(): plan caching, fusion without
temporaries, in-place reuse, CSE, bounded graphs, lazy shapes, errors at the right line."""
import numpy
import pytest

import mnn
import mnn.numpy as mnp
from helpers import assert_same


def fresh_stats():
    mnn.engine.reset_stats()
    return mnn.engine.stats()


def test_shape_and_dtype_do_not_evaluate():
    a = mnp.ones((3, 4), dtype=mnp.float32)
    fresh_stats()
    b = (a * 2 + 1).T
    assert b.shape == (4, 3) and b.dtype == mnp.float32
    assert mnn.engine.stats()["evals"] == 0
    assert not b._is_evaluated()


def test_shape_errors_raise_at_record_time():
    a, b = mnp.ones((3,)), mnp.ones((4,))
    fresh_stats()
    with pytest.raises(ValueError, match="could not be broadcast"):
        a + b
    with pytest.raises(ValueError, match="cannot reshape"):
        a.reshape(2, 2)
    assert mnn.engine.stats()["evals"] == 0


def test_repeated_work_hits_the_plan_cache():
    rng = numpy.random.default_rng(0)
    mnn.engine.clear_plan_cache()
    fresh_stats()
    for i in range(20):
        x = rng.random((64, 32), dtype=numpy.float32)
        y = rng.random((64, 32), dtype=numpy.float32)
        r = mnp.tanh(mnp.asarray(x) * 0.5 + mnp.asarray(y)).sum(axis=1)
        assert_same(r, numpy.tanh(x * numpy.float32(0.5) + y).sum(axis=1), rtol=1e-5)
    s = mnn.engine.stats()
    assert s["plan_misses"] == 1
    assert s["plan_hits"] == 19


def test_new_scalar_values_reuse_the_plan():
    # Python scalars are 0-d inputs, not constants baked into the plan (a new learning rate is not a new plan)
    a = mnp.arange(10, dtype=mnp.float32)
    mnn.eval(a)
    mnn.engine.clear_plan_cache()
    fresh_stats()
    for lr in (0.1, 0.01, 0.001):
        assert_same(a * lr, numpy.arange(10, dtype=numpy.float32) * numpy.float32(lr))
    assert mnn.engine.stats()["plan_misses"] == 1


def test_chain_runs_as_one_fused_group_without_temporaries():
    n = 1 << 16
    rng = numpy.random.default_rng(1)
    a, b, c = (rng.random(n, dtype=numpy.float32) for _ in range(3))
    A, B, C = mnp.asarray(a), mnp.asarray(b), mnp.asarray(c)
    fresh_stats()
    r = A * B + C * 2.0 - mnp.sqrt(mnp.abs(A))
    mnn.eval(r)
    s = mnn.engine.stats()
    assert s["last_steps"] == 1 and s["last_fused_groups"] == 1
    assert s["arena_bytes"] == 0                     # no intermediate touched memory
    assert s["output_bytes"] == n * 4                # only the result was allocated
    assert_same(r, a * b + c * numpy.float32(2.0) - numpy.sqrt(numpy.abs(a)), rtol=1e-6)


def test_common_subexpressions_are_computed_once():
    a = mnp.arange(1000, dtype=mnp.float64)
    b = mnp.ones(1000)
    mnn.eval(a, b)
    fresh_stats()
    r = (a + b) * (a + b) + mnp.exp(a * 0.001) + mnp.exp(a * 0.001)
    mnn.eval(r)
    assert mnn.engine.stats()["last_steps"] == 1
    an = numpy.arange(1000, dtype=numpy.float64)
    assert_same(r, (an + 1) * (an + 1) + 2 * numpy.exp(an * 0.001), rtol=1e-12)


def test_intermediates_share_one_arena_by_lifetime():
    rng = numpy.random.default_rng(2)
    x = rng.random((32, 32))
    X = mnp.asarray(x)
    fresh_stats()
    r = ((X @ X + 1) @ X + 1) @ X  # three matmuls: two intermediates, never live together with the first
    mnn.eval(r)
    s = mnn.engine.stats()
    assert s["last_steps"] >= 3
    assert 0 < s["arena_bytes"] <= 2 * 32 * 32 * 8
    assert_same(r, ((x @ x + 1) @ x + 1) @ x, rtol=1e-12)


def test_inplace_add_reuses_the_buffer():
    a = mnp.zeros(4096, dtype=mnp.float32)
    mnn.eval(a)
    ptr = mnn._core.data_pointer(a)
    fresh_stats()
    for _ in range(3):
        a += 1
    mnn.eval(a)
    assert mnn.engine.stats()["inplace_steps"] >= 1
    assert mnn._core.data_pointer(a) == ptr
    assert_same(a, numpy.full(4096, 3, dtype=numpy.float32))


def test_value_recorded_before_a_write_keeps_the_old_value():
    a = mnp.arange(6.0)
    before = a * 10
    a[0] = 100
    assert_same(before, numpy.arange(6.0) * 10)
    expected = numpy.arange(6.0)
    expected[0] = 100
    assert_same(a, expected)


def test_long_update_loop_keeps_the_graph_bounded():
    x = mnp.zeros(16, dtype=mnp.float64)
    xn = numpy.zeros(16)
    for i in range(3000):
        x = x * 0.5 + i
        xn = xn * 0.5 + i
        assert mnn._core.pending_depth(x) <= mnn._core.MAX_PENDING_DEPTH + 1
    assert_same(x, xn)


def test_long_setitem_loop_keeps_memory_bounded():
    a = mnp.zeros(100, dtype=mnp.int64)
    an = numpy.zeros(100, dtype=numpy.int64)
    fresh_stats()
    for i in range(2000):
        a[i % 100] = i
        an[i % 100] = i
    assert mnn._core.pending_depth(a) <= mnn._core.MAX_PENDING_DEPTH + 1
    assert_same(a, an)
    assert mnn.engine.stats()["peak_bytes"] < 1 << 20


def test_eval_of_several_arrays_shares_their_work():
    a = mnp.arange(100.0)
    mnn.eval(a)
    t = mnp.sin(a)
    u, v = t + 1, t * 2
    fresh_stats()
    mnn.eval(u, v)
    s = mnn.engine.stats()
    assert s["evals"] == 1
    assert_same(u, numpy.sin(numpy.arange(100.0)) + 1, rtol=1e-15)
    assert_same(v, numpy.sin(numpy.arange(100.0)) * 2, rtol=1e-15)


def test_execution_errors_surface_on_materialisation():
    a = mnp.array([2, 3]) ** mnp.array([1, -1])  # recorded fine: numpy checks values
    with pytest.raises(ValueError, match="negative integer powers"):
        a.tolist()


@pytest.mark.parametrize("threads", [1, 2])
def test_thread_count_does_not_change_results(threads):
    old = mnn.get_num_threads()
    mnn.set_num_threads(threads)
    try:
        rng = numpy.random.default_rng(3)
        x = rng.random((300, 500), dtype=numpy.float32)
        X = mnp.asarray(x)
        assert_same(mnp.exp(X).sum(axis=0), numpy.exp(x).sum(axis=0), rtol=1e-5)
        assert_same(X @ X.T, x @ x.T, rtol=1e-4)
    finally:
        mnn.set_num_threads(old)
    assert mnn.get_num_threads() == old
