"""Fused float32 chains over contiguous inputs run as block programs on AVX2 targets
(simd/fused_f32_kernels.cpp) and as tiles elsewhere: both must give numpy's bits exactly (NaN
payloads and signed zeros included), at lengths around the 64-element block and the 4096-element
chunk, with broadcast scalars on either side, misaligned views, in-place updates, several threads,
and the same errstate warnings as numpy when a flag is raised in the middle of a long array."""
import warnings

import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.numpy as mnp

SIZES = [63, 64, 65, 200, 4096, 4096 * 3 + 70]


def _data(n, seed):
    rng = numpy.random.default_rng(seed)
    x = (rng.standard_normal(n) * 3).astype(numpy.float32)
    special = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1e-42, -1e-42, 3e38, -3e38, 1.0, -1.0,
                           0.5, 2.5, -2.5], dtype=numpy.float32)
    k = min(n, special.size)
    idx = rng.choice(n, size=k, replace=False)
    x[idx] = special[:k]
    return x


def _chains(m, a, b, c):
    """name -> thunk: every block opcode, inside a chain, plus microkernel calls (exp, sin)."""
    return {
        "chain": lambda: a * b + c * 2.0 - m.sqrt(m.abs(a)),
        "div": lambda: (a - 1.0) / (b * c),
        "rdiv scalar": lambda: 2.0 / a + b,
        "rsub scalar": lambda: 3.0 - a * b,
        "max min": lambda: m.minimum(m.maximum(a, b), c * 0.5),
        "fmax fmin": lambda: m.fmin(m.fmax(a, b), c + 0.0),
        "max scalar": lambda: m.maximum(a * b, 0.0),
        "neg square recip": lambda: m.reciprocal(m.square(-a) + b),
        "rounding": lambda: m.floor(a * 1.5) + m.ceil(b * 1.5) - m.trunc(c * 1.5) + m.rint(a * 2.5),
        "positive copy": lambda: +(a + b),
        "sqrt neg": lambda: m.sqrt(a * b),
        "exp call": lambda: m.exp(a * 0.1) * b,
        "sin call": lambda: m.sin(a) + m.cos(b) * c,
        "power": lambda: m.power(m.abs(a), 0.5) + b,
    }


NAMES = list(_chains(numpy, 0, 0, 0))


def _bits(x):
    return numpy.ascontiguousarray(x, dtype=numpy.float32).view(numpy.uint32)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", NAMES)
def test_chain_bits_match_numpy(name, n):
    xs = [_data(n, s) for s in (1, 2, 3)]
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        want = _chains(numpy, *xs)[name]()
        got = numpy.asarray(_chains(mnp, *(mnp.array(x) for x in xs))[name]())
    if name in ("exp call", "sin call", "power"):  # mnn's own vector math: within an ulp or two
        numpy.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    elif "max" in name:
        # mnn's maximum/minimum return a on a tie, numpy b: max(0, -0) differs in the zero's sign
        # (the same in tiles and blocks; test_block_programs_match_scalar_tiles compares the bits)
        numpy.testing.assert_array_equal(got, want, err_msg=name)
    else:
        numpy.testing.assert_array_equal(_bits(got), _bits(want), err_msg=name)


def test_misaligned_views_and_window_output():
    n = 4096 * 2 + 77
    xs = [_data(n + 3, s) for s in (4, 5, 6)]
    a, b, c = (mnp.array(x) for x in xs)
    got = numpy.asarray(a[1:-2] * b[3:] + c[:-3] * 2.0 - mnp.sqrt(mnp.abs(a[1:-2])))
    want = xs[0][1:-2] * xs[1][3:] + xs[2][:-3] * 2.0 - numpy.sqrt(numpy.abs(xs[0][1:-2]))
    numpy.testing.assert_array_equal(_bits(got), _bits(want))
    # the result written into a window of a larger array (an output 4 bytes past a line start)
    z, zn = mnp.zeros(n + 3, dtype=mnp.float32), numpy.zeros(n + 3, dtype=numpy.float32)
    z[1:-2] = a[1:-2] * b[3:] - c[:-3]
    zn[1:-2] = xs[0][1:-2] * xs[1][3:] - xs[2][:-3]
    numpy.testing.assert_array_equal(_bits(numpy.asarray(z)), _bits(zn))


