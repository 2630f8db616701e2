"""array2string and format_float_positional/scientific (src/mnn/numpy/_printing_api.py) against numpy."""
import numpy
import pytest

import mnn.numpy as mnp


_A2S_CASES = [
    (numpy.arange(6.0).reshape(2, 3) / 3, {}), (numpy.arange(6.0).reshape(2, 3) / 3, dict(precision=2, separator=", ")),
    (numpy.arange(2000), dict(threshold=10)), (numpy.array([1e-9, 1.0]), dict(suppress_small=True)),
    (numpy.array(3.25), {}), (numpy.array([True, False]), dict(prefix="x(")),
    (numpy.arange(30.0), dict(max_line_width=30)),
    (numpy.array([1.5, 2], dtype=numpy.float32), dict(sign="+", floatmode="fixed")),
    (numpy.arange(12, dtype=numpy.int8).reshape(3, 4), dict(edgeitems=1, threshold=5)),
]


@pytest.mark.parametrize("case", range(len(_A2S_CASES)))
def test_array2string(case):
    a, kw = _A2S_CASES[case]
    assert mnp.array2string(mnp.asarray(a), **kw) == numpy.array2string(a, **kw)


@pytest.mark.parametrize("value", [0.1, 1 / 3, 1e20, -0.0, 5.0, numpy.float32(0.1), numpy.float16(0.3)])
def test_format_float(value):
    mv = mnp.asarray(float(value), dtype=value.dtype.name) if isinstance(value, numpy.generic) else value
    for kw in ({}, dict(precision=3), dict(precision=3, unique=False), dict(trim="-"), dict(sign=True),
               dict(min_digits=4)):
        assert mnp.format_float_positional(mv, **kw) == numpy.format_float_positional(value, **kw)
        assert mnp.format_float_scientific(mv, exp_digits=3, **kw) == \
            numpy.format_float_scientific(value, exp_digits=3, **kw)
    assert mnp.format_float_positional(mv, pad_left=6, pad_right=4) == \
        numpy.format_float_positional(value, pad_left=6, pad_right=4)
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.format_float_positional\]"):
        mnp.format_float_positional(mv, unique=False)
