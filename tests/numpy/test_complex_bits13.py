"""Complex absolute, square, reciprocal and the `z ** 2`, `z ** -1`, `z ** 0.5` fast paths against numpy,
bit for bit.

numpy's `ndarray.__pow__` runs square / reciprocal / sqrt for these three Python-number exponents on
complex arrays too. Its complex square on AVX2/AVX-512 forms the real part with one FMA (its baseline
loop, like mnn's scalar target, rounds each product), and its complex reciprocal is its own loop (not
the division 1 / z), so both are pinned here bit for bit where mnn runs an FMA target. Its complex
absolute there is larger * sqrt(fma(r, r, 1)) with r = smaller / larger (its baseline loop, like mnn's
scalar target, calls hypot)."""
import warnings

import numpy
import pytest

import mnn
import mnn.numpy as np

FMA_TARGET = mnn.engine.info()["isa"] in ("avx2", "avx512")
SPECIAL = [0j, complex(0, -0.0), complex(-0.0, 0), complex(numpy.inf, 0), complex(0, numpy.inf),
           complex(numpy.nan, 1), complex(1, numpy.nan), complex(numpy.inf, numpy.inf), 1e-310 + 1e-310j,
           1e308 + 1e308j, -3 + 4j, complex(-numpy.inf, 2)]


def values(dtype, n=20000):
    rng = numpy.random.default_rng(7)
    z = (rng.standard_normal(n) + 1j * rng.standard_normal(n)) * rng.choice([1e-3, 1.0, 10.0, 1e5], n)
    return numpy.concatenate([z, numpy.array(SPECIAL)]).astype(dtype)


def same_bits(got, want, exact=True):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    if exact:
        assert (got.view(numpy.uint8) == want.view(numpy.uint8)).all()
    else:  # rounding each product: within a few ulp where finite (inf - inf cases are NaN there)
        ok = numpy.isfinite(got) & numpy.isfinite(want)
        assert ok.mean() > 0.99
        numpy.testing.assert_allclose(got[ok], want[ok], rtol=4 * numpy.finfo(want.real.dtype).eps, atol=0)


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("name", ["square", "reciprocal", "pow2", "pow-1", "pow0.5"])
def test_complex_fast_powers_bits(dtype, name):
    z = values(dtype)
    mz = np.asarray(z)
    ops = {"square": (numpy.square, np.square), "reciprocal": (numpy.reciprocal, np.reciprocal),
           "pow2": (lambda x: x ** 2,) * 2, "pow-1": (lambda x: x ** -1,) * 2, "pow0.5": (lambda x: x ** 0.5,) * 2}
    ref, fn = ops[name]
    with warnings.catch_warnings(record=True) as w_want, numpy.errstate(all="warn"):
        warnings.simplefilter("always")
        want = ref(z)
    with warnings.catch_warnings(record=True) as w_got, np.errstate(all="warn"):
        warnings.simplefilter("always")
        got = numpy.asarray(fn(mz))
    # the square's last bits depend on FMA (numpy's SIMD loop); the rest are the same IEEE steps
    exact = FMA_TARGET or name not in ("square", "pow2")
    same_bits(got, want, exact)
    # (mnn does not report underflow, which numpy's default errstate ignores too)
    names = lambda ws: sorted({str(x.message) for x in ws if "underflow" not in str(x.message)})  # noqa: E731
    assert names(w_got) == names(w_want)


def test_complex_square_of_a_view_and_in_a_chain():
    z = values(numpy.complex128, 4000)[:4000].reshape(40, 100)[::2, ::3]
    mz = np.asarray(values(numpy.complex128, 4000)[:4000]).reshape(40, 100)[::2, ::3]
    want = z ** 2 + 1j
    got = mz ** 2 + 1j
    same_bits(got, want, FMA_TARGET)


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
def test_complex_absolute_bits(dtype):
    z = numpy.concatenate([values(dtype), numpy.array([complex(-numpy.nan, 1), complex(numpy.inf, numpy.nan),
                                                        complex(numpy.nan, -numpy.inf), 1.5e308 + 1.5e308j], dtype)])
    with numpy.errstate(all="ignore"):
        want = numpy.abs(z)
        got = numpy.asarray(np.abs(np.asarray(z)))
    same_bits(got, want, FMA_TARGET)
    nan = numpy.isnan(want)
    assert numpy.array_equal(numpy.isnan(got), nan) and numpy.array_equal(got[~nan], want[~nan]) or not FMA_TARGET
    strided = np.asarray(z)[::3]
    same_bits(np.abs(strided), numpy.ascontiguousarray(want[::3]), FMA_TARGET)


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("name", ["log10", "exp2"])
def test_complex_log10_and_exp2_bits(dtype, name):
    # numpy's nc_log10 scales log's parts by log10(e) (std::log10 divides by log(10)); its nc_exp2
    # is exp of the argument scaled by ln 2 (mnn had no complex exp2 and raised TypeError)
    z = numpy.concatenate([values(dtype), numpy.array([800 + 0j, -800 + 3j, 200 + 1j], dtype)])
    with numpy.errstate(all="ignore"), np.errstate(all="ignore"):
        want = getattr(numpy, name)(z)
        got = numpy.asarray(getattr(np, name)(np.asarray(z)))
    same_bits(got, want)
