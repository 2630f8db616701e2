"""mnn.numpy.lib: the parts of numpy.lib that scripts import (stride_tricks)."""
from . import stride_tricks  # noqa: F401
