"""cv2's robust point-set registration (RANSAC and LMEDS) for estimateAffine2D and
estimateAffinePartial2D, written to give cv2's inlier sets.

A robust fit is only reproducible if every random choice is the same, so this follows cv2's
procedure step by step (read in OpenCV's ptsetreg.cpp, written anew here):
- random numbers come from cv::RNG, a multiply-with-carry generator seeded with 2^64 - 1 at the
  start of every call; a sample draws `uniform(0, count)` until the index is new, and a sample
  whose last point is collinear with two earlier ones (in either point set) is drawn again;
- a minimal model is solved in closed form in double (3 points for the affine, 2 for the
  similarity), and the error of every point is computed in float32 with the model rounded to
  float32, as cv2 does, so that a point on the threshold falls on the same side;
- RANSAC keeps a model whose inlier count beats the best so far and shrinks the number of
  iterations from the confidence; LMEDS keeps the model of the smallest median error and then
  takes as inliers the points within 2.5 robust standard deviations.
cv2 then polishes the model by Levenberg-Marquardt on the inliers. The model is linear in its
parameters, so that converges to the least-squares fit, which is what is computed here (equal to
cv2's within ~1e-9 relative).
"""
import math

from ._common import f32 as _f32


class _CvRng:
    """cv::RNG: 64-bit multiply-with-carry; next() returns the low 32 bits of the new state."""

    def __init__(self, seed=(1 << 64) - 1):
        self.state = seed

    def next(self):
        s = self.state
        s = ((s & 0xFFFFFFFF) * 4164903690 + (s >> 32)) & 0xFFFFFFFFFFFFFFFF
        self.state = s
        return s & 0xFFFFFFFF

    def uniform(self, a, b):
        return a if a == b else self.next() % (b - a) + a


_FLT_EPSILON = 1.1920928955078125e-07


def _collinear_last(pts):
    """Whether the last point lies on a line through two earlier ones (or too near one)."""
    i = len(pts) - 1
    xi, yi = pts[i]
    for j in range(i):
        dx1, dy1 = pts[j][0] - xi, pts[j][1] - yi
        for k in range(j):
            dx2, dy2 = pts[k][0] - xi, pts[k][1] - yi
            if abs(dx2 * dy1 - dy2 * dx1) <= _FLT_EPSILON * (abs(dx1) + abs(dy1) + abs(dx2) + abs(dy2)):
                return True
    return False


def _affine_kernel(s, d):
    """The affine map of 3 point pairs, in closed form (cv2's Affine2DEstimatorCallback)."""
    (x1, y1), (x2, y2), (x3, y3) = s
    (X1, Y1), (X2, Y2), (X3, Y3) = d
    den = x1 * (y2 - y3) + x2 * (y3 - y1) + x3 * (y1 - y2)
    if den == 0:
        return None
    k = 1.0 / den
    rows = []
    for A1, A2, A3 in ((X1, X2, X3), (Y1, Y2, Y3)):
        rows.append([k * (A1 * (y2 - y3) + A2 * (y3 - y1) + A3 * (y1 - y2)),
                     k * (A1 * (x3 - x2) + A2 * (x1 - x3) + A3 * (x2 - x1)),
                     k * (A1 * (x2 * y3 - x3 * y2) + A2 * (x3 * y1 - x1 * y3) + A3 * (x1 * y2 - x2 * y1))])
    return rows


def _similarity_kernel(s, d):
    """Rotation + uniform scale + shift of 2 point pairs (cv2's AffinePartial2DEstimatorCallback)."""
    (x1, y1), (x2, y2) = s
    (X1, Y1), (X2, Y2) = d
    den = (x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y2)
    if den == 0:
        return None
    k = 1.0 / den
    s0 = k * ((X1 - X2) * (x1 - x2) + (Y1 - Y2) * (y1 - y2))
    s1 = k * ((Y1 - Y2) * (x1 - x2) - (X1 - X2) * (y1 - y2))
    s2 = k * ((Y1 - Y2) * (x1 * y2 - x2 * y1) - (X1 * y2 - X2 * y1) * (y1 - y2) - (X1 * x2 - X2 * x1) * (x1 - x2))
    s3 = k * (-(X1 - X2) * (x1 * y2 - x2 * y1) - (Y1 * x2 - Y2 * x1) * (x1 - x2) - (Y1 * y2 - Y2 * y1) * (y1 - y2))
    return [[s0, -s1, s2], [s1, s0, s3]]


