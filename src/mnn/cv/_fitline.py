"""cv2.fitLine: a line through 2-d or 3-d points, by least squares (DIST_L2) or by cv2's
iteratively reweighted M-estimator fits (DIST_L1, L12, FAIR, WELSCH, HUBER) from its fixed-seed
random starts. cv2 computes in float32 with some double accumulators; every step is rounded the
same way here (and the C library's float cosf/sinf/expf are called where cv2 calls them), so
the answer is cv2's bit for bit. Written from reading OpenCV's linefit.cpp and lapack.cpp (its
Jacobi eigen solver, for the 3-d direction); none of its code is copied."""
import math

from ._common import as_image, fail
from ._common import f32 as _f32
from ._points import (DIST_FAIR, DIST_HUBER, DIST_L1, DIST_L12, DIST_L2, DIST_WELSCH, _DBL_MAX, _FLT_EPSILON,
                      _check_vector, _fill, _flat, _listify, _new)
from ._robust import _CvRng

__all__ = ["fitLine"]

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
        return _fill(line, _new(res, "float32", (4, 1)))
    res = _fit_line_3d([vals[i * 3:i * 3 + 3] for i in range(n3)], dist, param, reps, aeps)
    return _fill(line, _new(res, "float32", (6, 1)))


