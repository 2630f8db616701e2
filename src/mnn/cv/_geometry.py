"""Geometric transforms: resize, warps, remap, flips and rotations, borders, pyramids, and the
small matrix helpers that go with them (getRotationMatrix2D, getAffineTransform, ...).

Pixel work runs in native primitives (csrc/ops/cv/geometry.cpp, csrc/backends/cpu/simd/cv/):
cv_resize, cv_warp, cv_remap, cv_border, cv_pyr. Flips, rotations by 90 degrees and transposes
are one native pass of pixel moves (_geom_fast.py). The matrix helpers are a few floating-point operations on
Python lists; they return mnn arrays of float64 like cv2 returns numpy arrays.

Agreement with cv2 5.0 (tests/cv/test_geometry.py):
- resize: uint8 NEAREST, NEAREST_EXACT, LINEAR, AREA and LANCZOS4 exact, and NEAREST(_EXACT) and
  AREA on every depth. cv2 hands 1, 3 and 4 channels of 16-bit and float LINEAR, and of uint8,
  16-bit and float32 CUBIC (sources of at least 4x4), to IPP, whose arithmetic is its own; mnn
  reproduces it bit for bit with a dsize for uint16/int16 LINEAR and float32/uint16/int16 CUBIC
  (resize_linear_exact.cpp, resize_cubic_ipp.cpp; tests/cv/test_ipp_resize11.py). uint8 CUBIC is
  within 1, and CUBIC with fx / fy that are not the size ratios (IPP's affine warp, not
  reproduced: cv2's own cubic resize) within 1 on 16-bit and ~3e-6 relative on float32. LINEAR: IPP's
  lerp with an explicit dsize, exact for float32 and float64 (narrow sources included); with fx / fy
  that are not the size ratios IPP's affine warp (resize_linear_exact.cpp), exact for float32,
  uint16 and int16 (a source 2 pixels wide or high: an ulp on some float32 pixels) and float64
  (IPP's own coordinate arithmetic; a coordinate landing exactly on the last source row or column
  can still differ in the last bits: tests/cv/test_warp10.py, test_cvexact11.py). Every other fx / fy resize is cv2's own code and
  exact as with a dsize. HxWx1 comes back HxW as from cv2. 1 to 128 channels as cv2's Python
  binding (uint8 with 2 or more than 4 channels is exact for every interpolation, CUBIC included;
  tests/cv/test_resize_channels.py), and cv2's error
  for INTER_AREA downscaling by non-integer factors with more than 4. INTER_LINEAR_EXACT exact on
  the integer depths cv2 takes (its fixed-point resize on uint8/int8/uint16/int16/int32, INTER_AREA
  for a 2x downscale); floats are INTER_LINEAR as in cv2 (tests/cv/test_resize_linear_exact.py).
- warpAffine / warpPerspective / remap: NEAREST and LINEAR with 1, 3 or 4 channels of uint8,
  uint16 or float32 exact in every column (cv2's AVX2 column split and scalar-tail rounding,
  tests/cv/test_warp_tails.py); CUBIC exact for uint8/uint16/int16/float32 with 1 to 4 channels
  (tests/cv/test_warp_cubic.py, test_warp_cubic9.py), float64 CUBIC too (constant and transparent
  borders included); 2-channel and float64 LINEAR exact; LANCZOS4 within a few levels. Depths and
  channel counts as cv2 takes them (tests/cv/test_warp10.py): NEAREST on 8-, 16- and 32-bit integers
  and floats (int64 arrives as int32, as through cv2's binding), the other modes on uint8, uint16,
  int16 and floats; 1 to 128 channels for NEAREST and LINEAR (5 and more on cv2's 1/32-pixel remap
  path, exact), 1 to 4 for CUBIC and LANCZOS4. The border value rounds as cv2's saturate_cast
  from double (1e10 fills uint8 with 0). remap takes two float maps, one 2-channel map or
  convertMaps' fixed-point pair, all exact (tests/cv/test_remap_map_forms.py); NaN, infinite and
  huge map entries follow cv2's rule for NEAREST and LINEAR (tests/cv/test_warp_nonfinite.py).
- copyMakeBorder, pyrDown, pyrUp (default size), flip, rotate, transpose: exact;
  getRectSubPix exact: cv2's own samplers.cpp (cv2 gives it for 3 channels; its IPP path for 1
  channel differs at the edges, _rect_sub_pix.py).
- estimateAffine2D / estimateAffinePartial2D: cv2's RANSAC and LMEDS with its random sequence
  (_robust.py): the same inliers; the matrix within ~1e-9 of cv2's Levenberg-Marquardt polish.
  cv2's USAC methods are not supported.
"""
import math

from .. import _core
from .. import numpy as _np
from . import _filter_sep, _geom_fast, _rect_sub_pix, _robust, _robust_fit
from ._common import f32 as _f32
from ._common import as_image, channels, contiguous, error, fail, int_arg, memo_type

__all__ = [
    "INTER_NEAREST", "INTER_LINEAR", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4", "INTER_LINEAR_EXACT",
    "INTER_NEAREST_EXACT", "INTER_MAX", "WARP_FILL_OUTLIERS", "WARP_INVERSE_MAP", "WARP_RELATIVE_MAP",
    "WARP_POLAR_LINEAR", "WARP_POLAR_LOG", "INTER_BITS", "INTER_BITS2", "INTER_TAB_SIZE", "INTER_TAB_SIZE2",
    "BORDER_CONSTANT", "BORDER_REPLICATE", "BORDER_REFLECT", "BORDER_WRAP", "BORDER_REFLECT_101",
    "BORDER_REFLECT101", "BORDER_DEFAULT", "BORDER_TRANSPARENT", "BORDER_ISOLATED",
    "ROTATE_90_CLOCKWISE", "ROTATE_180", "ROTATE_90_COUNTERCLOCKWISE",
    "LMEDS", "RANSAC",
    "resize", "warpAffine", "warpPerspective", "remap", "convertMaps", "getRotationMatrix2D",
    "getAffineTransform", "getPerspectiveTransform", "invertAffineTransform", "estimateAffine2D",
    "estimateAffinePartial2D", "flip", "rotate", "transpose", "copyMakeBorder", "getRectSubPix",
    "pyrDown", "pyrUp",
]

