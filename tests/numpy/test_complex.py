"""complex64/complex128 against numpy: creation and promotion (NEP 50 weak complex scalars),
casts both ways, elementwise math, parts (real/imag/conj/angle), predicates, reductions, matmul,
buffer-protocol interop and printing."""
import warnings

import numpy
import pytest

import mnn.numpy as mnp

CDTYPES = ["complex64", "complex128"]
RTOL = {"complex64": 2e-6, "complex128": 1e-13, "float32": 2e-6, "float64": 1e-13}


def _sample(shape, dtype, seed=0):
    r = numpy.random.default_rng(seed)
    return (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(dtype)


def _check(got, want, rtol=None, atol=0.0):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if rtol is None:
        rtol = RTOL.get(want.dtype.name, 0)
    numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("dt", CDTYPES)
def test_dtype_objects_and_names(dt):
    d = mnp.dtype(dt)
    nd = numpy.dtype(dt)
    assert (d.kind, d.itemsize, d.char, d.str, d.name) == (nd.kind, nd.itemsize, nd.char, nd.str, nd.name)
    assert mnp.dtype(nd) is d
    assert mnp.dtype(getattr(numpy, dt)) is d
    assert mnp.complex_ is mnp.complex128 and mnp.dtype(complex) is mnp.dtype("complex128")
    assert mnp.issubdtype(d, mnp.complexfloating)
    assert mnp.finfo(d).eps == numpy.finfo(nd).eps


@pytest.mark.parametrize("a,b", [(x, y) for x in ["bool", "int8", "int16", "int32", "int64", "uint8", "uint32", "uint64",
                                                  "float16", "float32", "float64", "complex64", "complex128"]
                                 for y in CDTYPES])
def test_promotion(a, b):
    assert mnp.promote_types(a, b).name == numpy.promote_types(a, b).name
    x = mnp.ones(2, dtype=a) + mnp.ones(2, dtype=b)
    assert x.dtype.name == numpy.result_type(a, b).name


@pytest.mark.parametrize("dt", ["bool", "int8", "int64", "uint8", "float16", "float32", "float64"] + CDTYPES)
def test_weak_python_complex(dt):
    a = numpy.ones(3, dtype=dt)
    m = mnp.asarray(a)
    for op in (lambda x: x + 1j, lambda x: 2.5 * x, lambda x: x * (1 + 2j), lambda x: x - 3):
        if dt == "bool" and op(numpy.ones(1, bool)).dtype == bool:
            continue
        want = op(a)
        _check(op(m), want)
    assert mnp.result_type(a.dtype, 1j).name == numpy.result_type(a.dtype, 1j).name


def test_array_from_python():
    for obj in ([1 + 2j, 3], [[1j], [2.5]], 1j, [True, 1j], (1, 2.0, 3j)):
        want = numpy.array(obj)
        got = mnp.array(obj)
        _check(got, want)
    _check(mnp.array([1, 2], dtype="complex64"), numpy.array([1, 2], dtype="complex64"))


@pytest.mark.parametrize("src", ["bool", "int8", "int32", "uint64", "float16", "float32", "float64"] + CDTYPES)
@pytest.mark.parametrize("dst", ["bool", "int16", "int64", "uint8", "float16", "float32", "float64"] + CDTYPES)
def test_casts(src, dst):
    if src in CDTYPES:
        a = (numpy.array([1.5 + 2j, -3 - 0.5j, 0j, 0 + 1j, 7 + 0j])).astype(src)
    else:
        a = numpy.array([0, 1, 2, 3, 1]).astype(src)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        want = a.astype(dst)
    if src in CDTYPES and dst not in CDTYPES and dst != "bool":
        with pytest.warns(mnp.ComplexWarning):
            got = mnp.asarray(a).astype(dst)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = mnp.asarray(a).astype(dst)
    _check(got, want, rtol=0)


@pytest.mark.parametrize("dt", CDTYPES)
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "power", "equal", "not_equal"])
def test_binary(dt, name):
    a, b = _sample((4, 5), dt, 1), _sample((5,), dt, 2)
    b[0] = 0
    b[1] = a[0, 1]
    a[1, 2] = 2 + 0j
    f = getattr(numpy, name)
    with numpy.errstate(all="ignore"):
        want = f(a, b)
    got = getattr(mnp, name)(mnp.asarray(a), mnp.asarray(b))
    _check(got, want, rtol=RTOL[dt] * (50 if name == "power" else 1))


