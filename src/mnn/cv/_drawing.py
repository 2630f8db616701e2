"""Drawing: line, arrowedLine, rectangle, circle, ellipse, ellipse2Poly, polylines, fillPoly,
fillConvexPoly, drawContours, drawMarker, clipLine (putText / getTextSize: see below).

Like cv2, every function draws *in place* on the image it is given and returns that image: an
mnn array is updated through its own setitem (views write through to their base), a numpy array
(or any writable buffer) gets the pixels written back into its memory.

The rasterisers are native (one primitive, cv_draw: csrc/ops/cv/drawing.cpp and
csrc/backends/cpu/kernels/cv/drawing.cpp); this module checks arguments the way cv2 does and
encodes each call as a short command stream. Agreement with cv2 5 (tests/cv/test_drawing.py):
pixel-identical for LINE_4, LINE_8 and LINE_AA lines of any thickness, rectangles, circles,
ellipses and arcs, polylines, fillPoly, fillConvexPoly and drawContours (hierarchy, maxLevel and
cv2's drawing order included), with shift > 0, 1 to 4 colour components and shapes partly outside
the image. LINE_AA is cv2's own arithmetic (its slope gain and filter tables, end-point weights and
double blend) on 1/3/4-channel uint8 images; like cv2, mnn draws LINE_8 instead on other depths and
a plain line between truncated end points on 2-channel uint8 images.

putText and getTextSize draw and measure Hershey stroke text as OpenCV 4 does (OpenCV 5 renders
TrueType fonts instead); the glyphs come from the data file of the optional pyhershey package
(pip install mnn[text]), read at first use by mnn/cv/_hershey.py, which states where the result differs.
"""
import math
import struct
from itertools import chain as _chain_it

from .. import _core
from .. import numpy as _np
from ._common import fail

__all__ = [
    "LINE_4", "LINE_8", "LINE_AA", "FILLED", "MARKER_CROSS", "MARKER_TILTED_CROSS", "MARKER_STAR",
    "MARKER_DIAMOND", "MARKER_SQUARE", "MARKER_TRIANGLE_UP", "MARKER_TRIANGLE_DOWN",
    "FONT_HERSHEY_SIMPLEX", "FONT_HERSHEY_PLAIN", "FONT_HERSHEY_DUPLEX", "FONT_HERSHEY_COMPLEX",
    "FONT_HERSHEY_TRIPLEX", "FONT_HERSHEY_COMPLEX_SMALL", "FONT_HERSHEY_SCRIPT_SIMPLEX",
    "FONT_HERSHEY_SCRIPT_COMPLEX", "FONT_ITALIC",
    "line", "arrowedLine", "rectangle", "circle", "ellipse", "ellipse2Poly", "polylines", "fillPoly",
    "fillConvexPoly", "drawContours", "drawMarker", "clipLine", "putText", "getTextSize",
]

FILLED = -1
LINE_4 = 4
LINE_8 = 8
LINE_AA = 16
MARKER_CROSS = 0
MARKER_TILTED_CROSS = 1
MARKER_STAR = 2
MARKER_DIAMOND = 3
MARKER_SQUARE = 4
MARKER_TRIANGLE_UP = 5
MARKER_TRIANGLE_DOWN = 6
FONT_HERSHEY_SIMPLEX = 0
FONT_HERSHEY_PLAIN = 1
FONT_HERSHEY_DUPLEX = 2
FONT_HERSHEY_COMPLEX = 3
FONT_HERSHEY_TRIPLEX = 4
FONT_HERSHEY_COMPLEX_SMALL = 5
FONT_HERSHEY_SCRIPT_SIMPLEX = 6
FONT_HERSHEY_SCRIPT_COMPLEX = 7
FONT_ITALIC = 16

_XY_SHIFT = 16
_MAX_THICKNESS = 32767
_INT_MAX = 2**31 - 1
_I32 = 2**31
_DEPTHS = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64")

# command codes of the cv_draw stream (see the kernel's header comment)
_LINE, _POLYLINE, _FILLCONVEX, _FILLPOLY, _CIRCLE, _ELLIPSE, _CONTOURS, _OFFSET = range(8)


# ---- argument checks ------------------------------------------------------------------------

def _int(v, fn, name):
    """A C int argument: Python ints and integer scalars (numpy's too); floats are refused as cv2 does."""
    if type(v) is int and -_I32 <= v < _I32:  # the common case, checked first: drawing calls are many and small
        return v
    if isinstance(v, bool) or isinstance(v, float):
        raise fail(fn, f"Can't parse '{name}': expected an integer, got {type(v).__name__}")
    try:
        i = v.__index__()
    except (AttributeError, TypeError):
        try:
            if getattr(v, "ndim", None) == 0 and "int" in str(v.dtype):
                i = int(v)
            else:
                raise TypeError
        except (TypeError, ValueError):
            raise fail(fn, f"Can't parse '{name}': expected an integer, got {type(v).__name__}") from None
    if not -2**31 <= i < 2**31:
        raise fail(fn, f"'{name}' = {i} does not fit a C int")
    return i


def _point(p, fn, name):
    if type(p) is tuple and len(p) == 2:
        x, y = p
        if type(x) is int and type(y) is int and -_I32 <= x < _I32 and -_I32 <= y < _I32:
            return p
    try:
        vals = p.tolist() if hasattr(p, "tolist") else list(p)
    except TypeError:
        raise fail(fn, f"Can't parse '{name}': expected a point (x, y)") from None
    if len(vals) != 2:
        raise fail(fn, f"Can't parse '{name}': expected 2 values, got {len(vals)}")
    return _int(vals[0], fn, name), _int(vals[1], fn, name)


