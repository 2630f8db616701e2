"""Camera-model functions pose and undistortion code calls: findHomography, projectPoints,
undistortPoints, initUndistortRectifyMap, undistort and getOptimalNewCameraMatrix, with cv2's
signatures, array forms and results.

The pinhole + Brown-Conrady model (k1, k2, p1, p2[, k3[, k4, k5, k6[, s1..s4]]]) is evaluated in
double exactly as cv2 writes it; per-pixel maps are mnn.numpy expressions. findHomography's
robust estimators follow cv2's registrators step by step (its fixed-seed RNG, its float32 error
test), so inlier masks are cv2's; the final Levenberg-Marquardt polish is run to convergence,
which is what cv2's 10 steps reach on a well-posed problem. Written from reading OpenCV's
geometry module; none of its code is copied.
"""
import math

from .. import numpy as _np
from ._common import as_image, fail
from ._common import f32 as _f32
from ._points import _check_vector, _cv_dims, _fill, _flat, _new, _listify
from . import _robust_fit
from ._robust import _CvRng, _collinear_last, _update_iters

__all__ = [
    "findHomography", "projectPoints", "undistortPoints", "initUndistortRectifyMap", "undistort",
    "getOptimalNewCameraMatrix", "RANSAC", "LMEDS", "RHO", "CV_16SC2", "CV_32FC1", "CV_32FC2",
    "TERM_CRITERIA_COUNT", "TERM_CRITERIA_EPS", "TERM_CRITERIA_MAX_ITER",
]

LMEDS, RANSAC, RHO = 4, 8, 16
CV_16SC2, CV_32FC1, CV_32FC2 = 35, 5, 37  # cv2 5 type codes (channels shifted by 5 bits)
TERM_CRITERIA_COUNT = TERM_CRITERIA_MAX_ITER = 1
TERM_CRITERIA_EPS = 2
_DBL_EPSILON = 2.220446049250313e-16
_FLT_EPSILON = 1.1920928955078125e-07


# ---------------------------------------------------------------------------------------------
# argument forms


def _matrix(m, fn, name, shape=None, allow_none=False):
    """A float matrix argument as a list of row lists of Python floats."""
    if m is None:
        if allow_none:
            return None
        raise fail(fn, f"'{name}' is None")
    a = as_image(m, fn, name)
    if a.size == 0 and allow_none:
        return None
    d = _cv_dims(a)
    if d is None or d[2] != 1 or str(a.dtype) not in ("float32", "float64", "int32", "uint8", "int16", "uint16"):
        raise fail(fn, f"'{name}' must be a single-channel numeric matrix, got {a.dtype} array of shape {tuple(a.shape)}")
    rows, cols = d[0], d[1]
    if shape is not None and (rows, cols) not in shape:
        raise fail(fn, f"'{name}' must be {' or '.join(f'{r}x{c}' for r, c in shape)}, got {rows}x{cols}")
    v = [float(x) for x in _flat(a)]
    return [v[r * cols:(r + 1) * cols] for r in range(rows)]


def _dist_coeffs(d, fn):
    """cv2's distortion vector as 14 doubles (zeros where not given) and the count given."""
    k = [0.0] * 14
    if d is None:
        return k, 0
    a = as_image(d, fn, "distCoeffs")
    if a.size == 0:
        return k, 0
    n = a.size
    dims = _cv_dims(a)
    if dims is None or not (dims[0] == 1 or dims[1] == 1) or n not in (4, 5, 8, 12, 14):
        raise fail(fn, f"distCoeffs must be a vector of 4, 5, 8, 12 or 14 elements, got shape {tuple(a.shape)}")
    v = [float(x) for x in _flat(a)]
    k[:n] = v
    if k[12] != 0 or k[13] != 0:
        raise fail(fn, "tilted-sensor distortion (tauX, tauY != 0) is not supported by mnn.cv")
    return k, n


def _camera(K, fn, name="cameraMatrix"):
    return _matrix(K, fn, name, shape=((3, 3),))


def _points2(src, fn, name, depths=("float32", "float64")):
    """(xs, ys, count, dtype) of a 2-d point vector (N x 2, N x 1 x 2, 1 x N x 2, or 2 x N)."""
    a = as_image(_listify(src, 2), fn, name)
    dt = str(a.dtype)
    n = _check_vector(a, 2)
    if n < 0 and a.ndim == 2 and a.shape[0] == 2:  # cv2 transposes a 2 x N matrix
        a = a.T
        n = a.shape[0]
    if n < 0 or dt not in depths:
        raise fail(fn, f"'{name}' must be a vector of 2-d points ({' or '.join(depths)}), got {dt} array of shape "
                       f"{tuple(a.shape)}")
    v = _flat(a)
    return v[0::2], v[1::2], n, dt


