"""mnn.numpy functions on string arrays: each reuses the numeric implementation on a stand-in.

- Functions that only move or select elements (concatenate, where, flip, take, split, ...) run on
  an int64 array of element numbers of the same shape; the result numbers pick the strings.
- Functions that order or match elements (sort, unique, isin, searchsorted, <, argmax, ...) run on
  ranks: each string's position among the sorted distinct strings of all operands, which orders
  exactly as numpy's code point comparison does.
- Functions that write a fill (pad, diag, tril, triu, trim_zeros) number elements from 1 and let
  0 pick the fill; in-place writers (put, place, putmask) write the picked strings back.
So axis handling, broadcasting and errors are the numeric functions' own.

install(namespace) wraps the public functions: a call whose operands include a str, a list of strs
or a StrArray goes here, every other call goes straight to the numeric function (one extra call
and a type test). where, zeros/ones/empty/full(_like) and the ufuncs test for strings inside their
own bodies instead (_ufuncs.py, _creation.py), as they are called most.
"""
import builtins
import functools
import sys

from .. import _core
from . import _dtypes, _fromlist13
from ._strings import StrArray, _decode, _encode, asstr, contains_str, is_str_dtype

_pystr, _pybool = builtins.str, builtins.bool
_I64 = 4


def _np():
    return sys.modules["mnn.numpy"]


_NOT_STR = {_core.ndarray, int, float, bool, complex, type(None)}  # answered without a look inside


def _is_str_operand(x):
    t = type(x)
    if t in _NOT_STR:
        return False
    if t is StrArray or t is _pystr or t is _dtypes.str_:
        return True
    if t is list or t is tuple:
        return contains_str(x)
    if t.__module__ == "numpy" and getattr(getattr(x, "dtype", None), "kind", None) == "U":
        return True
    return isinstance(x, _pystr)  # str subclasses (numpy.str_, str enums)


# ------------------------------------------------------------------ element numbers (moving functions)


def _common_width(arrays):
    n = max(a._n for a in arrays)
    return [a._rewidth(n) for a in arrays], n


def _numbered(arrays):
    """StrArrays -> (int64 arrays numbering their elements, the joint flat code array)."""
    arrays, n = _common_width(arrays)
    nums, flats, off = [], [], 0
    for a in arrays:
        nums.append(_core.reshape(_core.arange_int(off, off + a.size, 1, _I64), list(a.shape)))
        flats.append(_core.reshape(a._cp, [-1, n]))
        off += a.size
    flat = flats[0] if len(flats) == 1 else _core.concatenate(flats, 0, None)
    return nums, flat


def _pick(r, flat):
    """Map a numeric result (element numbers, or lists/tuples of them) back to strings."""
    if isinstance(r, (list, tuple)):
        return type(r)(_pick(x, flat) for x in r)
    if type(r) is _core.ndarray:
        return StrArray(flat[r, ...])
    return r


def _moving(fn_name, positions):
    """An implementation for a function that moves elements: `positions` names which positional
    arguments are arrays ('all': every positional; 'seq': the first, a sequence of arrays)."""
    def impl(*args, **kwargs):
        orig = _ORIG[fn_name]
        args = list(args)
        dtype = kwargs.pop("dtype", None)  # concatenate/stack's dtype=: applied to the strings
        kwargs.pop("casting", None)
        if fn_name == "where" and any(type(x) in (int, float, complex, bool) for x in args[1:3]):
            raise TypeError("[mnn.numpy.where] The DType <class 'numpy.dtypes.StrDType'> could not be promoted by "
                            "a Python scalar: no common DType exists for a str and a Python number")
        if positions == "seq":
            seq = [asstr(x, fn=fn_name) for x in args[0]]
            nums, flat = _numbered(seq)
            args[0] = nums
        else:
            where = range(len(args)) if positions == "all" else [p for p in positions if p < len(args)]
            where = [p for p in where if args[p] is not None]
            strs = [asstr(args[p], fn=fn_name) for p in where]
            nums, flat = _numbered(strs)
            for p, v in zip(where, nums):
                args[p] = v
        r = _pick(orig(*args, **kwargs), flat)
        return r if dtype is None else r.astype(dtype)
    return impl


