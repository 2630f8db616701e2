"""mnn.numpy.strings and mnn.numpy.char: numpy's elementwise string functions on '<U' arrays.

Each function broadcasts its operands, applies Python's str method per element and stores the
results with numpy 2's width: the input's width for case changes, strip and slice (longer results
are truncated to it, as numpy's full case mapping is: 'ß'.upper() in a '<U1' array is 'S'), the
sum of the widths for add, and the longest result (at least 1) for the functions whose results
grow (replace, center, ljust, rjust, zfill, multiply, join, partition, mod). numpy's object-array
results (split, rsplit, splitlines) and its bytes dtype (encode, decode) are not available.
"""
import builtins
import sys

from .. import _core
from . import _dtypes
from ._strings import StrArray, _decode, _encode, asstr

_pystr, _pyint, _pybool = builtins.str, builtins.int, builtins.bool
_BOOL, _I64 = 0, 4


def _np():
    return sys.modules["mnn.numpy"]


def _is_stringy(x):
    return isinstance(x, (StrArray, _pystr)) or (isinstance(x, (list, tuple)) and _np()._strings.contains_str(x)) \
        or getattr(getattr(x, "dtype", None), "kind", None) == "U"


def _operand(x, kind, fn):
    """('s', StrArray) for a string operand, ('n', ndarray) for a numeric one, ('c', value) for a
    constant that is not broadcast (None)."""
    if x is None:
        return "c", None
    if kind == "s":
        if not _is_stringy(x):
            raise TypeError(f"[mnn.numpy.strings.{fn}] string operation on non-string array")
        return "s", asstr(x, fn=f"strings.{fn}")
    a = _np().asarray(x)
    if a.dtype.kind not in "iub":
        raise TypeError(f"[mnn.numpy.strings.{fn}] expected integer arguments, got {a.dtype!r}")
    return "n", a


def _apply(fn, func, operands, kinds, out, width=None):
    """Broadcast the operands, call func on each tuple of elements, build the result.

    out: 'same' (width of the first operand), 'fit' (longest result), 'sum' (sum of string widths),
    'bool', 'int', or 'tuple3' (partition: three string arrays)."""
    ops = [_operand(x, k, fn) for x, k in zip(operands, kinds)]
    shapes = [v.shape for t, v in ops if t != "c"]
    shape = tuple(_np().broadcast_shapes(*shapes))
    cols = []
    count = 1
    for s in shape:
        count *= s
    for t, v in ops:
        if t == "c":
            cols.append([v] * count)
        elif t == "s":
            cols.append(_decode(_core.broadcast_to(v._cp, list(shape) + [v._n])) if count else [])
        else:
            cols.append(_core.all_values(_core.broadcast_to(v, list(shape))) if count else [])
    results = [func(*args) for args in zip(*cols)] if count else []
    if out == "bool":
        return _core.from_list([_pybool(r) for r in results], list(shape), _BOOL)
    if out == "int":
        return _core.from_list([_pyint(r) for r in results], list(shape), _I64)
    if out == "tuple3":
        return tuple(_strs([r[i] for r in results], shape, None) for i in range(3))
    strs = [v for t, v in ops if t == "s"]
    n = strs[0]._n if out == "same" else sum(s._n for s in strs) if out == "sum" else None
    return _strs(results, shape, n)


def _strs(results, shape, n):
    if n is None:
        n = max(1, max((len(r) for r in results), default=1))
    return StrArray(_encode(results, n, shape))


# ------------------------------------------------------------------ the functions


def _same(method):
    def fn(a):
        return _apply(method, getattr(_pystr, method), [a], "s", "same")
    fn.__name__ = method
    return fn


upper, lower, capitalize, title, swapcase = (_same(m) for m in ("upper", "lower", "capitalize", "title", "swapcase"))


def _strip(method):
    def fn(a, chars=None):
        if chars is None:
            return _apply(method, lambda s: getattr(s, method)(), [a], "s", "same")
        return _apply(method, lambda s, c: getattr(s, method)(c), [a, chars], "ss", "same")
    fn.__name__ = method
    return fn


strip, lstrip, rstrip = _strip("strip"), _strip("lstrip"), _strip("rstrip")


