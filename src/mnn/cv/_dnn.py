"""mnn.cv.dnn: the cv2.dnn helpers that inference pipelines use around a model.

- blobFromImage / blobFromImages / blobFromImageWithParams (+ Image2BlobParams): cv2 4.x semantics
  exactly: optional resize (INTER_LINEAR) or resize-then-centre-crop (crop=True) or letterbox
  (paddingmode=DNN_PMODE_LETTERBOX), uint8 -> float32, mean subtracted *before* scaling, swapRB
  swapping the first and third channels (the mean and scale given in the swapped order), NCHW
  float32 (or uint8 with ddepth=CV_8U).
- Preprocess: the usual classification / detection preprocessing in one call, including YOLO's
  letterbox (aspect-preserving resize, centred, padded with 114): resize -> (x*scale - mean)/std ->
  RGB/BGR -> NCHW. It remembers the letterbox ratio and padding to map boxes back. uint8 images
  take one native primitive (cv_preprocess) that converts cv2.resize's rows while they are cached.
- NMSBoxes / NMSBoxesRotated / NMSBoxesBatched / softNMSBoxes: non-maximum suppression as cv2 5
  does it, in native code (scores above the threshold, stable descending sort, top_k, IoU <=
  nms_threshold keeps, eta-adaptive threshold); returns an int32 index array like cv2 (and, like
  cv2, an empty tuple when nothing is kept).

The blob functions' pixel work is engine ops: mnn.cv.resize (native), then one elementwise chain
(convert, subtract, multiply) and a transpose to channel-first that the engine plans as a single
fused pass.
"""

from .. import _core
from .. import numpy as _np
from ._common import f32 as _f32
from ._common import as_image, error, fail, memo_type
from ._geometry import BORDER_CONSTANT, INTER_LINEAR, copyMakeBorder, resize

__all__ = [
    "blobFromImage", "blobFromImages", "blobFromImageWithParams", "blobFromImagesWithParams",
    "Image2BlobParams", "Preprocess", "NMSBoxes", "NMSBoxesRotated", "NMSBoxesBatched", "softNMSBoxes",
    "SOFT_NMSMETHOD_SOFTNMS_LINEAR", "SOFT_NMSMETHOD_SOFTNMS_GAUSSIAN", "SoftNMSMethod_SOFTNMS_LINEAR",
    "SoftNMSMethod_SOFTNMS_GAUSSIAN", "imagesFromBlob",
    "DNN_PMODE_NULL", "DNN_PMODE_CROP_CENTER", "DNN_PMODE_LETTERBOX",
    "DNN_LAYOUT_UNKNOWN", "DNN_LAYOUT_ND", "DNN_LAYOUT_NCHW", "DNN_LAYOUT_NCDHW", "DNN_LAYOUT_NHWC",
    "DNN_LAYOUT_NDHWC", "DNN_LAYOUT_PLANAR", "CV_8U", "CV_32F",
]

CV_8U = 0
CV_32F = 5
DNN_PMODE_NULL = 0
DNN_PMODE_CROP_CENTER = 1
DNN_PMODE_LETTERBOX = 2
DNN_LAYOUT_UNKNOWN = 0
DNN_LAYOUT_ND = 1
DNN_LAYOUT_NCHW = 2
DNN_LAYOUT_NCDHW = 3
DNN_LAYOUT_NHWC = 4
DNN_LAYOUT_NDHWC = 5
DNN_LAYOUT_PLANAR = 6


_DEPTHS = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64")


def _wrap_u8(x):
    """What cv2 5's blobFromImage(ddepth=CV_8U) does to other depths: truncate toward zero, keep the
    low 8 bits (300 -> 44, -3.7 -> 253); no saturation."""
    return x.astype(_np.int64).astype(_np.uint8)


_PLANES = {}
_PREP_NUMPY_TYPES = set()  # numpy.ndarray once Preprocess memoised a call on one (mnn.cv never imports numpy)


