"""SOLVEPNP_SQPNP for mnn.cv.solvePnP: Terzakis and Lourakis's SQPnP, the globally optimal
minimiser of the algebraic reprojection error r^T Omega r over rotations r (t follows linearly
as t = P r). As in cv2, Omega and P are formed from the object points and the undistorted
normalised image points, the starting rotations are the nearest rotations to (plus and minus)
Omega's smallest singular vectors, each start is descended to its local minimum, and the
minimum of least error with the scene in front of the camera is kept. cv2 descends by its SQP
steps; here each start is polished by Levenberg-Marquardt on the rotation vector, which reaches
the same minimum. Written from the paper and from reading OpenCV's sqpnp.cpp; none of its code
is copied."""
import math

from .. import numpy as _np

_RANK_TOL = 1e-7
_ORTHO_TOL = 1e-8
_EQUAL_VEC = 1e-10
_EQUAL_ERR = 1e-6
_VAR_THRESHOLD = 1e-5


def _det9(e):
    return (e[0] * e[4] * e[8] + e[1] * e[5] * e[6] + e[2] * e[3] * e[7]) - \
        (e[6] * e[4] * e[2] + e[7] * e[5] * e[0] + e[8] * e[3] * e[1])


def _ortho_error(e):
    n1 = e[0] ** 2 + e[1] ** 2 + e[2] ** 2
    n2 = e[3] ** 2 + e[4] ** 2 + e[5] ** 2
    n3 = e[6] ** 2 + e[7] ** 2 + e[8] ** 2
    d12 = e[0] * e[3] + e[1] * e[4] + e[2] * e[5]
    d13 = e[0] * e[6] + e[1] * e[7] + e[2] * e[8]
    d23 = e[3] * e[6] + e[4] * e[7] + e[5] * e[8]
    return (n1 - 1) ** 2 + (n2 - 1) ** 2 + (n3 - 1) ** 2 + 2 * (d12 * d12 + d13 * d13 + d23 * d23)


def _nearest_rotation(e):
    u, _, vt = _np.linalg.svd(_np.array([e[0:3], e[3:6], e[6:9]], dtype="float64"))
    U = [[float(u[i, j]) for j in range(3)] for i in range(3)]
    V = [[float(vt[i, j]) for j in range(3)] for i in range(3)]
    d = _det9([x for r in U for x in r]) * _det9([x for r in V for x in r])
    D = [1.0, 1.0, d]
    return [sum(U[i][k] * D[k] * V[k][j] for k in range(3)) for i in range(3) for j in range(3)]


def _descend(r0, L):
    """The local minimum of ||L vec(R)||^2 over rotations R near r0 (LM on the rotation vector)."""
    from ._pnp import _rot, _rvec_of, _solve
    rv = _rvec_of([r0[0:3], r0[3:6], r0[6:9]])

    def resid(v):
        R, dR = _rot(v)
        r = [x for row in R for x in row]
        res = [sum(L[i][k] * r[k] for k in range(9)) for i in range(9)]
        J = [[sum(L[i][k] * dR[j][k] for k in range(9)) for j in range(3)] for i in range(9)]
        return r, res, J

    r, res, J = resid(rv)
    cost = sum(x * x for x in res)
    lam = 1e-6
    for _ in range(100):
        jtj = [[sum(J[q][i] * J[q][j] for q in range(9)) for j in range(3)] for i in range(3)]
        jtr = [sum(J[q][i] * res[q] for q in range(9)) for i in range(3)]
        done = True
        while lam < 1e16:
            a = [row[:] for row in jtj]
            for i in range(3):
                a[i][i] += lam * (a[i][i] if a[i][i] > 0 else 1.0)
            step = _solve(a, [-x for x in jtr])
            if step is None:
                lam *= 10
                continue
            v2 = [x + y for x, y in zip(rv, step)]
            r2, res2, J2 = resid(v2)
            cost2 = sum(x * x for x in res2)
            if cost2 <= cost:
                gain = cost - cost2
                rv, r, res, J, cost = v2, r2, res2, J2, cost2
                lam = max(lam / 10, 1e-15)
                done = gain <= 1e-30 * max(cost, 1e-300) or max(abs(x) for x in step) < 1e-15
                break
            lam *= 10
        if done:
            break
    return r


