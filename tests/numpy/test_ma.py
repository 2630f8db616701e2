"""mnn.numpy.ma (the core of numpy.ma) against numpy.ma: masks, unmasked values, dtypes and fill
values of constructors, arithmetic with domain masking, indexing/assignment and reductions."""
import numpy as np
import pytest

import mnn.numpy as m

nma, mma = np.ma, m.ma


def val(x):
  if x is nma.masked or x is mma.masked: return 'MASKED'
  if isinstance(x, (nma.MaskedArray, mma.MaskedArray)):
    d = np.asarray(x.data)
    mk = np.asarray(nma.getmaskarray(x) if isinstance(x, nma.MaskedArray) else mma.getmaskarray(x))
    dd = np.where(mk, 0, d)  # values under the mask are not compared
    fv = x.fill_value; fv = fv.item() if hasattr(fv, "item") else fv
    return (str(d.dtype), dd.round(10).tolist() if d.dtype.kind=="f" else dd.tolist(), mk.tolist(), fv)
  if isinstance(x, list): return x
  a=np.asarray(x); return (str(a.dtype), a.round(10).tolist() if a.dtype.kind=='f' else a.tolist())

def run(lib, ma):
  a = ma.masked_invalid(lib.asarray([1., np.nan, 3., 4.]))
  b = ma.array(lib.asarray([1, 2, 3]), mask=[0, 1, 0])
  M = ma.array(lib.asarray([[1, 2], [3, 4]]), mask=[[0, 1], [0, 0]])
  c = a.copy(); c[0] = ma.masked; c[1] = 5
  return dict(
    sum=a.sum(), mean=a.mean(), count=a.count(), filled=a.filled(), comp=a.compressed(), min=a.min(), argmax=a.argmax(), std=a.std(), var1=a.var(ddof=1),
    bfill=b.fill_value, add=a + a, div0=a / 0, divarr=a / lib.asarray([1., 2., 0., 4.]), log=ma.log(ma.array(lib.asarray([1., -1, 0, 2]))),
    item0=a[0], item1=a[1], sl=a[:2], c=c, mw=ma.masked_where(lib.arange(4) > 1, lib.arange(4)), allmasked=ma.array(lib.asarray([1., 2.]), mask=[1, 1]).sum(),
    Mmean0=M.mean(axis=0), Msum1=M.sum(axis=1), Mmax=M.max(axis=0), Mcount0=M.count(axis=0), Mstd1=M.std(axis=1), gt=a > 2, sqrt=ma.sqrt(ma.array(lib.asarray([4., -1]))),
    meq=ma.masked_equal(lib.asarray([1, 2, 1]), 1), mgr=ma.masked_greater(lib.asarray([1, 2, 3]), 2), rsub=10 - a, mul=a * b[:1],
    avg=ma.average(M, axis=0, weights=[1, 3]), where=ma.where(lib.asarray([True, False, True, False]), a, 0.0), cat=ma.concatenate([a, a[:1]]),
    mask_prop=(a + lib.asarray([1., 1., 1., 1.])).mask, inside=ma.masked_inside(lib.arange(6), 2, 4), outside=ma.masked_outside(lib.arange(6), 2, 4), ptp=a.ptp(), tol=a.tolist(),
    nomask=ma.array(lib.asarray([1, 2])).mask, gm=ma.getmaskarray(lib.asarray([1, 2])), ism=ma.is_masked(a), cm=ma.count_masked(M), fn=ma.mean(M, axis=1),
    T=M.T, resh=M.reshape(4), rav=M.ravel(), pow=ma.array(lib.asarray([-1., 4.])) ** 0.5, neg=-a, mva=ma.masked_values(lib.asarray([1.0, 1.1, 2.0]), 1.1),
    allmaskmean=ma.array(lib.asarray([[1., 2.], [3., 4.]]), mask=[[1, 1], [0, 1]]).mean(axis=1), exp=ma.exp(a), fi=ma.fix_invalid(lib.asarray([1., np.inf])),
    it=[float(v) if v is not ma.masked else 'M' for v in a], eq=(b == 2), ma_all=ma.masked_all((2,)),
  )


CASES = sorted(run(np, nma))


@pytest.fixture(scope="module")
def results():
    with np.errstate(all="ignore"):
        return run(np, nma), run(m, mma)


@pytest.mark.parametrize("name", CASES)
def test_same_as_numpy_ma(results, name):
    ref, got = results
    assert str(val(got[name])) == str(val(ref[name])), name


def test_masked_constant_str_repr_and_errors():
    a = mma.masked_invalid(m.asarray([1.0, np.nan, 3.0]))
    assert a[1] is mma.masked and str(mma.masked) == "--" and repr(mma.masked) == "masked"
    for data, mask in (([1.0, 2.0, 3.0], [0, 1, 0]), ([[1, 2], [3, 400]], [[0, 1], [0, 0]]),
                       ([[[1, 2]], [[3, 4]]], [[[0, 1]], [[0, 0]]]), ([1.5, 2, 1 / 3], [0, 1, 0])):
        assert str(mma.array(m.asarray(data), mask=mask)) == str(nma.array(data, mask=mask))
    assert "mask=[False, True, False]" in repr(a) and "fill_value=1e+20" in repr(a)
    with pytest.raises(mma.MaskError, match=r"^\[mnn.numpy.ma.MaskedArray\]"):
        mma.array(m.arange(3), mask=[True, False])
    with pytest.raises(IndexError, match=r"^\[mnn.numpy.ma.masked_where\]"):
        mma.masked_where(m.asarray([True]), m.arange(3))
    assert mma.isMaskedArray(a) and not mma.isMaskedArray(m.arange(2))