INTER_NEAREST = 0
INTER_LINEAR = 1
INTER_CUBIC = 2
INTER_AREA = 3
INTER_LANCZOS4 = 4
INTER_LINEAR_EXACT = 5
INTER_NEAREST_EXACT = 6
INTER_MAX = 7
WARP_FILL_OUTLIERS = 8
WARP_INVERSE_MAP = 16
WARP_RELATIVE_MAP = 32
WARP_POLAR_LINEAR = 0
WARP_POLAR_LOG = 256
INTER_BITS = 5
INTER_BITS2 = 10
INTER_TAB_SIZE = 32
INTER_TAB_SIZE2 = 1024

BORDER_CONSTANT = 0
BORDER_REPLICATE = 1
BORDER_REFLECT = 2
BORDER_WRAP = 3
BORDER_REFLECT_101 = 4
BORDER_REFLECT101 = 4
BORDER_DEFAULT = 4
BORDER_TRANSPARENT = 5
BORDER_ISOLATED = 16

ROTATE_90_CLOCKWISE = 0
ROTATE_180 = 1
ROTATE_90_COUNTERCLOCKWISE = 2

LMEDS = 4
RANSAC = 8

_RESIZE_DTYPES = ("uint8", "int8", "uint16", "int16", "float32", "float64")


def _dtype_name(img):
    return str(img.dtype)


def _size_arg(dsize, fn, name="dsize"):
    if dsize is None:
        return 0, 0
    try:
        w, h = dsize
        return int(w), int(h)
    except (TypeError, ValueError):
        raise TypeError(f"[mnn.cv.{fn}] Can't parse '{name}'. Expected sequence length 2") from None


def _check_depth(img, fn, allowed=_RESIZE_DTYPES):
    if _dtype_name(img) not in allowed:
        raise fail(fn, f"unsupported depth {_dtype_name(img)}")


def _check_channels(img, fn, maxcn=4):
    if img.ndim not in (2, 3):
        raise fail(fn, f"expected a 2-d or 3-d image, got {img.ndim} dimensions")
    if img.ndim == 3 and not 1 <= img.shape[2] <= maxcn:
        raise fail(fn, f"unsupported number of channels {img.shape[2]}")


def _contig(img):
    return contiguous(img)


def _cv_round(x):
    """cvRound / saturate_cast<int>(double): nearest, ties to even."""
    return int(round(x))


def resize(src, dsize, dst=None, fx=0, fy=0, interpolation=INTER_LINEAR):
    # A repeated call (same image type, geometry and dtype, same dsize and interpolation) records
    # the primitive its first call validated and bound: an explicit dsize makes fx, fy irrelevant.
    # numpy images (memoised by their own shape and dtype) are imported zero-copy as the first
    # call imported them; cv_resize makes its input contiguous itself, as the slow path does.
    t = type(src)
    if (t is _core.ndarray or t in _RESIZE_NUMPY_TYPES) and type(dsize) is tuple and type(interpolation) is int:
        try:
            bound = _RESIZE_FAST.get((t, src.shape, src.dtype, dsize, interpolation))
        except TypeError:  # an unhashable dsize element: the checks below reject it
            bound = None
        if bound is not None:
            if t is _core.ndarray:
                return _core.prim_apply(bound, src)
            img = _core.from_buffer(src)
            if img is not None:
                return _core.prim_apply(bound, img)
    return _resize(src, dsize, fx, fy, interpolation)


# (image type, shape, dtype, dsize, interpolation) -> cv_resize bound to its (ints, floats)
# (_core.prim_bind), for calls that passed every check with an explicit positive dsize and took the
# plain kernel path on the image as given (mnn) or as imported through its buffer (numpy)
_RESIZE_FAST = {}
_RESIZE_NUMPY_TYPES = set()  # numpy.ndarray once one was memoised (mnn.cv never imports numpy)


def _resize(src, dsize, fx, fy, interpolation):
    key_dsize, key_interp = dsize, interpolation
    # Checks in cv2's order; each engine attribute (shape, dtype) is read once: every read is a
    # call into the engine, and a tiny resize is mostly this wrapper's overhead.
    fn = "resize"
    img = as_image(src, fn)
    shape = img.shape
    nd = len(shape)
    if nd not in (2, 3):
        raise fail(fn, f"expected a 2-d or 3-d image, got {nd} dimensions")
    # cv2 takes 1 to 128 channels (its Python binding's limit), resized one like the other
    if nd == 3 and not 1 <= shape[2] <= 128:
        raise fail(fn, f"unsupported number of channels {shape[2]}")
    depth = str(img.dtype)
    if depth not in _RESIZE_ALL_DTYPES:
        raise fail(fn, f"unsupported depth {depth}")
    reshaped = nd == 3 and shape[2] == 1
    if reshaped:
        img = img.reshape(shape[:2])  # cv2 reads HxWx1 as one channel and returns HxW
    sh, sw = shape[0], shape[1]
    if sh == 0 or sw == 0:
        raise fail(fn, "!ssize.empty()")
    w, h = _size_arg(dsize, fn)
    explicit = w > 0 and h > 0
    if explicit:
        isx, isy = w / sw, h / sh
    else:
        if w != 0 or h != 0 or not (fx > 0 and fy > 0):
            raise fail(fn, "!dsize.empty() || (inv_scale_x > 0 && inv_scale_y > 0)")
        isx, isy = float(fx), float(fy)
        w, h = _cv_round(sw * isx), _cv_round(sh * isy)
        if w <= 0 or h <= 0:
            raise fail(fn, "!dsize.empty()")
    interpolation = int(interpolation)
    if interpolation not in _INTERPOLATIONS:
        raise fail(fn, f"Unknown interpolation method {interpolation}")
    if w == sw and h == sh:
        return _np.array(img)  # cv2 copies when the size does not change
    if interpolation == INTER_LINEAR_EXACT and depth in ("int8", "int32"):
        # cv2's bit-exact linear resize (resize_linear_exact.cpp) takes these depths too, but its
        # 2x downscale on both axes is INTER_AREA, which it has for neither (but for 2 channels)
        if shape[2:3] != (2,) and _area_fast2x(isx, isy):
            raise fail(fn, f"func != 0 (cv2 has no INTER_AREA for {depth}, which INTER_LINEAR_EXACT uses for a 2x downscale)")
    elif depth == "int8" or depth in _NEAREST_ONLY_DTYPES:
        if interpolation not in (INTER_NEAREST, INTER_NEAREST_EXACT):
            raise fail(fn, f"func != 0 (cv2 resizes {depth} images with INTER_NEAREST or INTER_NEAREST_EXACT only)")
        if depth != "int8":
            return _resize_nearest_as_bits(img, h, w, interpolation, isx, isy)
    if interpolation == INTER_AREA and nd == 3 and shape[2] > 4 and _area_general(isx, isy):
        # cv2's general (non-integer) area downscale has kernels for 1 to 4 channels only
        raise fail(fn, f"func != 0 && cn <= 4 (INTER_AREA downscaling by a non-integer factor takes 1 to 4 "
                       f"channels, got {shape[2]})")
    ints, floats = [h, w, interpolation], [isx, isy]
    if type(img) is _core.ndarray:
        if explicit and not reshaped and type(key_dsize) is tuple and type(key_interp) is int:
            t = memo_type(src)
            if t is not None:
                if len(_RESIZE_FAST) >= 256:
                    _RESIZE_FAST.clear()  # bounded: a caller sweeping sizes must not grow it without end
                _RESIZE_FAST[(t, src.shape, src.dtype, key_dsize, key_interp)] = \
                    _core.prim_bind("cv_resize", ints, floats)
                if t is not _core.ndarray:
                    _RESIZE_NUMPY_TYPES.add(t)
        img = _core.as_contiguous(img)  # zero-copy when it is contiguous already
    else:
        img = contiguous(img)
    return _core.prim("cv_resize", [img], ints, floats)