def _color(c, fn):
    """cv2.Scalar: one number, or up to 4; missing channels are 0 (so 255 on a BGR image is blue)."""
    if c is None:
        return [0.0, 0.0, 0.0, 0.0]  # cv2's binding passes the default Scalar(): black
    if type(c) is tuple and len(c) == 3:
        try:
            return [float(c[0]), float(c[1]), float(c[2]), 0.0]
        except (TypeError, ValueError):
            raise fail(fn, "Can't parse 'color': values must be numbers") from None
    if type(c) is tuple and 1 <= len(c) <= 4:
        vals = c
    elif isinstance(c, (int, float)) and not isinstance(c, bool):
        vals = [c]
    else:
        try:
            vals = c.tolist() if hasattr(c, "tolist") else list(c)
            if not isinstance(vals, list):
                vals = [vals]
        except TypeError:
            raise fail(fn, "Can't parse 'color': expected a number or a sequence of up to 4 numbers") from None
    if not 1 <= len(vals) <= 4:
        raise fail(fn, f"Can't parse 'color': expected 1 to 4 values, got {len(vals)}")
    try:
        out = [float(v) for v in vals]
    except (TypeError, ValueError):
        raise fail(fn, "Can't parse 'color': values must be numbers") from None
    return out + [0.0] * (4 - len(out))


_LINE_TYPES = (0, 1, LINE_4, LINE_8, LINE_AA)


def _line_type(lt, fn):
    """cv2's line type, checked; LINE_AA stays LINE_AA whatever the image (the kernel draws LINE_8
    instead on images that are not 8-bit, as cv2 does)."""
    if type(lt) is int and (lt == LINE_8 or lt == LINE_AA or lt == LINE_4 or lt == 0 or lt == 1):
        return lt  # the common case, without the calls below
    lt = _int(lt, fn, "lineType")
    if lt not in _LINE_TYPES:
        raise fail(fn, f"unsupported lineType {lt} (expected LINE_4, LINE_8 or LINE_AA)")
    return lt


def _shift(s, fn):
    s = _int(s, fn, "shift")
    if not 0 <= s <= _XY_SHIFT:
        raise fail(fn, f"shift must be in [0, {_XY_SHIFT}], got {s}")
    return s


def _cv_round(v):
    """cvRound: half to even, and INT_MIN for NaN or anything past int32 (the x86 conversion)."""
    if not (-2147483648.5 < v < 2147483647.5):  # NaN fails this too
        return -2147483648
    r = round(v)
    return r if -2147483648 <= r <= 2147483647 else -2147483648


def _thickness(t, fn, allow_filled=True):
    t = _int(t, fn, "thickness")
    if t > _MAX_THICKNESS or (not allow_filled and t <= 0):
        raise fail(fn, f"thickness must be in [{'-1' if allow_filled else '1'}, {_MAX_THICKNESS}], got {t}")
    return t


def _canvas(img, fn, converted=False):
    """The image to draw on as an mnn array (numpy arrays are read zero-copy), checked like cv2."""
    if img is None:
        raise fail(fn, "'img' is None")
    a = img if isinstance(img, _np.ndarray) else None
    if a is None:
        try:
            a = _np.asarray(img)
        except (TypeError, ValueError):
            raise TypeError(f"[mnn.cv.{fn}] Expected Ptr<cv::UMat> for argument 'img'") from None
        if getattr(img, "flags", None) is not None and not getattr(img.flags, "writeable", True):
            raise fail(fn, "the image is read-only")
    if a.ndim not in (2, 3):
        raise fail(fn, f"expected an HxW or HxWxC image, got {a.ndim} dimensions")
    if str(a.dtype) not in _DEPTHS and not (converted and str(a.dtype) in _CONVERTED):
        raise fail(fn, f"unsupported image depth {a.dtype}")
    if a.ndim == 3 and not 1 <= a.shape[2] <= 4:
        raise fail(fn, f"drawing supports 1 to 4 channels, got {a.shape[2]}")
    return a


