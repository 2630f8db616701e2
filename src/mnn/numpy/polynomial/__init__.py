"""mnn.numpy.polynomial: the power-series module (numpy.polynomial.polynomial) and its Polynomial
class. The other bases (Chebyshev, Legendre, ...) are not provided."""
from . import polynomial  # noqa: F401
from .polynomial import Polynomial  # noqa: F401
