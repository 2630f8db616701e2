"""solvePnP and solvePnPRansac: a camera pose (rvec, tvec) from 3-d object points and their
images, with cv2's signatures, flags and result forms.

SOLVEPNP_EPNP follows Lepetit, Moreno-Noguer and Fua's EPnP as cv2 runs it (control points from
the object points' principal axes, the 4-vector null space of M^T M, three beta approximations
polished by 5 Gauss-Newton steps, the one of least reprojection error kept), with cv2's Jacobi SVD
so that its singular vectors' signs, which place the control points, are cv2's.
SOLVEPNP_ITERATIVE starts where cv2 does for a planar object (the plane's homography) and from
EPnP otherwise, and minimises the reprojection error (distortion included) by Levenberg-Marquardt
until it stops improving, which is the minimum cv2's own LM reaches. SOLVEPNP_IPPE is in
_ippe.py (with IPPE_SQUARE), SOLVEPNP_SQPNP in _sqpnp.py; P3P and AP3P are not implemented. Written from
reading OpenCV's geometry module and the EPnP paper; none of its code is copied.
"""
import math

from ._common import as_image, fail
from ._calib import _camera, _dist_coeffs, _project, _undistort_list, _solve, _vec3
from ._points import Rodrigues, _check_vector, _fill, _flat, _listify, _new
from ._robust import _CvRng
from . import _robust_pnp
from ._structure import _svd, _svd_solve


def _svd_cv(rows):
    """_svd with cv2's left vectors for zero singular values: cv2 fills them with a vector from its
    RNG(0x12345678) made orthogonal to the earlier ones (planar object points give such zeros)."""
    w, us, vs = _svd(rows)
    m = len(rows)
    rng = _CvRng(0x12345678)
    eps = 2.220446049250313e-16 * 10
    for i in range(len(w)):
        sd = w[i]
        if sd > 2.2250738585072014e-308:
            continue
        vec = us[i]
        for _ in range(100):
            val0 = 1.0 / m
            vec = [val0 if rng.next() & 256 else -val0 for _ in range(m)]
            for _ in range(2):
                for j in range(i):
                    d = sum(a * b for a, b in zip(vec, us[j]))
                    vec = [a - d * b for a, b in zip(vec, us[j])]
                    asum = sum(abs(a) for a in vec)
                    asum = 1 / asum if asum > eps * 100 else 0.0
                    vec = [a * asum for a in vec]
            sd = math.sqrt(sum(a * a for a in vec))
            if sd > 2.2250738585072014e-308:
                break
        sc = 1 / sd if sd > 2.2250738585072014e-308 else 0.0
        us[i] = [a * sc for a in vec]
    return w, us, vs


def _pinv3(m):
    """cv2's invert(..., DECOMP_SVD): the pseudo-inverse (planar object points make the control
    point frame singular)."""
    w, us, vs = _svd(m)
    thr = sum(w) * 2.220446049250313e-16 * 2
    return [[sum(vs[k][i] * us[k][j] / w[k] for k in range(3) if w[k] > thr) for j in range(3)] for i in range(3)]

__all__ = ["solvePnP", "solvePnPRansac", "SOLVEPNP_ITERATIVE", "SOLVEPNP_EPNP", "SOLVEPNP_P3P", "SOLVEPNP_AP3P",
           "SOLVEPNP_IPPE", "SOLVEPNP_IPPE_SQUARE", "SOLVEPNP_SQPNP", "SOLVEPNP_MAX_COUNT"]

# cv2 5's values (DLS and UPNP are gone)
(SOLVEPNP_ITERATIVE, SOLVEPNP_EPNP, SOLVEPNP_P3P, SOLVEPNP_AP3P, SOLVEPNP_IPPE, SOLVEPNP_IPPE_SQUARE,
 SOLVEPNP_SQPNP, SOLVEPNP_MAX_COUNT) = range(8)


# ---------------------------------------------------------------------------------------------
# small dense linear algebra (double)