def _walk(ints, dx=0, dy=0):
    """Reads a command stream: returns (x0, y0, x1, y1), the pixel box that bounds everything it can
    touch (with margins for thickness, caps and anti-aliasing), and the stream moved by (-dx, -dy)
    pixels. Rasterisation is translation invariant (the clipping, Bresenham and fixed-point steps
    all work on differences), so drawing the moved stream on the crop [y0:y1, x0:x1] gives the
    same pixels as drawing the whole image, at the cost of the crop."""
    out, i = [], 0
    box = [float("inf"), float("inf"), float("-inf"), float("-inf")]
    offx = offy = 0  # OFFSET: added to later POLYLINE points by the kernel, after the move

    def grow(x, y, sh, m):
        px, py = x >> sh, y >> sh
        box[0], box[1] = min(box[0], px - m), min(box[1], py - m)
        box[2], box[3] = max(box[2], px + m + 1), max(box[3], py + m + 1)

    def pts(n, sh, m, ox=0, oy=0):
        nonlocal i
        for _ in range(n):
            x, y = ints[i], ints[i + 1]
            grow(x + ox, y + oy, sh, m)
            out.extend((x - (dx << sh), y - (dy << sh)))
            i += 2

    while i < len(ints):
        cmd = ints[i]
        if cmd == _LINE:
            x0, y0, x1, y1, t, lt, sh = ints[i + 1:i + 8]
            m = max(t, 1) + 2
            grow(x0, y0, sh, m), grow(x1, y1, sh, m)
            out += [cmd, x0 - (dx << sh), y0 - (dy << sh), x1 - (dx << sh), y1 - (dy << sh), t, lt, sh]
            i += 8
        elif cmd == _POLYLINE:
            closed, t, lt, sh, n = ints[i + 1:i + 6]
            out += ints[i:i + 6]
            i += 6
            pts(n, sh, max(t, 1) + 2, offx, offy)
        elif cmd == _OFFSET:
            offx, offy = ints[i + 1], ints[i + 2]
            out += ints[i:i + 3]
            i += 3
        elif cmd == _FILLCONVEX:
            lt, sh, n = ints[i + 1:i + 4]
            out += ints[i:i + 4]
            i += 4
            pts(n, sh, 2)
        elif cmd == _FILLPOLY:
            lt, sh, ox, oy, nc = ints[i + 1:i + 6]
            out += [cmd, lt, sh, ox - (dx << sh), oy - (dy << sh), nc]
            i += 6
            for _ in range(nc):
                n = ints[i]
                out.append(n)
                i += 1
                pts(n, sh, 2, ox, oy)
                # pts() moved the points; the offset is moved instead, so put them back
                for k in range(len(out) - 2 * n, len(out), 2):
                    out[k] += dx << sh
                    out[k + 1] += dy << sh
        elif cmd == _CIRCLE:
            cx, cy, r, t, lt, sh = ints[i + 1:i + 7]
            m = (r >> sh) + max(t, 1) + 3
            grow(cx, cy, sh, m)
            out += [cmd, cx - (dx << sh), cy - (dy << sh), r, t, lt, sh]
            i += 7
        elif cmd == _ELLIPSE:
            cx, cy, ax, ay, ang, a0, a1, t, lt = ints[i + 1:i + 10]
            m = (max(abs(ax), abs(ay)) >> _XY_SHIFT) + max(t, 1) + 3
            grow(cx, cy, _XY_SHIFT, m)
            out += [cmd, cx - (dx << _XY_SHIFT), cy - (dy << _XY_SHIFT), ax, ay, ang, a0, a1, t, lt]
            i += 10
        elif cmd == _CONTOURS:
            t, lt, nc = ints[i + 1:i + 4]
            out += ints[i:i + 4]
            i += 4
            for _ in range(nc):
                n = ints[i]
                out.append(n)
                i += 1
                pts(n, 0, max(t, 1) + 2)
        else:
            raise AssertionError(f"bad drawing command {cmd}")
    return box, out


def _draw(img, ints, color, fn):
    """Runs the command stream on the caller's image, in place as cv2 does. Straight into its memory
    when that may be written (a numpy array or other writable buffer; an mnn array whose buffer no
    pending computation reads: _core.cv_draw_inplace, ops/cv/drawing.h), else through the graph."""
    d = str(getattr(img, "dtype", ""))
    if d in _CONVERTED:
        return _draw_converted(img, ints, color, fn, d)
    if ints:
        r = _core.cv_draw_inplace(img, ints, color)
        if r == 1:
            return img
        if r == -1:
            raise fail(fn, "the image is read-only")
    return _draw_graph(img, _canvas(img, fn), ints, color)


def _unchanged(img, fn):
    """The image of a call that draws nothing, checked as cv2 checks it."""
    _canvas(img, fn, converted=True)
    return img


# depths cv2 5 draws on that the kernel has no type for: drawn on a converted copy, written back
_CONVERTED = ("float16", "bool")


def _draw_converted(img, ints, color, fn, d):
    """Drawing on a half-float image runs on a float32 copy (every half value is exact in float32,
    and the colour's conversion to half is the one rounding, as in cv2); on a bool image on its
    bytes widened to int16 (not uint8: cv2 anti-aliases uint8 images only, and draws LINE_AA on
    the others as LINE_8), with the colour as cv2 converts it to bool (nonzero is 1)."""
    a = _canvas(img, fn, converted=True)
    if not ints or a.size == 0:
        return img
    if d == "bool":
        work = a.view("uint8").astype("int16")
        _draw(work, ints, [1.0 if v != 0 else 0.0 for v in color], fn)
        img[...] = work.astype("uint8").view("bool")
    else:
        work = a.astype("float32")
        _draw(work, ints, color, fn)
        img[...] = work.astype("float16")
    return img


def _draw_graph(img, a, ints, color):
    """_draw on a graph: the crop that the shapes can touch is copied, drawn (a cv_draw node) and
    written back through setitem (views write through to their base)."""
    if isinstance(ints, bytes):
        ints = list(struct.unpack(f"{len(ints) // 8}q", ints))
    if not ints or a.size == 0:
        return img
    h, w = a.shape[0], a.shape[1]
    (bx0, by0, bx1, by1), _ = _walk(ints)
    if bx0 == float("inf"):
        return img  # no points at all
    x0, y0 = max(0, int(bx0)), max(0, int(by0))
    x1, y1 = min(w, int(bx1)), min(h, int(by1))
    if x0 >= x1 or y0 >= y1:
        return img  # nothing can land on the image
    if (x1 - x0) * (y1 - y0) * 2 > h * w:
        x0, y0, x1, y1 = 0, 0, w, h
    _, moved = _walk(ints, x0, y0) if (x0, y0) != (0, 0) else (None, ints)
    crop = a if (x0, y0, x1, y1) == (0, 0, w, h) else a[y0:y1, x0:x1]
    res = _core.prim("cv_draw", [_np.ascontiguousarray(crop)], moved, color)
    if crop is a:
        img[...] = res  # mnn arrays: setitem (views write through); numpy: its own setitem reads our buffer
    else:
        img[y0:y1, x0:x1] = res
    return img


def _contour_points(c, fn, name="pts"):
    """One contour/polygon: an int32 array of N points ((N,2), (N,1,2) or a flat list of pairs)."""
    if hasattr(c, "dtype"):
        dt = _dtype_name(c.dtype)
        if dt not in ("int32", "int64"):
            raise fail(fn, f"'{name}' must hold int32 points (cv2: checkVector(2, CV_32S)), got {c.dtype}")
        flat = c.reshape(-1).tolist() if c.size else []
        if dt == "int64" and flat and not (-2**31 <= min(flat) and max(flat) < 2**31):
            raise fail(fn, f"'{name}' has coordinates outside the C int range")
        if len(flat) % 2:
            raise fail(fn, f"'{name}' must hold 2-d points")
        return list(zip(flat[0::2], flat[1::2]))
    try:
        vals = list(c)
    except TypeError:
        raise fail(fn, f"Can't parse '{name}': expected an array of points") from None
    pts = []
    for v in vals:
        while isinstance(v, (list, tuple)) and len(v) == 1:
            v = v[0]
        pts.append(_point(v, fn, name))
    return pts


