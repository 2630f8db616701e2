"""matchTemplate's choice between the direct correlation kernels (cv_ccorr_u8: exact integer
VNNI sums; cv_ccorr: float direct sums) and the blocked FFT correlation (cv_ccorr_fft, overlap-save
in float64: exact for uint8, ~1e-15 relative for float32), by a cost model in seconds measured at
1 thread on the AVX-512 host: the direct kernels cost per multiply-add of output pixels x template
taps, the FFT per tile per transform (C forward, one inverse) of n log2 n points. The DFT size of a
tile is the cheapest 2^a 3^b 5^c pair; tiles stay under ~2.4 MB of spectra so they live in L2."""
import functools
import math

from .. import _core
from ._match_fast import _U8_MAX_TAPS

_U8_MAC = 4.5e-12     # cv_ccorr_u8 (VNNI), s per output pixel per template tap
_F32_MAC = 3e-11      # cv_ccorr (float direct), idem
_FFT_UNIT = 4e-10     # s per n log2 n point of one 2-D tile transform (forward or inverse)
_TILE_FIXED = 2e-5    # s per tile and transform: plan walks, gathers, the line copies
_MAX_AREA = 384 * 384


def _good_sizes(limit):
    out = []
    p2 = 1
    while p2 <= limit:
        p3 = p2
        while p3 <= limit:
            p5 = p3
            while p5 <= limit:
                if p5 % 2 == 0 and p5 >= 8:
                    out.append(p5)
                p5 *= 5
            p3 *= 3
        p2 *= 2
    return sorted(out)


_SIZES = _good_sizes(2048)


def _span(n, t):
    """Candidate DFT lengths along an axis of n pixels for a template of t: from 2t (a tile gives
    at least t+1 outputs) up to the first one covering the whole axis."""
    out = []
    for s in _SIZES:
        if s >= min(2 * t, n):
            out.append(s)
            if s >= n:
                break
    return out


@functools.lru_cache(maxsize=256)  # the search costs ~0.5 ms: a frame loop asks the same sizes
def plan(H, W, C, h, w):
    """(seconds, (Nh, Nw)) of the cheapest FFT tiling."""
    Ho, Wo = H - h + 1, W - w + 1
    best = None
    for nh in _span(H, h):
        ny = -(-Ho // (nh - h + 1))
        for nw in _span(W, w):
            if nh * nw > _MAX_AREA and best is not None:
                continue
            nx = -(-Wo // (nw - w + 1))
            area = nh * nw
            cost = ny * nx * (C + 1) * (area * math.log2(area) * _FFT_UNIT + _TILE_FIXED)
            if best is None or cost < best[0]:
                best = (cost, (nh, nw))
    return best


def ccorr(a, t, hwc):
    """The correlation by FFT where the model finds it cheaper than the direct kernel, else None.
    a, t: HxW(xC) uint8 or float32 images (the template fitting the image)."""
    H, W, h, w = int(a.shape[0]), int(a.shape[1]), int(t.shape[0]), int(t.shape[1])
    C = 1 if a.ndim == 2 else int(a.shape[2])
    if h * w < 64:
        return None
    macs = float(H - h + 1) * (W - w + 1) * h * w * C
    u8 = str(a.dtype) == "uint8" and h * w * C <= _U8_MAX_TAPS  # else the float direct kernel
    direct = macs * (_U8_MAC if u8 else _F32_MAC)
    cost, n = plan(H, W, C, h, w)
    if cost >= direct:
        return None
    return _core.prim("cv_ccorr_fft", [hwc(a), hwc(t)], list(n), [])
