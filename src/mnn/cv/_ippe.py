"""SOLVEPNP_IPPE for mnn.cv.solvePnP: Collins and Bartoli's Infinitesimal Plane-based Pose
Estimation for planar objects, as cv2 runs it: the object points are moved onto the plane z = 0
around their centroid, the homography to the undistorted normalised image points is fitted by
Harker and O'Leary's method, the two rotations consistent with its jacobian at the origin are
formed in closed form, each gets its least-squares translation, and the pose with the smaller
reprojection error (cv2's float32 measure) is returned, its rotation vector from IPPE's own
axis-angle formula. Written from the paper and from reading OpenCV's ippe.cpp; none of its code
is copied."""
import math

from .. import numpy as _np
from ._common import f32 as _f32

_SMALL = 1e-3
_FLT_EPS = 1.1920928955078125e-07


def _rotate_to_z(ax, ay, az):
    """The rotation taking the unit vector (ax, ay, az) (normalised here) to the z axis."""
    nrm = math.sqrt(ax * ax + ay * ay + az * az)
    ax, ay, az = ax / nrm, ay / nrm, az / nrm
    if abs(1.0 + az) < _FLT_EPS:
        return [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]]
    d = 1.0 / (1.0 + az)
    return [[-ax * ax * d + 1.0, -ax * ay * d, -ax],
            [-ax * ay * d, -ay * ay * d + 1.0, -ay],
            [ax, ay, 1.0 - (ax * ax + ay * ay) * d]]


def _canonical(pts):
    """(2-d canonical points, the 4x4 model-to-canonical transform), or None when the points
    are not on a plane."""
    n = len(pts)
    mean = [sum(p[i] for p in pts) / n for i in range(3)]
    on_z = all(abs(p[2]) <= _SMALL for p in pts)
    u = [[p[i] - mean[i] for i in range(3)] for p in pts]
    center = [[1.0, 0, 0, -mean[0]], [0, 1.0, 0, -mean[1]], [0, 0, 1.0, -mean[2]], [0, 0, 0, 1.0]]
    if on_z:
        return [(q[0], q[1]) for q in u], center
    (x1, y1, z1), (x2, y2, z2), (x3, y3, z3) = pts[0], pts[1], pts[2]
    nx = (y1 - y2) * (z1 - z3) - (y1 - y3) * (z1 - z2)
    ny = (x1 - x3) * (z1 - z2) - (x1 - x2) * (z1 - z3)
    nz = (x1 - x2) * (y1 - y3) - (x1 - x3) * (y1 - y2)
    nrm = math.sqrt(nx * nx + ny * ny + nz * nz)
    if nrm <= _SMALL:
        return None
    R = _rotate_to_z(nx / nrm, ny / nrm, nz / nrm)
    out = []
    for q in u:
        a = [sum(R[i][k] * q[k] for k in range(3)) for i in range(3)]
        if abs(a[2]) > _SMALL:
            return None
        out.append((a[0], a[1]))
    m = [[R[i][0], R[i][1], R[i][2], 0.0] for i in range(3)] + [[0, 0, 0, 1.0]]
    return out, _mat_mul(m, center)


def _mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def _normalize_iso(pts):
    n = len(pts)
    xm = sum(p[0] for p in pts) / n
    ym = sum(p[1] for p in pts) / n
    d = [(p[0] - xm, p[1] - ym) for p in pts]
    kappa = 0.0
    for x, y in d:
        kappa = kappa + x * x + y * y
    beta = math.sqrt(2 * n / kappa)
    T = [[1.0 / beta, 0.0, xm], [0.0, 1.0 / beta, ym], [0.0, 0.0, 1.0]]
    Ti = [[beta, 0.0, -beta * xm], [0.0, beta, -beta * ym], [0.0, 0.0, 1.0]]
    return [(x * beta, y * beta) for x, y in d], T, Ti