_INTERPOLATIONS = frozenset((INTER_NEAREST, INTER_LINEAR, INTER_CUBIC, INTER_AREA, INTER_LANCZOS4,
                             INTER_NEAREST_EXACT, INTER_LINEAR_EXACT))


def _area_fast2x(isx, isy):
    """Whether both scale factors are 2 within DBL_EPSILON (cv2's is_area_fast with factor 2), the
    test of prepare_resize (resize.cpp) in the same doubles."""
    sx, sy = 1.0 / isx, 1.0 / isy
    eps = 2.220446049250313e-16
    return round(sx) == 2 and round(sy) == 2 and abs(sx - 2) < eps and abs(sy - 2) < eps


# Depths cv2 resizes with the nearest-neighbour modes only: a gather of whole pixels, which the
# kernel does on same-sized integers (8-byte elements as two int32 channels).
_NEAREST_ONLY_DTYPES = ("int32", "uint32", "int64", "uint64", "float16", "bool")
_RESIZE_ALL_DTYPES = frozenset(_RESIZE_DTYPES + _NEAREST_ONLY_DTYPES)


def _resize_nearest_as_bits(img, h, w, interpolation, isx, isy):
    depth = _dtype_name(img)
    size = {"bool": 1, "float16": 2}.get(depth, 4 if depth.endswith("32") else 8)
    as_type = {1: _np.uint8, 2: _np.uint16, 4: _np.int32, 8: _np.int32}[size]
    src = _contig(img)
    shape = src.shape
    if size == 8:  # (h, w[, cn]) int64 -> (h, w, 2 cn) int32
        src = src.reshape(shape[:2] + (-1,)).view(as_type)
    else:
        src = src.view(as_type)
    out = _core.prim("cv_resize", [src], [h, w, interpolation], [isx, isy])
    out = out.view(img.dtype)
    if size == 8 and len(shape) == 2:
        out = out.reshape((h, w))
    return out


def _area_general(isx, isy):
    """Whether INTER_AREA takes cv2's general downscale (both factors >= 1, not both integers): the
    kernel choice of prepare_resize (backends/cpu/simd/cv/resize.cpp), in the same doubles."""
    sx, sy = 1.0 / isx, 1.0 / isy
    eps = 2.220446049250313e-16
    fast = abs(sx - round(sx)) < eps and abs(sy - round(sy)) < eps
    return sx >= 1 and sy >= 1 and not fast


# ---------------------------------------------------------------------------------------------
# small matrices: plain Python floats, returned as float64 mnn arrays


def _matrix(m, fn, rows, cols, name="M"):
    """A rows x cols matrix argument as a list of row lists of floats."""
    if m is None:
        raise fail(fn, f"'{name}' is None")
    try:
        vals = m.tolist() if hasattr(m, "tolist") else [list(r) for r in m]
        if len(vals) != rows or any(len(r) != cols for r in vals):
            raise ValueError
        return [[float(v) for v in r] for r in vals]
    except (TypeError, ValueError):
        raise fail(fn, f"'{name}' must be a {rows}x{cols} matrix") from None


def _points(p, fn, name, n=None):
    try:
        vals = p.tolist() if hasattr(p, "tolist") else list(p)
        pts = []
        for v in vals:
            while isinstance(v, (list, tuple)) and len(v) == 1 and isinstance(v[0], (list, tuple)):
                v = v[0]
            if len(v) != 2:
                raise ValueError
            pts.append((float(v[0]), float(v[1])))
    except (TypeError, ValueError):
        raise fail(fn, f"'{name}' must be a sequence of 2-d points") from None
    if n is not None and len(pts) != n:
        raise fail(fn, f"'{name}' must hold {n} points, got {len(pts)}")
    return pts


def _as_f64(rows):
    return _np.array(rows, dtype=_np.float64)


