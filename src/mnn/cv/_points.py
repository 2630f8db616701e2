"""Point-set geometry that face-alignment, OCR-rectification and shape-matching code calls:
perspectiveTransform, transform, convertPointsTo/FromHomogeneous, Rodrigues, fitLine, HuMoments,
matchShapes, isContourConvex, convexityDefects, rotatedRectangleIntersection and
intersectConvexConvex, with cv2's signatures, constants, array forms and results.

cv2 does these in small scalar loops over float32 points with double accumulators; the point
sets are small, so they are done here in plain Python floats, rounding to float32 at the same
steps as cv2 (`_f32`) so that results and every comparison inside them (which side of an edge,
which point is a duplicate) come out as cv2's. The two functions that map whole arrays
(perspectiveTransform, transform) are mnn.numpy expressions, so large inputs stay vectorised.
Written from reading OpenCV's geometry/imgproc sources; none of its code is copied.
"""
import math
from array import array

from .. import _core
from .. import numpy as _np
from ._common import as_image, fail
from ._common import f32 as _f32
from ._robust import _CvRng
from ._structure import boxPoints as _box_points
from ._structure import moments as _moments

__all__ = [
    "perspectiveTransform", "transform", "convertPointsToHomogeneous", "convertPointsFromHomogeneous",
    "Rodrigues", "fitLine", "HuMoments", "matchShapes", "isContourConvex", "convexityDefects",
    "rotatedRectangleIntersection", "intersectConvexConvex",
    "CONTOURS_MATCH_I1", "CONTOURS_MATCH_I2", "CONTOURS_MATCH_I3",
    "INTERSECT_NONE", "INTERSECT_PARTIAL", "INTERSECT_FULL",
    "DIST_USER", "DIST_L1", "DIST_L2", "DIST_C", "DIST_L12", "DIST_FAIR", "DIST_WELSCH", "DIST_HUBER",
]

CONTOURS_MATCH_I1, CONTOURS_MATCH_I2, CONTOURS_MATCH_I3 = 1, 2, 3
INTERSECT_NONE, INTERSECT_PARTIAL, INTERSECT_FULL = 0, 1, 2
DIST_USER, DIST_L1, DIST_L2, DIST_C, DIST_L12, DIST_FAIR, DIST_WELSCH, DIST_HUBER = -1, 1, 2, 3, 4, 5, 6, 7

_FLT_EPSILON = 1.1920928955078125e-07
_DBL_EPSILON = 2.220446049250313e-16
_DBL_MAX = 1.7976931348623157e308
_FLT_MAX = 3.4028234663852886e38
_FMT = {"float64": "d", "float32": "f", "int32": "i"}


# ---------------------------------------------------------------------------------------------
# array forms


def _new(values, dtype, shape):
    """An mnn array of `shape` and `dtype` (float64/float32/int32) holding flat `values`."""
    fmt = _FMT[dtype]
    buf = array(fmt, values)
    if not buf:
        return _np.zeros(shape, dtype=dtype)
    return _core.from_buffer(memoryview(buf).cast("B").cast(fmt, shape))


def _cv_dims(a):
    """(rows, cols, channels) of the Mat cv2's binding makes of an array: 1-d is a column,
    2-d one channel, 3-d has its last axis as channels."""
    s = tuple(a.shape)
    if len(s) == 1:
        return s[0], 1, 1
    if len(s) == 2:
        return s[0], s[1], 1
    if len(s) == 3:
        return s[0], s[1], s[2]
    return None


def _check_vector(a, n):
    """cv::Mat::checkVector(n): the number of n-element points the array holds, or -1.
    (N, n), (N, 1, n), (1, N, n) and a flat n-vector's forms are point vectors."""
    d = _cv_dims(a)
    if d is None:
        return -1
    rows, cols, cn = d
    if cn == n and (rows == 1 or cols == 1):
        return rows * cols
    if cn == 1 and cols == n:
        return rows
    return -1


def _flat(a):
    """The elements of an mnn array as a flat list of Python numbers."""
    if a.size == 0:
        return []
    return _np.ascontiguousarray(a).reshape(-1).tolist()


def _points(src, fn, n, name, depths=("int32", "float32")):
    """(flat values, count, dtype) of an n-element point vector, validated as cv2 does."""
    a = as_image(_listify(src, n), fn, name)
    dt = str(a.dtype)
    cnt = _check_vector(a, n)
    if cnt < 0 or dt not in depths:
        raise fail(fn, f"'{name}' must be a vector of {n}-element points ({', '.join(depths)}; shape (N, {n}), "
                       f"(N, 1, {n}) or (1, N, {n})), got {dt} array of shape {tuple(a.shape)}")
    return _flat(a), cnt, dt


def _listify(src, n):
    """A Python list of points as an array (cv2 takes lists of tuples too)."""
    if isinstance(src, (list, tuple)):
        flat = []
        for p in src:
            while isinstance(p, (list, tuple)) and len(p) == 1 and isinstance(p[0], (list, tuple)):
                p = p[0]
            flat.append(p)
        is_float = any(isinstance(v, float) for p in flat for v in (p if isinstance(p, (list, tuple)) else [p]))
        if not flat:
            return _np.zeros((0, n), dtype="int32")
        return _np.array(flat, dtype="float32" if is_float else "int32")
    return src


def _pairs(vals):
    return list(zip(vals[0::2], vals[1::2]))


def _as_float_matrix(m, fn, name="m"):
    """A 2-d float matrix argument as (rows, cols, list of row lists)."""
    if m is None:
        raise fail(fn, f"'{name}' is None")
    a = as_image(m, fn, name)
    d = _cv_dims(a)
    if d is None or d[2] != 1:
        raise fail(fn, f"'{name}' must be a single-channel 2-d matrix, got shape {tuple(a.shape)}")
    if str(a.dtype) not in ("float32", "float64"):
        raise fail(fn, f"'{name}' must be float32 or float64, got {a.dtype}")
    rows, cols = d[0], d[1]
    v = [float(x) for x in _flat(a)]
    return rows, cols, [v[r * cols:(r + 1) * cols] for r in range(rows)]


def _result_shape(a, cn):
    """The shape of a result Mat with a's rows/cols and `cn` channels, as cv2 hands it back."""
    rows, cols, _ = _cv_dims(a)
    if len(a.shape) == 1 and cn == 1:
        return (rows, 1)
    return (rows, cols) if cn == 1 else (rows, cols, cn)


# ---------------------------------------------------------------------------------------------
# whole-array maps


def perspectiveTransform(src, m, dst=None):
    """cv2.perspectiveTransform: each scn-element float point through the (dcn+1)x(scn+1)
    matrix m, divided by the last row's value; 0 where that value is within FLT_EPSILON of 0."""
    fn = "perspectiveTransform"
    a = as_image(src, fn, "src")
    dims = _cv_dims(a)
    if dims is None:
        raise fail(fn, f"expected a 1-, 2- or 3-d array, got shape {tuple(a.shape)}")
    scn = dims[2]
    dt = str(a.dtype)
    rows, cols, mm = _as_float_matrix(m, fn)
    if scn + 1 != cols:
        raise fail(fn, f"scn + 1 == m.cols (got {scn} channels and a {rows}x{cols} matrix)")
    if dt not in ("float32", "float64"):
        raise fail(fn, f"depth == CV_32F || depth == CV_64F (got {dt})")
    dcn = rows - 1
    if dcn < 1:
        raise fail(fn, f"the matrix must have at least 2 rows, got {rows}")
    n = dims[0] * dims[1]
    if n == 0:
        return None  # cv2 hands an empty result back as None
    x = a.reshape(n, scn).astype("float64")
    comps = [x[:, k] for k in range(scn)]

    def row(r):
        s = comps[0] * mm[r][0]
        for k in range(1, scn):
            s = s + comps[k] * mm[r][k]
        return s + mm[r][scn]

    w = row(dcn)
    ok = _np.abs(w) > _FLT_EPSILON
    inv = _np.where(ok, 1.0 / _np.where(ok, w, 1.0), 0.0)
    out = _np.stack([row(r) * inv for r in range(dcn)], axis=-1)
    return out.astype(dt).reshape(_result_shape(a, dcn))


