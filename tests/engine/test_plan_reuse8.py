"""Plan reuse on the small-op fast path (session 8: the per-eval scratch vectors, the inline run of
small plans, the C-level item/shape/getitem wrappers). Repeated tiny evaluations hit the plan
cache; graphs that differ only in a scalar's dtype, a stride, an alias or a view offset must each
get their own plan and numpy's answer, and writes through views must stay visible after a cached
run. Every case runs several times so later rounds take cached plans."""
import numpy
import pytest

import mnn
import mnn.numpy as np


def arr(values, dtype="float32"):
    a = np.array(numpy.asarray(values, dtype=dtype))  # a copy: the tests update numpy and mnn apart
    mnn.eval(a)
    return a


def check(got, want):
    g = numpy.asarray(got)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, want.dtype, g.shape, want.shape)
    numpy.testing.assert_array_equal(g, want)


def test_repeated_round_trip_hits_the_plan_cache():
    x = numpy.linspace(0, 1, 100, dtype=numpy.float32)
    y = numpy.linspace(1, 2, 100, dtype=numpy.float32)
    a, b = arr(x), arr(y)
    (a + b)[0].item()
    hits = mnn.engine.stats()["plan_hits"]
    for i in range(5):
        assert (a + b)[i].item() == (x + y)[i].item()
    assert mnn.engine.stats()["plan_hits"] >= hits + 5


@pytest.mark.parametrize("round_", range(3))
def test_scalar_dtype_gets_its_own_plan(round_):
    x = numpy.arange(7, dtype=numpy.float32) / 3
    a = arr(x)
    for sdt in ("float32", "float64", "int8", "float16"):
        s = np.asarray(numpy.asarray(2.5 if sdt[0] == "f" else 3, dtype=sdt))
        want = x + numpy.asarray(2.5 if sdt[0] == "f" else 3, dtype=sdt)
        check(a + s, want)
        assert (a + s)[3].item() == want[3].item()


def test_strides_offsets_and_aliases_get_their_own_plans():
    x = numpy.arange(40, dtype=numpy.float32)
    y = numpy.arange(40, dtype=numpy.float32)[::-1].copy()
    a, b = arr(x), arr(y)
    for _ in range(3):
        check(a[::2] + b[:20], x[::2] + y[:20])       # strided view
        check(a[1::2] + b[:20], x[1::2] + y[:20])     # same strides, another offset
        check(a[2:22] + b[:20], x[2:22] + y[:20])     # contiguous window, offset 2
        check(a[3:23] + b[:20], x[3:23] + y[:20])     # offset 3
        check(a + a, x + x)                           # one leaf read twice
        check(a + b, x + y)                           # two leaves
        check(a.reshape(5, 8).T + b.reshape(8, 5), x.reshape(5, 8).T + y.reshape(8, 5))
        check(a.reshape(5, 8) + b.reshape(5, 8), x.reshape(5, 8) + y.reshape(5, 8))
        check(a[::-1] + b, x[::-1] + y)               # negative stride
        assert (a[5:] + b[:35])[0].item() == (x[5:] + y[:35])[0].item()
        assert (a[6:] + b[:34])[0].item() == (x[6:] + y[:34])[0].item()


def test_writes_through_views_seen_after_cached_runs():
    x = numpy.zeros((4, 6), dtype=numpy.float32)
    a = arr(x)
    row = a[1]
    col = a[:, 2]
    for i in range(5):
        row[:] = i
        x[1] = i
        col += 1
        x[:, 2] += 1
        check(a, x)
        assert (a + 1)[1, 0].item() == x[1, 0] + 1
        assert a[1].sum().item() == x[1].sum()
        assert row[2].item() == x[1, 2]


def test_inplace_updates_and_old_values_after_cached_runs():
    x = numpy.arange(12, dtype=numpy.float64)
    a = arr(x, "float64")
    for _ in range(4):
        old = a + 0  # pending: must keep the value before the in-place update
        a += 2
        x += 2
        check(old, x - 2)
        check(a, x)
        assert a[11].item() == x[11]


def test_item_and_attributes_through_the_c_getters():
    for shape in [(), (0,), (3,), (2, 3), (2, 1, 4)]:
        x = numpy.arange(int(numpy.prod(shape)), dtype=numpy.int16).reshape(shape)
        a = arr(x, "int16")
        assert a.shape == x.shape and type(a.shape) is tuple
        assert a.ndim == x.ndim and a.size == x.size
        assert a.dtype == np.int16 and str(a.dtype) == "int16"
        if x.size:
            assert a.item(x.size - 1) == x.item(x.size - 1)
            assert type(a.item(0)) is int
    b = arr([[1.5, 2.5]], "float32")
    assert type(b.item(1)) is float and b.item(1) == 2.5
    with pytest.raises(ValueError, match="item"):
        b.item()
    with pytest.raises(IndexError, match="item"):
        b.item(5)
    c = arr(numpy.arange(6, dtype=numpy.float32))
    c.shape = (2, 3)  # the settable shape keeps working over the C getter
    assert c.shape == (2, 3) and c[1, 2].item() == 5.0
    with pytest.raises(AttributeError):
        c.ndim = 3
    with pytest.raises(TypeError):
        mnn._core.item(numpy.zeros(3), 0)
