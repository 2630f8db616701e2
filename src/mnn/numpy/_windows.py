"""numpy's window functions (hanning, hamming, blackman, bartlett, kaiser) with numpy's formulas."""
import math
import sys

from . import _dtypes


def _mnp():
    return sys.modules["mnn.numpy"]


def _window_n(M):
    mnp = _mnp()
    if M < 1:
        return None, mnp.asarray([], dtype=_dtypes.result_type(M, 0.0))
    if M == 1:
        return None, mnp.ones(1, dtype=_dtypes.result_type(M, 0.0))
    return mnp.arange(1 - M, M, 2), None


def hanning(M):
    n, done = _window_n(M)
    return done if n is None else 0.5 + 0.5 * _mnp().cos(math.pi * n / (M - 1))


def hamming(M):
    n, done = _window_n(M)
    return done if n is None else 0.54 + 0.46 * _mnp().cos(math.pi * n / (M - 1))


def blackman(M):
    mnp = _mnp()
    n, done = _window_n(M)
    if n is None:
        return done
    return 0.42 + 0.5 * mnp.cos(math.pi * n / (M - 1)) + 0.08 * mnp.cos(2.0 * math.pi * n / (M - 1))


def bartlett(M):
    mnp = _mnp()
    n, done = _window_n(M)
    if n is None:
        return done
    return mnp.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def kaiser(M, beta):
    mnp = _mnp()
    if M == 1:
        return mnp.ones(1, dtype=_dtypes.result_type(M, 0.0))
    n = mnp.arange(0, M)
    alpha = (M - 1) / 2.0
    return mnp.i0(beta * mnp.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / mnp.i0(mnp.asarray(float(beta)))
