"""Floating-point error reporting (RuntimeWarning / FloatingPointError / call / print / log) against
numpy's under each errstate mode. mnn evaluates lazily, so each case materialises its result
(tolist) inside the errstate block: the report comes at evaluation."""
import io
import warnings

import numpy as onp
import pytest

import mnn.numpy as np


def _cases(m):
    """(label, thunk) pairs; m is the module (numpy or mnn.numpy)."""
    f64 = lambda v: m.array(v, dtype=m.float64)  # noqa: E731
    f32 = lambda v: m.array(v, dtype=m.float32)  # noqa: E731
    return [
        ("div0", lambda: m.divide(f64([1.0, -2.0, 3.0]), f64([0.0, 0.0, 1.0]))),
        ("0/0", lambda: m.true_divide(f64([0.0, 1.0]), f64([0.0, 2.0]))),
        ("div0 and 0/0", lambda: f64([1.0, 0.0]) / f64([0.0, 0.0])),
        ("sqrt-1", lambda: m.sqrt(f64([-1.0, 4.0]))),
        ("log0", lambda: m.log(f64([0.0, 1.0]))),
        ("log-1", lambda: m.log(f64([-1.0, 1.0]))),
        ("log2", lambda: m.log2(f32([0.0, -1.0]))),
        ("log10", lambda: m.log10(f64([0.0, 10.0]))),
        ("inf-inf", lambda: f64([m.inf]) - f64([m.inf])),
        ("inf+-inf", lambda: f64([m.inf, 1.0]) + f64([-m.inf, 1.0])),
        ("exp overflow f32", lambda: m.exp(f32([1000.0, 1.0]))),
        ("exp overflow f64", lambda: m.exp(f64([1000.0]))),
        ("mul overflow", lambda: f32([3e38, 1.0]) * f32([10.0, 1.0])),
        ("add overflow", lambda: f64([1.7e308]) + f64([1.7e308])),
        ("power 0**-1", lambda: m.power(f64([0.0, 2.0]), f64([-1.0, 2.0]))),
        ("arccos", lambda: m.arccos(f64([2.0, 0.5]))),
        ("arcsin", lambda: m.arcsin(f32([-3.0]))),
        ("cast overflow", lambda: f64([1e300, 1.0]).astype(m.float32)),
        ("clean", lambda: m.sqrt(f64([1.0, 4.0])) / f64([2.0, 2.0])),
        ("row region 0/0", lambda: (lambda x: (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True))(
            m.ones((3, 64), dtype=m.float32))),
        ("fused chain", lambda: m.sqrt(f32([4.0, -1.0]) * 2.0 + 1.0) / f32([0.0, 1.0])),
        ("nan passes quietly", lambda: f64([m.nan, 1.0]) * 2.0 + 1.0),
        ("nan compare", lambda: f64([m.nan, 1.0]) < 1.0),
        ("nan max", lambda: m.maximum(f64([m.nan, 1.0]), 0.0)),
        ("sum overflow", lambda: m.sum(f32([3e38, 3e38, 1.0]))),
        ("prod overflow", lambda: m.prod(f64([1e200, 1e200]))),
        ("sum inf-inf", lambda: m.sum(f64([m.inf, -m.inf]))),
        ("mean overflow", lambda: m.mean(f32([3e38, 3e38]))),
        ("max reduce of nan", lambda: m.max(f64([1.0, m.nan, 2.0]))),
        ("softmax rows with nan", lambda: (lambda x: (lambda e: e / e.sum(axis=1, keepdims=True))(
            m.exp(x - x.max(axis=1, keepdims=True))))(m.reshape(f32([1.0, m.nan, 3.0, 4.0] * 64), (4, 64)))),
        ("softmax rows with inf", lambda: (lambda x: (lambda e: e / e.sum(axis=1, keepdims=True))(
            m.exp(x - x.max(axis=1, keepdims=True))))(m.reshape(f32([1.0, m.inf, 3.0, 4.0] * 64), (4, 64)))),
        ("softmax rows of -inf", lambda: (lambda x: (lambda e: e / e.sum(axis=1, keepdims=True))(
            m.exp(x - x.max(axis=1, keepdims=True))))(m.reshape(f32([-m.inf] * 128 + [1.0] * 128), (4, 64)))),
        ("exp of x - row min overflows", lambda: (lambda x: m.exp(x - x.min(axis=1, keepdims=True)).sum(axis=1))(
            m.reshape(f32([float(i) for i in range(256)]), (2, 128)))),
        ("row sum overflow", lambda: (lambda x: x / x.sum(axis=1, keepdims=True))(m.full((3, 64), 3e37, dtype=m.float32))),
        ("sum axis of nan", lambda: m.sum(m.reshape(f64([m.nan, 1.0, 2.0, 3.0]), (2, 2)), axis=0)),
    ]


