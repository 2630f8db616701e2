"""mnn.numpy.testing: the assertion helpers numpy scripts check their results with
(assert_allclose, assert_array_equal, assert_equal, assert_almost_equal, assert_array_almost_equal,
assert_array_less, assert_raises), over mnn arrays and without numpy. Messages follow numpy's
layout (mismatch count, worst differences, both arrays)."""
import builtins
import contextlib
import math
import sys

from ._creation import asarray  # (keeps string arrays: they compare too)


def _mnp():
    return sys.modules["mnn.numpy"]


def _fail(header, actual, desired, bad, extra_lines, err_msg):
    n = int(bad.sum()) if bad is not None else 0
    total = builtins.max(actual.size, desired.size, 1)
    lines = [header]
    if err_msg:
        lines.append(err_msg)
    if bad is not None:
        lines.append(f"Mismatched elements: {n} / {total} ({100 * n / total:.3g}%)")
    lines += extra_lines
    lines.append(f" ACTUAL: {actual!r}")
    lines.append(f" DESIRED: {desired!r}")
    raise AssertionError("\n" + "\n".join(lines))


def _shapes(actual, desired, header, err_msg):
    mnp = _mnp()
    try:
        shape = mnp.broadcast_shapes(actual.shape, desired.shape)
    except ValueError:
        _fail(header, actual, desired, None, [f"(shapes {actual.shape}, {desired.shape} mismatch)"], err_msg)
    if actual.ndim and desired.ndim and actual.shape != desired.shape:
        _fail(header, actual, desired, None, [f"(shapes {actual.shape}, {desired.shape} mismatch)"], err_msg)
    return shape


def assert_allclose(actual, desired, rtol=1e-7, atol=0, equal_nan=True, err_msg="", verbose=True, *,
                    strict=False):
    """|actual - desired| <= atol + rtol * |desired| elementwise (NaNs equal unless equal_nan=False)."""
    mnp = _mnp()
    a, d = asarray(actual), asarray(desired)
    header = f"Not equal to tolerance rtol={rtol:g}, atol={atol:g}"
    if strict and (a.shape != d.shape or a.dtype != d.dtype):
        _fail(header, a, d, None, [f"(shapes {a.shape}, {d.shape}, dtypes {a.dtype}, {d.dtype} mismatch)"],
              err_msg)
    _shapes(a, d, header, err_msg)
    ok = mnp.isclose(a, d, rtol=rtol, atol=atol, equal_nan=equal_nan)  # infinities must match exactly
    if bool(mnp.all(ok)):
        return
    bad = ~ok
    # evaluation is lazy: the values are read inside the errstate block so it applies to them
    with mnp.errstate(all="ignore"):
        diff = mnp.abs(a - d)
        extra = [f"Max absolute difference among violations: {float(mnp.max(mnp.where(bad, diff, 0))):.8g}"]
        rel = mnp.where(bad & (d != 0), diff / mnp.abs(d), 0)
        extra.append(f"Max relative difference among violations: {float(mnp.max(rel)):.8g}")
    _fail(header, a, d, mnp.broadcast_to(bad, mnp.broadcast_shapes(a.shape, d.shape)), extra, err_msg)


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """Same shape (or a scalar broadcast against an array) and equal elements; NaNs in the same places."""
    mnp = _mnp()
    a, d = asarray(actual), asarray(desired)
    header = "Arrays are not equal"
    if strict and (a.shape != d.shape or a.dtype != d.dtype):
        _fail(header, a, d, None, [f"(shapes {a.shape}, {d.shape}, dtypes {a.dtype}, {d.dtype} mismatch)"],
              err_msg)
    _shapes(a, d, header, err_msg)
    eq = a == d
    if a.dtype.kind in "fc" or d.dtype.kind in "fc":
        eq = eq | (mnp.isnan(a) & mnp.isnan(d))
    if bool(mnp.all(eq)):
        return
    bad = mnp.broadcast_to(~eq, mnp.broadcast_shapes(a.shape, d.shape))
    extra = []
    if a.dtype.kind not in "bU" and d.dtype.kind not in "bU":
        diff = mnp.abs(a.astype(mnp.float64) - d.astype(mnp.float64)) if a.dtype.kind != "c" else mnp.abs(a - d)
        extra.append(f"Max absolute difference among violations: {float(mnp.max(mnp.where(bad, diff, 0))):.8g}")
    _fail(header, a, d, bad, extra, err_msg)


