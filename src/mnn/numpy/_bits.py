"""Bits and number spellings: packbits/unpackbits (8 booleans per uint8), binary_repr, base_repr."""
import sys

from . import _dtypes
from ._common import asarray


def _mnp():
    return sys.modules["mnn.numpy"]


def _weights(bitorder, fn):
    if bitorder not in ("big", "little"):
        raise ValueError(f"[mnn.numpy.{fn}] 'order' must be either 'little' or 'big'")
    w = [1 << k for k in range(8)]
    return w[::-1] if bitorder == "big" else w


def packbits(a, /, axis=None, bitorder="big"):
    """Each run of 8 truth values along `axis` becomes one uint8 (the last group zero-padded)."""
    mnp = _mnp()
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("[mnn.numpy.packbits] Expected an input array of integer or boolean data type")
    w = _weights(bitorder, "packbits")
    if axis is None:
        a, axis = mnp.ravel(a), 0
    axis %= max(a.ndim, 1)
    n = a.shape[axis]
    groups = -(-n // 8)
    bits = (a != 0).astype(mnp.uint8)
    if groups * 8 != n:
        pad = [(0, 0)] * a.ndim
        pad[axis] = (0, groups * 8 - n)
        bits = mnp.pad(bits, pad)
    shape = list(a.shape)
    shape[axis:axis + 1] = [groups, 8]
    bits = bits.reshape(shape)
    wshape = [1] * len(shape)
    wshape[axis + 1] = 8
    return (bits * mnp.asarray(w, dtype=mnp.uint8).reshape(wshape)).sum(axis=axis + 1, dtype=mnp.uint8)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Every uint8 along `axis` becomes its 8 bits; count keeps the first count bits (negative: drops)."""
    mnp = _mnp()
    a = asarray(a)
    if a.dtype != _dtypes.uint8:
        raise TypeError("[mnn.numpy.unpackbits] Expected an input array of unsigned byte data type")
    w = _weights(bitorder, "unpackbits")
    if axis is None:
        a, axis = mnp.ravel(a), 0
    axis %= max(a.ndim, 1)
    shifts = [k.bit_length() - 1 for k in w]
    sshape = [1] * (a.ndim + 1)
    sshape[axis + 1] = 8
    bits = (mnp.expand_dims(a, axis + 1) >> mnp.asarray(shifts, dtype=mnp.uint8).reshape(sshape)) & 1
    shape = list(a.shape)
    shape[axis] = shape[axis] * 8
    bits = bits.reshape(shape)
    if count is not None:
        total = shape[axis]
        if count < 0 and -count > total:
            raise ValueError("[mnn.numpy.unpackbits] -count larger than number of elements")
        keep = count if count >= 0 else total + count
        idx = [slice(None)] * len(shape)
        if keep <= total:
            idx[axis] = slice(0, keep)
            bits = bits[tuple(idx)]
        else:
            pad = [(0, 0)] * len(shape)
            pad[axis] = (0, keep - total)
            bits = mnp.pad(bits, pad)
    return bits.astype(mnp.uint8)


def binary_repr(num, width=None):
    """Binary digits of an integer; with width, negative numbers in two's complement."""
    num = int(num)
    if num >= 0:
        s = bin(num)[2:]
        if width is not None and len(s) > width:
            raise ValueError(f"[mnn.numpy.binary_repr] Insufficient bit width={width} provided for "
                             f"binwidth={len(s)}")
        return s.zfill(width) if width is not None else s
    if width is None:
        return "-" + bin(-num)[2:]
    need = (-num - 1).bit_length() + 1  # two's-complement bits of num
    if width < need:
        raise ValueError(f"[mnn.numpy.binary_repr] Insufficient bit width={width} provided for binwidth={need}")
    return bin((1 << width) + num)[2:]


def base_repr(number, base=2, padding=0):
    """Digits of an integer in base 2..36 (upper-case letters), zero-padded on the left by `padding`."""
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if base > len(digits):
        raise ValueError("[mnn.numpy.base_repr] Bases greater than 36 not handled in base_repr.")
    if base < 2:
        raise ValueError("[mnn.numpy.base_repr] Bases less than 2 not handled in base_repr.")
    number = int(number)
    num = abs(number)
    out = []
    while num:
        out.append(digits[num % base])
        num //= base
    if padding:
        out.append("0" * padding)
    if number < 0:
        out.append("-")
    return "".join(reversed(out or ["0"]))