def _homography_ho(src, dst):
    """Harker and O'Leary's homography from 2-d src to dst (normalised, H[2][2] = 1)."""
    A, _, TAi = _normalize_iso(src)
    B, TB, _ = _normalize_iso(dst)
    n = len(A)
    c = [(-b[0] * a[0], -b[0] * a[1], -b[1] * a[0], -b[1] * a[1]) for a, b in zip(A, B)]
    mc = [sum(v[k] for v in c) / n for k in range(4)]
    mx = [(v[0] - mc[0], v[1] - mc[1], -b[0]) for v, b in zip(c, B)]
    my = [(v[2] - mc[2], v[3] - mc[3], -b[1]) for v, b in zip(c, B)]
    s00 = sum(a[0] * a[0] for a in A)
    s01 = sum(a[0] * a[1] for a in A)
    s11 = sum(a[1] * a[1] for a in A)
    dt = s00 * s11 - s01 * s01
    inv = [[s11 / dt, -s01 / dt], [-s01 / dt, s00 / dt]]
    pp = [[inv[r][0] * a[0] + inv[r][1] * a[1] for a in A] for r in range(2)]  # 2 x n
    bx = [[sum(pp[r][i] * mx[i][c3] for i in range(n)) for c3 in range(3)] for r in range(2)]
    by = [[sum(pp[r][i] * my[i][c3] for i in range(n)) for c3 in range(3)] for r in range(2)]
    D = []
    for i in range(n):
        D.append([mx[i][k] - (A[i][0] * bx[0][k] + A[i][1] * bx[1][k]) for k in range(3)])
    for i in range(n):
        D.append([my[i][k] - (A[i][0] * by[0][k] + A[i][1] * by[1][k]) for k in range(3)])
    ddt = [[sum(r[i] * r[j] for r in D) for j in range(3)] for i in range(3)]
    _, vecs = _np.linalg.eigh(_np.array(ddt, dtype="float64"))
    h789 = [float(vecs[k, 0]) for k in range(3)]  # the smallest eigenvalue's vector
    h12 = [-sum(bx[r][k] * h789[k] for k in range(3)) for r in range(2)]
    h45 = [-sum(by[r][k] * h789[k] for k in range(3)) for r in range(2)]
    h3 = -(mc[0] * h789[0] + mc[1] * h789[1])
    h6 = -(mc[2] * h789[0] + mc[3] * h789[1])
    H = [[h12[0], h12[1], h3], [h45[0], h45[1], h6], [h789[0], h789[1], h789[2]]]
    H = _mat_mul(_mat_mul(TB, H), TAi)
    s = 1 / H[2][2]
    return [[v * s for v in r] for r in H]


def _rotations(j00, j01, j10, j11, p, q):
    rv = _rotate_to_z(p, q, 1.0)
    rv = [[rv[j][i] for j in range(3)] for i in range(3)]  # transposed
    b00, b01 = rv[0][0] - p * rv[2][0], rv[0][1] - p * rv[2][1]
    b10, b11 = rv[1][0] - q * rv[2][0], rv[1][1] - q * rv[2][1]
    dtinv = 1.0 / (b00 * b11 - b01 * b10)
    bi00, bi01, bi10, bi11 = dtinv * b11, -dtinv * b01, -dtinv * b10, dtinv * b00
    a00, a01 = bi00 * j00 + bi01 * j10, bi00 * j01 + bi01 * j11
    a10, a11 = bi10 * j00 + bi11 * j10, bi10 * j01 + bi11 * j11
    ata00, ata01, ata11 = a00 * a00 + a01 * a01, a00 * a10 + a01 * a11, a10 * a10 + a11 * a11
    gamma2 = 0.5 * (ata00 + ata11 + math.sqrt((ata00 - ata11) ** 2 + 4.0 * ata01 * ata01))
    gamma = math.sqrt(gamma2)
    if abs(gamma) < _FLT_EPS:
        return None
    r00, r01, r10, r11 = a00 / gamma, a01 / gamma, a10 / gamma, a11 / gamma
    b0 = math.sqrt(max(-r00 * r00 - r10 * r10 + 1, 0.0))
    b1 = math.sqrt(max(-r01 * r01 - r11 * r11 + 1, 0.0))
    if -r00 * r01 - r10 * r11 < 0:
        b1 = -b1
    out = []
    for sg in (1.0, -1.0):
        c0 = (r00, r10, sg * b0)
        c1 = (r01, r11, sg * b1)
        c2 = (sg * (b1 * r10 - b0 * r11), sg * (b0 * r01 - b1 * r00), r00 * r11 - r01 * r10)
        out.append([[c0[0] * rv[i][0] + c0[1] * rv[i][1] + c0[2] * rv[i][2],
                     c1[0] * rv[i][0] + c1[1] * rv[i][1] + c1[2] * rv[i][2],
                     c2[0] * rv[i][0] + c2[1] * rv[i][1] + c2[2] * rv[i][2]] for i in range(3)])
    return out


