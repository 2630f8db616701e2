"""Array creation: array/asarray from Python data, numpy arrays, buffers and DLPack; filled
arrays, ranges, identity matrices."""
import builtins
import math
import operator
import sys

from .. import _core
from . import _dtypes, _fromlist13, _linspace13, _strings
from ._common import dtype_code, ndarray, shape_tuple

_STR_TYPES = (_strings.StrArray, str, _dtypes.str_)

_bool, _int, _float, _complex = builtins.bool, builtins.int, builtins.float, builtins.complex


def _is_scalar(x):
    return isinstance(x, (_bool, _int, _float, _complex))


def _scalar_dtype(values):
    """numpy's dtype for a list of Python scalars: bool < int64 (uint64 past int64) < float64."""
    kind = 0
    ints = []
    for v in values:
        if isinstance(v, _bool):
            continue
        if isinstance(v, _int):
            kind = max(kind, 1)
            ints.append(v)
        elif isinstance(v, _float):
            kind = max(kind, 2)
        elif isinstance(v, _complex):
            kind = 3
        else:
            raise TypeError(f"[mnn.numpy.array] unsupported element type {type(v).__name__}")
    if kind == 0:
        return _dtypes.dtype("bool")
    if kind == 1:
        return int_list_dtype(max(ints), min(ints))
    return _dtypes.dtype("float64" if kind == 2 else "complex128")


_INT64_MAX, _UINT64_MAX = (1 << 63) - 1, (1 << 64) - 1


def int_list_dtype(largest, smallest):
    """numpy's dtype for Python ints (no floats among them) from the largest and smallest: each int is
    discovered as int64 when it fits, else as uint64, and int64 with uint64 promotes to float64. So
    [2**63] is uint64 and [2**63, 5] float64. Past uint64 numpy makes an object array, which mnn
    does not have."""
    if largest > _UINT64_MAX or smallest < -_INT64_MAX - 1:
        raise OverflowError("[mnn.numpy.array] Python int too large to convert to C long")
    if largest <= _INT64_MAX:
        return _dtypes.dtype("int64")
    return _dtypes.dtype("uint64" if smallest > _INT64_MAX else "float64")


def _flatten(obj):
    """Nested sequences -> (flat list of leaves, shape, dtypes of array leaves)."""
    if isinstance(obj, (list, tuple)):
        if len(obj) == 0:
            return [], [0], []
        parts = [_flatten(o) for o in obj]
        shape0 = parts[0][1]
        flat, dts = [], []
        for p in parts:
            if p[1] != shape0:
                raise ValueError("[mnn.numpy.array] setting an array element with a sequence. The requested array "
                                 "has an inhomogeneous shape after 1 dimensions.")
            flat.extend(p[0])
            dts.extend(d for d in p[2] if d not in dts)
        return flat, [len(obj)] + shape0, dts
    if isinstance(obj, ndarray):
        return _core.all_values(obj), list(obj.shape), [obj.dtype]
    if _is_scalar(obj):
        if type(obj) is _int and not -_INT64_MAX - 1 <= obj <= _INT64_MAX:  # numpy discovers it as uint64
            return [obj], [], [int_list_dtype(obj, obj)]
        return [obj], [], [type(obj)]  # Python scalars count at their default dtype next to arrays
    if hasattr(obj, "dtype") and hasattr(obj, "shape"):  # numpy arrays and scalars
        a = asarray(_native_byte_order(obj))
        return _core.all_values(a), list(a.shape), [a.dtype]
    if hasattr(obj, "__index__"):
        return [operator.index(obj)], [], []
    if hasattr(obj, "__float__"):
        return [_float(obj)], [], []
    raise TypeError(f"[mnn.numpy.array] cannot convert object of type {type(obj).__name__} to an array")


