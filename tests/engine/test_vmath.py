"""Vectorised float32 exp/log/sin/cos/tanh (simd/vmath_kernels.cpp) and erf: accuracy in ulp against
the correctly rounded result and against numpy's own float32 loops (torch's for erf, which numpy
lacks), special values, IEEE warnings, and every ISA within 1 ulp of the scalar build."""

import math
import warnings

import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.numpy as np
from mnn import _core

FUNCS = {  # name: (low, high) of the sweep; log is swept in log space
    "exp": (-104.0, 89.0),
    "log": (1e-45, 3e38),
    "sin": (-8192.0, 8192.0),
    "cos": (-8192.0, 8192.0),
    "tanh": (-12.0, 12.0),
    "erf": (-6.0, 6.0),
}
# Measured maxima against the correctly rounded result. exp and log are evaluated in double
# precision (or, for exp's AVX2 fast form, in float with a two-part table: within 0.57 ulp) and
# are within 1 ulp; most results are the correctly rounded ones (MIN_EXACT).
MAX_ULP_VS_EXACT = {"exp": 1, "log": 1, "sin": 2, "cos": 2, "tanh": 1, "erf": 1}
MIN_EXACT = {"exp": 0.97, "log": 0.9999}
# Issue 3 asks for 2 ulp against numpy. numpy's own float32 log is up to ~4 ulp from the correctly
# rounded result near x = 1 (its exp up to 2.5), so no accurate log can be within 2 of it there:
# log may be further only where it is correctly rounded and numpy is >= 3 ulp off.
MAX_ULP_VS_NUMPY = 2


def peer(name, x):
    """The peer library's float32 result: numpy's, or torch's erf."""
    if name == "erf":
        import torch

        return torch.erf(torch.from_numpy(x)).numpy()
    with numpy.errstate(all="ignore"):
        return getattr(numpy, name)(x)


def exact(name, x):
    """The float64 result rounded to float32 (correctly rounded but for ~1e-9 of inputs)."""
    x64 = x.astype(numpy.float64)
    with numpy.errstate(all="ignore"):
        if name == "erf":
            return numpy.vectorize(math.erf, otypes=[numpy.float64])(x64).astype(numpy.float32)
        return getattr(numpy, name)(x64).astype(numpy.float32)


def ours(name, x):
    a = np.asarray(x)
    r = _core.ufunc(_core.OPCODES["erf"], a) if name == "erf" else getattr(np, name)(a)
    return numpy.asarray(r)


def ordered(a):
    i = a.astype(numpy.float32).view(numpy.int32).astype(numpy.int64)
    return numpy.where(i < 0, -(i & 0x7FFFFFFF), i)


def ulps(a, b):
    d = numpy.abs(ordered(a) - ordered(b))
    return numpy.where(numpy.isnan(a) & numpy.isnan(b), 0, d)


