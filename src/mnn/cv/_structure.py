"""cv2's structural analysis and shape descriptors: findContours, connected components, and the
measures taken on contours (area, perimeter, bounding boxes, hulls, moments, fits).

findContours and the connected-component labelling scan whole images, so they run natively
(csrc/ops/cv/contours*.cpp: findContours as one direct call returning realised arrays;
csrc/ops/cv/components.cpp: the labelling, n, stats and centroids as another); the per-contour measures work on a few
hundred points and run here in Python, following cv2's arithmetic (float32 where cv2 computes in
float, the same tie-breaking and starting points) so results match cv2's. The reference is cv2
5.0, whose conventions differ from 4.x in places: minAreaRect's angle lies in [-90, 0),
fitEllipse uses the direct fit for exactly 5 points, minEnclosingCircle of 3 points is the
smallest circle (not the circumcircle). findContours takes int32 label images with
RETR_FLOODFILL (and RETR_CCOMP, which cv2 5 runs as FLOODFILL on them): every region of equal
labels, zero included, gets its borders traced.
"""
import math
from array import array

from .. import _core
from .. import numpy as _np
from ._common import f32 as _f32
from ._common import as_image, fail
from ._core_ops import the_rng

__all__ = [
    "RETR_EXTERNAL", "RETR_LIST", "RETR_CCOMP", "RETR_TREE", "RETR_FLOODFILL",
    "CHAIN_APPROX_NONE", "CHAIN_APPROX_SIMPLE", "CHAIN_APPROX_TC89_L1", "CHAIN_APPROX_TC89_KCOS",
    "CC_STAT_LEFT", "CC_STAT_TOP", "CC_STAT_WIDTH", "CC_STAT_HEIGHT", "CC_STAT_AREA", "CC_STAT_MAX",
    "CCL_DEFAULT", "CCL_WU", "CCL_GRANA", "CCL_BOLELLI", "CCL_SAUF", "CCL_BBDT", "CCL_SPAGHETTI",
    "findContours", "contourArea", "arcLength", "boundingRect", "minAreaRect", "boxPoints",
    "convexHull", "approxPolyDP", "moments", "pointPolygonTest", "fitEllipse", "minEnclosingCircle",
    "connectedComponents", "connectedComponentsWithStats",
]

# cv2's values (imgproc.hpp).
RETR_EXTERNAL, RETR_LIST, RETR_CCOMP, RETR_TREE, RETR_FLOODFILL = 0, 1, 2, 3, 4
CHAIN_APPROX_NONE, CHAIN_APPROX_SIMPLE, CHAIN_APPROX_TC89_L1, CHAIN_APPROX_TC89_KCOS = 1, 2, 3, 4
CC_STAT_LEFT, CC_STAT_TOP, CC_STAT_WIDTH, CC_STAT_HEIGHT, CC_STAT_AREA, CC_STAT_MAX = 0, 1, 2, 3, 4, 5
CCL_DEFAULT, CCL_WU, CCL_GRANA, CCL_BOLELLI, CCL_SAUF, CCL_BBDT, CCL_SPAGHETTI = -1, 0, 1, 2, 3, 4, 5
_CV_16U, _CV_32S = 2, 4
_FLT_MAX = 3.4028234663852886e38
_DBL_MAX = 1.7976931348623157e308


def _new_array(values, is_float, shape):
    """An int32 / float32 mnn array of `shape` holding `values` (flat, row-major), built from an
    array.array buffer: much cheaper than converting nested lists."""
    fmt = "f" if is_float else "i"
    buf = array(fmt, values)
    return _core.from_buffer(memoryview(buf).cast("B").cast(fmt, shape))


def _point_array(pts, is_float):
    """(N, 1, 2) points from a list of (x, y) pairs."""
    flat = [v for p in pts for v in p]
    return _new_array(flat, is_float, (len(pts), 1, 2))


def _single_channel(image, fn):
    img = as_image(image, fn, "image")
    if img.ndim == 3 and img.shape[2] == 1:
        img = img.reshape(img.shape[:2])
    if img.ndim != 2:
        raise fail(fn, f"expected a single-channel 2-d image, got shape {tuple(img.shape)} "
                       "(cv2: supports only CV_8UC1 images)")
    return img


def _image8(image, fn, depths=("uint8",)):
    """A single-channel 8-bit image as a contiguous mnn array (findContours takes CV_8UC1 only,
    the connected-component functions CV_8UC1 or CV_8SC1)."""
    img = _single_channel(image, fn)
    if str(img.dtype) not in depths:
        raise fail(fn, f"unsupported image depth {img.dtype}; expected {' or '.join(depths)} "
                       "(cv2: only CV_8UC1 images)")
    return _np.ascontiguousarray(img)


# ---------------------------------------------------------------------------------------------
# findContours

def findContours(image, mode, method, contours=None, hierarchy=None, offset=None):
    """cv2.findContours: (contours, hierarchy) with cv2's contours, order, starting points and
    hierarchy [next, previous, first child, parent]; hierarchy is None when nothing is found."""
    fn = "findContours"
    mode, method = (0 if v is None else int(v) for v in (mode, method))  # cv2 passes None as 0
    if mode not in (RETR_EXTERNAL, RETR_LIST, RETR_CCOMP, RETR_TREE, RETR_FLOODFILL):
        raise fail(fn, f"unknown retrieval mode {mode}")
    if method not in (CHAIN_APPROX_NONE, CHAIN_APPROX_SIMPLE, CHAIN_APPROX_TC89_L1, CHAIN_APPROX_TC89_KCOS):
        raise fail(fn, f"unknown approximation method {method}")
    ox, oy = (0, 0) if offset is None else (int(offset[0]), int(offset[1]))
    if type(image) is _core.ndarray and image.ndim == 2 and image.dtype == _np.uint8 and \
            mode != RETR_FLOODFILL:
        # the common case (a 2-d uint8 mnn image) skips the general checks below
        img = _core.as_contiguous(image)
    else:
        img = _single_channel(image, fn)
        if mode == RETR_FLOODFILL or (mode == RETR_CCOMP and str(img.dtype) == "int32"):
            # cv2 5 traces int32 label images region by region (RETR_CCOMP on int32 runs as FLOODFILL)
            if str(img.dtype) != "int32":
                raise fail(fn, f"RETR_FLOODFILL mode supports only CV_32SC1 (int32) images, got {img.dtype}")
            mode = RETR_FLOODFILL
        elif str(img.dtype) != "uint8":
            raise fail(fn, f"unsupported image depth {img.dtype}; expected uint8 (cv2: modes other than "
                           "RETR_FLOODFILL and RETR_CCOMP support only CV_8UC1 images)")
        img = _np.ascontiguousarray(img)
    # One native call traces and returns every contour as a realised array over a slice of one
    # shared buffer (no graph node, no evaluation): a photo has hundreds of contours, and building
    # each as its own node and buffer cost a third of the tracing.
    return _core.cv_find_contours(img, mode, method, ox, oy)


