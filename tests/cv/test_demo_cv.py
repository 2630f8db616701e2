"""`python -m mnn`'s cv section (mnn.__main__.cv_pipeline): it writes a PNG that decodes, and runs with
numpy, cv2 and scikit-image unimportable (the demo must work in a bare venv)."""
import glob
import os
import subprocess
import sys

import cv2
import numpy

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "src")
# the same rule as tests/conftest.py: a developer build in src/ when there is one, else the installed package
PATHS = [SRC] if glob.glob(os.path.join(SRC, "mnn", "_core*.so")) else []

RUN = """
import sys
for name in {blocked!r}:
    sys.modules[name] = None  # importing it now raises ImportError
sys.path[:0] = {paths!r}
from mnn.__main__ import cv_pipeline
cv_pipeline({out!r})
assert "numpy" not in sys.modules or sys.modules["numpy"] is None
"""


def run_demo(tmp_path, blocked):
    out = str(tmp_path / "demo.png")
    code = RUN.format(blocked=blocked, paths=PATHS, out=out)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert os.path.abspath(out) in r.stdout
    img = cv2.imread(out, cv2.IMREAD_UNCHANGED)
    assert img is not None and img.ndim == 3 and img.shape[2] == 3 and min(img.shape[:2]) >= 100
    return img, r.stdout


def test_demo_with_photo_without_numpy(tmp_path):
    img, log = run_demo(tmp_path, ["numpy", "cv2"])
    assert "decoded by mnn.cv.imread" in log  # scikit-image is installed for the tests: a real photo
    # the overlay is there: pure red edge pixels and the green boxes
    assert ((img[:, :, 2] == 255) & (img[:, :, 1] == 0) & (img[:, :, 0] == 0)).sum() > 100
    assert ((img[:, :, 1] == 255) & (img[:, :, 2] == 0) & (img[:, :, 0] == 0)).sum() > 100


def test_demo_synthetic_scene(tmp_path):
    img, log = run_demo(tmp_path, ["numpy", "cv2", "skimage"])
    assert "a scene drawn with mnn.cv" in log
    assert numpy.unique(img.reshape(-1, 3), axis=0).shape[0] > 50  # a real picture, not a flat fill
