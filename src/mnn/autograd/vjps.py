"""Vector-Jacobian products, one per primitive, keyed by the primitive's name (the name its
GradNode records: the opcode's numpy name, 'reduce', 'matmul', 'reshape', 'getitem', ...).
Each takes (node, inputs, g) and returns one cotangent per input (None: no gradient flows).
Cotangents may come back in the broadcast shape; backward() sums them down to each input."""
import math

import mnn.numpy as np

from .. import _core


def unbroadcast(g, shape):
    """Sums g over the axes broadcasting added or stretched to reach g.shape from shape."""
    shape = tuple(shape)
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape) if d == 1 and g.shape[lead + i] != 1]
    if axes:
        g = np.sum(g, axis=tuple(axes), keepdims=True)
    return np.reshape(g, shape)


def _none(node, xs, g):
    return [None] * len(xs)


def _out(node):
    return node.output


def _half_mask(a, b, greater):
    # ties split the gradient evenly, as torch does
    win = (a > b) if greater else (a < b)
    return win.astype(a.dtype) + (a == b).astype(a.dtype) * 0.5


def _pow_grads(node, xs, g):
    x, y = xs
    out = _out(node)
    gx = g * y * np.power(x, y - 1)
    gy = np.where(x == 0, 0.0, g * out * np.log(np.where(x == 0, 1.0, x)))
    return [gx, gy]


VJP = {
    "add": lambda n, xs, g: [g, g],
    "subtract": lambda n, xs, g: [g, -g],
    "multiply": lambda n, xs, g: [g * xs[1], g * xs[0]],
    "divide": lambda n, xs, g: [g / xs[1], -g * xs[0] / (xs[1] * xs[1])],
    "power": _pow_grads,
    "maximum": lambda n, xs, g: [g * _half_mask(xs[0], xs[1], True), g * _half_mask(xs[1], xs[0], True)],
    "minimum": lambda n, xs, g: [g * _half_mask(xs[0], xs[1], False), g * _half_mask(xs[1], xs[0], False)],
    "fmax": lambda n, xs, g: [g * _half_mask(xs[0], xs[1], True), g * _half_mask(xs[1], xs[0], True)],
    "fmin": lambda n, xs, g: [g * _half_mask(xs[0], xs[1], False), g * _half_mask(xs[1], xs[0], False)],
    "arctan2": lambda n, xs, g: [g * xs[1] / (xs[0] * xs[0] + xs[1] * xs[1]),
                                 -g * xs[0] / (xs[0] * xs[0] + xs[1] * xs[1])],
    "hypot": lambda n, xs, g: [g * xs[0] / _out(n), g * xs[1] / _out(n)],
    "copysign": lambda n, xs, g: [g * np.where(np.signbit(xs[0]) == np.signbit(_out(n)), 1.0, -1.0), g * 0],
    "logaddexp": lambda n, xs, g: [g * np.exp(xs[0] - _out(n)), g * np.exp(xs[1] - _out(n))],
    "logaddexp2": lambda n, xs, g: [g * np.exp2(xs[0] - _out(n)), g * np.exp2(xs[1] - _out(n))],
    "heaviside": lambda n, xs, g: [g * 0, g * 0],
    "negative": lambda n, xs, g: [-g],
    "positive": lambda n, xs, g: [g],
    "absolute": lambda n, xs, g: [g * np.sign(xs[0])],
    "sign": lambda n, xs, g: [g * 0],
    "square": lambda n, xs, g: [g * 2 * xs[0]],
    "reciprocal": lambda n, xs, g: [-g * _out(n) * _out(n)],
    "floor": lambda n, xs, g: [g * 0],
    "ceil": lambda n, xs, g: [g * 0],
    "trunc": lambda n, xs, g: [g * 0],
    "rint": lambda n, xs, g: [g * 0],
    "copy": lambda n, xs, g: [g],
    "astype": lambda n, xs, g: [g],
    "sqrt": lambda n, xs, g: [g / (2 * _out(n))],
    "cbrt": lambda n, xs, g: [g / (3 * _out(n) * _out(n))],
    "exp": lambda n, xs, g: [g * _out(n)],
    "exp2": lambda n, xs, g: [g * _out(n) * math.log(2.0)],
    "expm1": lambda n, xs, g: [g * (_out(n) + 1)],
    "log": lambda n, xs, g: [g / xs[0]],
    "log2": lambda n, xs, g: [g / (xs[0] * math.log(2.0))],
    "log10": lambda n, xs, g: [g / (xs[0] * math.log(10.0))],
    "log1p": lambda n, xs, g: [g / (1 + xs[0])],
    "sin": lambda n, xs, g: [g * np.cos(xs[0])],
    "cos": lambda n, xs, g: [-g * np.sin(xs[0])],
    "tan": lambda n, xs, g: [g * (1 + _out(n) * _out(n))],
    "arcsin": lambda n, xs, g: [g / np.sqrt(1 - xs[0] * xs[0])],
    "arccos": lambda n, xs, g: [-g / np.sqrt(1 - xs[0] * xs[0])],
    "arctan": lambda n, xs, g: [g / (1 + xs[0] * xs[0])],
    "sinh": lambda n, xs, g: [g * np.cosh(xs[0])],
    "cosh": lambda n, xs, g: [g * np.sinh(xs[0])],
    "tanh": lambda n, xs, g: [g * (1 - _out(n) * _out(n))],
    "arcsinh": lambda n, xs, g: [g / np.sqrt(xs[0] * xs[0] + 1)],
    "arccosh": lambda n, xs, g: [g / np.sqrt(xs[0] * xs[0] - 1)],
    "arctanh": lambda n, xs, g: [g / (1 - xs[0] * xs[0])],
    "deg2rad": lambda n, xs, g: [g * (math.pi / 180)],
    "rad2deg": lambda n, xs, g: [g * (180 / math.pi)],
    "erf": lambda n, xs, g: [g * (2 / math.sqrt(math.pi)) * np.exp(-xs[0] * xs[0])],
    "where": lambda n, xs, g: [None, np.where(xs[0], g, 0), np.where(xs[0], 0, g)],
}
for _name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
              "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift",
              "right_shift", "isnan", "isinf", "isfinite", "signbit", "floor_divide", "remainder"):
    VJP[_name] = _none