def _distort(x, y, k):
    """cv2's forward distortion of normalised coordinates: (x'', y'')."""
    r2 = x * x + y * y
    r4 = r2 * r2
    r6 = r4 * r2
    a1, a2, a3 = 2 * x * y, r2 + 2 * x * x, r2 + 2 * y * y
    cdist = 1 + k[0] * r2 + k[1] * r4 + k[4] * r6
    icdist2 = 1.0 / (1 + k[5] * r2 + k[6] * r4 + k[7] * r6)
    xd = x * cdist * icdist2 + k[2] * a1 + k[3] * a2 + k[8] * r2 + k[9] * r4
    yd = y * cdist * icdist2 + k[2] * a3 + k[3] * a1 + k[10] * r2 + k[11] * r4
    return xd, yd


# ---------------------------------------------------------------------------------------------
# projectPoints


def _rotation(rvec, fn):
    """(R as 3x3 rows, dR/dr as 3 lists of 9) from a rotation vector or matrix."""
    from ._points import Rodrigues
    a = as_image(rvec, fn, "rvec")
    if str(a.dtype) not in ("float32", "float64"):
        a = a.astype("float64")
    if a.size == 9:
        # cv2 keeps the matrix but differentiates through its rotation vector
        R = [float(v) for v in _flat(a)]
        r, _ = Rodrigues(a.astype("float64").reshape(3, 3))
        _, J = Rodrigues(r)
        J = [float(v) for v in _flat(J)]
        return [R[0:3], R[3:6], R[6:9]], [J[0:9], J[9:18], J[18:27]]
    if a.size != 3:
        raise fail(fn, f"rvec must be a 3-element rotation vector or a 3x3 matrix, got shape {tuple(a.shape)}")
    R, J = Rodrigues(a.astype("float64").reshape(3, 1))
    R = [float(v) for v in _flat(R)]
    J = [float(v) for v in _flat(J)]
    return [R[0:3], R[3:6], R[6:9]], [J[0:9], J[9:18], J[18:27]]


def _vec3(t, fn, name):
    a = as_image(t, fn, name)
    if a.size != 3:
        raise fail(fn, f"'{name}' must have 3 elements, got shape {tuple(a.shape)}")
    return [float(v) for v in _flat(a)]


def _object_points(obj, fn):
    a = as_image(_listify(obj, 3), fn, "objectPoints")
    dt = str(a.dtype)
    n = _check_vector(a, 3)
    if n < 0 or dt not in ("float32", "float64"):
        raise fail(fn, f"objectPoints must be a vector of 3-d points (float32 or float64), got {dt} array of shape "
                       f"{tuple(a.shape)}")
    v = [float(x) for x in _flat(a)]
    return [v[i * 3:i * 3 + 3] for i in range(n)], dt