def _translation(obj, img, R):
    n = len(obj)
    a00 = a11 = float(n)
    a02 = a12 = a20 = a21 = a22 = 0.0
    b0 = b1 = b2 = 0.0
    for (ox, oy), (u, v) in zip(obj, img):
        rx = R[0][0] * ox + R[0][1] * oy
        ry = R[1][0] * ox + R[1][1] * oy
        rz = R[2][0] * ox + R[2][1] * oy
        x2, y2 = -u, -v
        a02, a12, a20, a21 = a02 + x2, a12 + y2, a20 + x2, a21 + y2
        a22 = a22 + x2 * x2 + y2 * y2
        bx, by = -x2 * rz - rx, -y2 * rz - ry
        b0, b1, b2 = b0 + bx, b1 + by, b2 + x2 * bx + y2 * by
    det_inv = 1.0 / (a00 * a11 * a22 - a00 * a12 * a21 - a02 * a11 * a20)
    s = [[a11 * a22 - a12 * a21, a02 * a21, -a02 * a11],
         [a12 * a20, a00 * a22 - a02 * a20, -a00 * a12],
         [-a11 * a20, -a00 * a21, a00 * a11]]
    return [det_inv * (s[i][0] * b0 + s[i][1] * b1 + s[i][2] * b2) for i in range(3)]


def rot2vec(R):
    """IPPE's axis-angle of a rotation matrix (not cv2.Rodrigues: it reads the angle off the trace)."""
    trace = R[0][0] + R[1][1] + R[2][2]
    w = math.acos((trace - 1.0) / 2.0)
    if w < _FLT_EPS:
        return [0.0, 0.0, 0.0]
    d = 1 / (2 * math.sin(w)) * w
    return [d * (R[2][1] - R[1][2]), d * (R[0][2] - R[2][0]), d * (R[1][0] - R[0][1])]


def _reproj_error(pts, img, M, obj_f32):
    """cv2's float32 RMS reprojection error of a pose on normalised points (K = I)."""
    from ._calib import _project
    from ._pnp import _rot
    r = rot2vec([row[:3] for row in M])
    R, _ = _rot(r)
    proj, _ = _project(pts, R, None, [M[0][3], M[1][3], M[2][3]], [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]],
                       [0.0] * 14, 0, 0.0, False)
    f = _f32
    err = 0.0
    for (pu, pv), (u, v) in zip(proj, img):
        if obj_f32:
            dx, dy = f(f(pu) - f(u)), f(f(pv) - f(v))
        else:
            dx, dy = f(pu - u), f(pv - v)
        err = f(err + f(f(dx * dx) + f(dy * dy)))
    return f(math.sqrt(f(err / f(2.0 * len(pts)))))


def ippe(pts, img, obj_f32):
    """(rvec, tvec) of the better IPPE pose, or None."""
    can = _canonical(pts)
    if can is None:
        return None
    cpts, m2c = can
    H = _homography_ho(cpts, img)
    j00 = H[0][0] - H[2][0] * H[0][2]
    j01 = H[0][1] - H[2][1] * H[0][2]
    j10 = H[1][0] - H[2][0] * H[1][2]
    j11 = H[1][1] - H[2][1] * H[1][2]
    rots = _rotations(j00, j01, j10, j11, H[0][2], H[1][2])
    if rots is None:
        return None
    poses = []
    for R in rots:
        t = _translation(cpts, img, R)
        m = [[R[i][0], R[i][1], R[i][2], t[i]] for i in range(3)] + [[0, 0, 0, 1.0]]
        poses.append(_mat_mul(m, m2c))
    ea = _reproj_error(pts, img, poses[0], obj_f32)
    eb = _reproj_error(pts, img, poses[1], obj_f32)
    best = poses[0] if ea < eb else poses[1]
    return rot2vec([row[:3] for row in best]), [best[0][3], best[1][3], best[2][3]]