def _planes(vals, shape, axis):
    """A float32 array of `shape` holding vals[c] along `axis` (the channel axis), cached: the engine's
    fused elementwise pass is fastest when every operand has the output's shape (a (C,) vector
    broadcast along a short innermost axis takes a slow path), and a pipeline reuses one shape."""
    key = (tuple(vals), tuple(shape), axis)
    arr = _PLANES.get(key)
    if arr is None:
        if len(_PLANES) >= 32:
            _PLANES.clear()
        vshape = [1] * len(shape)
        vshape[axis] = len(vals)
        v = _np.array(vals, dtype=_np.float32).reshape(vshape)
        arr = _np.ascontiguousarray(_np.broadcast_to(v, tuple(shape)))
        _PLANES[key] = arr
    return arr


def _planar(x):
    """x (a channel-first or channel-reordered view of an image) as a dense array, computed now.
    The engine would otherwise fuse this layout change into the elementwise pass that follows and
    read the source with a channel stride there, which is several times slower than one dense copy
    followed by a dense elementwise pass."""
    x = _np.ascontiguousarray(x)
    _core.eval(x)
    return x


def _scalar4(v, fn, name, default):
    if v is None:
        return [default] * 4
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return [float(v)] * 4 if default == 1.0 else [float(v), 0.0, 0.0, 0.0]  # cv2.Scalar(v) is (v, 0, 0, 0)
    try:
        vals = [float(x) for x in (v.tolist() if hasattr(v, "tolist") else v)]
    except (TypeError, ValueError):
        raise fail(fn, f"Can't parse '{name}': expected a number or up to 4 numbers") from None
    if len(vals) > 4:
        raise fail(fn, f"'{name}' has more than 4 values")
    return vals + [0.0] * (4 - len(vals))


def _size(size, fn):
    if size is None:
        return 0, 0
    try:
        w, h = (int(v) for v in (size.tolist() if hasattr(size, "tolist") else size))
    except (TypeError, ValueError):
        raise fail(fn, "Can't parse 'size': expected (width, height)") from None
    if w < 0 or h < 0:
        raise fail(fn, f"size must be >= 0, got {(w, h)}")
    return w, h


class Image2BlobParams:
    """cv2.dnn.Image2BlobParams: scalefactor and mean are 4-value scalars, size is (width, height)."""

    def __init__(self, scalefactor=None, size=None, mean=None, swapRB=False, ddepth=CV_32F,
                 datalayout=DNN_LAYOUT_NCHW, mode=DNN_PMODE_NULL, borderValue=None):
        self.scalefactor = tuple(_scalar4(scalefactor, "dnn.Image2BlobParams", "scalefactor", 1.0))
        self.size = _size(size, "dnn.Image2BlobParams")
        self.mean = tuple(_scalar4(mean, "dnn.Image2BlobParams", "mean", 0.0))
        self.swapRB = bool(swapRB)
        self.ddepth = int(ddepth)
        self.datalayout = int(datalayout)
        self.paddingmode = int(mode)
        self.borderValue = tuple(_scalar4(borderValue, "dnn.Image2BlobParams", "borderValue", 0.0))


def _fit(img, size, mode, border, fn):
    """Resize (and crop or pad) one HxWxC image to size=(w, h) the way cv2.dnn does."""
    ih, iw = img.shape[0], img.shape[1]
    w, h = size
    if (w, h) == (0, 0) or (w, h) == (iw, ih):
        return img
    if mode == DNN_PMODE_CROP_CENTER:
        f = max(_f32(_f32(w) / _f32(iw)), _f32(_f32(h) / _f32(ih)))
        r = resize(img, (0, 0), fx=f, fy=f, interpolation=INTER_LINEAR)
        x0, y0 = int(0.5 * (r.shape[1] - w)), int(0.5 * (r.shape[0] - h))  # cv2: Point(double, double) truncates
        if x0 < 0 or y0 < 0 or x0 + w > r.shape[1] or y0 + h > r.shape[0]:
            raise fail(fn, "the centre crop falls outside the resized image")
        return r[y0:y0 + h, x0:x0 + w]
    if mode == DNN_PMODE_LETTERBOX:
        f = min(_f32(_f32(w) / _f32(iw)), _f32(_f32(h) / _f32(ih)))
        rh, rw = int(_f32(ih * f)), int(_f32(iw * f))
        r = resize(img, (rw, rh), interpolation=INTER_LINEAR)
        top, left = (h - rh) // 2, (w - rw) // 2
        return copyMakeBorder(r, top, h - top - rh, left, w - left - rw, BORDER_CONSTANT, value=list(border))
    return resize(img, (w, h), interpolation=INTER_LINEAR)


