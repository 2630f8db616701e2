"""An array's dtype against every spelling numpy code uses to name it: strings, numpy scalar types,
numpy dtypes, mnn's own; equal things hash equal (dict and set lookups mix the libraries)."""
import numpy as np
import numpy
import pytest

import mnn.numpy as mnp

NAMES = ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
         'float16', 'float32', 'float64', 'complex64', 'complex128']


@pytest.mark.parametrize('name', NAMES)
def test_equal_to_every_spelling(name):
    d = mnp.zeros(2, dtype=name).dtype
    ref = np.dtype(name)
    for other in (name, ref.str, ref.char, ref.type, ref, getattr(mnp, name), mnp.dtype(name)):
        assert d == other and other == d, other
        assert not (d != other) and not (other != d), other
    wrong = 'float64' if name != 'float64' else 'float32'
    for other in (wrong, np.dtype(wrong), np.dtype(wrong).type, getattr(mnp, wrong)):
        assert d != other and other != d and not (d == other)
    assert d != 'not a dtype' and d is not None and d != 3


@pytest.mark.parametrize('name', NAMES)
def test_hash_consistent(name):
    d = mnp.ones(1, dtype=name).dtype
    ref = np.dtype(name)
    assert hash(d) == hash(ref) == hash(mnp.dtype(name)) == hash(mnp.dtype(ref))
    assert {ref: 1}.get(d) == 1 and {d: 1}.get(ref) == 1
    assert d in {ref} and ref in {d} and len({d, ref, mnp.dtype(ref.str)}) == 1


@pytest.mark.parametrize('name', NAMES)
def test_conversions(name):
    d = mnp.zeros(3, dtype=name).dtype
    ref = np.dtype(name)
    assert np.dtype(d) == ref and type(np.dtype(d)) is type(ref)
    assert np.dtype(d).type is ref.type
    assert mnp.dtype(ref) is d and mnp.dtype(ref.type) is d and mnp.dtype(d) is d
    assert np.zeros(2, dtype=d).dtype == ref
    assert np.asarray(mnp.zeros(2, dtype=ref)).dtype == ref
    assert mnp.zeros(2, dtype=ref.type).dtype is d


def test_in_script_idioms():
    x = mnp.linspace(0, 1, 5, dtype=np.float32)
    assert x.dtype in (np.float32, np.float64)
    assert x.dtype in {np.dtype('float32'): 'single'}
    assert np.issubdtype(x.dtype, np.floating) and not np.issubdtype(x.dtype, np.integer)
    assert mnp.issubdtype(x.dtype, np.floating)
    assert np.result_type(x.dtype, np.float64) == np.float64
    assert mnp.result_type(x.dtype, np.int8) == 'float32'
    assert np.finfo(x.dtype).eps == np.finfo(np.float32).eps
    assert x.astype(np.float64).dtype == 'float64' and x.astype('f8').dtype == np.dtype('float64')
    assert str(x.dtype) == 'float32' and repr(x.dtype) == "dtype('float32')"
    assert mnp.isdtype(x.dtype, 'real floating') and mnp.isdtype(x.dtype, np.float32)


def test_scalar_isinstance():
    # mnn's scalars are 0-d arrays; isinstance against the scalar types answers by dtype, like numpy's
    a = mnp.arange(3)
    assert isinstance(a[0], mnp.integer) and isinstance(a[0], mnp.int64) and isinstance(a[0], mnp.generic)
    assert isinstance(mnp.float64(2.5), mnp.float64) and isinstance(mnp.float32(1), mnp.floating)
    assert not isinstance(mnp.float64(2.5), mnp.integer) and not isinstance(a[0], mnp.floating)
    assert isinstance(mnp.asarray(True), mnp.bool_) and isinstance(mnp.asarray(1j), mnp.complexfloating)
    assert not isinstance(a, mnp.generic) and not isinstance(5, mnp.integer) and not isinstance(2.0, mnp.float64)
    assert mnp.isscalar(a[1]) and not mnp.isscalar(a)
    for name in ("int8", "uint16", "float16", "complex64"):
        x = mnp.ones((), dtype=name)
        ref = numpy.ones((), dtype=name)[()]
        for cls in ("generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
                    "complexfloating", name):
            assert isinstance(x, getattr(mnp, cls)) == isinstance(ref, getattr(numpy, cls)), (name, cls)