def _from_python(obj, dtype):
    fast = _fromlist13.flatten(obj)
    if fast is not None:
        flat, shape, dt = fast
        return _fromlist13.build(flat, shape, dt if dtype is None else _dtypes.dtype(dtype))
    if dtype is None and isinstance(obj, (list, tuple)):
        from ._small_calls import array_of_arrays
        r = array_of_arrays(obj)
        if r is not None:
            return r
    try:
        flat, shape, dts = _flatten(obj)
    except (TypeError, RuntimeError):
        if _strings.contains_str(obj):  # numpy's '<U' arrays (then parsed if dtype is numeric)
            return _strings.asarray(obj, dtype, None)
        raise
    if dtype is None:
        arrays = [d for d in dts if not isinstance(d, type)]
        if arrays and len(arrays) < len(dts):
            py = [{_bool: False, _int: 0, _float: 0.0, _complex: 0j}[d] for d in dts if isinstance(d, type)]
            arrays.append(_scalar_dtype(py))
        dt = _dtypes.result_type(*arrays) if arrays else \
            _scalar_dtype(flat) if flat else _dtypes.dtype("float64")
    else:
        dt = _dtypes.dtype(dtype)
    return _core.from_list(list(flat), shape, dt._code)


def _native_byte_order(a):
    """A numpy array in the other byte order (e.g. '>u2' read from a file) as a native-order copy: the
    buffer import takes native data only, and without this asarray and _flatten would hand the same
    object back and forth."""
    dt = getattr(a, "dtype", None)
    if getattr(dt, "byteorder", "=") == _SWAPPED_ORDER and hasattr(a, "astype"):
        return a.astype(dt.newbyteorder("="))
    return a


_SWAPPED_ORDER = ">" if sys.byteorder == "little" else "<"


def _from_foreign(obj):
    """Zero-copy import of buffer/DLPack objects; None if obj offers neither."""
    if getattr(getattr(obj, "dtype", None), "name", None) == "bfloat16" and \
            type(obj).__module__.partition(".")[0] in ("numpy", "ml_dtypes"):
        return _from_numpy_bfloat16(obj)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, (bytes, bytearray, memoryview)) and \
            not type(obj).__module__.startswith("numpy"):
        return from_dlpack(obj)
    try:
        r = _core.from_buffer(obj)
    except (TypeError, ValueError):
        r = None
    if r is not None:
        return r
    if hasattr(obj, "__array__") and not isinstance(obj, ndarray):
        return _core.from_buffer(obj.__array__())
    return None


def _from_numpy_bfloat16(obj):
    # ml_dtypes' bfloat16 has no buffer format: import its bytes and reinterpret them (same bits)
    import numpy
    a = numpy.ascontiguousarray(obj)
    r = _core.from_buffer(memoryview(a.view(numpy.uint8).reshape(-1)), 12)
    return _core.reshape(r, list(a.shape))


def _convert(r, dtype, copy, foreign):
    """Applies dtype/copy to an imported array. A copy of foreign memory is taken now, not when
    it is first read: the owner may change its memory after this call returns."""
    out = r
    if dtype is not None and _dtypes.dtype(dtype) != r.dtype:
        if copy is False:
            raise ValueError("[mnn.numpy.asarray] Unable to avoid copy while creating an array as requested.")
        out = _core.astype(r, dtype_code(dtype))
    elif copy:
        out = _core.copy(r)
    if foreign and out is not r:
        _core.eval(out)
    return out


def _check_device(device, fn):
    """The Array API's device=: mnn arrays live on "cpu" (numpy raises for any other device too)."""
    if device is not None and device != "cpu":
        raise ValueError(f"[mnn.numpy.{fn}] Device not understood. Only \"cpu\" is allowed, but received: {device}")


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None, requires_grad=False):
    """Converts a to an ndarray, without copying when it already is one or its memory can be shared.
    requires_grad=True returns a leaf (detached from any tape) that records gradients."""
    if device is not None:
        _check_device(device, "asarray")
    if requires_grad:
        r = asarray(a, dtype=dtype, copy=copy).detach()
        r.requires_grad = True
        return r
    if a.__class__ in _STR_TYPES or (dtype is not None and _strings.is_str_dtype(dtype)):
        return _strings.asarray(a, dtype, copy)
    if isinstance(a, ndarray):
        return _convert(a, dtype, copy, False)
    if getattr(getattr(a, "dtype", None), "kind", None) == "U":  # numpy's string arrays and scalars
        return _strings.asarray(a, dtype, copy)
    if _is_scalar(a) or isinstance(a, (list, tuple)):
        if copy is False:
            raise ValueError("[mnn.numpy.asarray] Unable to avoid copy while creating an array as requested.")
        return _from_python(a, dtype)
    a = _native_byte_order(a)
    r = _from_foreign(a)
    if r is None:
        return _from_python(a, dtype)
    return _convert(r, dtype, copy, True)


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None, requires_grad=False):
    """A new array from any array-like (a copy unless copy=False/None allows sharing, like numpy).
    requires_grad=True returns a leaf (detached from any tape) that records gradients."""
    r = asarray(object, dtype=dtype, copy=True if copy else None)
    if ndmin > r.ndim:
        shape = [1] * (ndmin - r.ndim) + list(r.shape)
        r = _core.reshape(r, shape) if type(r) is ndarray else r.reshape(shape)  # (or a string array)
    if requires_grad:
        r = r.detach()
        r.requires_grad = True
    return r


