"""Point-set geometry that face-alignment, OCR-rectification and shape-matching code calls:
perspectiveTransform, transform, convertPointsTo/FromHomogeneous, Rodrigues, HuMoments,
matchShapes, isContourConvex and convexityDefects, with cv2's signatures, constants, array forms
and results (fitLine is in _fitline.py, the polygon intersections in _polyclip.py; the array-form
helpers here serve them and _calib.py too).

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
from ._structure import moments as _moments

__all__ = [
    "perspectiveTransform", "transform", "convertPointsToHomogeneous", "convertPointsFromHomogeneous",
    "Rodrigues", "HuMoments", "matchShapes", "isContourConvex", "convexityDefects",
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


def _fill(out, r):
    """cv2's output argument: `out` (numpy or mnn) receives `r` and is returned when it already has
    r's shape and dtype; otherwise r is returned and `out` is left alone. (The public wrapper does
    this for single results; these functions return tuples or name their outputs otherwise.)"""
    if out is None or r is None or not hasattr(out, "shape") or not hasattr(r, "shape"):
        return r
    if tuple(out.shape) != tuple(r.shape) or str(out.dtype) != str(r.dtype):
        return r
    if isinstance(out, _np.ndarray):
        out[...] = r
    else:
        import numpy
        out[...] = numpy.asarray(r)
    return out


def _pairs(vals):
    return list(zip(vals[0::2], vals[1::2]))


def _as_float_matrix(m, fn, name="m"):
    """A 2-d matrix argument as (rows, cols, list of row lists of floats); cv2 converts any
    numeric matrix to float."""
    if m is None:
        raise fail(fn, f"'{name}' is None")
    a = as_image(m, fn, name)
    d = _cv_dims(a)
    if d is None or d[2] != 1:
        raise fail(fn, f"'{name}' must be a single-channel 2-d matrix, got shape {tuple(a.shape)}")
    if str(a.dtype) not in ("float32", "float64", "uint8", "int8", "uint16", "int16", "int32", "float16"):
        raise fail(fn, f"'{name}' must be a numeric matrix, got {a.dtype}")
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
        return _fill(dst, _new(R, dt, (3, 3))), _fill(jacobian, _new(J, dt, (3, 9)))
    # matrix -> vector
    if any(not (-100 <= x < 100) for x in v):  # cv2's checkRange: NaN or out of range gives zeros
        return _fill(dst, _new([0.0] * 3, dt, (3, 1))), _fill(jacobian, _new([0.0] * 27, dt, (9, 3)))
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
    return _fill(dst, _new([rx, ry, rz], dt, (3, 1))), _fill(jacobian, _new(jt, dt, (9, 3)))


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
    return _fill(hu, _new(_hu(mm), "float64", (7, 1)))


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
    # cv2 5 hands the Vec4i list back as (K, 4)
    return _fill(convexityDefects, _new(out, "int32", (len(out) // 4, 4)))
