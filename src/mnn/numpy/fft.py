"""mnn.numpy.fft: numpy.fft on the engine's native FFT primitives.

The transforms are three registered primitives (csrc/ops/fft/fft.cpp, kernels in
csrc/backends/cpu/kernels/fft/fft.cpp): complex-to-complex, real-to-complex and
complex-to-real along one axis, any length (mixed radix 2/3/4/5/8 plus direct odd radices,
Bluestein for large prime factors; complex128 passes in AVX2/FMA, columns two
at a time), each scaled by the norm= factor. This module does numpy's
argument handling: dtypes (single precision stays single, as numpy 2), n= padding/truncation,
axes/s= for the n-d transforms, hfft/ihfft through the real transforms.
"""
import math
import struct

from .. import _core
from . import _dtypes
from ._common import asarray, write_out

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_SINGLE = ("float16", "float32", "complex64")


def _check_norm(norm):
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f'[mnn.numpy.fft] Invalid norm value {norm}; should be "backward","ortho" or "forward".')


def _swap(norm):
    _check_norm(norm)
    return {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}[norm]


def _scale(norm, n, forward, dtype=None):
    # numpy computes the factor in the input's real precision (result_type(a.real, 1.0)): for a
    # float16 input it is a float16 number, which shows in the results.
    r = (lambda v: struct.unpack("<e", struct.pack("<e", v))[0]) if getattr(dtype, "name", "") == "float16" \
        else (lambda v: v)
    if norm is None or norm == "backward":
        return 1.0 if forward else r(1.0 / n)
    if norm == "ortho":
        return r(1.0 / r(math.sqrt(n)))
    return r(1.0 / n) if forward else 1.0


def _axis(a, axis, fn):
    nd = a.ndim
    try:
        axis = int(axis)
    except TypeError:
        raise TypeError(f"[mnn.numpy.fft.{fn}] axis must be an integer") from None
    if not -nd <= axis < nd:
        raise IndexError(f"[mnn.numpy.fft.{fn}] axis {axis} is out of bounds for array of dimension {nd}")
    return axis % nd


def _check_n(n, fn):
    if n < 1:
        raise ValueError(f"[mnn.numpy.fft.{fn}] Invalid number of FFT data points ({n}) specified.")


def _resize(a, axis, n):
    """Truncates or zero-pads a along axis to length n (numpy's n= semantics)."""
    m = a.shape[axis]
    if n == m:
        return a
    if n < m:
        idx = [slice(None)] * a.ndim
        idx[axis] = slice(0, n)
        return a[tuple(idx)]
    from ._creation import zeros
    shape = list(a.shape)
    shape[axis] = n - m
    return _core.concatenate([a, zeros(tuple(shape), dtype=a.dtype)], axis, None)


def _as_complex(a):
    if a.dtype.kind == "c":
        return a
    return a.astype(_dtypes.complex64 if a.dtype.name in _SINGLE else _dtypes.complex128)


def _as_real(a, fn):
    if a.dtype.kind == "c":
        raise TypeError(f"[mnn.numpy.fft.{fn}] ufunc '{fn}' did not contain a loop with signature matching types: "
                        "real input expected, got complex")
    return a.astype(_dtypes.float32 if a.dtype.name in _SINGLE else _dtypes.float64)


def _c2c(a, n, axis, norm, forward, out, fn):
    a = asarray(a)
    _check_norm(norm)
    ax = _axis(a, axis, fn)
    if n is None:
        n = a.shape[ax]
    n = int(n)
    _check_n(n, fn)
    x = _resize(_as_complex(a), ax, n)
    r = _core.prim("fft_c2c", [x], [ax, 1 if forward else 0], [_scale(norm, n, forward, a.dtype)])
    return write_out(r, out, fn)


def fft(a, n=None, axis=-1, norm=None, out=None):
    return _c2c(a, n, axis, norm, True, out, "fft")


def ifft(a, n=None, axis=-1, norm=None, out=None):
    return _c2c(a, n, axis, norm, False, out, "ifft")


def rfft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    _check_norm(norm)
    ax = _axis(a, axis, "rfft")
    if n is None:
        n = a.shape[ax]
    n = int(n)
    _check_n(n, "rfft")
    x = _resize(_as_real(a, "rfft"), ax, n)
    r = _core.prim("fft_r2c", [x], [ax], [_scale(norm, n, True, a.dtype)])
    return write_out(r, out, "rfft")