def _contours(pts, fn, name="pts"):
    """A list of contours: a sequence of point arrays, or one array whose first axis lists them."""
    if pts is None:
        raise fail(fn, f"'{name}' is None")
    if hasattr(pts, "dtype") and hasattr(pts, "ndim"):
        if pts.ndim == 2 and pts.shape[-1] == 2:
            return [[p] for p in _contour_points(pts, fn, name)]  # cv2: one 1-point contour per row
        return [_contour_points(pts[i], fn, name) for i in range(pts.shape[0])]
    try:
        return [_contour_points(c, fn, name) for c in pts]
    except TypeError:
        raise fail(fn, f"Can't parse '{name}': expected a sequence of point arrays") from None


_chain = _chain_it.from_iterable


def _flat(pts):
    out = [len(pts)]
    out += _chain(pts)
    return out


def _dtype_name(dt):
    """str(dtype), cached per dtype object (numpy's __str__ costs microseconds)."""
    name = _DTYPE_NAMES.get(dt)
    if name is None:
        name = _DTYPE_NAMES[dt] = str(dt)
    return name


_DTYPE_NAMES = {}


# ---- lines and shapes -----------------------------------------------------------------------

# line, rectangle and circle with plain arguments (int tuples, a tuple colour, int thickness, line
# type and shift): checked and drawn in place by one native call that answers False, having drawn
# nothing, for anything else (the functions below then check and report as cv2 does)
_quick = _core.cv_draw_quick
_RECT_DEFAULTS = ((1, LINE_8, 0), (LINE_8, 0), (0,))  # rectangle's defaults after 3, 4, 5 arguments

def line(img, pt1, pt2, color, thickness=1, lineType=LINE_8, shift=0):
    if _quick(_LINE, img, (pt1, pt2, color, thickness, lineType, shift)):
        return img  # the usual arguments, checked and drawn in one native call (bind_draw.cpp)
    fn = "line"
    (x0, y0), (x1, y1) = _point(pt1, fn, "pt1"), _point(pt2, fn, "pt2")
    t = _thickness(thickness, fn, allow_filled=False)
    ints = [_LINE, x0, y0, x1, y1, t, _line_type(lineType, fn), _shift(shift, fn)]
    return _draw(img, ints, _color(color, fn), fn)


def arrowedLine(img, pt1, pt2, color, thickness=1, line_type=LINE_8, shift=0, tipLength=0.1):
    fn = "arrowedLine"
    (x0, y0), (x1, y1) = _point(pt1, fn, "pt1"), _point(pt2, fn, "pt2")
    t = _thickness(thickness, fn, allow_filled=False)
    lt, sh, col = _line_type(line_type, fn), _shift(shift, fn), _color(color, fn)
    tip = math.hypot(x0 - x1, y0 - y1) * float(tipLength)
    ang = math.atan2(y0 - y1, x0 - x1)
    ints = [_LINE, x0, y0, x1, y1, t, lt, sh]
    for side in (1, -1):
        px = _cv_round(x1 + tip * math.cos(ang + side * math.pi / 4))
        py = _cv_round(y1 + tip * math.sin(ang + side * math.pi / 4))
        ints += [_LINE, px, py, x1, y1, t, lt, sh]
    return _draw(img, ints, col, fn)


def rectangle(img, *args, **kw):
    """rectangle(img, pt1, pt2, color, thickness=1, lineType=8, shift=0) or
    rectangle(img, rec=(x, y, w, h), color, thickness=1, lineType=8, shift=0)."""
    fn = "rectangle"
    if not kw and 3 <= len(args) <= 6 and type(args[0]) is tuple and len(args[0]) == 2:
        if len(args) == 6 and _quick(_POLYLINE, img, args) or \
                len(args) < 6 and _quick(_POLYLINE, img, args + _RECT_DEFAULTS[len(args) - 3]):
            return img  # the usual arguments, checked and drawn in one native call (bind_draw.cpp)
        return _rectangle_pts(img, *args)  # the usual call, without the keyword bookkeeping
    first = args[0] if args else kw.get("rec", kw.get("pt1"))
    seq = first.tolist() if hasattr(first, "tolist") else first
    rect_form = "rec" in kw or (isinstance(seq, (list, tuple)) and len(seq) == 4)
    names = (("rec", "color", "thickness", "lineType", "shift") if rect_form
             else ("pt1", "pt2", "color", "thickness", "lineType", "shift"))
    if len(args) > len(names):
        raise fail(fn, f"takes at most {len(names) + 1} positional arguments")
    v = dict(zip(names, args))
    for k, val in kw.items():
        if k not in names or k in v:
            raise TypeError(f"[mnn.cv.{fn}] unexpected or repeated argument '{k}'")
        v[k] = val
    if "color" not in v:
        raise fail(fn, "missing required argument 'color'")
    col = _color(v["color"], fn)
    sh = _shift(v.get("shift", 0), fn)
    t = _thickness(v.get("thickness", 1), fn)
    lt = _line_type(v.get("lineType", LINE_8), fn)
    if rect_form:
        try:
            x, y, w, h = (_int(q, fn, "rec") for q in seq)
        except (TypeError, ValueError):
            raise fail(fn, "Can't parse 'rec': expected (x, y, width, height)") from None
        if w <= 0 or h <= 0:
            return _unchanged(img, fn)
        p0, p1 = (x, y), (x + w - (1 << sh), y + h - (1 << sh))
    else:
        if "pt2" not in v:
            raise fail(fn, "missing required argument 'pt2'")
        p0, p1 = _point(v["pt1"], fn, "pt1"), _point(v["pt2"], fn, "pt2")
    quad = [p0, (p1[0], p0[1]), p1, (p0[0], p1[1])]
    if t >= 0:
        ints = [_POLYLINE, 1, t, lt, sh] + _flat(quad)
    else:
        ints = [_FILLCONVEX, lt, sh] + _flat(quad)
    return _draw(img, ints, col, fn)


