"""NumPy-compatible dtype objects, scalar type classes and type rules.

Pure standard library: the runtime must not import numpy.  NumPy objects
(dtypes, scalar types, arrays) are still recognised by duck typing -- their
``.str`` / ``__name__`` / ``.dtype`` -- so mixing the two libraries works.

The type rules are NumPy 2 (NEP 50).  Casting and promotion are *derived*
from a small "safe cast" rule on (kind, itemsize) instead of typed-in tables,
so adding bfloat16/complex later only needs a new row in ``_SPECS`` and,
for a new kind, a line in ``_safe_rule``.

Assumes an LP64 platform (Linux/macOS): C ``long`` is 64 bits, so 'l'/'long'
are int64 as in NumPy there.
"""
import builtins
import math
import struct
import sys

# The module exports numpy's ``bool`` alias, which shadows the builtin here;
# code below must therefore use these names for the Python types.
_pybool, _pyint, _pyfloat, _pycomplex, _pystr = (
    builtins.bool, builtins.int, builtins.float, builtins.complex, builtins.str)

_NATIVE = '<' if sys.byteorder == 'little' else '>'

# One row per dtype.  `code` is the engine's integer id (C++ side), `sfmt` the
# struct format used to round Python floats to the type's precision.
# bfloat16 (code 12) is an extension type as in ml_dtypes: kind 'f' here (it is a float
# for every rule of mnn), but spelled like ml_dtypes' dtype to the outside ('E', '<V2').
#  code name       kind size char sfmt  extra names (no byte-order prefix)  extra chars
_SPECS = (
    (0, 'bool', 'b', 1, '?', None, ('bool_',), ()),
    (1, 'int8', 'i', 1, 'b', None, ('byte',), ()),
    (2, 'int16', 'i', 2, 'h', None, ('short',), ()),
    (3, 'int32', 'i', 4, 'i', None, ('intc',), ()),
    (4, 'int64', 'i', 8, 'l', None,
     ('long', 'longlong', 'int_', 'intp', 'int'), ('q', 'n', 'p')),
    (5, 'uint8', 'u', 1, 'B', None, ('ubyte',), ()),
    (6, 'uint16', 'u', 2, 'H', None, ('ushort',), ()),
    (7, 'uint32', 'u', 4, 'I', None, ('uintc',), ()),
    (8, 'uint64', 'u', 8, 'L', None,
     ('ulong', 'ulonglong', 'uint', 'uintp'), ('Q', 'N', 'P')),
    (9, 'float16', 'f', 2, 'e', 'e', ('half',), ()),
    (10, 'float32', 'f', 4, 'f', 'f', ('single',), ()),
    (11, 'float64', 'f', 8, 'd', 'd', ('double', 'float'), ()),
    (12, 'bfloat16', 'f', 2, 'E', 'bf16', (), ()),
    (13, 'complex64', 'c', 8, 'F', None, ('csingle', 'singlecomplex'), ()),
    (14, 'complex128', 'c', 16, 'D', None, ('cdouble', 'complex', 'cfloat', 'complex_'), ()),
)

# NumPy's ordering of kinds for 'same_kind' casting and promotion tie-breaks.
_KIND_RANK = {'b': 0, 'u': 1, 'i': 2, 'f': 3, 'c': 4}