def _lstsq(a, b):
    """The least-squares solution of a small full-rank system (Householder QR)."""
    m, n = len(a), len(a[0])
    r = [row[:] for row in a]
    y = b[:]
    for k in range(n):
        norm = math.sqrt(sum(r[i][k] ** 2 for i in range(k, m)))
        if norm == 0:
            continue
        alpha = -norm if r[k][k] > 0 else norm
        v = [0.0] * m
        v[k] = r[k][k] - alpha
        for i in range(k + 1, m):
            v[i] = r[i][k]
        vn = sum(x * x for x in v[k:])
        if vn == 0:
            continue
        for j in range(k, n):
            f = 2 * sum(v[i] * r[i][j] for i in range(k, m)) / vn
            for i in range(k, m):
                r[i][j] -= f * v[i]
        f = 2 * sum(v[i] * y[i] for i in range(k, m)) / vn
        for i in range(k, m):
            y[i] -= f * v[i]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        if r[i][i] == 0:
            return None
        x[i] = (y[i] - sum(r[i][j] * x[j] for j in range(i + 1, n))) / r[i][i]
    return x


# ---------------------------------------------------------------------------------------------
# EPnP


def _epnp(pws, uvs, fu, fv, uc, vc):
    """(R rows, t) by EPnP on undistorted pixel points."""
    n = len(pws)
    c0 = [sum(p[i] for p in pws) / n for i in range(3)]
    pw0 = [[p[i] - c0[i] for i in range(3)] for p in pws]
    cov = [[sum(p[i] * p[j] for p in pw0) for j in range(3)] for i in range(3)]
    # cv2's Jacobi SVD, whose singular vectors' signs place the control points
    w, us, _ = _svd_cv(cov)
    cws = [c0]
    for i in range(3):
        k = math.sqrt(w[i] / n)
        cws.append([c0[j] + k * us[i][j] for j in range(3)])
    cc = [[cws[j + 1][i] - cws[0][i] for j in range(3)] for i in range(3)]
    cci = _pinv3(cc)
    alphas = []
    for p in pws:
        d = [p[i] - cws[0][i] for i in range(3)]
        a = [sum(cci[r][c] * d[c] for c in range(3)) for r in range(3)]
        alphas.append([1.0 - a[0] - a[1] - a[2]] + a)
    mtm = [[0.0] * 12 for _ in range(12)]
    for a, (u, v) in zip(alphas, uvs):
        r1, r2 = [0.0] * 12, [0.0] * 12
        for j in range(4):
            r1[3 * j], r1[3 * j + 2] = a[j] * fu, a[j] * (uc - u)
            r2[3 * j + 1], r2[3 * j + 2] = a[j] * fv, a[j] * (vc - v)
        for i in range(12):
            if r1[i] or r2[i]:
                for j in range(12):
                    mtm[i][j] += r1[i] * r1[j] + r2[i] * r2[j]
    _, eu, _ = _svd_cv(mtm)
    vs = [eu[11], eu[10], eu[9], eu[8]]  # the null space: v_0 belongs to the smallest singular value
    pairs = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
    L, rho = [], []
    for a, b in pairs:
        dv = [[vs[i][3 * a + k] - vs[i][3 * b + k] for k in range(3)] for i in range(4)]

        def dot(p, q):
            return sum(x * y for x, y in zip(dv[p], dv[q]))
        L.append([dot(0, 0), 2 * dot(0, 1), dot(1, 1), 2 * dot(0, 2), 2 * dot(1, 2), dot(2, 2),
                  2 * dot(0, 3), 2 * dot(1, 3), 2 * dot(2, 3), dot(3, 3)])
        rho.append(sum((cws[a][k] - cws[b][k]) ** 2 for k in range(3)))
    best = None
    for approx in (1, 2, 3):
        betas = _betas(L, rho, approx)
        if betas is None:
            continue
        betas = _gauss_newton(L, rho, betas)
        res = _r_and_t(vs, betas, pws, alphas, uvs, fu, fv, uc, vc)
        if res is not None and (best is None or res[2] < best[2]):
            best = res
    return None if best is None else (best[0], best[1])