def irfft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    _check_norm(norm)
    ax = _axis(a, axis, "irfft")
    if n is None:
        n = 2 * (a.shape[ax] - 1)
    n = int(n)
    _check_n(n, "irfft")
    x = _resize(_as_complex(a), ax, n // 2 + 1)
    r = _core.prim("fft_c2r", [x], [ax, n], [_scale(norm, n, False, a.dtype)])
    if a.dtype.name == "float16":  # numpy 2 hands float16 back for a float16 input
        r = r.astype(_dtypes.float16)
    return write_out(r, out, "irfft")


def hfft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    from ._complex import conj
    return irfft(conj(a) if a.dtype.kind == "c" else a, n, axis, _swap(norm), out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    from ._complex import conj
    return write_out(conj(rfft(a, n, axis, _swap(norm))), out, "ihfft")


def _cook_nd_args(a, s, axes, invreal=False, fn="fftn"):
    shapeless = s is None
    if s is None:
        s = list(a.shape) if axes is None else [a.shape[_axis(a, ax, fn)] for ax in axes]
    s = list(s)
    if axes is None:
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError(f"[mnn.numpy.fft.{fn}] Shape and axes have different lengths.")
    if len(s) > a.ndim:
        raise IndexError(f"[mnn.numpy.fft.{fn}] more axes than the array has dimensions")
    axes = [_axis(a, ax, fn) for ax in axes]
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    s = [a.shape[ax] if v is None or v == -1 else int(v) for v, ax in zip(s, axes)]
    return s, axes


def _raw_nd(a, s, axes, function, norm, out, fn):
    a = asarray(a)
    _check_norm(norm)
    s, axes = _cook_nd_args(a, s, axes, fn=fn)
    if function in (fft, ifft) and len(axes) > 1 and all(a.shape[ax] == n for ax, n in zip(axes, s)):
        # No padding or truncation: one primitive transforms every axis (last first, as the
        # loop below), the later ones in place; the norm factor applies once, so only when
        # every axis but the first has factor 1 (always, except norm="ortho"/"forward").
        fwd = function is fft
        scales = [_scale(norm, n, fwd, a.dtype) for n in s]
        if all(v == 1.0 for v in scales[:-1]) and min(s) >= 1:
            ints = [axes[-1], 1 if fwd else 0] + [axes[ii] for ii in reversed(range(len(axes) - 1))]
            return write_out(_core.prim("fft_c2c", [_as_complex(a)], ints, [scales[-1]]), out, fn)
    for ii in reversed(range(len(axes))):
        a = function(a, n=s[ii], axis=axes[ii], norm=norm)
    return write_out(a, out, fn)


def fftn(a, s=None, axes=None, norm=None, out=None):
    return _raw_nd(a, s, axes, fft, norm, out, "fftn")


def ifftn(a, s=None, axes=None, norm=None, out=None):
    return _raw_nd(a, s, axes, ifft, norm, out, "ifftn")


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _raw_nd(a, s, axes, fft, norm, out, "fft2")


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _raw_nd(a, s, axes, ifft, norm, out, "ifft2")


def rfftn(a, s=None, axes=None, norm=None, out=None):
    a = asarray(a)
    _check_norm(norm)
    s, axes = _cook_nd_args(a, s, axes, fn="rfftn")
    if not axes:
        raise ValueError("[mnn.numpy.fft.rfftn] at least one axis is needed")
    a = rfft(a, s[-1], axes[-1], norm)
    for ii in reversed(range(len(axes) - 1)):
        a = fft(a, s[ii], axes[ii], norm)
    return write_out(a, out, "rfftn")


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return rfftn(a, s, axes, norm, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    a = asarray(a)
    _check_norm(norm)
    s, axes = _cook_nd_args(a, s, axes, invreal=True, fn="irfftn")
    if not axes:
        raise ValueError("[mnn.numpy.fft.irfftn] at least one axis is needed")
    for ii in range(len(axes) - 1):
        a = ifft(a, s[ii], axes[ii], norm)
    return write_out(irfft(a, s[-1], axes[-1], norm), out, "irfftn")


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return irfftn(a, s, axes, norm, out)


def _freq_dtype(r, dtype, fn):
    """The Array API's dtype= (2024.12): a real floating dtype for the frequencies."""
    if dtype is None:
        return r
    dt = _dtypes.dtype(dtype)
    if dt.kind != "f":
        raise ValueError(f"[mnn.numpy.fft.{fn}] dtype must be a real floating-point data type, got {dt}")
    return r.astype(dt)


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    from ._creation import _check_device, arange
    _check_device(device, "fft.fftfreq")
    n = int(n)
    if n < 1:
        raise ValueError(f"[mnn.numpy.fft.fftfreq] n should be a positive integer, got {n}")
    val = 1.0 / (n * d)
    N = (n - 1) // 2 + 1
    idx = _core.concatenate([arange(0, N), arange(-(n // 2), 0)], 0, None)
    return _freq_dtype(idx * val, dtype, "fftfreq")


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    from ._creation import _check_device, arange
    _check_device(device, "fft.rfftfreq")
    n = int(n)
    if n < 1:
        raise ValueError(f"[mnn.numpy.fft.rfftfreq] n should be a positive integer, got {n}")
    return _freq_dtype(arange(0, n // 2 + 1) * (1.0 / (n * d)), dtype, "rfftfreq")


def _roll(x, shifts, axes):
    for sh, ax in zip(shifts, axes):
        m = x.shape[ax]
        if m == 0:
            continue
        k = sh % m
        if k == 0:
            continue
        lo = [slice(None)] * x.ndim
        hi = [slice(None)] * x.ndim
        lo[ax] = slice(m - k, None)
        hi[ax] = slice(0, m - k)
        x = _core.concatenate([x[tuple(lo)], x[tuple(hi)]], ax, None)
    return x


def _shift(x, axes, sign, fn):
    x = asarray(x)
    if axes is None:
        axes = list(range(x.ndim))
    elif isinstance(axes, int):
        axes = [axes]
    axes = [_axis(x, ax, fn) for ax in axes]
    return _roll(x, [sign * (x.shape[ax] // 2) for ax in axes], axes)


def fftshift(x, axes=None):
    return _shift(x, axes, 1, "fftshift")


def ifftshift(x, axes=None):
    return _shift(x, axes, -1, "ifftshift")
