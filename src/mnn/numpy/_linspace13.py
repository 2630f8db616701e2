"""linspace between two Python numbers, computed on the host: the samples are i * step + start in
double precision (numpy's float64 arithmetic, a multiply then an add; the engine's composition
gives the same bits), built through array.array and the buffer import. Recording and evaluating
arange * step + start costs ~15 us per call where this takes ~3; small scripts call linspace in
loops and through mgrid/ogrid."""
from array import array

from .. import _core

_MAX = 4096          # past this the engine's vectorised version wins
_EXACT = 1 << 53     # ints that convert to float64 exactly


def fast(start, stop, num, endpoint):
    """The float64 samples, or None when the general path must decide (arrays, other types)."""
    ts, te = type(start), type(stop)
    if ts is not float and ts is not int or te is not float and te is not int:
        return None
    if not 0 <= num <= _MAX or (ts is int and abs(start) >= _EXACT) or (te is int and abs(stop) >= _EXACT):
        return None
    s, e = float(start), float(stop)
    div = (num - 1) if endpoint else num
    delta = e - s
    if div > 0:
        step = delta / div
        if step == 0:  # underflow or a zero span: leave numpy's special case to the general path
            return None
        vals = array("d", [i * step + s for i in range(num)])
    else:
        vals = array("d", [i * delta + s for i in range(num)])
    if endpoint and num > 1:
        vals[-1] = e
    return _core.from_buffer(vals)