def _pred(method):
    def fn(a):
        return _apply(method, getattr(_pystr, method), [a], "s", "bool")
    fn.__name__ = method
    return fn


isalpha, isdigit, isnumeric, isdecimal, isspace, isalnum, islower, isupper, istitle = (
    _pred(m) for m in ("isalpha", "isdigit", "isnumeric", "isdecimal", "isspace", "isalnum", "islower", "isupper",
                       "istitle"))


def _end(e):
    return sys.maxsize if e is None else e


def _search(method, out):
    def fn(a, sub, start=0, end=None):
        return _apply(method, lambda s, t, b, e: getattr(s, method)(t, b, _end(e)), [a, sub, start, end], "ssnn",
                      out)
    fn.__name__ = method
    return fn


find, rfind, count = _search("find", "int"), _search("rfind", "int"), _search("count", "int")
startswith, endswith = _search("startswith", "bool"), _search("endswith", "bool")


def _index(method):
    def call(s, t, b, e):
        r = getattr(s, "find" if method == "index" else "rfind")(t, b, _end(e))
        if r < 0:
            raise ValueError(f"[mnn.numpy.strings.{method}] substring not found")
        return r

    def fn(a, sub, start=0, end=None):
        return _apply(method, call, [a, sub, start, end], "ssnn", "int")
    fn.__name__ = method
    return fn


index, rindex = _index("index"), _index("rindex")


def str_len(a):
    return _apply("str_len", len, [a], "s", "int")


def add(x1, x2):
    return _apply("add", lambda p, q: p + q, [x1, x2], "ss", "sum")


def multiply(a, i):
    return _apply("multiply", lambda s, k: s * max(k, 0), [a, i], "sn", "fit")


def replace(a, old, new, count=-1):
    return _apply("replace", lambda s, o, n, c: s.replace(o, n, c), [a, old, new, count], "sssn", "fit")


def _justify(method):
    def fn(a, width, fillchar=" "):
        if isinstance(fillchar, _pystr) and len(fillchar) != 1:  # numpy checks it before any element
            raise TypeError(f"[mnn.numpy.strings.{method}] The fill character must be exactly one character long")

        def call(s, w, f):
            if len(f) != 1:
                raise TypeError(f"[mnn.numpy.strings.{method}] The fill character must be exactly one character long")
            return getattr(s, method)(w, f)
        return _apply(method, call, [a, width, fillchar], "sns", "fit")
    fn.__name__ = method
    return fn


center, ljust, rjust = _justify("center"), _justify("ljust"), _justify("rjust")


def zfill(a, width):
    return _apply("zfill", lambda s, w: s.zfill(w), [a, width], "sn", "fit")


def join(sep, seq):
    return _apply("join", lambda s, q: s.join(q), [sep, seq], "ss", "fit")


def partition(a, sep):
    return _apply("partition", lambda s, p: s.partition(p), [a, sep], "ss", "tuple3")


def rpartition(a, sep):
    return _apply("rpartition", lambda s, p: s.rpartition(p), [a, sep], "ss", "tuple3")


def _expandtabs_width(s, tabsize):
    """numpy 2's result width for expandtabs: it counts 4 per character that is not a tab (the
    bytes of a UCS4 code point) plus each tab's expansion, so its '<U' widths are larger."""
    n, col = 0, 0
    for ch in s:
        if ch == "\t":
            if tabsize > 0:
                inc = tabsize - col % tabsize
                col += inc
                n += inc
        else:
            col = 0 if ch in "\n\r" else col + 1
            n += 4
    return n


def expandtabs(a, tabsize=8):
    r = _apply("expandtabs", lambda s, t: s.expandtabs(t), [a, tabsize], "sn", "fit")
    ops = _operand(a, "s", "expandtabs")[1], _np().asarray(tabsize)
    shape = r.shape
    texts = _decode(_core.broadcast_to(ops[0]._cp, list(shape) + [ops[0]._n])) if r.size else []
    tabs = _core.all_values(_core.broadcast_to(ops[1], list(shape))) if r.size else []
    width = max([1] + [_expandtabs_width(t, k) for t, k in zip(texts, tabs)])
    return r._rewidth(max(width, r._n))


