"""matmul / dot / vecdot on the engine's batched matmul."""
from .. import _core
from ._common import asarray, write_out


def matmul(x1, x2, /, out=None, **kwargs):
    return write_out(_core.matmul(asarray(x1), asarray(x2)), out, "matmul")


def dot(a, b, out=None):
    """numpy.dot: scalars multiply; 1-d/2-d as matmul; N-d sums over a's last and b's second-to-last axis."""
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return write_out(a * b, out, "dot")
    if a.ndim <= 2 and b.ndim <= 2:
        return write_out(_core.matmul(a, b), out, "dot")
    if b.ndim == 1:
        return write_out(_core.matmul(a, b), out, "dot")
    k = a.shape[-1]
    a2 = _core.reshape(a, [-1, k])
    bt = _core.transpose(b, [b.ndim - 2] + [i for i in range(b.ndim) if i != b.ndim - 2])
    b2 = _core.reshape(bt, [k, -1])
    r = _core.matmul(a2, b2)
    shape = list(a.shape[:-1]) + list(b.shape[:-2]) + [b.shape[-1]]
    return write_out(_core.reshape(r, shape), out, "dot")


def vdot(a, b):
    """numpy.vdot: flattened dot product, the first argument conjugated."""
    a, b = asarray(a), asarray(b)
    if a.size != b.size:
        raise ValueError("[mnn.numpy.vdot] cannot reshape array of size "
                         f"{a.size} into shape ({b.size},): vectors have different lengths")
    return _core.matmul(_core.reshape(_conj(a), [-1]), _core.reshape(b, [-1]))


def _conj(x):
    if x.dtype.kind != "c":
        return x
    from ._complex import conj
    return conj(x)


def inner(a, b):
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return dot(a, _core.transpose(b, list(range(b.ndim - 2)) + [b.ndim - 1, b.ndim - 2]) if b.ndim >= 2 else b)


def vecdot(x1, x2, /, out=None, *, axis=-1):
    """numpy.vecdot / Array API vecdot: sum over `axis` of conj(x1) * x2 (broadcast), in the promoted
    dtype (no upcast of small integers, unlike sum)."""
    x1, x2 = asarray(x1), asarray(x2)
    from ._reductions import sum as _sum
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("[mnn.numpy.vecdot] inputs must have at least one dimension")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"[mnn.numpy.vecdot] the vector axis has length {x1.shape[axis]} in x1 and "
                         f"{x2.shape[axis]} in x2")
    prod = _conj(x1) * x2
    return write_out(_sum(prod, axis=axis, dtype=prod.dtype), out, "vecdot")


def outer(a, b, out=None):
    a, b = asarray(a), asarray(b)
    return write_out(_core.reshape(a, [-1, 1]) * _core.reshape(b, [1, -1]), out, "outer")