def _homography_square(img, half):
    """The homography taking the square (-h, h), (h, h), (h, -h), (-h, -h) to 4 image points,
    in closed form (IPPE's square case)."""
    (p1x, p1y), (p2x, p2y), (p3x, p3y), (p4x, p4y) = ((-x, -y) for x, y in img)
    det = half * (p1x * p2y - p2x * p1y - p1x * p4y + p2x * p3y - p3x * p2y + p4x * p1y + p3x * p4y - p4x * p3y)
    if abs(det) < 1e-9:
        return None
    di = -1 / det
    return [[di * (p1x * p3x * p2y - p2x * p3x * p1y - p1x * p4x * p2y + p2x * p4x * p1y - p1x * p3x * p4y +
                   p1x * p4x * p3y + p2x * p3x * p4y - p2x * p4x * p3y),
             di * (p1x * p2x * p3y - p1x * p3x * p2y - p1x * p2x * p4y + p2x * p4x * p1y + p1x * p3x * p4y -
                   p3x * p4x * p1y - p2x * p4x * p3y + p3x * p4x * p2y),
             di * half * (p1x * p2x * p3y - p2x * p3x * p1y - p1x * p2x * p4y + p1x * p4x * p2y - p1x * p4x * p3y +
                          p3x * p4x * p1y + p2x * p3x * p4y - p3x * p4x * p2y)],
            [di * (p1x * p2y * p3y - p2x * p1y * p3y - p1x * p2y * p4y + p2x * p1y * p4y - p3x * p1y * p4y +
                   p4x * p1y * p3y + p3x * p2y * p4y - p4x * p2y * p3y),
             di * (p2x * p1y * p3y - p3x * p1y * p2y - p1x * p2y * p4y + p4x * p1y * p2y + p1x * p3y * p4y -
                   p4x * p1y * p3y - p2x * p3y * p4y + p3x * p2y * p4y),
             di * half * (p1x * p2y * p3y - p3x * p1y * p2y - p2x * p1y * p4y + p4x * p1y * p2y - p1x * p3y * p4y +
                          p3x * p1y * p4y + p2x * p3y * p4y - p4x * p2y * p3y)],
            [-di * (p1x * p3y - p3x * p1y - p1x * p4y - p2x * p3y + p3x * p2y + p4x * p1y + p2x * p4y - p4x * p2y),
             di * (p1x * p2y - p2x * p1y - p1x * p3y + p3x * p1y + p2x * p4y - p4x * p2y - p3x * p4y + p4x * p3y),
             1.0]]


def ippe_square(pts, img, obj_f32):
    """(rvec, tvec) of IPPE for the 4 corners of a square centred on the origin in z = 0
    (cv2's SOLVEPNP_IPPE_SQUARE point order), or None."""
    if obj_f32:
        side = math.sqrt(_f32(pts[1][0] - pts[0][0]) ** 2 + _f32(pts[1][1] - pts[0][1]) ** 2)
    else:
        side = math.sqrt((pts[1][0] - pts[0][0]) ** 2 + (pts[1][1] - pts[0][1]) ** 2)
    H = _homography_square(img, side / 2.0)
    if H is None:
        return None
    obj2 = [(p[0], p[1]) for p in pts]
    j00 = H[0][0] - H[2][0] * H[0][2]
    j01 = H[0][1] - H[2][1] * H[0][2]
    j10 = H[1][0] - H[2][0] * H[1][2]
    j11 = H[1][1] - H[2][1] * H[1][2]
    rots = _rotations(j00, j01, j10, j11, H[0][2], H[1][2])
    if rots is None:
        return None
    poses = []
    for R in rots:
        t = _translation(obj2, img, R)
        poses.append([[R[i][0], R[i][1], R[i][2], t[i]] for i in range(3)] + [[0, 0, 0, 1.0]])
    ea = _reproj_error(pts, img, poses[0], obj_f32)
    eb = _reproj_error(pts, img, poses[1], obj_f32)
    best = poses[0] if ea < eb else poses[1]
    return rot2vec([row[:3] for row in best]), [best[0][3], best[1][3], best[2][3]]