def _project(pts, R, dR, t, K, k, nd, aspect, want_jac):
    """cv2's projection of object points with its 2N x (10 + ndist) jacobian (rows of lists)."""
    fx, fy, cx, cy = K[0][0], K[1][1], K[0][2], K[1][2]
    fixed_aspect = aspect != 0
    if fixed_aspect:
        fx = fy * aspect
    out, jac = [], []
    for X in pts:
        Y = [R[i][0] * X[0] + R[i][1] * X[1] + R[i][2] * X[2] + t[i] for i in range(3)]
        z = 1.0 / Y[2] if Y[2] else 1.0
        x, y = Y[0] * z, Y[1] * z
        r2 = x * x + y * y
        r4 = r2 * r2
        r6 = r4 * r2
        a1, a2, a3 = 2 * x * y, r2 + 2 * x * x, r2 + 2 * y * y
        cdist = 1 + k[0] * r2 + k[1] * r4 + k[4] * r6
        icdist2 = 1.0 / (1 + k[5] * r2 + k[6] * r4 + k[7] * r6)
        xd = x * cdist * icdist2 + k[2] * a1 + k[3] * a2 + k[8] * r2 + k[9] * r4
        yd = y * cdist * icdist2 + k[2] * a3 + k[3] * a1 + k[10] * r2 + k[11] * r4
        out.append((xd * fx + cx, yd * fy + cy))
        if not want_jac:
            continue
        # d(xd, yd) / d(x, y)
        dcdist = 2 * (k[0] + 2 * k[1] * r2 + 3 * k[4] * r4)      # d cdist / d(r2) * 2
        dicd = -icdist2 * icdist2 * 2 * (k[5] + 2 * k[6] * r2 + 3 * k[7] * r4)
        dxd_dx = cdist * icdist2 + x * (dcdist * x * icdist2 + cdist * dicd * x) + k[2] * 2 * y + k[3] * 6 * x + \
            (k[8] + 2 * k[9] * r2) * 2 * x
        dxd_dy = x * (dcdist * y * icdist2 + cdist * dicd * y) + k[2] * 2 * x + k[3] * 2 * y + \
            (k[8] + 2 * k[9] * r2) * 2 * y
        dyd_dx = y * (dcdist * x * icdist2 + cdist * dicd * x) + k[2] * 2 * x + k[3] * 2 * y + \
            (k[10] + 2 * k[11] * r2) * 2 * x
        dyd_dy = cdist * icdist2 + y * (dcdist * y * icdist2 + cdist * dicd * y) + k[2] * 6 * y + k[3] * 2 * x + \
            (k[10] + 2 * k[11] * r2) * 2 * y
        # d(x, y) / dY
        dx_dY = (z, 0.0, -x * z)
        dy_dY = (0.0, z, -y * z)
        du_dY = [fx * (dxd_dx * dx_dY[i] + dxd_dy * dy_dY[i]) for i in range(3)]
        dv_dY = [fy * (dyd_dx * dx_dY[i] + dyd_dy * dy_dY[i]) for i in range(3)]
        rot_u, rot_v = [], []
        for j in range(3):
            if dR is None:
                rot_u.append(0.0)
                rot_v.append(0.0)
                continue
            d = dR[j]
            dY = [d[i * 3] * X[0] + d[i * 3 + 1] * X[1] + d[i * 3 + 2] * X[2] for i in range(3)]
            rot_u.append(sum(du_dY[i] * dY[i] for i in range(3)))
            rot_v.append(sum(dv_dY[i] * dY[i] for i in range(3)))
        if fixed_aspect:
            df_u, df_v = [0.0, xd * aspect], [0.0, yd]
        else:
            df_u, df_v = [xd, 0.0], [0.0, yd]
        # distortion columns: k1 k2 p1 p2 k3 k4 k5 k6 s1 s2 s3 s4 (tx ty)
        num = cdist * icdist2
        ddx = [x * r2 * icdist2, x * r4 * icdist2, a1, a2, x * r6 * icdist2,
               -x * num * icdist2 * r2, -x * num * icdist2 * r4, -x * num * icdist2 * r6, r2, r4, 0.0, 0.0, 0.0, 0.0]
        ddy = [y * r2 * icdist2, y * r4 * icdist2, a3, a1, y * r6 * icdist2,
               -y * num * icdist2 * r2, -y * num * icdist2 * r4, -y * num * icdist2 * r6, 0.0, 0.0, r2, r4, 0.0, 0.0]
        ncols = nd if nd else 5
        jac.append(rot_u + du_dY + df_u + [1.0, 0.0] + [fx * v for v in ddx[:ncols]])
        jac.append(rot_v + dv_dY + df_v + [0.0, 1.0] + [fy * v for v in ddy[:ncols]])
    return out, jac


def projectPoints(objectPoints, rvec, tvec, cameraMatrix, distCoeffs, imagePoints=None, jacobian=None, aspectRatio=0):
    """cv2.projectPoints: (image points (N, 1, 2) of the object points' depth, jacobian
    (2N, 10 + ndist) float64 over rvec, tvec, (fx, fy), (cx, cy) and the distortion)."""
    fn = "projectPoints"
    pts, dt = _object_points(objectPoints, fn)
    R, dR = _rotation(rvec, fn)
    t = _vec3(tvec, fn, "tvec")
    K = _camera(cameraMatrix, fn)
    k, nd = _dist_coeffs(distCoeffs, fn)
    out, jac = _project(pts, R, dR, t, K, k, nd, float(aspectRatio), True)
    n = len(pts)
    ncols = 10 + (nd if nd else 5)
    img = _new([v for p in out for v in p], dt, (n, 1, 2))
    return _fill(imagePoints, img), _fill(jacobian, _new([v for r in jac for v in r], "float64", (2 * n, ncols)))


# ---------------------------------------------------------------------------------------------
# undistortion


def _criteria(criteria, fn):
    if criteria is None:
        return TERM_CRITERIA_COUNT, 5, 0.01
    try:
        typ, count, eps = criteria
        return int(typ), int(count), float(eps)
    except (TypeError, ValueError) as e:
        raise TypeError(f"[mnn.cv.{fn}] criteria must be (type, maxCount, epsilon)") from e


def _undistort_one(u, v, K, k, nd, crit, RR):
    fx, fy, cx, cy = K[0][0], K[1][1], K[0][2], K[1][2]
    ifx, ify = 1.0 / fx, 1.0 / fy
    x, y = (u - cx) * ifx, (v - cy) * ify
    if nd:
        x0, y0 = x, y
        typ, max_count, eps = crit
        error = prev = 1.7976931348623157e308
        alpha = 1.0
        j = 0
        while True:
            if (typ & TERM_CRITERIA_COUNT) and j >= max_count:
                break
            if (typ & TERM_CRITERIA_EPS) and error < eps:
                break
            j += 1
            r2 = x * x + y * y
            icdist = (1 + ((k[7] * r2 + k[6]) * r2 + k[5]) * r2) / (1 + ((k[4] * r2 + k[1]) * r2 + k[0]) * r2)
            if icdist < 0:
                x, y = (u - cx) * ifx, (v - cy) * ify
                break
            dx = 2 * k[2] * x * y + k[3] * (r2 + 2 * x * x) + k[8] * r2 + k[9] * r2 * r2
            dy = k[2] * (r2 + 2 * y * y) + 2 * k[3] * x * y + k[10] * r2 + k[11] * r2 * r2
            nx = (1.0 - alpha) * x + alpha * (x0 - dx) * icdist
            ny = (1.0 - alpha) * y + alpha * (y0 - dy) * icdist
            if typ & TERM_CRITERIA_EPS:
                xd, yd = _distort(nx, ny, k)
                error = math.sqrt((xd * fx + cx - u) ** 2 + (yd * fy + cy - v) ** 2)
            if error > prev:
                alpha *= 0.5
            else:
                x, y = nx, ny
            prev = error
    if RR is not None:
        xx = RR[0][0] * x + RR[0][1] * y + RR[0][2]
        yy = RR[1][0] * x + RR[1][1] * y + RR[1][2]
        ww = 1.0 / (RR[2][0] * x + RR[2][1] * y + RR[2][2])
        x, y = xx * ww, yy * ww
    return x, y


