"""cv2.minEnclosingTriangle: the minimum-area triangle around a point set.

The linear-time rotating algorithm of O'Rourke, Aggarwal, Maddila and Baldwin (1986), in the form
of Parvu and Gilbert's implementation that cv2 ships: for every edge c of the convex hull taken as
a side flush with the hull, advance the indices a and b around the hull, decide whether side B is
tangent at b or flush with an edge, and keep the triangle whose side midpoints touch the hull.
Every decision there compares distances and angles with a 1e-5 tolerance on float32 hull points,
so the point differences and products are rounded to float32 where cv2's Point2f arithmetic
rounds them. Written from the paper and from reading OpenCV's min_enclosing_triangle.cpp; none of
its code is copied.
"""
import math

from ._common import as_image, fail
from ._common import f32 as _f32

__all__ = ["minEnclosingTriangle"]

_EPS = 1e-5
_BELOW, _ABOVE, _CRITICAL = 1, 2, 3
_A_TANGENT, _B_TANGENT, _FLUSH = 0, 1, 2


def _almost_equal(x, y):
    return abs(x - y) <= _EPS * max(1.0, abs(x), abs(y))


def _ge(x, y):
    return x > y or _almost_equal(x, y)


def _le(x, y):
    return x < y or _almost_equal(x, y)


def _sub(p, q):
    """(p - q) per coordinate, as float32 (Point2f arithmetic)."""
    return _f32(p[0] - q[0]), _f32(p[1] - q[1])


def _dist_to_line(a, b, c):
    """Distance of point a from the line through b and c."""
    t1, t4 = _f32(c[0] - b[0]), _f32(c[1] - b[1])
    t2, t3 = _f32(b[1] - a[1]), _f32(b[0] - a[0])
    den = math.sqrt(t1 * t1 + t4 * t4)
    return abs(t1 * t2 - t3 * t4) / den if den != 0 else 0.0


def _dist(a, b):
    dx, dy = _sub(a, b)
    return math.sqrt(dx * dx + dy * dy)


def _area(a, b, c):
    f = _f32
    pos = f(f(f(a[0] * b[1]) + f(a[1] * c[0])) + f(b[0] * c[1]))
    neg = f(f(f(b[1] * c[0]) + f(a[0] * c[1])) + f(a[1] * b[0]))
    return abs(pos - neg) / 2


def _mid(a, b):
    return _f32(_f32(a[0] + b[0]) / 2), _f32(_f32(a[1] + b[1]) / 2)


def _angle(a, b):
    """Angle of the line a -> b against the x axis, in degrees [0, 360)."""
    dx, dy = _sub(b, a)
    ang = math.atan2(dy, dx) * 180 / math.pi
    return ang + 360 if ang < 0 else ang


def _opposite(a):
    return a - 180 if a > 180 else a + 180


def _c_mod(x, m):
    """C's % on ints (the result takes the dividend's sign)."""
    r = abs(x) % m
    return -r if x < 0 else r


def _between(a1, a2, a3):
    if _c_mod(int(a2 - a3), 180) > 0:
        return a3 < a1 < a2
    return a2 < a1 < a3


def _between_non_reflex(a1, a2, a3):
    if abs(a2 - a3) > 180:
        lo, hi = (a3, a2) if a2 > a3 else (a2, a3)
        return (hi < a1 and _le(a1, 360)) or (_le(0, a1) and a1 < lo)
    return _between(a1, a2, a3)


def _line_params(p, q):
    if _almost_equal(p[0], q[0]) and _almost_equal(p[1], q[1]):
        raise fail("minEnclosingTriangle", "areEqualPoints(p, q) == false (degenerate hull edge)")
    a = _f32(q[1] - p[1])
    b = _f32(p[0] - q[0])
    return a, b, (-p[1]) * b - p[0] * a


def _intersect_coeffs(a1, b1, c1, a2, b2, c2):
    det = a1 * b2 - a2 * b1
    if _almost_equal(det, 0):
        return None
    return _f32((c1 * b2 - c2 * b1) / det), _f32((c2 * a1 - c1 * a2) / det)


