"""Convex polygon intersections: cv2.rotatedRectangleIntersection and cv2.intersectConvexConvex.

Both run on float32 corners, and each of their decisions (which side of an edge a corner lies,
whether two points are the same) depends on float32 rounding, so the arithmetic is rounded to
float32 where cv2's Point2f arithmetic rounds it; the results are cv2's bit for bit. Written from
reading OpenCV's intersection.cpp and geometry.cpp (O'Rourke's algorithm from "Computational
Geometry in C"); none of its code is copied."""
import math

from ._common import f32 as _f32
from ._points import INTERSECT_FULL, INTERSECT_NONE, INTERSECT_PARTIAL, _FLT_MAX, _fill, _flat, _new, _pairs, _points
from ._structure import boxPoints as _box_points

__all__ = ["rotatedRectangleIntersection", "intersectConvexConvex"]


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
    return ret, _fill(intersectingRegion, _new(flat, "float32", (len(inter), 2)))


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
    return float(_f32(abs(area))), _fill(p12, _new(flat, "float32", (len(res), 1, 2)))

