"""mnn.numpy.exceptions: numpy.exceptions' names (AxisError is the engine's; the warnings are
plain Warning subclasses)."""
from .. import _core
from ._complex import ComplexWarning  # noqa: F401
from ._polynomial import RankWarning  # noqa: F401

AxisError = _core.AxisError


class VisibleDeprecationWarning(UserWarning):
    pass


class TooHardError(RuntimeError):
    pass


class DTypePromotionError(TypeError):
    pass
