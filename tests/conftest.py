"""Test setup: use a developer build in the source tree (src/mnn, made by tools/dev_build.sh) when
there is one, otherwise the installed package."""
import glob
import os
import sys

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if glob.glob(os.path.join(SRC, "mnn", "_core*.so")) and SRC not in sys.path:
    sys.path.insert(0, SRC)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
