"""mnn.numpy: a drop-in for numpy on the mnn engine.

Every function returns lazy ndarrays: work is recorded, fused and planned by the engine, and
computed when a value is read. Results, dtypes and errors follow numpy 2.
"""
import math as _math

from .. import _core
from . import _dtypes, _ndarray, _printing
from ._dtypes import *  # noqa: F401,F403  (dtype, scalar types, finfo, iinfo, result_type, can_cast, ...)
from ._dtypes import bool_ as bool  # noqa: A001
from ._common import ndarray
from . import _common
from ._creation import (arange, array, asarray, ascontiguousarray, copy, empty, empty_like, eye, from_dlpack,
                        frombuffer, full, full_like, identity, linspace, ones, ones_like, zeros, zeros_like)
from ._linalg import dot, inner, matmul, outer, vdot, vecdot
from ._manipulation import (array_split, atleast_1d, atleast_2d, broadcast_arrays, broadcast_shapes, broadcast_to,
                            concat, concatenate, diagonal, expand_dims, flip, fliplr, flipud, hstack,
                            matrix_transpose, moveaxis, permute_dims, ravel, reshape, split, squeeze, stack,
                            swapaxes, transpose, vstack)
from ._shaping import (append, atleast_3d, block, column_stack, delete, diag, diagflat, diff, dsplit, dstack,
                       ediff1d, hsplit, insert, meshgrid, pad, repeat, resize, roll, rot90, row_stack, tile, trace,
                       tri, tril, trim_zeros, triu, unstack, vsplit)
from ._math_funcs import (allclose, array_equiv, convolve, correlate, cross, cumulative_prod, cumulative_sum, einsum,
                    einsum_path, float_power, fmod, frexp, gcd, gradient, i0, interp, isclose, kron, lcm, ldexp,
                    matvec, modf, nan_to_num, nextafter, sinc, spacing, tensordot, vecmat)
from ._math_funcs import divmod_ as divmod  # noqa: A001
from ._printing import get_printoptions, printoptions, set_printoptions
from ._reductions import (all, amax, amin, any, argmax, argmin, cumprod, cumsum, max, mean, min, prod, std, sum,
                          var)
from ._ufuncs import UFUNCS as _UFUNCS
from ._ufuncs import around, clip, conj, conjugate, imag, real, round, round_, where
from . import _indexing  # noqa: E402  (installs advanced indexing on ndarray)
from ._indexing import (argwhere, choose, compress, diag_indices, diag_indices_from, extract, flatnonzero, indices,
                        ix_, nonzero, place, put, put_along_axis, putmask, ravel_multi_index, select, take,
                        take_along_axis, tril_indices, tril_indices_from, triu_indices, triu_indices_from,
                        unravel_index, where)
from . import random  # noqa: E402  (the numpy.random namespace)
from ._io import (NpzFile, fromfile, genfromtxt, load, loadtxt, save, savetxt, savez,  # noqa: E402
                  savez_compressed)
from ._complex import (ComplexWarning, angle, conj, conjugate, imag, iscomplex, iscomplexobj, isreal, isrealobj, real,  # noqa: F811
                       real_if_close)
from . import fft  # noqa: E402  (mnn.numpy.fft)
from . import linalg  # noqa: E402  (mnn.numpy.linalg)
from ._sorting import argpartition, argsort, count_nonzero, lexsort, partition, searchsorted, sort
from ._sorting import sort_complex  # noqa: E402
from ._sets import (intersect1d, isin, setdiff1d, setxor1d, union1d, unique, unique_all, unique_counts, unique_inverse,
                    unique_values)
from ._statistics import (average, bincount, corrcoef, cov, digitize, histogram, histogram2d, histogram_bin_edges,
                          histogramdd, median, nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmedian,
                          nanmin, nanpercentile, nanprod, nanquantile, nanstd, nansum, nanvar, percentile, ptp,
                          quantile)

globals().update(_UFUNCS)

AxisError = _core.AxisError
newaxis = None
pi = _math.pi
e = _math.e
inf = float("inf")
nan = float("nan")
euler_gamma = 0.5772156649015329
__array_api_version__ = "2024.12"


def size(a, axis=None):
    a = asarray(a)
    return a.size if axis is None else a.shape[axis]


def shape(a):
    return asarray(a).shape


def ndim(a):
    return asarray(a).ndim


def isscalar(element):
    return isinstance(element, (int, float, complex, bool, str, bytes, generic))