@pytest.mark.parametrize("dt", CDTYPES)
def test_integer_powers_and_scalars(dt):
    a = _sample((7,), dt, 3)
    for e in (0, 1, 2, 3, -1, -2, 0.5, 2 + 1j):
        want = a ** e
        _check(mnp.asarray(a) ** e, want, rtol=RTOL[dt] * 50)


@pytest.mark.parametrize("dt", CDTYPES)
@pytest.mark.parametrize("name", ["negative", "positive", "square", "reciprocal", "sqrt", "exp", "log", "log2",
                                  "log10", "expm1", "log1p", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                  "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "absolute",
                                  "sign", "conjugate", "isnan", "isinf", "isfinite"])
def test_unary(dt, name):
    a = _sample((3, 4), dt, 4)
    a[0, 0] = 0
    a[0, 1] = -2 + 0j
    f = getattr(numpy, name)
    with numpy.errstate(all="ignore"):
        want = f(a)
    got = getattr(mnp, name)(mnp.asarray(a))
    _check(got, want, rtol=RTOL[dt] * 20, atol=RTOL[dt] if name in ("expm1", "log1p", "sin", "tan") else 0)


def test_special_values():
    a = numpy.array([complex(numpy.nan, 1), complex(1, numpy.inf), complex(-numpy.inf, 0), 0j, 1 + 1j])
    m = mnp.asarray(a)
    for name in ("isnan", "isinf", "isfinite", "absolute"):
        _check(getattr(mnp, name)(m), getattr(numpy, name)(a))


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc", "floor_divide", "remainder", "bitwise_and", "invert",
                                  "arctan2", "logaddexp"])
def test_unsupported_raise_type_error(name):
    m = mnp.asarray(numpy.array([1 + 1j]))
    f = getattr(mnp, name)
    with pytest.raises(TypeError):
        f(m) if f.nin == 1 else f(m, m)


@pytest.mark.parametrize("name", ["rint", "exp2"])
def test_rint_and_exp2_have_complex_loops_as_numpy(name):
    a = numpy.array([1.5 + 2.5j, -0.5 - 1.5j, 0.3 + 0.2j, complex(numpy.inf, numpy.nan), -0.0 + 0.5j])
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        want = getattr(numpy, name)(a)
        got = numpy.asarray(getattr(mnp, name)(mnp.asarray(a)))
    assert got.dtype == want.dtype
    assert (got.view(numpy.uint8) == want.view(numpy.uint8)).all(), (got, want)


def test_parts_and_angle():
    for dt in CDTYPES:
        a = _sample((3, 4), dt, 5)[:, ::2]  # non-contiguous
        m = mnp.asarray(numpy.ascontiguousarray(_sample((3, 4), dt, 5)))[:, ::2]
        _check(m.real, a.real, rtol=0)
        _check(m.imag, a.imag, rtol=0)
        _check(mnp.real(m), numpy.real(a), rtol=0)
        _check(mnp.imag(m), numpy.imag(a), rtol=0)
        _check(m.conj(), a.conj(), rtol=0)
        _check(mnp.conjugate(m), numpy.conjugate(a), rtol=0)
        _check(mnp.angle(m), numpy.angle(a))
        _check(mnp.angle(m, deg=True), numpy.angle(a, deg=True))
        with pytest.raises(ValueError):  # not a view here: writes must not silently vanish
            m.real[0] = 1
    r = numpy.arange(4.0)
    _check(mnp.asarray(r).real, r.real)
    _check(mnp.asarray(r).imag, r.imag)
    _check(mnp.angle(mnp.asarray(r - 2)), numpy.angle(r - 2))