def ascontiguousarray(a, dtype=None, *, like=None):
    a = asarray(a, dtype=dtype)
    return _core.as_contiguous(_core.reshape(a, [1]) if a.ndim == 0 else a)  # numpy: ndim >= 1


def copy(a, order="K", subok=False):
    return _core.copy(asarray(a))


def _fill_dtype(fill_value, dtype):
    if dtype is not None:
        return _dtypes.dtype(dtype)
    if isinstance(fill_value, ndarray):
        return fill_value.dtype
    return asarray(fill_value).dtype


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        _check_device(device, "full")
    dt = _fill_dtype(fill_value, dtype)
    if dt.kind == "U" or fill_value.__class__ in _STR_TYPES:  # numpy's strings (or parsed from them)
        from ._strfuncs import full as full_str
        return full_str(shape, fill_value, dtype)
    if isinstance(fill_value, ndarray):
        fill = fill_value
    elif _is_scalar(fill_value):
        fill = _core.scalar(fill_value, dt._code)
    else:
        fill = asarray(fill_value)
    return _core.full(shape_tuple(shape), fill, dt._code)


def zeros(shape, dtype=float, order="C", *, device=None, like=None):
    if device is not None:
        _check_device(device, "zeros")
    dt = _dtypes.dtype(dtype)
    if dt.kind == "U":
        return _strings_filled(shape, "", dt)
    return _core.full(shape_tuple(shape), _core.scalar(0, dt._code), dt._code)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    if device is not None:
        _check_device(device, "ones")
    dt = _dtypes.dtype(float if dtype is None else dtype)
    if dt.kind == "U":
        return _strings_filled(shape, "1", dt)
    return _core.full(shape_tuple(shape), _core.scalar(1, dt._code), dt._code)


def empty(shape, dtype=float, order="C", *, device=None, like=None):
    if device is not None:
        _check_device(device, "empty")
    dt = _dtypes.dtype(dtype)
    if dt.kind == "U":
        return _strings_filled(shape, "", dt)
    return _core.empty(shape_tuple(shape), dt._code)


def _strings_filled(shape, text, dt):
    from ._strfuncs import full as full_str
    return full_str(shape, text, dt)


def _like_args(a, dtype, shape):
    a = asarray(a)
    return (a.shape if shape is None else shape), (a.dtype if dtype is None else dtype)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    if device is not None:
        _check_device(device, "zeros_like")
    s, d = _like_args(a, dtype, shape)
    return zeros(s, d)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    if device is not None:
        _check_device(device, "ones_like")
    s, d = _like_args(a, dtype, shape)
    return ones(s, d)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    if device is not None:
        _check_device(device, "empty_like")
    s, d = _like_args(prototype, dtype, shape)
    return empty(s, d)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    if device is not None:
        _check_device(device, "full_like")
    s, d = _like_args(a, dtype, shape)
    return full(s, fill_value, d)