# ---------------------------------------------------------------------------------------------
# point sets

_FORMATS = {"i": "i", "<i": "i", "=i": "i", "l": None, "f": "f", "<f": "f", "=f": "f"}


def _point_list(curve, fn, name="points"):
    """(xs, ys, is_float) of a cv2 point set: int32 or float32, shaped (N, 2), (N, 1, 2) or (1, N, 2)."""
    if not isinstance(curve, (list, tuple)):
        # fast path: a contiguous int32/float32 buffer (numpy or mnn) read directly
        try:
            mv = memoryview(curve)
        except TypeError:
            mv = None
        if mv is not None and mv.c_contiguous and _FORMATS.get(mv.format) and mv.itemsize == 4:
            shape = mv.shape
            if (len(shape) == 2 and shape[1] == 2) or (len(shape) == 3 and shape[2] == 2 and
                                                       (shape[1] == 1 or shape[0] == 1)):
                fmt = _FORMATS[mv.format]
                vals = mv.cast("B").cast(fmt).tolist() if mv.nbytes else []
                return vals[0::2], vals[1::2], fmt == "f"
    if isinstance(curve, (list, tuple)) and not hasattr(curve, "dtype"):
        flat = []
        for p in curve:
            while isinstance(p, (list, tuple)) and len(p) == 1:
                p = p[0]
            flat.append(p)
        is_float = any(isinstance(v, float) for p in flat for v in p)
        curve = _np.array(flat, dtype="float32" if is_float else "int32").reshape(-1, 2) if flat else \
            _np.zeros((0, 2), dtype="int32")
    a = as_image(curve, fn, name)
    dt = str(a.dtype)
    shape = tuple(a.shape)
    ok_shape = (len(shape) == 2 and shape[1] == 2) or (len(shape) == 3 and shape[2] == 2 and
                                                          (shape[1] == 1 or shape[0] == 1))
    if dt not in ("int32", "float32") or not ok_shape:
        raise fail(fn, f"expected an int32 or float32 point set of shape (N, 2), (N, 1, 2) or (1, N, 2), got "
                       f"{dt} array of shape {shape} (cv2: npoints >= 0 && (depth == CV_32F || depth == CV_32S))")
    n = a.size // 2
    if n == 0:
        return [], [], dt == "float32"
    mv = memoryview(_np.ascontiguousarray(a)).cast("B").cast("f" if dt == "float32" else "i")
    vals = mv.tolist()
    return vals[0::2], vals[1::2], dt == "float32"


# From this many points on, the measures run as mnn.numpy expressions: below it the per-point
# loops win (each new length is a new plan for the engine).
_VECTOR_MIN = 2048


def _large_point_set(curve, fn, name):
    """A point set of at least _VECTOR_MIN points as an (N, 2) float32 mnn array (cv2's Point2f
    view), or None for smaller sets and Python sequences (the per-point loops are faster there)."""
    if isinstance(curve, (list, tuple)) or not hasattr(curve, "shape"):
        return None
    shape = tuple(curve.shape)
    if not shape or shape[-1] != 2 or len(shape) > 3:
        return None
    n = 1
    for d in shape[:-1]:
        n *= d
    if n < _VECTOR_MIN:
        return None
    a = as_image(curve, fn, name)
    dt = str(a.dtype)
    ok_shape = len(shape) == 2 or shape[1] == 1 or shape[0] == 1
    if dt not in ("int32", "float32") or not ok_shape:
        _point_list(a, fn, name)  # raises cv2's error
    return a.reshape(n, 2).astype("float32")


def _points_f32(xs, ys, is_float):
    """cv2's Point2f view of the points (int coordinates converted to float32)."""
    if is_float:
        return xs, ys
    return list(array("f", xs)), list(array("f", ys))


def contourArea(contour, oriented=False):
    """cv2.contourArea: the shoelace sum in double over float32 points; signed when oriented."""
    fn = "contourArea"
    pts = _large_point_set(contour, fn, "contour")
    if pts is not None:
        p = pts.astype("float64")
        q = _np.concatenate([p[-1:], p[:-1]])  # the previous point of each
        a = float((q[:, 0] * p[:, 1] - q[:, 1] * p[:, 0]).sum()) * 0.5
        return a if oriented else abs(a)
    xs, ys = _points_f32(*_point_list(contour, fn, "contour"))
    n = len(xs)
    if n == 0:
        return 0.0
    a = 0.0
    px, py = xs[-1], ys[-1]
    for x, y in zip(xs, ys):
        a += px * y - py * x
        px, py = x, y
    a *= 0.5
    return a if oriented else abs(a)


def _f32s(values):
    """Every value rounded to float32 at once (array('f') stores them as cv2's float would)."""
    return array("f", values).tolist()