where_strings = _moving("where", (1, 2))  # called by _ufuncs.where when x or y holds strings


def block(arrays):
    """numpy.block on strings: the nested lists' leaves numbered, blocked, picked."""
    leaves = []

    def number(x):
        if isinstance(x, list):
            return [number(v) for v in x]
        leaves.append(asstr(x, fn="block"))
        return len(leaves) - 1
    tree = number(arrays)
    nums, flat = _numbered(leaves)

    def rebuild(x):
        return [rebuild(v) for v in x] if isinstance(x, list) else nums[x]
    return _pick(_ORIG["block"](rebuild(tree)), flat)


def _nested_str(x):
    return any(_nested_str(v) for v in x) if isinstance(x, list) else _is_str_operand(x)


def _filling(fn_name, fill_of):
    """Functions that also write a fill value (numpy's zero: '' for diag/tril/triu, the padding
    constant's text for pad): elements are numbered from 1 and number 0 picks the fill."""
    def impl(*args, **kwargs):
        a = asstr(args[0], fn=fn_name)
        fill = asstr(fill_of(kwargs), fn=fn_name)
        if fill.ndim:
            raise NotImplementedError(f"[mnn.numpy.{fn_name}] string arrays take one scalar constant here")
        n = a._n
        fill = fill._rewidth(n)  # numpy keeps the array's dtype: the constant is cut to its width
        nums = _core.reshape(_core.arange_int(1, a.size + 1, 1, _I64), list(a.shape))
        flat = _core.concatenate([_core.reshape(fill._cp, [1, n]), _core.reshape(a._cp, [-1, n])], 0, None)
        if fn_name == "pad":
            kwargs = dict(kwargs)
            kwargs.pop("constant_values", None)
        return _pick(_ORIG[fn_name](nums, *args[1:], **kwargs), flat)
    return impl


def _in_place(fn_name, value_pos):
    """put/place/putmask: the numeric function runs on element numbers (the array's, then the
    values'), and the strings those numbers name are written back into the array."""
    def impl(*args, **kwargs):
        a = args[0]
        if not isinstance(a, StrArray):
            raise TypeError(f"[mnn.numpy.{fn_name}] argument 1 must be an array")
        v = asstr(args[value_pos], fn=fn_name)._rewidth(a._n)
        (nums_a, nums_v), flat = _numbered([a, v])
        rest = list(args)
        rest[0], rest[value_pos] = nums_a, nums_v
        _ORIG[fn_name](*rest, **kwargs)
        a[...] = StrArray(flat[nums_a, ...])
    return impl


def trim_zeros(filt, trim="fb", axis=None):
    """numpy trims the empty strings (a string array's zeros): elements are numbered from 1, an
    empty one is 0, and 0 picks '' back."""
    a = asstr(filt, fn="trim_zeros")
    nums = _core.reshape(_core.arange_int(1, a.size + 1, 1, _I64), list(a.shape))
    keep = _np().where(a._nonempty(), nums, 0)
    r = _ORIG["trim_zeros"](keep, trim) if axis is None else _ORIG["trim_zeros"](keep, trim, axis)
    empty = _core.full([1, a._n], _core.scalar(0, 7), 7)
    return StrArray(_core.concatenate([empty, _core.reshape(a._cp, [-1, a._n])], 0, None)[r, ...])


def choose(a, choices, out=None, mode="raise"):
    nums, flat = _numbered([asstr(c, fn="choose") for c in choices])
    return _pick(_ORIG["choose"](a, nums, mode=mode), flat)


def _identity_copy(a, *args, **kwargs):
    return asstr(a).copy()


def imag(val):
    a = asstr(val)
    return _fill(a.shape, "", a.dtype, "imag")


def _on_truth(fn_name):
    """numpy 2's logical functions and nonzero-based ones read a string as 'non-empty'."""
    def impl(*args, **kwargs):
        args = [asstr(x)._nonempty() if _is_str_operand(x) else x for x in args]
        return _ORIG[fn_name](*args, **kwargs)
    return impl