def _solve(a, b):
    """Gaussian elimination with partial pivoting (cv2.solve's DECOMP_LU); None when singular."""
    n = len(a)
    m = [list(a[i]) + [b[i]] for i in range(n)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[piv][c]) < 1e-300:
            return None
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def _lu_solve(a, b):
    """cv2.solve(DECOMP_LU) for an n x n system, step for step (hal::LU64f): partial pivoting on the
    first largest |pivot|, elimination by the pivot's negated reciprocal, back substitution that
    subtracts term by term and then divides, so the transform helpers equal cv2's to the last bit
    (a 1-ulp difference in a warp matrix moves pixels that sit on a rounding boundary).
    None when a pivot is below 100 * DBL_EPSILON, where cv2 gives up."""
    n = len(a)
    A = [[float(v) for v in row] for row in a]
    x = [float(v) for v in b]
    for i in range(n):
        k = i
        for j in range(i + 1, n):
            if abs(A[j][i]) > abs(A[k][i]):
                k = j
        if abs(A[k][i]) < 2.220446049250313e-14:
            return None
        if k != i:
            A[i], A[k] = A[k], A[i]
            x[i], x[k] = x[k], x[i]
        d = -1.0 / A[i][i]
        row_i = A[i]
        for j in range(i + 1, n):
            row_j = A[j]
            alpha = row_j[i] * d
            for c in range(i + 1, n):
                row_j[c] += alpha * row_i[c]
            x[j] += alpha * x[i]
    for i in range(n - 1, -1, -1):
        t = x[i]
        for c in range(i + 1, n):
            t -= A[i][c] * x[c]
        x[i] = t / A[i][i]
    return x


def _invert3(m):
    cols = []
    for j in range(3):
        e = [1.0 if i == j else 0.0 for i in range(3)]
        x = _solve(m, e)
        if x is None:
            return [[0.0] * 3 for _ in range(3)]  # cv2.invert leaves a zero matrix for singular input
        cols.append(x)
    return [[cols[j][i] for j in range(3)] for i in range(3)]


def _invert_affine(m):
    (a, b, c), (d, e, f) = m
    D = a * e - b * d
    D = 1.0 / D if D != 0 else 0.0
    A11, A22 = e * D, a * D
    A12, A21 = -b * D, -d * D
    b1 = -A11 * c - A12 * f
    b2 = -A21 * c - A22 * f
    return [[A11, A12, b1], [A21, A22, b2]]


def _typed(m, fn, name, dtypes):
    """cv2 takes these small matrices / point sets as arrays of the given dtypes only (a list, or
    an integer array, fails its type check)."""
    if m is not None and str(getattr(m, "dtype", "")) not in dtypes:
        raise fail(fn, f"'{name}' must be an array of {' or '.join(dtypes)} (cv2's type check)")


def invertAffineTransform(M, iM=None):
    _typed(M, "invertAffineTransform", "M", ("float32", "float64"))
    inv = _as_f64(_invert_affine(_matrix(M, "invertAffineTransform", 2, 3)))
    # cv2 answers in the matrix's own type: float32 for a float32 M (float64 otherwise)
    return inv.astype("float32") if str(getattr(M, "dtype", "")) == "float32" else inv


