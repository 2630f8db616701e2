"""Exact floating-point building blocks for matching cv2's fused multiply-adds bit for bit.

cv2 computes addWeighted and scaleAdd with fma (v_fma in its SIMD loops, and the compiler contracts
its scalar tails to fma too), so a*alpha + b*beta + gamma rounded twice is 1 ulp off, and an
integer result is 1 off on .5 ties. mnn's engine has no fma opcode, so these helpers build a
correctly rounded one from plain IEEE double operations (error-free transforms: Knuth's TwoSum,
Veltkamp's split and Dekker's product) plus rounding to odd (Boldo & Melquiond) for double, and
a tie check for float32. Everything is
element-wise mnn.numpy work, so it stays vectorized and lazy: no Python loop per element.

The helpers take and return float64 mnn arrays (numpy-compatible); scalars are Python floats.
"""
import math

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
    product of two floats is exact in double, and the double sum, with its rounding error from
    TwoSum, decides the one float32 rounding (a tie is broken by the error's sign)."""
    with _np.errstate(all="ignore"):
        return _fma32(x, y, z)


def _fma32(x, y, z):
    # Rounding the double sum s to float32 is wrong only where s is exactly halfway between two
    # floats while the exact sum is not: then the tie goes the way TwoSum's error points. Ties are
    # found with casts (bit views cost several times more in mnn), and the error is computed only
    # when there is one: for most data that halves the work.
    p = x * y
    s = p + z
    r = s.astype("float32")
    rd = r.astype("float64")
    d = s - rd  # exact: s and its float32 rounding are within a factor of 2
    other = rd + 2.0 * d  # the float32 on s's far side, when s is a tie
    tie = (d != 0) & (other.astype("float32").astype("float64") == other)
    if not bool(_np.any(tie)):
        return r
    bb = s - p
    e = (p - (s - bb)) + (z - bb)  # TwoSum's error of s = p + z
    return _np.where(tie & (e != 0) & ((e > 0) == (d > 0)), other.astype("float32"), r)


def _lsb(v):
    """A power of two that divides the float32 value v (its last mantissa bit's weight or less)."""
    return math.ldexp(1.0, math.frexp(v)[1] - 24)


def sums_exact(m, a, b, c):
    """Whether, for integers |x|, |y| <= m and float32 weights a, b, c, both double sums of
    x * a + (y * b + c) are exact, so that rounding each once to float32 equals the fma chain.
    Each term is a multiple of the smallest weight's last bit (x, y are integers, and rounding
    y * b + c to float32 keeps it a multiple of that), so a sum is exact when its bound spans
    under 53 bits of that unit."""
    ws = [v for v in (a, b, c) if v != 0]
    if not all(math.isfinite(v) for v in ws):
        return False
    if not ws:
        return True
    unit = min(_lsb(v) for v in ws)
    inner = m * abs(b) + abs(c)
    outer = m * abs(a) + inner * (1 + 2.0 ** -23)
    return max(inner, outer) < unit * 2.0 ** 53