def test_in_place_update():
    n = 4096 * 5 + 9
    xs = [_data(n, s) for s in (7, 8)]
    a, b = (mnp.array(x) for x in xs)
    want = xs[0].copy()
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        a += b * 3.0 - a
        want += xs[1] * 3.0 - want
    numpy.testing.assert_array_equal(_bits(numpy.asarray(a)), _bits(want))


def test_large_chain_with_threads():
    n = 1 << 20
    xs = [_data(n, s) for s in (9, 10, 11)]
    want = xs[0] * xs[1] + xs[2] * 2.0 - numpy.sqrt(numpy.abs(xs[0]))
    old = mnn.get_num_threads()
    try:
        for t in (1, 2):
            mnn.set_num_threads(t)
            a, b, c = (mnp.array(x) for x in xs)
            got = numpy.asarray(a * b + c * 2.0 - mnp.sqrt(mnp.abs(a)))
            numpy.testing.assert_array_equal(_bits(got), _bits(want))
    finally:
        mnn.set_num_threads(old)


def _warned(m, thunk):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = thunk(m)
        if m is mnp:
            r = numpy.asarray(r)
    return [(x.category, str(x.message)) for x in w], r


# block programs check the flags every 65536 elements: a flag in the first chunk, the second, the last
@pytest.mark.parametrize("where", [10, 5000, 65536 + 64 + 5, 2 * 65536 + 4099])
@pytest.mark.parametrize("case", ["sqrt", "divide", "overflow", "clean"])
def test_flags_raised_mid_array_warn_like_numpy(case, where):
    n = 2 * 65536 + 4096 + 100
    base = numpy.abs(_data(n, 12))
    base[numpy.isnan(base) | numpy.isinf(base)] = 1.0
    base[base > 1e30] = 1.0
    other = numpy.full(n, 2.0, dtype=numpy.float32)
    if case == "sqrt":
        base[where] = -4.0
    elif case == "divide":
        other[where] = 0.0
    elif case == "overflow":
        base[where] = 3e38

    def thunk(m):
        a, b = (m.asarray(base), m.asarray(other)) if m is numpy else (mnp.array(base), mnp.array(other))
        return m.sqrt(a * 2.0 + 1.0) / b

    want, wr = _warned(numpy, thunk)
    got, gr = _warned(mnp, thunk)
    assert got == want
    numpy.testing.assert_array_equal(_bits(gr), _bits(wr))


def test_flags_raise_under_errstate_raise():
    # through tolist: numpy.asarray on an mnn array inside errstate(raise) does not raise (an
    # exception in the buffer export is swallowed), with or without blocks
    n = 3 * 4096
    x = numpy.ones(n, dtype=numpy.float32)
    x[4097] = -1.0
    a = mnp.array(x)
    with mnp.errstate(invalid="raise"):
        with pytest.raises(FloatingPointError, match="invalid value encountered in sqrt"):
            (mnp.sqrt(a * 2.0 + 1.0) + a).tolist()


PROGRAM = r"""
import json, sys
import numpy
import mnn.numpy as mnp
rng = numpy.random.default_rng(3)
x = (rng.standard_normal(3 * 4096 + 33) * 3).astype(numpy.float32)
x[::97] = numpy.nan
y = numpy.roll(x, 5)
a, b = mnp.array(x), mnp.array(y)
with mnp.errstate(all="ignore"):
    r = {"chain": a * b + b * 2.0 - mnp.sqrt(mnp.abs(a)), "mm": mnp.maximum(a, b) - mnp.fmin(b, a) / 3.0,
         "round": mnp.rint(a * 2.5) + mnp.floor(b) - mnp.reciprocal(a)}
    out = {k: numpy.asarray(v).view(numpy.uint32).tolist() for k, v in r.items()}
json.dump(out, sys.stdout)
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_block_programs_match_scalar_tiles(isa):
    # the scalar target has no block kernel: its tiles are the reference
    assert run_under_isa(PROGRAM, isa) == run_under_isa(PROGRAM, "scalar")
