"""Which NaN a binary float op returns when both operands are NaN (its sign and payload), against
numpy: x86's add/multiply/divide/... give the first source's NaN, numpy's loops keep the first
operand first, except that add and multiply put a broadcast scalar operand first. The compiler
may swap the operands of a commutative op, so mnn's kernels choose explicitly (elementwise_ops.h
first_nan, fused_f32_kernels.cpp add_ordered/mul_ordered). numpy's own remainder loops (the last
n % 16 elements) do not always follow its rule, so the arrays here are a multiple of 64 long."""

import numpy
import pytest

import mnn.numpy as np

NAN = float("nan")
PATTERN_A = [NAN, -NAN, NAN, -NAN, 1.0, NAN, -NAN, 3.0]
PATTERN_B = [-NAN, NAN, NAN, -NAN, -NAN, 2.0, -NAN, NAN]

CASES = {
    "add": lambda m, x, y: x + y,
    "subtract": lambda m, x, y: x - y,
    "multiply": lambda m, x, y: x * y,
    "divide": lambda m, x, y: x / y,
    "maximum": lambda m, x, y: m.maximum(x, y),
    "minimum": lambda m, x, y: m.minimum(x, y),
    # fused programs: the case, and each op with its operands from the accumulator
    "negative(x) * (y - x)": lambda m, x, y: m.negative(x) * (y - x),
    "(-x) * (-y)": lambda m, x, y: (-x) * (-y),
    "(-y) * (-x)": lambda m, x, y: (-y) * (-x),
    "(-x) + (-y)": lambda m, x, y: (-x) + (-y),
    "(-x) - (-y)": lambda m, x, y: (-x) - (-y),
    "(-x) / (-y)": lambda m, x, y: (-x) / (-y),
    "maximum(-x, -y)": lambda m, x, y: m.maximum(-x, -y),
    "minimum(-y, -x)": lambda m, x, y: m.minimum(-y, -x),
    "(x * 1) * (y * 1)": lambda m, x, y: (x * 1) * (y * 1),
    "x * (y + 1)": lambda m, x, y: x * (y + 1),
    # a broadcast scalar operand (numpy's add/multiply give its NaN), first or second
    "x + -nan": lambda m, x, y: x + x.dtype.type(-NAN),
    "x * -nan": lambda m, x, y: x * x.dtype.type(-NAN),
    "-nan * x": lambda m, x, y: x.dtype.type(-NAN) * x,
    "x - -nan": lambda m, x, y: x - x.dtype.type(-NAN),
    "-x * -nan": lambda m, x, y: -x * x.dtype.type(-NAN),
    # broadcast rows (both operands strided) and columns (a scalar per inner loop)
    "x * row": lambda m, x, y: x.reshape(4, 64) * y[:64],
    "x + col": lambda m, x, y: x.reshape(4, 64) + y[:4].reshape(4, 1),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_nan_sign_matches_numpy(name, dtype):
    a = numpy.array(PATTERN_A * 32, dtype=dtype)
    b = numpy.array(PATTERN_B * 32, dtype=dtype)
    f = CASES[name]
    with numpy.errstate(all="ignore"):
        want = f(numpy, a, b)
        got = numpy.asarray(f(np, np.asarray(a), np.asarray(b)))
    numpy.testing.assert_array_equal(numpy.isnan(got), numpy.isnan(want))
    numpy.testing.assert_array_equal(numpy.signbit(got), numpy.signbit(want))


# A row region's result step: a chain of +, -, *, / between each row's values and per-row scalars,
# through the row kernel (simd/row_kernels.cpp) for results of 8 MB and more, through the step's
# program (block program or tiles) below that. For x + m[:, None] numpy keeps the first operand's
# NaN (x's here, m's when m comes first), unlike with a 0-d scalar operand, whose NaN wins in an add
# or a multiply wherever it stands. The per-row scalar here is the max of rows of +NaN (a plain
# value in odd rows), and x holds -NaN, so the two NaNs differ in sign.
ROW_CASES = {
    "x + max(y)": lambda x, m: x + m,
    "max(y) + x": lambda x, m: m + x,
    "x * max(y)": lambda x, m: x * m,
    "max(y) * x": lambda x, m: m * x,
    "(x - max(y)) * max(y)": lambda x, m: (x - m) * m,
    "max(y) * (x / max(y))": lambda x, m: m * (x / m),
    "max(y) + x * max(y)": lambda x, m: m + x * m,
    "x * max(y) + nan": lambda x, m: x * m + numpy.float32(NAN),
    "nan * (x + max(y))": lambda x, m: numpy.float32(NAN) * (x + m),
    "(x - max(y)) * nan": lambda x, m: (x - m) * numpy.float32(NAN),
    "x * max(y) * 2": lambda x, m: x * m * numpy.float32(2.0),
}


# 8 MB: the row kernel. (numpy itself gives the scalar's NaN in the last n % 16 elements of some
# loops, so the rows are a multiple of 64 long.)
@pytest.mark.parametrize("shape", [(2048, 1024), (8, 256), (33, 1088)])
@pytest.mark.parametrize("name", sorted(ROW_CASES))
def test_nan_sign_of_row_chains_matches_numpy(name, shape):
    rows, cols = shape
    x = numpy.full((rows, cols), -NAN, dtype=numpy.float32)
    x[:, ::3] = 1.5
    x[::7, 1::5] = 2.0
    y = numpy.full((rows, cols), NAN, dtype=numpy.float32)
    y[1::2] = 0.5  # odd rows: a plain scalar
    f = ROW_CASES[name]
    with numpy.errstate(all="ignore"), np.errstate(all="ignore"):
        want = f(x, y.max(axis=1, keepdims=True))
        xm, ym = np.asarray(x), np.asarray(y)
        got = numpy.asarray(f(xm, ym.max(axis=1, keepdims=True)))
    numpy.testing.assert_array_equal(numpy.isnan(got), numpy.isnan(want))
    numpy.testing.assert_array_equal(numpy.signbit(got), numpy.signbit(want))
    numpy.testing.assert_array_equal(got[~numpy.isnan(want)], want[~numpy.isnan(want)])