LABELS = [c[0] for c in _cases(onp)]


def _run(m, label):
    r = dict(_cases(m))[label]()
    return r.tolist() if hasattr(r, "tolist") else r


def _warnings(m, label, **state):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with m.errstate(**state):
            out = _run(m, label)
    return [(x.category, str(x.message)) for x in w], out


@pytest.mark.parametrize("label", LABELS)
def test_warn_default(label):
    want, wout = _warnings(onp, label)
    got, gout = _warnings(np, label)
    assert got == want
    onp.testing.assert_allclose(onp.asarray(gout, dtype=float), onp.asarray(wout, dtype=float), rtol=1e-6)


@pytest.mark.parametrize("label", LABELS)
def test_ignore(label):
    got, _ = _warnings(np, label, all="ignore")
    assert got == []


@pytest.mark.parametrize("label", LABELS)
def test_raise(label):
    def outcome(m):
        try:
            with m.errstate(all="raise"):
                _run(m, label)
        except FloatingPointError as e:
            return str(e)
        return None

    assert outcome(np) == outcome(onp)


@pytest.mark.parametrize("label", ["div0", "div0 and 0/0", "exp overflow f32", "sqrt-1", "clean"])
def test_call_and_log(label):
    def calls(m):
        seen = []
        with m.errstate(all="call", call=lambda kind, flag: seen.append((kind, flag))):
            _run(m, label)
        return seen

    assert calls(np) == calls(onp)

    class Log:
        def __init__(self):
            self.lines = []

        def write(self, s):
            self.lines.append(s)

    def logged(m):
        log = Log()
        with m.errstate(all="log", call=log):
            _run(m, label)
        return log.lines

    assert logged(np) == logged(onp)


def test_print_goes_to_stderr(capsys):
    with np.errstate(divide="print"):
        _run(np, "div0")
    assert capsys.readouterr().err == "Warning: divide by zero encountered in divide\n"


def test_per_category_modes():
    # divide raises, invalid is ignored: 1/0 and 0/0 in one op raise for the divide part only
    with np.errstate(divide="raise", invalid="ignore"):
        with pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            _run(np, "div0 and 0/0")
    with np.errstate(divide="ignore", invalid="raise"):
        with pytest.raises(FloatingPointError, match="invalid value encountered in divide"):
            _run(np, "div0 and 0/0")
    with np.errstate(over="raise"):
        with pytest.warns(RuntimeWarning, match="invalid value encountered in sqrt"):
            _run(np, "sqrt-1")  # 'invalid' keeps its default 'warn'
        with pytest.raises(FloatingPointError, match="overflow encountered in exp"):
            _run(np, "exp overflow f32")


@pytest.mark.parametrize("op", ["floor_divide", "remainder", "fmod"])
def test_integer_division_by_zero_warns(op):
    def run(m):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = getattr(m, op)(m.array([1, 2, 7]), m.array([0, 1, 2])).tolist()
        return r, [(x.category, str(x.message)) for x in w]

    assert run(np) == run(onp)


def test_results_kept_after_raise():
    a = np.array([1.0, 0.0]) / np.array([0.0, 1.0])
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            a.tolist()
    assert a.tolist() == [float("inf"), 0.0]  # evaluated once; the values are numpy's


@pytest.mark.parametrize("threads", [1, 2])
def test_large_arrays_on_the_pool(threads):
    # big enough that the pool's workers run the kernels: their flags must reach the report too
    import mnn
    old = mnn.get_num_threads()
    mnn.set_num_threads(threads)
    try:
        n = 1 << 20
        x = np.ones(n, dtype=np.float32)
        y = np.zeros(n, dtype=np.float32)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = np.sqrt(x - 2.0) + x / y  # one fused group: sqrt is invalid, divide by zero
            np.sum(r).tolist()
        assert [str(m.message) for m in w] == ["invalid value encountered in sqrt",
                                               "divide by zero encountered in divide"]
        with np.errstate(all="raise"), pytest.raises(FloatingPointError, match="overflow encountered in multiply"):
            (x * 3e38 * 10.0).tolist()
    finally:
        mnn.set_num_threads(old)


@pytest.mark.parametrize("n", [1, 4, 7, 8, 16, 17, 64, 1024])
@pytest.mark.parametrize("v", [-104.0, -151.0, -180.0, -1e30, 88.0, 89.0, onp.nan, -onp.inf, onp.inf])
def test_float32_exp_warns_exactly_as_numpy(n, v):
    # out-of-range lanes used to leave spurious overflow flags behind (the vector code evaluates
    # them before its range test), and exp(inf) counted as an overflow
    x = onp.full(n, v, onp.float32)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        r = onp.asarray(np.exp(np.asarray(x)))
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        e = onp.exp(x)
    assert [str(w.message) for w in got] == [str(w.message) for w in want]
    onp.testing.assert_array_equal(r, e)