def sweep(name, n=400_000):
    rng = numpy.random.default_rng(7)
    lo, hi = FUNCS[name]
    if name == "log":  # log space, and [0.5, 2] and around 1, where numpy's own error peaks
        x = numpy.exp(rng.uniform(numpy.log(lo), numpy.log(hi), n))
        return numpy.concatenate([x, rng.uniform(0.5, 2, n // 4), 1 + rng.uniform(-1e-3, 1e-3, n // 4)]).astype(
            numpy.float32)
    x = rng.uniform(lo, hi, n).astype(numpy.float32)
    return numpy.concatenate([x, rng.uniform(-3, 3, n // 4).astype(numpy.float32)])


def check_vs_numpy(name, x, got, want):
    d = ulps(got, want)
    if name == "log":
        far = d > MAX_ULP_VS_NUMPY
        assert (ulps(got[far], exact(name, x[far])) == 0).all()
        assert (ulps(want[far], exact(name, x[far])) >= 3).all()
    else:
        assert d.max() <= MAX_ULP_VS_NUMPY


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_float32_accuracy(name):
    x = sweep(name)
    got = ours(name, x)
    assert got.dtype == numpy.float32
    e = ulps(got, exact(name, x))
    assert e.max() <= MAX_ULP_VS_EXACT[name]
    if name in MIN_EXACT:
        assert (e == 0).mean() >= MIN_EXACT[name]
    check_vs_numpy(name, x, got, peer(name, x))


def test_exp_ranges_around_the_fast_form():
    # the AVX2 fast form covers results that are normal floats; subnormal results, overflow and
    # the bands next to them take the double form: every band, and both forms in one vector
    rng = numpy.random.default_rng(11)
    x = numpy.concatenate([rng.uniform(-104, -85, 50_000), rng.uniform(87, 89, 50_000),
                           rng.uniform(-90, 90, 50_000)]).astype(numpy.float32)
    got = ours("exp", x)
    assert ulps(got, exact("exp", x)).max() <= 1
    assert ulps(got, peer("exp", x)).max() <= MAX_ULP_VS_NUMPY


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_result_does_not_depend_on_position(name):
    # vector bodies, padded tails and the special-lane paths give an element the same bits
    x = numpy.concatenate([sweep(name, 997), numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1e30,
                                                          -1e30, 88.8, -95.0], dtype=numpy.float32)])
    full = ours(name, x)
    for k in (1, 3, 7, 8, 13):
        numpy.testing.assert_array_equal(ours(name, x[k:]).view(numpy.uint32), full[k:].view(numpy.uint32))


SPECIALS = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e-45, -1e-45, 1.17549435e-38, 3.4028235e38,
                        -3.4028235e38, 88.72283, 88.72284, -87.33655, -103.97207, -103.9721, -150.0, 1.0, -1.0,
                        8192.0, 8193.5, -1e10, 1e30, 0.625, -0.625, 9.1, -9.1, 1e-20], dtype=numpy.float32)


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_float32_special_values_match_numpy(name):
    got = ours(name, SPECIALS)
    want = peer(name, SPECIALS)
    numpy.testing.assert_array_equal(numpy.isnan(got), numpy.isnan(want))
    numpy.testing.assert_array_equal(numpy.isinf(got), numpy.isinf(want))
    numpy.testing.assert_array_equal(got[numpy.isinf(want)], want[numpy.isinf(want)])
    finite = numpy.isfinite(want)
    assert ulps(got[finite], want[finite]).max() <= MAX_ULP_VS_NUMPY
    numpy.testing.assert_array_equal(numpy.signbit(got[want == 0]), numpy.signbit(want[want == 0]))


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_noncontiguous_and_fused_inputs(name):
    # a negative-stride view, scaled inside the same fused program
    x = numpy.linspace(0.01, 40, 3000, dtype=numpy.float32).reshape(3, 1000, 1)[:, ::-3]
    a = np.asarray(x) * 0.5
    got = numpy.asarray(_core.ufunc(_core.OPCODES["erf"], a) if name == "erf" else getattr(np, name)(a))
    xs = x * numpy.float32(0.5)
    check_vs_numpy(name, xs.ravel(), got.ravel(), peer(name, numpy.ascontiguousarray(xs)).ravel())


WARN_CASES = {  # name: inputs; numpy's warnings (divide / invalid / overflow) must match
    "exp": [[1000.0, 1.0], [numpy.inf, 1.0], [-numpy.inf, numpy.nan], [88.8, -200.0], [88.72283, 1.0]],
    "log": [[0.0, 1.0], [-0.0], [-1.0, 2.0], [-numpy.inf], [numpy.nan, numpy.inf], [1e-45, 3e38]],
}


@pytest.mark.parametrize("name", sorted(WARN_CASES))
@pytest.mark.parametrize("n", [1, 19, 40])  # tail only; vector body and tail; two vector pairs + tail
@pytest.mark.parametrize("temporary", [False, True])  # True: the input dies, the result may reuse it
def test_ieee_warnings_match_numpy(name, n, temporary):
    for case in WARN_CASES[name]:
        v = numpy.resize(numpy.array(case, dtype=numpy.float32), n)
        # mnn reports no underflow (mnn/numpy/_errstate.py)
        with numpy.errstate(all="warn", under="ignore"), warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            want = getattr(numpy, name)(v)
        want_msgs = sorted(str(m.message) for m in w)
        with np.errstate(all="warn"), warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            a = np.array(v.tolist(), dtype=np.float32) if temporary else np.asarray(v)
            got = numpy.asarray(getattr(np, name)(a))
        assert sorted(str(m.message) for m in w) == want_msgs, (case, n)
        numpy.testing.assert_array_equal(numpy.isnan(got), numpy.isnan(want))
        assert ulps(got, want).max() <= MAX_ULP_VS_NUMPY


SCRIPT = """
import json, numpy
import mnn.numpy as np
from mnn import _core
x = numpy.random.default_rng(3).uniform(-100, 100, 50_003).astype(numpy.float32)
out = {}
for name in ["exp", "log", "sin", "cos", "tanh", "erf"]:
    f = (lambda a: _core.ufunc(_core.OPCODES["erf"], a)) if name == "erf" else getattr(np, name)
    out[name] = numpy.asarray(f(np.asarray(x))).view(numpy.uint32).tolist()
print(json.dumps(out))
"""


def run_with(isa):
    return run_under_isa(SCRIPT, isa)


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_every_isa_is_within_one_ulp_of_scalar(isa):
    # SIMD targets contract a*b+c into FMA (CMakeLists.txt), the scalar target cannot; exp's AVX2
    # fast form is within 0.57 ulp, the scalar target's double form correctly rounded
    ref, got = run_with("scalar"), run_with(isa)
    for name in ref:
        a = numpy.array(ref[name], dtype=numpy.uint32).view(numpy.float32)
        b = numpy.array(got[name], dtype=numpy.uint32).view(numpy.float32)
        assert ulps(a, b).max() <= 1, name