# ------------------------------------------------------------------ ranks (ordering functions)


def _ranks(*operands, fn):
    """Joint ranks of the operands' strings: (sorted distinct strs, int64 rank arrays, StrArrays)."""
    strs = [asstr(x, fn=fn) for x in operands]
    flats = [_decode(a._cp) for a in strs]
    uniq = sorted(set().union(*flats))
    pos = {s: i for i, s in enumerate(uniq)}
    # array.array + the buffer import: ~4x faster than from_list for the int64 ranks
    ranks = [_fromlist13.build([pos[s] for s in f], list(a.shape), _dtypes.dtype("int64"))
             for f, a in zip(flats, strs)]
    return uniq, ranks, strs


def _values(uniq, n):
    """The distinct strings as a (len, n) code array: rank arrays index it."""
    return _encode(uniq, n, [len(uniq)]) if uniq else _core.full([1, n], _core.scalar(0, 7), 7)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    uniq, (r,), (s,) = _ranks(a, fn="sort")
    out = _ORIG["sort"](r, axis=axis, kind=kind, order=order, stable=stable, descending=descending)
    return StrArray(_values(uniq, s._n)[out, ...])


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    _, (r,), _ = _ranks(a, fn="argsort")
    return _ORIG["argsort"](r, axis=axis, kind="stable", order=order, stable=stable, descending=descending)


def arg_extreme(a, axis, largest, keepdims):
    _, (r,), _ = _ranks(a, fn="argmax" if largest else "argmin")
    return _ORIG["argmax" if largest else "argmin"](r, axis=axis, keepdims=keepdims)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    uniq, (r,), (s,) = _ranks(a, fn="partition")
    return StrArray(_values(uniq, s._n)[_ORIG["partition"](r, kth, axis, kind, order), ...])


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    _, (r,), _ = _ranks(a, fn="argpartition")
    return _ORIG["argpartition"](r, kth, axis, kind, order)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return arg_extreme(a, axis, True, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return arg_extreme(a, axis, False, keepdims)


def searchsorted(a, v, side="left", sorter=None):
    _, (ra, rv), _ = _ranks(a, v, fn="searchsorted")
    return _ORIG["searchsorted"](ra, rv, side=side, sorter=sorter)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):  # noqa: A002
    uniq, (r,), (s,) = _ranks(ar, fn="unique")
    res = _ORIG["unique"](r, return_index, return_inverse, return_counts, axis, equal_nan=equal_nan)
    if not isinstance(res, tuple):
        return StrArray(_values(uniq, s._n)[res, ...])
    return (StrArray(_values(uniq, s._n)[res[0], ...]),) + tuple(res[1:])


def unique_values(x):
    return unique(x)


def unique_counts(x):
    from ._sets import UniqueCountsResult
    return UniqueCountsResult(*unique(x, return_counts=True))


def unique_inverse(x):
    from ._sets import UniqueInverseResult
    return UniqueInverseResult(*unique(x, return_inverse=True))


def unique_all(x):
    from ._sets import UniqueAllResult
    return UniqueAllResult(*unique(x, True, True, True))


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    if not (_is_str_operand(element) and _is_str_operand(test_elements)):
        e = _np().asarray(element)  # numpy: strings never equal numbers
        return _np().full(e.shape, _pybool(invert), _dtypes.bool_)
    _, (re, rt), _ = _ranks(element, test_elements, fn="isin")
    return _ORIG["isin"](re, rt, assume_unique=assume_unique, invert=invert, kind=kind)


def _set_op(name):
    def impl(ar1, ar2, *args, **kwargs):
        uniq, (r1, r2), (s1, s2) = _ranks(ar1, ar2, fn=name)
        res = _ORIG[name](r1, r2, *args, **kwargs)
        vals = _values(uniq, s1._n if name == "setdiff1d" else max(s1._n, s2._n))  # numpy's result dtypes
        if isinstance(res, tuple):
            return (StrArray(vals[res[0], ...]),) + tuple(res[1:])
        return StrArray(vals[res, ...])
    return impl