def _mat3_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def _undistort_list(xs, ys, K, k, nd, R, P, crit):
    RR = None
    if R is not None or P is not None:
        RR = R if R is not None else [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]
        if P is not None:
            RR = _mat3_mul([row[:3] for row in P], RR)
    return [_undistort_one(u, v, K, k, nd, crit, RR) for u, v in zip(xs, ys)]


def undistortPoints(src, cameraMatrix, distCoeffs, dst=None, R=None, P=None, criteria=None):
    """cv2.undistortPoints: (N, 1, 2) ideal (normalised, or P's pixel) coordinates of observed
    pixel points, by cv2's fixed-point iteration (5 steps by default)."""
    fn = "undistortPoints"
    xs, ys, n, dt = _points2(src, fn, "src")
    K = _camera(cameraMatrix, fn)
    k, nd = _dist_coeffs(distCoeffs, fn)
    RR = _matrix(R, fn, "R", shape=((3, 3),), allow_none=True)
    PP = _matrix(P, fn, "P", shape=((3, 3), (3, 4)), allow_none=True)
    res = _undistort_list(xs, ys, K, k, nd, RR, PP, _criteria(criteria, fn))
    return _new([v for p in res for v in p], dt, (n, 1, 2))


def _inv3(m):
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if det == 0:
        return None
    s = 1.0 / det
    return [[(e * i - f * h) * s, (c * h - b * i) * s, (b * f - c * e) * s],
            [(f * g - d * i) * s, (a * i - c * g) * s, (c * d - a * f) * s],
            [(d * h - e * g) * s, (b * g - a * h) * s, (a * e - b * d) * s]]


def _undistort_maps(K, k, R, newK, w, h):
    """(u, v) float64 mnn arrays (h, w): the distorted source position of every output pixel."""
    ir = _inv3(_mat3_mul(newK, R))
    if ir is None:
        ir = [[0.0] * 3 for _ in range(3)]
    fx, fy, u0, v0 = K[0][0], K[1][1], K[0][2], K[1][2]
    jj = _np.arange(w, dtype="float64").reshape(1, w)
    ii = _np.arange(h, dtype="float64").reshape(h, 1)
    X = ii * ir[0][1] + ir[0][2] + jj * ir[0][0]
    Y = ii * ir[1][1] + ir[1][2] + jj * ir[1][0]
    W = ii * ir[2][1] + ir[2][2] + jj * ir[2][0]
    W = 1.0 / W
    x, y = X * W, Y * W
    x2, y2 = x * x, y * y
    r2 = x2 + y2
    xy2 = 2 * x * y
    kr = (1 + ((k[4] * r2 + k[1]) * r2 + k[0]) * r2) / (1 + ((k[7] * r2 + k[6]) * r2 + k[5]) * r2)
    u = fx * (x * kr + k[2] * xy2 + k[3] * (r2 + 2 * x2) + k[8] * r2 + k[9] * r2 * r2) + u0
    v = fy * (y * kr + k[2] * (r2 + 2 * y2) + k[3] * xy2 + k[10] * r2 + k[11] * r2 * r2) + v0
    return u, v


def _fixed_maps(u, v):
    """cv2's CV_16SC2 map pair from float positions: the position times 32 rounded to nearest
    (saturated to int), its integer part and its 5-bit fractions packed as (fy * 32 + fx)."""
    iu = _np.clip(_np.rint(u * 32.0), -2147483648.0, 2147483647.0).astype("int32")
    iv = _np.clip(_np.rint(v * 32.0), -2147483648.0, 2147483647.0).astype("int32")
    m1 = _np.stack([_np.clip(iu >> 5, -32768, 32767), _np.clip(iv >> 5, -32768, 32767)], axis=-1).astype("int16")
    m2 = ((iv & 31) * 32 + (iu & 31)).astype("uint16")
    return m1, m2