# piecewise constant in both operands: zero almost everywhere (as floor/ceil)
VJP["floor_divide"] = lambda n, xs, g: [g * 0, g * 0]
# remainder: d/dx = 1, d/dy = -floor(x/y) (torch's convention)
VJP["remainder"] = lambda n, xs, g: [g, -g * np.floor_divide(xs[0], xs[1])]


def _reduce(node, xs, g):
    x, = xs
    kind, axes = node.ints[0], node.ints[1:]
    kept = [1 if i in axes else d for i, d in enumerate(x.shape)]
    ge = np.reshape(g, kept)
    if kind == 0:  # sum
        return [np.broadcast_to(ge, x.shape)]
    if kind == 1:  # prod: the product of the other elements, exact where x holds zeros
        zero = x == 0
        nz = np.where(zero, 1.0, x)
        p_nz = np.prod(nz, axis=tuple(axes), keepdims=True)
        zc = np.sum(zero, axis=tuple(axes), keepdims=True)
        other = np.where(zc == 0, p_nz / nz, np.where(zero & (zc == 1), p_nz, 0.0))
        return [ge * other]
    if kind in (2, 3):  # max/min: shared evenly among the elements that attain it
        mask = (x == np.reshape(node.output, kept)).astype(g.dtype)
        count = np.sum(mask, axis=tuple(axes), keepdims=True)
        return [ge * mask / count]
    return [None]


def _scan(node, xs, g):
    x, = xs
    kind, axis = node.ints
    if kind == 0:  # cumsum: reversed cumulative sum of g
        return [_rcumsum(g, axis)]
    # cumprod: d out_j / d x_i = prod_{k<=j, k!=i} x_k. Before the first zero along the axis that is
    # out_j / x_i; at the first zero it is the cumprod with that zero replaced by 1; after it, 0.
    out = node.output
    zero = x == 0
    seen = np.cumsum(zero.astype(x.dtype), axis=axis)
    first = zero & (seen == 1)
    before = _rcumsum(g * out, axis) / np.where(zero, 1.0, x)
    at_first = _rcumsum(g * np.cumprod(np.where(first, 1.0, x), axis=axis), axis)
    return [np.where(seen == 0, before, np.where(first, at_first, 0.0))]


def _rcumsum(a, axis):
    return np.flip(np.cumsum(np.flip(a, axis), axis=axis), axis)


def _matmul(node, xs, g):
    a, b = xs
    return [np.matmul(g, np.swapaxes(b, -1, -2)), np.matmul(np.swapaxes(a, -1, -2), g)]


def _concat(node, xs, g):
    axis = node.ints[0]
    bounds, acc = [], 0
    for x in xs[:-1]:
        acc += x.shape[axis]
        bounds.append(acc)
    return np.split(g, bounds, axis=axis) if bounds else [g]


def _transpose(node, xs, g):
    inv = [0] * len(node.ints)
    for i, a in enumerate(node.ints):
        inv[a] = i
    return [np.transpose(g, inv)]


def _getitem(node, xs, g):
    x, = xs
    z = np.zeros(x.shape, dtype=g.dtype)
    z[_decode_index(node.ints)] = g
    return [z]


