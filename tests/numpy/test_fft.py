"""mnn.numpy.fft against numpy.fft: every function over dtypes, lengths (powers of two, mixed
radix, odd, primes small and large through Bluestein), n= padding/truncation, axes/s=, all norm
modes, non-contiguous input, and numpy's errors."""
import numpy
import pytest

from helpers import run_under_isa

import mnn
import mnn.numpy as mnp
import mnn.numpy.fft as mfft

NORMS = [None, "backward", "ortho", "forward"]
LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 12, 15, 16, 17, 30, 49, 64, 97, 100, 101, 128, 210, 243, 257, 1000, 1009]


def _tol(dt):
    return 2e-5 if numpy.dtype(dt) in (numpy.float32, numpy.complex64, numpy.float16) else 1e-12


def _data(shape, dt, seed=0):
    r = numpy.random.default_rng(seed)
    x = r.standard_normal(shape)
    if numpy.dtype(dt).kind == "c":
        x = x + 1j * r.standard_normal(shape)
    if numpy.dtype(dt).kind in "iub":
        x = x * 10
    return x.astype(dt)


def _check(got, want, rtol):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = max(numpy.abs(want).max(), 1e-30) if want.size else 1.0
    numpy.testing.assert_allclose(got, want, rtol=0, atol=rtol * scale)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dt", ["complex128", "complex64"])
def test_fft_ifft_lengths(n, dt):
    x = _data((n,), dt, n)
    _check(mfft.fft(mnp.asarray(x)), numpy.fft.fft(x), _tol(dt))
    _check(mfft.ifft(mnp.asarray(x)), numpy.fft.ifft(x), _tol(dt))


@pytest.mark.parametrize("n", LENGTHS)
def test_rfft_irfft_lengths(n):
    x = _data((n,), "float64", n)
    _check(mfft.rfft(mnp.asarray(x)), numpy.fft.rfft(x), 1e-12)
    y = numpy.fft.rfft(x)
    _check(mfft.irfft(mnp.asarray(y), n), numpy.fft.irfft(y, n), 1e-12)
    if n > 1:  # length-1 spectra have no default n (numpy raises, as test_errors checks)
        _check(mfft.irfft(mnp.asarray(y)), numpy.fft.irfft(y), 1e-12)
        _check(mfft.hfft(mnp.asarray(y)), numpy.fft.hfft(y), 1e-12)
    _check(mfft.ihfft(mnp.asarray(x)), numpy.fft.ihfft(x), 1e-12)


@pytest.mark.parametrize("dt", ["bool", "int8", "int32", "int64", "uint8", "float16", "float32", "float64",
                                "complex64", "complex128"])
@pytest.mark.parametrize("norm", NORMS)
def test_dtypes_and_norms(dt, norm):
    x = _data((3, 10), dt, 1)
    m = mnp.asarray(x)
    for f in ("fft", "ifft", "hfft", "fft2", "ifft2", "fftn", "ifftn"):
        _check(getattr(mfft, f)(m, norm=norm), getattr(numpy.fft, f)(x, norm=norm), _tol(dt))
    if numpy.dtype(dt).kind != "c":
        for f in ("rfft", "ihfft", "rfft2", "rfftn"):
            _check(getattr(mfft, f)(m, norm=norm), getattr(numpy.fft, f)(x, norm=norm), _tol(dt))
        with pytest.raises(TypeError):
            mfft.rfft(mnp.asarray(x.astype(complex)))
    for f in ("irfft", "irfft2", "irfftn"):
        _check(getattr(mfft, f)(m, norm=norm), getattr(numpy.fft, f)(x, norm=norm), _tol(dt))


@pytest.mark.parametrize("n", [1, 5, 8, 13, 20])
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_n_and_axis(n, axis):
    x = _data((6, 7, 8), "complex128", 2)
    m = mnp.asarray(x)
    for f in ("fft", "ifft", "irfft", "hfft"):
        _check(getattr(mfft, f)(m, n=n, axis=axis), getattr(numpy.fft, f)(x, n=n, axis=axis), 1e-12)
    r = x.real.copy()
    for f in ("rfft", "ihfft"):
        _check(getattr(mfft, f)(mnp.asarray(r), n=n, axis=axis), getattr(numpy.fft, f)(r, n=n, axis=axis), 1e-12)