def _blob(images, p, fn):
    if p.ddepth not in (CV_32F, CV_8U):
        raise fail(fn, f"Blob depth should be CV_32F or CV_8U, got {p.ddepth}")
    if p.ddepth == CV_8U and (any(v != 1.0 for v in p.scalefactor) or any(v != 0.0 for v in p.mean)):
        raise fail(fn, "scaling and mean subtraction are not supported for a CV_8U blob")
    if p.datalayout not in (DNN_LAYOUT_NCHW, DNN_LAYOUT_NHWC):
        raise fail(fn, f"unsupported data layout {p.datalayout}")
    if not images:
        raise fail(fn, "no images")
    out_dt = _np.float32 if p.ddepth == CV_32F else _np.uint8
    mean0, scale0 = list(p.mean), list(p.scalefactor)
    planes, shape0 = [], None
    for k, src in enumerate(images):
        img = as_image(src, fn, "image")
        if img.ndim not in (2, 3):
            raise fail(fn, f"expected an HxW or HxWxC image, got {img.ndim} dimensions")
        nch = 1 if img.ndim == 2 else img.shape[2]
        if nch not in (1, 3, 4):
            raise fail(fn, f"images must have 1, 3 or 4 channels, got {nch}")
        if img.shape[0] == 0 or img.shape[1] == 0:
            raise fail(fn, "empty image")
        if str(img.dtype) not in _DEPTHS:
            raise fail(fn, f"unsupported image depth {img.dtype}")
        mean, scale = list(mean0), list(scale0)  # given in the output (swapped) channel order
        x = _fit(img, p.size, p.paddingmode, p.borderValue, fn)
        if x.ndim == 2:
            x = x[:, :, None]
        if shape0 is None:
            shape0 = tuple(x.shape)
        elif tuple(x.shape) != shape0:
            raise fail(fn, f"image {k} gives a {tuple(x.shape)} blob plane, the first gave {shape0}")
        # channel order and layout first (views), then one fused elementwise pass over the output:
        # convert, subtract the mean, scale (float32 throughout, as cv2; mean/scale follow the swap)
        if p.swapRB and nch >= 3:
            x = x[:, :, ::-1] if nch == 3 else x[:, :, [2, 1, 0, 3]]
        axis = 2
        if p.datalayout != DNN_LAYOUT_NHWC:
            x, axis = x.transpose(2, 0, 1), 0
        if axis == 0 or p.swapRB:
            x = _planar(x)
        if out_dt is _np.float32:
            x = (x.astype(_np.float32) - _planes(mean[:nch], x.shape, axis)) * _planes(scale[:nch], x.shape, axis)
        elif str(x.dtype) != "uint8":
            x = _wrap_u8(x)
        planes.append(x)
    return _np.ascontiguousarray(_np.stack(planes) if len(planes) > 1 else planes[0][None])


def _scale_arg(scalefactor, fn):
    """scalefactor as a float; None is its default 1.0, as in cv2 (its binding keeps an optional
    argument's default for None, and size=None / mean=None are taken the same way here)."""
    if scalefactor is None:
        return 1.0
    try:
        return float(scalefactor)
    except (TypeError, ValueError):
        raise TypeError(f"[mnn.cv.{fn}] scalefactor must be a number, got {type(scalefactor).__name__}") from None


def blobFromImage(image, scalefactor=1.0, size=None, mean=None, swapRB=False, crop=False, ddepth=CV_32F):
    """cv2.dnn.blobFromImage: an HxW[xC] image to a 1xCxHxW blob (see the module docstring)."""
    scalefactor = _scale_arg(scalefactor, "dnn.blobFromImage")
    p = Image2BlobParams(scalefactor=scalefactor, size=size, mean=mean, swapRB=swapRB, ddepth=ddepth,
                         mode=DNN_PMODE_CROP_CENTER if crop else DNN_PMODE_NULL)
    p.scalefactor = (scalefactor,) * 4
    return _blob([image], p, "dnn.blobFromImage")