def _betas(L, rho, approx):
    cols = {1: (0, 1, 3, 6), 2: (0, 1, 2), 3: (0, 1, 2, 3, 4)}[approx]
    b = _svd_solve([[row[c] for c in cols] for row in L], rho)
    if approx == 1:
        if b[0] < 0:
            b0 = math.sqrt(-b[0])
            return [b0, -b[1] / b0, -b[2] / b0, -b[3] / b0]
        b0 = math.sqrt(b[0])
        if b0 == 0:
            return None
        return [b0, b[1] / b0, b[2] / b0, b[3] / b0]
    if b[0] < 0:
        b0, b1 = math.sqrt(-b[0]), (math.sqrt(-b[2]) if b[2] < 0 else 0.0)
    else:
        b0, b1 = math.sqrt(b[0]), (math.sqrt(b[2]) if b[2] > 0 else 0.0)
    if b[1] < 0:
        b0 = -b0
    if approx == 2:
        return [b0, b1, 0.0, 0.0]
    return [b0, b1, b[3] / b0 if b0 else 0.0, 0.0]


def _gauss_newton(L, rho, betas):
    for _ in range(5):
        A, r = [], []
        b0, b1, b2, b3 = betas
        for l, p in zip(L, rho):
            A.append([2 * l[0] * b0 + l[1] * b1 + l[3] * b2 + l[6] * b3,
                      l[1] * b0 + 2 * l[2] * b1 + l[4] * b2 + l[7] * b3,
                      l[3] * b0 + l[4] * b1 + 2 * l[5] * b2 + l[8] * b3,
                      l[6] * b0 + l[7] * b1 + l[8] * b2 + 2 * l[9] * b3])
            r.append(p - (l[0] * b0 * b0 + l[1] * b0 * b1 + l[2] * b1 * b1 + l[3] * b0 * b2 + l[4] * b1 * b2 +
                          l[5] * b2 * b2 + l[6] * b0 * b3 + l[7] * b1 * b3 + l[8] * b2 * b3 + l[9] * b3 * b3))
        x = _lstsq(A, r)
        if x is None:
            break
        betas = [p + q for p, q in zip(betas, x)]
    return betas