def sqpnp(obj, img):
    """(rvec, tvec) of SQPnP on normalised image points, or None (cv2 raises where the image
    points do not spread)."""
    n = len(obj)
    om = [[0.0] * 9 for _ in range(9)]
    qa = [[0.0] * 9 for _ in range(3)]
    sx = sy = sq_sum = 0.0
    mean = [0.0, 0.0, 0.0]
    for (X, Y, Z), (x, y) in zip(obj, img):
        sx, sy = sx + x, sy + y
        mean = [mean[0] + X, mean[1] + Y, mean[2] + Z]
        sq = x * x + y * y
        sq_sum += sq
        XX = (X * X, X * Y, X * Z, Y * Y, Y * Z, Z * Z)
        sym = [[XX[0], XX[1], XX[2]], [XX[1], XX[3], XX[4]], [XX[2], XX[4], XX[5]]]
        for i in range(3):
            for j in range(3):
                om[i][j] += sym[i][j]
                om[3 + i][3 + j] += sym[i][j]
                om[i][6 + j] -= x * sym[i][j]
                om[3 + i][6 + j] -= y * sym[i][j]
                om[6 + i][6 + j] += sq * sym[i][j]
        P = (X, Y, Z)
        for j in range(3):
            qa[0][j] += P[j]
            qa[0][6 + j] -= x * P[j]
            qa[1][6 + j] -= y * P[j]
            qa[2][6 + j] += sq * P[j]
    for j in range(3):
        qa[1][3 + j] = qa[0][j]
        qa[2][j] = qa[0][6 + j]
        qa[2][3 + j] = qa[1][6 + j]
    for i in range(9):
        for j in range(i):
            om[i][j] = om[j][i]
    det_q = n * (n * sq_sum - sy * sy - sx * sx)
    if det_q / n / n / n < _VAR_THRESHOLD:
        return None
    q = [[float(n), 0.0, -sx], [0.0, float(n), -sy], [-sx, -sy, sq_sum]]
    from ._calib import _inv3
    qi = _inv3(q)
    p = [[-sum(qi[i][k] * qa[k][j] for k in range(3)) for j in range(9)] for i in range(3)]
    for i in range(9):
        for j in range(9):
            om[i][j] += sum(qa[k][i] * p[k][j] for k in range(3))
    w, v = _np.linalg.eigh(_np.array(om, dtype="float64"))
    s = [float(x) for x in w][::-1]  # descending, as the SVD gives them
    vv = [[float(v[i, j]) for j in range(9)] for i in range(9)]
    cols = [[vv[i][8 - c] for i in range(9)] for c in range(9)]  # column c: the c-th largest
    s = [max(x, 0.0) for x in s]
    if s[0] < 1e-7:
        return None
    nnv = -1
    while nnv < 7 and s[7 - nnv] < _RANK_TOL:
        nnv += 1
    nnv += 1
    if nnv > 6:
        return None
    L = [[math.sqrt(s[c]) * cols[c][k] for k in range(9)] for c in range(9)]
    mean = [m / n for m in mean]
    state = {"min": 1.7976931348623157e308, "sols": []}

    def check(r):
        t = [sum(p[i][k] * r[k] for k in range(9)) for i in range(3)]
        front = r[6] * mean[0] + r[7] * mean[1] + r[8] * mean[2] + t[2] > 0
        if not front:
            pos = sum(1 for X in obj if r[6] * X[0] + r[7] * X[1] + r[8] * X[2] + t[2] > 0)
            front = pos >= n - pos
        if not front:
            return
        err = sum(r[i] * sum(om[i][k] * r[k] for k in range(9)) for i in range(9))
        if abs(state["min"] - err) > _EQUAL_ERR:
            if state["min"] > err:
                state["min"] = err
                state["sols"] = [(r, t, err)]
            return
        for idx, (r0, _, e0) in enumerate(state["sols"]):
            if sum((a - b) ** 2 for a, b in zip(r0, r)) < _EQUAL_VEC:
                if e0 > err:
                    state["sols"][idx] = (r, t, err)
                break
        else:
            state["sols"].append((r, t, err))
        state["min"] = min(state["min"], err)

    def from_vector(e):
        for sgn in (1.0, -1.0):
            check(_descend(_nearest_rotation([sgn * x for x in e]), L))

    neig = nnv if nnv > 0 else 1
    for i in range(9 - neig, 9):
        e = [math.sqrt(3.0) * x for x in cols[i]]
        if _ortho_error(e) < _ORTHO_TOL:
            d = _det9(e)
            check([d * x for x in e])
        else:
            from_vector(e)
    c = 1
    while 9 - neig - c > 0 and state["min"] > 3 * s[9 - neig - c]:
        from_vector(cols[9 - neig - c])
        c += 1
    if not state["sols"]:
        return None
    r, t, _ = state["sols"][0]
    from ._pnp import _rvec_of
    return _rvec_of([r[0:3], r[3:6], r[6:9]]), t