def blobFromImages(images, scalefactor=1.0, size=None, mean=None, swapRB=False, crop=False, ddepth=CV_32F):
    """cv2.dnn.blobFromImages: N images of one size after resizing to an NxCxHxW blob."""
    p = Image2BlobParams(size=size, mean=mean, swapRB=swapRB, ddepth=ddepth,
                         mode=DNN_PMODE_CROP_CENTER if crop else DNN_PMODE_NULL)
    p.scalefactor = (_scale_arg(scalefactor, "dnn.blobFromImages"),) * 4
    try:
        imgs = list(images)
    except TypeError:
        raise fail("dnn.blobFromImages", "expected a sequence of images") from None
    return _blob(imgs, p, "dnn.blobFromImages")


def blobFromImageWithParams(image, param=None):
    """cv2.dnn.blobFromImageWithParams: per-channel scale, letterbox padding, NHWC layout."""
    return _blob([image], param or Image2BlobParams(), "dnn.blobFromImageWithParams")


def blobFromImagesWithParams(images, param=None):
    return _blob(list(images), param or Image2BlobParams(), "dnn.blobFromImagesWithParams")


def imagesFromBlob(blob_):
    """cv2.dnn.imagesFromBlob: an NxCxHxW float32 blob back to a list of HxWxC images."""
    b = as_image(blob_, "dnn.imagesFromBlob", "blob_")
    if b.ndim != 4 or str(b.dtype) != "float32":
        raise fail("dnn.imagesFromBlob", "expected a 4-d float32 blob")
    return [_np.ascontiguousarray(b[i].transpose(1, 2, 0)) for i in range(b.shape[0])]


# Preprocess attributes that decide its pixel work: assigning one drops the memoised calls
_PREP_CONFIG = frozenset(("size", "mean", "std", "scale", "swapRB", "letterbox", "pad_value", "layout"))