def test_is_family():
    a = numpy.array([1 + 0j, 1 + 1e-20j, 2 + 3j])
    m = mnp.asarray(a)
    _check(mnp.iscomplex(m), numpy.iscomplex(a))
    _check(mnp.isreal(m), numpy.isreal(a))
    assert mnp.iscomplexobj(m) and not mnp.isrealobj(m)
    assert not mnp.iscomplexobj(mnp.ones(2)) and mnp.isrealobj([1.0])
    _check(mnp.isreal(mnp.ones(3)), numpy.isreal(numpy.ones(3)))
    c = numpy.array([1 + 1e-16j, 2 + 0j])
    _check(mnp.real_if_close(mnp.asarray(c)), numpy.real_if_close(c))
    _check(mnp.real_if_close(m), numpy.real_if_close(a))


@pytest.mark.parametrize("dt", CDTYPES)
def test_reductions(dt):
    a = _sample((5, 6, 7), dt, 6)
    m = mnp.asarray(a)
    for axis in (None, 0, 1, 2, (0, 2)):
        _check(mnp.sum(m, axis=axis), a.sum(axis=axis), rtol=RTOL[dt] * 10)
        _check(mnp.mean(m, axis=axis), a.mean(axis=axis), rtol=RTOL[dt] * 10)
        _check(mnp.prod(m[:2, :3], axis=axis), a[:2, :3].prod(axis=axis), rtol=RTOL[dt] * 10)
        _check(mnp.any(m, axis=axis), a.any(axis=axis))
    _check(mnp.sum(m[:, ::-2]), a[:, ::-2].sum(), rtol=RTOL[dt] * 10)
    _check(mnp.sum(mnp.asarray(a[:0])), a[:0].sum())
    _check(mnp.prod(mnp.asarray(a[:0]), axis=0), a[:0].prod(axis=0))
    with pytest.raises(TypeError):
        mnp.max(m)


@pytest.mark.parametrize("dt", CDTYPES)
def test_matmul(dt):
    a, b = _sample((3, 4), dt, 7), _sample((4, 5), dt, 8)
    _check(mnp.asarray(a) @ mnp.asarray(b), a @ b, rtol=RTOL[dt] * 10)
    x = numpy.arange(4.0)
    _check(mnp.asarray(a) @ mnp.asarray(x), a @ x, rtol=RTOL[dt] * 10)


@pytest.mark.parametrize("dt", CDTYPES)
def test_interop_zero_copy(dt):
    a = _sample((3, 4), dt, 9)
    m = mnp.asarray(a)
    assert memoryview(m).format == ("Zf" if dt == "complex64" else "Zd")
    back = numpy.asarray(m)
    assert back.dtype == a.dtype
    numpy.testing.assert_array_equal(back, a)
    a[0, 0] = 42 + 1j  # zero-copy: mnn sees numpy's write
    assert m[0, 0].item() == 42 + 1j
    assert isinstance(m[1, 1].item(), complex)
    assert m.tolist() == a.tolist()
    assert complex(m[0, 0]) == 42 + 1j
    t = numpy.asarray(m[:, ::2])
    numpy.testing.assert_array_equal(t, a[:, ::2])


def test_printing():
    for a in (numpy.array([1 + 2j, 0 - 1j]), numpy.array([1 + 2j, 0 - 1j], dtype="complex64"),
              numpy.array([[1.5 + 2j, -3.25 - 1e-3j], [numpy.nan + 1j, 1 + numpy.inf * 1j]]),
              numpy.array([1e10 + 1j, 1j]), numpy.zeros((0,), dtype="complex64"), numpy.array(1 + 2j),
              numpy.array([0.1 + 0.2j], dtype="complex64")):
        m = mnp.asarray(a)
        assert repr(m) == repr(a)
        assert str(m) == str(a)
    for v in (1 + 2j, 1j, -1.5 - 0j, 2.5 + 0j):
        for dt in CDTYPES:
            s = getattr(numpy, dt)(v)
            m = mnp.asarray(numpy.array(v, dtype=dt))
            assert str(m) == str(s)