def _rectangle_pts(img, pt1, pt2, color, thickness=1, lineType=LINE_8, shift=0):
    fn = "rectangle"
    col = _color(color, fn)
    # plain ints in range skip the checking calls (same results: _shift, _thickness, _line_type)
    sh = 0 if shift == 0 and type(shift) is int else _shift(shift, fn)
    t = thickness if type(thickness) is int and -_I32 <= thickness <= _MAX_THICKNESS else _thickness(thickness, fn)
    lt = _line_type(lineType, fn)
    (x0, y0), (x1, y1) = _point(pt1, fn, "pt1"), _point(pt2, fn, "pt2")
    if t >= 0:
        return _draw(img, [_POLYLINE, 1, t, lt, sh, 4, x0, y0, x1, y0, x1, y1, x0, y1], col, fn)
    return _draw(img, [_FILLCONVEX, lt, sh, 4, x0, y0, x1, y0, x1, y1, x0, y1], col, fn)


def circle(img, center, radius, color, thickness=1, lineType=LINE_8, shift=0):
    if _quick(_CIRCLE, img, (center, radius, color, thickness, lineType, shift)):
        return img  # the usual arguments, checked and drawn in one native call (bind_draw.cpp)
    fn = "circle"
    cx, cy = _point(center, fn, "center")
    r = _int(radius, fn, "radius")
    if r < 0:
        raise fail(fn, f"radius must be >= 0, got {r}")
    ints = [_CIRCLE, cx, cy, r, _thickness(thickness, fn), _line_type(lineType, fn), _shift(shift, fn)]
    return _draw(img, ints, _color(color, fn), fn)


def ellipse(img, *args, **kw):
    """ellipse(img, center, axes, angle, startAngle, endAngle, color, thickness=1, lineType=8, shift=0)
    or ellipse(img, box=((cx, cy), (w, h), angle), color, thickness=1, lineType=8)."""
    fn = "ellipse"
    if len(args) + len(kw) >= 6 or "center" in kw:
        names = ("center", "axes", "angle", "startAngle", "endAngle", "color", "thickness", "lineType", "shift")
        v = dict(zip(names, args), **kw)
        v.setdefault("thickness", 1), v.setdefault("lineType", LINE_8), v.setdefault("shift", 0)
        cx, cy = _point(v["center"], fn, "center")
        aw, ah = _point(v["axes"], fn, "axes")
        if aw < 0 or ah < 0:
            raise fail(fn, "axes must be >= 0")
        sh = _shift(v["shift"], fn)
        up = _XY_SHIFT - sh
        ctr, ax = (cx << up, cy << up), (aw << up, ah << up)
        angs = [_cv_round(float(v[k])) for k in ("angle", "startAngle", "endAngle")]
    else:
        names = ("box", "color", "thickness", "lineType")
        v = dict(zip(names, args), **kw)
        v.setdefault("thickness", 1), v.setdefault("lineType", LINE_8)
        try:
            (bx, by), (bw, bh), bang = v["box"]
            bx, by, bw, bh, bang = float(bx), float(by), float(bw), float(bh), float(bang)
        except (TypeError, ValueError, KeyError):
            raise fail(fn, "Can't parse 'box': expected ((cx, cy), (w, h), angle)") from None
        if bw < 0 or bh < 0:
            raise fail(fn, "box size must be >= 0")
        one = 1 << _XY_SHIFT
        ix, iy = round(bx), round(by)
        ctr = ((ix << _XY_SHIFT) + round((bx - ix) * one), (iy << _XY_SHIFT) + round((by - iy) * one))
        iw, ih = round(bw), round(bh)
        ax = ((iw << (_XY_SHIFT - 1)) + round((bw - iw) * (one >> 1)),
              (ih << (_XY_SHIFT - 1)) + round((bh - ih) * (one >> 1)))
        angs = [round(bang), 0, 360]
    if "color" not in v:
        raise fail(fn, "missing required argument 'color'")
    col = _color(v["color"], fn)
    t = _thickness(v["thickness"], fn)
    lt = _line_type(v["lineType"], fn)
    ints = [_ELLIPSE, ctr[0], ctr[1], ax[0], ax[1], angs[0], angs[1], angs[2], t, lt]
    return _draw(img, ints, col, fn)


def _sin_table():
    """sin of whole degrees 0..450 rounded to 7 decimals, as float32 (the kernel builds the same)."""
    t = []
    for i in range(451):
        s = math.sin(i * math.pi / 180.0) * 1e7
        s = math.floor(s + 0.5) if s >= 0 else -math.floor(-s + 0.5)
        t.append(struct.unpack("f", struct.pack("f", s / 1e7))[0])
    return t


_SIN = _sin_table()