class Preprocess:
    """A model's input preprocessing as one reusable, fused step.

        pre = mnn.cv.dnn.Preprocess((224, 224), mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225),
                                    scale=1 / 255, swapRB=True)            # ImageNet classification
        blob = pre(bgr_image)                                             # 1x3x224x224 float32

        yolo = mnn.cv.dnn.Preprocess((640, 640), scale=1 / 255, swapRB=True, letterbox=True)
        blob = yolo(frame)            # aspect kept, centred, padded with 114 (YOLO's grey)
        boxes = yolo.unletterbox(xyxy_boxes)  # model coordinates -> original image pixels

    Steps: resize with INTER_LINEAR to size=(width, height) (or letterbox: scale by
    r = min(w/iw, h/ih), resize to round(iw*r) x round(ih*r), pad evenly with pad_value), then
    y = x * float32(scale/std) - float32(mean/std) per channel in float32 (mean/std in the output
    channel order), BGR->RGB when swapRB, and the NCHW (or NHWC) layout.

    A uint8 image with 1, 3 or 4 channels (and integer padding values in [0, 255]) takes one
    native primitive, cv_preprocess: cv2.resize's exact rows, converted and written straight into
    the output while they are in cache. Other images take resize -> copyMakeBorder -> one fused
    elementwise pass, with the same results. A repeated call on an image of the same type, shape
    and dtype reuses the validated parameters (and the engine its cached plan).
    """

    def __init__(self, size, mean=0.0, std=1.0, scale=1.0, swapRB=False, letterbox=False, pad_value=114,
                 layout="NCHW"):
        self.size = _size(size, "dnn.Preprocess")
        if 0 in self.size:
            raise fail("dnn.Preprocess", "size must be positive")
        self.mean, self.std = mean, std
        self.scale = float(scale)
        self.swapRB = bool(swapRB)
        self.letterbox = bool(letterbox)
        self.pad_value = pad_value
        if layout not in ("NCHW", "NHWC"):
            raise fail("dnn.Preprocess", f"layout must be 'NCHW' or 'NHWC', got {layout!r}")
        self.layout = layout
        self.ratio, self.pad = 1.0, (0, 0)

    def __setattr__(self, name, value):
        if name in _PREP_CONFIG:
            self.__dict__["_fast"] = {}
        object.__setattr__(self, name, value)

    def _per_channel(self, v, nch, name):
        vals = [float(v)] * nch if isinstance(v, (int, float)) else [float(t) for t in v]
        if len(vals) != nch:
            raise fail("dnn.Preprocess", f"'{name}' needs {nch} values, got {len(vals)}")
        return vals

    def __call__(self, image):
        # (image type, shape, dtype) -> (cv_preprocess bound to its parameters, ratio, pad), for
        # images that took the fused primitive: a pipeline calls with one frame geometry
        t = type(image)
        if t is _core.ndarray or t in _PREP_NUMPY_TYPES:
            hit = self._fast.get((t, image.shape, image.dtype))
            if hit is not None:
                x = image if t is _core.ndarray else _core.from_buffer(image)
                if x is not None:
                    self.ratio, self.pad = hit[1], hit[2]
                    return _core.prim_apply(hit[0], x)
        return self._call(image)

    def _call(self, image):
        fn = "dnn.Preprocess"
        img = as_image(image, fn, "image")
        src = img
        if img.ndim == 2:
            img = img[:, :, None]
        if img.ndim != 3 or img.shape[0] == 0 or img.shape[1] == 0:
            raise fail(fn, "expected a non-empty HxW or HxWxC image")
        nch = img.shape[2]
        ih, iw = img.shape[0], img.shape[1]
        w, h = self.size
        mean = self._per_channel(self.mean, nch, "mean")
        std = self._per_channel(self.std, nch, "std")
        # y = x*scale/std - mean/std: float32 multiplier and offset per output channel
        a = _np.array([self.scale / s for s in std], dtype=_np.float32)
        b = _np.array([m / s for m, s in zip(mean, std)], dtype=_np.float32)
        if self.letterbox:
            r = min(w / iw, h / ih)
            rw, rh = max(1, int(round(iw * r))), max(1, int(round(ih * r)))
            left, top = (w - rw) // 2, (h - rh) // 2
            pad = self._per_channel(self.pad_value, nch, "pad_value")
            ratio, offset = r, (left, top)
        else:
            rw, rh, left, top, pad = w, h, 0, 0, [0.0] * nch
            ratio, offset = (w / iw, h / ih), (0, 0)
        if str(img.dtype) == "uint8" and nch in (1, 3, 4) and all(v.is_integer() and 0 <= v <= 255 for v in pad):
            ints = [h, w, rh, rw, top, left, int(self.layout == "NCHW"), int(self.swapRB)]
            floats = [rw / iw, rh / ih] + a.tolist() + b.tolist() + pad
            bound = _core.prim_bind("cv_preprocess", ints, floats)
            t = memo_type(image)
            if t is not None:
                if len(self._fast) >= 16:
                    self._fast.clear()
                self._fast[(t, image.shape, image.dtype)] = (bound, ratio, offset)
                if t is not _core.ndarray:
                    _PREP_NUMPY_TYPES.add(t)
            self.ratio, self.pad = ratio, offset
            return _core.prim_apply(bound, src)
        # the general path: any depth or channel count, the same arithmetic in engine ops
        if self.letterbox:
            x = resize(img, (rw, rh), interpolation=INTER_LINEAR) if (rw, rh) != (iw, ih) else img
            x = copyMakeBorder(x, top, h - top - rh, left, w - left - rw, BORDER_CONSTANT, value=pad[:4])
        else:
            x = resize(img, (w, h), interpolation=INTER_LINEAR) if (w, h) != (iw, ih) else img
        self.ratio, self.pad = ratio, offset
        if x.ndim == 2:
            x = x[:, :, None]
        if self.swapRB and nch >= 3:
            x = x[:, :, ::-1] if nch == 3 else x[:, :, [2, 1, 0] + list(range(3, nch))]
        axis = 2
        if self.layout == "NCHW":
            x, axis = x.transpose(2, 0, 1), 0
        if axis == 0 or (self.swapRB and nch >= 3):
            x = _planar(x)
        a = _planes(a.tolist(), x.shape, axis)
        b = _planes(b.tolist(), x.shape, axis)
        return (x.astype(_np.float32) * a - b)[None]

    def unletterbox(self, boxes):
        """xyxy boxes in model input pixels -> original image pixels (after a letterbox call)."""
        r = self.ratio if isinstance(self.ratio, float) else None
        px, py = self.pad
        out = []
        for x0, y0, x1, y1 in (b.tolist() if hasattr(b, "tolist") else b for b in boxes):
            if r is None:
                rx, ry = self.ratio
                out.append([x0 / rx, y0 / ry, x1 / rx, y1 / ry])
            else:
                out.append([(x0 - px) / r, (y0 - py) / r, (x1 - px) / r, (y1 - py) / r])
        return out