def lexsort(keys, axis=-1):
    keys = [(_ranks(k, fn="lexsort")[1][0] if _is_str_operand(k) else k) for k in keys]
    return _ORIG["lexsort"](keys, axis)


# ------------------------------------------------------------------ comparisons and ufuncs


_ORDER_OPS = {"less": "__lt__", "less_equal": "__le__", "greater": "__gt__", "greater_equal": "__ge__"}


def compare(x1, x2, name):
    """numpy's string comparison ufuncs (broadcasting; a string never equals a number)."""
    if not (_is_str_operand(x1) and _is_str_operand(x2)):
        if name in ("equal", "not_equal"):  # numpy: a string never equals a number (or None, ...)
            shape = _np().broadcast_shapes(_shape_of(x1), _shape_of(x2))
            return _np().full(shape, name == "not_equal", _dtypes.bool_)
        from ._strings import _no_loop
        raise _no_loop(name, x1, x2)
    a, b = asstr(x1, fn=name), asstr(x2, fn=name)
    if name in ("equal", "not_equal"):  # the engine compares code arrays of one width
        (a, b), _ = _common_width([a, b])
        eq = _np().all(a._cp == b._cp, axis=-1)
        return eq if name == "equal" else ~eq
    _, (ra, rb), _ = _ranks(a, b, fn=name)
    return getattr(ra, _ORDER_OPS[name])(rb)


def _shape_of(x):
    if isinstance(x, StrArray):
        return x.shape
    try:
        return _np().shape(x)
    except (TypeError, ValueError):
        return ()


def ufunc_add(x1, x2):
    """numpy 2's add on strings: elementwise concatenation, width the sum of both widths."""
    if not (_is_str_operand(x1) and _is_str_operand(x2)):
        from ._strings import _no_loop
        raise _no_loop("add", x1, x2)
    a, b = asstr(x1, fn="add"), asstr(x2, fn="add")
    shape = _np().broadcast_shapes(a.shape, b.shape)
    fa = _decode(_core.broadcast_to(a._cp, list(shape) + [a._n]))
    fb = _decode(_core.broadcast_to(b._cp, list(shape) + [b._n]))
    return StrArray(_encode([p + q for p, q in zip(fa, fb)], a._n + b._n, shape))


_UFUNC_IMPL = {"logical_and": lambda a, b: _truth_ufunc("logical_and", a, b),
               "logical_or": lambda a, b: _truth_ufunc("logical_or", a, b),
               "logical_xor": lambda a, b: _truth_ufunc("logical_xor", a, b),
               "equal": lambda a, b: compare(a, b, "equal"), "not_equal": lambda a, b: compare(a, b, "not_equal"),
               "less": lambda a, b: compare(a, b, "less"), "less_equal": lambda a, b: compare(a, b, "less_equal"),
               "greater": lambda a, b: compare(a, b, "greater"),
               "greater_equal": lambda a, b: compare(a, b, "greater_equal"), "add": ufunc_add}


def _truth_ufunc(name, a, b):
    a, b = (asstr(x)._nonempty() if _is_str_operand(x) else x for x in (a, b))
    return getattr(_np(), name)(a, b)


def ufunc_fallback(name, operands, exc):
    """Called by a ufunc whose engine call failed: numpy's string loop, or numpy's TypeError when
    strings are involved; re-raises `exc` otherwise."""
    if not any(_is_str_operand(x) for x in operands):
        raise exc
    impl = _UFUNC_IMPL.get(name)
    if impl is None or len(operands) != 2:
        from ._strings import _no_loop
        raise _no_loop(name, *operands) from None
    return impl(*operands)


def not_supported(fn, a):
    """TypeError for a numeric function handed a string array (instead of the engine's cast error)."""
    return TypeError(f"[mnn.numpy.{fn}] string arrays (dtype {a.dtype!r}) are not supported: there is no "
                     f"string loop for '{fn}'")


