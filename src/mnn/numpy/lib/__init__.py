"""mnn.numpy.lib: the parts of numpy.lib that scripts import (stride_tricks, scimath)."""
from .. import emath as scimath  # noqa: F401  (numpy.lib.scimath is numpy.emath)
from . import stride_tricks  # noqa: F401