def _decode_index(ints):
    idx = []
    for k in range(0, len(ints), 6):
        kind, start, stop, step, has_start, has_stop = ints[k:k + 6]
        if kind == 0:
            idx.append(start)
        elif kind == 1:
            idx.append(slice(start if has_start else None, stop if has_stop else None, step))
        elif kind == 2:
            idx.append(None)
        else:
            idx.append(Ellipsis)
    return tuple(idx)


def _diagonal(node, xs, g):
    x, = xs
    offset, a1, a2 = node.ints
    z = np.zeros(x.shape, dtype=g.dtype)
    d = _core.diagonal(z, offset, a1, a2)
    d._set_writeable(True)
    d[...] = g
    return [z]


def _take(node, xs, g):
    x, idx = xs
    axis = node.ints[0] % x.ndim
    return [_core.prim("scatter_add", [g, idx], [axis, x.shape[axis]]), None]


VJP.update({
    "take": _take,
    "reduce": _reduce,
    "scan": _scan,
    "matmul": _matmul,
    "concatenate": _concat,
    "reshape": lambda n, xs, g: [np.reshape(g, xs[0].shape)],
    "transpose": _transpose,
    "broadcast_to": lambda n, xs, g: [unbroadcast(g, xs[0].shape)],
    "flip": lambda n, xs, g: [np.flip(g, tuple(n.ints))],
    "getitem": _getitem,
    "diagonal": _diagonal,
})


def vjp(node, inputs, g):
    fn = VJP.get(node.kind)
    if fn is None:
        raise NotImplementedError(f"[mnn.autograd] no gradient for '{node.kind}'")
    return fn(node, inputs, g)


def _put(node, xs, g):
    """put(dst, idx, vals; axis): dst's gradient is g with the written rows zeroed; each value row gets
    the gradient of the row it landed in, unless a later repeat of its index overwrote it."""
    dst, idx, vals = xs
    axis = node.ints[0]
    m = idx.shape[0]
    g_dst = _core.prim("put", [g, idx, np.zeros(vals.shape, dtype=g.dtype)], [axis])
    order = np.arange(m, dtype=np.int64)
    last = _core.prim("put", [np.full(dst.shape[axis], -1, dtype=np.int64), idx, order], [0])
    won = _core.prim("take", [last, idx], [0]) == order
    shape = [1] * vals.ndim
    shape[axis] = m
    g_vals = np.where(np.reshape(won, shape), _core.prim("take", [g, idx], [axis]), 0).astype(g.dtype)
    return [g_dst, None, g_vals]


def _gather(node, xs, g):
    """gather(src, flat; lead, k, axes): scatter-add g over the indexed axes merged into one, then
    split them and move them back between the other axes."""
    src, flat = xs
    lead, k = node.ints[0], node.ints[1]
    axes = list(node.ints[2:2 + k])
    rest = [d for d in range(src.ndim) if d not in axes]
    dims = [src.shape[d] for d in axes]
    pre, post = [src.shape[d] for d in rest[:lead]], [src.shape[d] for d in rest[lead:]]
    g2 = np.reshape(g, pre + [flat.size] + post)
    n = math.prod(dims)
    s = _core.prim("scatter_add", [g2, np.reshape(flat, (flat.size,))], [lead, n])
    s = np.reshape(s, pre + dims + post)
    order = rest[:lead] + axes + rest[lead:]
    return [np.transpose(s, [order.index(d) for d in range(src.ndim)]), None]


VJP.update({
    "gather": _gather,
    "put": _put,
    "nonzero": _none,
    "ravel_index": _none,
})


# fmod: d/dx = 1, d/dy = -trunc(x/y) (torch's convention); gcd/lcm are integer-only
VJP["fmod"] = lambda n, xs, g: [g, -g * np.trunc(xs[0] / xs[1])]
VJP["gcd"] = _none
VJP["lcm"] = _none
for _name in ("nextafter", "spacing", "frexp_mantissa", "frexp_exponent"):
    VJP[_name] = _none


def _sort(node, xs, g):
    # sorted[j] = x[perm[j]], so dx[i] = g[inv[i]] with inv the inverse permutation (argsort of perm).
    from ..numpy._sorting import argsort, gather
    x = xs[0]
    axis = node.ints[0] % x.ndim
    inv = argsort(argsort(x, axis=axis), axis=axis)
    return [gather(g, inv, axis)]


VJP["sort"] = _sort

# dense linear algebra (linalg_inv, linalg_solve, ...): formulas in linalg_vjps.py
from .linalg_vjps import LINALG_VJP  # noqa: E402

VJP.update(LINALG_VJP)