def getRotationMatrix2D(center, angle, scale):
    if center is None:  # cv2's binding reads None as the point (0, 0): refused (tools/cv_audit.py)
        raise TypeError("[mnn.cv.getRotationMatrix2D] center must be a point (x, y), got None")
    cx, cy = (float(v) for v in center)
    a = math.radians(float(angle))
    alpha, beta = math.cos(a) * scale, math.sin(a) * scale
    return _as_f64([[alpha, beta, (1 - alpha) * cx - beta * cy],
                    [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def getAffineTransform(src, dst):
    fn = "getAffineTransform"
    _typed(src, fn, "src", ("float32",))
    _typed(dst, fn, "dst", ("float32",))
    s, d = _points(src, fn, "src", 3), _points(dst, fn, "dst", 3)
    a, b = [], []
    for (x, y), (u, v) in zip(s, d):
        a.append([x, y, 1, 0, 0, 0])
        b.append(u)
        a.append([0, 0, 0, x, y, 1])
        b.append(v)
    x = _lu_solve(a, b) or [0.0] * 6
    return _as_f64([x[0:3], x[3:6]])


def getPerspectiveTransform(src, dst, solveMethod=0):
    fn = "getPerspectiveTransform"
    _typed(src, fn, "src", ("float32",))
    _typed(dst, fn, "dst", ("float32",))
    s, d = _points(src, fn, "src", 4), _points(dst, fn, "dst", 4)
    a, b = [], []
    # cv2 multiplies the float32 coordinates in float (Point2f * Point2f) before widening to double
    s = [(_f32(x), _f32(y)) for x, y in s]
    d = [(_f32(u), _f32(v)) for u, v in d]
    for (x, y), (u, v) in zip(s, d):
        a.append([x, y, 1, 0, 0, 0, -_f32(x * u), -_f32(y * u)])
        b.append(u)
    for (x, y), (u, v) in zip(s, d):
        a.append([0, 0, 0, x, y, 1, -_f32(x * v), -_f32(y * v)])
        b.append(v)
    x = _lu_solve(a, b) or [0.0] * 8
    return _as_f64([x[0:3], x[3:6], [x[6], x[7], 1.0]])


def _lstsq_affine(s, d, partial):
    """Least-squares affine (6 dof) or similarity (4 dof: rotation, uniform scale, shift)."""
    if partial:
        # [a -b tx; b a ty]: u = a x - b y + tx, v = b x + a y + ty
        ata = [[0.0] * 4 for _ in range(4)]
        atb = [0.0] * 4
        for (x, y), (u, v) in zip(s, d):
            for row, rhs in (([x, -y, 1.0, 0.0], u), ([y, x, 0.0, 1.0], v)):
                for i in range(4):
                    atb[i] += row[i] * rhs
                    for j in range(4):
                        ata[i][j] += row[i] * row[j]
        r = _solve(ata, atb)
        if r is None:
            return None
        a, b, tx, ty = r
        return [[a, -b, tx], [b, a, ty]]
    ata = [[0.0] * 3 for _ in range(3)]
    bu, bv = [0.0] * 3, [0.0] * 3
    for (x, y), (u, v) in zip(s, d):
        row = [x, y, 1.0]
        for i in range(3):
            bu[i] += row[i] * u
            bv[i] += row[i] * v
            for j in range(3):
                ata[i][j] += row[i] * row[j]
    ru, rv = _solve(ata, bu), _solve(ata, bv)
    if ru is None or rv is None:
        return None
    return [ru, rv]


def _estimate(fn, partial, from_, to, method, ransacReprojThreshold, maxIters, confidence, refineIters):
    """cv2's robust fit (_robust.registration), then the least-squares polish on the inliers that
    cv2's Levenberg-Marquardt step converges to. Returns (2x3 float64 or None, N x 1 uint8 mask)."""
    # float arrays go to the native fit as they are; other forms through _points' parsing
    s, d = _robust_fit.point_array(from_), _robust_fit.point_array(to)
    if s is None or d is None:
        s, d = _points(from_, fn, "from"), _points(to, fn, "to")
        fs, fd = [v for p in s for v in p], [v for p in d for v in p]
    else:
        fs, fd, s, d = s, d, None, None
    n = fs.shape[0] if s is None else len(s)
    if n != (fd.shape[0] if d is None else len(d)):
        raise fail(fn, "'from' and 'to' must hold the same number of points")
    method = int(method)
    if method not in (RANSAC, LMEDS):
        raise fail(fn, f"Unknown or unsupported robust estimation method {method} (RANSAC and LMEDS are "
                       "supported; cv2's USAC methods are not)")
    confidence = float(confidence)
    if not 0 < confidence < 1:
        raise fail(fn, f"confidence must lie in (0, 1), got {confidence}")
    need = 2 if partial else 3
    if partial and n < need:
        raise fail(fn, f"At least 2 points for partial affine transformation estimation, got {n}")
    fit = _robust_fit.affine(fs, fd, n, partial, method == LMEDS, float(ransacReprojThreshold), confidence,
                             int(maxIters), int(refineIters) > 0)
    if fit is not None:  # the native port; else the reference implementation below
        return (None if fit[0] is None else _robust_fit.matrix(fit[0], 2)), fit[1]
    if s is None:
        s, d = _points(from_, fn, "from"), _points(to, fn, "to")
    # cv2 converts the points to float32 first
    s = [(_f32(x), _f32(y)) for x, y in s]
    d = [(_f32(x), _f32(y)) for x, y in d]
    n = len(s)
    zeros = _np.zeros((n, 1), dtype=_np.uint8)
    if n < need:
        return None, zeros
    m, mask = _robust.registration(s, d, partial, method == LMEDS, float(ransacReprojThreshold), confidence,
                                   int(maxIters))
    if m is None:
        return None, zeros
    if n > need and int(refineIters) > 0:
        fitted = _lstsq_affine([p for p, k in zip(s, mask) if k], [p for p, k in zip(d, mask) if k], partial)
        if fitted is not None:
            m = fitted
    return _as_f64(m), _np.array([[1 if k else 0] for k in mask], dtype=_np.uint8)


def estimateAffine2D(from_, to, inliers=None, method=RANSAC, ransacReprojThreshold=3.0, maxIters=2000,
                     confidence=0.99, refineIters=10):
    return _estimate("estimateAffine2D", False, from_, to, method, ransacReprojThreshold, maxIters, confidence,
                     refineIters)


def estimateAffinePartial2D(from_, to, inliers=None, method=RANSAC, ransacReprojThreshold=3.0, maxIters=2000,
                            confidence=0.99, refineIters=10):
    return _estimate("estimateAffinePartial2D", True, from_, to, method, ransacReprojThreshold, maxIters,
                     confidence, refineIters)


# ---------------------------------------------------------------------------------------------
# warps and remap

_WARP_DTYPES = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64")


def _border_value(v, fn):
    if v is None:
        return [0.0] * 4
    if isinstance(v, (int, float)):
        return [float(v)] * 1 + [0.0] * 3
    vals = [float(x) for x in (v.tolist() if hasattr(v, "tolist") else v)]
    if len(vals) > 4:
        raise fail(fn, "borderValue has more than 4 entries")
    return vals + [0.0] * (4 - len(vals))


def _check_border(mode, fn, allow_transparent=True):
    mode = int(mode) & ~BORDER_ISOLATED
    if mode not in (BORDER_CONSTANT, BORDER_REPLICATE, BORDER_REFLECT, BORDER_WRAP, BORDER_REFLECT_101) and \
            not (allow_transparent and mode == BORDER_TRANSPARENT):
        raise fail(fn, f"Unknown/unsupported border type {mode}")
    return mode


def _warp_interp(flags, fn, img=None):
    interp = int(flags) & INTER_MAX
    if interp == INTER_AREA:
        interp = INTER_LINEAR  # cv2 warps treat INTER_AREA as linear
    if interp not in (INTER_NEAREST, INTER_LINEAR, INTER_CUBIC, INTER_LANCZOS4):
        raise fail(fn, f"Unknown interpolation method {interp}")
    if img is not None:
        _check_warp_depth(img, interp, fn)
    return interp


def _check_warp_channels(img, interp, fn):
    """cv2 warps 1 to 128 channels (its Python binding's limit) with INTER_NEAREST and INTER_LINEAR,
    1 to 4 with INTER_CUBIC and INTER_LANCZOS4; it checks this before the depth."""
    if img.ndim not in (2, 3):
        raise fail(fn, f"expected a 2-d or 3-d image, got {img.ndim} dimensions")
    cn = channels(img)
    if not 1 <= cn <= 128:
        raise fail(fn, f"unsupported number of channels {cn} (cv2 takes 1 to 128)")
    if cn > 4 and interp in (INTER_CUBIC, INTER_LANCZOS4):
        raise fail(fn, f"_src.channels() <= 4 || (interpolation != INTER_LANCZOS4 && interpolation != INTER_CUBIC) "
                       f"(got {cn} channels)")


def _check_warp_depth(img, interp, fn):
    """cv2's remap tables: NEAREST for 8/16/32-bit integers and floats (int64 arrives as int32, as
    cv2's binding narrows it), the interpolating modes for uint8, uint16, int16 and floats only."""
    depth = str(img.dtype)
    if depth not in _WARP_DTYPES:
        raise fail(fn, f"unsupported depth {depth} (cv2: nnfunc != 0; it warps 8-, 16- and 32-bit integer "
                       f"and float32/float64 images)")
    if interp != INTER_NEAREST and depth in ("int8", "int32"):
        raise fail(fn, f"cv2 interpolates {depth} images with INTER_NEAREST only (ifunc != 0)")


def _dst_init(dst, shape, dtype, mode):
    if mode != BORDER_TRANSPARENT or dst is None:
        return []
    d = as_image(dst, "warp", "dst")
    if tuple(d.shape) != tuple(shape) or str(d.dtype) != str(dtype):
        return []
    return [_contig(d)]


def _warp(fn, src, M, dsize, dst, flags, borderMode, borderValue, perspective):
    img = as_image(src, fn)
    _check_warp_channels(img, int(flags) & INTER_MAX, fn)
    _check_warp_depth(img, INTER_NEAREST, fn)
    if img.shape[0] == 0 or img.shape[1] == 0:
        raise fail(fn, "src.cols > 0 && src.rows > 0 (an empty source image)")
    n = 3 if perspective else 2
    if hasattr(M, "dtype"):
        _typed(M, fn, "M", ("float32", "float64"))
    m = _matrix(M, fn, n, 3)
    interp = _warp_interp(flags, fn, img)
    mode = _check_border(borderMode, fn)
    w, h = _size_arg(dsize, fn)
    if w <= 0 or h <= 0:
        w, h = img.shape[1], img.shape[0]
    if not int(flags) & WARP_INVERSE_MAP:
        m = _invert3(m) if perspective else _invert_affine(m)
    flat = [v for r in m for v in r]
    shape = (h, w) + tuple(img.shape[2:])
    inputs = [_contig(img)] + _dst_init(dst, shape, img.dtype, mode)
    return _core.prim("cv_warp", inputs, [h, w, interp, mode, 1 if perspective else 0],
                      flat + _border_value(borderValue, fn))


def warpAffine(src, M, dsize, dst=None, flags=INTER_LINEAR, borderMode=BORDER_CONSTANT, borderValue=None):
    return _warp("warpAffine", src, M, dsize, dst, flags, borderMode, borderValue, False)


def warpPerspective(src, M, dsize, dst=None, flags=INTER_LINEAR, borderMode=BORDER_CONSTANT, borderValue=None):
    return _warp("warpPerspective", src, M, dsize, dst, flags, borderMode, borderValue, True)


def _float_map(map1, map2, fn):
    """Any cv2 map form as one float32 HxWx2 array of (x, y)."""
    m1 = as_image(map1, fn, "map1")
    d1 = str(m1.dtype)
    empty2 = map2 is None or (hasattr(map2, "size") and map2.size == 0)
    if d1 == "float32" and m1.ndim == 3 and m1.shape[2] == 2 and empty2:
        return _contig(m1)
    if d1 == "float32" and (m1.ndim == 2 or (m1.ndim == 3 and m1.shape[2] == 1)) and not empty2:
        m2 = as_image(map2, fn, "map2")
        if str(m2.dtype) != "float32" or tuple(m2.shape[:2]) != tuple(m1.shape[:2]):
            raise fail(fn, "map2 must be float32 of map1's size")
        h, w = m1.shape[0], m1.shape[1]
        return _contig(_np.stack([m1.reshape(h, w), m2.reshape(h, w)], axis=-1))
    if d1 == "int16" and m1.ndim == 3 and m1.shape[2] == 2:
        xy = m1.astype(_np.float32)
        if empty2:
            return _contig(xy)
        m2 = as_image(map2, fn, "map2")
        if str(m2.dtype) not in ("uint16", "int16") or tuple(m2.shape[:2]) != tuple(m1.shape[:2]):
            raise fail(fn, "map2 must be a uint16 table index of map1's size")
        a = m2.reshape(m1.shape[0], m1.shape[1]).astype(_np.int32) & (INTER_TAB_SIZE2 - 1)
        fx = (a & (INTER_TAB_SIZE - 1)).astype(_np.float32) * (1.0 / INTER_TAB_SIZE)
        fy = (a >> INTER_BITS).astype(_np.float32) * (1.0 / INTER_TAB_SIZE)
        return _contig(xy + _np.stack([fx, fy], axis=-1))
    raise fail(fn, "unsupported map types")


def _remap_maps(map1, map2, fn):
    """The maps as cv_remap takes them, without copying: ([inputs], fixed, nmaps)."""
    m1 = as_image(map1, fn, "map1")
    empty2 = map2 is None or (hasattr(map2, "size") and map2.size == 0)
    m2 = None if empty2 else as_image(map2, fn, "map2")
    d1, d2 = str(m1.dtype), (None if m2 is None else str(m2.dtype))
    if m2 is not None and d1 in ("uint16", "int16") and m2.ndim == 3 and str(m2.dtype) == "int16":
        m1, m2, d1, d2 = m2, m1, d2, d1  # cv2 accepts the fixed-point pair in either order
    pairs = m1.ndim == 3 and m1.shape[2] == 2
    if d1 == "float32" and pairs and m2 is None:
        return [_contig(m1)], 0, 1
    if d1 == "float32" and (m1.ndim == 2 or (m1.ndim == 3 and m1.shape[2] == 1)) and m2 is not None:
        if d2 != "float32" or tuple(m2.shape[:2]) != tuple(m1.shape[:2]) or m2.size != m2.shape[0] * m2.shape[1]:
            raise fail(fn, "map2 must be float32 of map1's size")
        h, w = m1.shape[0], m1.shape[1]
        return [_contig(m1).reshape(h, w), _contig(m2).reshape(h, w)], 0, 2
    if d1 == "int16" and pairs:
        if m2 is None:
            return [_contig(m1)], 1, 1
        if d2 not in ("uint16", "int16") or tuple(m2.shape[:2]) != tuple(m1.shape[:2]) or \
                m2.size != m2.shape[0] * m2.shape[1]:
            raise fail(fn, "map2 must be a uint16 table index of map1's size")
        return [_contig(m1), _contig(m2).reshape(m1.shape[0], m1.shape[1])], 1, 2
    raise fail(fn, "unsupported map types")


def remap(src, map1, map2, interpolation, dst=None, borderMode=BORDER_CONSTANT, borderValue=None):
    fn = "remap"
    img = as_image(src, fn)
    _check_warp_channels(img, int(interpolation) & INTER_MAX, fn)
    _check_warp_depth(img, INTER_NEAREST, fn)
    if int(interpolation) & ~(INTER_MAX | 32):  # cv2's remap takes INTER_* (| WARP_RELATIVE_MAP) only
        raise fail(fn, f"Unknown interpolation method {interpolation}")
    interp = _warp_interp(interpolation, fn, img)
    mode = _check_border(borderMode, fn)
    maps, fixed, nmaps = _remap_maps(map1, map2, fn)
    if fixed and interp == INTER_CUBIC:
        # cv2 5.0 turns fixed-point maps into float ones for INTER_CUBIC (x + fraction / 32)
        maps, fixed, nmaps = [_float_map(map1, map2, fn)], 0, 1
    shape = (maps[0].shape[0], maps[0].shape[1]) + tuple(img.shape[2:])
    inputs = [_contig(img)] + maps + _dst_init(dst, shape, img.dtype, mode)
    return _core.prim("cv_remap", inputs, [interp, mode, fixed, nmaps], _border_value(borderValue, fn))


_CV_16SC2, _CV_32FC1, _CV_32FC2 = 35, 5, 37  # cv2 5 type codes (channels shifted by 5 bits)


def convertMaps(map1, map2, dstmap1type, dstmap1=None, dstmap2=None, nninterpolation=False):
    """Float maps to cv2's fixed-point form (int16 (x, y) pixels + uint16 1/32-pixel table index),
    or between the one- and two-array float forms."""
    fn = "convertMaps"
    m = _float_map(map1, map2, fn)
    t = int(dstmap1type)
    if t == _CV_32FC2:
        return m, None
    if t == _CV_32FC1:
        return _contig(m[..., 0]), _contig(m[..., 1])
    if t != _CV_16SC2:
        raise fail(fn, f"unsupported destination map type {t}")
    if nninterpolation:
        return _np.clip(_np.rint(m), -32768, 32767).astype(_np.int16), None
    fixed = _np.rint(m * float(INTER_TAB_SIZE)).astype(_np.int32)
    xy = _np.clip(fixed >> INTER_BITS, -32768, 32767).astype(_np.int16)
    a = (fixed[..., 1] & (INTER_TAB_SIZE - 1)) * INTER_TAB_SIZE + (fixed[..., 0] & (INTER_TAB_SIZE - 1))
    return xy, a.astype(_np.uint16)



# ---------------------------------------------------------------------------------------------
# flips, rotations by quarter turns, borders, sub-pixel patches, pyramids

_ANY_DTYPES = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64", "float16", "bool")
# element sizes (bytes per pixel) cv2's transpose has a kernel for: others raise in cv2
_TRANSPOSE_ESZ = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32)


def _image_any(src, fn):
    img = as_image(src, fn)
    if img.ndim not in (2, 3):
        raise fail(fn, f"expected a 2-d or 3-d image, got {img.ndim} dimensions")
    _check_depth(img, fn, _ANY_DTYPES)
    return img


def _check_transpose(img, fn):
    if channels(img) * img.dtype.itemsize not in _TRANSPOSE_ESZ:
        raise fail(fn, f"no transpose for {channels(img)}-channel {img.dtype} pixels (cv2: func != 0)")


def flip(src, flipCode, dst=None):
    call = ("flip", flipCode) if _geom_fast.plain_ints(flipCode) else None
    if call is not None:
        r = _geom_fast.memo_call(src, call)
        if r is not None:
            return r
    img = _image_any(src, "flip")
    code = int_arg(flipCode, "flip", "flipCode")
    mode = _geom_fast.FLIP_ROWS if code == 0 else _geom_fast.FLIP_COLS if code > 0 else _geom_fast.FLIP_BOTH
    return _geom_fast.copy(src, img, call, [mode])


def transpose(src, dst=None):
    call = ("transpose",)
    r = _geom_fast.memo_call(src, call)
    if r is not None:
        return r
    img = _image_any(src, "transpose")
    _check_transpose(img, "transpose")
    return _geom_fast.copy(src, img, call, [_geom_fast.TRANSPOSE])


def rotate(src, rotateCode, dst=None):
    call = ("rotate", rotateCode) if _geom_fast.plain_ints(rotateCode) else None
    if call is not None:
        r = _geom_fast.memo_call(src, call)
        if r is not None:
            return r
    img = _image_any(src, "rotate")
    code = int_arg(rotateCode, "rotate", "rotateCode")
    if code in (ROTATE_90_CLOCKWISE, ROTATE_90_COUNTERCLOCKWISE):
        _check_transpose(img, "rotate")
    if code == ROTATE_90_CLOCKWISE:
        mode = _geom_fast.ROTATE_CW
    elif code == ROTATE_180:
        mode = _geom_fast.FLIP_BOTH
    elif code == ROTATE_90_COUNTERCLOCKWISE:
        mode = _geom_fast.ROTATE_CCW
    else:
        raise fail("rotate", f"unknown rotate code {code}")
    return _geom_fast.copy(src, img, call, [mode])


def copyMakeBorder(src, top, bottom, left, right, borderType, dst=None, value=None):
    fn = "copyMakeBorder"
    call = ("border", top, bottom, left, right, borderType) \
        if value is None and _geom_fast.plain_ints(top, bottom, left, right, borderType) else None
    if call is not None:
        r = _geom_fast.memo_call(src, call)
        if r is not None:
            return r
    img = _image_any(src, fn)
    t, b, l, r = (int_arg(v, fn, k) for v, k in ((top, "top"), (bottom, "bottom"), (left, "left"), (right, "right")))
    if min(t, b, l, r) < 0:
        raise fail(fn, "top >= 0 && bottom >= 0 && left >= 0 && right >= 0")
    mode = _check_border(borderType, fn, allow_transparent=False)
    if mode != BORDER_CONSTANT and (img.shape[0] == 0 or img.shape[1] == 0):
        raise fail(fn, "cannot extrapolate an empty image")
    if mode != BORDER_CONSTANT:  # pixel moves only, any dtype: one native pass
        return _geom_fast.copy(src, img, call, [_geom_fast.BORDER, t, b, l, r, mode])
    if str(img.dtype) == "bool":  # bytes copied as uint8; the fill value becomes cv2's bool (nonzero)
        vals = None if value is None else [float(v != 0) for v in (value if isinstance(value, (tuple, list)) else (value,))]
        return copyMakeBorder(img.view(_np.uint8), t, b, l, r, borderType, value=vals).view(_np.bool_)
    if str(img.dtype) == "float16":  # the kernel copies pixels; only the fill value needs a type
        img32 = img.astype(_np.float32)
        return copyMakeBorder(img32, t, b, l, r, borderType, value=value).astype(_np.float16)
    return _core.prim("cv_border", [_contig(img)], [t, b, l, r, mode], _border_value(value, fn))


def getRectSubPix(image, patchSize, center, patch=None, patchType=-1):
    """A patch centred at a sub-pixel position, bilinear, with the image's edge pixels repeated."""
    fn = "getRectSubPix"
    img = as_image(image, fn, "image")
    if channels(img) not in (1, 3) or img.ndim not in (2, 3):
        raise fail(fn, "cn == 1 || cn == 3")
    if str(img.dtype) not in ("uint8", "float32"):
        raise fail(fn, f"unsupported depth {img.dtype}")
    if patchSize is None:  # cv2's binding reads None as (0, 0): refused (tools/cv_audit.py)
        raise TypeError("[mnn.cv.getRectSubPix] patchSize must be a (width, height) pair, got None")
    w, h = _size_arg(patchSize, fn, "patchSize")
    if w < 0 or h < 0:
        raise fail(fn, "patch size must not be negative")
    cx, cy = (float(v) for v in center)
    if patchType not in (-1, None):
        pt = int(patchType) & 7
        if pt == 5 and str(img.dtype) == "uint8":
            img = img.astype(_np.float32)  # exact: uint8 -> float32 sampling is float arithmetic
        elif not ((pt == 0 and str(img.dtype) == "uint8") or (pt == 5 and str(img.dtype) == "float32")):
            raise fail(fn, "Unsupported combination of input and output formats")
    fixed = str(img.dtype) == "uint8"  # uint8 -> uint8: cv2's 16-bit fixed point
    if w == 0 or h == 0:  # an empty patch (cv2's binding returns None for it)
        return _np.zeros((h, w) + tuple(img.shape[2:]), dtype=img.dtype)
    if w > 2147483647 or h > 2147483647:  # cv2's binding cannot parse it either
        raise fail(fn, "patchSize does not fit in int")
    if img.shape[0] == 0 or img.shape[1] == 0:
        # an empty source: cv2 samples uninitialised memory (tools/cv_audit.py); zeros here
        return _np.zeros((h, w) + tuple(img.shape[2:]), dtype="uint8" if fixed else "float32")
    # cv2's own sampling (samplers.cpp), edge handling included: _rect_sub_pix.py
    return _rect_sub_pix.rect_sub_pix(img, w, h, cx, cy, fixed)


# cv2's pyramids have no int8 (or int32) kernel
_PYR_DTYPES = ("uint8", "uint16", "int16", "float32", "float64")


def pyrDown(src, dst=None, dstsize=None, borderType=BORDER_DEFAULT):
    # a repeated call skips the checks (_filter_sep.memoized); dst is not written, as before
    return _filter_sep.memoized("pyrDown", src, dst, (-1 if dstsize is None else dstsize, borderType),
                                lambda: _pyr_down(src, dstsize, borderType))


def _pyr_down(src, dstsize, borderType):
    fn = "pyrDown"
    img = as_image(src, fn)
    _check_channels(img, fn, 512)
    _check_depth(img, fn, _PYR_DTYPES)
    h, w = img.shape[0], img.shape[1]
    dw, dh = _size_arg(dstsize, fn, "dstsize")
    if dw <= 0 or dh <= 0:
        dw, dh = (w + 1) // 2, (h + 1) // 2
    if not (dw > 0 and dh > 0 and abs(dw * 2 - w) <= 2 and abs(dh * 2 - h) <= 2):
        raise fail(fn, "std::abs(dsize.width*2 - ssize.width) <= 2 && std::abs(dsize.height*2 - ssize.height) <= 2")
    mode = int(borderType)  # BORDER_ISOLATED included: cv2's pyrDown refuses it
    if mode not in (BORDER_REPLICATE, BORDER_REFLECT, BORDER_WRAP, BORDER_REFLECT_101):
        raise fail(fn, "borderType must be BORDER_REFLECT_101, BORDER_REFLECT, BORDER_WRAP or BORDER_REPLICATE")
    if h == 0 or w == 0:
        raise fail(fn, "!_src.empty()")
    # one native pass for any channel count (_filter_sep.py); cv2's float sums for > 4 channels
    # associate differently, so there float results differ from its in the last bit
    return _filter_sep.pyramid(img, 1, dh, dw, mode)


def pyrUp(src, dst=None, dstsize=None, borderType=BORDER_DEFAULT):
    # a repeated call skips the checks (_filter_sep.memoized); dst is not written, as before
    return _filter_sep.memoized("pyrUp", src, dst, (-1 if dstsize is None else dstsize, borderType),
                                lambda: _pyr_up(src, dstsize, borderType))


def _pyr_up(src, dstsize, borderType):
    fn = "pyrUp"
    img = as_image(src, fn)
    _check_channels(img, fn, 512)
    _check_depth(img, fn, _PYR_DTYPES)
    h, w = img.shape[0], img.shape[1]
    dw, dh = _size_arg(dstsize, fn, "dstsize")
    if dw <= 0 or dh <= 0:
        dw, dh = w * 2, h * 2
    if (dw, dh) != (w * 2, h * 2):
        if abs(dw - w * 2) <= (dw % 2) and abs(dh - h * 2) <= (dh % 2):
            raise fail(fn, "odd destination sizes are not supported by mnn.cv (use the default size)")
        raise fail(fn, "std::abs(dsize.width - ssize.width*2) == dsize.width % 2 && "
                       "std::abs(dsize.height - ssize.height*2) == dsize.height % 2")
    if int(borderType) != BORDER_DEFAULT:
        raise fail(fn, "borderType must be BORDER_DEFAULT")
    if h == 0 or w == 0:  # cv2 enlarges nothing into nothing (its binding's None)
        return _np.zeros((0, 0) + tuple(img.shape[2:]), dtype=img.dtype)
    return _filter_sep.pyramid(img, 0, dh, dw, BORDER_REFLECT_101)
