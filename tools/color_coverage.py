"""Which cv2.COLOR_* codes mnn.cv.cvtColor accepts, and whether it agrees with cv2 on each.

For every distinct code value in the installed cv2, tries each depth (uint8, uint16, float32) and
channel count (1-4) on a random image with odd sides (falling back to even sides, which some
camera formats need); where cv2 accepts the input, mnn must give the same array. Prints one line
per code: OK (every accepted input equal), ULP (only float32 results differ, by at most 1e-6
relative: rounding order in cv2's SIMD code), DIFF (max |difference| and the inputs), REFUSED (mnn
raised on an input cv2 accepts) or cv2-none (cv2 accepted nothing).
Run: PYTHONPATH=src python tools/color_coverage.py [--only-bad]
"""
import sys

import cv2
import numpy as np

import mnn.cv as mcv

SHAPES = ((9, 11), (12, 10), (18, 14))
DEPTHS = ("uint8", "uint16", "float32")


def rand_image(rng, shape, cn, depth):
    full = shape + ((cn,) if cn > 1 else ())
    if depth == "float32":
        return rng.random(full, dtype=np.float32)
    hi = 256 if depth == "uint8" else 65536
    return rng.integers(0, hi, full, dtype=depth)


def main():
    only_bad = "--only-bad" in sys.argv
    codes = {}
    for name in dir(cv2):
        if name.startswith("COLOR_") and name != "COLOR_COLORCVT_MAX":
            codes.setdefault(getattr(cv2, name), name)
    rng = np.random.default_rng(0)
    counts = {}
    for code in sorted(codes):
        status, notes = "cv2-none", []
        for depth in DEPTHS:
            for cn in (1, 2, 3, 4):
                for shape in SHAPES:
                    img = rand_image(rng, shape, cn, depth)
                    try:
                        want = cv2.cvtColor(img, code)
                    except cv2.error:
                        continue
                    if status == "cv2-none":
                        status = "OK"
                    try:
                        got = np.asarray(mcv.cvtColor(img, code))
                    except Exception as e:  # noqa: BLE001 - the report names whatever was raised
                        status = "REFUSED"
                        notes.append(f"{depth}/c{cn}: {type(e).__name__}: {str(e)[:70]}")
                        break
                    if got.shape != want.shape or got.dtype != want.dtype:
                        status = "DIFF" if status != "REFUSED" else status
                        notes.append(f"{depth}/c{cn}: shape {got.shape}{got.dtype} vs {want.shape}{want.dtype}")
                    elif not np.array_equal(got, want):
                        d = np.abs(got.astype(np.float64) - want.astype(np.float64)).max()
                        ulp = depth == "float32" and d <= 1e-6 * max(1.0, float(np.abs(want).max()))
                        if status in ("OK", "ULP"):
                            status = "ULP" if ulp else "DIFF"
                        elif status != "REFUSED" and not ulp:
                            status = "DIFF"
                        notes.append(f"{depth}/c{cn}: max diff {d:g}")
                    else:
                        notes.append(f"{depth}/c{cn}")
                    break
        counts[status] = counts.get(status, 0) + 1
        if not only_bad or status in ("DIFF", "REFUSED"):
            print(f"{code:4d} {codes[code]:28s} {status:8s} {'; '.join(notes)}")
    print(counts)


if __name__ == "__main__":
    main()
