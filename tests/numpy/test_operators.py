"""Python operators on mnn arrays against the same operators on numpy arrays: forward and reflected,
Python scalars with NumPy 2's weak promotion (NEP 50), numpy arrays as the other operand, in-place
operators (through views), and the error types numpy raises."""
import operator
import warnings

import numpy
import pytest

import mnn.numpy as mnp

from helpers import ALL_DTYPES, INT_DTYPES, assert_same, sample

BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "&": operator.and_, "|": operator.or_, "^": operator.xor,
    "<<": operator.lshift, ">>": operator.rshift, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}
INPLACE = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "&=": operator.iand, "|=": operator.ior,
    "^=": operator.ixor, "<<=": operator.ilshift, ">>=": operator.irshift,
}
UNARY = {"-": operator.neg, "+": operator.pos, "abs": abs, "~": operator.invert}

SCALARS = [True, False, 0, 3, -2, 300, 2 ** 40, 2 ** 64, 2.5, -0.0, float("nan"), float("inf")]


def _kind(exc):
    for k in (OverflowError, ZeroDivisionError, TypeError, ValueError):
        if isinstance(exc, k):
            return k
    return type(exc)


def _materialize(r):
    return numpy.asarray(r) if isinstance(r, mnp.ndarray) else r


def check(fn, np_args, mnn_args, rtol=None):
    """fn(*np_args) against fn(*mnn_args): same values and dtype, or the same kind of exception."""
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            expected = fn(*np_args)
        except Exception as e:
            with pytest.raises(_kind(e)):
                _materialize(fn(*mnn_args))
            return None
        got = fn(*mnn_args)
        assert_same(got, expected, rtol=rtol if rtol is not None else _pow_rtol(fn, expected))
    return expected


def _pow_rtol(fn, expected):
    """numpy's float pow is not correctly rounded and depends on the CPU (its AVX-512 loops differ
    from libm's by an ulp), so float powers compare to a few ulp; everything else bit for bit."""
    dt = numpy.asarray(expected).dtype
    if fn in (operator.pow, operator.ipow) and dt.kind in "fc":
        return 4 * float(numpy.finfo(dt).eps)
    return None


def operand_arrays(op, dtype, shape=(7,), seed=0):
    a = sample(shape, dtype, seed)
    if op in ("**", "**=") and a.dtype.kind in "iu":
        a = sample(shape, dtype, seed, low=0, high=4)
    if op in ("<<", ">>", "<<=", ">>=") and a.dtype.kind in "iu":
        a = sample(shape, dtype, seed, low=0, high=7)
    return a


# ---------------------------------------------------------------------------------------------- arrays
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", list(BINARY))
def test_array_op_array_same_dtype(op, dtype):
    a = sample((3, 4), dtype)
    b = operand_arrays(op, dtype, (3, 4), seed=1)
    check(BINARY[op], [a, b], [mnp.asarray(a), mnp.asarray(b)])
    # broadcasting and 0-d
    check(BINARY[op], [a[:, :1], b[:1]], [mnp.asarray(a[:, :1]), mnp.asarray(b[:1])])
    check(BINARY[op], [a, b[0, 0].reshape(())], [mnp.asarray(a), mnp.asarray(b[0, 0].reshape(()))])


PAIRS = [("int8", "uint8"), ("uint8", "int64"), ("int32", "float32"), ("uint64", "int64"), ("bool", "uint16"),
         ("float16", "int8"), ("float64", "float16"), ("uint32", "bool")]


@pytest.mark.parametrize("dtypes", PAIRS, ids=lambda d: "-".join(d))
@pytest.mark.parametrize("op", list(BINARY))
def test_mixed_dtypes_and_numpy_operand(op, dtypes):
    a = sample((2, 3), dtypes[0])
    b = operand_arrays(op, dtypes[1], (2, 3), seed=1)
    fn = BINARY[op]
    check(fn, [a, b], [mnp.asarray(a), mnp.asarray(b)])
    # a numpy array on either side: mnn takes over (numpy defers to mnn's reflected operator)
    exp = check(fn, [a, b], [mnp.asarray(a), b])
    if exp is not None:
        got = fn(a, mnp.asarray(b))
        assert isinstance(got, mnp.ndarray), type(got)
        assert_same(got, fn(a, b))


