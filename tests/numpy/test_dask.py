"""dask.array over mnn chunks: from_array keeps the chunks as mnn arrays (mnn has
__array_function__), and reductions / elementwise graphs compute numpy's answers."""
import numpy
import pytest

import mnn.numpy as mnp
from helpers import assert_same, sample

da = pytest.importorskip("dask.array")

CASES = {
    "sum": lambda d: d.sum(),
    "sum_axis0": lambda d: d.sum(axis=0),
    "mean_axis1": lambda d: d.mean(axis=1),
    "max": lambda d: d.max(),
    "min_axis0": lambda d: d.min(axis=0),
    "std": lambda d: d.std(),
    "var_axis1": lambda d: d.var(axis=1),
    "prod_axis0": lambda d: (d / 10 + 1).prod(axis=0),
    "elementwise": lambda d: (d * 2 + 1) / 3 - d,
    "ufunc": lambda d: da.sqrt(abs(d)) + da.exp(-abs(d)),
    "transpose_sum": lambda d: (d.T + 1).sum(axis=0),
    "concat": lambda d: da.concatenate([d, d * 2], axis=0).mean(axis=0),
    "where": lambda d: da.where(d > 0, d, -d).sum(axis=1),
    "any_all": lambda d: da.stack([(d > 5).any(axis=0), (d < 9).all(axis=0)]),
    "matmul": lambda d: d.T @ d,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_dask_mnn_chunks_match_numpy_chunks(name):
    x = sample((12, 10), "float64")
    fn = CASES[name]
    ref = fn(da.from_array(x, chunks=(5, 4))).compute()
    dm = da.from_array(mnp.asarray(x.copy()), chunks=(5, 4))
    assert isinstance(dm.blocks[0, 0].compute(), mnp.ndarray)  # the chunks really are mnn arrays
    got = fn(dm).compute()
    assert isinstance(got, mnp.ndarray)
    assert_same(got, ref, rtol=1e-12, atol=1e-12)


def test_dask_int_and_float32_chunks():
    for dtype in ("int32", "float32"):
        x = sample((9, 7), dtype)
        d, n = da.from_array(mnp.asarray(x.copy()), chunks=4), da.from_array(x, chunks=4)
        tol = 1e-6 if dtype == "float32" else None  # per-chunk float32 sums may round differently
        assert_same(d.sum(axis=0).compute(), n.sum(axis=0).compute(), rtol=tol)
        assert_same((d + 1).max(axis=1).compute(), (x + 1).max(axis=1))