def ellipse2Poly(center, axes, angle, arcStart, arcEnd, delta):
    """The polygon cv2 draws for an elliptic arc: (N, 2) int32 vertices, one every `delta` degrees."""
    fn = "ellipse2Poly"
    cx, cy = _point(center, fn, "center")
    aw, ah = _point(axes, fn, "axes")
    angle, a0, a1, delta = (_int(v, fn, n) for v, n in
                            ((angle, "angle"), (arcStart, "arcStart"), (arcEnd, "arcEnd"), (delta, "delta")))
    if not 0 < delta <= 180:
        raise fail(fn, f"delta must be in (0, 180], got {delta}")
    while angle < 0:
        angle += 360
    while angle > 360:
        angle -= 360
    if a0 > a1:
        a0, a1 = a1, a0
    while a0 < 0:
        a0, a1 = a0 + 360, a1 + 360
    while a1 > 360:
        a0, a1 = a0 - 360, a1 - 360
    if a1 - a0 > 360:
        a0, a1 = 0, 360
    cosa, sina = _SIN[450 - angle], _SIN[angle]
    pts = []
    for i in range(a0, a1 + delta, delta):
        t = min(i, a1)
        t = t + 360 if t < 0 else t
        x, y = aw * _SIN[450 - t], ah * _SIN[t]
        p = (round(cx + x * cosa - y * sina), round(cy + x * sina + y * cosa))
        if not pts or p != pts[-1]:
            pts.append(p)
    if len(pts) == 1:
        pts = [(cx, cy), (cx, cy)]
    flat = [c for p in pts for c in p]
    return _np.array(flat, dtype=_np.int32).reshape(len(pts), 2)


def polylines(img, pts, isClosed, color, thickness=1, lineType=LINE_8, shift=0):
    fn = "polylines"
    conts = _contours(pts, fn)
    t = _thickness(thickness, fn, allow_filled=False) if _int(thickness, fn, "thickness") != 0 else 0
    lt, sh, col = _line_type(lineType, fn), _shift(shift, fn), _color(color, fn)
    ints = []
    for c in conts:
        if c:
            ints += [_POLYLINE, int(bool(isClosed)), t, lt, sh] + _flat(c)
    return _draw(img, ints, col, fn)


def fillPoly(img, pts, color, lineType=LINE_8, shift=0, offset=(0, 0)):
    fn = "fillPoly"
    conts = [c for c in _contours(pts, fn) if c]
    lt, sh, col = _line_type(lineType, fn), _shift(shift, fn), _color(color, fn)
    ox, oy = _point(offset, fn, "offset")
    if not conts:
        return _unchanged(img, fn)
    ints = [_FILLPOLY, lt, sh, ox, oy, len(conts)]
    for c in conts:
        ints += _flat(c)
    return _draw(img, ints, col, fn)


def fillConvexPoly(img, points, color, lineType=LINE_8, shift=0):
    fn = "fillConvexPoly"
    pts = _contour_points(points, fn, "points")
    lt, sh, col = _line_type(lineType, fn), _shift(shift, fn), _color(color, fn)
    if not pts:
        return _unchanged(img, fn)
    return _draw(img, [_FILLCONVEX, lt, sh] + _flat(pts), col, fn)


def _hierarchy(h, n, fn):
    if h is None:
        return None
    flat = h.reshape(-1).tolist() if hasattr(h, "reshape") else [v for row in h for v in row]
    if len(flat) != 4 * n:
        raise fail(fn, f"hierarchy must hold 4 values per contour ({n} contours), got {len(flat)} values")
    return [flat[4 * i:4 * i + 4] for i in range(n)]


def _select(h, idx, max_level):
    """The contours cv2 5 draws with a hierarchy and maxLevel > 0, in its order (which matters for
    LINE_AA, where overlapping strokes blend): a stack starts with contourIdx, or with every
    outermost contour (no parent) in index order; each contour popped is drawn if its nesting depth
    (0 for outermost, from the parent links h[i][3]) is at most maxLevel, and its children (the
    first-child link h[i][2] then the next-sibling links h[j][0]; like cv2, a link to contour 0 ends
    the chain) are pushed. Malformed (cyclic) hierarchies visit each contour once."""
    n = len(h)

    def depth(i):
        d, seen = 0, set()
        while 0 <= h[i][3] < n and i not in seen:
            seen.add(i)
            i, d = h[i][3], d + 1
        return d

    stack = [idx] if idx >= 0 else [i for i in range(n) if h[i][3] < 0]
    out, seen = [], set(stack)
    while stack:
        cur = stack.pop()
        if depth(cur) <= max_level:
            out.append(cur)
        child = h[cur][2]
        while 0 < child < n and child not in seen:
            seen.add(child)
            stack.append(child)
            child = h[child][0]
    return out


def drawContours(image, contours, contourIdx, color, thickness=1, lineType=LINE_8, hierarchy=None,
                 maxLevel=_INT_MAX, offset=(0, 0)):
    fn = "drawContours"
    try:
        conts = [_contour_points(c, fn, "contours") for c in contours]
    except TypeError:
        raise fail(fn, "Can't parse 'contours': expected a sequence of point arrays") from None
    n = len(conts)
    idx = _int(contourIdx, fn, "contourIdx")
    t = _thickness(thickness, fn)
    lt, col = _line_type(lineType, fn), _color(color, fn)
    ox, oy = _point(offset, fn, "offset")
    max_level = _int(maxLevel, fn, "maxLevel")
    if n == 0:
        return _unchanged(image, fn)
    if idx >= n:
        raise fail(fn, f"contourIdx {idx} is out of range (0 <= contourIdx < {n})")
    h = _hierarchy(hierarchy, n, fn)
    if h is None or max_level == 0:
        order = list(range(n)) if idx < 0 else [idx]
    else:
        order = _select(h, idx, max_level)
    sel = [[(x + ox, y + oy) for x, y in conts[i]] for i in order if conts[i]]
    if not sel:
        return _unchanged(image, fn)
    if t >= 0:
        ints = [_CONTOURS, t, lt, len(sel)]
    else:
        ints = [_FILLPOLY, lt, 0, 0, 0, len(sel)]
    for c in sel:
        ints += _flat(c)
    return _draw(image, ints, col, fn)


