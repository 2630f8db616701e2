"""cv2's Fourier and cosine transforms over mnn.numpy.fft (double precision, the result cast to
the input's type): dft / idft with cv2's flags and its CCS packing of real spectra, dct / idct
(orthonormal, as cv2), mulSpectrums, phaseCorrelate, getOptimalDFTSize."""
import math

from .. import numpy as _np
from ._common import as_image, fail

__all__ = [
    "DFT_INVERSE", "DFT_SCALE", "DFT_ROWS", "DFT_COMPLEX_OUTPUT", "DFT_REAL_OUTPUT", "DFT_COMPLEX_INPUT",
    "DCT_INVERSE", "DCT_ROWS",
    "dft", "idft", "dct", "idct", "mulSpectrums", "phaseCorrelate", "getOptimalDFTSize",
]

DFT_INVERSE, DFT_SCALE, DFT_ROWS, DFT_COMPLEX_OUTPUT, DFT_REAL_OUTPUT, DFT_COMPLEX_INPUT = 1, 2, 4, 16, 32, 64
DCT_INVERSE, DCT_ROWS = 1, 4

_FLT = ("float32", "float64")


def getOptimalDFTSize(vecsize):
    """The smallest 2^a 3^b 5^c >= vecsize (1 for 0, -1 for a negative size, as cv2)."""
    n = int(vecsize)
    if n < 0:
        return -1
    best = max(n, 1)
    while True:
        m = best
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return best
        best += 1


def _spectrum_input(src, fn, rows=False):
    """(array as float64 HxW or HxWx2, dtype, one_d, column): cv2's dft input rules."""
    a = as_image(src, fn)
    dt = str(a.dtype)
    cn = 1 if a.ndim < 3 else a.shape[2]
    if dt not in _FLT or a.ndim > 3 or cn not in (1, 2):
        raise fail(fn, f"src must be float32 or float64 with 1 or 2 channels (cv2: type == CV_32FC1 || CV_32FC2 || "
                       f"CV_64FC1 || CV_64FC2), got {dt} with {cn} channels")
    one_d = a.ndim == 1
    x = a.reshape((1, a.shape[0])) if one_d else a
    # a column vector is one 1-d transform along it (with DFT_ROWS, one per row of length 1)
    column = not one_d and not rows and x.shape[1] == 1 and x.shape[0] > 1
    if column:
        x = _np.swapaxes(x, 0, 1)
    return x.astype("float64"), dt, one_d, column


def _restore(r, dt, one_d, column):
    if column:
        r = _np.swapaxes(r, 0, 1)
    if one_d:
        r = r.reshape(tuple(r.shape[1:]))
    return _np.ascontiguousarray(r.astype(dt))


