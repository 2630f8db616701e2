"""mnn: NumPy/OpenCV-compatible arrays on a lazy, fusing native tensor engine.

    import mnn.numpy as np    # drop-in for numpy
    import mnn

Operations record a graph; values are computed when they are read (printing, conversion,
``mnn.eval``), by plans that the engine builds once per graph structure and caches.
"""
from . import _core
from ._core import get_num_threads, set_num_threads
from . import engine
from .autograd import enable_grad, grad, no_grad, value_and_grad

__version__ = "0.1.0"


def eval(*arrays):
    """Computes every pending array given, in one plan (shared work is done once)."""
    _core.eval(*arrays)


__all__ = ["eval", "engine", "grad", "value_and_grad", "no_grad", "enable_grad", "set_num_threads",
           "get_num_threads"]


def __getattr__(name):
    # `import mnn; mnn.numpy` works without importing the numpy layer eagerly
    if name == "numpy":
        import importlib
        return importlib.import_module("mnn.numpy")
    raise AttributeError(f"module 'mnn' has no attribute {name!r}")