def _size(size, fn, name):
    try:
        w, h = (int(v) for v in size)
    except (TypeError, ValueError) as e:
        raise TypeError(f"[mnn.cv.{fn}] '{name}' must be (width, height)") from e
    return w, h


def initUndistortRectifyMap(cameraMatrix, distCoeffs, R, newCameraMatrix, size, m1type, map1=None, map2=None):
    """cv2.initUndistortRectifyMap: remap maps (CV_32FC1 pair, CV_32FC2 + None, or CV_16SC2 +
    uint16 fractions) taking the distorted image to the undistorted (and rectified) one."""
    fn = "initUndistortRectifyMap"
    K = _camera(cameraMatrix, fn)
    k, _ = _dist_coeffs(distCoeffs, fn)
    RR = _matrix(R, fn, "R", shape=((3, 3),), allow_none=True) or [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]
    w, h = _size(size, fn, "size")
    NK = _matrix(newCameraMatrix, fn, "newCameraMatrix", shape=((3, 3), (3, 4)), allow_none=True)
    if NK is None:
        NK = [row[:] for row in K]
        NK[0][2], NK[1][2] = (w - 1) * 0.5, (h - 1) * 0.5
    NK = [row[:3] for row in NK]
    m1type = int(m1type)
    if m1type not in (CV_16SC2, CV_32FC1, CV_32FC2):
        raise fail(fn, f"m1type must be CV_16SC2, CV_32FC1 or CV_32FC2, got {m1type}")
    if w <= 0 or h <= 0:
        raise fail(fn, f"size must be positive, got {(w, h)}")
    u, v = _undistort_maps(K, k, RR, NK, w, h)
    if m1type == CV_16SC2:
        m1, m2 = _fixed_maps(u, v)
    elif m1type == CV_32FC1:
        m1, m2 = u.astype("float32"), v.astype("float32")
    else:
        m1, m2 = _np.stack([u, v], axis=-1).astype("float32"), None
    return _fill(map1, m1), _fill(map2, m2)


def undistort(src, cameraMatrix, distCoeffs, dst=None, newCameraMatrix=None):
    """cv2.undistort: the image resampled through cv2's fixed-point undistortion maps (bilinear,
    constant 0 border)."""
    fn = "undistort"
    from ._geometry import remap
    img = as_image(src, fn, "src")
    if img.ndim not in (2, 3):
        raise fail(fn, f"expected a 2-d or 3-d image, got shape {tuple(img.shape)}")
    K = _camera(cameraMatrix, fn)
    k, _ = _dist_coeffs(distCoeffs, fn)
    NK = _matrix(newCameraMatrix, fn, "newCameraMatrix", shape=((3, 3),), allow_none=True) or K
    h, w = img.shape[0], img.shape[1]
    u, v = _undistort_maps(K, k, [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]], NK, w, h)
    m1, m2 = _fixed_maps(u, v)
    return remap(img, m1, m2, 1, borderMode=0)


def _undistort_rectangles(K, k, nd, P, w, h):
    """cv2 5's getUndistortRectangles: inscribed and bounding rectangles of an undistorted 9x9
    grid spanning the image's pixel centres (0 .. w-1), in double."""
    n = 9
    step_x, step_y = (w - 1) / float(n - 1), (h - 1) / float(n - 1)
    grid = [(x, y) for y in range(n) for x in range(n)]
    res = _undistort_list([x * step_x for x, _ in grid], [y * step_y for _, y in grid], K, k, nd, None, P,
                          (TERM_CRITERIA_COUNT, 5, 0.01))
    big = 3.4028234663852886e38
    ix0, ix1, iy0, iy1 = -big, big, -big, big
    ox0, ox1, oy0, oy1 = big, -big, big, -big
    for (x, y), (px, py) in zip(grid, res):
        ox0, ox1, oy0, oy1 = min(ox0, px), max(ox1, px), min(oy0, py), max(oy1, py)
        if x == 0:
            ix0 = max(ix0, px)
        if x == n - 1:
            ix1 = min(ix1, px)
        if y == 0:
            iy0 = max(iy0, py)
        if y == n - 1:
            iy1 = min(iy1, py)
    return (ix0, iy0, ix1 - ix0, iy1 - iy0), (ox0, oy0, ox1 - ox0, oy1 - oy0)


def _round_rect(r):
    return tuple(int(round(v)) for v in r)


def _intersect(r, w, h):
    x1, y1 = max(r[0], 0), max(r[1], 0)
    x2, y2 = min(r[0] + r[2], w), min(r[1] + r[3], h)
    if x2 <= x1 or y2 <= y1:
        return (0, 0, 0, 0)
    return (x1, y1, x2 - x1, y2 - y1)