def test_non_contiguous_and_batched():
    base = _data((9, 12, 10), "complex128", 3)
    x = base[::2, :, ::-3]
    m = mnp.asarray(base)[::2, :, ::-3]
    for axis in (0, 1, 2):
        _check(mfft.fft(m, axis=axis), numpy.fft.fft(x, axis=axis), 1e-12)
    r = base.real[:, 1::2, :]
    mr = mnp.asarray(numpy.ascontiguousarray(base.real))[:, 1::2, :]
    _check(mfft.rfftn(mr), numpy.fft.rfftn(r), 1e-12)
    _check(mfft.fft2(mnp.asarray(x).T), numpy.fft.fft2(x.T), 1e-12)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("s,axes", [(None, None), ((4, 6), None), (None, (0,)), ((5,), (1,)), ((3, 8), (2, 0)),
                                    (None, (-1, 0)), ((7, 7, 7), None), ((-1, 4), (0, 1))])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_nd(s, axes, norm):
    x = _data((4, 5, 6), "complex128", 4)
    m = mnp.asarray(x)
    for f in ("fftn", "ifftn", "irfftn"):
        _check(getattr(mfft, f)(m, s=s, axes=axes, norm=norm), getattr(numpy.fft, f)(x, s=s, axes=axes, norm=norm),
               1e-12)
    r = x.real.copy()
    _check(mfft.rfftn(mnp.asarray(r), s=s, axes=axes, norm=norm), numpy.fft.rfftn(r, s=s, axes=axes, norm=norm),
           1e-12)


def test_2d_functions():
    x = _data((6, 9), "float64", 5)
    y = numpy.fft.rfft2(x)
    _check(mfft.rfft2(mnp.asarray(x)), y, 1e-12)
    _check(mfft.irfft2(mnp.asarray(y)), numpy.fft.irfft2(y), 1e-12)
    _check(mfft.irfft2(mnp.asarray(y), s=(6, 9)), numpy.fft.irfft2(y, s=(6, 9)), 1e-12)
    _check(mfft.fft2(mnp.asarray(x), s=(3, 12)), numpy.fft.fft2(x, s=(3, 12)), 1e-12)


def test_large_prime_and_long():
    for n in (4099, 65537, 2 ** 16, 3 ** 7 * 5):
        x = _data((n,), "complex128", n)
        _check(mfft.fft(mnp.asarray(x)), numpy.fft.fft(x), 1e-12)
        xs = x.astype("complex64")
        _check(mfft.fft(mnp.asarray(xs)), numpy.fft.fft(xs), 1e-5)


def test_roundtrip():
    x = _data((1 << 12,), "complex128", 6)
    numpy.testing.assert_allclose(numpy.asarray(mfft.ifft(mfft.fft(mnp.asarray(x)))), x, atol=1e-13)


def test_freq_and_shift():
    for n in (1, 2, 5, 8, 9):
        for d in (1.0, 0.1, 3):
            _check(mfft.fftfreq(n, d), numpy.fft.fftfreq(n, d), 1e-15)
            _check(mfft.rfftfreq(n, d), numpy.fft.rfftfreq(n, d), 1e-15)
    x = numpy.arange(30).reshape(5, 6)
    for axes in (None, 0, 1, (0, 1), (-1,)):
        numpy.testing.assert_array_equal(numpy.asarray(mfft.fftshift(mnp.asarray(x), axes)),
                                         numpy.fft.fftshift(x, axes))
        numpy.testing.assert_array_equal(numpy.asarray(mfft.ifftshift(mnp.asarray(x), axes)),
                                         numpy.fft.ifftshift(x, axes))
    numpy.testing.assert_array_equal(numpy.asarray(mfft.fftshift(mnp.arange(7))), numpy.fft.fftshift(numpy.arange(7)))


def test_errors():
    m = mnp.ones(4)
    with pytest.raises(ValueError):
        mfft.fft(m, n=0)
    with pytest.raises(ValueError):
        mfft.fft(mnp.zeros(0))
    with pytest.raises(ValueError):
        mfft.irfft(mnp.ones(1))
    with pytest.raises(ValueError, match="Invalid norm"):
        mfft.fft(m, norm="bad")
    with pytest.raises(IndexError):
        mfft.fft(m, axis=1)
    with pytest.raises(IndexError):
        mfft.fft(mnp.asarray(1.0))
    with pytest.raises(IndexError):
        mfft.fft2(m)
    with pytest.raises(ValueError):
        mfft.fftn(mnp.ones((2, 2)), s=(2,), axes=(0, 1))


def test_empty_batch():
    x = numpy.zeros((0, 8), dtype="complex128")
    _check(mfft.fft(mnp.asarray(x)), numpy.fft.fft(x), 1e-12)
    _check(mfft.rfft(mnp.asarray(x.real)), numpy.fft.rfft(x.real), 1e-12)


# Lengths the kernels specialise: powers of two (radix-8/4 passes), 1000 = 5^3 8, 3^3 5^3 (odd
# radices only: SIMD passes with odd ido, masked tails), long ones (2^17...), a radix-7 factor
# (generic pass between SIMD passes), and a large prime (Bluestein over a long smooth length).
SPECIAL = [1024, 1000, 3 ** 3 * 5 ** 3, 2 ** 17, 2 ** 18 + 2 ** 17, 2 ** 17 * 5, 7 * 2 ** 15, 100003]