class dtype:
    """Interned dtype: exactly one instance per type, so `is` works."""

    __slots__ = ('name', 'kind', 'char', 'itemsize', 'str', 'type', '_code',
                 '_sfmt', '_hash')

    # Constant attributes of every builtin, non-structured numpy dtype.
    shape = ()
    ndim = 0
    names = None
    fields = None
    hasobject = False
    isbuiltin = 1
    isnative = True
    isalignedstruct = False
    flags = 0
    subdtype = None
    metadata = None

    def __new__(cls, obj, align=False, copy=False, metadata=None):
        # align/copy/metadata are meaningless for builtin scalar dtypes.
        if obj.__class__ is dtype:          # hot path
            return obj
        return _convert(obj)

    def __setattr__(self, key, value):
        # Instances are shared (interned); mutating one would affect everyone.
        raise AttributeError(f"dtype attribute {key!r} is read-only")

    @property
    def alignment(self):
        if self.kind == 'U':
            return 4
        return self.itemsize // 2 if self.kind == 'c' else self.itemsize

    @property
    def byteorder(self):
        return '|' if self.itemsize == 1 else '='

    @property
    def descr(self):
        return [('', self.str)]

    @property
    def base(self):
        return self

    @property
    def __numpy_dtype__(self):
        # NumPy >= 2.4 protocol: lets np.dtype(x), dtype=x, and numpy's
        # dtype == x accept mnn dtypes.  Only numpy itself reads this, so
        # numpy is already imported; we never import it.
        np = sys.modules.get('numpy')
        if np is None:
            raise AttributeError('__numpy_dtype__')
        if self._code == 12:
            return _numpy_bfloat16()
        return np.dtype(self.str)

    def __repr__(self):
        if self.kind == 'U':
            return f"dtype({(self.str if self.itemsize else self.str[:-1])!r})"  # numpy: dtype('<U')
        return f"dtype({self.name!r})"

    def __str__(self):
        return self.str if self.kind == 'U' else self.name

    def __hash__(self):
        # numpy's own formula for builtin dtypes (hash of (kind, byteorder,
        # flags, itemsize, alignment)), so an mnn dtype and the equal numpy
        # dtype find the same dict/set entry.
        return self._hash

    def __eq__(self, other):
        if other.__class__ is dtype:
            return self is other
        try:
            return self is _convert(other)
        except (TypeError, ValueError):
            return NotImplemented

    # numpy orders dtypes by safe castability.
    def __le__(self, other):
        return can_cast(self, other, 'safe')

    def __lt__(self, other):
        return self != other and can_cast(self, other, 'safe')

    def __ge__(self, other):
        return can_cast(other, self, 'safe')

    def __gt__(self, other):
        return self != other and can_cast(other, self, 'safe')

    def __reduce__(self):
        return (dtype, (self.str if self.kind == 'U' else self.name,))


_BY_CODE = {}
_STRINGS = {}     # every accepted string spelling -> dtype
_PREFIXABLE = {}  # spellings that may carry a byte-order prefix ('<f4', '=d')

for _code, _name, _kind, _size, _char, _sfmt, _names, _chars in _SPECS:
    _d = object.__new__(dtype)
    # bfloat16 has no typestr of its own; ml_dtypes reports '<V2' (2 opaque bytes)
    _typestr = _NATIVE + 'V2' if _code == 12 else ('|' if _size == 1 else _NATIVE) + _kind + _pystr(_size)
    for _k, _v in (('name', _name), ('kind', _kind), ('char', _char),
                   ('itemsize', _size), ('_code', _code), ('_sfmt', _sfmt),
                   ('str', _typestr), ('type', None)):
        object.__setattr__(_d, _k, _v)
    # numpy's own formula, so equal dtypes of the two libraries hash alike (bfloat16 has no numpy twin)
    object.__setattr__(_d, '_hash', hash(('bfloat16',) if _code == 12 else (_kind, _d.str[0], 0, _size, _d.alignment)))
    _BY_CODE[_code] = _d
    for _s in ((_char,) if _code == 12 else (_char, _kind + _pystr(_size))) + _chars:
        _PREFIXABLE[_s] = _d
    for _s in (_name,) + _names:
        _STRINGS[_s] = _d
_STRINGS.update(_PREFIXABLE)
_ALL = tuple(_BY_CODE[c] for c in sorted(_BY_CODE))