def getOptimalNewCameraMatrix(cameraMatrix, distCoeffs, imageSize, alpha, newImgSize=None,
                              centerPrincipalPoint=False):
    """cv2.getOptimalNewCameraMatrix: (new 3x3 float64 camera matrix, valid pixel ROI (x, y, w, h))
    scaled between keeping only valid pixels (alpha 0) and keeping all source pixels (alpha 1)."""
    fn = "getOptimalNewCameraMatrix"
    K = _camera(cameraMatrix, fn)
    k, nd = _dist_coeffs(distCoeffs, fn)
    w, h = _size(imageSize, fn, "imageSize")
    nw, nh = (w, h) if newImgSize is None else _size(newImgSize, fn, "newImgSize")
    if nw <= 0 or nh <= 0:
        nw, nh = w, h
    alpha = float(alpha)
    M = [row[:] for row in K]
    if centerPrincipalPoint:
        cx0, cy0 = M[0][2], M[1][2]
        cx, cy = (nw - 1) * 0.5, (nh - 1) * 0.5
        inner, outer = _undistort_rectangles(K, k, nd, K, w, h)
        s0 = max(cx / (cx0 - inner[0]), cy / (cy0 - inner[1]), cx / (inner[0] + inner[2] - cx0),
                 cy / (inner[1] + inner[3] - cy0))
        s1 = min(cx / (cx0 - outer[0]), cy / (cy0 - outer[1]), cx / (outer[0] + outer[2] - cx0),
                 cy / (outer[1] + outer[3] - cy0))
        s = s0 * (1 - alpha) + s1 * alpha
        M[0][0] *= s
        M[1][1] *= s
        M[0][2], M[1][2] = cx, cy
        ix, iy = (inner[0] - cx0) * s + cx, (inner[1] - cy0) * s + cy
        iw, ih = inner[2] * s, inner[3] * s
        roi = (math.ceil(ix), math.ceil(iy), math.floor(iw), math.floor(ih))
    else:
        inner, outer = _undistort_rectangles(K, k, nd, None, w, h)
        fx0, fy0 = (nw - 1) / inner[2], (nh - 1) / inner[3]
        cx0, cy0 = -fx0 * inner[0], -fy0 * inner[1]
        fx1, fy1 = (nw - 1) / outer[2], (nh - 1) / outer[3]
        cx1, cy1 = -fx1 * outer[0], -fy1 * outer[1]
        M[0][0] = fx0 * (1 - alpha) + fx1 * alpha
        M[1][1] = fy0 * (1 - alpha) + fy1 * alpha
        M[0][2] = cx0 * (1 - alpha) + cx1 * alpha
        M[1][2] = cy0 * (1 - alpha) + cy1 * alpha
        inner, _ = _undistort_rectangles(K, k, nd, M, w, h)
        roi = _round_rect(inner)
    kt = str(as_image(cameraMatrix, fn, "cameraMatrix").dtype)
    return _new([v for r in M for v in r], "float32" if kt == "float32" else "float64", (3, 3)), \
        _intersect(roi, nw, nh)


# ---------------------------------------------------------------------------------------------
# findHomography


def _homography_dlt(src, dst):
    """cv2's normalised DLT: H (3x3 rows, H[2][2] = 1) from the eigenvector of the smallest
    eigenvalue of L^T L, or None for degenerate point sets."""
    n = len(src)
    cmx = sum(p[0] for p in dst) / n
    cmy = sum(p[1] for p in dst) / n
    cMx = sum(p[0] for p in src) / n
    cMy = sum(p[1] for p in src) / n
    smx = sum(abs(p[0] - cmx) for p in dst)
    smy = sum(abs(p[1] - cmy) for p in dst)
    sMx = sum(abs(p[0] - cMx) for p in src)
    sMy = sum(abs(p[1] - cMy) for p in src)
    if min(abs(smx), abs(smy), abs(sMx), abs(sMy)) < _DBL_EPSILON:
        return None
    smx, smy, sMx, sMy = n / smx, n / smy, n / sMx, n / sMy
    ltl = [[0.0] * 9 for _ in range(9)]
    for (X0, Y0), (x0, y0) in zip(src, dst):
        x, y = (x0 - cmx) * smx, (y0 - cmy) * smy
        X, Y = (X0 - cMx) * sMx, (Y0 - cMy) * sMy
        lx = (X, Y, 1.0, 0.0, 0.0, 0.0, -x * X, -x * Y, -x)
        ly = (0.0, 0.0, 0.0, X, Y, 1.0, -y * X, -y * Y, -y)
        for j in range(9):
            for q in range(j, 9):
                ltl[j][q] += lx[j] * lx[q] + ly[j] * ly[q]
    for j in range(9):
        for q in range(j):
            ltl[j][q] = ltl[q][j]
    _, vecs = _np.linalg.eigh(_np.array(ltl, dtype="float64"))
    v = [float(x) for x in _flat(vecs[:, 0])]
    h0 = [v[0:3], v[3:6], v[6:9]]
    inv_hnorm = [[1.0 / smx, 0.0, cmx], [0.0, 1.0 / smy, cmy], [0.0, 0.0, 1.0]]
    hnorm2 = [[sMx, 0.0, -cMx * sMx], [0.0, sMy, -cMy * sMy], [0.0, 0.0, 1.0]]
    H = _mat3_mul(_mat3_mul(inv_hnorm, h0), hnorm2)
    s = 1.0 / H[2][2] if abs(H[2][2]) > _FLT_EPSILON else 1.0
    return [[v * s for v in r] for r in H]