def drawMarker(img, position, color, markerType=MARKER_CROSS, markerSize=20, thickness=1, line_type=8):
    fn = "drawMarker"
    x, y = _point(position, fn, "position")
    m = _int(markerSize, fn, "markerSize")
    s = -(-m // 2) if m < 0 else m // 2  # C's division truncates: -3 / 2 is -1
    t = _thickness(thickness, fn, allow_filled=False)
    lt, col = _line_type(line_type, fn), _color(color, fn)
    segs = {
        MARKER_TILTED_CROSS: [((x - s, y - s), (x + s, y + s)), ((x + s, y - s), (x - s, y + s))],
        MARKER_STAR: [((x - s, y), (x + s, y)), ((x, y - s), (x, y + s)),
                      ((x - s, y - s), (x + s, y + s)), ((x + s, y - s), (x - s, y + s))],
        MARKER_DIAMOND: [((x, y - s), (x + s, y)), ((x + s, y), (x, y + s)),
                         ((x, y + s), (x - s, y)), ((x - s, y), (x, y - s))],
        MARKER_SQUARE: [((x - s, y - s), (x + s, y - s)), ((x + s, y - s), (x + s, y + s)),
                        ((x + s, y + s), (x - s, y + s)), ((x - s, y + s), (x - s, y - s))],
        MARKER_TRIANGLE_UP: [((x - s, y + s), (x + s, y + s)), ((x + s, y + s), (x, y - s)),
                             ((x, y - s), (x - s, y + s))],
        MARKER_TRIANGLE_DOWN: [((x - s, y - s), (x + s, y - s)), ((x + s, y - s), (x, y + s)),
                               ((x, y + s), (x - s, y - s))],
    }.get(_int(markerType, fn, "markerType"), [((x - s, y), (x + s, y)), ((x, y - s), (x, y + s))])
    ints = []
    for (p, q) in segs:
        ints += [_LINE, p[0], p[1], q[0], q[1], t, lt, 0]
    return _draw(img, ints, col, fn)


def clipLine(imgRect, pt1, pt2):
    """clipLine(imgRect=(x, y, w, h), pt1, pt2) -> (inside, pt1, pt2), clipped to the rectangle."""
    fn = "clipLine"
    try:
        rx, ry, rw, rh = (_int(v, fn, "imgRect") for v in (imgRect.tolist() if hasattr(imgRect, "tolist") else imgRect))
    except ValueError:
        raise fail(fn, "Can't parse 'imgRect': expected (x, y, width, height)") from None
    (x1, y1), (x2, y2) = _point(pt1, fn, "pt1"), _point(pt2, fn, "pt2")
    x1, y1, x2, y2 = x1 - rx, y1 - ry, x2 - rx, y2 - ry
    if rw <= 0 or rh <= 0:
        return False, (x1 + rx, y1 + ry), (x2 + rx, y2 + ry)
    right, bottom = rw - 1, rh - 1

    def tdiv(p, q):  # C's truncating division
        r = abs(p) // abs(q)
        return r if (p >= 0) == (q > 0) else -r

    def code(x, y):
        return (x < 0) + (x > right) * 2 + (y < 0) * 4 + (y > bottom) * 8

    c1, c2 = code(x1, y1), code(x2, y2)
    if (c1 & c2) == 0 and (c1 | c2) != 0:
        if c1 & 12:
            e = 0 if c1 < 8 else bottom
            x1 += tdiv((e - y1) * (x2 - x1), y2 - y1)
            y1 = e
            c1 = (x1 < 0) + (x1 > right) * 2
        if c2 & 12:
            e = 0 if c2 < 8 else bottom
            x2 += tdiv((e - y2) * (x2 - x1), y2 - y1)
            y2 = e
            c2 = (x2 < 0) + (x2 > right) * 2
        if (c1 & c2) == 0 and (c1 | c2) != 0:
            if c1:
                e = 0 if c1 == 1 else right
                y1 += tdiv((e - x1) * (y2 - y1), x2 - x1)
                x1, c1 = e, 0
            if c2:
                e = 0 if c2 == 1 else right
                y2 += tdiv((e - x2) * (y2 - y1), x2 - x1)
                x2, c2 = e, 0
    return (c1 | c2) == 0, (x1 + rx, y1 + ry), (x2 + rx, y2 + ry)


# ---- text -----------------------------------------------------------------------------------

def _face(font_face, fn):
    """cv2's font selection: the low 4 bits pick the face, FONT_ITALIC switches PLAIN, COMPLEX,
    TRIPLEX and COMPLEX_SMALL to their italic sets (the other faces have none and ignore it)."""
    f = _int(font_face, fn, "fontFace")
    base = f & 15
    if base > FONT_HERSHEY_SCRIPT_COMPLEX:
        raise fail(fn, f"Unknown font type {f}")
    if f & FONT_ITALIC and base in (FONT_HERSHEY_PLAIN, FONT_HERSHEY_COMPLEX, FONT_HERSHEY_TRIPLEX,
                                    FONT_HERSHEY_COMPLEX_SMALL):
        return base | FONT_ITALIC
    return base


def _text(text, fn):
    if not isinstance(text, str):
        raise TypeError(f"[mnn.cv.{fn}] Can't convert object of type {type(text).__name__} to 'str' for 'text'")
    return text.split("\0", 1)[0]  # cv2 passes the text on as a C string


def _scale(v, fn):
    try:
        if isinstance(v, bool) or not hasattr(v, "__float__"):
            raise TypeError
        return float(v)
    except (TypeError, ValueError):
        raise fail(fn, f"Can't parse 'fontScale': expected a number, got {type(v).__name__}") from None


def putText(img, text, org, fontFace, fontScale, color, thickness=1, lineType=LINE_8, bottomLeftOrigin=False):
    """Draws `text` with a Hershey stroke font the way OpenCV 4 does (OpenCV 5's putText draws
    TrueType fonts instead, which mnn does not reproduce). Needs the optional pyhershey package
    (pip install mnn[text]). Pixel-identical to OpenCV 4.10 for LINE_8 / LINE_4 / LINE_AA at any
    scale and thickness, text running off the image included, for every face (FONT_ITALIC
    included) and character (FONT_HERSHEY_COMPLEX's Cyrillic included), except the strokes of the
    characters OpenCV draws with glyphs of its own copy of the Hershey data that the public one
    lacks or holds otherwise (mnn draws stand-ins in cv2's advance, so the other characters stay
    exact; mnn/cv/_hershey.py lists them): in every face '\\', '{', '}' and, in some faces, '#',
    '_', '%', '<', '>', '@', '[', ']', '&', 'i'; FONT_HERSHEY_PLAIN's lower case letters (but 'l',
    'x') and 18 punctuation marks; all of FONT_HERSHEY_PLAIN | FONT_ITALIC but the digits, the
    space and 16 marks."""
    fn = "putText"
    text = _text(text, fn)
    (ox, oy) = _point(org, fn, "org")
    col = _color(color, fn)
    t = _int(thickness, fn, "thickness")
    lt = _line_type(lineType, fn)
    if lt == LINE_AA:
        dt = getattr(img, "dtype", None)  # an image without one fails in _draw (_canvas)
        if dt is not None and _dtype_name(dt) != "uint8":
            lt = LINE_8  # cv2 anti-aliases on 8-bit images only (decided here: the glyph route below differs)
    scale = _scale(fontScale, fn)
    if not text:
        return _unchanged(img, fn)
    face = _face(fontFace, fn)
    if not 0 <= t <= _MAX_THICKNESS:
        raise fail(fn, f"thickness must be in [0, {_MAX_THICKNESS}], got {t}")
    _, base, glyphs = _hershey().face_table(face, fn)
    hscale = round(scale * (1 << _XY_SHIFT))  # cv2: cvRound(fontScale * XY_ONE), ties to even
    vscale = -hscale if bottomLeftOrigin else hscale
    # thin strokes with sub-pixel end points: OpenCV 4 walks them with its fixed-point line
    # (our line type 0 / 1 route); thick ones are the same polygons whatever the alias
    if t <= 1 and lt in (LINE_8, 0):
        lt = 0
    elif t <= 1 and lt in (LINE_4, 1):
        lt = 1
    view_x = ox << _XY_SHIFT
    view_y = (oy << _XY_SHIFT) - base * vscale
    key = (face, hscale, vscale, t, lt)
    table = _GLYPH_CACHE.get(key)
    if table is None:
        if len(_GLYPH_CACHE) >= 64:  # a bound for programs that use many scales
            _GLYPH_CACHE.clear()
        table = _GLYPH_CACHE[key] = {}
    parts = []
    for code in _codes(text, fontFace):
        g = table.get(code)
        if g is None:
            g = table[code] = _glyph(glyphs[code], t, lt, hscale, vscale)
        view_x -= g[0]
        if g[1]:
            parts += (_PACK_OFFSET(_OFFSET, view_x, view_y), g[1])
        view_x += g[2]
    return _draw(img, b"".join(parts), col, fn)


_HERSHEY = []


def _hershey():
    """mnn/cv/_hershey.py, imported at first use (an import statement costs microseconds per label)."""
    if not _HERSHEY:
        from . import _hershey as h
        _HERSHEY.append(h)
    return _HERSHEY[0]


# putText's glyph strokes encoded once per (face, scale, thickness, line type) as packed POLYLINE
# commands relative to the pen position, placed by an OFFSET command: a label then costs a few
# dictionary look-ups per character instead of rounding every stroke point in Python.
_GLYPH_CACHE = {}
_PACK_OFFSET = struct.Struct("=3q").pack


def _glyph(g, t, lt, hscale, vscale):
    """(left, packed strokes, right) of one glyph at this scale: the same integers cv2 computes,
    round(x * scale) per point and per side bearing (the pen moves by the rounded bearings)."""
    left, right, strokes = g
    ints = []
    for s in strokes:
        ints += [_POLYLINE, 0, t, lt, _XY_SHIFT, len(s)]
        for x, y in s:
            ints += (round(x * hscale), round(y * vscale))
    return round(left * hscale), struct.pack(f"={len(ints)}q", *ints), round(right * hscale)


def _codes(text, font_face):
    """_hershey.codes, with printable ASCII (the usual label) taken as its bytes directly."""
    if text.isascii():
        b = text.encode()
        if min(b) >= 32 and max(b) < 127:
            return b
    return _hershey().codes(text, _int(font_face, "putText", "fontFace"))


def getTextSize(text, fontFace, fontScale, thickness):
    """((width, height), baseline) of `text` as OpenCV 4 measures it: the sum of the glyph advances
    times fontScale plus thickness, the face's cell height times fontScale plus half the
    thickness, and the baseline's depth. Needs the optional pyhershey package (pip install mnn[text]).
    Equal to OpenCV 4.10's for every face and character."""
    fn = "getTextSize"
    text = _text(text, fn)
    face = _face(fontFace, fn)
    scale = _scale(fontScale, fn)
    t = _int(thickness, fn, "thickness")
    cap, base, glyphs = _hershey().face_table(face, fn)
    width = 0.0
    for code in _hershey().codes(text, _int(fontFace, fn, "fontFace")):
        left, right, _ = glyphs[code]
        width += (right - left) * scale
    half = abs(t + 1) // 2 * (1 if t + 1 >= 0 else -1)  # C's truncating (thickness + 1) / 2
    height = round((cap + base) * scale + half)
    return (round(width + t), height), round(base * scale + t * 0.5)