def array_equal(a1, a2, equal_nan=False):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return False
    eq = a1 == a2
    if equal_nan and a1.dtype.kind == "f":
        eq = eq | (isnan(a1) & isnan(a2))  # noqa: F405
    return builtins_bool(all(eq))


builtins_bool = __builtins__["bool"] if isinstance(__builtins__, dict) else __builtins__.bool


def _scalar_hook(value, dt):
    """np.float32(v): a scalar of a Python number; like numpy, a sequence or an array gives an array of
    that dtype (`np.float32([[0, 0], [w, 0], [w, h]])` is how cv2 code writes its point sets)."""
    if isinstance(value, (int, float, complex, bool)):
        return _core.scalar(value, dt._code)
    if isinstance(value, str) and dt.kind in "iufcb":  # np.float32("1.5"), np.int64("7")
        return _core.scalar((float if dt.kind in "fb" else complex if dt.kind == "c" else int)(value), dt._code)
    return array(value, dtype=dt)  # noqa: F405


_dtypes._make_scalar = _scalar_hook
_ndarray.install()
_core._set_hooks([_dtypes._BY_CODE.get(i) for i in range(15)], asarray, _dtypes.dtype)
from . import _protocols  # noqa: E402,F401  (pickle, __array_ufunc__/__array_function__: after install())
from ._protocols import may_share_memory, shares_memory  # noqa: E402
from ._errstate import errstate, geterr, geterrcall, seterr, seterrcall  # noqa: E402
from . import _errstate as _errstate_mod  # noqa: E402
_core._set_fp_error_callback(_errstate_mod._report_all)  # engine FP flags -> numpy's errstate
from ._array_api import __array_namespace_info__, astype  # noqa: E402  (Array API 2024.12)
from ._ufuncs import ufunc  # noqa: E402  (isinstance(np.add, np.ufunc))
from ._index_tricks import (c_, fill_diagonal, flatiter, index_exp, mask_indices, mgrid, ndenumerate,  # noqa: E402
                            ndindex, ogrid, r_, s_)
from . import _ndarray_extras  # noqa: E402,F401  (a.flat, a.repeat, a.trace, x in a, divmod)
_ndarray_extras.install()
from ._functional import (apply_along_axis, apply_over_axes, fromfunction, frompyfunc, piecewise,  # noqa: E402
                          vectorize)
from ._polynomial import (poly, poly1d, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub,  # noqa: E402
                          polyval, vander)
from ._numeric_extras import (asanyarray, asfortranarray, bitwise_count, copyto, fix, fromiter,  # noqa: E402
                              geomspace, isfortran, isneginf, isposinf, logspace, require, rollaxis, trapezoid,
                              unwrap)
from ._windows import bartlett, blackman, hamming, hanning, kaiser  # noqa: E402
from ._type_helpers import (False_, ScalarType, True_, common_type, iterable, little_endian,  # noqa: E402
                            min_scalar_type, mintypecode, typecodes, typename)
from . import exceptions, lib  # noqa: E402  (mnn.numpy.exceptions, mnn.numpy.lib.stride_tricks)
from . import emath  # noqa: E402  (mnn.numpy.emath)
from ._numeric_extras import asarray_chkfinite, broadcast  # noqa: E402
from ._bits import base_repr, binary_repr, packbits, unpackbits  # noqa: E402
from . import testing  # noqa: E402  (mnn.numpy.testing: assert_allclose, ...)
_dtypes._NDARRAY_TYPE = ndarray  # isinstance(0-d array, mnn.numpy.integer/floating/...)
from ._nditer import nditer  # noqa: E402
from . import polynomial  # noqa: E402  (mnn.numpy.polynomial: power series, Polynomial)
from ._printing_api import (array2string, array_repr, array_str, format_float_positional,  # noqa: E402
                            format_float_scientific)
from ._numeric_extras import fromstring, getbufsize, setbufsize  # noqa: E402
from ._polynomial import roots  # noqa: E402  (needs linalg.eigvals: NotImplementedError until it exists)
from . import ma  # noqa: E402  (mnn.numpy.ma: masked arrays, core subset)
from . import _strings, _strfuncs  # noqa: E402  (numpy's '<U' string arrays: last, wraps the functions above)
from . import _char as strings  # noqa: E402  (mnn.numpy.strings)
char = strings.char_module(strings)  # mnn.numpy.char (numpy's older namespace, same functions)
_strings.install(ndarray)
_common._STR_ARRAY[0] = _strings.StrArray
_strfuncs.install(globals())