def arange(start=None, stop=None, step=None, dtype=None, *, device=None, like=None):
    """Evenly spaced values in [start, stop): numpy's length and values, float or integer."""
    if device is not None:
        _check_device(device, "arange")
    if stop is None:
        start, stop = 0, start
    elif start is None:
        start = 0
    if step is None:
        step = 1
    vals = [v.item() if isinstance(v, ndarray) or (hasattr(v, "item") and not _is_scalar(v)) else v
            for v in (start, stop, step)]
    start, stop, step = vals
    if step == 0:
        raise ZeroDivisionError("[mnn.numpy.arange] step must not be zero")
    if dtype is None:
        dt = _scalar_dtype([start, stop, step])
        if dt.name == "bool":
            dt = _dtypes.dtype("int64")
    else:
        dt = _dtypes.dtype(dtype)
    all_int = all(isinstance(v, _int) for v in (start, stop, step))
    if all_int and dt.kind in "iu":
        return _core.arange_int(_int(start), _int(stop), _int(step), dt._code)
    if dt.kind in "iu":
        # numpy: the first two values are cast to the dtype, the rest continue their difference
        n = max(0, math.ceil((stop - start) / step))
        first = _int(start)
        delta = _int(start + step) - first
        if delta == 0 or n <= 1:
            return _core.full([n], _core.scalar(first, dt._code), dt._code)
        return _core.arange_int(first, first + n * delta, delta, dt._code)
    if dt.kind == "b":
        n = max(0, math.ceil((stop - start) / step))
        if n > 2:
            raise TypeError("[mnn.numpy.arange] arange() is only supported for booleans when the result has at "
                            "most length 2.")
    return _core.arange(_float(start), _float(stop), _float(step), dt._code)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """numpy's linspace: start + arange(num) * step in float64, the last sample exactly stop."""
    if device is not None:
        _check_device(device, "linspace")
    from ._common import asarray as _as
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"[mnn.numpy.linspace] Number of samples, {num}, must be non-negative.")
    if axis == 0 and not retstep and (dtype is None or dtype is float or _dtypes.dtype(dtype).name == "float64"):
        y = _linspace13.fast(start, stop, num, endpoint)
        if y is not None:
            return y
    div = (num - 1) if endpoint else num
    s, e = _as(start), _as(stop)
    dt = _dtypes.result_type(s.dtype, e.dtype, _dtypes.dtype("float64"))
    s = _core.astype(s, dt._code)
    e = _core.astype(e, dt._code)
    delta = e - s
    shape_extra = [1] * s.ndim if s.ndim or e.ndim else []
    idx = _core.reshape(_core.arange_int(0, num, 1, dt._code), [num] + [1] * max(delta.ndim, 0))
    step = delta / div if div > 0 else None
    if div > 0:
        y = idx * step + s
    else:
        y = idx * delta + s
    if endpoint and num > 1:
        _core.assign(y[-1], e)
    if axis != 0:
        from ._manipulation import moveaxis
        y = moveaxis(y, 0, axis)
    if dtype is not None:
        y = _core.astype(y, dtype_code(dtype))
    if retstep:
        return y, (step if step is not None else float("nan"))
    return y


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    if device is not None:
        _check_device(device, "eye")
    M = N if M is None else M
    if type(N) is _int and type(M) is _int and type(k) is _int and N >= 0 and M >= 0:
        from ._small_calls import cached_constant  # a copy of the kept identity (~1 us, not ~4)
        r = cached_constant(("eye", N, M, k, dtype), N * M, lambda: _eye(N, M, k, dtype))
        if r is not None:
            return r
    return _eye(N, M, k, dtype)


def _eye(N, M, k, dtype):
    out = zeros((N, M), dtype)
    if (k >= 0 and k < M) or (k < 0 and -k < N):
        d = _core.diagonal(out, k, 0, 1)
        d._set_writeable(True)
        _core.assign(d, _core.scalar(1, out.dtype._code))
    return out


def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=float if dtype is None else dtype)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """A 1-d array viewing a buffer's bytes as dtype (zero-copy, read-only for immutable buffers)."""
    dt = _dtypes.dtype(dtype)
    mv = memoryview(buffer).cast("B")
    nbytes = len(mv) - offset
    if offset < 0 or nbytes < 0:
        raise ValueError("[mnn.numpy.frombuffer] offset must be non-negative and no greater than buffer length")
    if count < 0:
        if nbytes % dt.itemsize:
            raise ValueError("[mnn.numpy.frombuffer] buffer size must be a multiple of element size")
        count = nbytes // dt.itemsize
    elif count * dt.itemsize > nbytes:
        raise ValueError("[mnn.numpy.frombuffer] buffer is smaller than requested size")
    sub = mv[offset:offset + count * dt.itemsize]
    return _core.from_buffer(sub, dt._code)


def from_dlpack(x, /, *, device=None, copy=None):
    """Zero-copy import of any DLPack producer (torch, numpy, jax, ...)."""
    if device is not None:
        _check_device(device, "from_dlpack")
    if isinstance(x, ndarray):
        return x
    cap = x.__dlpack__()
    return _core.from_dlpack_capsule(cap)