_SATURATE = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767),
             "int32": (-2147483648, 2147483647)}


def transform(src, m, dst=None):
    """cv2.transform: every element's channel vector through the dcn x scn (or dcn x (scn+1),
    affine) matrix m, saturated to src's depth. The arithmetic is float32 for 8/16-bit and
    float32 data and double for int32 and float64, as in cv2."""
    fn = "transform"
    a = as_image(src, fn, "src")
    dims = _cv_dims(a)
    if dims is None:
        raise fail(fn, f"expected a 1-, 2- or 3-d array, got shape {tuple(a.shape)}")
    scn = dims[2]
    dt = str(a.dtype)
    rows, cols, mm = _as_float_matrix(m, fn)
    if not (scn == cols or scn + 1 == cols):
        raise fail(fn, f"scn == m.cols || scn + 1 == m.cols (got {scn} channels and a {rows}x{cols} matrix)")
    if dt not in ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64"):
        raise fail(fn, f"unsupported depth {dt}")
    if not 1 <= rows <= 512:
        raise fail(fn, f"the matrix must have 1 to 512 rows, got {rows}")
    n = dims[0] * dims[1]
    if n == 0:
        return None  # cv2 hands an empty result back as None
    # cv2 always works on the dcn x (scn+1) form (a zero shift column when m has scn columns)
    mm = [r + [0.0] if cols == scn else r for r in mm]
    if dt in ("int32", "float64"):
        out = _transform_double(a.reshape(n, scn), mm, scn)
    elif dt in ("uint8", "int8") and scn == 3 and rows == 3 and _fixed_point_ok(mm):
        return _transform_8_fixed(a.reshape(n, 3), mm, dt).reshape(_result_shape(a, rows))
    else:
        out = _transform_float(a.reshape(n, scn), [[_f32(v) for v in r] for r in mm], scn, dt)
    if dt in _SATURATE:
        lo, hi = _SATURATE[dt]
        out = _np.clip(_np.rint(out), lo, hi)
    return out.astype(dt).reshape(_result_shape(a, rows))


def _transform_double(x, mm, scn):
    x = x.astype("float64")
    comps = [x[:, k] for k in range(scn)]
    outs = []
    for r in mm:
        s = comps[0] * r[0]
        for k in range(1, scn):
            s = s + comps[k] * r[k]
        outs.append(s + r[scn])
    return _np.stack(outs, axis=-1)


def _r32(v):
    """float64 values rounded to float32 and back: one float32 operation's result."""
    return v.astype("float32").astype("float64")


def _transform_float(x, mm, scn, dt):
    """cv2's float32 arithmetic, in its order: its SIMD kernels and its scalar loops (compiled
    for AVX2/AVX-512, where the compiler fuses a*b+c into one FMA) round once per fused
    multiply-add. A product of two float32 values is exact in float64, so each FMA is one
    float64 add rounded to float32."""
    x = x.astype("float64")
    comps = [x[:, k] for k in range(scn)]
    outs = []
    fused_simd = scn == 3 and len(mm) == 3 and dt in ("uint16", "float32")
    for r in mm:
        if fused_simd:  # v_matmuladd: fma(v0, m0, fma(v1, m1, fma(v2, m2, m3)))
            shift = _f32(r[3] - 32768.0) if dt == "uint16" else r[3]
            s = _r32(comps[2] * r[2] + shift)
            s = _r32(comps[1] * r[1] + s)
            s = _r32(comps[0] * r[0] + s)
            if dt == "uint16":
                s = s + 32768.0
        elif scn in (2, 3, 4) and len(mm) == scn or (scn == 3 and len(mm) == 1):
            # m0*v0 + m1*v1 + ... + shift, contracted left to right
            s = _r32(comps[0] * r[0])
            for k in range(1, scn):
                s = _r32(comps[k] * r[k] + s)
            s = _r32(s + r[scn])
        else:  # the general loop starts from the shift: s = m[scn]; s += m[k] * v[k]
            s = None
            for k in range(scn):
                s = _r32(comps[k] * r[k] + (r[scn] if s is None else s))
        outs.append(s)
    return _np.stack(outs, axis=-1)


_FP_BITS = 10


def _fixed_point_ok(mm):
    """cv2's 8-bit 3x3 transform runs in 10-bit fixed point when the matrix entries fit."""
    lim = float(1 << (15 - _FP_BITS))
    return all(abs(_f32(r[0])) < lim and abs(_f32(r[1])) < lim and abs(_f32(r[2])) < lim * 256 and
               abs(_f32(r[3])) < lim * 256 for r in mm)


def _sat_round(v, lo, hi):
    """saturate_cast of a float to an integer type: round half to even, then clamp."""
    r = int(round(v)) if math.isfinite(v) else 0
    return min(max(r, lo), hi)


