"""Test setup: use a developer build in the source tree (tools/dev_build.sh) when there is one,
otherwise the installed package."""
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if glob.glob(os.path.join(ROOT, "mnn", "_core*.so")) and ROOT not in sys.path:
    sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