# ---------------------------------------------------------------------------------------------- Python scalars
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", list(BINARY))
def test_python_scalars_both_sides(op, dtype):
    a = sample((6,), dtype)
    if op == "**" and a.dtype.kind in "iu":
        a = sample((6,), dtype, low=0, high=4)
    m = mnp.asarray(a)
    fn = BINARY[op]
    for s in SCALARS:
        check(fn, [a, s], [m, s])  # forward: uint8_array + 300 is an OverflowError, int8 + 1.5 is float64
        check(fn, [s, a], [s, m])  # reflected


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_python_scalar_with_0d_array(dtype):
    a = sample((), dtype)
    m = mnp.asarray(a)
    for op in ("+", "*", "//", "<", "**", "&"):
        for s in (True, 2, 2.0):
            check(BINARY[op], [a, s], [m, s])
            check(BINARY[op], [s, a], [s, m])


def test_weak_scalar_promotion_examples():
    u8 = numpy.arange(5, dtype="uint8")
    i8 = numpy.arange(5, dtype="int8")
    f32 = numpy.arange(5, dtype="float32")
    f16 = numpy.arange(5, dtype="float16")
    for x, s, fn in [(u8, 300, operator.add), (i8, 1.5, operator.add), (f32, 2.0, operator.mul),
                     (u8, -1, operator.add), (f16, 1e10, operator.add), (i8, 2 ** 70, operator.lt),
                     (u8, -5, operator.gt), (u8, -5, operator.eq), (i8, 1000, operator.ne),
                     (numpy.arange(3, dtype="uint64"), -1, operator.lt), (i8, 300, operator.truediv),
                     (u8, 3.5, operator.floordiv), (numpy.array([True, False]), 2, operator.add),
                     (numpy.array([True, False]), 2.5, operator.mul), (numpy.array([True, False]), True,
                                                                        operator.add)]:
        check(fn, [x, s], [mnp.asarray(x), s])
        check(fn, [s, x], [s, mnp.asarray(x)])


# ---------------------------------------------------------------------------------------------- unary
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", list(UNARY))
def test_unary_operators(op, dtype):
    a = sample((3, 4), dtype)
    if a.dtype.kind in "iu":
        info = numpy.iinfo(a.dtype)
        a[0, :2] = [info.min, info.max]  # -INT_MIN and abs(INT_MIN) wrap like numpy
    if a.dtype.kind == "f":
        a[0, :3] = [numpy.nan, -0.0, -numpy.inf]
    check(UNARY[op], [a], [mnp.asarray(a)])
    check(UNARY[op], [a[::-1, ::2]], [mnp.asarray(a)[::-1, ::2]])
    check(UNARY[op], [a[1, 1]], [mnp.asarray(a[1, 1].reshape(()))]) if a.size else None


def test_bool_subtract_and_negative_raise_typeerror():
    b = numpy.array([True, False])
    m = mnp.asarray(b)
    for fn in (lambda x: x - x, lambda x: -x, lambda x: x - True, lambda x: True - x):
        with pytest.raises(TypeError):
            fn(b)
        with pytest.raises(TypeError):
            fn(m)


@pytest.mark.parametrize("dtype", [d for d in INT_DTYPES if d.startswith("int")] + ["uint8"])
def test_int_power_negative_int_raises(dtype):
    a = numpy.array([2, 3, 4], dtype=dtype)
    m = mnp.asarray(a)
    check(operator.pow, [a, -1], [m, -1])
    check(operator.pow, [2, numpy.array([1, -2], dtype="int64")], [2, mnp.asarray(numpy.array([1, -2]))])
    check(operator.pow, [a, a - 3], [m, m - 3])


# ---------------------------------------------------------------------------------------------- in-place
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", list(INPLACE))
def test_inplace_array_and_scalars(op, dtype):
    fn = INPLACE[op]
    base = sample((3, 4), dtype)
    others = [operand_arrays(op, dtype, (3, 4), seed=1), operand_arrays(op, "int16", (4,), seed=2),
              operand_arrays(op, "float32", (3, 1), seed=3), True, 2, -1, 300, 1.5]
    for b in others:
        a_np = base.copy()
        a_m = mnp.asarray(base.copy())
        b_m = mnp.asarray(b) if isinstance(b, numpy.ndarray) else b
        with warnings.catch_warnings(), numpy.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                r = fn(a_np, b)
                assert r is a_np
            except Exception as e:
                with pytest.raises(_kind(e)):
                    _materialize(fn(a_m, b_m))
                if isinstance(e, ValueError):  # raised while computing: numpy keeps partial results
                    assert a_m.shape == base.shape and numpy.asarray(a_m).dtype == base.dtype  # still readable
                else:  # refused before computing: the array is as it was
                    assert_same(a_m, base)
                continue
            r_m = fn(a_m, b_m)
        assert r_m is a_m
        assert_same(a_m, a_np, rtol=_pow_rtol(fn, a_np))