def _transform_8_fixed(x, mm, dt):
    """cv2's fixed-point 8-bit 3x3 transform: coefficients scaled by 2^10 and rounded; the sum
    is rounded by adding 2^9 before the shift. For uchar, cv2's scalar tail after its SIMD
    blocks (64 pixels at a time on an AVX-512 CPU) folds that half into the shift coefficient
    instead, which can differ by one."""
    scale = 1 << _FP_BITS
    n = x.shape[0]
    lo, hi = _SATURATE[dt]
    simd_n = ((n // 64) * 64 if n >= 64 else 0) if dt == "uint8" else n
    xi = x.astype("int32")
    idx = _np.arange(n, dtype="int32")
    outs = []
    for r in mm:
        f = [_f32(v) for v in r]
        c0 = _sat_round(_f32(f[0] * scale), -32768, 32767)
        c1 = _sat_round(_f32(f[1] * scale), -32768, 32767)
        c2 = _sat_round(_f32(f[2] * scale), -2 ** 31, 2 ** 31 - 1)
        shift_simd = _sat_round(_f32(f[3] * scale), -2 ** 31, 2 ** 31 - 1) + (1 << (_FP_BITS - 1))
        shift_tail = _sat_round(_f32(_f32(f[3] + 0.5) * scale), -2 ** 31, 2 ** 31 - 1)
        acc = xi[:, 0] * c0 + xi[:, 1] * c1 + xi[:, 2] * c2
        shift = _np.where(idx < simd_n, shift_simd, shift_tail)
        outs.append(_np.clip((acc + shift) // scale, lo, hi))
    return _np.stack(outs, axis=-1).astype(dt)


def convertPointsToHomogeneous(src, dst=None):
    """cv2.convertPointsToHomogeneous: (N, 1, n+1) points with a trailing 1, same depth."""
    fn = "convertPointsToHomogeneous"
    a = as_image(_listify(src, 2), fn, "src")
    dt = str(a.dtype)
    cnt, cn = _check_vector(a, 2), 2
    if cnt < 0:
        cnt, cn = _check_vector(a, 3), 3
    if cnt < 0 or dt not in ("int32", "float32", "float64"):
        raise fail(fn, f"expected 2- or 3-element points (int32, float32 or float64), got {dt} array of shape "
                       f"{tuple(a.shape)} (cv2: npoints >= 0 && (depth == CV_32S || depth == CV_32F || "
                       f"depth == CV_64F))")
    pts = a.reshape(cnt, 1, cn)
    one = _np.ones((cnt, 1, 1), dtype=dt)
    return _np.concatenate([pts, one], axis=2)


def convertPointsFromHomogeneous(src, dst=None):
    """cv2.convertPointsFromHomogeneous: (N, 1, n-1) points divided by their last coordinate
    (by 1 where it is within FLT_EPSILON of 0); int32 input gives float32, as in cv2."""
    fn = "convertPointsFromHomogeneous"
    a = as_image(_listify(src, 3), fn, "src")
    dt = str(a.dtype)
    cnt, cn = _check_vector(a, 3), 3
    if cnt < 0:
        cnt, cn = _check_vector(a, 4), 4
    if cnt < 0 or dt not in ("int32", "float32", "float64"):
        raise fail(fn, f"expected 3- or 4-element points (int32, float32 or float64), got {dt} array of shape "
                       f"{tuple(a.shape)} (cv2: npoints >= 0 && (depth == CV_32S || depth == CV_32F || "
                       f"depth == CV_64F))")
    vals = _flat(a)
    out = []
    f = _f32
    for i in range(cnt):
        p = vals[i * cn:(i + 1) * cn]
        w = p[-1]
        if dt == "float64":
            scale = 1.0 / w if abs(w) > _FLT_EPSILON else 1.0
            out.extend(v * scale for v in p[:-1])
        elif dt == "float32":
            scale = f(1.0 / w) if abs(w) > _FLT_EPSILON else 1.0
            out.extend(f(v * scale) for v in p[:-1])
        else:
            # int points: the scale is float and the product float32 (cv2's Point2f result)
            scale = f(1.0 / w) if w != 0 else 1.0
            out.extend(f(f(v) * scale) for v in p[:-1])
    odt = "float64" if dt == "float64" else "float32"
    return _new(out, odt, (cnt, 1, cn - 1))


# ---------------------------------------------------------------------------------------------
# Rodrigues


def _matmul(a, b):
    n, m, p = len(a), len(b), len(b[0])
    return [[sum(a[i][k] * b[k][j] for k in range(m)) for j in range(p)] for i in range(n)]


def _svd3_polar(r):
    """U * Vt of a 3x3 matrix's SVD (its nearest orthogonal matrix), from a Jacobi SVD."""
    from ._structure import _svd
    w, us, vs = _svd([row[:] for row in r])
    return [[sum(us[k][i] * vs[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def Rodrigues(src, dst=None, jacobian=None):
    """cv2.Rodrigues: a rotation vector (3x1 / 1x3) to a 3x3 rotation matrix with its 3x9
    jacobian, or a 3x3 matrix to a 3x1 vector with its 9x3 jacobian; float32 or float64."""
    fn = "Rodrigues"
    a = as_image(src, fn, "src")
    dt = str(a.dtype)
    d = _cv_dims(a)
    is_vec = d is not None and ((d[2] == 1 and (d[0], d[1]) in ((3, 1), (1, 3))) or (d[0], d[1], d[2]) == (1, 1, 3))
    is_mat = d is not None and (d[0], d[1], d[2]) == (3, 3, 1)
    if not (is_vec or is_mat):
        raise fail(fn, f"Input matrix must be 1x3 or 3x1 for a rotation vector, or 3x3 for a rotation matrix "
                       f"(got shape {tuple(a.shape)})")
    if dt not in ("float32", "float64"):
        raise fail(fn, f"The matrices must have 32f or 64f data type (got {dt})")
    v = [float(x) for x in _flat(a)]
    J = [0.0] * 27
    if is_vec:
        rx, ry, rz = v
        theta = math.sqrt(rx * rx + ry * ry + rz * rz)
        if theta < _DBL_EPSILON:
            R = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
            J[5] = J[15] = J[19] = -1.0
            J[7] = J[11] = J[21] = 1.0
        else:
            c, s = math.cos(theta), math.sin(theta)
            c1 = 1.0 - c
            it = 1.0 / theta
            rx, ry, rz = rx * it, ry * it, rz * it
            rrt = [rx * rx, rx * ry, rx * rz, rx * ry, ry * ry, ry * rz, rx * rz, ry * rz, rz * rz]
            rcross = [0.0, -rz, ry, rz, 0.0, -rx, -ry, rx, 0.0]
            eye = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
            R = [c * eye[k] + c1 * rrt[k] + s * rcross[k] for k in range(9)]
            drrt = [rx + rx, ry, rz, ry, 0, 0, rz, 0, 0,
                    0, rx, 0, rx, ry + ry, rz, 0, rz, 0,
                    0, 0, rx, 0, 0, ry, rx, ry, rz + rz]
            dcross = [0, 0, 0, 0, 0, -1, 0, 1, 0,
                      0, 0, 1, 0, 0, 0, -1, 0, 0,
                      0, -1, 0, 1, 0, 0, 0, 0, 0]
            for i, ri in enumerate((rx, ry, rz)):
                a0, a1, a2 = -s * ri, (s - 2 * c1 * it) * ri, c1 * it
                a3, a4 = (c - s * it) * ri, s * it
                for k in range(9):
                    J[i * 9 + k] = (a0 * eye[k] + a1 * rrt[k] + a2 * drrt[i * 9 + k] +
                                    a3 * rcross[k] + a4 * dcross[i * 9 + k])
        return _new(R, dt, (3, 3)), _new(J, dt, (3, 9))
    # matrix -> vector
    if any(not (-100 <= x < 100) for x in v):  # cv2's checkRange: NaN or out of range gives zeros
        return _new([0.0] * 3, dt, (3, 1)), _new([0.0] * 27, dt, (9, 3))
    R = _svd3_polar([v[0:3], v[3:6], v[6:9]])
    rx, ry, rz = R[2][1] - R[1][2], R[0][2] - R[2][0], R[1][0] - R[0][1]
    s = math.sqrt((rx * rx + ry * ry + rz * rz) * 0.25)
    c = (R[0][0] + R[1][1] + R[2][2] - 1) * 0.5
    c = 1.0 if c > 1.0 else -1.0 if c < -1.0 else c
    theta = math.acos(c)
    if s < 1e-5:
        if c > 0:
            rx = ry = rz = 0.0
        else:
            rx = math.sqrt(max((R[0][0] + 1) * 0.5, 0.0))
            ry = math.sqrt(max((R[1][1] + 1) * 0.5, 0.0)) * (-1.0 if R[0][1] < 0 else 1.0)
            rz = math.sqrt(max((R[2][2] + 1) * 0.5, 0.0)) * (-1.0 if R[0][2] < 0 else 1.0)
            if abs(rx) < abs(ry) and abs(rx) < abs(rz) and (R[1][2] > 0) != (ry * rz > 0):
                rz = -rz
            theta /= math.sqrt(rx * rx + ry * ry + rz * rz)
            rx, ry, rz = rx * theta, ry * theta, rz * theta
        if c > 0:
            J[5] = J[15] = J[19] = -0.5
            J[7] = J[11] = J[21] = 0.5
    else:
        vth = 1 / (2 * s)
        dtheta_dtr = -1.0 / s
        dvth_dtheta = -vth * c / s
        d1 = 0.5 * dvth_dtheta * dtheta_dtr
        d2 = 0.5 * dtheta_dtr
        dvardR = [[0, 0, 0, 0, 0, 1, 0, -1, 0],
                  [0, 0, -1, 0, 0, 0, 1, 0, 0],
                  [0, 1, 0, -1, 0, 0, 0, 0, 0],
                  [d1, 0, 0, 0, d1, 0, 0, 0, d1],
                  [d2, 0, 0, 0, d2, 0, 0, 0, d2]]
        dvar2dvar = [[vth, 0, 0, rx, 0], [0, vth, 0, ry, 0], [0, 0, vth, rz, 0], [0, 0, 0, 0, 1]]
        domegadvar2 = [[theta, 0, 0, rx * vth], [0, theta, 0, ry * vth], [0, 0, theta, rz * vth]]
        mj = _matmul(_matmul(domegadvar2, dvar2dvar), dvardR)
        J = [x for r in mj for x in r]
        # each row of J is a 3x3 matrix stored transposed, as cv2 leaves it
        for base in (0, 9, 18):
            for p, q in ((1, 3), (2, 6), (5, 7)):
                J[base + p], J[base + q] = J[base + q], J[base + p]
        vth *= theta
        rx, ry, rz = rx * vth, ry * vth, rz * vth
    jt = [J[i * 9 + k] for k in range(9) for i in range(3)]  # the 9x3 transpose
    return _new([rx, ry, rz], dt, (3, 1)), _new(jt, dt, (9, 3))


# ---------------------------------------------------------------------------------------------
# fitLine


def _libm_float(name, fallback):
    """The C library's float function (std::cos(float) in cv2 is cosf, which is not always the
    correctly rounded value that rounding math.cos gives); the rounded double one elsewhere."""
    try:
        import ctypes
        import ctypes.util
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
        return fn
    except (OSError, AttributeError, TypeError):
        return lambda v: _f32(fallback(v))


_cosf = _libm_float("cosf", math.cos)
_sinf = _libm_float("sinf", math.sin)
_expf = _libm_float("expf", math.exp)


def _fit_line_wods(px, py, w, count):
    """The weighted least-squares line (vx, vy, x0, y0) in float32, as cv2's fitLine2D_wods."""
    f = _f32
    x = y = x2 = y2 = xy = 0.0
    if w is None:
        for i in range(count):
            a, b = px[i], py[i]
            x += a
            y += b
            x2 += f(a * a)
            y2 += f(b * b)
            xy += f(a * b)
        sw = float(count)
    else:
        sw = 0.0
        for i in range(count):
            a, b, wi = px[i], py[i], w[i]
            wa, wb = f(wi * a), f(wi * b)
            x += wa
            y += wb
            x2 += f(wa * a)
            y2 += f(wb * b)
            xy += f(wa * b)
            sw += wi
    x /= sw
    y /= sw
    x2 /= sw
    y2 /= sw
    xy /= sw
    dx2 = x2 - x * x
    dy2 = y2 - y * y
    dxy = xy - x * y
    t = f(f(math.atan2(2 * dxy, dx2 - dy2)) / 2)
    return [_cosf(t), _sinf(t), f(x), f(y)]


def _dist2d(px, py, line, count):
    f = _f32
    lx, ly = line[2], line[3]
    nx, ny = line[1], -line[0]
    r = []
    total = 0.0
    for j in range(count):
        dx, dy = f(px[j] - lx), f(py[j] - ly)
        d = abs(f(f(nx * dx) + f(ny * dy)))
        r.append(d)
        total += d
    return r, total


def _weights(dist, r, param):
    f = _f32
    if dist == DIST_L1:
        return [f(1.0 / max(abs(d), 1e-6)) for d in r]
    if dist == DIST_L12:
        return [f(1.0 / f(math.sqrt(1 + f(d * d) * 0.5))) for d in r]
    if dist == DIST_HUBER:
        c = f(1.345) if param <= 0 else param
        return [1.0 if d < c else f(c / d) for d in r]
    if dist == DIST_FAIR:
        c = f(1 / f(1.3998)) if param == 0 else f(1 / param)
        return [f(1 / f(1 + f(d * c))) for d in r]
    c = f(1 / f(2.9846)) if param == 0 else f(1 / param)  # DIST_WELSCH
    return [_expf(f(f(f(-d * d) * c) * c)) for d in r]  # std::exp of a float is expf


def _fit_line_2d(px, py, count, dist, param, reps, aeps):
    if dist == DIST_L2:
        return _fit_line_wods(px, py, None, count)
    eps_total = count * _FLT_EPSILON
    rdelta = reps if reps != 0 else 1.0
    adelta = aeps if aeps != 0 else 0.01
    min_err, err = _DBL_MAX, 0.0
    rng = _CvRng()
    best = [0.0, 0.0, 0.0, 0.0]
    for _ in range(20):
        first = True
        w = [0.0] * count
        i = 0
        while i < min(count, 10):
            j = rng.uniform(0, count)
            if w[j] < _FLT_EPSILON:
                w[j] = 1.0
                i += 1
        line = _fit_line_wods(px, py, w, count)
        prev = None
        for _ in range(30):
            if first:
                first = False
            else:
                t = _f32(_f32(line[0] * prev[0]) + _f32(line[1] * prev[1]))  # a float expression in cv2
                t = min(max(t, -1.0), 1.0)
                if abs(math.acos(t)) < adelta:
                    d = max(abs(_f32(line[2] - prev[2])), abs(_f32(line[3] - prev[3])))
                    if d < rdelta:
                        break
            r, err = _dist2d(px, py, line, count)
            if err < min_err:
                min_err = err
                best = line[:]
                if err < eps_total:
                    break
            w = _weights(dist, r, param)
            sw = sum(w)
            if abs(sw) > _FLT_EPSILON:
                sw = 1.0 / sw
                w = [_f32(v * sw) for v in w]
            else:
                w = [1.0] * count
            prev = line
            line = _fit_line_wods(px, py, w, count)
        if err < min_err:
            min_err = err
            best = line[:]
            if err < eps_total:
                break
    return best


def _jacobi_eigen_f32(a):
    """cv2's eigen() of a symmetric float32 matrix (its Jacobi rotations, in float32): (values,
    vectors as rows), sorted by descending value. The eigenvector's sign is cv2's this way."""
    f = _f32
    n = len(a)
    A = [[f(v) for v in row] for row in a]
    V = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    W = [A[k][k] for k in range(n)]
    ind_r, ind_c = [0] * n, [0] * n

    def hyp(p, q):
        p, q = abs(p), abs(q)
        if p > q:
            q = f(q / p)
            return f(p * f(math.sqrt(f(1 + f(q * q)))))
        if q > 0:
            p = f(p / q)
            return f(q * f(math.sqrt(f(1 + f(p * p)))))
        return 0.0

    def scan(k):
        if k < n - 1:
            m, mv = k + 1, abs(A[k][k + 1])
            for i in range(k + 2, n):
                if mv < abs(A[k][i]):
                    mv, m = abs(A[k][i]), i
            ind_r[k] = m
        if k > 0:
            m, mv = 0, abs(A[0][k])
            for i in range(1, k):
                if mv < abs(A[i][k]):
                    mv, m = abs(A[i][k]), i
            ind_c[k] = m

    for k in range(n):
        scan(k)
    for _ in range(n * n * 30 if n > 1 else 0):
        k, mv = 0, abs(A[0][ind_r[0]])
        for i in range(1, n - 1):
            if mv < abs(A[i][ind_r[i]]):
                mv, k = abs(A[i][ind_r[i]]), i
        l = ind_r[k]
        for i in range(1, n):
            if mv < abs(A[ind_c[i]][i]):
                mv, k, l = abs(A[ind_c[i]][i]), ind_c[i], i
        p = A[k][l]
        if abs(p) <= _FLT_EPSILON:
            break
        y = f(f(W[l] - W[k]) * 0.5)
        t = f(abs(y) + hyp(p, y))
        s = hyp(p, t)
        c = f(t / s)
        s = f(p / s)
        t = f(f(p / t) * p)
        if y < 0:
            s, t = -s, -t
        A[k][l] = 0.0
        W[k] = f(W[k] - t)
        W[l] = f(W[l] + t)

        def rot(v0, v1):
            return f(f(v0 * c) - f(v1 * s)), f(f(v0 * s) + f(v1 * c))
        for i in range(k):
            A[i][k], A[i][l] = rot(A[i][k], A[i][l])
        for i in range(k + 1, l):
            A[k][i], A[i][l] = rot(A[k][i], A[i][l])
        for i in range(l + 1, n):
            A[k][i], A[l][i] = rot(A[k][i], A[l][i])
        for i in range(n):
            V[k][i], V[l][i] = rot(V[k][i], V[l][i])
        scan(k)
        scan(l)
    for k in range(n - 1):
        m = k
        for i in range(k + 1, n):
            if W[m] < W[i]:
                m = i
        if k != m:
            W[m], W[k] = W[k], W[m]
            V[m], V[k] = V[k], V[m]
    return W, V


def _fit_line_wods_3d(pts, w):
    """The weighted least-squares 3-d line in float32, as cv2's fitLine3D_wods."""
    f = _f32
    x2 = y2 = z2 = xy = yz = xz = x0 = y0 = z0 = w0 = 0.0
    for i, (x, y, z) in enumerate(pts):
        if w is None:
            x2, xy, xz = f(x2 + f(x * x)), f(xy + f(x * y)), f(xz + f(x * z))
            y2, yz, z2 = f(y2 + f(y * y)), f(yz + f(y * z)), f(z2 + f(z * z))
            x0, y0, z0 = f(x0 + x), f(y0 + y), f(z0 + z)
        else:
            wi = w[i]
            x2, xy, xz = f(x2 + f(f(x * x) * wi)), f(xy + f(f(x * y) * wi)), f(xz + f(f(x * z) * wi))
            y2, yz, z2 = f(y2 + f(f(y * y) * wi)), f(yz + f(f(y * z) * wi)), f(z2 + f(f(z * z) * wi))
            x0, y0, z0 = f(x0 + f(x * wi)), f(y0 + f(y * wi)), f(z0 + f(z * wi))
            w0 = f(w0 + wi)
    if w is None:
        w0 = f(float(len(pts)))
    x2, xy, xz, y2, yz, z2 = (f(v / w0) for v in (x2, xy, xz, y2, yz, z2))
    x0, y0, z0 = f(x0 / w0), f(y0 / w0), f(z0 / w0)
    dx2, dxy, dxz = f(x2 - f(x0 * x0)), f(xy - f(x0 * y0)), f(xz - f(x0 * z0))
    dy2, dyz, dz2 = f(y2 - f(y0 * y0)), f(yz - f(y0 * z0)), f(z2 - f(z0 * z0))
    det = [[f(dz2 + dy2), -dxy, -dxz], [-dxy, f(dx2 + dz2), -dyz], [-dxz, -dyz, f(dy2 + dx2)]]
    evl, evc = _jacobi_eigen_f32(det)
    i = (0 if evl[0] < evl[2] else 2) if evl[0] < evl[1] else (1 if evl[1] < evl[2] else 2)
    v = evc[i]
    nrm = f(math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]))
    nrm = f(max(nrm, 1e-6))
    return [f(v[0] / nrm), f(v[1] / nrm), f(v[2] / nrm), x0, y0, z0]


def _dist3d(pts, line):
    f = _f32
    px, py, pz = line[3], line[4], line[5]
    vx, vy, vz = line[0], line[1], line[2]
    r, total = [], 0.0
    for x, y, z in pts:
        x, y, z = f(x - px), f(y - py), f(z - pz)
        p1 = f(f(vy * z) - f(vz * y))
        p2 = f(f(vz * x) - f(vx * z))
        p3 = f(f(vx * y) - f(vy * x))
        d = f(math.sqrt(p1 * p1 + p2 * p2 + p3 * p3))
        r.append(d)
        total += d
    return r, total


def _fit_line_3d(pts, dist, param, reps, aeps):
    if dist == DIST_L2:
        return _fit_line_wods_3d(pts, None)
    f = _f32
    count = len(pts)
    eps_total = count * _FLT_EPSILON
    rdelta = reps if reps != 0 else 1.0
    adelta = aeps if aeps != 0 else 0.01
    min_err, err = _DBL_MAX, 0.0
    rng = _CvRng()
    best = [0.0] * 6
    for _ in range(20):
        first = True
        w = [0.0] * count
        i = 0
        while i < min(count, 10):
            j = rng.uniform(0, count)
            if w[j] < _FLT_EPSILON:
                w[j] = 1.0
                i += 1
        line = _fit_line_wods_3d(pts, w)
        prev = [0.0] * 6
        for _ in range(30):
            if first:
                first = False
            else:
                t = f(f(f(line[0] * prev[0]) + f(line[1] * prev[1])) + f(line[2] * prev[2]))
                t = min(max(t, -1.0), 1.0)
                if abs(math.acos(t)) < adelta:
                    x, y, z = f(line[3] - prev[3]), f(line[4] - prev[4]), f(line[5] - prev[5])
                    ax, ay, az = f(line[0] - prev[0]), f(line[1] - prev[1]), f(line[2] - prev[2])
                    dx = abs(f(f(y * az) - f(z * ay)))
                    dy = abs(f(f(z * ax) - f(x * az)))
                    dz = abs(f(f(x * ay) - f(y * ax)))
                    if max(dx, dy, dz) < rdelta:
                        break
            r, err = _dist3d(pts, line)
            if err < min_err:
                min_err = err
                best = line[:]
                if err < eps_total:
                    break
            w = _weights(dist, r, param)
            sw = sum(w)
            if abs(sw) > _FLT_EPSILON:
                sw = 1.0 / sw
                w = [f(v * sw) for v in w]
            else:
                w = [1.0] * count
            prev = line
            line = _fit_line_wods_3d(pts, w)
        if err < min_err:
            min_err = err
            best = line[:]
            if err < eps_total:
                break
    return best


def fitLine(points, distType, param, reps, aeps, line=None):
    """cv2.fitLine: (4, 1) float32 (vx, vy, x0, y0) for 2-d points, (6, 1) (vx, vy, vz, x0, y0, z0)
    for 3-d ones. DIST_L2 is the direct least-squares fit (3-d: cv2's float32 Jacobi eigenvector);
    the other distances run cv2's iteratively reweighted fit from its fixed-seed random starts,
    so the answer is cv2's."""
    fn = "fitLine"
    a = as_image(_listify(points, 2), fn, "points")
    dt = str(a.dtype)
    n2, n3 = _check_vector(a, 2), _check_vector(a, 3)
    if n2 < 0 and n3 < 0:
        raise fail(fn, f"'points' must be a vector of 2-d or 3-d points, got shape {tuple(a.shape)} "
                       f"(cv2: npoints2 >= 0 || npoints3 >= 0)")
    if dt not in ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64"):
        raise fail(fn, f"unsupported depth {dt}")
    dist = int(distType)
    if dist not in (DIST_L2, DIST_L1, DIST_L12, DIST_FAIR, DIST_WELSCH, DIST_HUBER):
        raise fail(fn, f"Unknown distance type {dist}")
    if (n2 if n2 >= 0 else n3) == 0:
        raise fail(fn, "count > 0 (the point set is empty)")
    vals = [_f32(float(v)) for v in _flat(a)]
    param, reps, aeps = _f32(float(param)), _f32(float(reps)), _f32(float(aeps))
    if n2 >= 0:
        res = _fit_line_2d(vals[0::2], vals[1::2], n2, dist, param, reps, aeps)
        return _new(res, "float32", (4, 1))
    res = _fit_line_3d([vals[i * 3:i * 3 + 3] for i in range(n3)], dist, param, reps, aeps)
    return _new(res, "float32", (6, 1))


# ---------------------------------------------------------------------------------------------
# moments-based shape matching


def _hu(m):
    nu20, nu11, nu02 = m["nu20"], m["nu11"], m["nu02"]
    nu30, nu21, nu12, nu03 = m["nu30"], m["nu21"], m["nu12"], m["nu03"]
    t0, t1 = nu30 + nu12, nu21 + nu03
    q0, q1 = t0 * t0, t1 * t1
    n4 = 4 * nu11
    s, d = nu20 + nu02, nu20 - nu02
    hu = [0.0] * 7
    hu[0] = s
    hu[1] = d * d + n4 * nu11
    hu[3] = q0 + q1
    hu[5] = d * (q0 - q1) + n4 * t0 * t1
    t0 *= q0 - 3 * q1
    t1 *= 3 * q0 - q1
    q0 = nu30 - 3 * nu12
    q1 = 3 * nu21 - nu03
    hu[2] = q0 * q0 + q1 * q1
    hu[4] = q0 * t0 + q1 * t1
    hu[6] = q1 * t0 - q0 * t1
    return hu


def HuMoments(m, hu=None):
    """cv2.HuMoments: the 7 invariants (7, 1) float64 of a cv2.moments dict."""
    fn = "HuMoments"
    try:
        keys = ("nu20", "nu11", "nu02", "nu30", "nu21", "nu12", "nu03")
        mm = {k: float(m[k]) for k in keys}
    except (TypeError, KeyError, IndexError, ValueError) as e:
        raise TypeError(f"[mnn.cv.{fn}] 'm' must be a moments dict (as cv2.moments returns)") from e
    return _new(_hu(mm), "float64", (7, 1))


def _sign(v):
    return 1 if v > 0 else -1 if v < 0 else 0


def matchShapes(contour1, contour2, method, parameter):
    """cv2.matchShapes: the I1/I2/I3 distance between the log-scaled Hu moments of two
    contours or grayscale images."""
    fn = "matchShapes"
    method = int(method)
    if method not in (1, 2, 3):
        raise fail(fn, f"Unknown comparison method {method}")
    ma = _hu(_moments(contour1))
    mb = _hu(_moments(contour2))
    eps = 1e-5
    result = 0.0
    any_a = any_b = False
    for i in range(7):
        ama, amb = abs(ma[i]), abs(mb[i])
        any_a = any_a or ama > 0
        any_b = any_b or amb > 0
        if ama > eps and amb > eps:
            la, lb = _sign(ma[i]) * math.log10(ama), _sign(mb[i]) * math.log10(amb)
            if method == 1:
                result += abs(-(1.0 / la) + 1.0 / lb)
            elif method == 2:
                result += abs(-la + lb)
            else:
                mmm = abs((la - lb) / la)
                if result < mmm:
                    result = mmm
    if any_a != any_b:
        result = _DBL_MAX
    return result


# ---------------------------------------------------------------------------------------------
# convexity


def _i32(v):
    return (v + 0x80000000) % 0x100000000 - 0x80000000


def isContourConvex(contour):
    """cv2.isContourConvex: whether every turn of the closed polygon has the same sense
    (int arithmetic for int32 points, float32 for float32 ones, as cv2)."""
    fn = "isContourConvex"
    vals, n, dt = _points(contour, fn, 2, "contour")
    if n == 0:
        return False
    if dt == "float32":
        def mul(p, q):
            return _f32(p * q)

        def sub(p, q):
            return _f32(p - q)
    else:
        def mul(p, q):
            return _i32(p * q)

        def sub(p, q):
            return _i32(p - q)
    pts = _pairs(vals)
    prev = pts[(n - 2 + n) % n]
    cur = pts[n - 1]
    dx0, dy0 = sub(cur[0], prev[0]), sub(cur[1], prev[1])
    orientation = 0
    for i in range(n):
        prev, cur = cur, pts[i]
        dx, dy = sub(cur[0], prev[0]), sub(cur[1], prev[1])
        dxdy0, dydx0 = mul(dx, dy0), mul(dy, dx0)
        orientation |= 1 if dydx0 > dxdy0 else (2 if dydx0 < dxdy0 else 3)
        if orientation == 3:
            return False
        dx0, dy0 = dx, dy
    return True


def convexityDefects(contour, convexhull, convexityDefects=None):
    """cv2.convexityDefects: (K, 4) int32 (start, end, farthest point index, depth * 256)
    for each hull edge with contour points off it; None where there are none."""
    fn = "convexityDefects"
    vals, npoints, _ = _points(contour, fn, 2, "contour", depths=("int32",))
    if npoints <= 3:
        return None
    h = as_image(convexhull, fn, "convexhull")
    hpoints = _check_vector(h, 1)
    if hpoints <= 0 or str(h.dtype) != "int32":
        raise fail(fn, f"'convexhull' must be a non-empty int32 index vector, got {h.dtype} array of shape "
                       f"{tuple(h.shape)} (cv2: hpoints > 0)")
    if hpoints < 3:
        return None
    hull = [int(v) for v in _flat(h)]
    pts = _pairs(vals)
    rev = ((hull[1] > hull[0]) + (hull[2] > hull[1]) + (hull[0] > hull[2])) != 2
    hcurr = hull[0 if rev else hpoints - 1]
    if not 0 <= hcurr < npoints:
        raise fail(fn, f"hull index {hcurr} out of range (0 <= hcurr && hcurr < npoints)")
    out = []
    increasing = -1
    for i in range(hpoints):
        hnext = hull[hpoints - i - 1 if rev else i]
        if not 0 <= hnext < npoints:
            raise fail(fn, f"hull index {hnext} out of range (0 <= hnext && hnext < npoints)")
        # cv2 5 refuses hulls whose indices do not run one way (the closing edge the other way)
        if increasing < 0:
            increasing = int(not hcurr < hnext)
        elif increasing != int(hcurr < hnext):
            raise fail(fn, "The convex hull indices are not monotonous, which can be in the case when the input "
                           "contour contains self-intersections")
        x0, y0 = pts[hcurr]
        dx0, dy0 = float(pts[hnext][0] - x0), float(pts[hnext][1] - y0)
        scale = 0.0 if dx0 == 0 and dy0 == 0 else 1.0 / math.sqrt(dx0 * dx0 + dy0 * dy0)
        deepest, depth = -1, 0.0
        j = hcurr
        while True:
            j += 1
            if j >= npoints:
                j = 0
            if j == hnext:
                break
            dist = abs(-dy0 * (pts[j][0] - x0) + dx0 * (pts[j][1] - y0)) * scale
            if dist > depth:
                depth, deepest = dist, j
        if deepest >= 0:
            out.extend((hcurr, hnext, deepest, int(round(depth * 256))))
        hcurr = hnext
    if not out:
        return None
    return _new(out, "int32", (len(out) // 4, 4))  # cv2 5 hands the Vec4i list back as (K, 4)


# ---------------------------------------------------------------------------------------------
# polygon intersections


def _rect_arg(r, fn, name):
    try:
        (cx, cy), (w, h), ang = r
        return (float(cx), float(cy)), (float(w), float(h)), float(ang)
    except (TypeError, ValueError) as e:
        raise TypeError(f"[mnn.cv.{fn}] '{name}' must be a rotated rectangle ((cx, cy), (w, h), angle)") from e


def _rect_intersection(pts1, pts2, area1, area2):
    """cv2's _rotatedRectangleIntersection on two corner lists (float32 values)."""
    f = _f32
    same_eps = f(f(1e-6) * max(area1, area2))
    if all(abs(f(pts1[i][0] - pts2[i][0])) <= same_eps and abs(f(pts1[i][1] - pts2[i][1])) <= same_eps
           for i in range(4)):
        return INTERSECT_FULL, list(pts1)
    vec1 = [(f(pts1[(i + 1) % 4][0] - pts1[i][0]), f(pts1[(i + 1) % 4][1] - pts1[i][1])) for i in range(4)]
    vec2 = [(f(pts2[(i + 1) % 4][0] - pts2[i][0]), f(pts2[(i + 1) % 4][1] - pts2[i][1])) for i in range(4)]
    for v in vec1 + vec2:
        same_eps = min(same_eps, f(math.sqrt(f(f(v[0] * v[0]) + f(v[1] * v[1])))))
    same_eps = max(f(1e-16), same_eps)
    inter = []
    for i in range(4):
        for j in range(4):
            x21, y21 = f(pts2[j][0] - pts1[i][0]), f(pts2[j][1] - pts1[i][1])
            vx1, vy1 = vec1[i]
            vx2, vy2 = vec2[j]
            det = f(f(vx2 * vy1) - f(vx1 * vy2))
            if abs(det) < 1e-12:
                continue
            inv = f(1.0 / det)
            t1 = f(f(f(vx2 * y21) - f(vy2 * x21)) * inv)
            t2 = f(f(f(vx1 * y21) - f(vy1 * x21)) * inv)
            if not (math.isfinite(t1) and math.isfinite(t2)):
                continue
            if 0.0 <= t1 <= 1.0 and 0.0 <= t2 <= 1.0:
                inter.append((f(pts1[i][0] + f(vx1 * t1)), f(pts1[i][1] + f(vy1 * t1))))
    ret = INTERSECT_PARTIAL if inter else INTERSECT_FULL

    def positive(vec, lp, p):
        return f(vec[1] * f(lp[0] - p[0])) >= f(vec[0] * f(lp[1] - p[1]))

    for pa, vb, pb in ((pts1, vec2, pts2), (pts2, vec1, pts1)):
        for i in range(4):
            pos = sum(1 for j in range(4) if positive(vb[j], pb[j], pa[i]))
            if pos == 4 or pos == 0:
                inter.append(pa[i])
    n = len(inter)
    if n == 0:
        return INTERSECT_NONE, []
    # drop near-duplicates: a later point within same_eps (squared distance) of an earlier one
    # is replaced by the last point, as cv2 does
    dist = {}
    remap = list(range(n))
    i = 0
    while i < n:
        p0 = inter[i]
        remap[i] = i
        j = i + 1
        while j < n:
            p1 = inter[j]
            dx, dy = f(p1[0] - p0[0]), f(p1[1] - p0[1])
            d2 = f(f(dx * dx) + f(dy * dy))
            if d2 <= same_eps:
                if j < n - 1:
                    inter[j] = inter[n - 1]
                n -= 1
                continue
            dist[(i, j)] = d2
            j += 1
        i += 1
    while n > 8:
        mi, mj = 0, 1
        md = dist.get((0, 1), 0.0)
        for i in range(n - 1):
            for j in range(i + 1, n):
                dd = dist.get((remap[i], remap[j]), 0.0)
                if dd < md:
                    md, mi, mj = dd, i, j
        if mj < n - 1:
            inter[mj] = inter[n - 1]
            remap[mj] = remap[n - 1]
        n -= 1
    inter = inter[:n]
    for i in range(n - 1):
        di = (f(inter[i + 1][0] - inter[i][0]), f(inter[i + 1][1] - inter[i][1]))
        for j in range(i + 2, n):
            dj = (f(inter[j][0] - inter[i][0]), f(inter[j][1] - inter[i][1]))
            if di[0] * dj[1] - di[1] * dj[0] < 0:  # Point2f::cross is double
                inter[i + 1], inter[j] = inter[j], inter[i + 1]
                di = dj
    return ret, inter


def rotatedRectangleIntersection(rect1, rect2, intersectingRegion=None):
    """cv2.rotatedRectangleIntersection: (INTERSECT_NONE / PARTIAL / FULL, the intersection's
    vertices as (K, 1, 2) float32 or None), in cv2's order."""
    fn = "rotatedRectangleIntersection"
    (c1x, c1y), (w1, h1), a1 = _rect_arg(rect1, fn, "rect1")
    (c2x, c2y), (w2, h2), a2 = _rect_arg(rect2, fn, "rect2")
    f = _f32
    w1, h1, w2, h2 = f(w1), f(h1), f(w2), f(h2)
    if w1 <= 0 or h1 <= 0 or w2 <= 0 or h2 <= 0:
        return INTERSECT_NONE, None
    c1x, c1y, c2x, c2y = f(c1x), f(c1y), f(c2x), f(c2y)
    ax, ay = f(f(c1x + c2x) / 2), f(f(c1y + c2y) / 2)
    corners = []
    for cx, cy, w, h, ang in ((f(c1x - ax), f(c1y - ay), w1, h1, a1), (f(c2x - ax), f(c2y - ay), w2, h2, a2)):
        v = _flat(_box_points(((cx, cy), (w, h), ang)))
        corners.append(_pairs(v))
    ret, inter = _rect_intersection(corners[0], corners[1], f(w1 * h1), f(w2 * h2))
    if ret == INTERSECT_NONE:
        return ret, None
    flat = []
    for x, y in inter:
        flat.extend((f(x + ax), f(y + ay)))
    return ret, _new(flat, "float32", (len(inter), 2))


# O'Rourke's convex polygon intersection ("Computational Geometry in C", ch. 7), as cv2 runs it


def _area_sign(a, b, c):
    area2 = _f32(b[0] - a[0]) * _f32(c[1] - a[1]) - _f32(c[0] - a[0]) * _f32(b[1] - a[1])
    return 1 if area2 > 1e-5 else -1 if area2 < -1e-5 else 0


def _between(a, b, c):
    if a[0] != b[0]:
        return (a[0] <= c[0] <= b[0]) or (a[0] >= c[0] >= b[0])
    return (a[1] <= c[1] <= b[1]) or (a[1] >= c[1] >= b[1])


def _parallel_int(a, b, c, d):
    if _area_sign(a, b, c) != 0:
        return 0, None, None
    for (u, v), (p, q) in ((((a, b, c), (a, b, d)), (c, d)), (((c, d, a), (c, d, b)), (a, b)),
                           (((a, b, c), (c, d, b)), (c, b)), (((a, b, c), (c, d, a)), (c, a)),
                           (((a, b, d), (c, d, b)), (d, b)), (((a, b, d), (c, d, a)), (d, a))):
        if _between(*u) and _between(*v):
            return 2, p, q
    return 0, None, None


def _segment_int(a, b, c, d):
    """cv2 5's intersectLineSegments: differences in double, exact end tests."""
    denom = (a[0] - b[0]) * (d[1] - c[1]) - (a[1] - b[1]) * (d[0] - c[0])
    if denom == 0.0:
        return _parallel_int(a, b, c, d)
    num = (d[1] - a[1]) * (a[0] - c[0]) + (a[0] - d[0]) * (a[1] - c[1])
    s = num / denom
    num = (b[1] - a[1]) * (a[0] - c[0]) + (c[1] - a[1]) * (b[0] - a[0])
    t = num / denom
    p = (_f32(a[0] + s * (b[0] - a[0])), _f32(a[1] + s * (b[1] - a[1])))
    if s < 0.0 or s > 1.0 or t < 0.0 or t > 1.0:
        code = 0
    elif s == 0.0 or s == 1.0 or t == 0.0 or t == 1.0:
        code = 3
    else:
        code = 1
    return code, p, p


def _convex_convex(P, Q):
    """(vertices, signed area) of cv2's intersectConvexConvex_, or (None, -1) on overflow."""
    n, m = len(P), len(Q)
    limit = n + m + 1
    res = [(_FLT_MAX, _FLT_MAX)]
    a = b = aa = ba = 0
    inflag = "U"
    first = True

    def advance(idx, cnt, size, inside, v):
        if inside and v != res[-1]:
            res.append(v)
        return (idx + 1) % size, cnt + 1

    while True:
        a1, b1 = (a + n - 1) % n, (b + m - 1) % m
        A = (_f32(P[a][0] - P[a1][0]), _f32(P[a][1] - P[a1][1]))
        B = (_f32(Q[b][0] - Q[b1][0]), _f32(Q[b][1] - Q[b1][1]))
        cross = _area_sign((0.0, 0.0), A, B)
        aHB = _area_sign(Q[b1], Q[b], P[a])
        bHA = _area_sign(P[a1], P[a], Q[b])
        code, p, q = _segment_int(P[a1], P[a], Q[b1], Q[b])
        if code in (1, 3):
            if inflag == "U" and first:
                aa = ba = 0
                first = False
                res.append(p)
            if p != res[-1]:
                res.append(p)
            inflag = "P" if aHB > 0 else "Q" if bHA > 0 else inflag
        if code == 2 and A[0] * B[0] + A[1] * B[1] < 0:
            if p != res[-1]:
                res.append(p)
            if q != res[-1]:
                res.append(q)
            break
        if cross == 0 and aHB < 0 and bHA < 0:
            break
        elif cross == 0 and aHB == 0 and bHA == 0:
            if inflag == "P":
                b, ba = advance(b, ba, m, inflag == "Q", Q[b])
            else:
                a, aa = advance(a, aa, n, inflag == "P", P[a])
        elif cross >= 0:
            if bHA > 0:
                a, aa = advance(a, aa, n, inflag == "P", P[a])
            else:
                b, ba = advance(b, ba, m, inflag == "Q", Q[b])
        else:
            if aHB > 0:
                b, ba = advance(b, ba, m, inflag == "Q", Q[b])
            else:
                a, aa = advance(a, aa, n, inflag == "P", P[a])
        if not (((aa < n) or (ba < m)) and aa < 2 * n and ba < 2 * m and len(res) <= limit):
            break
    nr = len(res)
    if nr > limit:
        return None, -1.0
    area = 0.0
    prev = res[nr - 1]
    for i in range(1, nr):
        area += prev[0] * res[i][1] - prev[1] * res[i][0]
        prev = res[i]
    out = res[1:]
    if out and out[-1] == out[0]:  # the polygon closed on its first point (one point: nothing)
        out = out[:-1]
    return out, _f32(area * 0.5)


def _inside_or_on(poly, p):
    """pointPolygonTest(poly, p, false) >= 0 for a float32 polygon."""
    from ._structure import pointPolygonTest
    flat = [v for q in poly for v in q]
    return pointPolygonTest(_new(flat, "float32", (len(poly), 1, 2)), p, False) >= 0


def _contour_area(poly):
    area = 0.0
    n = len(poly)
    if n < 3:
        return 0.0
    px, py = poly[n - 1]
    for x, y in poly:
        area += px * y - x * py
        px, py = x, y
    return area * 0.5


def intersectConvexConvex(p1, p2, p12=None, handleNested=True):
    """cv2.intersectConvexConvex: (area, the intersection polygon (K, 1, 2) float32 or None)
    of two convex polygons; nested polygons count when handleNested."""
    fn = "intersectConvexConvex"
    polys = []
    orientation = 0
    for name, src in (("p1", p1), ("p2", p2)):
        vals, cnt, _ = _points(src, fn, 2, name)
        polys.append([(_f32(float(x)), _f32(float(y))) for x, y in _pairs(vals)])
    if len(polys[0]) < 2 or len(polys[1]) < 2:
        return 0.0, None
    for k in range(2):
        pts = polys[k]
        ln = len(pts)
        d0 = (_f32(pts[0][0] - pts[ln - 1][0]), _f32(pts[0][1] - pts[ln - 1][1]))
        for i in range(1, ln):
            di = (_f32(pts[i][0] - pts[i - 1][0]), _f32(pts[i][1] - pts[i - 1][1]))
            s = d0[0] * di[1] - d0[1] * di[0]  # Point2f::cross is double
            if s != 0:
                if s < 0:
                    orientation += 1
                    polys[k] = pts[::-1]
                break
    P, Q = polys
    res, area = _convex_convex(P, Q)
    if res is None:
        return -1.0, None
    if len(res) == 0:
        if not handleNested:
            return 0.0, None
        if all(_inside_or_on(P, q) for q in Q):
            res = Q
        elif all(_inside_or_on(Q, p) for p in P):
            res = P
        else:
            return 0.0, None
        area = _contour_area(res)
    if orientation == 2:
        res = res[::-1]
    flat = [v for p in res for v in p]
    return float(_f32(abs(area))), _new(flat, "float32", (len(res), 1, 2))
