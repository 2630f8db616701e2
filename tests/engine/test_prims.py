"""Registered primitives (prims/registry.h): recording, shape rules at record time, evaluation,
plan caching, errors, and gradients, through the first family built on them (take/scatter_add)."""
import numpy
import pytest

import mnn
import mnn.numpy as np
from mnn import _core


DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis,idx", [
    ((5,), 0, [4, 0, -1, 2, 2]),
    ((3, 4), 1, [[0, 3], [-4, 1]]),
    ((3, 4), 0, []),
    ((2, 3, 4), 1, [2, 0]),
    ((2, 0, 3), 2, [1]),
    ((4, 3), -2, 1),
])
def test_take_matches_numpy(dtype, shape, axis, idx):
    rng = numpy.random.default_rng(0)
    a = (rng.standard_normal(shape) * 10).astype(dtype)
    i = numpy.asarray(idx, dtype=numpy.int64)
    got = numpy.asarray(_core.prim("take", [np.asarray(a), np.asarray(i)], [axis]))
    want = numpy.take(a, i, axis=axis)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)


def test_take_of_noncontiguous_and_lazy_inputs():
    base = numpy.arange(60.0).reshape(5, 12)
    a = np.asarray(base)[:, ::-3] * 2  # pending, strided source
    got = _core.prim("take", [a, np.asarray([3, 0])], [1])
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.take(base[:, ::-3] * 2, [3, 0], axis=1))


def test_take_errors_at_record_time():
    a = np.zeros((3, 4))
    with pytest.raises(IndexError, match=r"\[mnn.numpy.take\] index 4 is out of bounds for axis 1 with size 4"):
        _core.prim("take", [a, np.asarray([4])], [1])
    with pytest.raises(ValueError, match="axis 2 is out of bounds") as info:
        _core.prim("take", [a, np.asarray([0])], [2])
    assert isinstance(info.value, IndexError)  # numpy's AxisError is both
    with pytest.raises(IndexError, match="integer"):
        _core.prim("take", [a, np.asarray([0.5])], [0])
    with pytest.raises(ValueError, match="unknown primitive 'no_such_op'"):
        _core.prim("no_such_op", [a])


@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "float64"])
def test_scatter_add_accumulates_repeats(dtype):
    g = numpy.arange(12).reshape(3, 4).astype(dtype)
    idx = numpy.array([1, 1, -1, 0])
    got = numpy.asarray(_core.prim("scatter_add", [np.asarray(g), np.asarray(idx)], [1, 3]))
    want = numpy.zeros((3, 3), dtype)
    numpy.add.at(want, (slice(None), idx), g)
    numpy.testing.assert_array_equal(got, want)


def test_prim_steps_are_planned_and_cached():
    a = np.asarray(numpy.arange(20.0).reshape(4, 5))
    i = np.asarray([3, 1])
    mnn.engine.clear_plan_cache()
    mnn.engine.reset_stats()
    for _ in range(3):
        out = _core.prim("take", [a * 2, i], [0]) + 1
        mnn.eval(out)
    s = mnn.engine.stats()
    assert s["plan_misses"] >= 1 and s["plan_hits"] >= 2
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.arange(20.0).reshape(4, 5)[[3, 1]] * 2 + 1)


def test_take_gradient_matches_torch():
    torch = pytest.importorskip("torch")
    x0 = numpy.random.default_rng(1).standard_normal((3, 5))
    idx = numpy.array([[4, 0], [4, 4]])
    x = np.array(x0, requires_grad=True)
    y = _core.prim("take", [x, np.asarray(idx)], [1])
    (y * y).sum().backward()
    tx = torch.tensor(x0, requires_grad=True)
    ty = tx[:, torch.tensor(idx)]
    (ty * ty).sum().backward()
    numpy.testing.assert_allclose(numpy.asarray(x.grad), tx.grad.numpy(), rtol=1e-12)