def arcLength(curve, closed):
    """cv2.arcLength: float32 segment lengths (dx, dy, their squares, the sum and the root each
    rounded to float) summed in double."""
    fn = "arcLength"
    pts = _large_point_set(curve, fn, "curve")
    if pts is not None:
        prev = _np.concatenate([pts[-1:] if closed else pts[:1], pts[:-1]])
        d = pts - prev  # float32, as cv2
        return float(_np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]).astype("float64").sum())
    xs, ys, is_float = _point_list(curve, fn, "curve")
    n = len(xs)
    if n <= 1:
        return 0.0
    last = n - 1 if closed else 0
    px = [xs[last]] + xs[:-1]
    py = [ys[last]] + ys[:-1]
    if not is_float and max(map(abs, xs)) < 2048 and max(map(abs, ys)) < 2048:
        # small integer coordinates: the differences and squared lengths are exact in float,
        # so only the square roots need rounding
        total = 0.0
        for v in _f32s([math.sqrt((a - b) * (a - b) + (c - d) * (c - d)) for a, b, c, d in zip(xs, px, ys, py)]):
            total += v
        return total
    xs, ys = _points_f32(xs, ys, is_float)
    px, py = _points_f32(px, py, is_float)
    dx = _f32s([a - b for a, b in zip(xs, px)])
    dy = _f32s([a - b for a, b in zip(ys, py)])
    sq = _f32s([a + b for a, b in zip(_f32s([d * d for d in dx]), _f32s([d * d for d in dy]))])
    total = 0.0
    for v in _f32s([math.sqrt(v) for v in sq]):
        total += v
    return total


