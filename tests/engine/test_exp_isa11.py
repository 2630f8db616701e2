"""The AVX-512 exp kernels (vmath_kernels.cpp: exp_run16, exp_sum16) are the AVX2 fast form lane
for lane, so both targets must give the same bits: for plain exp (every length's tail, the
double-form lanes: subnormal results, overflow, inf, NaN) and for softmax's row kernel, whose
exp-and-row-sum pass runs four pairwise leaves in lockstep (row widths that make unequal leaves,
leaves with a vector of 8 left, and tails)."""

import numpy
import pytest
from helpers import run_under_isa

import mnn

PROGRAM = r"""
import json, sys
import numpy
import mnn, mnn.numpy as mnp
rng = numpy.random.default_rng(11)
out = {}
special = numpy.array([0.0, -0.0, 1.0, -1.0, 88.0, 88.72, 88.73, 89.0, 100.0, -87.0, -87.4, -88.0, -100.0,
                       -103.5, -104.0, -150.0, -1e30, 1e30, numpy.inf, -numpy.inf, numpy.nan, 1e-8, -1e-40],
                      dtype=numpy.float32)
for n in [1, 7, 8, 15, 16, 17, 31, 32, 33, 47, 100, 1031]:
    x = (rng.standard_normal(n) * 30).astype(numpy.float32)
    x[rng.integers(0, n, size=max(1, n // 5))] = rng.choice(special, size=max(1, n // 5))
    with numpy.errstate(all="ignore"):
        y = numpy.asarray(mnp.exp(mnp.asarray(x)[::1]))
    out["exp%d" % n] = y.view(numpy.uint32).tolist()
for cols in [8, 9, 24, 100, 127, 128, 129, 136, 200, 264, 520, 1000, 1024, 1031, 2056, 4096]:
    x = (rng.standard_normal((5, cols)) * 20).astype(numpy.float32)
    x[1, :: 7] = -200.0          # lanes through the double form (subnormal and zero results)
    x[2, cols // 2] = 90.0       # a row where x - max is far below zero elsewhere
    X = mnp.asarray(x)
    e = mnp.exp(X - X.max(-1, keepdims=True))
    y = e / e.sum(-1, keepdims=True)
    mnn.eval(y)
    out["softmax%d" % cols] = numpy.asarray(y).view(numpy.uint32).tolist()
json.dump(out, sys.stdout)
"""


@pytest.mark.skipif("avx512" not in mnn._core.available_isas() or "avx2" not in mnn._core.available_isas(),
                    reason="needs a CPU with both the avx2 and the avx512 targets")
def test_avx512_exp_has_the_avx2_bits():
    a, b = run_under_isa(PROGRAM, "avx2"), run_under_isa(PROGRAM, "avx512")
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == b[key], key


@pytest.mark.parametrize("cols", [8, 24, 129, 136, 520, 1031, 4096])
def test_softmax_rows_match_numpy(cols):
    """The row kernel against numpy's own softmax: within numpy's float32 exp error (2 ulp)."""
    import mnn.numpy as mnp

    rng = numpy.random.default_rng(cols)
    x = (rng.standard_normal((6, cols)) * 10).astype(numpy.float32)
    X = mnp.asarray(x)
    e = mnp.exp(X - X.max(-1, keepdims=True))
    got = numpy.asarray(e / e.sum(-1, keepdims=True))
    ne = numpy.exp(x - x.max(-1, keepdims=True))
    want = ne / ne.sum(-1, keepdims=True)
    numpy.testing.assert_allclose(got, want, rtol=3e-7 * 8, atol=0)
    # and the row sums are the pairwise sums of the kernel's own exps (numpy's order, exact)
    got_e = numpy.asarray(e)
    numpy.testing.assert_array_equal(got, got_e / got_e.sum(-1, keepdims=True))