def _errors(m, s, d):
    """Squared reprojection errors in float32 with the model rounded to float32 (cv2's)."""
    f = _f32
    F0, F1, F2 = f(m[0][0]), f(m[0][1]), f(m[0][2])
    F3, F4, F5 = f(m[1][0]), f(m[1][1]), f(m[1][2])
    out = []
    for (x, y), (u, v) in zip(s, d):
        a = f(f(f(f(F0 * x) + f(F1 * y)) + F2) - u)
        b = f(f(f(f(F3 * x) + f(F4 * y)) + F5) - v)
        out.append(f(f(a * a) + f(b * b)))
    return out


def _inliers(m, s, d, thresh):
    t = _f32(thresh * thresh)
    return [e <= t for e in _errors(m, s, d)]


def _update_iters(p, ep, model_points, max_iters):
    """cv2's RANSACUpdateNumIters: iterations for confidence p at outlier ratio ep."""
    p, ep = min(max(p, 0.0), 1.0), min(max(ep, 0.0), 1.0)
    num = max(1.0 - p, 2.2250738585072014e-308)
    denom = 1.0 - (1.0 - ep) ** model_points
    if denom < 2.2250738585072014e-308:
        return 0
    num, denom = math.log(num), math.log(denom)
    return max_iters if denom >= 0 or -num >= max_iters * (-denom) else int(round(num / denom))


def _subset(s, d, need, rng, max_attempts):
    """cv2's getSubset: `need` distinct indices whose last point is not collinear with the others."""
    count = len(s)
    for _ in range(max_attempts):
        idx = []
        while len(idx) < need:
            while True:
                i = rng.uniform(0, count)
                if i not in idx:
                    break
            idx.append(i)
        ms, md = [s[i] for i in idx], [d[i] for i in idx]
        if need >= 3 and (_collinear_last(ms) or _collinear_last(md)):
            continue
        return ms, md
    return None


def registration(s, d, partial, lmeds, threshold, confidence, max_iters):
    """(model rows or None, inlier flags) of cv2's RANSAC / LMEDS run on float32 points."""
    need = 2 if partial else 3
    kernel = _similarity_kernel if partial else _affine_kernel
    count = len(s)
    rng = _CvRng()
    if count == need:
        m = kernel(s, d)
        return (m, [True] * count) if m is not None else (None, [False] * count)
    if lmeds:
        niters = max(_update_iters(confidence, 0.45, need, max_iters), 3)
        best, min_median = None, math.inf
        for it in range(niters):
            sub = _subset(s, d, need, rng, 1000)
            if sub is None:
                if it == 0:
                    return None, [False] * count
                break
            m = kernel(*sub)
            if m is None:
                continue
            median = sorted(_errors(m, s, d))[count // 2]
            if median < min_median:
                min_median, best = median, m
        if best is None:
            return None, [False] * count
        sigma = max(2.5 * 1.4826 * (1 + 5.0 / (count - need)) * math.sqrt(min_median), 0.001)
        inl = _inliers(best, s, d, sigma)
        return (best, inl) if sum(inl) >= need else (None, [False] * count)
    niters = max(max_iters, 1)
    best, best_mask, best_count = None, None, 0
    it = 0
    while it < niters:
        sub = _subset(s, d, need, rng, 10000)
        if sub is None:
            if it == 0:
                return None, [False] * count
            break
        it += 1
        m = kernel(*sub)
        if m is None:
            continue
        mask = _inliers(m, s, d, threshold)
        good = sum(mask)
        if good > max(best_count, need - 1):
            best, best_mask, best_count = m, mask, good
            niters = _update_iters(confidence, (count - good) / count, need, niters)
    if best is None:
        return None, [False] * count
    return best, best_mask