def _homography_errors(H, src, dst):
    """cv2's squared reprojection errors, in float32 with the model rounded to float32."""
    f = _f32
    h = [f(v) for r in H for v in r]
    out = []
    for (X, Y), (x, y) in zip(src, dst):
        ww = f(1.0 / f(f(f(h[6] * X) + f(h[7] * Y)) + h[8]))
        dx = f(f(f(f(f(h[0] * X) + f(h[1] * Y)) + h[2]) * ww) - x)
        dy = f(f(f(f(f(h[3] * X) + f(h[4] * Y)) + h[5]) * ww) - y)
        out.append(f(f(dx * dx) + f(dy * dy)))
    return out


def _det3(p):
    return (p[0][0] * (p[1][1] - p[2][1]) - p[0][1] * (p[1][0] - p[2][0]) + (p[1][0] * p[2][1] - p[2][0] * p[1][1]))


def _homography_subset_ok(ms, md):
    if _collinear_last(ms) or _collinear_last(md):
        return False
    if len(ms) == 4:
        negative = 0
        for t in ((0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3)):
            a = _det3([ms[t[0]], ms[t[1]], ms[t[2]]])
            b = _det3([md[t[0]], md[t[1]], md[t[2]]])
            negative += a * b < 0
        if negative not in (0, 4):
            return False
    return True


def _subset(s, d, rng, max_attempts):
    count = len(s)
    for _ in range(max_attempts):
        idx = []
        while len(idx) < 4:
            while True:
                i = rng.uniform(0, count)
                if i not in idx:
                    break
            idx.append(i)
        ms, md = [s[i] for i in idx], [d[i] for i in idx]
        if not _homography_subset_ok(ms, md):
            continue
        return ms, md
    return None


def _ransac(s, d, threshold, confidence, max_iters):
    count = len(s)
    rng = _CvRng()
    t = _f32(threshold * threshold)
    niters = max(max_iters, 1)
    best, best_mask, best_count = None, None, 0
    it = 0
    while it < niters:
        sub = _subset(s, d, rng, 10000)
        if sub is None:
            if it == 0:
                return None, None
            break
        it += 1
        H = _homography_dlt(*sub)
        if H is None:
            continue
        mask = [e <= t for e in _homography_errors(H, s, d)]
        good = sum(mask)
        if good > max(best_count, 3):
            best, best_mask, best_count = H, mask, good
            niters = _update_iters(confidence, (count - good) / count, 4, niters)
    return best, best_mask