def _r_and_t(vs, betas, pws, alphas, uvs, fu, fv, uc, vc):
    ccs = [[sum(betas[i] * vs[i][3 * j + k] for i in range(4)) for k in range(3)] for j in range(4)]
    pcs = [[sum(a[j] * ccs[j][k] for j in range(4)) for k in range(3)] for a in alphas]
    if pcs[0][2] < 0:
        ccs = [[-x for x in c] for c in ccs]
        pcs = [[-x for x in p] for p in pcs]
    n = len(pws)
    pc0 = [sum(p[k] for p in pcs) / n for k in range(3)]
    pw0 = [sum(p[k] for p in pws) / n for k in range(3)]
    abt = [[sum((pc[i] - pc0[i]) * (pw[j] - pw0[j]) for pc, pw in zip(pcs, pws)) for j in range(3)] for i in range(3)]
    _, U, V = _svd_cv(abt)
    R = [[sum(U[k][i] * V[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    det = (R[0][0] * (R[1][1] * R[2][2] - R[1][2] * R[2][1]) - R[0][1] * (R[1][0] * R[2][2] - R[1][2] * R[2][0]) +
           R[0][2] * (R[1][0] * R[2][1] - R[1][1] * R[2][0]))
    if det < 0:
        R[2] = [-x for x in R[2]]
    t = [pc0[i] - sum(R[i][k] * pw0[k] for k in range(3)) for i in range(3)]
    err = 0.0
    for pw, (u, v) in zip(pws, uvs):
        X = [sum(R[i][k] * pw[k] for k in range(3)) + t[i] for i in range(3)]
        if X[2] == 0:
            return None
        ue, ve = uc + fu * X[0] / X[2], vc + fv * X[1] / X[2]
        err += math.sqrt((u - ue) ** 2 + (v - ve) ** 2)
    return R, t, err / n


# ---------------------------------------------------------------------------------------------
# Levenberg-Marquardt on the reprojection error


def _refine_pose(r, t, pts, uvs, K, k, nd, iters=100):
    params = r + t

    def residuals(p):
        R, dR = _rot(p[:3])
        out, jac = _project(pts, R, dR, p[3:], K, k, nd, 0.0, True)
        res = []
        for (u, v), (pu, pv) in zip(uvs, out):
            res.extend((pu - u, pv - v))
        return res, [row[:6] for row in jac]

    res, J = residuals(params)
    cost = sum(x * x for x in res)
    lam = 1e-3
    for _ in range(iters):
        jtj = [[sum(J[q][i] * J[q][j] for q in range(len(J))) for j in range(6)] for i in range(6)]
        jtr = [sum(J[q][i] * res[q] for q in range(len(J))) for i in range(6)]
        done = True
        while lam < 1e16:
            a = [row[:] for row in jtj]
            for i in range(6):
                a[i][i] += lam * (a[i][i] if a[i][i] > 0 else 1.0)
            step = _solve(a, [-x for x in jtr])
            if step is None:
                lam *= 10
                continue
            p2 = [x + y for x, y in zip(params, step)]
            res2, J2 = residuals(p2)
            cost2 = sum(x * x for x in res2)
            if cost2 <= cost:
                gain = cost - cost2
                params, res, J = p2, res2, J2
                cost = cost2
                lam = max(lam / 10, 1e-15)
                done = gain <= 1e-28 * max(cost, 1e-300) or max(abs(x) for x in step) < 1e-15
                break
            lam *= 10
        if done:
            break
    return params[:3], params[3:]


def _rot(r):
    R, J = Rodrigues(_new(r, "float64", (3, 1)))
    R = [float(x) for x in _flat(R)]
    J = [float(x) for x in _flat(J)]
    return [R[0:3], R[3:6], R[6:9]], [J[0:9], J[9:18], J[18:27]]


def _rvec_of(R):
    v, _ = Rodrigues(_new([x for row in R for x in row], "float64", (3, 3)))
    return [float(x) for x in _flat(v)]


# ---------------------------------------------------------------------------------------------


def _planar(pts):
    """cv2's test: the object points' scatter matrix has a third singular value below 1e-3 of the
    second."""
    n = len(pts)
    c = [sum(p[i] for p in pts) / n for i in range(3)]
    d = [[p[i] - c[i] for i in range(3)] for p in pts]
    w, _, _ = _svd([[sum(q[i] * q[j] for q in d) for j in range(3)] for i in range(3)])
    return w[1] == 0 or w[2] / w[1] < 1e-3


def _planar_start(pts, norm):
    """cv2's start for a planar object: rotate the points into their plane, fit the homography
    to the normalised image points and read R, t off its columns."""
    from ._calib import _homography_dlt, _refine
    n = len(pts)
    c = [sum(p[i] for p in pts) / n for i in range(3)]
    d = [[p[i] - c[i] for i in range(3)] for p in pts]
    _, _, vt = _svd_cv([[sum(q[i] * q[j] for q in d) for j in range(3)] for i in range(3)])
    rt = [row[:] for row in vt]
    if rt[0][2] ** 2 + rt[1][2] ** 2 < 1e-10:
        rt = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    det = (rt[0][0] * (rt[1][1] * rt[2][2] - rt[1][2] * rt[2][1]) - rt[0][1] * (rt[1][0] * rt[2][2] - rt[1][2] * rt[2][0])
           + rt[0][2] * (rt[1][0] * rt[2][1] - rt[1][1] * rt[2][0]))
    if det < 0:
        rt = [[-x for x in row] for row in rt]
    tt = [-sum(rt[i][j] * c[j] for j in range(3)) for i in range(3)]
    mxy = [(sum(rt[0][j] * p[j] for j in range(3)) + tt[0], sum(rt[1][j] * p[j] for j in range(3)) + tt[1])
           for p in pts]
    H = _homography_dlt(mxy, norm)
    if H is None:
        return [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    if n > 4:
        H = _refine(H, mxy, norm)
    h1 = [H[0][0], H[1][0], H[2][0]]
    h2 = [H[0][1], H[1][1], H[2][1]]
    n1 = math.sqrt(sum(x * x for x in h1))
    n2 = math.sqrt(sum(x * x for x in h2))
    h1 = [x / max(n1, 2.220446049250313e-16) for x in h1]
    h2 = [x / max(n2, 2.220446049250313e-16) for x in h2]
    t = [H[i][2] * 2 / max(n1 + n2, 2.220446049250313e-16) for i in range(3)]
    h3 = [h1[1] * h2[2] - h1[2] * h2[1], h1[2] * h2[0] - h1[0] * h2[2], h1[0] * h2[1] - h1[1] * h2[0]]
    m = [[h1[i], h2[i], h3[i]] for i in range(3)]
    Rh, _ = _rot(_rvec_of(m))  # the nearest rotation to [h1 h2 h1 x h2]
    # the object-to-camera pose: R = Rh * Rt, t = th + Rh * tt
    R = [[sum(Rh[i][q] * rt[q][j] for q in range(3)) for j in range(3)] for i in range(3)]
    t = [t[i] + sum(Rh[i][q] * tt[q] for q in range(3)) for i in range(3)]
    return _rvec_of(R), t


def _pnp_inputs(objectPoints, imagePoints, cameraMatrix, distCoeffs, fn, min_points=4):
    a, b, n = _pnp_arrays(objectPoints, imagePoints, fn, min_points)
    ov = [float(x) for x in _flat(a)]
    iv = [float(x) for x in _flat(b)]
    pts = [ov[i * 3:i * 3 + 3] for i in range(n)]
    uvs = list(zip(iv[0::2], iv[1::2]))
    K = _camera(cameraMatrix, fn)
    k, nd = _dist_coeffs(distCoeffs, fn)
    return pts, uvs, K, k, nd


def _pnp_arrays(objectPoints, imagePoints, fn, min_points):
    """The validated object and image point arrays and their count."""
    a = as_image(_listify(objectPoints, 3), fn, "objectPoints")
    n = _check_vector(a, 3)
    if n < 0 or str(a.dtype) not in ("float32", "float64"):
        raise fail(fn, f"objectPoints must be a vector of 3-d points (float32 or float64), got {a.dtype} array of "
                       f"shape {tuple(a.shape)}")
    b = as_image(_listify(imagePoints, 2), fn, "imagePoints")
    m = _check_vector(b, 2)
    if m < 0 or str(b.dtype) not in ("float32", "float64"):
        raise fail(fn, f"imagePoints must be a vector of 2-d points (float32 or float64), got {b.dtype} array of "
                       f"shape {tuple(b.shape)}")
    if n != m:
        raise fail(fn, f"npoints == imagePoints.checkVector(2) (got {n} object and {m} image points)")
    if n < min_points:
        raise fail(fn, f"npoints >= {min_points} (got {n})")
    return a, b, n


def solvePnP(objectPoints, imagePoints, cameraMatrix, distCoeffs, rvec=None, tvec=None, useExtrinsicGuess=False,
             flags=SOLVEPNP_ITERATIVE):
    """cv2.solvePnP: (retval, rvec (3, 1) float64, tvec (3, 1) float64). SOLVEPNP_ITERATIVE,
    SOLVEPNP_EPNP, SOLVEPNP_IPPE, SOLVEPNP_IPPE_SQUARE and SOLVEPNP_SQPNP are supported."""
    fn = "solvePnP"
    flags = int(flags)
    # cv2 5's SQPnP takes 3 points; the other solvers need 4
    pts, uvs, K, k, nd = _pnp_inputs(objectPoints, imagePoints, cameraMatrix, distCoeffs, fn,
                                     3 if flags == SOLVEPNP_SQPNP else 4)
    if flags not in (SOLVEPNP_ITERATIVE, SOLVEPNP_EPNP, SOLVEPNP_IPPE, SOLVEPNP_IPPE_SQUARE, SOLVEPNP_SQPNP):
        raise fail(fn, f"flags={flags} is not supported by mnn.cv.solvePnP (SOLVEPNP_ITERATIVE, SOLVEPNP_EPNP, "
                       f"SOLVEPNP_IPPE, SOLVEPNP_IPPE_SQUARE and SOLVEPNP_SQPNP are)")
    if flags == SOLVEPNP_IPPE_SQUARE and len(pts) != 4:
        raise fail(fn, f"npoints == 4 (SOLVEPNP_IPPE_SQUARE takes the 4 corners of a square, got {len(pts)})")
    if flags == SOLVEPNP_SQPNP:
        from ._sqpnp import sqpnp
        norm = _undistort_list([u for u, _ in uvs], [v for _, v in uvs], K, k, nd, None, None, (1, 5, 0.01))
        res = sqpnp(pts, norm)
        if res is None:
            raise fail(fn, "SQPnP: the image points do not spread enough (cv2: point_coordinate_variance >= "
                           "POINT_VARIANCE_THRESHOLD) or Omega is degenerate")
        return True, _new(res[0], "float64", (3, 1)), _new(res[1], "float64", (3, 1))
    if flags in (SOLVEPNP_IPPE, SOLVEPNP_IPPE_SQUARE):
        from ._ippe import ippe, ippe_square
        img_f32 = str(as_image(imagePoints, fn, "imagePoints").dtype) == "float32" if not isinstance(
            imagePoints, (list, tuple)) else False
        obj_f32 = str(as_image(objectPoints, fn, "objectPoints").dtype) == "float32" if not isinstance(
            objectPoints, (list, tuple)) else False
        norm = _undistort_list([u for u, _ in uvs], [v for _, v in uvs], K, k, nd, None, None, (1, 5, 0.01))
        if img_f32:  # cv2's undistortPoints keeps float32 points float32
            from ._common import f32
            norm = [(f32(x), f32(y)) for x, y in norm]
        res = (ippe if flags == SOLVEPNP_IPPE else ippe_square)(pts, norm, obj_f32)
        if res is None:
            return False, None, None
        return True, _new(res[0], "float64", (3, 1)), _new(res[1], "float64", (3, 1))
    fx, fy, cx, cy = K[0][0], K[1][1], K[0][2], K[1][2]
    if flags == SOLVEPNP_ITERATIVE and not _planar(pts) and len(pts) < 6:
        raise fail(fn, f"DLT algorithm needs at least 6 points for pose estimation from 3D-2D point "
                       f"correspondences (expected: 'count >= 6', got {len(pts)})")
    if useExtrinsicGuess and flags == SOLVEPNP_ITERATIVE and rvec is not None and tvec is not None:
        r0, t0 = _vec3(rvec, fn, "rvec"), _vec3(tvec, fn, "tvec")
    elif flags == SOLVEPNP_ITERATIVE and _planar(pts):
        norm = _undistort_list([u for u, _ in uvs], [v for _, v in uvs], K, k, nd, None, None, (1, 5, 0.01))
        r0, t0 = _planar_start(pts, norm)
    else:
        und = _undistort_list([u for u, _ in uvs], [v for _, v in uvs], K, k, nd, None, K, (1, 5, 0.01))
        res = _epnp(pts, und, fx, fy, cx, cy)
        if res is None:
            return False, None, None
        R, t0 = res
        r0 = _rvec_of(R)
    if flags == SOLVEPNP_ITERATIVE:
        r0, t0 = _refine_pose(r0, t0, pts, uvs, K, k, nd)
    return True, _fill(rvec, _new(r0, "float64", (3, 1))), _fill(tvec, _new(t0, "float64", (3, 1)))


# ---------------------------------------------------------------------------------------------
# solvePnPRansac


def _pnp_errors(pts, uvs, r, t, K, k, nd):
    """cv2's squared reprojection errors: projections rounded to float32, differences and
    squares in float32."""
    from ._common import f32
    R, _ = _rot(r)
    proj, _ = _project(pts, R, None, t, K, k, nd, 0.0, False)
    out = []
    for (u, v), (pu, pv) in zip(uvs, proj):
        dx, dy = f32(u - f32(pu)), f32(v - f32(pv))
        out.append(f32(f32(dx * dx) + f32(dy * dy)))
    return out


def solvePnPRansac(objectPoints, imagePoints, cameraMatrix, distCoeffs, rvec=None, tvec=None,
                   useExtrinsicGuess=False, iterationsCount=100, reprojectionError=8.0, confidence=0.99,
                   inliers=None, flags=SOLVEPNP_ITERATIVE):
    """cv2.solvePnPRansac: (retval, rvec, tvec, inlier indices (K, 1) int32). RANSAC over 5-point
    EPnP poses with cv2's fixed-seed sampler and float32 error test (points are taken as float32,
    as cv2 does), then solvePnP with `flags` on the inliers. Runs natively (csrc/ops/cv/robust_pnp*,
    bit for bit this code's results); the Python below is the reference and the fallback."""
    from ._common import f32
    fn = "solvePnPRansac"
    a, b, n = _pnp_arrays(objectPoints, imagePoints, fn, 4)
    K = _camera(cameraMatrix, fn)
    k, nd = _dist_coeffs(distCoeffs, fn)
    flags = int(flags)
    if flags not in (SOLVEPNP_ITERATIVE, SOLVEPNP_EPNP):
        raise fail(fn, f"flags={flags} is not supported by mnn.cv.solvePnPRansac (SOLVEPNP_ITERATIVE and "
                       f"SOLVEPNP_EPNP are)")
    if n >= 5:  # one native call (_robust_pnp.py); the code below is its reference and fallback
        res = _robust_pnp.ransac(a, b, K, k, nd, iterationsCount, reprojectionError, confidence,
                                 flags == SOLVEPNP_ITERATIVE)
        if res is not None:
            return res
    ov = [float(x) for x in _flat(a)]
    iv = [float(x) for x in _flat(b)]
    pts = [ov[i * 3:i * 3 + 3] for i in range(n)]
    uvs = list(zip(iv[0::2], iv[1::2]))
    pts = [[f32(v) for v in p] for p in pts]
    uvs = [(f32(u), f32(v)) for u, v in uvs]
    n = len(pts)
    if n == 4:
        raise fail(fn, "4-point sets use cv2's P3P minimal solver, which mnn.cv does not implement")
    fx, fy, cx, cy = K[0][0], K[1][1], K[0][2], K[1][2]
    und = _undistort_list([u for u, _ in uvs], [v for _, v in uvs], K, k, nd, None, K, (1, 5, 0.01))

    def kernel(idx):
        res = _epnp([pts[i] for i in idx], [und[i] for i in idx], fx, fy, cx, cy)
        return None if res is None else (_rvec_of(res[0]), res[1])

    if n == 5:
        model = kernel(list(range(5)))
        if model is None:
            return False, None, None, None
        return True, _new(model[0], "float64", (3, 1)), _new(model[1], "float64", (3, 1)), \
            _new(list(range(n)), "int32", (n, 1))
    thr = f32(f32(float(reprojectionError)) ** 2)
    rng = _CvRng()
    niters = max(int(iterationsCount), 1)
    best, best_mask, best_count = None, None, 0
    it = 0
    from ._robust import _update_iters
    while it < niters:
        idx = []
        while len(idx) < 5:
            while True:
                i = rng.uniform(0, n)
                if i not in idx:
                    break
            idx.append(i)
        it += 1
        model = kernel(idx)
        if model is None:
            continue
        mask = [e <= thr for e in _pnp_errors(pts, uvs, model[0], model[1], K, k, nd)]
        good = sum(mask)
        if good > max(best_count, 4):
            best, best_mask, best_count = model, mask, good
            niters = _update_iters(float(confidence), (n - good) / n, 5, niters)
    if best is None:  # cv2 hands back its (zeroed) pose buffers
        return False, _new([0.0] * 3, "float64", (3, 1)), _new([0.0] * 3, "float64", (3, 1)), None
    # the inlier solve: EPnP, then (SOLVEPNP_ITERATIVE) Levenberg-Marquardt; cv2 5 solves the
    # inliers this way however few they are (solvePnP's DLT start would need 6)
    ip = [p for p, m in zip(pts, best_mask) if m]
    iu = [p for p, m in zip(uvs, best_mask) if m]
    res = _epnp(ip, [p for p, m in zip(und, best_mask) if m], fx, fy, cx, cy)
    if res is None:
        return False, _new(best[0], "float64", (3, 1)), _new(best[1], "float64", (3, 1)), None
    r, t = _rvec_of(res[0]), res[1]
    if flags == SOLVEPNP_ITERATIVE:
        r, t = _refine_pose(r, t, ip, iu, K, k, nd)
    r, t = _new(r, "float64", (3, 1)), _new(t, "float64", (3, 1))
    idxs = [i for i, m in enumerate(best_mask) if m]
    return True, r, t, _new(idxs, "int32", (len(idxs), 1))
