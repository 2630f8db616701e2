"""mnn/numpy/_dtypes.py checked against numpy for every dtype / pair of dtypes."""
import copy
import importlib.util
import itertools
import pathlib
import pickle
import random
import sys
import warnings

import numpy as np
import pytest

spec = importlib.util.spec_from_file_location(
    "_dtypes", pathlib.Path(__file__).parents[2] / "src/mnn/numpy/_dtypes.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
sys.modules.setdefault("_dtypes", mod)  # so pickle can find the classes

NAMES = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32',
         'uint64', 'float16', 'float32', 'float64', 'complex64', 'complex128']
PAIRS = list(itertools.product(NAMES, NAMES))
CASTINGS = ['no', 'equiv', 'safe', 'same_kind', 'unsafe']
ABSTRACT = ['generic', 'number', 'integer', 'signedinteger', 'unsignedinteger',
            'inexact', 'floating', 'complexfloating']
ALIASES = ['bool_', 'bool', 'half', 'single', 'double', 'byte', 'ubyte', 'short',
           'ushort', 'intc', 'uintc', 'int_', 'intp', 'uintp', 'uint', 'long',
           'ulong', 'longlong', 'ulonglong']
# Python scalars, weak under NEP 50, including ints out of range of small types.
PY_SCALARS = [True, False, 1, -1, 0, 300, -129, 70000, 2**31, 2**63 - 1, 2**63,
              2**64, -2**63 - 1, 1.5, -0.0, 1e300, float('inf')]