def _lmeds(s, d, confidence, max_iters):
    count = len(s)
    rng = _CvRng()
    niters = max(_update_iters(confidence, 0.45, 4, max_iters), 3)
    best, min_median = None, math.inf
    for it in range(niters):
        sub = _subset(s, d, rng, 1000)
        if sub is None:
            if it == 0:
                return None, None
            break
        H = _homography_dlt(*sub)
        if H is None:
            continue
        median = sorted(_homography_errors(H, s, d))[count // 2]
        if median < min_median:
            min_median, best = median, H
    if best is None:
        return None, None
    sigma = max(2.5 * 1.4826 * (1 + 5.0 / (count - 4)) * math.sqrt(min_median), 0.001)
    t = _f32(sigma * sigma)
    mask = [e <= t for e in _homography_errors(best, s, d)]
    return (best, mask) if sum(mask) >= 4 else (None, None)


def _refine(H, src, dst, iters=100):
    """Levenberg-Marquardt on the reprojection error in double (h22 held at 1): the minimum cv2's
    polish converges to."""
    h = [H[0][0], H[0][1], H[0][2], H[1][0], H[1][1], H[1][2], H[2][0], H[2][1]]

    def residuals(h):
        r, J = [], []
        for (X, Y), (x, y) in zip(src, dst):
            w = h[6] * X + h[7] * Y + 1.0
            w = 1.0 / w if abs(w) > _DBL_EPSILON else 0.0
            xi = (h[0] * X + h[1] * Y + h[2]) * w
            yi = (h[3] * X + h[4] * Y + h[5]) * w
            r.append(xi - x)
            r.append(yi - y)
            J.append([X * w, Y * w, w, 0.0, 0.0, 0.0, -X * w * xi, -Y * w * xi])
            J.append([0.0, 0.0, 0.0, X * w, Y * w, w, -X * w * yi, -Y * w * yi])
        return r, J

    lam = 1e-3
    r, J = residuals(h)
    cost = sum(v * v for v in r)
    for _ in range(iters):
        jtj = [[sum(J[k][i] * J[k][j] for k in range(len(J))) for j in range(8)] for i in range(8)]
        jtr = [sum(J[k][i] * r[k] for k in range(len(J))) for i in range(8)]
        improved = False
        while lam < 1e16:
            a = [row[:] for row in jtj]
            for i in range(8):
                a[i][i] += lam * a[i][i] if a[i][i] > 0 else lam
            step = _solve(a, [-v for v in jtr])
            if step is None:
                lam *= 10
                continue
            h2 = [p + q for p, q in zip(h, step)]
            r2, J2 = residuals(h2)
            cost2 = sum(v * v for v in r2)
            if cost2 <= cost:
                small = all(abs(q) <= 1e-15 * max(abs(p), 1e-300) for p, q in zip(h, step))
                h, r, J = h2, r2, J2
                converged = cost - cost2 <= 1e-30 * max(cost, 1e-300) or small
                cost = cost2
                lam = max(lam / 10, 1e-15)
                improved = True
                break
            lam *= 10
        if not improved or converged:
            break
    return [[h[0], h[1], h[2]], [h[3], h[4], h[5]], [h[6], h[7], 1.0]]


def _solve(a, b):
    """Gaussian elimination with partial pivoting (small dense systems)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if m[p][c] == 0:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for q in range(c, n + 1):
                    m[r][q] -= f * m[c][q]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][q] * x[q] for q in range(r + 1, n))) / m[r][r]
    return x


def _homography_array(p, fn, name):
    """(the validated point vector as an mnn array, its point count)."""
    a = as_image(_listify(p, 2), fn, name)
    n = _check_vector(a, 2)
    if n < 0:
        n3 = _check_vector(a, 3)
        if n3 < 0:
            raise fail(fn, "The input arrays should be 2D or 3D point sets")
        from ._points import convertPointsFromHomogeneous
        a = convertPointsFromHomogeneous(a.astype("float64") if str(a.dtype) not in ("float32", "float64") else a)
        n = n3
    if n < 4:
        raise fail(fn, f"The input arrays should have at least 4 corresponding point sets to calculate Homography "
                       f"(got {n})")
    return a, n


def _homography_points(a):
    v = [_f32(float(x)) for x in _flat(a)]
    return list(zip(v[0::2], v[1::2]))


def findHomography(srcPoints, dstPoints, method=0, ransacReprojThreshold=3, mask=None, maxIters=2000,
                   confidence=0.995):
    """cv2.findHomography: (3x3 float64 H with H[2,2] = 1, or None; (N, 1) uint8 inlier mask) by
    least squares (method 0), RANSAC, LMEDS or RHO (run as RANSAC here; RHO's own sampler is not
    reproduced, so on noisy data its inliers can differ from cv2's)."""
    fn = "findHomography"
    a, n = _homography_array(srcPoints, fn, "srcPoints")
    b, nb = _homography_array(dstPoints, fn, "dstPoints")
    if n != nb:
        raise fail(fn, f"src.checkVector(2) == dst.checkVector(2) (got {n} and {nb} points)")
    method = int(method)
    if method not in (0, RANSAC, LMEDS, RHO):
        raise fail(fn, f"Unknown estimation method {method}")
    thr = float(ransacReprojThreshold)
    if thr <= 0:
        thr = 3.0
    confidence, maxIters = float(confidence), int(maxIters)
    fit = _robust_fit.homography(a, b, method, thr, confidence, maxIters)
    if fit is None:  # the reference implementation, where the native port defers to it
        fit = _find_homography_py(_homography_points(a), _homography_points(b), method, thr, confidence, maxIters)
    H, m = fit
    if H is None:
        return None, m
    return _new(H, "float64", (3, 3)), _fill(mask, m)


def _find_homography_py(s, d, method, thr, confidence, maxIters):
    """findHomography's estimation on float32-rounded (x, y) tuples: (H as 9 floats or None,
    (N, 1) uint8 mask). The reference for the native port (_robust_fit)."""
    n = len(s)
    if method == 0 or n == 4:
        H = _homography_dlt(s, d)
        inl = [True] * n
    elif method == LMEDS:
        H, inl = _lmeds(s, d, confidence, maxIters)
    else:
        H, inl = _ransac(s, d, thr, confidence, maxIters)
    if H is None:
        return None, _new([0] * n, "int32", (n, 1)).astype("uint8")
    if n > 4:
        ss = [p for p, k in zip(s, inl) if k]
        dd = [p for p, k in zip(d, inl) if k]
        if ss:
            if method != 0:
                H = _homography_dlt(ss, dd) or H
            H = _refine(H, ss, dd)
            sc = 1.0 / H[2][2] if abs(H[2][2]) > _FLT_EPSILON else 1.0
            H = [[v * sc for v in r] for r in H]
            t = _f32(thr * thr)
            inl = [e <= t for e in _homography_errors(H, s, d)]
    if method == RHO:
        H = [[_f32(v) for v in r] for r in H]  # cv2's RHO returns a float32 model
    return [v for r in H for v in r], _new([1 if k else 0 for k in inl], "int32", (n, 1)).astype("uint8")