# ---- non-maximum suppression ----------------------------------------------------------------
# The work is native (csrc/backends/cpu/kernels/cv/nms.cpp, reached through _core.cv_nms, which also
# reads the boxes: lists, numpy or mnn arrays). cv2 5.0's semantics: scores and thresholds in float,
# boxes (x, y, w, h) as Rect2d (no +1 on areas; an empty box, w or h <= 0, overlaps nothing),
# candidates strictly above score_threshold, stably sorted by descending score (ties keep input
# order), cut to top_k when top_k > 0 (before suppression, as cv2 does), a box kept when its
# overlap with every kept box is <= the threshold, the threshold times eta after each keep while
# it is above 0.5. Nothing kept returns (), as cv2's binding does.

SOFT_NMSMETHOD_SOFTNMS_LINEAR = 1
SOFT_NMSMETHOD_SOFTNMS_GAUSSIAN = 2
SoftNMSMethod_SOFTNMS_LINEAR = SOFT_NMSMETHOD_SOFTNMS_LINEAR
SoftNMSMethod_SOFTNMS_GAUSSIAN = SOFT_NMSMETHOD_SOFTNMS_GAUSSIAN


class _ArgError(error, TypeError):
    """A bad argument: an mnn.cv.error that is also the TypeError cv2 raises for unparsable input."""


def _nms(fn, kind, bboxes, scores, class_ids, score_threshold, nms_threshold, eta, top_k, sigma=0.0, method=0):
    try:
        return _core.cv_nms(kind, bboxes, scores, class_ids, score_threshold, nms_threshold, eta, top_k, sigma, method)
    except TypeError as e:
        raise _ArgError(f"[mnn.cv.{fn}] {e}") from None
    except (ValueError, OverflowError) as e:
        raise fail(fn, str(e)) from None


def NMSBoxes(bboxes, scores, score_threshold, nms_threshold, eta=1.0, top_k=0):
    """cv2.dnn.NMSBoxes: int32 indices of the kept boxes, best first; boxes are (x, y, w, h)."""
    return _nms("dnn.NMSBoxes", 0, bboxes, scores, None, score_threshold, nms_threshold, eta, top_k)


def NMSBoxesBatched(bboxes, scores, class_ids, score_threshold, nms_threshold, eta=1.0, top_k=0):
    """cv2.dnn.NMSBoxesBatched: NMSBoxes within each class (boxes of class c are moved by
    c * (largest coordinate + 1) so that classes never overlap, as cv2 does)."""
    return _nms("dnn.NMSBoxesBatched", 2, bboxes, scores, class_ids, score_threshold, nms_threshold, eta, top_k)


def NMSBoxesRotated(bboxes, scores, score_threshold, nms_threshold, eta=1.0, top_k=0):
    """cv2.dnn.NMSBoxesRotated: boxes are RotatedRects ((cx, cy), (w, h), angle in degrees); the
    overlap is cv2.rotatedRectangleIntersection's polygon area over the union (1 when one rect
    lies inside the other), computed in float as cv2 does; it can differ from cv2 5.0's by an ulp
    or two for partial overlaps, so only an IoU within those ulps of nms_threshold can decide
    differently."""
    return _nms("dnn.NMSBoxesRotated", 1, bboxes, scores, None, score_threshold, nms_threshold, eta, top_k)


def softNMSBoxes(bboxes, scores, score_threshold, nms_threshold, top_k=0, sigma=0.5,
                 method=SOFT_NMSMETHOD_SOFTNMS_GAUSSIAN):
    """cv2.dnn.softNMSBoxes -> (updated_scores float32, indices int32): repeatedly take the best
    remaining box (lowest index among equal scores) while its score is >= score_threshold, and
    decay the others by its overlap: linear (method 1) multiplies by 1 - IoU where IoU >
    nms_threshold, gaussian (2) by exp(-IoU**2 / sigma). Boxes are integer (x, y, w, h), as cv2's
    Rect; top_k 0 means all."""
    return _nms("dnn.softNMSBoxes", 3, bboxes, scores, None, score_threshold, nms_threshold, 1.0, top_k,
                sigma, method)