def test_assignment_and_where():
    a = numpy.zeros(4, dtype="complex128")
    m = mnp.asarray(a.copy())
    m[1] = 2 + 3j
    a[1] = 2 + 3j
    m[2:] = 5
    a[2:] = 5
    _check(m, a)
    c = numpy.array([True, False, True, False])
    _check(mnp.where(mnp.asarray(c), m, 1j), numpy.where(c, a, 1j))
    f = mnp.zeros(2)
    with pytest.raises(TypeError):
        f[0] = 1j


@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "greater_equal", "maximum", "minimum", "fmax",
                                  "fmin"])
def test_lexicographic_ordering(name):
    # numpy orders complex numbers by real part, then imaginary part; NaN parts are unordered
    re = [1, 1, 2, 0, numpy.nan, 1, 3]
    im = [1, 2, -1, 5, 0, numpy.nan, 0]
    a = numpy.array([complex(r, i) for r, i in zip(re, im)])
    b = numpy.array([complex(1, 1), complex(1, 1), complex(1, 5), complex(0, 5), 1, 1, complex(3, numpy.nan)])
    with numpy.errstate(invalid="ignore"):
        want = getattr(numpy, name)(a, b)
    _check(getattr(mnp, name)(mnp.asarray(a), mnp.asarray(b)), want, rtol=0)


@pytest.mark.parametrize("dt", CDTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (1,), (3, 1, 2)])
def test_zero_d_empty_broadcast(dt, shape):
    a = _sample(shape, dt, 11)
    m = mnp.asarray(a)
    _check(mnp.sqrt(m), numpy.sqrt(a), rtol=RTOL[dt] * 10)
    _check(m * (2 - 1j), a * (2 - 1j), rtol=RTOL[dt])
    _check(abs(m), numpy.abs(a))
    _check(mnp.sum(m), a.sum(), rtol=RTOL[dt] * 10)
    if shape == (3, 1, 2):
        c = _sample((4, 2), dt, 13)
        _check(m + mnp.asarray(c), a + c)


@pytest.mark.parametrize("dt", CDTYPES)
def test_var_std_and_creation(dt):
    a = _sample((4, 5), dt, 14)
    m = mnp.asarray(a)
    for axis in (None, 0, 1):
        _check(mnp.var(m, axis=axis), numpy.var(a, axis=axis), rtol=RTOL[dt] * 10)
        _check(mnp.std(m, axis=axis, ddof=1), numpy.std(a, axis=axis, ddof=1), rtol=RTOL[dt] * 10)
    _check(mnp.arange(4, dtype=dt), numpy.arange(4, dtype=dt))
    _check(mnp.arange(0.5, 2, 0.5, dtype=dt), numpy.arange(0.5, 2, 0.5, dtype=dt))
    _check(mnp.full(3, 1 - 2j, dtype=dt), numpy.full(3, 1 - 2j, dtype=dt))
    _check(mnp.concatenate([m, m]), numpy.concatenate([a, a]))
    _check(mnp.dot(m[0], m[1]), numpy.dot(a[0], a[1]), rtol=RTOL[dt] * 10)


def test_unsupported_reductions_raise_when_recorded():
    m = mnp.asarray(numpy.array([1 + 2j, 3j]))
    for f in (mnp.cumsum, mnp.cumprod, mnp.argmax, mnp.argmin, mnp.max, mnp.min):
        with pytest.raises(TypeError):
            f(m)


def test_dlpack_roundtrip_with_torch():
    torch = pytest.importorskip("torch")
    a = _sample((3,), "complex128", 15)
    t = torch.from_dlpack(mnp.asarray(a))
    assert t.dtype == torch.complex128
    numpy.testing.assert_array_equal(t.numpy(), a)
    back = mnp.from_dlpack(torch.tensor(a.astype("complex64")))
    _check(back, a.astype("complex64"), rtol=0)
