"""mnn.cv drawing against cv2 on odd-sized images (97x131 and random sizes) of 1, 2, 3 and 4 channels,
uint8 and the other depths cv2 draws on: shapes partly outside the image, shift > 0, thick lines,
filled shapes, contours from cv2.findContours with their hierarchy, and cv2's errors.

Pixel-identical to cv2 5 for LINE_4, LINE_8 and LINE_AA, checked on the cases below and on random
calls of every function (fixed seeds, hundreds per function and line type). LINE_AA on images that
are not 8-bit is LINE_8, as in cv2."""
import cv2
import numpy
import pytest

import mnn
import mnn.cv as cv
import mnn.numpy as mnp

RNG = numpy.random.default_rng(11)
H, W = 97, 131


def canvas(cn=3, dtype=numpy.uint8, fill=None):
    shape = (H, W) if cn == 1 else (H, W, cn)
    if fill is not None:
        return numpy.full(shape, fill, dtype)
    if dtype == numpy.uint8:
        return RNG.integers(0, 60, shape).astype(dtype)
    return (RNG.random(shape) * 0.2).astype(dtype)


def color_for(dtype, cn):
    c = (255, 128, 30, 200) if dtype == numpy.uint8 else (0.9, 0.5, 0.1, 0.7)
    return c[:max(cn, 3)]


def check(name, img, *args, **kw):
    """cv2.<name> and mnn.cv.<name> on copies of img: an mnn array, and a numpy array drawn in place."""
    want = img.copy()
    r = getattr(cv2, name)(want, *args, **kw)
    assert r is None or r is want or numpy.shares_memory(r, want)
    m = mnp.array(img)
    got = getattr(cv, name)(m, *args, **kw)
    assert got is m
    numpy.testing.assert_array_equal(numpy.asarray(m), want, err_msg=f"{name}{args}")
    n = img.copy()
    got_np = getattr(cv, name)(n, *args, **kw)
    assert got_np is n
    numpy.testing.assert_array_equal(n, want, err_msg=f"{name}{args} on numpy")
    return want


LINES = [((3, 4), (120, 90)), ((-20, 50), (150, 60)), ((60, -30), (70, 130)), ((130, 0), (0, 96)),
         ((10, 10), (10, 10)), ((-50, -50), (-10, -5)), ((5, 90), (125, 2)), ((0, 48), (130, 48)),
         ((65, 0), (66, 96)), ((-1000, 300), (900, -200))]


@pytest.mark.parametrize("cn,dtype", [(1, numpy.uint8), (3, numpy.uint8), (4, numpy.uint8), (3, numpy.float32),
                                      (1, numpy.float32), (2, numpy.int16), (3, numpy.uint16), (1, numpy.float64)])
@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
@pytest.mark.parametrize("thickness", [1, 2, 3, 6])
def test_line(cn, dtype, lt, thickness):
    img = canvas(cn, dtype)
    col = color_for(dtype, cn)
    for p, q in LINES:
        img = check("line", img, p, q, col, thickness, lt)


@pytest.mark.parametrize("shift", [1, 2, 4, 16])
@pytest.mark.parametrize("lt,thickness", [(cv2.LINE_8, 1), (cv2.LINE_4, 1), (cv2.LINE_8, 3), (cv2.LINE_4, 4),
                                          (cv2.LINE_AA, 1), (cv2.LINE_AA, 2), (cv2.LINE_AA, 5)])