def assert_array_almost_equal(actual, desired, decimal=6, err_msg="", verbose=True):
    """abs(desired - actual) < 1.5 * 10**(-decimal) elementwise."""
    mnp = _mnp()
    a, d = asarray(actual), asarray(desired)
    header = f"Arrays are not almost equal to {decimal} decimals"
    _shapes(a, d, header, err_msg)
    with mnp.errstate(all="ignore"):  # inf - inf: evaluated here, inside the block (lazy arrays)
        ok = mnp.abs(d - a) < 1.5 * 10.0 ** (-decimal)
        if a.dtype.kind in "fc" or d.dtype.kind in "fc":
            ok = ok | (mnp.isnan(a) & mnp.isnan(d)) | ((a == d) & mnp.isinf(a))
        passed = bool(mnp.all(ok))
    if not passed:
        _fail(header, a, d, mnp.broadcast_to(~ok, mnp.broadcast_shapes(a.shape, d.shape)), [], err_msg)


def assert_almost_equal(actual, desired, decimal=7, err_msg="", verbose=True):
    if isinstance(actual, (int, float, complex)) and isinstance(desired, (int, float, complex)):
        if isinstance(actual, complex) or isinstance(desired, complex):
            ok = abs(desired - actual) < 1.5 * 10.0 ** (-decimal)
        elif math.isnan(actual) or math.isnan(desired):
            ok = math.isnan(actual) and math.isnan(desired)
        else:
            ok = actual == desired or abs(desired - actual) < 1.5 * 10.0 ** (-decimal)
        if not ok:
            raise AssertionError(f"\nArrays are not almost equal to {decimal} decimals\n{err_msg}\n"
                                 f" ACTUAL: {actual!r}\n DESIRED: {desired!r}")
        return
    assert_array_almost_equal(actual, desired, decimal, err_msg)


def assert_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """Equality of arrays (elementwise), scalars, or (nested) lists/tuples/dicts of them."""
    if isinstance(desired, dict):
        if not isinstance(actual, dict) or actual.keys() != desired.keys():
            raise AssertionError(f"\n{err_msg}\n ACTUAL: {actual!r}\n DESIRED: {desired!r}")
        for k in desired:
            assert_equal(actual[k], desired[k], f"key={k!r}\n{err_msg}")
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        if len(actual) != len(desired):
            raise AssertionError(f"\nLength mismatch: {len(actual)} != {len(desired)}\n{err_msg}")
        for k, (x, y) in enumerate(zip(actual, desired)):
            assert_equal(x, y, f"item={k!r}\n{err_msg}")
        return
    if isinstance(actual, (str, bytes)) or isinstance(desired, (str, bytes)) or actual is None or desired is None:
        if actual != desired:
            raise AssertionError(f"\nItems are not equal:\n{err_msg}\n ACTUAL: {actual!r}\n DESIRED: {desired!r}")
        return
    assert_array_equal(actual, desired, err_msg, strict=strict)


def assert_array_less(x, y, err_msg="", verbose=True):
    mnp = _mnp()
    a, b = asarray(x), asarray(y)
    header = "Arrays are not less-ordered"
    _shapes(a, b, header, err_msg)
    ok = a < b
    if not bool(mnp.all(ok)):
        _fail(header, a, b, mnp.broadcast_to(~ok, mnp.broadcast_shapes(a.shape, b.shape)), [], err_msg)


def assert_raises(exception_class, *args, **kwargs):
    """assert_raises(Error, fn, *args) or `with assert_raises(Error):`."""
    if not args:
        return _raises_ctx(exception_class)
    fn, rest = args[0], args[1:]
    try:
        fn(*rest, **kwargs)
    except exception_class:
        return
    raise AssertionError(f"{getattr(exception_class, '__name__', exception_class)} not raised by "
                         f"{getattr(fn, '__name__', fn)}")


@contextlib.contextmanager
def _raises_ctx(exception_class):
    try:
        yield
    except exception_class:
        return
    raise AssertionError(f"{getattr(exception_class, '__name__', exception_class)} not raised")