def translate(a, table, deletechars=None):
    if deletechars:
        table = dict(table) if isinstance(table, dict) else table
        return _apply("translate", lambda s: s.translate(table).translate({ord(c): None for c in deletechars}),
                      [a], "s", "same")
    return _apply("translate", lambda s: s.translate(table), [a], "s", "same")


def mod(a, values):
    v = values if isinstance(values, (StrArray, _core.ndarray)) else _np().asarray(values) \
        if not _is_stringy(values) else asstr(values)
    kind = "s" if isinstance(v, StrArray) else "n"
    conv = _pystr if kind == "s" else (lambda x: x)
    return _apply("mod", lambda s, x: s % conv(x), [a, v], "s" + kind, "fit")


def slice(a, start=None, stop=None, step=None, /):  # noqa: A001  (numpy's name)
    if stop is None and step is None and start is not None:  # numpy: slice(a, stop)
        start, stop = None, start
    return _apply("slice", lambda s, b, e, st: s[b:e:st], [a, start, stop, step], "snnn", "same")


def equal(x1, x2):
    return _np()._strfuncs.compare(x1, x2, "equal")


def not_equal(x1, x2):
    return _np()._strfuncs.compare(x1, x2, "not_equal")


def less(x1, x2):
    return _np()._strfuncs.compare(x1, x2, "less")


def less_equal(x1, x2):
    return _np()._strfuncs.compare(x1, x2, "less_equal")


def greater(x1, x2):
    return _np()._strfuncs.compare(x1, x2, "greater")


def greater_equal(x1, x2):
    return _np()._strfuncs.compare(x1, x2, "greater_equal")


def compare_chararrays(a1, a2, cmp, rstrip):
    ops = {"==": "equal", "!=": "not_equal", "<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal"}
    if cmp not in ops:
        raise ValueError("[mnn.numpy.char.compare_chararrays] comparison must be '==', '!=', '<', '>', '<=', '>='")
    if rstrip:
        a1, a2 = rstrip_ws(a1), rstrip_ws(a2)
    return _np()._strfuncs.compare(a1, a2, ops[cmp])


def rstrip_ws(a):
    return rstrip(a)


def array(obj, itemsize=None, copy=True, unicode=None, order=None):
    """numpy.char.array gives a chararray; mnn gives the plain '<U' array (same elements)."""
    return asstr(obj, None if itemsize is None else _dtypes.unicode_dtype(itemsize), fn="char.array")


def asarray(obj, itemsize=None, unicode=None, order=None):
    return array(obj, itemsize, copy=False)


def _object_result(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(f"[mnn.numpy.strings.{name}] numpy returns an object array of lists here, and mnn "
                                  f"has no object dtype: use [s.{name}() for s in a.tolist()]")
    fn.__name__ = name
    return fn


split, rsplit, splitlines = _object_result("split"), _object_result("rsplit"), _object_result("splitlines")


def _bytes_result(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(f"[mnn.numpy.strings.{name}] bytes arrays (dtype 'S') are not supported by mnn")
    fn.__name__ = name
    return fn


encode, decode = _bytes_result("encode"), _bytes_result("decode")
del builtins


def char_module(strings_module):
    """mnn.numpy.char: the same functions, but numpy.char's partition/rpartition give one array
    with a trailing axis of 3 (numpy.strings gives a tuple of three arrays)."""
    import types
    m = types.ModuleType("mnn.numpy.char", "numpy.char: elementwise string functions (see mnn.numpy.strings).")
    for k, v in vars(strings_module).items():
        if not k.startswith("_") and callable(v) and getattr(v, "__module__", None) == __name__:
            setattr(m, k, v)

    def _stacked(fn):
        def f(a, sep):
            return _np().stack(list(fn(a, sep)), axis=-1)
        f.__name__ = fn.__name__
        return f
    m.partition, m.rpartition = _stacked(partition), _stacked(rpartition)

    def _rstripped(name):  # numpy.char compares as chararrays do: trailing whitespace ignored
        def f(x1, x2):
            return _np()._strfuncs.compare(rstrip(x1), rstrip(x2), name)
        f.__name__ = name
        return f
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        setattr(m, name, _rstripped(name))
    m.chararray = None  # not provided: numpy.char.array returns a plain '<U' array here
    del m.chararray
    return m