def boundingRect(array_):
    """cv2.boundingRect: (x, y, w, h) of a point set, or of the non-zero pixels of a uint8 image."""
    fn = "boundingRect"
    a = array_
    if not isinstance(a, (list, tuple)):
        a = as_image(a, fn, "array")
        if str(a.dtype) in ("uint8", "bool"):
            if a.ndim == 3 and a.shape[2] == 1:
                a = a.reshape(a.shape[:2])
            if a.ndim != 2:
                raise fail(fn, "expected a single-channel 8-bit image (cv2: img.depth() <= CV_8S && img.channels() == 1)")
            nz = a != 0
            rows = nz.any(axis=1).tolist()
            cols = nz.any(axis=0).tolist()
            if not any(rows):
                return (0, 0, 0, 0)
            y0 = rows.index(True)
            y1 = len(rows) - 1 - rows[::-1].index(True)
            x0 = cols.index(True)
            x1 = len(cols) - 1 - cols[::-1].index(True)
            return (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    xs, ys, is_float = _point_list(a, fn, "array")
    if not xs:
        return (0, 0, 0, 0)
    if is_float:
        if not all(map(math.isfinite, xs + ys)):
            # cv2 floors NaN and inf to INT_MIN or skips them, depending on its SIMD lanes: no answer to match
            raise fail(fn, "the points must be finite (got NaN or inf)")
        x0, x1 = math.floor(min(xs)), math.floor(max(xs))
        y0, y1 = math.floor(min(ys)), math.floor(max(ys))
    else:
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return (int(x0), int(y0), int(x1 - x0 + 1), int(y1 - y0 + 1))


# ---------------------------------------------------------------------------------------------
# convex hull (Sklansky's scan as cv2 runs it, natively: same hull, orientation and starting point)

def _hull_indices(xs, ys, clockwise, is_float):
    """Indices of the convex hull in cv2's order and starting point (native: cv_convex_hull)."""
    n = len(xs)
    flat = [0] * (2 * n)
    flat[0::2], flat[1::2] = xs, ys
    res = _core.prim("cv_convex_hull", [_new_array(flat, is_float, (n, 2))], [int(bool(clockwise))], [])
    out = memoryview(res).cast("B").cast("i")
    return out[1: 1 + out[0]].tolist()


def convexHull(points, hull=None, clockwise=False, returnPoints=True):
    """cv2.convexHull: the hull's points (N, 1, 2) in the input's dtype, or their indices (N, 1) int32."""
    xs, ys, is_float = _point_list(points, "convexHull")
    if not xs:
        return None  # cv2 releases the output for an empty point set
    idx = _hull_indices(xs, ys, bool(clockwise), is_float)
    if not returnPoints:
        return _new_array(idx, False, (len(idx), 1))
    return _point_array([(xs[i], ys[i]) for i in idx], is_float)


# ---------------------------------------------------------------------------------------------
# polygon approximation (Ramer-Douglas-Peucker, cv2's variant)

def approxPolyDP(curve, epsilon, closed, approxCurve=None):
    """cv2.approxPolyDP: cv2's Douglas-Peucker (its initial split of closed curves and its final
    pass that drops points on nearly straight lines), returned as (N, 1, 2) in the input's dtype."""
    fn = "approxPolyDP"
    epsilon = float(epsilon)
    if epsilon < 0.0 or not (epsilon < 1e30):
        raise fail(fn, "Epsilon not valid.")
    xs, ys, is_float = _point_list(curve, fn, "curve")
    count = len(xs)
    if count == 0:
        return None  # as cv2
    pts = list(zip(xs, ys))
    eps = epsilon * epsilon
    dst = []
    stack = []
    is_closed = bool(closed)
    init_iters = 3
    pos = 0
    right_start = 0
    start_pt = (-1000000, -1000000)
    if not is_closed:
        right_start = count
        end_pt, start_pt = pts[0], pts[count - 1]
        if start_pt != end_pt:
            stack.append((0, count - 1))
        else:
            is_closed = True
            init_iters = 1
    if is_closed:
        # 1. two roughly farthest points: repeat "farthest from the current start" a few times
        right_start = 0
        le_eps = False
        for _ in range(init_iters):
            pos = (pos + right_start) % count
            start_pt = pts[pos]
            pos = (pos + 1) % count
            max_dist = 0.0
            for j in range(1, count):
                pt = pts[pos]
                pos = (pos + 1) % count
                dx, dy = pt[0] - start_pt[0], pt[1] - start_pt[1]
                d = float(dx) * dx + float(dy) * dy
                if d > max_dist:
                    max_dist = d
                    right_start = j
            le_eps = max_dist <= eps
        if not le_eps:
            s0 = pos % count
            e0 = (right_start + s0) % count
            stack.append((e0, s0))
            stack.append((s0, e0))
        else:
            dst.append(start_pt)
    # 2. split each slice at its farthest point until every point is within epsilon
    while stack:
        s0, e0 = stack.pop()
        end_pt = pts[e0]
        pos = s0
        start_pt = pts[pos]
        pos = (pos + 1) % count
        if pos != e0:
            dx, dy = float(end_pt[0] - start_pt[0]), float(end_pt[1] - start_pt[1])
            seg2 = dx * dx + dy * dy
            best = 0.0
            while pos != e0:
                pt = pts[pos]
                pos = (pos + 1) % count
                rx, ry = float(pt[0] - start_pt[0]), float(pt[1] - start_pt[1])
                proj = rx * dx + ry * dy
                if proj < 0:
                    d = (rx * rx + ry * ry) * seg2
                elif proj > seg2:
                    ex, ey = float(pt[0] - end_pt[0]), float(pt[1] - end_pt[1])
                    d = (ex * ex + ey * ey) * seg2
                else:
                    d = ry * dx - rx * dy
                    d = d * d
                if d > best:
                    best = d
                    right_start = (pos + count - 1) % count
            le_eps = best <= eps * seg2
        else:
            le_eps = True
            start_pt = pts[s0]
        if le_eps:
            dst.append(start_pt)
        else:
            stack.append((right_start, e0))
            stack.append((s0, right_start))
    if not is_closed:
        dst.append(pts[count - 1])
    # 3. drop points that lie on [almost] straight lines between their neighbours
    is_closed = bool(closed)
    count = new_count = len(dst)
    pos = count - 1 if is_closed else 0
    start_pt = dst[pos]
    pos = (pos + 1) % count
    wpos = pos
    pt = dst[pos]
    pos = (pos + 1) % count
    i = 0 if is_closed else 1
    while i < count - (0 if is_closed else 1) and new_count > 2:
        end_pt = dst[pos]
        pos = (pos + 1) % count
        dx, dy = float(end_pt[0] - start_pt[0]), float(end_pt[1] - start_pt[1])
        dist = abs(float(pt[0] - start_pt[0]) * dy - float(pt[1] - start_pt[1]) * dx)
        inner = float(pt[0] - start_pt[0]) * (end_pt[0] - pt[0]) + float(pt[1] - start_pt[1]) * (end_pt[1] - pt[1])
        if dist * dist <= 0.5 * eps * (dx * dx + dy * dy) and dx != 0 and dy != 0 and inner >= 0:
            new_count -= 1
            dst[wpos] = start_pt = end_pt
            wpos = (wpos + 1) % count
            pt = dst[pos]
            pos = (pos + 1) % count
            i += 2
            continue
        dst[wpos] = start_pt = pt
        wpos = (wpos + 1) % count
        pt = end_pt
        i += 1
    if not is_closed:
        dst[wpos] = pt
    return _point_array(dst[:new_count], is_float)


# ---------------------------------------------------------------------------------------------
# rotated rectangles

def minAreaRect(points):
    """cv2.minAreaRect: ((cx, cy), (w, h), angle in degrees) of the minimum-area rotated rectangle
    (native: the clockwise hull, then rotating calipers in float; angle in [-90, 0) as cv2 5)."""
    xs, ys, is_float = _point_list(points, "minAreaRect")
    n = len(xs)
    if not n:
        return ((0.0, 0.0), (0.0, 0.0), -90.0)  # cv2 5 normalises the empty box's angle too
    flat = [0] * (2 * n)
    flat[0::2], flat[1::2] = xs, ys
    res = _core.prim("cv_min_area_rect", [_new_array(flat, is_float, (n, 2))], [], [])
    cx, cy, w, h, angle, ok = memoryview(res).cast("B").cast("f").tolist()
    if not ok:
        raise fail("minAreaRect", "degenerate hull (cv2: orientation != 0)")
    return ((cx, cy), (w, h), angle)


def boxPoints(box, points=None):
    """cv2.boxPoints: the 4 corners (4, 2) float32 of a rotated rectangle ((cx, cy), (w, h), angle)."""
    try:
        (cx, cy), (w, h), angle = box
        cx, cy, w, h = _f32(float(cx)), _f32(float(cy)), _f32(float(w)), _f32(float(h))
        angle = float(angle)
    except (TypeError, ValueError) as e:
        raise TypeError("[mnn.cv.boxPoints] box must be ((cx, cy), (width, height), angle)") from e
    f = _f32
    t = _f32(angle) * math.pi / 180.0
    b = f(f(math.cos(t)) * 0.5)
    a = f(f(math.sin(t)) * 0.5)
    p0x = f(f(cx - f(a * h)) - f(b * w))
    p0y = f(f(cy + f(b * h)) - f(a * w))
    p1x = f(f(cx + f(a * h)) - f(b * w))
    p1y = f(f(cy - f(b * h)) - f(a * w))
    # cv2 5 computes every corner from the centre (4.x mirrored the first two through it)
    p2x = f(f(cx + f(a * h)) + f(b * w))
    p2y = f(f(cy - f(b * h)) + f(a * w))
    p3x = f(f(cx - f(a * h)) + f(b * w))
    p3y = f(f(cy + f(b * h)) + f(a * w))
    return _new_array([p0x, p0y, p1x, p1y, p2x, p2y, p3x, p3y], True, (4, 2))


# ---------------------------------------------------------------------------------------------
# moments

_MOMENT_KEYS = ("m00", "m10", "m01", "m20", "m11", "m02", "m30", "m21", "m12", "m03")


def _complete_moments(m):
    """cv2's Moments::completeState: central (mu) and normalised central (nu) moments from m."""
    m00, m10, m01 = m["m00"], m["m10"], m["m01"]
    cx = cy = inv = 0.0
    if abs(m00) > 2.220446049250313e-16:
        inv = 1.0 / m00
        cx, cy = m10 * inv, m01 * inv
    mu20 = m["m20"] - m10 * cx
    mu11 = m["m11"] - m10 * cy
    mu02 = m["m02"] - m01 * cy
    mu30 = m["m30"] - cx * (3 * mu20 + cx * m10)
    mu11x2 = mu11 + mu11
    mu21 = m["m21"] - cx * (mu11x2 + cx * m01) - cy * mu20
    mu12 = m["m12"] - cy * (mu11x2 + cy * m10) - cx * mu02
    mu03 = m["m03"] - cy * (3 * mu02 + cy * m01)
    s2 = inv * inv
    s3 = s2 * math.sqrt(abs(inv))
    m.update(mu20=mu20, mu11=mu11, mu02=mu02, mu30=mu30, mu21=mu21, mu12=mu12, mu03=mu03,
             nu20=mu20 * s2, nu11=mu11 * s2, nu02=mu02 * s2,
             nu30=mu30 * s3, nu21=mu21 * s3, nu12=mu12 * s3, nu03=mu03 * s3)
    return m


def _contour_moments(xs, ys, is_float):
    """Green's-theorem moments of a polygon (cv2's contourMoments; native: cv_contour_moments)."""
    n = len(xs)
    if n == 0:
        return _complete_moments(dict.fromkeys(_MOMENT_KEYS, 0.0))
    flat = [0] * (2 * n)
    flat[0::2], flat[1::2] = xs, ys
    res = _core.prim("cv_contour_moments", [_new_array(flat, is_float, (n, 2))], [], [])
    return _complete_moments(dict(zip(_MOMENT_KEYS, memoryview(res).cast("B").cast("d").tolist())))


def _image_moments(img, binary):
    """Raster moments sum x^p y^q I(x, y) (p + q <= 3) as two small float64 matrix products."""
    h, w = img.shape
    v = (img != 0).astype("float64") if binary else img.astype("float64")
    ys = _np.arange(h, dtype="float64")
    xs = _np.arange(w, dtype="float64")
    ypow = _np.stack([ys ** 0, ys, ys * ys, ys * ys * ys])  # 4 x h
    xpow = _np.stack([xs ** 0, xs, xs * xs, xs * xs * xs])  # 4 x w
    mm = ((ypow @ v) @ xpow.T).tolist()  # mm[q][p] = sum x^p y^q I
    m = {f"m{p}{q}": float(mm[q][p]) for p in range(4) for q in range(4) if p + q <= 3}
    return _complete_moments({k: m[k] for k in _MOMENT_KEYS})


def moments(array_, binaryImage=False):
    """cv2.moments: a dict with m00..m03, mu20..mu03 and nu20..nu03 of a contour (int32/float32
    points) or of a single-channel image (non-zero pixels count as 1 when binaryImage). As in
    cv2, an int32/float32 array that reads as a point set ((N, 2), (N, 1, 2), (1, N, 2)) is one."""
    fn = "moments"
    if isinstance(array_, (list, tuple)):
        xs, ys, is_float = _point_list(array_, fn, "array")
        return _contour_moments(xs, ys, is_float)
    a = as_image(array_, fn, "array")
    dt, shape = str(a.dtype), tuple(a.shape)
    if dt in ("int32", "float32") and ((len(shape) == 2 and shape[1] == 2) or
                                       (len(shape) == 3 and shape[2] == 2 and 1 in shape[:2])):
        xs, ys, is_float = _point_list(a, fn, "array")
        return _contour_moments(xs, ys, is_float)
    if a.ndim == 3 and shape[2] == 1:
        a = a.reshape(shape[:2])
    if a.ndim != 2:
        raise fail(fn, f"expected a single-channel image or a point set, got shape {shape}")
    if dt not in ("uint8", "uint16", "int16", "float32", "float64"):
        raise fail(fn, f"unsupported image depth {dt} (cv2: Unsupported format or combination of formats)")
    return _image_moments(a, bool(binaryImage))


# ---------------------------------------------------------------------------------------------
# point in polygon, fits

def pointPolygonTest(contour, pt, measureDist):
    """cv2.pointPolygonTest: +1 / -1 / 0 (inside, outside, on an edge), or the signed distance to
    the nearest edge when measureDist."""
    xs, ys, is_float = _point_list(contour, "pointPolygonTest", "contour")
    total = len(xs)
    try:
        px, py = _f32(float(pt[0])), _f32(float(pt[1]))
    except (TypeError, ValueError, IndexError) as e:
        raise TypeError("[mnn.cv.pointPolygonTest] pt must be a pair of numbers") from e
    if total == 0:
        return -_DBL_MAX if measureDist else -1.0
    f = _f32  # cv2 converts the points to Point2f and subtracts in float
    xs, ys = _points_f32(xs, ys, is_float)
    counter = 0
    if not measureDist:
        vx, vy = xs[-1], ys[-1]
        for i in range(total):
            v0x, v0y, vx, vy = vx, vy, xs[i], ys[i]
            if (v0y <= py and vy <= py) or (v0y > py and vy > py) or (v0x < px and vx < px):
                if py == vy and (px == vx or (py == v0y and ((v0x <= px <= vx) or (vx <= px <= v0x)))):
                    return 0.0
                continue
            dist = float(f(py - v0y)) * f(vx - v0x) - float(f(px - v0x)) * f(vy - v0y)
            if dist == 0:
                return 0.0
            if vy < v0y:
                dist = -dist
            counter += dist > 0
        return -1.0 if counter % 2 == 0 else 1.0
    min_num, min_den = _FLT_MAX, 1.0
    vx, vy = xs[-1], ys[-1]
    for i in range(total):
        v0x, v0y, vx, vy = vx, vy, xs[i], ys[i]
        dx, dy = f(vx - v0x), f(vy - v0y)
        dx1, dy1 = f(px - v0x), f(py - v0y)
        dx2, dy2 = f(px - vx), f(py - vy)
        den = 1.0
        if dx1 * dx + dy1 * dy <= 0:
            num = dx1 * dx1 + dy1 * dy1
        elif dx2 * dx + dy2 * dy >= 0:
            num = dx2 * dx2 + dy2 * dy2
        else:
            num = dy1 * dx - dx1 * dy
            num *= num
            den = dx * dx + dy * dy
        if num * min_den < min_num * den:
            min_num, min_den = num, den
            if min_num == 0:
                break
        if (v0y <= py and vy <= py) or (v0y > py and vy > py) or (v0x < px and vx < px):
            continue
        num = dy1 * dx - dx1 * dy
        if dy < 0:
            num = -num
        counter += num > 0
    r = math.sqrt(min_num / min_den)
    return -r if counter % 2 == 0 else r


_DBL_EPS = 2.220446049250313e-16
_FLT_EPS = 1.1920928955078125e-07


def _svd(rows):
    """Thin SVD of an n x k matrix (rows: n lists of k floats, n >= k) by one-sided Jacobi
    rotations in cv2's order and formulas (its JacobiSVD: rotation angles from hypot, running
    column norms, at most max(n, 30) sweeps, a selection sort by singular value), so that a
    degenerate fit's noise, whose sign decides cv2's answer, comes out as cv2's does.
    Returns (w, us, vs), singular values descending with their left and right vectors."""
    m, k = len(rows), len(rows[0])
    at = [[r[j] for r in rows] for j in range(k)]  # cv2 works on the transpose: a row per column
    vt = [[1.0 if i == j else 0.0 for j in range(k)] for i in range(k)]
    w = [0.0] * k
    for i in range(k):
        sd = 0.0
        for t in at[i]:
            sd += t * t
        w[i] = sd
    eps = 10 * _DBL_EPS
    for _ in range(max(m, 30)):
        changed = False
        for i in range(k - 1):
            for j in range(i + 1, k):
                ai, aj = at[i], at[j]
                a, b, p = w[i], w[j], 0.0
                for x, y in zip(ai, aj):
                    p += x * y
                if abs(p) <= eps * math.sqrt(a * b):
                    continue
                p *= 2
                beta = a - b
                gamma = math.hypot(p, beta)
                if beta < 0:
                    delta = (gamma - beta) * 0.5
                    sn = math.sqrt(delta / gamma)
                    c = p / (gamma * sn * 2)
                else:
                    c = math.sqrt((gamma + beta) / (gamma * 2))
                    sn = p / (gamma * c * 2)
                a = b = 0.0
                ni, nj = [0.0] * m, [0.0] * m
                for q in range(m):
                    t0 = c * ai[q] + sn * aj[q]
                    t1 = -sn * ai[q] + c * aj[q]
                    ni[q], nj[q] = t0, t1
                    a += t0 * t0
                    b += t1 * t1
                at[i], at[j] = ni, nj
                w[i], w[j] = a, b
                changed = True
                vi, vj = vt[i], vt[j]
                vt[i] = [c * x + sn * y for x, y in zip(vi, vj)]
                vt[j] = [-sn * x + c * y for x, y in zip(vi, vj)]
        if not changed:
            break
    for i in range(k):
        sd = 0.0
        for t in at[i]:
            sd += t * t
        w[i] = math.sqrt(sd)
    for i in range(k - 1):
        j = i
        for q in range(i + 1, k):
            if w[j] < w[q]:
                j = q
        if i != j:
            w[i], w[j] = w[j], w[i]
            at[i], at[j] = at[j], at[i]
            vt[i], vt[j] = vt[j], vt[i]
    # a zero singular value's left vector is never used (the solve drops it)
    us = [[t * (1 / sd) for t in row] if sd > 2.2250738585072014e-308 else [0.0] * m for row, sd in zip(at, w)]
    return w, us, vt


def _svd_solve(rows, rhs, svd=None):
    """cv2's solve(..., DECOMP_SVD): the least-squares solution of least norm, dropping every
    singular value within 2 * DBL_EPSILON * (their sum) of zero. On a degenerate fit this is
    what decides cv2's answer (a sliver's centre lies on its axis, not wherever noise puts it)."""
    w, us, vs = svd if svd is not None else _svd(rows)
    threshold = 0.0
    for wi in w:
        threshold += wi
    threshold *= 2 * _DBL_EPS
    x = [0.0] * len(rows[0])
    for wi, u, v in zip(w, us, vs):
        if abs(wi) <= threshold:
            continue
        coef = 0.0
        for p, q in zip(u, rhs):
            coef += p * q
        coef *= 1 / wi
        x = [xv + coef * vv for xv, vv in zip(x, v)]
    return x


def _fit_ellipse_general(xs, ys):
    """cv2's fitEllipseNoDirect: a least-squares conic through centred, scaled points, then the
    centre from its gradient and the axes from a second fit about that centre (each an SVD
    solve). When the first fit is that ill-conditioned (collinear points, repeated points) cv2
    moves every point by a random offset within +-s/(2n)/1000 drawn from its generator
    (theRNG), so its answer there depends on that generator's state: the same draws are made
    here from mnn.cv's copy of it (see setRNGSeed)."""
    f = _f32
    n = len(xs)
    cx = cy = 0.0
    for x, y in zip(xs, ys):
        cx, cy = f(cx + x), f(cy + y)
    cx, cy = f(cx / n), f(cy / n)
    s = sum(f(abs(f(x - cx)) + abs(f(y - cy))) for x, y in zip(xs, ys))
    scale = 100.0 / (s if s > _FLT_EPS else _FLT_EPS)

    def design(xs, ys):
        px = [f(x - cx) * scale for x in xs]
        py = [f(y - cy) * scale for y in ys]
        return px, py, [[-x * x, -y * y, -x * y, x, y] for x, y in zip(px, py)]

    px, py, rows = design(xs, ys)
    svd = _svd(rows)
    if svd[0][0] * _FLT_EPS > svd[0][4]:
        eps = f(s / (n * 2) * 1e-3)
        nx, ny = [], []
        for x, y in zip(xs, ys):
            # cv2 builds Point2f(rng.uniform(-eps, eps), rng.uniform(-eps, eps)) and its compiler
            # evaluates the y argument first: the draws are y then x
            oy = the_rng.uniform_f32(-eps, eps)
            ox = the_rng.uniform_f32(-eps, eps)
            nx.append(f(x + ox))
            ny.append(f(y + oy))
        xs, ys = nx, ny
        px, py, rows = design(xs, ys)
        svd = _svd(rows)
    gfp = _svd_solve(rows, [10000.0] * n, svd)
    rp = _svd_solve([[2 * gfp[0], gfp[2]], [gfp[2], 2 * gfp[1]]], [gfp[3], gfp[4]])
    gfp = _svd_solve([[(x - rp[0]) ** 2, (y - rp[1]) ** 2, (x - rp[0]) * (y - rp[1])] for x, y in zip(px, py)],
                     [1.0] * n)
    ang = -0.5 * math.atan2(gfp[2], gfp[1] - gfp[0])
    t = gfp[2] / math.sin(-2.0 * ang) if abs(gfp[2]) > 1e-8 else gfp[1] - gfp[0]
    r2 = abs(gfp[0] + gfp[1] - t)
    if r2 > 1e-8:
        r2 = math.sqrt(2.0 / r2)
    r3 = abs(gfp[0] + gfp[1] + t)
    if r3 > 1e-8:
        r3 = math.sqrt(2.0 / r3)
    w, h = f(r2 * 2 / scale), f(r3 * 2 / scale)
    angle = 0.0  # cv2 sets the angle only when it swaps the axes
    if w > h:
        w, h = h, w
        angle = f(90 + ang * 180 / math.pi)
    if angle < -180:
        angle += 360
    if angle > 360:
        angle -= 360
    return ((f(f(rp[0] / scale) + cx), f(f(rp[1] / scale) + cy)), (w, h), angle)


def _eigvecs3(m):
    """Real eigenvectors of a 3x3 matrix (one per real eigenvalue), from the cubic's roots."""
    a = -(m[0][0] + m[1][1] + m[2][2])
    b = (m[0][0] * m[1][1] - m[0][1] * m[1][0] + m[0][0] * m[2][2] - m[0][2] * m[2][0] +
         m[1][1] * m[2][2] - m[1][2] * m[2][1])
    c = -(m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
          m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
    q = (a * a - 3 * b) / 9
    r = (2 * a ** 3 - 9 * a * b + 27 * c) / 54
    if r * r < q ** 3:
        th = math.acos(max(-1.0, min(1.0, r / math.sqrt(q ** 3))))
        roots = [-2 * math.sqrt(q) * math.cos((th + k * 2 * math.pi) / 3) - a / 3 for k in range(3)]
    else:
        big = -math.copysign((abs(r) + math.sqrt(r * r - q ** 3)) ** (1 / 3), r)
        roots = [big + (q / big if big else 0.0) - a / 3]
    out = []
    for lam in roots:
        rows = [[m[i][j] - (lam if i == j else 0.0) for j in range(3)] for i in range(3)]
        best, bn = None, -1.0
        for i, j in ((0, 1), (0, 2), (1, 2)):
            u, v = rows[i], rows[j]
            cr = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
            nn = sum(t * t for t in cr)
            if nn > bn:
                best, bn = cr, nn
        if bn > 0:
            out.append([t / math.sqrt(bn) for t in best])
    return out


def _fit_ellipse_direct(xs, ys):
    """cv2's fitEllipseDirect (Fitzgibbon's ellipse-specific fit), used by fitEllipse for 5 points."""
    f = _f32
    n = len(xs)
    cx = sum(xs) / n
    cy = sum(ys) / n
    s = sum(abs(x - cx) + abs(y - cy) for x, y in zip(xs, ys))
    scale = 100.0 / (s if s > 1.1920928955078125e-07 else 1.1920928955078125e-07)
    rows = []
    for x, y in zip(xs, ys):
        px, py = (x - cx) * scale, (y - cy) * scale
        rows.append((px * px, px * py, py * py, px, py, 1.0))
    dm = [[sum(r[i] * r[j] for r in rows) / n for j in range(6)] for i in range(6)]
    d = dm
    tm = [[0.0] * 3 for _ in range(3)]
    for k in range(3):
        tm[0][k] = (d[k][5] * d[3][5] * d[4][4] - d[k][5] * d[3][4] * d[4][5] - d[k][4] * d[3][5] * d[5][4] +
                    d[k][3] * d[4][5] * d[5][4] + d[k][4] * d[3][4] * d[5][5] - d[k][3] * d[4][4] * d[5][5])
        tm[1][k] = (d[k][5] * d[3][3] * d[4][5] - d[k][5] * d[3][5] * d[4][3] + d[k][4] * d[3][5] * d[5][3] -
                    d[k][3] * d[4][5] * d[5][3] - d[k][4] * d[3][3] * d[5][5] + d[k][3] * d[4][3] * d[5][5])
        tm[2][k] = (d[k][5] * d[3][4] * d[4][3] - d[k][5] * d[3][3] * d[4][4] - d[k][4] * d[3][4] * d[5][3] +
                    d[k][3] * d[4][4] * d[5][3] + d[k][4] * d[3][3] * d[5][4] - d[k][3] * d[4][3] * d[5][4])
    ts = (-(d[3][5] * d[4][4] * d[5][3]) + d[3][4] * d[4][5] * d[5][3] + d[3][5] * d[4][3] * d[5][4] -
          d[3][3] * d[4][5] * d[5][4] - d[3][4] * d[4][3] * d[5][5] + d[3][3] * d[4][4] * d[5][5])
    if abs(ts) < 2.220446049250313e-16:
        return None
    m = [[0.0] * 3 for _ in range(3)]
    for k in range(3):
        m[0][k] = (d[2][k] + (d[2][3] * tm[0][k] + d[2][4] * tm[1][k] + d[2][5] * tm[2][k]) / ts) / 2.0
        m[1][k] = -d[1][k] - (d[1][3] * tm[0][k] + d[1][4] * tm[1][k] + d[1][5] * tm[2][k]) / ts
        m[2][k] = (d[0][k] + (d[0][3] * tm[0][k] + d[0][4] * tm[1][k] + d[0][5] * tm[2][k]) / ts) / 2.0
    vecs = _eigvecs3(m)
    if not vecs:
        return None
    conds = [4.0 * v[0] * v[2] - v[1] * v[1] for v in vecs]
    i = max(range(len(vecs)), key=lambda k: conds[k])
    v = vecs[i]
    if conds[i] <= 1e-6 * sum(t * t for t in v):
        return None
    norm = math.sqrt(sum(t * t for t in v))
    if (-1 if v[0] < 0 else 1) * (-1 if v[1] < 0 else 1) * (-1 if v[2] < 0 else 1) <= 0:
        norm = -norm
    p0, p1, p2 = v[0] / norm, v[1] / norm, v[2] / norm
    q0 = (tm[0][0] * p0 + tm[0][1] * p1 + tm[0][2] * p2) / ts
    q1 = (tm[1][0] * p0 + tm[1][1] * p1 + tm[1][2] * p2) / ts
    q2 = (tm[2][0] * p0 + tm[2][1] * p1 + tm[2][2] * p2) / ts
    u1 = p2 * q0 * q0 - p1 * q0 * q1 + p0 * q1 * q1 + p1 * p1 * q2
    u2 = p0 * p2 * q2
    l1 = math.sqrt(p1 * p1 + (p0 - p2) * (p0 - p2))
    l2 = p0 + p2
    l3 = p1 * p1 - 4 * p0 * p2
    x0 = (2 * p2 * q0 - p1 * q1) / l3 / scale + cx
    y0 = (2 * p0 * q1 - p1 * q0) / l3 / scale + cy
    try:
        a = math.sqrt(2.0) * math.sqrt((u1 - 4.0 * u2) / ((l1 - l2) * l3)) / scale
        b = math.sqrt(2.0) * math.sqrt(-1.0 * ((u1 - 4.0 * u2) / ((l1 + l2) * l3))) / scale
    except (ValueError, ZeroDivisionError):
        return None
    if p1 == 0:
        theta = 0.0 if p0 < p2 else math.pi / 2
    else:
        theta = math.pi / 2 + 0.5 * math.atan2(p1, p0 - p2)
    w, h = f(2.0 * a), f(2.0 * b)
    if w > h:
        w, h = h, w
        angle = f(math.fmod(90 + theta * 180 / math.pi, 180.0))
    else:
        angle = f(math.fmod(theta * 180 / math.pi, 180.0))
    return ((f(x0), f(y0)), (w, h), angle)


def fitEllipse(points):
    """cv2.fitEllipse: ((cx, cy), (w, h), angle) of the ellipse fitted to >= 5 points (cv2 5:
    the ellipse-specific direct fit for exactly 5 points, the general conic fit otherwise)."""
    xs, ys, is_float = _point_list(points, "fitEllipse")
    n = len(xs)
    if n < 5:
        raise fail("fitEllipse", "There should be at least 5 points to fit the ellipse")
    xs, ys = _points_f32(xs, ys, is_float)
    if n == 5:
        r = _fit_ellipse_direct(xs, ys)
        if r is not None:
            return r
    return _fit_ellipse_general(xs, ys)


def minEnclosingCircle(points):
    """cv2.minEnclosingCircle: ((cx, cy), radius) by cv2's incremental (Welzl-style) search in
    float (native: cv_min_enclosing_circle)."""
    xs, ys, is_float = _point_list(points, "minEnclosingCircle")
    n = len(xs)
    if n == 0:
        return ((0.0, 0.0), 0.0)
    flat = [0] * (2 * n)
    flat[0::2], flat[1::2] = xs, ys
    res = _core.prim("cv_min_enclosing_circle", [_new_array(flat, is_float, (n, 2))], [], [])
    cx, cy, r = memoryview(res).cast("B").cast("f").tolist()
    return ((cx, cy), r)


# ---------------------------------------------------------------------------------------------
# connected components

def _components(image, connectivity, ltype, fn, with_stats):
    """One native call (csrc/ops/cv/components.cpp): (n, labels) or (n, labels, stats, centroids),
    realised; the stats come from the labelling's runs, not from a second scan."""
    img = _image8(image, fn, ("uint8", "int8"))
    connectivity, ltype = int(connectivity), int(ltype)
    if connectivity not in (4, 8):
        raise fail(fn, f"connectivity must be 4 or 8, got {connectivity} (cv2: connectivity == 8 || connectivity == 4)")
    if ltype not in (_CV_16U, _CV_32S):
        raise fail(fn, f"ltype must be CV_32S (4) or CV_16U (2), got {ltype} (cv2: iLT == CV_16U || iLT == CV_32S)")
    return _core.cv_connected_components(img, connectivity, ltype, with_stats)


def connectedComponents(image, labels=None, connectivity=8, ltype=_CV_32S, ccltype=None):
    """cv2.connectedComponents: (n, labels), background 0, components numbered in cv2's scan order."""
    return _components(image, connectivity, ltype, "connectedComponents", False)


def connectedComponentsWithStats(image, labels=None, stats=None, centroids=None, connectivity=8, ltype=_CV_32S,
                                 ccltype=None):
    """cv2.connectedComponentsWithStats: (n, labels, stats (n, 5) int32 [left, top, width, height,
    area], centroids (n, 2) float64)."""
    return _components(image, connectivity, ltype, "connectedComponentsWithStats", True)