def _pack_line(c, n, axis_len_even):
    """CCS packing of a Hermitian spectrum's first half c (..., n//2 + 1) along the last axis: Re0,
    Re1, Im1, ..., and Re(n/2) last for even n."""
    parts = [_np.real(c[..., 0:1])]
    k = (n - 1) // 2
    if k > 0:
        mid = c[..., 1:k + 1]
        inter = _np.stack([_np.real(mid), _np.imag(mid)], axis=-1)
        parts.append(inter.reshape(tuple(mid.shape[:-1]) + (2 * k,)))
    if axis_len_even:
        parts.append(_np.real(c[..., n // 2:n // 2 + 1]))
    return _np.concatenate(parts, axis=-1)


def _unpack_line(p, n):
    """The inverse of _pack_line: the first half (..., n//2 + 1) of a Hermitian spectrum."""
    k = (n - 1) // 2
    cols = [p[..., 0:1] + 0j]
    if k > 0:
        pairs = p[..., 1:2 * k + 1].reshape(tuple(p.shape[:-1]) + (k, 2))
        cols.append(pairs[..., 0] + 1j * pairs[..., 1])
    if n % 2 == 0 and n > 1:
        cols.append(p[..., n - 1:n] + 0j)
    return _np.concatenate(cols, axis=-1)


def _pack2d(R, M, N):
    """CCS of a real MxN image's spectrum, given R = rfft2 (M, N//2 + 1)."""
    out_cols = []
    col0 = _pack_line(_np.swapaxes(R[:, 0:1], 0, 1)[:, :M // 2 + 1], M, M % 2 == 0 and M > 1)
    out_cols.append(_np.swapaxes(col0, 0, 1))
    k = (N - 1) // 2
    if k > 0:
        mid = R[:, 1:k + 1]
        out_cols.append(_np.stack([_np.real(mid), _np.imag(mid)], axis=-1).reshape((M, 2 * k)))
    if N % 2 == 0 and N > 1:
        last = _pack_line(_np.swapaxes(R[:, N // 2:N // 2 + 1], 0, 1)[:, :M // 2 + 1], M, M % 2 == 0 and M > 1)
        out_cols.append(_np.swapaxes(last, 0, 1))
    return _np.concatenate(out_cols, axis=1)


def _hermitian_column(half, M):
    """A full column of length M from its first M//2 + 1 entries of a Hermitian sequence."""
    h = half.reshape((-1,))
    if M == 1:
        return h[0:1]
    tail = _np.conj(_np.flip(h[1:(M + 1) // 2]))
    return _np.concatenate([h[:M // 2 + 1], tail])


def _unpack2d(P, M, N):
    """R (M, N//2 + 1) from a CCS-packed MxN spectrum."""
    cols = []
    c0 = _unpack_line(_np.swapaxes(P[:, 0:1], 0, 1), M)
    cols.append(_hermitian_column(c0, M).reshape((M, 1)))
    k = (N - 1) // 2
    if k > 0:
        pairs = P[:, 1:2 * k + 1].reshape((M, k, 2))
        cols.append(pairs[..., 0] + 1j * pairs[..., 1])
    if N % 2 == 0 and N > 1:
        cl = _unpack_line(_np.swapaxes(P[:, N - 1:N], 0, 1), M)
        cols.append(_hermitian_column(cl, M).reshape((M, 1)))
    return _np.concatenate(cols, axis=1)


def dft(src, dst=None, flags=0, nonzeroRows=0):
    fn = "dft"
    f = int(flags)
    x, dt, one_d, column = _spectrum_input(src, fn, bool(f & DFT_ROWS))
    inverse, scale, rows = bool(f & DFT_INVERSE), bool(f & DFT_SCALE), bool(f & DFT_ROWS)
    M, N = x.shape[0], x.shape[1]
    rowwise = rows or M == 1
    count = N if rowwise else M * N
    cplx = x.ndim == 3
    if cplx:
        z = x[..., 0] + 1j * x[..., 1]
        if inverse and f & DFT_REAL_OUTPUT:
            # cv2 takes the spectrum as Hermitian and reads only its first half
            h = z[:, :N // 2 + 1]
            r = (_np.fft.irfft(h, n=N, axis=1) if rowwise else _np.fft.irfft2(h, s=(M, N))) * count
            if scale:
                r = r * (1.0 / count)
            return _restore(r, dt, one_d, column)
        if inverse:
            r = (_np.fft.ifft(z, axis=1) if rowwise else _np.fft.ifft2(z)) * count
        else:
            r = _np.fft.fft(z, axis=1) if rowwise else _np.fft.fft2(z)
        if scale:
            r = r * (1.0 / count)
        if inverse and f & DFT_REAL_OUTPUT:
            return _restore(_np.real(r), dt, one_d, column)
        return _restore(_np.stack([_np.real(r), _np.imag(r)], axis=-1), dt, one_d, column)
    if inverse:
        # a real input to the inverse transform is a CCS-packed spectrum
        half = _unpack_line(x, N) if rowwise else _unpack2d(x, M, N)
        r = (_np.fft.irfft(half, n=N, axis=1) if rowwise else _np.fft.irfft2(half, s=(M, N))) * count
        if scale:
            r = r * (1.0 / count)
        return _restore(r, dt, one_d, column)
    if f & DFT_COMPLEX_OUTPUT:
        r = _np.fft.fft(x, axis=1) if rowwise else _np.fft.fft2(x)
        if scale:
            r = r * (1.0 / count)
        return _restore(_np.stack([_np.real(r), _np.imag(r)], axis=-1), dt, one_d, column)
    R = _np.fft.rfft(x, axis=1) if rowwise else _np.fft.rfft2(x)
    P = _pack_line(R, N, N % 2 == 0 and N > 1) if rowwise else _pack2d(R, M, N)
    if scale:
        P = P * (1.0 / count)
    return _restore(P, dt, one_d, column)


def idft(src, dst=None, flags=0, nonzeroRows=0):
    return dft(src, dst, int(flags) | DFT_INVERSE, nonzeroRows)


def _dct_matrix(n, inverse):
    """cv2's orthonormal DCT-II matrix (its transpose for the inverse)."""
    k = _np.arange(n, dtype="float64").reshape((n, 1))
    i = _np.arange(n, dtype="float64").reshape((1, n))
    c = _np.cos((2.0 * i + 1.0) * k * (math.pi / (2.0 * n))) * math.sqrt(2.0 / n)
    c = _np.concatenate([c[0:1] * (1.0 / math.sqrt(2.0)), c[1:]], axis=0) if n > 1 else c * (1.0 / math.sqrt(2.0))
    return _np.swapaxes(c, 0, 1) if inverse else c


def dct(src, dst=None, flags=0):
    fn = "dct"
    a = as_image(src, fn)
    dt = str(a.dtype)
    if dt not in _FLT or not (a.ndim in (1, 2) or (a.ndim == 3 and a.shape[2] == 1)):
        raise fail(fn, f"src must be a single-channel float32 or float64 array, got {dt}")
    x = a.reshape((1, a.shape[0])) if a.ndim == 1 else (a.reshape(tuple(a.shape[:2])) if a.ndim == 3 else a)
    x = x.astype("float64")
    inv = bool(int(flags) & DCT_INVERSE)
    rows = bool(int(flags) & DCT_ROWS)
    M, N = x.shape
    column = N == 1 and M > 1 and not rows
    if column:
        x = _np.swapaxes(x, 0, 1)
        M, N = N, M
    r = x @ _np.swapaxes(_dct_matrix(N, inv), 0, 1)
    if not rows and M > 1:
        r = _dct_matrix(M, inv) @ r
    if column:
        r = _np.swapaxes(r, 0, 1)
    return _np.ascontiguousarray(r.astype(dt))


def idct(src, dst=None, flags=0):
    return dct(src, dst, int(flags) | DCT_INVERSE)


def mulSpectrums(a, b, flags, c=None, conjB=False):
    """Per-element product of two spectra: complex (2-channel) arrays, or CCS-packed real ones
    (rows packed one by one with DFT_ROWS); conjB conjugates b."""
    fn = "mulSpectrums"
    x, y = as_image(a, fn, "a"), as_image(b, fn, "b")
    dt = str(x.dtype)
    if dt not in _FLT or x.dtype != y.dtype or tuple(x.shape) != tuple(y.shape):
        raise fail(fn, "a and b must be float32 or float64 arrays of the same size and type")
    xf, yf = x.astype("float64"), y.astype("float64")
    if x.ndim == 3 and x.shape[2] == 2:
        za, zb = xf[..., 0] + 1j * xf[..., 1], yf[..., 0] + 1j * yf[..., 1]
        r = za * (_np.conj(zb) if conjB else zb)
        return _np.stack([_np.real(r), _np.imag(r)], axis=-1).astype(dt)
    if x.ndim == 3 and x.shape[2] != 1 or x.ndim > 3:
        raise fail(fn, "spectra have 1 (CCS) or 2 (complex) channels")
    one_d = x.ndim == 1
    xf = xf.reshape((1, -1)) if one_d else xf.reshape(tuple(x.shape[:2]))
    yf = yf.reshape((1, -1)) if one_d else yf.reshape(tuple(x.shape[:2]))
    M, N = xf.shape
    column = N == 1 and M > 1 and not int(flags) & DFT_ROWS
    if column:
        xf, yf = _np.swapaxes(xf, 0, 1), _np.swapaxes(yf, 0, 1)
        M, N = N, M
    rowwise = bool(int(flags) & DFT_ROWS) or M == 1
    if rowwise:
        ha, hb = _unpack_line(xf, N), _unpack_line(yf, N)
        r = _pack_line(ha * (_np.conj(hb) if conjB else hb), N, N % 2 == 0 and N > 1)
    else:
        ha, hb = _unpack2d(xf, M, N), _unpack2d(yf, M, N)
        r = _pack2d(ha * (_np.conj(hb) if conjB else hb), M, N)
    if column:
        r = _np.swapaxes(r, 0, 1)
    return _np.ascontiguousarray(r.reshape(tuple(x.shape)).astype(dt))


def phaseCorrelate(src1, src2, window=None):
    """((dx, dy), response): the peak of the normalised cross-power spectrum's inverse (after
    cv2's optimal-size zero padding and fftshift), refined by the weighted centroid of its 5x5
    neighbourhood; response is that neighbourhood's sum over the padded area."""
    fn = "phaseCorrelate"
    a, b = as_image(src1, fn, "src1"), as_image(src2, fn, "src2")
    if str(a.dtype) not in _FLT or a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape) or a.ndim != 2:
        raise fail(fn, "src1 and src2 must be single-channel float32 or float64 images of one size and type")
    x, y = a.astype("float64"), b.astype("float64")
    if window is not None:
        w = as_image(window, fn, "window")
        if tuple(w.shape) != tuple(a.shape) or w.dtype != a.dtype:
            raise fail(fn, "window must have the images' size and type")
        x, y = x * w.astype("float64"), y * w.astype("float64")
    H, W = a.shape
    M, N = getOptimalDFTSize(H), getOptimalDFTSize(W)
    px = _np.zeros((M, N), dtype="float64")
    py = _np.zeros((M, N), dtype="float64")
    px[:H, :W] = x
    py[:H, :W] = y
    P = _np.fft.fft2(px) * _np.conj(_np.fft.fft2(py))
    # cv2's divSpectrums: P * conj(|P|) / (|P|^2 + eps)
    eps = 1.1920928955078125e-07 if str(a.dtype) == "float32" else 2.220446049250313e-16
    mag = _np.abs(P)
    C = P * mag / (mag * mag + eps)
    c = _np.real(_np.fft.ifft2(C)) * (M * N)
    c = _np.fft.fftshift(c)  # cv2 5 rolls by size // 2 (its quadrant swap of old differed for odd sizes)
    flat = int(_np.argmax(c))
    py0, px0 = flat // N, flat % N
    y0, y1 = max(py0 - 2, 0), min(py0 + 2, M - 1)
    x0, x1 = max(px0 - 2, 0), min(px0 + 2, N - 1)
    win = c[y0:y1 + 1, x0:x1 + 1]
    s = float(_np.sum(win))
    ys = _np.arange(y0, y1 + 1, dtype="float64").reshape((-1, 1))
    xs = _np.arange(x0, x1 + 1, dtype="float64").reshape((1, -1))
    tot = s + 2.220446049250313e-16
    cx, cy = float(_np.sum(win * xs)) / tot, float(_np.sum(win * ys)) / tot
    # relative to the centre of the padded frame (cv2 5)
    return (N / 2.0 - cx, M / 2.0 - cy), s / (M * N)


def _fft_shift(c, M, N):
    """cv2's fftShift: the four xMid x yMid quadrants (xMid = N // 2, yMid = M // 2) swapped
    diagonally; for an odd size the last row / column stays where it is."""
    ym, xm = M // 2, N // 2
    if M == 1 and N == 1:
        return c
    if ym == 0 or xm == 0:
        v = c.reshape((-1,))
        h = xm + ym
        parts = [v[h:2 * h], v[0:h]] + ([v[2 * h:]] if v.shape[0] > 2 * h else [])
        return _np.concatenate(parts).reshape(tuple(c.shape))
    q0, q1 = c[0:ym, 0:xm], c[0:ym, xm:2 * xm]
    q2, q3 = c[ym:2 * ym, 0:xm], c[ym:2 * ym, xm:2 * xm]
    top = _np.concatenate([q3, q2] + ([c[0:ym, 2 * xm:]] if N % 2 else []), axis=1)
    bottom = _np.concatenate([q1, q0] + ([c[ym:2 * ym, 2 * xm:]] if N % 2 else []), axis=1)
    rows = [top, bottom] + ([c[2 * ym:, :]] if M % 2 else [])
    return _np.concatenate(rows, axis=0)
