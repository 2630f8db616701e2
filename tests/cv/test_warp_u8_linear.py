"""uint8 INTER_LINEAR warpPerspective and remap over wide rows equal cv2 bit for bit.

These rows are long enough for the vectorised uint8 path (eight pixels per step, a group falls back
to the per-pixel code when any tap leaves the image interior), so the sweeps mix groups that lie
wholly inside, straddle an edge, or lie wholly outside, under every border mode; the remap maps also
carry points exactly on the last row/column and (constant / transparent borders) huge values.
NaN / infinite map entries are tested in tests/cv/test_warp_nonfinite.py."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402

BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP,
           cv2.BORDER_REFLECT_101, cv2.BORDER_TRANSPARENT]


def assert_same(got, want, what):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, what
    bad = numpy.argwhere(g != want)
    assert bad.size == 0, f"{what}: {len(bad)} values differ, first at {bad[:3].tolist()}"


def rotation_map(rng, h, w, dh, dw):
    """A rotation/scale of the destination grid into the source, mostly inside it."""
    ang, s = rng.uniform(-0.6, 0.6), rng.uniform(0.6, 1.3)
    yy, xx = numpy.mgrid[0:dh, 0:dw].astype(numpy.float64)
    cx, cy = w / 2 + rng.uniform(-2, 2), h / 2 + rng.uniform(-2, 2)
    u, v = (xx - dw / 2) * s, (yy - dh / 2) * s
    mx = cx + numpy.cos(ang) * u - numpy.sin(ang) * v
    my = cy + numpy.sin(ang) * u + numpy.cos(ang) * v
    return mx.astype(numpy.float32), my.astype(numpy.float32)


@pytest.mark.parametrize("cn", [1, 3, 4])
@pytest.mark.parametrize("border", BORDERS)
def test_remap_u8_linear_wide_rows(cn, border):
    rng = numpy.random.default_rng(10 * cn + border)
    for h, w in ((37, 53), (6, 5), (3, 40), (80, 7)):
        dh, dw = int(rng.integers(5, 12)), int(rng.integers(64, 140))
        a = rng.integers(0, 256, (h, w, cn) if cn > 1 else (h, w), dtype=numpy.uint8)
        mx, my = rotation_map(rng, h, w, dh, dw)
        # exact edges and special values at random spots
        specials = [-0.5, -1.0, w - 1, w - 2, w - 1.5, 0.0]
        if border in (cv2.BORDER_CONSTANT, cv2.BORDER_TRANSPARENT):
            specials += [1e10, -1e10, 2.1e9]
        for k in range(40):
            i, j = int(rng.integers(0, dh)), int(rng.integers(0, dw))
            mx[i, j] = specials[k % len(specials)]
            my[int(rng.integers(0, dh)), int(rng.integers(0, dw))] = [h - 1, h - 2, h - 2.5, -0.25, h - 3][k % 5]
        base = rng.integers(0, 256, (dh, dw, cn) if cn > 1 else (dh, dw), dtype=numpy.uint8)
        want = cv2.remap(a, mx, my, cv2.INTER_LINEAR, dst=base.copy(), borderMode=border, borderValue=(7, 80, 190, 250))
        got = cv.remap(np.array(a), np.array(mx), np.array(my), cv2.INTER_LINEAR, dst=np.array(base.copy()),
                       borderMode=border, borderValue=(7, 80, 190, 250))
        assert_same(got, want, f"remap {(h, w, cn)} -> {(dh, dw)} border={border}")


@pytest.mark.parametrize("cn", [1, 3, 4])
@pytest.mark.parametrize("border", BORDERS)
def test_warp_perspective_u8_linear_wide_rows(cn, border):
    rng = numpy.random.default_rng(100 + 10 * cn + border)
    for h, w in ((60, 90), (4, 6), (120, 33)):
        dh, dw = int(rng.integers(5, 20)), int(rng.integers(64, 200))
        a = rng.integers(0, 256, (h, w, cn) if cn > 1 else (h, w), dtype=numpy.uint8)
        M = cv2.getRotationMatrix2D((w / 2 + rng.uniform(-3, 3), h / 2 + rng.uniform(-3, 3)),
                                    rng.uniform(-30, 30), rng.uniform(0.5, 1.5))
        # mild perspective, and one strong enough that w crosses zero inside the destination
        for p in ((rng.uniform(-2e-3, 2e-3), rng.uniform(-2e-3, 2e-3)), (-1.0 / 80.37, 0.0)):
            P = numpy.vstack([M, [p[0], p[1], 1.0]])
            base = rng.integers(0, 256, (dh, dw, cn) if cn > 1 else (dh, dw), dtype=numpy.uint8)
            for flags in (cv2.INTER_LINEAR, cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP):
                kw = dict(dst=base.copy(), flags=flags, borderMode=border, borderValue=(3, 140, 250, 60))
                want = cv2.warpPerspective(a, P, (dw, dh), **kw)
                kw["dst"] = np.array(base.copy())
                got = cv.warpPerspective(np.array(a), P, (dw, dh), **kw)
                assert_same(got, want, f"warpPerspective {(h, w, cn)} -> {(dh, dw)} p={p} flags={flags} border={border}")


def test_full_hd_perspective_and_remap():
    # the benchmark's size: long rows where nearly every group takes the vector path
    rng = numpy.random.default_rng(5)
    a = rng.integers(0, 256, (1080, 1920, 3), dtype=numpy.uint8)
    M = cv2.getRotationMatrix2D((960.3, 539.8), 15, 1.0)
    P = numpy.vstack([M, [1e-5, -2e-5, 1.0]])
    assert_same(cv.warpPerspective(np.array(a), P, (1920, 1080)), cv2.warpPerspective(a, P, (1920, 1080)), "persp")
    mx, my = rotation_map(rng, 1080, 1920, 1080, 1920)
    assert_same(cv.remap(np.array(a), np.array(mx), np.array(my), cv2.INTER_LINEAR),
                cv2.remap(a, mx, my, cv2.INTER_LINEAR), "remap")
