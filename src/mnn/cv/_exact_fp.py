"""Exact floating-point building blocks for matching cv2's fused multiply-adds bit for bit.

cv2 computes addWeighted and scaleAdd with fma (v_fma in its SIMD loops, and the compiler contracts
its scalar tails to fma too), so a*alpha + b*beta + gamma rounded twice is 1 ulp off, and an
integer result is 1 off on .5 ties. mnn's engine has no fma opcode, so these helpers build a
correctly rounded one from plain IEEE double operations (error-free transforms: Knuth's TwoSum,
Veltkamp's split and Dekker's product) plus rounding to odd (Boldo & Melquiond). Everything is
element-wise mnn.numpy work, so it stays vectorized and lazy: no Python loop per element.

The helpers take and return float64 mnn arrays (numpy-compatible); scalars are Python floats.
"""
from .. import numpy as _np

_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's constant for splitting a double into two 26-bit halves


def _two_sum(a, b):
    """s + e == a + b exactly, s = fl(a + b) (Knuth; no ordering of |a|, |b| needed)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    c = a * _SPLIT
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a, b):
    """p + e == a * b exactly, p = fl(a * b) (Dekker), barring overflow of the split."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _round_odd(s, e):
    """The exact s + e (s = fl(s + e)) rounded to odd: where inexact and s's last bit is even,
    step s one ulp toward e. Rounding that value once more (to double or to float32) is then a
    correct rounding of the exact sum: odd rounding leaves no false ties."""
    bits = s.view("int64")
    fix = (e != 0) & ((bits & 1) == 0)
    step = _np.where((e > 0) == (s > 0), _np.asarray(1, dtype="int64"), _np.asarray(-1, dtype="int64"))
    return _np.where(fix, bits + step, bits).view("float64")


def fma64(x, y, z):
    """x * y + z with one rounding, in double (Boldo & Melquiond's emulated fma). Where the exact
    transforms cannot hold (inf, NaN, overflow) the plain x * y + z is the answer IEEE gives too."""
    with _np.errstate(all="ignore"):  # inf - inf inside the transforms is expected, never reported
        return _fma64(x, y, z)


def _fma64(x, y, z):
    uh, ul = _two_prod(x, y)
    th, tl = _two_sum(z, uh)
    r = th + _round_odd(*_two_sum(tl, ul))
    naive = x * y + z
    return _np.where(_np.isfinite(r) & _np.isfinite(naive), r, naive)


def fma32(x, y, z):
    """float32 fma(x, y, z) of float32 values held in float64 arrays, returned as float32: the
    product of two floats is exact in double, and the double sum rounded to odd rounds to the
    correctly rounded float32 (53 >= 24 + 2 bits)."""
    with _np.errstate(all="ignore"):
        return _fma32(x, y, z)


def _fma32(x, y, z):
    p = x * y
    s, e = _two_sum(p, z)
    r = _round_odd(s, e)
    # inf / NaN: the odd-rounding step is meaningless there, IEEE's own sum is right
    return _np.where(_np.isfinite(s), r, s).astype("float32")
