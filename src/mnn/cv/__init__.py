"""mnn.cv: a drop-in for the cv2 functions image pipelines use, on the mnn engine.

Functions take mnn.numpy or numpy arrays (anything with the buffer protocol) and return
mnn.numpy arrays; argument names, order, defaults and constants are cv2's, and so are the
results (exact on integer images, or within 1 where cv2's fixed-point rounding differs).
Because every op is a lazy graph node, a chain (resize -> cvtColor -> normalize -> CHW) is
planned and fused by the engine like any numpy expression.
"""
from ._common import error, getNumThreads, setNumThreads  # noqa: F401
# One module per family; each defines its own functions and constants (listed in its __all__).
from ._color import *  # noqa: F401,F403
from ._geometry import *  # noqa: F401,F403
from ._filters import *  # noqa: F401,F403
from ._core_ops import *  # noqa: F401,F403
from ._codecs import *  # noqa: F401,F403
from ._structure import *  # noqa: F401,F403
from ._drawing import *  # noqa: F401,F403
from ._core_extra import *  # noqa: F401,F403
from ._core_extra3 import *  # noqa: F401,F403
from ._match import *  # noqa: F401,F403
from ._floodfill import *  # noqa: F401,F403
from ._distance import *  # noqa: F401,F403
from ._dft import *  # noqa: F401,F403
from ._points import *  # noqa: F401,F403
from ._fitline import *  # noqa: F401,F403
from ._polyclip import *  # noqa: F401,F403
from ._calib import *  # noqa: F401,F403
from ._pnp import *  # noqa: F401,F403
from ._min_triangle import *  # noqa: F401,F403
from ._features import *  # noqa: F401,F403
from ._hough import *  # noqa: F401,F403
from ._polar import *  # noqa: F401,F403
from ._stackblur import *  # noqa: F401,F403
from . import _dnn as dnn  # noqa: F401  (mnn.cv.dnn.blobFromImage, NMSBoxes, Preprocess, ...)

from . import _public  # noqa: E402

_public.wrap_public(globals(), "mnn.cv")
_public.wrap_public(vars(dnn), "mnn.cv.dnn", defined_in="mnn.cv._dnn")
del _public