def test_line_shift(shift, lt, thickness):
    img = canvas(3)
    s = 1 << shift
    for p, q in [((3 * s + s // 3, 4 * s), (120 * s - 1, 90 * s + s // 2)), ((-20 * s, 50 * s + 1), (150 * s, 61 * s)),
                 ((60 * s + s // 2, 5), (61 * s, 96 * s - 1))]:
        img = check("line", img, p, q, (10, 200, 90), thickness, lt, shift)


@pytest.mark.parametrize("cn,dtype", [(1, numpy.uint8), (3, numpy.uint8), (4, numpy.float32)])
@pytest.mark.parametrize("thickness", [1, 2, 5, -1])
@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
def test_rectangle(cn, dtype, thickness, lt):
    img = canvas(cn, dtype)
    col = color_for(dtype, cn)
    for p, q in [((5, 6), (70, 80)), ((-10, 20), (40, 200)), ((120, 90), (100, 3)), ((50, 50), (50, 50))]:
        img = check("rectangle", img, p, q, col, thickness, lt)
    img = check("rectangle", img, (30, 20, 41, 17), col, thickness, lt)  # the Rect overload
    check("rectangle", img, (16, 9, 80, 40), col, thickness, lt, 2)


@pytest.mark.parametrize("cn,dtype", [(1, numpy.uint8), (3, numpy.uint8), (4, numpy.uint8), (3, numpy.float32)])
@pytest.mark.parametrize("thickness", [1, 2, 3, 8, -1])
@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
def test_circle(cn, dtype, thickness, lt):
    img = canvas(cn, dtype)
    col = color_for(dtype, cn)
    draw = check
    for c, r in [((60, 50), 30), ((5, 5), 20), ((130, 96), 45), ((-10, 40), 25), ((65, 48), 0), ((65, 48), 1),
                 ((40, 30), 200), ((200, 50), 10)]:
        img = draw("circle", img, c, r, col, thickness, lt)
    for shift in (1, 3):
        img = draw("circle", img, (61 << shift, 47 << shift), (20 << shift) + 1, col, thickness, lt, shift)


@pytest.mark.parametrize("thickness", [1, 3, -1])
@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
def test_ellipse(thickness, lt):
    img = canvas(3)
    col = (20, 250, 120)
    for args in [((60, 50), (40, 20), 0, 0, 360), ((60, 50), (40, 20), 30, 0, 360), ((60, 50), (50, 10), -75, 45, 300),
                 ((10, 90), (60, 30), 200, -30, 90), ((70, 40), (0, 15), 10, 0, 360), ((70, 40), (5, 2), 0, 0, 180),
                 ((65, 48), (30, 30), 0, 400, 10)]:
        img = check("ellipse", img, *args, col, thickness, lt)
    # a filled arc crossing the border: see the module docstring
    img = check("ellipse", img, (65, 48), (100, 70), 33.4, 10.6, 250.2, col, thickness, lt)
    img = check("ellipse", img, (240, 200), (80, 41), 15, 0, 270, col, thickness, lt, 2)
    for box in [((60.5, 40.25), (50.5, 30.0), 20.0), ((10.0, 10.0), (80.0, 40.0), 100.0)]:
        img = check("ellipse", img, box, col, thickness, lt)


@pytest.mark.parametrize("args", [((60, 50), (40, 20), 0, 0, 360, 5), ((60, 50), (40, 20), 45, 30, 200, 10),
                                  ((0, 0), (3, 1), 0, 0, 360, 1), ((10, 10), (0, 0), 0, 0, 360, 30),
                                  ((5, 7), (100, 50), -30, -60, 60, 7), ((5, 7), (100, 50), 400, 0, 720, 45)])
def test_ellipse2poly(args):
    want = cv2.ellipse2Poly(*args)
    got = numpy.asarray(cv.ellipse2Poly(*args))
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)


def polygons():
    return [numpy.array([[10, 10], [120, 20], [60, 90]], numpy.int32),
            numpy.array([[[-20, 30]], [[70, -10]], [[140, 50]], [[90, 110]], [[30, 80]]], numpy.int32),
            numpy.array([[20, 60], [110, 60], [30, 15], [65, 95], [100, 15]], numpy.int32),  # self-crossing star
            numpy.array([[40, 40], [40, 40]], numpy.int32),
            numpy.array([[5, 50]], numpy.int32)]


@pytest.mark.parametrize("cn,dtype", [(1, numpy.uint8), (3, numpy.uint8), (4, numpy.uint8), (3, numpy.float32)])
@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
def test_fill_poly(cn, dtype, lt):
    col = color_for(dtype, cn)
    inside = [p for i, p in enumerate(polygons()) if i != 1]
    img = check("fillPoly", canvas(cn, dtype), inside, col, lt)
    img = check("fillPoly", img, [polygons()[0], polygons()[2]], col, lt, 0, (7, -5))
    img = check("fillPoly", img, [p * 4 + 1 for p in inside], col, lt, 2)
    # edges crossing the border: see the module docstring
    img = check("fillPoly", img, polygons(), col, lt)
    check("fillPoly", img, [p * 4 + 1 for p in polygons()[:3]], col, lt, 2, (-30, 20))
    # a square with a square hole: even-odd filling leaves the hole
    ring = [numpy.array([[10, 10], [90, 10], [90, 80], [10, 80]], numpy.int32),
            numpy.array([[30, 30], [60, 30], [60, 60], [30, 60]], numpy.int32)]
    check("fillPoly", canvas(cn, dtype), ring, col, lt)


@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
@pytest.mark.parametrize("shift", [0, 3])
def test_fill_convex_poly(lt, shift):
    img = canvas(3)
    for p in polygons():
        img = check("fillConvexPoly", img, p << shift, (200, 10, 90), lt, shift)
    hexagon = numpy.array([[60, 5], [100, 25], [100, 70], [60, 92], [20, 70], [20, 25]], numpy.int32)
    check("fillConvexPoly", img, hexagon, (1, 2, 3), lt)


@pytest.mark.parametrize("closed", [True, False])
@pytest.mark.parametrize("thickness", [1, 2, 4])
@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
def test_polylines(closed, thickness, lt):
    img = check("polylines", canvas(3), polygons(), closed, (0, 255, 255), thickness, lt)
    shifted = [p * 8 + 3 for p in polygons()[:3]]
    img = check("polylines", img, [shifted[0], shifted[2]], closed, (90, 0, 255), thickness, lt, 3)
    if thickness == 1:
        check("polylines", img, shifted, closed, (90, 0, 255), thickness, lt, 3)
    else:  # a thick shifted line crossing the border
        check("polylines", img, shifted, closed, (90, 0, 255), thickness, lt, 3)
    check("polylines", canvas(1), polygons()[1], closed, 200, thickness, lt)  # one array: one polyline


def contour_scene():
    m = numpy.zeros((H, W), numpy.uint8)
    cv2.rectangle(m, (5, 5), (80, 70), 255, -1)
    cv2.rectangle(m, (15, 15), (60, 55), 0, -1)
    cv2.circle(m, (35, 35), 10, 255, -1)
    cv2.circle(m, (105, 60), 20, 255, -1)
    cv2.fillPoly(m, [numpy.array([[90, 5], [128, 10], [110, 30]], numpy.int32)], 255)
    return cv2.findContours(m, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)


@pytest.mark.parametrize("thickness", [1, 2, 5, -1])
@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
def test_draw_contours(thickness, lt):
    contours, hier = contour_scene()
    assert isinstance(contours, tuple) and contours[0].shape[1:] == (1, 2)
    img = check("drawContours", canvas(3), contours, -1, (0, 0, 255), thickness, lt)
    for idx in range(len(contours)):
        check("drawContours", canvas(3), contours, idx, (0, 255, 0), thickness, lt)
        for level in (0, 1, 2):
            check("drawContours", canvas(3), contours, idx, (255, 0, 0), thickness, lt, hier, level)
    for level in (0, 1, 2, 5):
        check("drawContours", canvas(1), contours, -1, 255, thickness, lt, hier, level)
    check("drawContours", img, contours, -1, (9, 9, 9), thickness, lt, None, 1, (20, -10))
    approx = tuple(cv2.approxPolyDP(c, 2.0, True) for c in contours)
    check("drawContours", canvas(4), approx, -1, (1, 2, 3, 4), thickness, lt)


@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_AA])
def test_arrowed_line_and_markers(lt):
    img = canvas(3)
    for p, q, t in [((10, 10), (120, 80), 1), ((100, 90), (20, 40), 3), ((65, 5), (65, 90), 2)]:
        img = check("arrowedLine", img, p, q, (255, 0, 255), t, lt, 0, 0.2)
    for mtype in range(7):
        img = check("drawMarker", img, (30 + 12 * mtype, 48), (0, 200, 0), mtype, 15, 1 + mtype % 3, lt)


@pytest.mark.parametrize("lt", [cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA])
def test_far_thick_lines(lt):
    """Thick lines whose end points lie millions of pixels away: with shift > 0 cv2 5 fills the whole
    band without clipping it first (mnn skips the rows above the image, same pixels)."""
    img = canvas(3)
    for p, q, t, sh in [((-2**30, -2**30), (2**30, 2**30 - 5000), 3, 8), ((5 << 8, -2**30), (60 << 8, 2**30), 4, 8),
                        ((-2**29, 40 << 2), (2**29, 50 << 2), 5, 2), ((-2**30, 2**30), (2**30, -2**30), 6, 0)]:
        img = check("line", img, p, q, (30, 200, 250), t, lt, sh)


@pytest.mark.parametrize("rect", [(0, 0, 131, 97), (10, 20, 50, 40), (0, 0, 0, 5)])
def test_clip_line(rect):
    for p, q in LINES:
        assert cv.clipLine(rect, p, q) == cv2.clipLine(rect, p, q)


def random_call(rng, name, h, w, lt=cv2.LINE_AA):
    """Arguments for one random call of `name` on an h x w image: points up to 40% beyond the
    border, shift 0..16 with random sub-pixel parts, thickness 1..9 or filled, 1 to 4 colour
    components."""
    sh = int(rng.choice([0, 0, 1, 2, 4, 8, 16]))

    def pt():
        x, y = int(rng.integers(-w * 2 // 5, w * 7 // 5)), int(rng.integers(-h * 2 // 5, h * 7 // 5))
        return (x << sh) + int(rng.integers(0, 1 << sh)), (y << sh) + int(rng.integers(0, 1 << sh))

    ncol = int(rng.integers(1, 5))
    col = tuple(int(v) for v in rng.integers(0, 256, ncol)) if ncol > 1 else int(rng.integers(0, 256))
    t = int(rng.choice([1, 1, 1, 2, 3, 4, 5, 9]))

    def poly(n):
        return numpy.array([pt() for _ in range(n)], numpy.int32)

    if name == "line":
        return (pt(), pt(), col, t, lt, sh)
    if name == "arrowedLine":
        return (pt(), pt(), col, t, lt, sh, float(rng.uniform(0.05, 0.6)))
    if name == "rectangle":
        return (pt(), pt(), col, int(rng.choice([t, -1])), lt, sh)
    if name == "circle":
        return (pt(), int(rng.integers(0, max(h, w) // 2)) << sh, col, int(rng.choice([t, t, -1])), lt, sh)
    if name == "ellipse":
        filled = rng.integers(0, 3) == 0
        axes = (int(rng.integers(0, w // 2 + 1)) << sh, int(rng.integers(0, h // 2 + 1)) << sh)
        ctr = pt()
        return (ctr, axes, int(rng.integers(-360, 360)), int(rng.integers(-200, 360)), int(rng.integers(-90, 420)),
                col, -1 if filled else t, lt, sh)
    if name == "polylines":
        return ([poly(int(rng.integers(1, 8))) for _ in range(int(rng.integers(1, 3)))], bool(rng.integers(0, 2)),
                col, t, lt, sh)
    if name == "fillPoly":
        return ([poly(int(rng.integers(1, 8))) for _ in range(int(rng.integers(1, 3)))], col, lt, sh)
    if name == "fillConvexPoly":
        return (poly(int(rng.integers(1, 7))), col, lt, sh)
    assert name == "drawContours"
    conts = [poly(int(rng.integers(1, 7))).reshape(-1, 1, 2) >> sh for _ in range(int(rng.integers(1, 4)))]
    return (conts, int(rng.integers(-1, len(conts))), col, t, lt, None, 2**31 - 1, (int(rng.integers(-5, 6)), 0))


FUNCS = ["line", "arrowedLine", "rectangle", "circle", "ellipse", "polylines", "fillPoly", "fillConvexPoly",
            "drawContours"]


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("cn", [1, 3, 4, 2])
@pytest.mark.parametrize("lt", [cv2.LINE_AA, cv2.LINE_8, cv2.LINE_4])
def test_random_exact(name, cn, lt):
    """Against cv2 pixel for pixel: random calls per function, channel count and line type (LINE_AA
    on 2 channels takes cv2's fallback, a plain line between truncated end points), on random sizes."""
    rng = numpy.random.default_rng(1000 + FUNCS.index(name) * 100 + cn * 10 + lt)
    for _ in range(120 if lt == cv2.LINE_AA else 50):
        h, w = int(rng.integers(3, 60)) | 1, int(rng.integers(3, 80)) | 1
        shape = (h, w) if cn == 1 else (h, w, cn)
        img = rng.integers(0, 256, shape).astype(numpy.uint8)
        args = random_call(rng, name, h, w, lt)
        want = getattr(cv2, name)(img.copy(), *args)
        got = getattr(cv, name)(img.copy(), *args)
        numpy.testing.assert_array_equal(got, want, err_msg=f"{name}{(h, w, cn)}{args}")


@pytest.mark.parametrize("cn,dtype", [(1, numpy.uint8), (3, numpy.uint8), (4, numpy.uint8), (2, numpy.uint8),
                                      (3, numpy.float32)])
def test_axis_aligned_exact(cn, dtype):
    """Shapes whose thick segments run along an axis with whole-pixel corners (rectangle boxes,
    axis-aligned polylines and contours, filled rectangles; mnn fills such segments directly):
    random sizes, shift 0..4 with whole-pixel coordinates, corners far outside the image, empty
    widths and heights, LINE_4 and LINE_8."""
    rng = numpy.random.default_rng(4242 + cn)
    for _ in range(150):
        h, w = int(rng.integers(1, 50)), int(rng.integers(1, 70))
        shape = (h, w) if cn == 1 else (h, w, cn)
        img = (rng.integers(0, 256, shape) if dtype == numpy.uint8 else rng.random(shape)).astype(dtype)
        sh = int(rng.choice([0, 0, 0, 1, 4]))
        lt = int(rng.choice([cv2.LINE_4, cv2.LINE_8]))
        t = int(rng.choice([1, 2, 2, 3, 4, 7, -1]))
        col = tuple(int(v) for v in rng.integers(0, 256, 4))

        def c(lo, hi):
            return int(rng.integers(lo, hi)) if rng.integers(0, 8) else int(rng.choice([-10**6, 10**6]))

        x0, y0 = c(-w // 2, w + w // 2), c(-h // 2, h + h // 2)
        x1 = x0 + int(rng.integers(-30, 30)) * int(rng.integers(0, 2))
        y1 = y0 + int(rng.integers(-30, 30)) * int(rng.integers(0, 2))
        box = numpy.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], numpy.int32)
        kind = int(rng.integers(0, 4))
        if kind == 0:
            name, args = "rectangle", ((x0 << sh, y0 << sh), (x1 << sh, y1 << sh), col, t, lt, sh)
        elif kind == 1:
            name, args = "polylines", ([box << sh], bool(rng.integers(0, 2)), col, max(t, 1), lt, sh)
        elif kind == 2:
            name, args = "drawContours", ([box.reshape(-1, 1, 2)], -1, col, t, lt)
        else:
            name, args = "fillConvexPoly", (box[::int(rng.choice([1, -1]))] << sh, col, lt, sh)
        want = getattr(cv2, name)(img.copy(), *args)
        got = getattr(cv, name)(img.copy(), *args)
        numpy.testing.assert_array_equal(got, want, err_msg=f"{name}{(h, w, cn)}{args}")


@pytest.mark.parametrize("dtype", [numpy.uint16, numpy.float32, numpy.int16, numpy.float64])
def test_aa_random_other_depths(dtype):
    """LINE_AA on images that are not 8-bit: cv2 draws LINE_8 there; the same random calls, all functions."""
    rng = numpy.random.default_rng(77)
    for i in range(150):
        name = FUNCS[i % len(FUNCS)]
        cn = int(rng.choice([1, 3, 4]))
        h, w = int(rng.integers(3, 60)) | 1, int(rng.integers(3, 80)) | 1
        shape = (h, w) if cn == 1 else (h, w, cn)
        img = (rng.random(shape) * 1000).astype(dtype)
        args = random_call(rng, name, h, w)
        want = getattr(cv2, name)(img.copy(), *args)
        got = getattr(cv, name)(img.copy(), *args)
        numpy.testing.assert_array_equal(got, want, err_msg=f"{name}{(h, w, cn)}{args}")


def test_aa_on_numpy_and_mnn_in_place():
    img = canvas(3)
    img = check("line", img, (3, 4), (120, 90), (250, 180, 90), 1, cv2.LINE_AA)
    img = check("circle", img, (65, 48), 30, (250, 180, 90), 3, cv2.LINE_AA, 0)
    check("ellipse", img, (65, 48), (40, 20), 30, 0, 360, (1, 2, 3), -1, cv2.LINE_AA)


def test_line_aa_on_float_is_line_8():
    img = canvas(3, numpy.float32)
    check("line", img, (3, 4), (120, 90), (0.5, 0.2, 0.9), 1, cv2.LINE_AA)
    check("circle", img, (60, 40), 20, (0.5, 0.2, 0.9), 2, cv2.LINE_AA)


def test_in_place_on_views_and_return_value():
    base = numpy.zeros((H, W, 3), numpy.uint8)
    want = base.copy()
    cv2.circle(want[10:80, 20:110], (40, 30), 25, (0, 0, 255), -1)
    view = base[10:80, 20:110]  # a non-contiguous numpy view: cv2 draws through it
    assert cv.circle(view, (40, 30), 25, (0, 0, 255), -1) is view
    numpy.testing.assert_array_equal(base, want)
    m = mnp.zeros((H, W, 3), dtype=mnp.uint8)
    mv = m[10:80, 20:110]
    cv.circle(mv, (40, 30), 25, (0, 0, 255), -1)
    numpy.testing.assert_array_equal(numpy.asarray(m), want)


def test_colors_are_cv2_scalars():
    # a single number on a 3-channel image colours only the first channel, as cv2.Scalar(v) does
    check("line", canvas(3), (0, 0), (100, 90), 255, 2)
    check("rectangle", canvas(4), (3, 3), (50, 50), (300, -5, 127.5, 1e9), -1)  # saturating
    check("rectangle", canvas(1, numpy.int16), (3, 3), (50, 50), (-40000,), -1)


@pytest.mark.parametrize("name", ["line", "rectangle", "circle"])
def test_argument_kinds_agree(name):
    """line, rectangle and circle take a native route for plain arguments (int tuples, a tuple
    colour, int thickness, line type and shift) and the checked Python route for anything else:
    both draw what cv2 draws, on mnn and numpy images, also with the AA line type on float images."""
    i32 = numpy.int32
    second = (5, 60) if name != "circle" else 30
    variants = [((20, 10), second, (255, 128, 30)),
                ((20, 10), second, [255.0, 128.5, 30]),
                ((20, 10), second, (255, 128, 30, 7), 3, cv2.LINE_AA),
                ((20, 10), second, 200, -1 if name != "line" else 2, cv2.LINE_4, 2),
                ((i32(20), i32(10)), second if name == "circle" else (i32(5), i32(60)), (1, 2, 3), i32(2)),
                ([20, 10], second, numpy.array([9.0, 8.0, 7.0]), 1, cv2.LINE_8, 0),
                ((20, 10), second, (True, 2, 3), 2, 0, 1),
                ((-(2**31), 10), second, (1, 2, 3)),
                ((20, 10), second, (1, 2, 3), 2, cv2.LINE_AA, 16)]
    for args in variants:
        for dtype in (numpy.uint8, numpy.float32):
            img = canvas(3, dtype)
            want = getattr(cv2, name)(img.copy(), *args)
            for target in (img.copy(), mnp.array(img)):
                got = getattr(cv, name)(target, *args)
                assert got is target
                numpy.testing.assert_array_equal(numpy.asarray(got), want, err_msg=f"{name}{args} {dtype}")


def test_errors():
    img = canvas(3)
    with pytest.raises(cv.error, match=r"\[mnn.cv.line\]"):
        cv.line(img, (0, 0), (10.5, 3), (255, 0, 0))
    with pytest.raises(cv.error, match=r"\[mnn.cv.line\].*lineType"):
        cv.line(img, (0, 0), (10, 3), (255, 0, 0), 1, 3)
    with pytest.raises(cv.error, match=r"\[mnn.cv.circle\].*shift"):
        cv.circle(img, (5, 5), 3, (255, 0, 0), 1, 8, 17)
    with pytest.raises(cv.error, match=r"\[mnn.cv.circle\].*radius"):
        cv.circle(img, (5, 5), -3, (255, 0, 0))
    with pytest.raises(cv.error, match=r"\[mnn.cv.line\].*thickness"):
        cv.line(img, (0, 0), (5, 5), (1, 2, 3), 40000)
    with pytest.raises(cv.error, match=r"\[mnn.cv.fillPoly\].*int32"):
        cv.fillPoly(img, [numpy.array([[1, 2], [3, 4], [5, 1]], numpy.float32)], (1, 2, 3))
    with pytest.raises(cv.error, match=r"\[mnn.cv.rectangle\]"):
        cv.rectangle(None, (0, 0), (3, 3), (1, 2, 3))
    with pytest.raises(cv.error, match=r"\[mnn.cv.circle\].*channels"):
        cv.circle(numpy.zeros((5, 5, 5), numpy.uint8), (2, 2), 1, 1)
    with pytest.raises(cv.error, match=r"\[mnn.cv.line\].*color"):
        cv.line(img, (0, 0), (5, 5), (1, 2, 3, 4, 5))
    with pytest.raises(cv.error, match=r"\[mnn.cv.drawContours\].*contourIdx"):
        cv.drawContours(img, contour_scene()[0], 99, (1, 2, 3))
    ro = canvas(3)
    ro.flags.writeable = False
    with pytest.raises(cv.error, match=r"\[mnn.cv.line\].*read-only"):
        cv.line(ro, (0, 0), (5, 5), (1, 2, 3))
    with pytest.raises(cv.error, match=r"\[mnn.cv.line\].*depth"):
        cv.line(numpy.zeros((5, 5), numpy.complex64), (0, 0), (5, 5), 1)  # (cv2 5 draws on bool)
    with pytest.raises(cv.error, match=r"\[mnn.cv.line\].*dimensions"):
        cv.line(numpy.zeros((2, 5, 5, 3), numpy.uint8), (0, 0), (5, 5), 1)
    with pytest.raises(cv.error, match=r"\[mnn.cv.line\].*color"):
        cv.line(img, (0, 0), (5, 5), "red")
    with pytest.raises(cv.error, match=r"\[mnn.cv.circle\].*center"):
        cv.circle(img, (1, 2, 3), 4, (1, 2, 3))
    with pytest.raises(cv.error, match=r"\[mnn.cv.ellipse2Poly\].*delta"):
        cv.ellipse2Poly((0, 0), (3, 1), 0, 0, 360, 0)
    # a failed call leaves the image untouched
    before = img.copy()
    with pytest.raises(cv.error):
        cv.ellipse(img, (5, 5), (-1, 3), 0, 0, 360, (1, 2, 3))
    numpy.testing.assert_array_equal(img, before)


def test_full_hd_overlay():
    """Many thick contour segments and large polygons on a 1080p frame (the native path)."""
    img = mnp.zeros((1080, 1920, 3), dtype=mnp.uint8)
    mnn.eval(img)
    pts = [numpy.array(RNG.integers(0, 1070, (50, 1, 2)) * [1.75, 1], numpy.int32) for _ in range(40)]
    cv.drawContours(img, pts, -1, (0, 255, 0), 2)
    cv.fillPoly(img, pts[:5], (255, 0, 0))
    want = numpy.zeros((1080, 1920, 3), numpy.uint8)
    cv2.drawContours(want, pts, -1, (0, 255, 0), 2)
    cv2.fillPoly(want, pts[:5], (255, 0, 0))
    numpy.testing.assert_array_equal(numpy.asarray(img), want)


@pytest.mark.parametrize("seed", range(4))
def test_random_shapes(seed):
    """Random lines, circles, ellipses, rectangles and polygons of every thickness, line type and
    shift on one 150x210 image (mnn draws each on the crop it can touch: the result must still be
    the whole-image result). Shapes may cross the border."""
    rng = numpy.random.default_rng(100 + seed)
    h, w = 150, 210
    img = rng.integers(0, 50, (h, w, 3)).astype(numpy.uint8)
    want, m = img.copy(), mnp.array(img)
    for _ in range(120):
        kind = rng.integers(0, 6)
        lt = int(rng.choice([cv2.LINE_4, cv2.LINE_8]))
        col = tuple(int(v) for v in rng.integers(0, 256, 3))
        t = int(rng.choice([1, 1, 2, 3, 5, 9]))
        sh = int(rng.choice([0, 0, 1, 3]))
        lo, hi = -60, 260

        def pt():
            return (int(rng.integers(lo, hi + 50)) << sh, int(rng.integers(lo, hi)) << sh)
        if kind == 0:
            args = ("line", pt(), pt(), col, t, lt, sh)
        elif kind == 1:
            args = ("circle", pt(), int(rng.integers(0, 60)) << sh, col, int(rng.choice([t, -1])), lt, sh)
        elif kind == 2:
            args = ("ellipse", pt(), (int(rng.integers(0, 50)) << sh, int(rng.integers(0, 50)) << sh),
                    int(rng.integers(-180, 180)), int(rng.integers(-90, 180)), int(rng.integers(0, 400)), col, t, lt, sh)
        elif kind == 3:
            args = ("rectangle", pt(), pt(), col, t, lt, sh)
        elif kind == 4:
            poly = numpy.array([[int(rng.integers(0, w)), int(rng.integers(0, h))] for _ in range(int(rng.integers(3, 9)))],
                               numpy.int32)
            args = ("fillPoly", [poly << sh], col, lt, sh)
        else:
            poly = numpy.array([pt() for _ in range(int(rng.integers(2, 7)))], numpy.int32)
            args = ("polylines", [poly], bool(rng.integers(0, 2)), col, t, lt, sh)
        getattr(cv2, args[0])(want, *args[1:])
        getattr(cv, args[0])(m, *args[1:])
    numpy.testing.assert_array_equal(numpy.asarray(m), want)