# ------------------------------------------------------------------ creation


def _fill(shape, fill_value, dtype, fn):
    n = None if dtype is None else (_dtypes.dtype(dtype).itemsize // 4 or None)
    v = asstr(fill_value, fn=fn)
    if n is not None:
        v = v._rewidth(n)
    shape = list(shape) if isinstance(shape, (list, tuple)) else [shape]
    return StrArray(_core.copy(_core.broadcast_to(v._cp, [int(s) for s in shape] + [v._n])))


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    if dtype is not None and not is_str_dtype(dtype):  # numpy parses the string
        return _ORIG["full"](shape, asstr(fill_value, fn="full").astype(dtype), dtype)
    return _fill(shape, fill_value, dtype, "full")


def copy(a, order="K", subok=False):
    return asstr(a, fn="copy").copy()


def count_nonzero(a, axis=None, *, keepdims=False):
    return _ORIG["count_nonzero"](asstr(a)._nonempty(), axis=axis, keepdims=keepdims)


def nonzero(a):
    return _ORIG["nonzero"](asstr(a)._nonempty())


def array_equal(a1, a2, equal_nan=False):
    a, b = _np().asarray(a1), _np().asarray(a2)
    if a.shape != b.shape:
        return False
    return _pybool(_np().all(a == b))


def array_equiv(a1, a2):
    a, b = _np().asarray(a1), _np().asarray(a2)
    try:
        _np().broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return False
    return _pybool(_np().all(a == b))


# ------------------------------------------------------------------ the wrappers


_MOVING = {
    "seq": ("concatenate", "concat", "stack", "hstack", "vstack", "dstack", "column_stack", "row_stack"),
    (0,): ("flip", "fliplr", "flipud", "roll", "rot90", "tile", "repeat", "take", "broadcast_to", "delete",
           "split", "array_split", "hsplit", "vsplit", "dsplit", "moveaxis", "permute_dims", "matrix_transpose", "resize", "take_along_axis",
           "unstack", "rollaxis", "diagonal", "ascontiguousarray", "asfortranarray", "require"),
    (1,): ("compress", "extract"),
    (0, 1): ("append",),
    (0, 2): ("insert",),
    "all": ("atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays", "meshgrid"),
}
def _view_functions():
    """numpy's view-returning functions, as views: the StrArray methods (engine views of the code
    array), so writes through np.reshape(a, ...)[0] reach `a` as in numpy."""
    def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
        return asstr(a, fn="reshape").reshape(shape if shape is not None else newshape, order=order)

    def transpose(a, axes=None):
        return asstr(a, fn="transpose").transpose(axes)

    def ravel(a, order="C"):
        return asstr(a, fn="ravel").ravel(order)

    def squeeze(a, axis=None):
        return asstr(a, fn="squeeze").squeeze(axis)

    def swapaxes(a, axis1, axis2):
        return asstr(a, fn="swapaxes").swapaxes(axis1, axis2)

    def expand_dims(a, axis):
        s = asstr(a, fn="expand_dims")
        shape = _ORIG["expand_dims"](_core.empty(list(s.shape), 0), axis).shape  # numpy's axis rules
        return StrArray(_core.reshape(s._cp, list(shape) + [s._n]))
    return {f.__name__: f for f in (reshape, transpose, ravel, squeeze, swapaxes, expand_dims)}


_ORDERING = {"sort": sort, "argsort": argsort, "argmax": argmax, "argmin": argmin, "searchsorted": searchsorted,
             "unique": unique, "unique_values": unique_values, "unique_counts": unique_counts,
             "unique_inverse": unique_inverse, "unique_all": unique_all, "isin": isin, "lexsort": lexsort,
             "intersect1d": _set_op("intersect1d"), "union1d": _set_op("union1d"),
             "setdiff1d": _set_op("setdiff1d"), "setxor1d": _set_op("setxor1d"), "copy": copy,
             "count_nonzero": count_nonzero, "nonzero": nonzero, "array_equal": array_equal,
             "array_equiv": array_equiv, "partition": partition, "argpartition": argpartition,
             "nanargmax": argmax, "nanargmin": argmin, "flatnonzero": _on_truth("flatnonzero"),
             "argwhere": _on_truth("argwhere"), "trim_zeros": trim_zeros, "nan_to_num": _identity_copy,
             "real": _identity_copy, "imag": imag,
             "diag": _filling("diag", lambda kw: ""), "tril": _filling("tril", lambda kw: ""),
             "triu": _filling("triu", lambda kw: ""),
             "pad": _filling("pad", lambda kw: kw.get("constant_values", 0)),
             "put": _in_place("put", 2), "place": _in_place("place", 2), "putmask": _in_place("putmask", 2)}
# (zeros, ones, empty, full and their *_like forms check for a U dtype in _creation.py itself: one
# attribute test where a wrapper would cost a call)
_ORIG = {}


def _dispatch(orig, impl, positions):
    """orig(*args) unless an array operand (at `positions`) holds strings; then impl(*args)."""
    if positions == "seq":
        def f(*args, **kwargs):
            if args and type(args[0]) in (list, tuple):
                for x in args[0]:
                    if type(x) not in _NOT_STR and _is_str_operand(x):
                        return impl(*args, **kwargs)
            return orig(*args, **kwargs)
    elif positions == "all":
        def f(*args, **kwargs):
            if any(_is_str_operand(x) for x in args):
                return impl(*args, **kwargs)
            return orig(*args, **kwargs)
    elif positions == (0,):  # the common case, kept to one type test for a numeric array
        def f(*args, **kwargs):
            if args and type(args[0]) not in _NOT_STR and _is_str_operand(args[0]):
                return impl(*args, **kwargs)
            return orig(*args, **kwargs)
    else:
        def f(*args, **kwargs):
            for p in positions:
                if p < len(args) and type(args[p]) not in _NOT_STR and _is_str_operand(args[p]):
                    return impl(*args, **kwargs)
            return orig(*args, **kwargs)
    functools.update_wrapper(f, orig)
    return f


def install(ns):
    """Wraps the public functions in namespace `ns` (mnn.numpy's globals)."""
    for name, impl in _view_functions().items():
        if name in ns and name not in _ORIG:
            _ORIG[name] = ns[name]
            ns[name] = _dispatch(ns[name], impl, (0,))
    for positions, names in _MOVING.items():
        for name in names:
            if name in ns and name not in _ORIG:
                _ORIG[name] = ns[name]
                ns[name] = _dispatch(ns[name], _moving(name, positions), positions)
    ordering_pos = {"isin": (0, 1), "searchsorted": (0, 1), "intersect1d": (0, 1), "union1d": (0, 1),
                    "setdiff1d": (0, 1), "setxor1d": (0, 1), "array_equal": (0, 1), "array_equiv": (0, 1),
                    "lexsort": "seq"}
    for name, impl in _ORDERING.items():
        if name in ns and name not in _ORIG:
            _ORIG[name] = ns[name]
            ns[name] = _dispatch(ns[name], impl, ordering_pos.get(name, (0,)))
    if "choose" in ns and "choose" not in _ORIG:
        _ORIG["choose"] = orig_choose = ns["choose"]

        def choose_dispatch(a, choices, out=None, mode="raise"):
            if isinstance(choices, (list, tuple)) and any(_is_str_operand(c) for c in choices) or \
                    _is_str_operand(choices):
                return choose(a, list(choices), out, mode)
            return orig_choose(a, choices, out=out, mode=mode)
        ns["choose"] = functools.update_wrapper(choose_dispatch, orig_choose)
    if "block" in ns and "block" not in _ORIG:
        _ORIG["block"] = orig_block = ns["block"]

        def block_dispatch(arrays):
            return block(arrays) if _nested_str(arrays) else orig_block(arrays)
        ns["block"] = functools.update_wrapper(block_dispatch, orig_block)
    _ORIG["full"] = ns["full"]
    _ORIG["where"] = ns["where"]  # (where checks for strings in _ufuncs.py itself)