def dtype_from_code(code):
    """Inverse of ``dtype._code`` (the C++ engine's dtype numbering)."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise ValueError(f"unknown dtype code {code!r}") from None


# --------------------------------------------------------------------------
# Scalar type classes.

# The package's ndarray type, set by mnn.numpy at import (this module stays import-free).
_NDARRAY_TYPE = None


class _ScalarMeta(type):
    # mnn's scalars are 0-d arrays: isinstance(a[0], integer), isinstance(float64(1), float64)
    # answer by the array's dtype, as numpy's do for its scalar objects.
    def __instancecheck__(cls, obj):
        if type(obj) is _NDARRAY_TYPE and obj.ndim == 0:
            return issubclass(obj.dtype.type, cls)
        return type.__instancecheck__(cls, obj)

    # A *metaclass* data descriptor: `float32.dtype` (class access) gives numpy
    # a dtype, so np.dtype(mnn.float32) / np.zeros(3, mnn.float32) work instead
    # of silently becoming object dtype; instances created later by the
    # package may still define their own `.dtype` (metaclass attributes are
    # not visible on instances).
    @property
    def dtype(cls):
        np = sys.modules.get('numpy')
        if np is None or cls._dtype is None:
            raise AttributeError('dtype')
        return np.dtype(cls._dtype.str)


class generic(metaclass=_ScalarMeta):
    _dtype = None  # set on concrete classes; abstract classes keep None

    def __new__(cls, value=0):
        d = cls._dtype
        if d is None:
            raise TypeError(f"cannot create 'mnn.numpy.{cls.__name__}' instances")
        # Looked up at call time so the package can install its own hook.
        return _make_scalar(value, d)


def _abstract(name, *bases):
    return _ScalarMeta(name, bases, {'__module__': 'mnn.numpy', '__qualname__': name})


generic.__module__ = 'mnn.numpy'
number = _abstract('number', generic)
integer = _abstract('integer', number)
signedinteger = _abstract('signedinteger', integer)
unsignedinteger = _abstract('unsignedinteger', integer)
inexact = _abstract('inexact', number)
floating = _abstract('floating', inexact)
complexfloating = _abstract('complexfloating', inexact)

_BASE_OF_KIND = {'b': generic, 'i': signedinteger, 'u': unsignedinteger,
                 'f': floating, 'c': complexfloating}
for _d in _ALL:
    _cls = _ScalarMeta(_d.name, (_BASE_OF_KIND[_d.kind],),
                       {'__module__': 'mnn.numpy', '__qualname__': _d.name,
                        '_dtype': _d})
    object.__setattr__(_d, 'type', _cls)
(bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
 float16, float32, float64, bfloat16, complex64, complex128) = [d.type for d in _ALL]

# numpy 2 aliases (LP64).  `bool` deliberately shadows the builtin: numpy has it.
bool = bool_  # noqa: A001
half, single, double = float16, float32, float64
csingle, cdouble = complex64, complex128
complex_ = cfloat = complex128  # numpy 1.x spellings, kept for old code
byte, short, intc, long, longlong = int8, int16, int32, int64, int64
int_ = intp = int64
ubyte, ushort, uintc, ulong, ulonglong = uint8, uint16, uint32, uint64, uint64
uint = uintp = uint64

# numpy's scalar types are recognised by __name__ (module 'numpy').  Names
# here that are not dtype names (longlong, abstract classes) are listed too.
_SCALAR_BY_NAME = {c.__name__: c for c in (
    generic, number, integer, signedinteger, unsignedinteger, inexact,
    floating, complexfloating)}
_SCALAR_BY_NAME.update({d.name: d.type for d in _ALL})
_SCALAR_BY_NAME.update(longlong=int64, ulonglong=uint64)

# --------------------------------------------------------------------------
# numpy's fixed-width unicode strings ('<U{n}': n UCS4 code points per element). The arrays
# live in _strings.py; here only the dtype objects (interned per width) and the scalar type.

import re as _re  # noqa: E402

_UNICODE_RE = _re.compile(r'^([<>=|]?)U(\d*)$|^(?:str|str_|unicode)()$')
_UNICODE = {}
# the width numpy gives a number converted to str (np.array([1]).astype(str) is '<U21')
_STR_WIDTH = {'bool': 5, 'int8': 4, 'int16': 6, 'int32': 11, 'int64': 21, 'uint8': 3, 'uint16': 5,
              'uint32': 10, 'uint64': 20, 'float16': 32, 'float32': 32, 'float64': 32, 'bfloat16': 32,
              'complex64': 64, 'complex128': 64}


def unicode_dtype(n):
    """dtype('<U{n}'), one instance per width (so `is` and == work as for the other dtypes)."""
    d = _UNICODE.get(n)
    if d is None:
        if n < 0:
            raise TypeError(f"data type '<U{n}' not understood")
        d = object.__new__(dtype)
        for k, v in (('name', f'str{32 * n}' if n else 'str'), ('kind', 'U'), ('char', 'U'),
                     ('itemsize', 4 * n), ('_code', None), ('_sfmt', None), ('str', f'{_NATIVE}U{n}'),
                     ('type', str_), ('_hash', hash(('U', _NATIVE, 8, 4 * n, 4)))):
            object.__setattr__(d, k, v)
        _UNICODE[n] = d
    return d


def str_width(d):
    """Code points per element of a dtype converted to str (numpy's astype(str) width)."""
    return d.itemsize // 4 if d.kind == 'U' else _STR_WIDTH[d.name]


flexible = _abstract('flexible', generic)
character = _abstract('character', flexible)


class str_(_pystr, character):
    """numpy.str_: a Python str that is also a numpy scalar (what indexing a string array gives)."""
    __module__ = 'mnn.numpy'

    def __new__(cls, value=''):
        return _pystr.__new__(cls, value)

    def __repr__(self):
        return f"np.str_({_pystr.__repr__(self)})"

    @property
    def dtype(self):
        return unicode_dtype(len(self))

    @property
    def itemsize(self):
        return 4 * len(self)

    shape = ()
    ndim = 0
    size = 1

    def item(self):
        return _pystr(self)

    def tolist(self):
        return _pystr(self)


str_._dtype = unicode_dtype(0)
_SCALAR_BY_NAME.update(flexible=flexible, character=character, str_=str_)

_PYTYPES = {_pybool: bool_, _pyint: int64, _pyfloat: float64, _pycomplex: complex128}


def _round_bfloat16(value):
    # The engine's conversion: to float32 first (as ml_dtypes does), then keep the top 16 bits
    # rounded to nearest even; NaN stays a (quiet) NaN.
    f = _round_float(value, 'f')
    if f != f:
        return f
    (x,) = struct.unpack('<I', struct.pack('<f', f))
    x = ((x + 0x7fff + ((x >> 16) & 1)) >> 16) << 16
    return struct.unpack('<f', struct.pack('<I', x & 0xffffffff))[0]


def _numpy_bfloat16():
    # numpy has no bfloat16: ml_dtypes' is the one numpy code understands.
    try:
        import ml_dtypes
    except ImportError:
        raise TypeError("mnn.numpy.bfloat16 has no numpy equivalent without the ml_dtypes package "
                        "(pip install ml_dtypes), or convert with .astype('float32')") from None
    return sys.modules['numpy'].dtype(ml_dtypes.bfloat16)


def _round_float(value, fmt):
    # struct rounds to nearest-even like a C cast; it raises instead of
    # returning inf on overflow, where numpy gives +-inf.
    if fmt == 'bf16':
        return _round_bfloat16(value)
    try:
        return struct.unpack(fmt, struct.pack(fmt, value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _default_make_scalar(value, dt):
    """Convert `value` to the Python type representing scalars of `dt`."""
    k = dt.kind
    if k == 'b':
        return _pybool(value)
    if k in 'iu':
        bits = dt.itemsize * 8
        v = _pyint(value) & ((1 << bits) - 1)          # C-style wrap-around
        return v - (1 << bits) if k == 'i' and v >> (bits - 1) else v
    if k == 'c':
        v = _pycomplex(value)
        half_fmt = {8: 'f', 16: 'd'}[dt.itemsize]
        return _pycomplex(_round_float(v.real, half_fmt), _round_float(v.imag, half_fmt))
    v = _pyfloat(value)
    return v if dt._sfmt == 'd' else _round_float(v, dt._sfmt)


# Hook replaced by the package (e.g. to return 0-d arrays / scalar objects).
_make_scalar = _default_make_scalar


# --------------------------------------------------------------------------
# Conversion of anything dtype-like.

def _from_string(s):
    d = _STRINGS.get(s)
    if d is not None:
        return d
    m = _UNICODE_RE.match(s)
    if m is not None:  # numpy's fixed-width unicode strings: 'U5', '<U5', 'str'
        if m.group(1) == '>' and _NATIVE == '<':
            raise TypeError(f"data type {s!r}: non-native byte order is not supported")
        return unicode_dtype(_pyint(m.group(2) or m.group(3) or 0))
    if len(s) > 1 and s[0] in '<>=|':
        d = _PREFIXABLE.get(s[1:])
        if d is not None:
            if s[0] in '<>' and s[0] != _NATIVE and d.itemsize > 1:
                raise TypeError(f"data type {s!r}: non-native byte order is not supported")
            return d
    raise TypeError(f"data type {s!r} not understood")


def _convert(obj):
    if isinstance(obj, dtype):
        return obj
    if isinstance(obj, _pystr):
        return _from_string(obj)
    if isinstance(obj, type):
        if obj is _pystr:
            return unicode_dtype(0)
        if obj.__name__ == 'bfloat16' and getattr(obj, '__module__', '').partition('.')[0] == 'ml_dtypes':
            return _BY_CODE[12]
        if issubclass(obj, generic):
            if obj._dtype is None:
                raise TypeError(f"Converting 'mnn.numpy.{obj.__name__}' to a dtype is not allowed")
            return obj._dtype
        t = _PYTYPES.get(obj)
        if t is not None:
            return t._dtype
        if getattr(obj, '__module__', None) == 'numpy':      # numpy scalar type
            t = _SCALAR_BY_NAME.get(obj.__name__)
            if t is not None:
                return _convert(t)
            raise TypeError(f"data type {obj!r} is not supported by mnn")
        raise TypeError(f"Cannot interpret '{obj!r}' as a data type")
    if obj is None:
        return _BY_CODE[11]  # numpy: dtype(None) is the default float
    tp = type(obj)
    if tp.__module__.partition('.')[0] == 'numpy' and isinstance(getattr(obj, 'str', None), _pystr) \
            and hasattr(obj, 'kind'):                      # a numpy dtype
        if obj.name == 'bfloat16' and obj.itemsize == 2:  # ml_dtypes' bfloat16 dtype
            return _BY_CODE[12]
        try:
            return _from_string(obj.str)
        except TypeError:
            raise TypeError(f"data type {obj!r} is not supported by mnn") from None
    if isinstance(obj, bytes):
        return _from_string(obj.decode('ascii', 'replace'))
    sub = getattr(obj, 'dtype', None)  # arrays, numpy scalars, ...
    if sub is not None and sub is not obj:
        return _convert(sub)
    raise TypeError(f"Cannot interpret '{obj!r}' as a data type")


# --------------------------------------------------------------------------
# Casting and promotion, derived from one rule.

def _int_fits_float(int_size, float_size):
    # A float holds every int whose width its mantissa covers: 11 bits
    # (float16) > 8, 24 > 16, 53 > 32.  NumPy also calls 64-bit ints ->
    # float64 'safe' (float64 is the widest float), hence the == 8 case.
    return float_size > int_size or float_size == 8


def _safe_rule(a, b):
    """True if every value of dtype `a` is representable in dtype `b`."""
    ka, kb, na, nb = a.kind, b.kind, a.itemsize, b.itemsize
    if ka == 'b':
        return True
    if (a._code == 12) != (b._code == 12):
        # bfloat16 (8 exponent bits, 8 mantissa bits) holds int8/uint8 but not float16; only
        # float32 and wider hold it.
        if b._code == 12:
            return ka in 'iu' and na == 1
        return (kb == 'f' and nb >= 4) or kb == 'c'
    if kb == 'c':  # complex: compare against its real component
        kb, nb = 'f', nb // 2
        if ka == 'c':
            ka, na = 'f', na // 2
    if ka in 'iu' and kb == 'f':
        return _int_fits_float(na, nb)
    if ka == kb:
        return nb >= na
    return ka == 'u' and kb == 'i' and nb > na  # uintN fits intM for M > N


_SAFE = {(a, b): _safe_rule(a, b) for a in _ALL for b in _ALL}


def _promote_rule(a, b):
    # Smallest type both cast to safely; ties prefer the "lower" kind
    # (int16 over float16 for int8+uint8), as numpy does.
    cands = [c for c in _ALL if _SAFE[a, c] and _SAFE[b, c]]
    if not cands:
        raise TypeError(f"The DTypes {a!r} and {b!r} do not have a common DType.")
    return min(cands, key=lambda c: (_KIND_RANK[c.kind], c.itemsize))


_PROMOTE = {(a, b): _promote_rule(a, b) for a in _ALL for b in _ALL}
_CASTINGS = ('no', 'equiv', 'safe', 'same_kind', 'unsafe')


def promote_types(type1, type2):
    a, b = _convert(type1), _convert(type2)
    if a.kind == 'U' or b.kind == 'U':
        return unicode_dtype(max(str_width(a), str_width(b)))
    return _PROMOTE[a, b]


def can_cast(from_, to, casting='safe'):
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', 'unsafe' (got {casting!r})")
    if isinstance(from_, (_pyint, _pyfloat, _pycomplex)) and not hasattr(from_, 'dtype'):
        # Same as numpy 2: value-based casting is gone (NEP 50).
        raise TypeError(
            "can_cast() does not support Python ints, floats, and complex because "
            "the result used to depend on the value.\nThis change was part of "
            "adopting NEP 50, we may explicitly allow them again in the future.")
    a, b = _convert(from_), _convert(to)
    if casting in ('no', 'equiv'):  # all our dtypes are native byte order
        return a is b
    if a.kind == 'U' or b.kind == 'U':  # numpy: anything fits a wide enough string; strings fit no number
        if casting == 'unsafe':
            return True
        if b.kind != 'U':
            return False
        return casting == 'same_kind' or str_width(a) <= str_width(b)
    if casting == 'unsafe' or _SAFE[a, b]:
        return True
    return casting == 'same_kind' and _KIND_RANK[a.kind] <= _KIND_RANK[b.kind]


# NEP 50: Python int/float/complex scalars are "weak": abstract kinds that
# adopt the other operands' dtype.  (Python bool is plain strong bool; being
# the lowest type it never changes a result anyway.)
_WEAK = {_pyint: 'int', _pyfloat: 'float', _pycomplex: 'complex'}
_CATEGORY = {'b': 0, 'int': 0.5, 'u': 1, 'i': 1, 'float': 1.5, 'f': 2, 'complex': 2.5, 'c': 3}


def _operand(x):
    """dtype of a strong operand, or the weak-kind string of a Python scalar."""
    tx = type(x)
    if tx is _pybool:
        return _BY_CODE[0]
    k = _WEAK.get(tx)
    if k is None and isinstance(x, (_pyint, _pyfloat, _pycomplex)) and not hasattr(x, 'dtype'):
        # subclasses (IntEnum, ...) act like their base; numpy scalars such
        # as np.float64 (a float subclass) have .dtype and are strong.
        k = 'int' if isinstance(x, _pyint) else 'float' if isinstance(x, _pyfloat) else 'complex'
    return _convert(x) if k is None else k


def _knowledge(t):
    # numpy lets the most "knowledgeable" operand (highest category, then
    # widest, unsigned after signed -- numpy's type-number order) promote
    # with each other one; this is what makes result_type(i1, u1, f2) f2
    # although promote_types(promote_types(i1, u1), f2) is f4.
    if t.__class__ is _pystr:
        return (_CATEGORY[t],)
    return (_CATEGORY[t.kind], t.itemsize, t.kind == 'u')


def _common(main, t):
    """numpy's main.__common_dtype__(t) when main knows at least as much."""
    # (Never compare a dtype with == to these strings: dtype('f8') == 'float'.)
    if main is t:
        return main
    if main.__class__ is _pystr:
        if main == 'complex':  # weak complex: float16/float32 keep single precision
            if t.__class__ is _pystr:
                return main
            return _BY_CODE[13] if t.kind == 'f' and t.itemsize <= 4 else _BY_CODE[14]
        if main == 'float':   # t is bool, an integer dtype, or weak int
            return main if t.__class__ is _pystr else _BY_CODE[11]
        return _BY_CODE[4]    # main is weak int, t is bool
    if t.__class__ is _pystr:  # a dtype absorbs weak kinds below it
        return main
    return _PROMOTE[main, t]


def result_type(*arrays_and_dtypes):
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    ops = [_operand(x) for x in arrays_and_dtypes]
    if any(t.__class__ is not _pystr and t.kind == 'U' for t in ops):
        return _str_result_type(ops)
    main = max(ops, key=_knowledge)
    res = main
    for t in ops:
        p = _common(main, t)
        res = _common(res, p) if _knowledge(res) >= _knowledge(p) else _common(p, res)
    if res.__class__ is not _pystr:
        return res
    if res == 'float':        # only Python scalars: their default dtypes
        return _BY_CODE[11]
    if res == 'complex':
        return _BY_CODE[14]
    x = arrays_and_dtypes[0]
    if len(ops) == 1 and not -2**63 <= x < 2**63:
        # A lone Python int is value-based in numpy 2 (it is converted to an
        # array): uint64 if it fits, else numpy uses object dtype.
        if 0 <= x < 2**64:
            return _BY_CODE[8]
        raise OverflowError(f"Python integer {x} out of bounds for int64 and uint64")
    return _BY_CODE[4]


def _str_result_type(ops):
    # numpy: strings promote with strings and (strong) numbers to the widest str; Python scalars
    # have no common DType with str
    if any(t.__class__ is _pystr for t in ops):
        raise TypeError("The DType <class 'numpy.dtypes.StrDType'> could not be promoted by a Python scalar. This "
                        "means that no common DType exists for the given inputs.")
    return unicode_dtype(max(str_width(t) for t in ops))


# --------------------------------------------------------------------------
# Type hierarchy queries.

def _scalar_type(x):
    if isinstance(x, type):
        if issubclass(x, generic):
            return x
        if getattr(x, '__module__', None) == 'numpy' and x.__name__ in _SCALAR_BY_NAME:
            return _SCALAR_BY_NAME[x.__name__]   # includes numpy's abstract types
    return _convert(x).type


def issubdtype(arg1, arg2):
    return issubclass(_scalar_type(arg1), _scalar_type(arg2))


_ISDTYPE_KINDS = {
    'bool': bool_, 'signed integer': signedinteger,
    'unsigned integer': unsignedinteger, 'integral': integer,
    'real floating': floating, 'complex floating': complexfloating,
    'numeric': number,
}


def _isdtype_type(x):
    # Array API: only real dtypes / scalar types, never strings or Python types.
    if isinstance(x, dtype) or (isinstance(x, type) and (
            issubclass(x, generic) or getattr(x, '__module__', None) == 'numpy')):
        return _scalar_type(x)
    if type(x).__module__.partition('.')[0] == 'numpy' and hasattr(x, 'kind'):
        return _convert(x).type
    return None


def isdtype(dtype, kind):
    t = _isdtype_type(dtype)
    if t is None:
        raise TypeError(f"dtype argument must be a NumPy dtype, but it is a {type(dtype)}.")
    bases, exact = [], []   # string kinds test subclassing, dtype kinds equality
    for k in (kind if isinstance(kind, tuple) else (kind,)):
        if isinstance(k, _pystr):
            if k not in _ISDTYPE_KINDS:
                raise ValueError(f"kind argument is a string, but {k!r} is not a known kind name.")
            bases.append(_ISDTYPE_KINDS[k])
        else:
            kt = _isdtype_type(k)
            if kt is None:
                raise TypeError("kind argument must be comprised of NumPy dtypes or "
                                f"strings only, but is a {type(k)}.")
            exact.append(kt)
    return t in exact or any(issubclass(t, b) for b in bases)


# --------------------------------------------------------------------------
# finfo / iinfo.

def _info_dtype(x):
    # numpy also accepts instances (finfo(1.0), iinfo(1)) via their type.
    try:
        return _convert(x)
    except TypeError:
        return _convert(type(x))


# (mantissa bits, exponent bits) per float itemsize; bfloat16 by its name.
_FLOAT_LAYOUT = {2: (10, 5), 4: (23, 8), 8: (52, 11), 'bfloat16': (7, 8)}


class finfo:
    """Machine limits for float types; values are Python floats rounded to the
    dtype (so they compare exactly equal to numpy's scalars)."""
    _cache = {}

    def __new__(cls, dtype):
        d = _info_dtype(dtype)
        if d.kind == 'c':  # numpy: the limits of the component type
            d = _BY_CODE[d._code - 3]
        if d.kind != 'f':
            raise ValueError(f"data type {d.type!r} not inexact")
        self = cls._cache.get(d)
        if self is None:
            self = cls._cache[d] = object.__new__(cls)
            self._init(d)
        return self

    def _init(self, d):
        nmant, nexp = _FLOAT_LAYOUT['bfloat16' if d._code == 12 else d.itemsize]
        self.dtype, self.bits = d, d.itemsize * 8
        self.nmant, self.nexp, self.iexp = nmant, nexp, nexp
        self.machep, self.negep = -nmant, -nmant - 1
        self.maxexp = 2 ** (nexp - 1)
        self.minexp = 2 - self.maxexp
        self.eps = 2.0 ** -nmant
        self.epsneg = 2.0 ** (-nmant - 1)
        self.max = (2.0 - self.eps) * 2.0 ** (self.maxexp - 1)
        self.min = -self.max
        self.tiny = self.smallest_normal = 2.0 ** self.minexp
        self.smallest_subnormal = 2.0 ** (self.minexp - nmant)
        self.precision = _pyint(-math.log10(self.eps))
        self.resolution = _default_make_scalar(10.0 ** -self.precision, d)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution!r}, min={self.min!r}, "
                f"max={self.max!r}, dtype={self.dtype})")


class iinfo:
    """Machine limits for integer types (Python ints, like numpy)."""

    def __init__(self, int_type):
        d = _info_dtype(int_type)
        if d.kind not in 'iu':
            raise ValueError(f"Invalid integer data type {d.kind!r}.")
        self.dtype, self.kind, self.bits = d, d.kind, d.itemsize * 8
        self.min = -(1 << (self.bits - 1)) if d.kind == 'i' else 0
        self.max = (1 << (self.bits - (d.kind == 'i'))) - 1

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


default_float = _BY_CODE[11]
default_int = _BY_CODE[4]

__all__ = [
    'dtype', 'dtype_from_code', 'issubdtype', 'isdtype', 'promote_types',
    'result_type', 'can_cast', 'finfo', 'iinfo', 'default_float', 'default_int',
    'generic', 'number', 'integer', 'flexible', 'character', 'str_', 'signedinteger', 'unsignedinteger',
    'inexact', 'floating', 'complexfloating', 'bool_', 'bool',
] + [d.name for d in _ALL if d.kind != 'b'] + [
    'half', 'single', 'double', 'csingle', 'cdouble', 'complex_', 'cfloat', 'byte', 'short', 'intc', 'long', 'longlong',
    'int_', 'intp', 'ubyte', 'ushort', 'uintc', 'ulong', 'ulonglong', 'uint', 'uintp']

del _code, _name, _kind, _size, _char, _sfmt, _names, _chars, _d, _k, _v, _s, _cls
