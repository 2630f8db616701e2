"""Comparison helpers: every test checks mnn against the real numpy (or torch)."""
import numpy

import mnn.numpy as mnp

ALL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "float32", "float64"]
FLOAT_DTYPES = ["float16", "float32", "float64"]
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]

# Shapes every family is checked on: 0-d, empty, 1-d, 2-d, 3-d.
SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4), (0, 3)]

# Default tolerances per dtype when exact equality is not expected (transcendental functions).
RTOL = {"float16": 1e-3, "float32": 2e-6, "float64": 1e-12}


def to_numpy(x):
    """An mnn array (or anything) as a numpy array, through the buffer protocol."""
    if isinstance(x, mnp.ndarray):
        return numpy.asarray(x)
    return numpy.asarray(x)


def assert_same(got, expected, rtol=None, atol=0.0, check_dtype=True):
    """Same shape, same dtype, same values (NaN where numpy has NaN; exact unless rtol given)."""
    assert isinstance(got, mnp.ndarray), f"expected an mnn ndarray, got {type(got).__name__}"
    g = to_numpy(got)
    e = numpy.asarray(expected)
    assert g.shape == e.shape, f"shape {g.shape} != numpy's {e.shape}"
    if check_dtype:
        assert g.dtype == e.dtype, f"dtype {g.dtype} != numpy's {e.dtype}"
    if rtol is None and atol == 0.0:
        if e.dtype.kind == "f":
            numpy.testing.assert_array_equal(g, e)
        else:
            assert numpy.array_equal(g, e), f"values differ:\n{g}\nvs numpy\n{e}"
    else:
        numpy.testing.assert_allclose(g.astype(numpy.float64), e.astype(numpy.float64), rtol=rtol, atol=atol,
                                      equal_nan=True)


def sample(shape, dtype, seed=0, low=None, high=None):
    """Deterministic test data of a dtype: ints over most of their range, floats in [-10, 10)."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        lo = max(info.min, -100) if low is None else low
        hi = min(info.max, 100) if high is None else high
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
    lo = -10.0 if low is None else low
    hi = 10.0 if high is None else high
    return rng.uniform(lo, hi, size=shape).astype(dt)


def non_contiguous(a):
    """A non-contiguous numpy view with a's values: every other element of a twice-as-large array,
    reversed twice (negative strides on the way)."""
    if a.ndim == 0:
        return a
    big = numpy.empty(a.shape[:-1] + (a.shape[-1] * 2,), dtype=a.dtype)
    big[..., ::2] = a
    return big[..., ::2]


def run_under_isa(program, isa, args=()):
    """Runs a Python program (source text that prints JSON) in a subprocess with MNN_ISA=isa and
    the same mnn on its path; returns the decoded JSON. ISA tests compare every target's results
    with the scalar build's this way (the kernel table is chosen once per process)."""
    import json
    import os
    import subprocess
    import sys

    import mnn

    env = dict(os.environ, MNN_ISA=isa)
    src = os.path.dirname(os.path.dirname(mnn.__file__))
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", program, *args], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def central_differences(loss, xs, eps):
    """The gradient of loss (a function of a list of numpy arrays, returning a float) with respect
    to each of xs, by central differences: the reference every vjp test compares against."""
    out = []
    for i, x in enumerate(xs):
        g = numpy.zeros_like(x)
        for idx in numpy.ndindex(x.shape):
            xp = [a.copy() for a in xs]
            xm = [a.copy() for a in xs]
            xp[i][idx] += eps
            xm[i][idx] -= eps
            g[idx] = (loss(xp) - loss(xm)) / (2 * eps)
        out.append(g)
    return out