def test_inplace_visible_through_views():
    x = sample((6,), "int32")
    a_np, a_m = x.copy(), mnp.asarray(x.copy())
    v_np, v_m = a_np[1:3], a_m[1:3]
    a_np += 5
    a_m += 5
    assert_same(v_m, v_np)
    v_np *= 3
    v_m *= 3
    assert_same(a_m, a_np)
    w_np, w_m = a_np[::-2], a_m[::-2]
    w_np -= a_np[:3]
    w_m -= a_m[:3]
    assert_same(a_m, a_np)
    assert_same(v_m, v_np)


def test_inplace_2d_view_and_overlap():
    x = sample((4, 5), "float64")
    a_np, a_m = x.copy(), mnp.asarray(x.copy())
    col_np, col_m = a_np[:, 1], a_m[:, 1]
    col_np /= 4.0
    col_m /= 4.0
    assert_same(a_m, a_np)
    # overlapping operands: numpy buffers, so the result is as if b were copied first
    a_np += a_np[::-1]
    a_m += a_m[::-1]
    assert_same(a_m, a_np)
    a_np[1:] -= a_np[:-1]
    a_m[1:] -= a_m[:-1]
    assert_same(a_m, a_np)


def test_inplace_int_with_float_raises_ufunctypeerror():
    a_np = numpy.arange(4, dtype="int32")
    a_m = mnp.asarray(a_np.copy())
    with pytest.raises(TypeError) as e_np:
        a_np += 1.5
    with pytest.raises(TypeError) as e_m:
        a_m += 1.5
    assert isinstance(e_np.value, numpy._core._exceptions.UFuncTypeError)
    assert type(e_m.value).__name__ == "UFuncTypeError" or "UFuncTypeError" in [
        c.__name__ for c in type(e_m.value).__mro__]
    assert "same_kind" in str(e_m.value)
    assert_same(a_m, a_np)
    with pytest.raises(TypeError):
        a_m /= 2
    with pytest.raises(TypeError):
        a_m += mnp.ones(4, dtype="float32")


def test_inplace_broadcast_to_larger_shape_raises_valueerror():
    a_np = numpy.zeros((4,), "float32")
    a_m = mnp.zeros((4,), "float32")
    with pytest.raises(ValueError):
        a_np += numpy.ones((3, 4), "float32")
    with pytest.raises(ValueError):
        a_m += mnp.ones((3, 4), "float32")
    assert_same(a_m, a_np)


def test_inplace_on_readonly_raises():
    a = numpy.arange(3.0)
    a.setflags(write=False)
    with pytest.raises(ValueError):
        a += 1
    m = mnp.broadcast_to(mnp.ones(3), (2, 3))
    with pytest.raises(ValueError):
        m += 1


def test_inplace_uint8_overflow_scalar():
    a_np = numpy.arange(3, dtype="uint8")
    a_m = mnp.asarray(a_np.copy())
    check(lambda x: operator.iadd(x, 300), [a_np], [a_m])
    check(lambda x: operator.iadd(x, 255), [a_np.copy()], [mnp.asarray(a_np.copy())])


# ---------------------------------------------------------------------------------------------- misc
def test_comparison_with_non_numeric():
    a = numpy.arange(3)
    m = mnp.asarray(a)
    assert (m == None) is not True  # noqa: E711
    assert_same(m == None, a == None)  # noqa: E711
    assert_same(m != None, a != None)  # noqa: E711


def test_operator_chains_are_lazy_and_correct():
    a = sample((1000,), "float32")
    b = sample((1000,), "float32", seed=1)
    m, n = mnp.asarray(a), mnp.asarray(b)
    assert_same(((m + n) * 2.0 - m / (abs(n) + 1.0)) ** 2 > 10.0,
                ((a + b) * 2.0 - a / (abs(b) + 1.0)) ** 2 > 10.0)
    assert_same(-(m // 3.0) % 2.5, -(a // 3.0) % 2.5)