def np_or_exc(fn, *args):
    """numpy's answer, or the exception type it raised."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            return fn(*args)
    except Exception as e:  # noqa: BLE001
        return type(e)


def same(mine, theirs):
    """An mnn dtype equals a numpy dtype: same name and numpy agrees too."""
    return isinstance(mine, mod.dtype) and mine.name == theirs.name and \
        mine == theirs and theirs == mine


# ---------------------------------------------------------------- constructor

def _spellings():
    s = set(np.sctypeDict) | set(np.typecodes['All'])
    s |= {k + str(n) for k in 'biufcSUVOMma?' for n in range(0, 17)}
    s |= {p + x for x in list(s) for p in '<>=|'}
    s |= {'', '<', 'int8 ', ' int8', 'Float32', 'float_', 'int0', 'f4,', 'M8[ns]',
          'xyz', 'i', 'INT8', 'Int64', 'uint0', 'double ', 'b1 '}
    return sorted(s)


@pytest.mark.parametrize('spelling', _spellings())
def test_string_spellings(spelling):
    ref = np_or_exc(np.dtype, spelling)
    if isinstance(ref, np.dtype) and ref.name == 'bfloat16' and spelling in ('bfloat16', 'E'):
        # numpy knows it only once ml_dtypes is imported; mnn's extension type answers to the same names
        assert mod.dtype(spelling) is mod.dtype('bfloat16') and mod.dtype(spelling) == ref
    elif isinstance(ref, np.dtype) and ref.isnative and ref.kind == 'U':
        # numpy's fixed-width unicode strings ('U5', '<U', 'str')
        d = mod.dtype(spelling)
        assert d == ref and ref == d and (d.str, d.name, d.itemsize, d.kind) == (ref.str, ref.name, ref.itemsize, 'U')
    elif isinstance(ref, np.dtype) and ref.isnative and ref.name in NAMES:
        assert same(mod.dtype(spelling), ref)
        assert same(mod.dtype(spelling.encode()), ref)
        assert mod.dtype(spelling) == spelling and ref == spelling
    else:
        # numpy rejects it, or gives a type/byte order mnn does not have.
        with pytest.raises(TypeError):
            mod.dtype(spelling)
        assert not (mod.dtype('f8') == spelling) or ref == np.float64


def test_unknown_message_matches_numpy():
    with pytest.raises(TypeError) as theirs:
        np.dtype('xyz')
    with pytest.raises(TypeError) as mine:
        mod.dtype('xyz')
    assert str(mine.value) == str(theirs.value) == "data type 'xyz' not understood"


def _numpy_scalar_types():
    types = set(np.sctypeDict.values())
    types |= {getattr(np, n) for n in ALIASES + NAMES if n != 'bool_'} | {np.bool_}
    return sorted(types, key=lambda t: t.__name__)


@pytest.mark.parametrize('t', _numpy_scalar_types(), ids=lambda t: t.__name__)
def test_numpy_scalar_types_and_dtypes(t):
    ref = np.dtype(t)
    if ref.name == 'bfloat16':  # ml_dtypes' type, in numpy's tables once ml_dtypes is imported
        assert mod.dtype(t) is mod.dtype(ref) is mod.dtype('bfloat16')
        assert mod.dtype(np.zeros(2, t)) is mod.dtype('bfloat16')
    elif ref.name in NAMES:
        assert same(mod.dtype(t), ref)
        assert same(mod.dtype(ref), ref)                    # numpy dtype object
        assert same(mod.dtype(np.zeros(2, t)), ref)         # object with .dtype
        assert same(mod.dtype(np.zeros((), t)[()]), ref)    # numpy scalar
        assert mod.dtype(t) == t and ref == t
    elif ref.kind == 'U':  # numpy.str_: '<U0'
        assert mod.dtype(t) == ref and mod.dtype(ref) == ref and mod.dtype(np.zeros(2, 'U3')) == np.dtype('U3')
    else:
        with pytest.raises(TypeError):
            mod.dtype(t)
        with pytest.raises(TypeError):
            mod.dtype(ref)


@pytest.mark.parametrize('obj', [float, int, bool, None])
def test_python_types_and_none(obj):
    assert same(mod.dtype(obj), np.dtype(obj))


@pytest.mark.parametrize('name', ABSTRACT[:-1])
def test_abstract_types_rejected_like_numpy(name):
    assert np_or_exc(np.dtype, getattr(np, name)) is TypeError
    with pytest.raises(TypeError):
        mod.dtype(getattr(mod, name))
    with pytest.raises(TypeError):
        mod.dtype(getattr(np, name))


@pytest.mark.parametrize('obj', [1, 1.5, object(), [1], str, object])
def test_not_dtypes(obj):
    ref = np_or_exc(np.dtype, obj)
    if ref is TypeError:
        with pytest.raises(TypeError):
            mod.dtype(obj)
    elif ref.kind == 'U':  # str: numpy's '<U0'
        assert mod.dtype(obj) == ref and mod.dtype(obj).str == ref.str
    else:  # numpy maps arbitrary types to object/bytes dtypes; mnn has none
        assert ref.kind in 'OS'
        with pytest.raises(TypeError):
            mod.dtype(obj)


# ---------------------------------------------------------------- attributes

@pytest.mark.parametrize('name', NAMES)
def test_attributes(name):
    d, ref = mod.dtype(name), np.dtype(name)
    for attr in ['name', 'kind', 'char', 'itemsize', 'alignment', 'str', 'byteorder',
                 'descr', 'isbuiltin', 'isnative', 'shape', 'ndim', 'names', 'fields',
                 'hasobject', 'flags', 'subdtype', 'metadata', 'isalignedstruct']:
        assert getattr(d, attr) == getattr(ref, attr), attr
    assert repr(d) == repr(ref) and str(d) == str(ref)
    assert d.base is d and ref.base == ref
    assert d.type.__name__ == ref.type.__name__
    assert d.type is getattr(mod, name if name != 'bool' else 'bool_')
    assert d.type._dtype is d
    assert mod.dtype(d.type) is d and np.dtype(ref.type) == ref


@pytest.mark.parametrize('name', NAMES)
def test_interned_hash_copy_pickle_codes(name):
    d = mod.dtype(name)
    ref = np.dtype(name)
    assert mod.dtype(ref.str) is d and mod.dtype(ref.type) is d and mod.dtype(d) is d
    assert hash(mod.dtype(ref.char)) == hash(d)
    assert copy.deepcopy(d) is d and pickle.loads(pickle.dumps(d)) is d
    assert mod.dtype_from_code(d._code) is d
    # engine numbering follows NAMES order; code 12 is reserved (bfloat16)
    assert d._code == NAMES.index(name) + (d.kind == 'c')
    assert d == ref
    with pytest.raises(AttributeError):
        d.name = 'x'


def test_bad_code():
    with pytest.raises(ValueError):
        mod.dtype_from_code(15)
    assert np.dtype(mod.dtype_from_code(11)) == np.float64


@pytest.mark.parametrize('a,b', PAIRS)
def test_equality_all_spellings(a, b):
    d, ref = mod.dtype(a), np.dtype(a)
    nb = np.dtype(b)
    for other in [nb, nb.type, nb.name, nb.char, nb.str, mod.dtype(b), mod.dtype(b).type]:
        expected = ref == other
        assert (d == other) is expected
        assert (d != other) is (not expected)
        assert (other == d) is expected  # reflected, incl. numpy's __eq__
    assert (d <= mod.dtype(b)) == (ref <= nb) and (d < mod.dtype(b)) == (ref < nb)
    assert (d >= mod.dtype(b)) == (ref >= nb) and (d > mod.dtype(b)) == (ref > nb)


@pytest.mark.parametrize('name', NAMES)
def test_numpy_accepts_mnn_dtypes(name):
    ref = np.dtype(name)
    assert np.dtype(mod.dtype(name)) == ref
    assert np.dtype(mod.dtype(name).type) == ref
    assert np.zeros(2, dtype=mod.dtype(name)).dtype == ref
    assert np.zeros(2, dtype=mod.dtype(name).type).dtype == ref
    assert np.issubdtype(mod.dtype(name), ref.type)


def test_eq_other_objects():
    d = mod.dtype('float64')
    for other in ['xyz', 3, object(), None]:
        assert (d == other) == (np.dtype('float64') == other)


# ---------------------------------------------------------------- scalar classes

def test_scalar_hierarchy_and_aliases():
    names = NAMES[1:] + ['bool_'] + ABSTRACT
    for a, b in itertools.product(names, names):
        assert issubclass(getattr(mod, a), getattr(mod, b)) == \
            issubclass(getattr(np, a), getattr(np, b)), (a, b)
    for alias in ALIASES:
        npt = getattr(np, alias)
        if alias in ('longlong', 'ulonglong'):  # distinct classes in numpy (LP64)
            npt = np.dtype(npt).type
        assert getattr(mod, alias) is getattr(mod, npt.__name__ if npt is not np.bool_ else 'bool_')
        assert mod.dtype(getattr(mod, alias)) == np.dtype(alias)
    assert mod.bool.__name__ == np.bool.__name__ == 'bool'


@pytest.mark.parametrize('name', NAMES)
def test_default_scalar_hook(name):
    t = getattr(mod, name if name != 'bool' else 'bool_')
    nt = np.dtype(name).type
    assert t() == nt() and type(t()) is type(nt().item())
    with np.errstate(over='ignore', invalid='ignore'):
        for v in [0, 1, -1, 3, 300, 70000, -2**40, 2**63 + 5, True]:
            # numpy's C cast wraps integers modulo 2**bits (go through uint64)
            ref = np.array(v % 2**64, dtype=np.uint64).astype(name).item() \
                if np.dtype(name).kind in 'iu' else np.array(v).astype(name).item()
            assert t(v) == ref and type(t(v)) is type(ref)
        if np.dtype(name).kind in 'fb':
            for v in [0.1, 1e6, -1e40, 1e300, 2.5, float('inf'), 65519.0, 65520.0, 1 + 2**-11]:
                assert t(v) == np.array(v).astype(name).item()
    if np.dtype(name).kind in 'iu':  # float -> int truncates toward zero
        for v in [3.7, 0.2] + ([-3.7, -0.9] if np.dtype(name).kind == 'i' else []):
            assert t(v) == nt(v)


def test_scalar_hook_is_replaceable():
    old = mod._make_scalar
    try:
        mod._make_scalar = lambda value, dt: (value, dt)
        value, dt = mod.float32(3)
        assert value == 3 and dt == np.float32 and dt is mod.dtype('f4')
    finally:
        mod._make_scalar = old
    for name in ABSTRACT:
        with pytest.raises(TypeError):
            getattr(np, name)()
        with pytest.raises(TypeError):
            getattr(mod, name)()


# ---------------------------------------------------------------- promotion / casting

@pytest.mark.parametrize('a,b', PAIRS)
def test_promote_types(a, b):
    ref = np.promote_types(a, b)
    assert same(mod.promote_types(a, b), ref)
    assert same(mod.promote_types(np.dtype(a), getattr(mod, b if b != 'bool' else 'bool_')), ref)


@pytest.mark.parametrize('a,b', PAIRS)
def test_can_cast(a, b):
    for casting in CASTINGS:
        assert mod.can_cast(a, b, casting) is np.can_cast(a, b, casting), casting
        assert mod.can_cast(mod.dtype(a), np.dtype(b), casting) is np.can_cast(a, b, casting)
    assert mod.can_cast(np.zeros(1, a), b) is np.can_cast(np.zeros(1, a), b)


def test_can_cast_errors():
    for scalar in [True, 1, 1.5, 300]:
        assert np_or_exc(np.can_cast, scalar, np.int8) is TypeError
        with pytest.raises(TypeError):
            mod.can_cast(scalar, 'i1')
    assert np_or_exc(np.can_cast, 'f4', 'f8', 'bogus') is ValueError
    with pytest.raises(ValueError):
        mod.can_cast('f4', 'f8', 'bogus')
    assert mod.can_cast(np.float32(1), 'f2') is np.can_cast(np.float32(1), 'f2')


@pytest.mark.parametrize('a,b', PAIRS)
def test_result_type_strong(a, b):
    ref = np.result_type(a, b)
    assert same(mod.result_type(a, b), ref)
    assert same(mod.result_type(np.zeros(1, a), np.zeros((), b)[()]), ref)
    for c in NAMES:
        assert same(mod.result_type(a, b, c), np.result_type(a, b, c))


@pytest.mark.parametrize('name', NAMES)
def test_result_type_weak_scalars(name):
    for s in PY_SCALARS:
        for args in [(name, s), (s, name), (np.zeros(3, name), s), (s, np.zeros((), name))]:
            assert same(mod.result_type(*args), np.result_type(*args)), args
        for s2 in PY_SCALARS:
            args = (s, name, s2)
            assert same(mod.result_type(*args), np.result_type(*args)), args


def test_result_type_long_sequences():
    # numpy's n-ary promotion is not a pairwise fold (result_type(i1, u1, f2)
    # is f2, not f4): compare random mixes of dtypes and Python scalars.
    rng = random.Random(1234)
    pool = NAMES + [np.dtype('q'), np.float32, True, 1, -1, 1.5, 2**63, 300]
    for _ in range(5000):
        args = [rng.choice(pool) for _ in range(rng.randint(1, 6))]
        ref = np.result_type(*args)
        if ref == object:
            with pytest.raises(OverflowError):
                mod.result_type(*args)
        else:
            assert same(mod.result_type(*args), ref), args


def test_result_type_only_python_scalars():
    for n in (1, 2, 3):
        for args in itertools.product(PY_SCALARS, repeat=n):
            ref = np.result_type(*args)
            if ref == object:  # lone int beyond uint64: numpy falls back to object
                with pytest.raises(OverflowError):
                    mod.result_type(*args)
            else:
                assert same(mod.result_type(*args), ref), args


def test_result_type_misc():
    assert same(mod.result_type(None), np.result_type(None))
    assert same(mod.result_type(int, np.int8), np.result_type(int, np.int8))
    assert same(mod.result_type(float, 1), np.result_type(float, 1))
    assert same(mod.result_type(np.float64(1), np.float16), np.result_type(np.float64(1), np.float16))
    assert np_or_exc(np.result_type) is ValueError
    with pytest.raises(ValueError):
        mod.result_type()
    assert same(mod.result_type(np.float16, 1j), np.result_type(np.float16, 1j))  # weak complex
    assert same(mod.result_type(np.int8, 1j), np.result_type(np.int8, 1j))


# ---------------------------------------------------------------- finfo / iinfo

FINFO_FIELDS = ['bits', 'eps', 'epsneg', 'max', 'min', 'tiny', 'smallest_normal',
                'smallest_subnormal', 'resolution', 'precision', 'maxexp', 'minexp',
                'nmant', 'nexp', 'iexp', 'machep', 'negep']


@pytest.mark.parametrize('name', ['float16', 'float32', 'float64'])
def test_finfo(name):
    ref = np.finfo(name)
    for arg in [name, np.dtype(name), getattr(mod, name), np.zeros((), name)[()]]:
        fi = mod.finfo(arg)
        for f in FINFO_FIELDS:
            mine, theirs = getattr(fi, f), getattr(ref, f)
            assert mine == theirs and type(mine) is type(theirs.item() if hasattr(theirs, 'item') else theirs), f
        assert fi.dtype == ref.dtype and same(fi.dtype, ref.dtype)
    assert mod.finfo(1.0).dtype == np.finfo(1.0).dtype
    assert mod.finfo(float).eps == np.finfo(float).eps


@pytest.mark.parametrize('name', NAMES)
def test_info_rejects_wrong_kind(name):
    if np.dtype(name).kind == 'c':  # numpy: the limits of the component type
        assert mod.finfo(name).eps == np.finfo(name).eps
    elif np.dtype(name).kind != 'f':
        assert np_or_exc(np.finfo, name) is ValueError
        with pytest.raises(ValueError):
            mod.finfo(name)
    if np.dtype(name).kind not in 'iu':
        assert np_or_exc(np.iinfo, name) is ValueError
        with pytest.raises(ValueError):
            mod.iinfo(name)


@pytest.mark.parametrize('name', [n for n in NAMES if n[0] in 'iu'])
def test_iinfo(name):
    ref = np.iinfo(name)
    for arg in [name, np.dtype(name), getattr(mod, name), np.zeros((), name)[()]]:
        ii = mod.iinfo(arg)
        for f in ['bits', 'min', 'max', 'kind']:
            assert getattr(ii, f) == getattr(ref, f) and type(getattr(ii, f)) is type(getattr(ref, f))
        assert same(ii.dtype, ref.dtype)
        assert repr(ii) == repr(ref)
    assert mod.iinfo(int).max == np.iinfo(int).max and mod.iinfo(1).min == np.iinfo(1).min


def test_defaults():
    assert same(mod.default_float, np.dtype(float)) and same(mod.default_int, np.dtype(int))


# ---------------------------------------------------------------- issubdtype / isdtype

def _subdtype_args():
    out = [(n, getattr(mod, n)) for n in ABSTRACT]
    for n in NAMES:
        t = 'bool_' if n == 'bool' else n
        out += [(n, getattr(mod, t)), (n, n), (np.dtype(n).char, np.dtype(n).char)]
    out += [(t, t) for t in (float, int, bool)] + [('float', 'float'), ('int', 'int')]
    return out


def test_issubdtype():
    args = _subdtype_args()
    for (ka, ma), (kb, mb) in itertools.product(args, args):
        npa = getattr(np, ka) if isinstance(ka, str) and hasattr(np, ka) and not isinstance(ma, str) else ka
        npb = getattr(np, kb) if isinstance(kb, str) and hasattr(np, kb) and not isinstance(mb, str) else kb
        ref = np.issubdtype(npa, npb)
        assert mod.issubdtype(ma, mb) == ref, (ma, mb)
        assert mod.issubdtype(npa, npb) == ref, (npa, npb)  # numpy objects in mnn
        assert mod.issubdtype(ma, npb) == ref


ISDTYPE_KINDS = ['bool', 'signed integer', 'unsigned integer', 'integral',
                 'real floating', 'complex floating', 'numeric']


@pytest.mark.parametrize('name', NAMES)
def test_isdtype(name):
    d, ref = mod.dtype(name), np.dtype(name)
    for kind in ISDTYPE_KINDS:
        assert mod.isdtype(d, kind) is np.isdtype(ref, kind), kind
        assert mod.isdtype(d.type, kind) is np.isdtype(ref.type, kind)
        assert mod.isdtype(ref, kind) is np.isdtype(ref, kind)
    for kinds in itertools.combinations(ISDTYPE_KINDS, 2):
        assert mod.isdtype(d, kinds) is np.isdtype(ref, kinds)
    for other in NAMES:
        o = np.dtype(other)
        assert mod.isdtype(d, mod.dtype(other)) is np.isdtype(ref, o)
        assert mod.isdtype(d, (o.type, 'bool')) is np.isdtype(ref, (o.type, 'bool'))
    assert mod.isdtype(d, mod.floating) is np.isdtype(ref, np.floating)


def test_isdtype_errors():
    for dt, kind in [('f4', 'real floating'), (float, 'numeric'), (np.float32, 'foo'),
                     (np.float32, 'f4'), (np.float32, 3), (np.float32, ('bool', 3))]:
        exc = np_or_exc(np.isdtype, dt, kind)
        assert exc in (TypeError, ValueError)
        with pytest.raises(exc):
            mod.isdtype(dt, kind)
