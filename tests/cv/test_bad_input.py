"""Bad input to any mnn.cv function gives a Python exception that names the function.

cv2 answers wrong types and sizes with cv2.error or TypeError naming the argument; the peer
(MNN's own cv shim) segfaults on several of these. Here every public function is called with
arguments of the wrong kind, and each call must either return or raise an exception whose
message starts with `[mnn.cv.<function>]` (a crash would end the test run).
"""
import inspect
import itertools

import numpy
import pytest

import mnn.cv as mcv

_RNG = numpy.random.default_rng(0)
_BAD = {
    "none": None,
    "empty": numpy.zeros((0, 0), numpy.uint8),
    "1d": numpy.arange(10, dtype=numpy.uint8),
    "4d": numpy.zeros((2, 3, 4, 5), numpy.uint8),
    "five_channels": _RNG.integers(0, 255, (6, 7, 5), dtype=numpy.uint8),
    "float16": _RNG.random((6, 7)).astype(numpy.float16),
    "bool": numpy.ones((5, 5), bool),
    "string": "abc",
    "negative": -5,
    "huge": 10**12,
    "nan": float("nan"),
    "nested_list": [[1, 2], [3, 4]],
}
_IMAGE = _RNG.integers(0, 255, (6, 7, 3), dtype=numpy.uint8)
# Functions that draw or read files take a path or text as a string, which is not bad input there.
_SKIP = {"imread", "imreadmulti", "imwrite", "haveImageReader", "haveImageWriter", "setNumThreads"}


def _public_functions(namespace, prefix):
    for name in sorted(dir(namespace)):
        obj = getattr(namespace, name)
        if name.startswith("_") or not inspect.isfunction(obj) or name in _SKIP:
            continue
        if prefix == "mnn.cv" or inspect.unwrap(obj).__module__ == "mnn.cv._dnn":
            yield f"{prefix}.{name}", obj


_FUNCTIONS = list(_public_functions(mcv, "mnn.cv")) + list(_public_functions(mcv.dnn, "mnn.cv.dnn"))


def _argument_lists():
    # the bad value alone, after a good image, and between a good image and a good integer
    for bad in _BAD.values():
        yield (bad,)
        yield (_IMAGE, bad)
        yield (_IMAGE, bad, 3)
    for a, b in itertools.product(["string", "nan", "none", "huge"], repeat=2):
        yield (_IMAGE, _BAD[a], _BAD[b])


@pytest.mark.parametrize("qualname,fn", _FUNCTIONS, ids=[q for q, _ in _FUNCTIONS])
def test_bad_arguments_raise_named_errors(qualname, fn):
    for args in _argument_lists():
        try:
            fn(*args)
        except Exception as e:  # noqa: BLE001  (the assertion is about every exception type)
            # blobFromImage(s) parse their arguments through the public Image2BlobParams
            names = (qualname, "mnn.cv.dnn.Image2BlobParams") if "blobFromImage" in qualname else (qualname,)
            assert str(e).startswith(tuple(f"[{q}]" for q in names)), f"{qualname}{tuple(type(a).__name__ for a in args)}: {e!r}"


def test_named_errors_keep_the_original_as_cause():
    with pytest.raises(ValueError, match=r"^\[mnn\.cv\.cvtColor\] ") as info:
        mcv.cvtColor(_IMAGE, "abc")
    assert isinstance(info.value.__cause__, ValueError)
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.getGaussianKernel\] ksize"):
        mcv.getGaussianKernel(10**12, 1.0)


def test_wrapped_functions_keep_their_names_and_docs():
    assert mcv.resize.__name__ == "resize" and mcv.resize.__doc__ == mcv.resize.__wrapped__.__doc__
    assert mcv.dnn.NMSBoxes.__name__ == "NMSBoxes"
