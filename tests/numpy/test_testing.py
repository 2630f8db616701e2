"""mnn.numpy.testing: passes where numpy.testing passes, raises AssertionError where it raises."""
import numpy
import pytest

import mnn.numpy as mnp

NAN, INF = float("nan"), float("inf")
CASES = [
    ("assert_allclose", [1.0, 2.0], [1.0, 2.0 + 1e-9], {}),
    ("assert_allclose", [1.0, 2.0], [1.0, 2.1], {}),
    ("assert_allclose", [1.0, 2.0], [1.0, 2.1], {"rtol": 0.1}),
    ("assert_allclose", [1.0, NAN], [1.0, NAN], {}),
    ("assert_allclose", [1.0, NAN], [1.0, NAN], {"equal_nan": False}),
    ("assert_allclose", [INF, 1.0], [INF, 1.0], {}),
    ("assert_allclose", [INF], [-INF], {}),
    ("assert_allclose", [0.0, 1e-9], [0.0, 0.0], {"atol": 1e-8}),
    ("assert_allclose", [[1.0, 2.0]], [1.0, 2.0], {}),
    ("assert_allclose", [1.0, 2.0, 3.0], [1.0, 2.0], {}),
    ("assert_allclose", [2.0, 2.0], 2.0, {}),
    ("assert_array_equal", [1, 2, 3], [1, 2, 3], {}),
    ("assert_array_equal", [1, 2, 3], [1, 2, 4], {}),
    ("assert_array_equal", [1.0, NAN], [1.0, NAN], {}),
    ("assert_array_equal", [[1, 2]], [[1, 2], [1, 2]], {}),
    ("assert_array_equal", [True, False], [True, False], {}),
    ("assert_array_equal", [5, 5], 5, {}),
    ("assert_array_almost_equal", [1.0, 2.0000001], [1.0, 2.0], {}),
    ("assert_array_almost_equal", [1.0, 2.001], [1.0, 2.0], {}),
    ("assert_array_almost_equal", [1.0, 2.001], [1.0, 2.0], {"decimal": 2}),
    ("assert_almost_equal", 1.00000001, 1.0, {}),
    ("assert_almost_equal", 1.001, 1.0, {}),
    ("assert_almost_equal", [1.0, 2.0], [1.0, 2.0000000001], {}),
    ("assert_array_less", [1, 2], [2, 3], {}),
    ("assert_array_less", [1, 3], [2, 3], {}),
    ("assert_equal", [1, 2], [1, 2], {}),
    ("assert_equal", 3, 4, {}),
    ("assert_equal", "a", "a", {}),
    ("assert_equal", {"k": [1, 2]}, {"k": [1, 2]}, {}),
    ("assert_equal", {"k": [1, 2]}, {"k": [1, 3]}, {}),
    ("assert_equal", (1, [2.0, NAN]), (1, [2.0, NAN]), {}),
]


def _outcome(fn, *args, **kw):
    try:
        fn(*args, **kw)
        return "ok"
    except AssertionError:
        return "AssertionError"


def _conv(x, lib):
    if isinstance(x, list) and all(isinstance(v, (int, float, bool, list)) for v in x):
        return lib.asarray(x)
    return x


@pytest.mark.parametrize("i", range(len(CASES)))
def test_same_verdict_as_numpy(i):
    name, a, d, kw = CASES[i]
    ref = _outcome(getattr(numpy.testing, name), _conv(a, numpy), _conv(d, numpy), **kw)
    got = _outcome(getattr(mnp.testing, name), _conv(a, mnp), _conv(d, mnp), **kw)
    assert got == ref, (name, a, d, kw)


def test_message_and_raises():
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 2") as info:
        mnp.testing.assert_allclose(mnp.asarray([1.0, 2.0]), mnp.asarray([1.0, 2.1]), err_msg="context")
    assert "Max absolute difference among violations: 0.1" in str(info.value) and "context" in str(info.value)
    mnp.testing.assert_raises(ValueError, mnp.reshape, mnp.ones(3), (2, 2))
    with mnp.testing.assert_raises(ZeroDivisionError):
        1 / 0
    with pytest.raises(AssertionError):
        mnp.testing.assert_raises(ValueError, lambda: None)
    with pytest.raises(AssertionError):
        mnp.testing.assert_allclose(mnp.ones(2, dtype=mnp.float32), mnp.ones(2), strict=True)