def _intersect_points(a1, b1, a2, b2):
    A1, B1 = _f32(b1[1] - a1[1]), _f32(a1[0] - b1[0])
    A2, B2 = _f32(b2[1] - a2[1]), _f32(a2[0] - b2[0])
    return _intersect_coeffs(A1, B1, a1[0] * A1 + a1[1] * B1, A2, B2, a2[0] * A2 + a2[1] * B2)


def _identical(a1, b1, c1, a2, b2, c2):
    return _almost_equal(a1 * b2, a2 * b1) and _almost_equal(b1 * c2, b2 * c1) and _almost_equal(a1 * c2, a2 * c1)


def _same_side(p1, p2, a, b):
    la, lb, lc = _line_params(a, b)
    s1 = la * p1[0] + lb * p1[1] + lc
    s2 = la * p2[0] + lb * p2[1] + lc
    return (s1 > 0) - (s1 < 0) == (s2 > 0) - (s2 < 0)


def _on_segment(p, s, e):
    return _almost_equal(_dist(p, s) + _dist(p, e), _dist(s, e))


class _Search:
    """The rotating search over one convex polygon (clockwise, as cv2's hull)."""

    def __init__(self, poly):
        self.p = poly
        self.n = len(poly)

    def succ(self, i):
        return (i + 1) % self.n

    def pred(self, i):
        return self.n - 1 if i == 0 else i - 1

    def height_at(self, pt, c):
        return _dist_to_line(pt, self.p[c], self.p[self.pred(c)])

    def height(self, i, c):
        return self.height_at(self.p[i], c)

    def gamma_points(self, c, idx, s1a, s1b, s2a, s2b):
        """The two points on side 1 at twice idx's height from side 2 (either side of it)."""
        a1, b1, c1 = _line_params(s1a, s1b)
        a2, b2, c2 = _line_params(s2a, s2b)
        extra = 2 * self.height(idx, c) * math.sqrt(a2 * a2 + b2 * b2)
        p1 = _intersect_coeffs(a1, b1, -c1, a2, b2, -c2 - extra)
        p2 = _intersect_coeffs(a1, b1, -c1, a2, b2, -c2 + extra)
        if p1 is not None and p2 is not None:
            return p1, p2
        if (_identical(a1, b1, -c1, a2, b2, -c2 - extra) or _identical(a1, b1, -c1, a2, b2, -c2 + extra)):
            return s1a, s1b
        return None

    def pick_inside(self, pts, c):
        p1, p2 = pts
        return p1 if _same_side(p1, self.p[self.succ(c)], self.p[c], self.p[self.pred(c)]) else p2

    def gamma(self, idx, a, c):
        pts = self.gamma_points(c, idx, self.p[a], self.p[self.pred(a)], self.p[c], self.p[self.pred(c)])
        return None if pts is None else self.pick_inside(pts, c)

    def above_or_below(self, other, idx, c):
        return _ABOVE if self.height(other, c) > self.height(idx, c) else _BELOW

    def intersects(self, ang, idx, c):
        p = self.p
        a_pred = _angle(p[self.pred(idx)], p[idx])
        a_succ = _angle(p[self.succ(idx)], p[idx])
        a_flush = _angle(p[self.pred(c)], p[c])
        flush_between = _between_non_reflex(a_flush, a_pred, a_succ)
        if not flush_between and _between_non_reflex(_opposite(a_flush), a_pred, a_succ):
            a_flush, flush_between = _opposite(a_flush), True
        if flush_between:
            if _between_non_reflex(ang, a_pred, a_flush) or _almost_equal(ang, a_pred):
                return self.above_or_below(self.pred(idx), idx, c)
            if _between_non_reflex(ang, a_succ, a_flush) or _almost_equal(ang, a_succ):
                return self.above_or_below(self.succ(idx), idx, c)
        elif (_between_non_reflex(ang, a_pred, a_succ) or
              (_almost_equal(ang, a_pred) and not _almost_equal(ang, a_flush)) or
              (_almost_equal(ang, a_succ) and not _almost_equal(ang, a_flush))):
            return _BELOW
        return _CRITICAL

    def below(self, g, idx, c):
        return self.intersects(_angle(self.p[idx], g), idx, c) == _BELOW

    def above(self, g, idx, c):
        return self.intersects(_angle(g, self.p[idx]), idx, c) == _ABOVE

    def run(self):
        p, n = self.p, self.n
        best, best_area = None, 1.7976931348623157e308
        a, b = 1, 2
        for c in range(n):
            while _ge(self.height(self.succ(b), c), self.height(b, c)):  # b onto the right chain
                b = self.succ(b)
            while self.height(b, c) > self.height(a, c):  # move a if low, b if high
                g = self.gamma(a, a, c)
                if g is not None and self.below(g, b, c):
                    b = self.succ(b)
                else:
                    a = self.succ(a)
            while True:  # search for the tangency of side B
                g = self.gamma(b, a, c)
                if g is not None and self.below(g, b, c) and _ge(self.height(b, c), self.height(self.pred(a), c)):
                    b = self.succ(b)
                else:
                    break
            c_start, c_end = p[self.pred(c)], p[c]
            a_start, a_end = p[self.pred(a)], p[a]
            g = self.gamma(b, a, c)
            if (g is not None and self.above(g, b, c)) or self.height(b, c) < self.height(self.pred(a), c):
                b_start, b_end = p[self.pred(b)], p[b]  # side B flush with edge [b-1, b]
                va = _intersect_points(b_start, b_end, c_start, c_end)
                vc = _intersect_points(b_start, b_end, a_start, a_end)
                if va is not None and vc is not None and \
                        self.height_at(_mid(va, vc), c) < self.height(self.pred(a), c):
                    pts = self.gamma_points(c, self.pred(a), b_start, b_end, c_start, c_end)
                    if pts is None:
                        raise fail("minEnclosingTriangle", "The position of the vertex C on side B could not be "
                                                          "determined, because the considered lines do not intersect.")
                    a_end = self.pick_inside(pts, c)
                    flag = _A_TANGENT
                else:
                    flag = _FLUSH
            else:
                if g is None:
                    raise fail("minEnclosingTriangle", "The position of side B could not be determined, because "
                                                      "gamma(b) could not be computed.")
                b_start, b_end = g, p[b]
                flag = _B_TANGENT
            vc = _intersect_points(a_start, a_end, b_start, b_end)
            vb = _intersect_points(a_start, a_end, c_start, c_end)
            va = _intersect_points(b_start, b_end, c_start, c_end)
            if vc is None or vb is None or va is None:
                continue
            ma, mb, mc = _mid(vb, vc), _mid(va, vc), _mid(va, vb)
            ok_a = (_almost_equal(ma[0], p[self.pred(a)][0]) and _almost_equal(ma[1], p[self.pred(a)][1])) \
                if flag == _A_TANGENT else _on_segment(ma, a_start, a_end)
            ok_b = (_almost_equal(mb[0], p[b][0]) and _almost_equal(mb[1], p[b][1])) \
                if flag == _B_TANGENT else _on_segment(mb, b_start, b_end)
            ok_c = flag == _FLUSH or _on_segment(mc, c_start, c_end)
            if ok_a and ok_b and ok_c:
                ar = _area(va, vb, vc)
                if ar < best_area:
                    best, best_area = [va, vb, vc], ar
        return best, best_area


def minEnclosingTriangle(points, triangle=None):
    """cv2.minEnclosingTriangle: (area, the triangle's vertices (3, 2) float32) of the smallest
    triangle containing an int32 / float32 point set."""
    fn = "minEnclosingTriangle"
    from ._points import _points
    from ._structure import convexHull
    from ._points import _fill, _new
    vals, n, _ = _points(points, fn, 2, "points")
    if n == 0:
        raise fail(fn, "(pointsMat.checkVector(2) > 0) (the point set is empty)")
    pts = _new([_f32(float(v)) for v in vals], "float32", (n, 2))
    hull = [float(v) for v in _hull_values(convexHull(pts, clockwise=True))]
    poly = list(zip(hull[0::2], hull[1::2]))
    if len(poly) > 3:
        tri, area = _Search(poly).run()
        if tri is None:
            return 1.7976931348623157e308, None
    else:
        tri = [poly[i % len(poly)] for i in range(3)]
        area = _area(*tri)
    return area, _fill(triangle, _new([v for p in tri for v in p], "float32", (3, 2)))


def _hull_values(h):
    from ._points import _flat
    return _flat(as_image(h, "minEnclosingTriangle", "hull"))