@pytest.mark.parametrize("n", SPECIAL)
@pytest.mark.parametrize("dt", ["complex128", "complex64"])
def test_specialised_lengths(n, dt):
    x = _data((n,), dt, n % 1000)
    _check(mfft.fft(mnp.asarray(x)), numpy.fft.fft(x), _tol(dt))
    _check(mfft.ifft(mnp.asarray(x), norm="ortho"), numpy.fft.ifft(x, norm="ortho"), _tol(dt))


@pytest.mark.parametrize("shape,axis", [((1000, 7), 0), ((64, 1000), 0), ((1000, 1000), 0), ((5, 6, 9), 1),
                                        ((125, 3), 0), ((1024, 5), 0), ((7, 2), 0), ((97, 4), 0)])
@pytest.mark.parametrize("dt", ["complex128", "complex64"])
def test_columns(shape, axis, dt):
    # lines along a non-last axis go two columns at a time (odd column counts pair the last with itself)
    x = _data(shape, dt, 3)
    _check(mfft.fft(mnp.asarray(x), axis=axis), numpy.fft.fft(x, axis=axis), _tol(dt))
    _check(mfft.ifft(mnp.asarray(x), axis=axis, norm="forward"), numpy.fft.ifft(x, axis=axis, norm="forward"),
           _tol(dt))


@pytest.mark.parametrize("shape", [(1000, 1000), (1024, 512), (3, 1000), (375, 6), (2, 3, 40)])
def test_fft2_fftn_shapes(shape):
    x = _data(shape, "complex128", 4)
    for norm in (None, "ortho"):
        _check(mfft.fft2(mnp.asarray(x), norm=norm), numpy.fft.fft2(x, norm=norm), 1e-12)
        _check(mfft.ifftn(mnp.asarray(x), norm=norm), numpy.fft.ifftn(x, norm=norm), 1e-12)
    xt = x.T  # non-contiguous input
    _check(mfft.fft2(mnp.asarray(xt)), numpy.fft.fft2(xt), 1e-12)
    r = x.real.copy()
    _check(mfft.rfftn(mnp.asarray(r)), numpy.fft.rfftn(r), 1e-12)


def test_long_real():
    for n in (2 ** 18, 2 ** 18 + 2):
        x = _data((n,), "float64", 9)
        y = numpy.fft.rfft(x)
        _check(mfft.rfft(mnp.asarray(x)), y, 1e-12)
        _check(mfft.irfft(mnp.asarray(y), n), numpy.fft.irfft(y, n), 1e-12)
        _check(mfft.hfft(mnp.asarray(y[:1000])), numpy.fft.hfft(y[:1000]), 1e-12)


def test_zero_length_errors():
    for name in ("fft", "ifft", "rfft", "hfft", "ihfft"):
        with pytest.raises(ValueError):
            getattr(numpy.fft, name)(numpy.zeros(0))  # numpy's behaviour, which mnn follows
        with pytest.raises(ValueError):
            getattr(mfft, name)(mnp.zeros(0))
    with pytest.raises(ValueError):
        mfft.fft2(mnp.zeros((0, 4)))
    with pytest.raises(ValueError):
        numpy.fft.fft2(numpy.zeros((0, 4)))


ISA_PROGRAM = r"""
import json, sys
import numpy
import mnn.numpy as mnp
rng = numpy.random.default_rng(11)
out = {}
for shape, axis in [((1000,), 0), ((1024,), 0), ((3375,), 0), ((2 ** 17,), 0), ((40, 7), 0), ((6, 1000), 0), ((250, 8), 0)]:
    x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    for f in ("fft", "ifft"):
        y = numpy.asarray(getattr(mnp.fft, f)(mnp.asarray(x), axis=axis))
        out[f"{f}{shape}"] = [y.real.ravel().tolist(), y.imag.ravel().tolist()]
json.dump(out, sys.stdout)
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_simd_passes_match_generic(isa):
    # the SIMD complex128 passes (pairs of i, pairs of k, pairs of columns) against the generic ones
    ref, got = run_under_isa(ISA_PROGRAM, "scalar"), run_under_isa(ISA_PROGRAM, isa)
    assert ref.keys() == got.keys()
    for k in ref:
        a = numpy.array(ref[k][0]) + 1j * numpy.array(ref[k][1])
        b = numpy.array(got[k][0]) + 1j * numpy.array(got[k][1])
        assert numpy.abs(a - b).max() <= 1e-12 * numpy.abs(a).max(), k
