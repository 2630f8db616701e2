"""Autograd: every differentiable primitive's gradient against central finite differences (float64)
and against torch where torch has the op; plus the imperative/functional API, grad modes,
accumulation, errors, and a training loop that reuses cached plans."""
import math

import numpy
import pytest

import mnn
import mnn.numpy as mnp
from mnn import _core
from helpers import central_differences

torch = pytest.importorskip("torch")

F64 = "float64"


# ---------------------------------------------------------------------------------------------
# checker

def _rand(shape, seed, low=-2.0, high=2.0):
    return numpy.random.default_rng(seed).uniform(low, high, size=shape)


def _away(shape, seed, low, high, gap=0.15):
    """Uniform values in [low, high) kept at least `gap` away from integers (floor/rint/remainder kinks)."""
    x = _rand(shape, seed, low, high)
    frac = x - numpy.floor(x)
    return numpy.floor(x) + numpy.clip(frac, gap, 1 - gap)


def _fd_grads(f, xs, w, eps=1e-6):
    """Central differences of sum(f(xs) * w), evaluated by mnn with grad recording off."""
    def loss(arrs):
        with mnn.no_grad():
            return float((numpy.asarray(f(*[mnp.array(a) for a in arrs])) * w).sum())

    return central_differences(loss, xs, eps)


def check_grad(f, inputs, tf=None, rtol=1e-6, atol=1e-7, fd=True, seed=123):
    """f: mnn arrays -> mnn array (any shape); tf: the same in torch (or None).
    Backpropagates a random cotangent w through backward(gradient=w) and compares each input's
    .grad with finite differences and with torch."""
    xs = [numpy.array(x, dtype=numpy.float64) for x in inputs]
    ms = [mnp.array(x, requires_grad=True) for x in xs]
    out = f(*ms)
    assert out.requires_grad, "result of a differentiable op on a requires_grad input must require grad"
    w = numpy.random.default_rng(seed).standard_normal(out.shape)
    out.backward(mnp.array(w))
    got = []
    for m, x in zip(ms, xs):
        assert m.grad is not None, "no gradient reached an input"
        g = numpy.asarray(m.grad)
        assert g.shape == x.shape, f"grad shape {g.shape} != input shape {x.shape}"
        assert g.dtype == numpy.float64, f"grad dtype {g.dtype}"
        got.append(g)
    if fd:
        for g, e in zip(got, _fd_grads(f, xs, w)):
            numpy.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6, err_msg="vs finite differences")
    if tf is not None:
        ts = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
        tout = tf(*ts)
        assert tuple(tout.shape) == tuple(out.shape)
        numpy.testing.assert_allclose(numpy.asarray(out), tout.detach().numpy(), rtol=1e-10, atol=1e-12)
        tout.backward(torch.tensor(w, dtype=torch.float64))
        for g, t in zip(got, ts):
            tg = numpy.zeros_like(g) if t.grad is None else t.grad.numpy()
            numpy.testing.assert_allclose(g, tg, rtol=rtol, atol=atol, err_msg="vs torch")
    return got


# ---------------------------------------------------------------------------------------------
# unary elementwise

def _t_cbrt(x):
    return torch.sign(x) * torch.abs(x) ** (1.0 / 3.0)


UNARY = [
    # name, input generator, torch fn
    ("negative", lambda s: _rand(s, 1), torch.neg),
    ("positive", lambda s: _rand(s, 1), torch.positive),
    ("absolute", lambda s: _away(s, 2, -3, 3) * numpy.sign(_rand(s, 3)), torch.abs),
    ("sign", lambda s: _away(s, 2, -3, 3), torch.sign),
    ("square", lambda s: _rand(s, 1), torch.square),
    ("reciprocal", lambda s: _rand(s, 1, 0.5, 2) * numpy.sign(_rand(s, 4)), torch.reciprocal),
    ("floor", lambda s: _away(s, 5, -3, 3), torch.floor),
    ("ceil", lambda s: _away(s, 5, -3, 3), torch.ceil),
    ("trunc", lambda s: _away(s, 5, -3, 3), torch.trunc),
    ("rint", lambda s: _away(s, 5, -3, 3) + 0.5, torch.round),
    ("sqrt", lambda s: _rand(s, 6, 0.3, 3), torch.sqrt),
    ("cbrt", lambda s: _rand(s, 6, 0.3, 3) * numpy.sign(_rand(s, 7)), _t_cbrt),
    ("exp", lambda s: _rand(s, 1), torch.exp),
    ("exp2", lambda s: _rand(s, 1), torch.exp2),
    ("expm1", lambda s: _rand(s, 1), torch.expm1),
    ("log", lambda s: _rand(s, 6, 0.3, 3), torch.log),
    ("log2", lambda s: _rand(s, 6, 0.3, 3), torch.log2),
    ("log10", lambda s: _rand(s, 6, 0.3, 3), torch.log10),
    ("log1p", lambda s: _rand(s, 6, -0.7, 3), torch.log1p),
    ("sin", lambda s: _rand(s, 1), torch.sin),
    ("cos", lambda s: _rand(s, 1), torch.cos),
    ("tan", lambda s: _rand(s, 1, -1.2, 1.2), torch.tan),
    ("arcsin", lambda s: _rand(s, 1, -0.9, 0.9), torch.asin),
    ("arccos", lambda s: _rand(s, 1, -0.9, 0.9), torch.acos),
    ("arctan", lambda s: _rand(s, 1), torch.atan),
    ("sinh", lambda s: _rand(s, 1), torch.sinh),
    ("cosh", lambda s: _rand(s, 1), torch.cosh),
    ("tanh", lambda s: _rand(s, 1), torch.tanh),
    ("arcsinh", lambda s: _rand(s, 1), torch.asinh),
    ("arccosh", lambda s: _rand(s, 1, 1.2, 3), torch.acosh),
    ("arctanh", lambda s: _rand(s, 1, -0.9, 0.9), torch.atanh),
    ("deg2rad", lambda s: _rand(s, 1), torch.deg2rad),
    ("rad2deg", lambda s: _rand(s, 1), torch.rad2deg),
]


@pytest.mark.parametrize("name,gen,tf", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("shape", [(), (3, 4)])
def test_unary(name, gen, tf, shape):
    fn = getattr(mnp, name)
    check_grad(fn, [gen(shape)], tf)


def test_erf():
    fn = lambda x: _core.ufunc(_core.OPCODES["erf"], x)  # noqa: E731
    check_grad(fn, [_rand((2, 5), 8)], torch.erf)


def test_unary_aliases_and_composites():
    check_grad(mnp.abs, [_away((6,), 2, -3, 3)], torch.abs)
    check_grad(lambda x: mnp.clip(x, -0.5, 0.5), [_away((3, 4), 9, -2, 2, gap=0.1) * 0.9 + 0.03],
               lambda x: torch.clamp(x, -0.5, 0.5))
    check_grad(lambda x: mnp.tanh(mnp.exp(x) * mnp.sin(x)) / (1 + x * x), [_rand((4,), 10)],
               lambda x: torch.tanh(torch.exp(x) * torch.sin(x)) / (1 + x * x))


# ---------------------------------------------------------------------------------------------
# binary elementwise (with broadcasting)

def _pos(s, seed):
    return _rand(s, seed, 0.5, 2.5)


BINARY = [
    ("add", lambda s1, s2: (_rand(s1, 11), _rand(s2, 12)), torch.add),
    ("subtract", lambda s1, s2: (_rand(s1, 11), _rand(s2, 12)), torch.sub),
    ("multiply", lambda s1, s2: (_rand(s1, 11), _rand(s2, 12)), torch.mul),
    ("divide", lambda s1, s2: (_rand(s1, 11), _pos(s2, 12) * numpy.sign(_rand(s2, 13))), torch.div),
    ("power", lambda s1, s2: (_pos(s1, 11), _rand(s2, 12)), torch.pow),
    ("arctan2", lambda s1, s2: (_rand(s1, 11), _pos(s2, 12)), torch.atan2),
    ("hypot", lambda s1, s2: (_pos(s1, 11), _pos(s2, 12)), torch.hypot),
    ("logaddexp", lambda s1, s2: (_rand(s1, 11), _rand(s2, 12)), torch.logaddexp),
    ("logaddexp2", lambda s1, s2: (_rand(s1, 11), _rand(s2, 12)), torch.logaddexp2),
    ("copysign", lambda s1, s2: (_pos(s1, 11) * numpy.sign(_rand(s1, 14)), _pos(s2, 12) * numpy.sign(_rand(s2, 15))),
     torch.copysign),
    ("remainder", lambda s1, s2: (_away(s1, 16, -6, 6, gap=0.2) * 1.0, numpy.full(s2, 1.0) * 1.0),
     torch.remainder),
]


def _pair_no_ties(s1, s2, seed):
    rng = numpy.random.default_rng(seed)
    a = rng.uniform(-2, 2, size=s1)
    b = rng.uniform(-2, 2, size=s2)
    ab = numpy.broadcast_arrays(a, b)
    # keep the two operands at least 0.05 apart so the max/min choice is stable under +/- eps
    if numpy.any(numpy.abs(ab[0] - ab[1]) < 0.05):
        return _pair_no_ties(s1, s2, seed + 1)
    return a, b


for _n, _t in [("maximum", torch.maximum), ("minimum", torch.minimum), ("fmax", torch.fmax), ("fmin", torch.fmin)]:
    BINARY.append((_n, lambda s1, s2: _pair_no_ties(s1, s2, 30), _t))

SHAPE_PAIRS = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((), (2, 3)), ((2, 1, 3), (4, 1))]


@pytest.mark.parametrize("name,gen,tf", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("shapes", SHAPE_PAIRS, ids=lambda s: f"{s[0]}-{s[1]}")
def test_binary(name, gen, tf, shapes):
    fn = getattr(mnp, name)
    check_grad(fn, list(gen(*shapes)), tf)


def test_remainder_by_array_divisor():
    y = numpy.random.default_rng(40).choice([1.5, -2.0, 2.5, -0.75], size=(3, 4))
    x = y * _away((3, 4), 41, -3, 3, gap=0.2)  # x / y kept away from integers (the jumps)
    check_grad(mnp.remainder, [x, y], torch.remainder)


def test_binary_with_python_scalars_and_operators():
    x = _pos((3, 4), 41)
    check_grad(lambda a: 2.0 * a - 1.5 / a + a ** 3 + 2 ** a - (-a) + abs(a), [x],
               lambda a: 2.0 * a - 1.5 / a + a ** 3 + 2 ** a - (-a) + abs(a))
    check_grad(lambda a, b: a @ b + a.T.sum(), [_rand((3, 3), 1), _rand((3, 3), 2)],
               lambda a, b: a @ b + a.T.sum())


def test_non_differentiable_binary_give_zero_or_none():
    x = _rand((3, 4), 50)
    for fn in (mnp.floor_divide, mnp.heaviside):
        m = mnp.array(x, requires_grad=True)
        y = fn(m, 1.0 + 0 * m)
        (y * 3.0 + m).sum().backward()
        # gradient only through the `+ m` path (d floor_divide/dx == d heaviside/dx == 0 a.e.)
        fd = _fd_grads(lambda a: fn(a, mnp.ones_like(a)) * 3.0 + a, [x], numpy.ones((3, 4)))[0]
        numpy.testing.assert_allclose(numpy.asarray(m.grad), fd, atol=1e-6)


def test_comparisons_do_not_require_grad():
    m = mnp.array(_rand((4,), 51), requires_grad=True)
    for r in (m > 0, m == m, mnp.isnan(m), mnp.signbit(m), mnp.logical_not(m)):
        assert r.dtype == numpy.bool_
        assert not r.requires_grad
        t = torch.tensor(_rand((4,), 51), requires_grad=True)
        assert not (t > 0).requires_grad


# ---------------------------------------------------------------------------------------------
# where / astype / copy

def test_where():
    cond = numpy.random.default_rng(60).integers(0, 2, size=(3, 4)).astype(bool)
    c_m = mnp.array(cond)
    c_t = torch.tensor(cond)
    check_grad(lambda a, b: mnp.where(c_m, a, b), [_rand((3, 4), 61), _rand((3, 4), 62)],
               lambda a, b: torch.where(c_t, a, b))
    # broadcasting: x over rows, y a 0-d array
    check_grad(lambda a, b: mnp.where(c_m, a, b), [_rand((4,), 63), _rand((), 64)],
               lambda a, b: torch.where(c_t, a, b))
    # condition computed from a differentiable input (gradient does not flow through it)
    check_grad(lambda a: mnp.where(a > 0, a * a, -a), [_away((3, 4), 65, -2, 2)],
               lambda a: torch.where(a > 0, a * a, -a))


def test_astype_and_copy():
    x = _rand((3, 4), 70)
    check_grad(lambda a: mnp.sin(a.astype(mnp.float32)).astype(mnp.float64) * 2.0, [x],
               lambda a: torch.sin(a.to(torch.float32)).to(torch.float64) * 2.0, rtol=1e-5, atol=1e-6, fd=False)
    check_grad(lambda a: a.astype(mnp.float64) * 3.0, [x], lambda a: a * 3.0)
    check_grad(lambda a: mnp.copy(a) * a, [x], lambda a: a.clone() * a)
    # gradient of a float32 leaf comes back float32
    m = mnp.array(x, dtype=mnp.float32, requires_grad=True)
    (m.astype(mnp.float64) ** 2).sum().backward()
    assert m.grad.dtype == mnp.float32
    numpy.testing.assert_allclose(numpy.asarray(m.grad), 2 * x.astype(numpy.float32), rtol=1e-6)


def test_astype_to_int_stops_gradient():
    m = mnp.array(_rand((4,), 71), requires_grad=True)
    i = m.astype(mnp.int64)
    assert not i.requires_grad
    t = torch.tensor(_rand((4,), 71), requires_grad=True)
    assert not t.to(torch.int64).requires_grad


# ---------------------------------------------------------------------------------------------
# reductions

AXES = [None, 0, -1, (0, 2)]


@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "max", "min"])
def test_reductions(name, axis, keepdims):
    x = _rand((2, 3, 4), 80, 0.5, 1.5) * numpy.sign(_rand((2, 3, 4), 81))  # no zeros, no ties
    fn = getattr(mnp, name)
    tdim = None if axis is None else ([axis] if isinstance(axis, int) else list(axis))

    def tf(a):
        if name in ("max", "min"):
            if tdim is None:
                r = getattr(torch, "amax" if name == "max" else "amin")(a, dim=list(range(a.ndim)), keepdim=keepdims)
            else:
                r = getattr(torch, "amax" if name == "max" else "amin")(a, dim=tdim, keepdim=keepdims)
            return r
        if name == "prod":
            r = a
            dims = range(a.ndim) if tdim is None else sorted(d % a.ndim for d in tdim)
            for d in sorted(dims, reverse=True):
                r = torch.prod(r, dim=d, keepdim=True)
            if not keepdims:
                r = r.reshape([s for i, s in enumerate(r.shape) if i not in set(dims)])
            return r
        kw = dict(dim=tdim, keepdim=keepdims)
        if name in ("var", "std"):
            kw["correction"] = 0
        return getattr(torch, name)(a, **kw)

    check_grad(lambda a: fn(a, axis=axis, keepdims=keepdims), [x], tf)


def test_var_std_ddof():
    x = _rand((3, 5), 82)
    check_grad(lambda a: mnp.var(a, axis=1, ddof=1), [x], lambda a: torch.var(a, dim=1, correction=1))
    check_grad(lambda a: mnp.std(a, ddof=1), [x], lambda a: torch.std(a, correction=1))


def test_max_min_ties_share_gradient():
    x = numpy.array([[1.0, 3.0, 3.0], [2.0, 0.5, 2.0]])
    m = mnp.array(x, requires_grad=True)
    mnp.max(m, axis=1).sum().backward()
    t = torch.tensor(x, requires_grad=True)
    torch.amax(t, dim=1).sum().backward()  # amax splits evenly among ties
    numpy.testing.assert_allclose(numpy.asarray(m.grad), t.grad.numpy())
    m2 = mnp.array(x, requires_grad=True)
    mnp.maximum(m2, mnp.array(3.0)).sum().backward()
    t2 = torch.tensor(x, requires_grad=True)
    torch.maximum(t2, torch.tensor(3.0, dtype=torch.float64)).sum().backward()
    numpy.testing.assert_allclose(numpy.asarray(m2.grad), t2.grad.numpy())


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_cumsum_cumprod(axis):
    x = _rand((3, 4), 90, 0.5, 1.5) * numpy.sign(_rand((3, 4), 91))
    for name in ("cumsum", "cumprod"):
        fn = getattr(mnp, name)
        tfn = getattr(torch, name)

        def tf(a):
            return tfn(a.reshape(-1), dim=0) if axis is None else tfn(a, dim=axis)

        check_grad(lambda a: fn(a, axis=axis), [x], tf)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_prod_cumprod_with_zeros(axis):
    # one zero, two zeros and none along the rows: the gradient is the product of the other elements
    x = numpy.array([[1.5, 0.0, 2.0, -1.0], [0.0, 0.7, 0.0, 3.0], [1.2, -2.0, 0.5, 0.8]])
    check_grad(lambda a: mnp.prod(a, axis=axis), [x],
               lambda a: torch.prod(a) if axis is None else torch.prod(a, dim=axis))
    check_grad(lambda a: mnp.cumprod(a, axis=axis), [x],
               lambda a: torch.cumprod(a.reshape(-1), dim=0) if axis is None else torch.cumprod(a, dim=axis))


def test_reduction_of_0d_and_chained():
    check_grad(lambda a: mnp.sum(a), [_rand((), 92)], lambda a: torch.sum(a))
    check_grad(lambda a: mnp.mean(mnp.exp(a), axis=0) * mnp.max(a, axis=0), [_rand((4, 3), 93)],
               lambda a: torch.mean(torch.exp(a), dim=0) * torch.amax(a, dim=0))


# ---------------------------------------------------------------------------------------------
# matmul

MATMUL_SHAPES = [((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (3, 4, 2)),
                 ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)), ((4,), (2, 4, 3)), ((2, 3, 4), (4,))]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=lambda s: f"{s[0]}@{s[1]}")
def test_matmul(shapes):
    check_grad(mnp.matmul, [_rand(shapes[0], 100), _rand(shapes[1], 101)], torch.matmul)


def test_dot_family():
    a, b = _rand((3, 4), 102), _rand((4, 2), 103)
    check_grad(mnp.dot, [a, b], torch.matmul)
    check_grad(lambda x, y: x @ y, [a, b], lambda x, y: x @ y)
    check_grad(mnp.outer, [_rand((3,), 104), _rand((4,), 105)], torch.outer)
    check_grad(mnp.vdot, [_rand((6,), 106), _rand((6,), 107)], torch.dot)
    check_grad(lambda x, y: mnp.vecdot(x, y), [_rand((3, 4), 108), _rand((4,), 109)],
               lambda x, y: (x * y).sum(-1))
    check_grad(mnp.inner, [_rand((2, 4), 110), _rand((3, 4), 111)], torch.inner)


# ---------------------------------------------------------------------------------------------
# joining and splitting

def test_concatenate_stack():
    xs = [_rand((2, 3), 120), _rand((1, 3), 121), _rand((4, 3), 122)]
    check_grad(lambda *a: mnp.concatenate(a, axis=0), xs, lambda *a: torch.cat(a, dim=0))
    ys = [_rand((2, 1), 123), _rand((2, 3), 124)]
    check_grad(lambda *a: mnp.concatenate(a, axis=-1), ys, lambda *a: torch.cat(a, dim=-1))
    check_grad(lambda *a: mnp.concatenate(a, axis=None), ys, lambda *a: torch.cat([t.reshape(-1) for t in a]))
    zs = [_rand((2, 3), 125), _rand((2, 3), 126)]
    for axis in (0, 1, -1):
        check_grad(lambda *a: mnp.stack(a, axis=axis), zs, lambda *a: torch.stack(a, dim=axis))
    check_grad(lambda *a: mnp.hstack(a), zs, lambda *a: torch.hstack(a))
    check_grad(lambda *a: mnp.vstack(a), zs, lambda *a: torch.vstack(a))
    # the same array twice: gradients add
    check_grad(lambda a: mnp.concatenate([a, a * 2.0], axis=1), [zs[0]], lambda a: torch.cat([a, a * 2.0], dim=1))


def test_split():
    x = _rand((6, 4), 130)
    w = [1.0, -2.0, 3.0]
    check_grad(lambda a: sum(p * c for p, c in zip(mnp.split(a, 3, axis=0), w)), [x],
               lambda a: sum(p * c for p, c in zip(torch.split(a, 2, dim=0), w)))
    check_grad(lambda a: sum(p.sum() * c for p, c in zip(mnp.split(a, [1, 3], axis=1), w)), [x],
               lambda a: sum(p.sum() * c for p, c in zip(torch.tensor_split(a, [1, 3], dim=1), w)))
    # only one piece used: the other pieces get zero gradient
    check_grad(lambda a: mnp.array_split(a, 4, axis=0)[1] * 2.0, [x],
               lambda a: torch.tensor_split(a, 4, dim=0)[1] * 2.0)


# ---------------------------------------------------------------------------------------------
# shape and view ops

VIEW_CASES = [
    ("reshape", lambda a: mnp.reshape(a, (4, 6)), lambda a: a.reshape(4, 6)),
    ("reshape_-1", lambda a: a.reshape(-1, 3), lambda a: a.reshape(-1, 3)),
    ("reshape_noncontig", lambda a: mnp.reshape(a.T, (-1,)), lambda a: a.permute(2, 1, 0).reshape(-1)),
    ("ravel", lambda a: mnp.ravel(a[:, ::2]), lambda a: a[:, ::2].reshape(-1)),
    ("transpose", lambda a: mnp.transpose(a, (1, 2, 0)), lambda a: a.permute(1, 2, 0)),
    ("T", lambda a: a.T * 1.0, lambda a: a.permute(2, 1, 0) * 1.0),
    ("moveaxis", lambda a: mnp.moveaxis(a, 0, -1), lambda a: torch.movedim(a, 0, -1)),
    ("swapaxes", lambda a: mnp.swapaxes(a, 0, 2), lambda a: a.transpose(0, 2)),
    ("expand_dims", lambda a: mnp.expand_dims(a, 1), lambda a: a.unsqueeze(1)),
    ("squeeze", lambda a: mnp.squeeze(mnp.expand_dims(a, (0, 2)), axis=0),
     lambda a: a.unsqueeze(0).unsqueeze(2).squeeze(0)),
    ("squeeze_all", lambda a: mnp.squeeze(a[:1]), lambda a: a[:1].squeeze()),
    ("broadcast_to", lambda a: mnp.broadcast_to(a[:, :1, :], (5, 2, 3, 4)),
     lambda a: torch.broadcast_to(a[:, :1, :], (5, 2, 3, 4))),
    ("flip_all", lambda a: mnp.flip(a), lambda a: torch.flip(a, (0, 1, 2))),
    ("flip_axes", lambda a: mnp.flip(a, (0, 2)), lambda a: torch.flip(a, (0, 2))),
    ("fliplr", lambda a: mnp.fliplr(a), lambda a: torch.fliplr(a)),
    ("diagonal", lambda a: mnp.diagonal(a, 0, 1, 2), lambda a: torch.diagonal(a, 0, 1, 2)),
    ("diagonal_off", lambda a: mnp.diagonal(a, 1, 1, 2), lambda a: torch.diagonal(a, 1, 1, 2)),
    ("diagonal_neg", lambda a: mnp.diagonal(a, -1, 2, 1), lambda a: torch.diagonal(a, -1, 2, 1)),
    ("diagonal_01", lambda a: mnp.diagonal(a), lambda a: torch.diagonal(a, 0, 0, 1)),
    ("matrix_transpose", lambda a: mnp.matrix_transpose(a), lambda a: a.transpose(-1, -2)),
]


@pytest.mark.parametrize("name,f,tf", VIEW_CASES, ids=[v[0] for v in VIEW_CASES])
def test_views(name, f, tf):
    check_grad(f, [_rand((2, 3, 4), 140)], tf)


def test_view_chains_and_broadcast_binary():
    check_grad(lambda a, b: (a.reshape(3, 4).T * b).sum(axis=0), [_rand((12,), 141), _rand((3,), 142)],
               lambda a, b: (a.reshape(3, 4).T * b).sum(dim=0))
    check_grad(lambda a: mnp.broadcast_to(a, (3, 4)) * mnp.flip(mnp.broadcast_to(a, (3, 4)), 1), [_rand((4,), 143)],
               lambda a: torch.broadcast_to(a, (3, 4)) * torch.flip(torch.broadcast_to(a, (3, 4)), (1,)))


# ---------------------------------------------------------------------------------------------
# basic indexing

INDEX_CASES = [
    ("int", lambda a: a[1], lambda a: a[1]),
    ("neg_int", lambda a: a[-1], lambda a: a[-1]),
    ("slice", lambda a: a[1:3], lambda a: a[1:3]),
    ("step", lambda a: a[::2, 1:], lambda a: a[::2, 1:]),
    ("reverse", lambda a: a[::-1], lambda a: torch.flip(a, (0,))),
    ("neg_step", lambda a: a[-1:0:-2, :, ::-1], lambda a: torch.flip(a, (0, 2))[0:3:2]),
    ("int_int", lambda a: a[1, 2], lambda a: a[1, 2]),
    ("scalar", lambda a: a[1, -1, 0], lambda a: a[1, -1, 0]),
    ("none", lambda a: a[None, :, 1:], lambda a: a[None, :, 1:]),
    ("ellipsis", lambda a: a[..., 0], lambda a: a[..., 0]),
    ("ellipsis_none", lambda a: a[0, ..., None], lambda a: a[0, ..., None]),
    ("mixed", lambda a: a[2:, None, -2, ::3], lambda a: a[2:, None, -2, ::3]),
    ("empty", lambda a: a[2:2] * 1.0, lambda a: a[2:2] * 1.0),
]


@pytest.mark.parametrize("name,f,tf", INDEX_CASES, ids=[c[0] for c in INDEX_CASES])
def test_getitem(name, f, tf):
    check_grad(f, [_rand((4, 3, 5), 150)], tf)


def test_getitem_pieces_recombined():
    # every element reached through two overlapping slices: gradients must add
    check_grad(lambda a: a[1:] * a[:-1] + a[::-1][:3] ** 2, [_rand((4,), 151)],
               lambda a: a[1:] * a[:-1] + torch.flip(a, (0,))[:3] ** 2)


# ---------------------------------------------------------------------------------------------
# graph structure: reuse of inputs and intermediates

def test_shared_intermediates_diamond():
    def f(a, b):
        h = mnp.tanh(a @ b)
        return (h * h).sum(axis=1) + mnp.exp(h).mean(axis=1) + h[:, 0]

    def tf(a, b):
        h = torch.tanh(a @ b)
        return (h * h).sum(dim=1) + torch.exp(h).mean(dim=1) + h[:, 0]

    check_grad(f, [_rand((3, 4), 160), _rand((4, 5), 161)], tf)


def test_empty_and_float32_inputs():
    check_grad(lambda a: (a * 2.0).sum(axis=0), [numpy.zeros((0, 3))], lambda a: (a * 2.0).sum(dim=0))
    check_grad(lambda a, b: a @ b, [numpy.zeros((2, 0)), numpy.zeros((0, 3))], lambda a, b: a @ b)
    x = _rand((3, 4), 164).astype(numpy.float32)
    m = mnp.array(x, requires_grad=True)
    t = torch.tensor(x, requires_grad=True)
    (mnp.tanh(m) @ mnp.ones((4, 2), dtype=mnp.float32)).mean().backward()
    (torch.tanh(t) @ torch.ones((4, 2))).mean().backward()
    assert m.grad.dtype == mnp.float32
    numpy.testing.assert_allclose(numpy.asarray(m.grad), t.grad.numpy(), rtol=1e-5, atol=1e-7)


def test_partial_requires_grad():
    x = _rand((3,), 162)
    c = mnp.array(_rand((3,), 163))
    m = mnp.array(x, requires_grad=True)
    (m * c).sum().backward()
    numpy.testing.assert_allclose(numpy.asarray(m.grad), numpy.asarray(c))
    assert c.grad is None
    assert not c.requires_grad


# ---------------------------------------------------------------------------------------------
# functional API

def _f3(x, y, z):
    return mnp.sum(mnp.sin(x) * y ** 2) + mnp.sum(z * x)


def _t3(x, y, z):
    return torch.sum(torch.sin(x) * y ** 2) + torch.sum(z * x)


def _inputs3():
    return [_rand((3,), 170), _rand((3,), 171), _rand((3,), 172)]


def test_grad_argnums_int_and_tuple():
    xs = _inputs3()
    ts = [torch.tensor(x, requires_grad=True) for x in xs]
    _t3(*ts).backward()
    g0 = mnn.grad(_f3)(*[mnp.array(x) for x in xs])
    numpy.testing.assert_allclose(numpy.asarray(g0), ts[0].grad.numpy(), rtol=1e-12)
    g1 = mnn.grad(_f3, argnums=1)(*[mnp.array(x) for x in xs])
    numpy.testing.assert_allclose(numpy.asarray(g1), ts[1].grad.numpy(), rtol=1e-12)
    gs = mnn.grad(_f3, argnums=(0, 2))(*[mnp.array(x) for x in xs])
    assert isinstance(gs, tuple) and len(gs) == 2
    numpy.testing.assert_allclose(numpy.asarray(gs[0]), ts[0].grad.numpy(), rtol=1e-12)
    numpy.testing.assert_allclose(numpy.asarray(gs[1]), ts[2].grad.numpy(), rtol=1e-12)
    # against finite differences too
    fd = _fd_grads(_f3, [numpy.array(x) for x in xs], numpy.array(1.0))
    numpy.testing.assert_allclose(numpy.asarray(g1), fd[1], rtol=1e-5, atol=1e-7)


def test_grad_accepts_python_and_numpy_inputs_and_leaves_args_alone():
    x = numpy.array([0.5, -1.0, 2.0])
    g = mnn.grad(lambda a: mnp.sum(a ** 3))(x)
    numpy.testing.assert_allclose(numpy.asarray(g), 3 * x ** 2, rtol=1e-12)
    m = mnp.array(x)
    mnn.grad(lambda a: mnp.sum(a ** 3))(m)
    assert not m.requires_grad and m.grad is None
    with pytest.raises(TypeError):
        mnn.grad(lambda a: mnp.sum(a))(mnp.array([1, 2, 3]))
    with pytest.raises(TypeError):
        mnn.grad(lambda a: a * 2.0)(x)  # not a scalar


def test_grad_of_unused_argument_is_zero():
    g = mnn.grad(lambda a, b: mnp.sum(a * 2.0), argnums=(0, 1))(mnp.array([1.0, 2.0]), mnp.array([3.0]))
    t_b = torch.tensor([3.0], dtype=torch.float64, requires_grad=True)
    t_a = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    ga, gb = torch.autograd.grad(torch.sum(t_a * 2.0), (t_a, t_b), allow_unused=True, materialize_grads=True)
    numpy.testing.assert_array_equal(numpy.asarray(g[0]), ga.numpy())
    numpy.testing.assert_array_equal(numpy.asarray(g[1]), gb.numpy())


def test_value_and_grad():
    xs = _inputs3()
    v, gs = mnn.value_and_grad(_f3, argnums=(0, 1))(*[mnp.array(x) for x in xs])
    ts = [torch.tensor(x, requires_grad=True) for x in xs]
    tv = _t3(*ts)
    tv.backward()
    numpy.testing.assert_allclose(float(v), tv.item(), rtol=1e-12)
    assert not v.requires_grad
    numpy.testing.assert_allclose(numpy.asarray(gs[0]), ts[0].grad.numpy(), rtol=1e-12)
    numpy.testing.assert_allclose(numpy.asarray(gs[1]), ts[1].grad.numpy(), rtol=1e-12)
    v1, g1 = mnn.value_and_grad(lambda a: mnp.sum(mnp.exp(a)))(mnp.array(xs[0]))
    numpy.testing.assert_allclose(numpy.asarray(g1), numpy.exp(xs[0]), rtol=1e-12)
    numpy.testing.assert_allclose(float(v1), numpy.exp(xs[0]).sum(), rtol=1e-12)


def test_grad_inside_no_grad_still_differentiates():
    x = numpy.array([0.3, 0.7])
    with mnn.no_grad():
        g = mnn.grad(lambda a: mnp.sum(mnp.sin(a)))(mnp.array(x))
        assert not mnn.autograd.is_grad_enabled()  # restored to the caller's mode
    numpy.testing.assert_allclose(numpy.asarray(g), numpy.cos(x), rtol=1e-12)
    assert mnn.autograd.is_grad_enabled()


# ---------------------------------------------------------------------------------------------
# grad modes, accumulation, explicit cotangents

def test_no_grad_records_nothing():
    m = mnp.array([1.0, 2.0], requires_grad=True)
    with mnn.no_grad():
        y = m * 2.0 + mnp.sin(m)
        z = mnp.sum(y)
        v = m[0]
        r = m.reshape(2, 1)
    for a in (y, z, v, r):
        assert not a.requires_grad
        assert a._autograd is None or a._autograd.grad_fn is None
    with pytest.raises(RuntimeError):
        z.backward()
    assert m.requires_grad
    numpy.testing.assert_allclose(numpy.asarray(y), [2 + math.sin(1), 4 + math.sin(2)], rtol=1e-12)

    @mnn.no_grad()
    def step(a):
        return a * 3.0

    assert not step(m).requires_grad
    with mnn.no_grad():
        with mnn.enable_grad():
            e = m * 3.0
        assert e.requires_grad
    e.sum().backward()
    numpy.testing.assert_array_equal(numpy.asarray(m.grad), [3.0, 3.0])


def test_grad_accumulates_across_backward_calls():
    x = _rand((3,), 180)
    m = mnp.array(x, requires_grad=True)
    (m * m).sum().backward()
    mnp.sum(mnp.sin(m)).backward()
    t = torch.tensor(x, requires_grad=True)
    (t * t).sum().backward()
    torch.sum(torch.sin(t)).backward()
    numpy.testing.assert_allclose(numpy.asarray(m.grad), t.grad.numpy(), rtol=1e-12)
    # the same graph backpropagated twice
    m2 = mnp.array(x, requires_grad=True)
    y = (m2 ** 3).sum()
    y.backward()
    y.backward()
    numpy.testing.assert_allclose(numpy.asarray(m2.grad), 6 * x ** 2, rtol=1e-12)
    m2.grad = None
    y.backward()
    numpy.testing.assert_allclose(numpy.asarray(m2.grad), 3 * x ** 2, rtol=1e-12)


def test_backward_non_scalar_explicit_gradient():
    x = _rand((2, 3), 181)
    w = _rand((2, 3), 182)
    m = mnp.array(x, requires_grad=True)
    y = mnp.exp(m) * 2.0
    with pytest.raises(RuntimeError):
        y.backward()
    y.backward(mnp.array(w))
    t = torch.tensor(x, requires_grad=True)
    (torch.exp(t) * 2.0).backward(torch.tensor(w))
    numpy.testing.assert_allclose(numpy.asarray(m.grad), t.grad.numpy(), rtol=1e-12)
    # the cotangent must have the output's shape (torch: "Mismatch in shape")
    with pytest.raises(RuntimeError):
        (mnp.exp(m) * 2.0).backward(mnp.ones((3, 2)))
    with pytest.raises(RuntimeError):
        (torch.exp(t) * 2.0).backward(torch.ones((3, 2), dtype=torch.float64))
    with pytest.raises(RuntimeError):
        (mnp.exp(m) * 2.0).backward(mnp.ones((1,)))
    numpy.testing.assert_allclose(numpy.asarray(m.grad), t.grad.numpy(), rtol=1e-12)  # unchanged by the refusals
    # a numpy array as the cotangent; a leaf's own backward
    m3 = mnp.array(x, requires_grad=True)
    m3.backward(w)
    numpy.testing.assert_allclose(numpy.asarray(m3.grad), w)


def test_leaf_and_intermediate_flags():
    m = mnp.array([1.0, 2.0], requires_grad=True)
    assert m.requires_grad and m._autograd.grad_fn is None
    y = m * 2.0
    assert y.requires_grad and y._autograd.grad_fn is not None
    d = y.detach()
    assert not d.requires_grad
    numpy.testing.assert_array_equal(numpy.asarray(d), [2.0, 4.0])
    a2 = mnp.asarray([1.0, 2.0], requires_grad=True)
    assert a2.requires_grad
    # requires_grad=True on an array computed from another gives a fresh leaf
    leaf = mnp.array(y, requires_grad=True)
    (leaf * leaf).sum().backward()
    numpy.testing.assert_array_equal(numpy.asarray(leaf.grad), [4.0, 8.0])
    assert m.grad is None


# ---------------------------------------------------------------------------------------------
# errors

def test_errors():
    with pytest.raises(RuntimeError):
        mnp.array([1.0, 2.0]).sum().backward()
    with pytest.raises(TypeError):
        mnp.array([1, 2]).requires_grad = True
    with pytest.raises(TypeError):
        mnp.array([1, 2], requires_grad=True)
    with pytest.raises(TypeError):
        mnp.array([True]).requires_grad = True
    t = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError):
        t.add_(1)  # torch refuses in-place on a leaf requiring grad, as mnn does
    m = mnp.array([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises((RuntimeError, ValueError)):
        m += 1.0
    with pytest.raises((RuntimeError, ValueError)):
        m[0] = 5.0
    with pytest.raises((RuntimeError, ValueError)):
        m[1:] = mnp.array([0.0, 0.0])
    numpy.testing.assert_array_equal(numpy.asarray(m), [1.0, 2.0, 3.0])  # unchanged after the refusals
    y = m * 2.0
    with pytest.raises((RuntimeError, ValueError)):
        y[0] = 1.0
    # writing a value that requires grad into a plain array would drop its gradient: refused too
    c = mnp.zeros(3)
    with pytest.raises((RuntimeError, ValueError)):
        c[0] = m[0] * 2.0
    with pytest.raises((RuntimeError, ValueError)):
        c += m
    with pytest.raises((RuntimeError, ValueError)):
        mnp.multiply(m, 2.0, out=c)
    numpy.testing.assert_array_equal(numpy.asarray(c), [0.0, 0.0, 0.0])
    assert not c.requires_grad
    # under no_grad the leaf may be updated in place (optimizer steps)
    with mnn.no_grad():
        m -= 0.5
    numpy.testing.assert_array_equal(numpy.asarray(m), [0.5, 1.5, 2.5])
    assert m.requires_grad


def test_argmax_does_not_require_grad():
    m = mnp.array([1.0, 3.0, 2.0], requires_grad=True)
    t = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
    y, ty = mnp.argmax(m), torch.argmax(t)
    assert not y.requires_grad and not ty.requires_grad
    assert int(y) == int(ty)


# ---------------------------------------------------------------------------------------------
# training loop

def test_linear_regression_sgd_uses_plan_cache():
    rng = numpy.random.default_rng(190)
    X = rng.standard_normal((64, 3))
    true_w = numpy.array([1.5, -2.0, 0.5])
    Y = X @ true_w + 0.3
    Xm, Ym = mnp.array(X), mnp.array(Y)
    w = mnp.array(numpy.zeros(3), requires_grad=True)
    b = mnp.array(0.0, requires_grad=True)
    lr = 0.1
    losses = []
    tw = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    tb = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    Xt, Yt = torch.tensor(X), torch.tensor(Y)
    hits = []
    for step in range(20):
        loss = mnp.mean((Xm @ w + b - Ym) ** 2)
        loss.backward()
        with mnn.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
            w.grad = None
            b.grad = None
        losses.append(float(loss))
        hits.append(mnn.engine.stats()["plan_hits"])
        tl = torch.mean((Xt @ tw + tb - Yt) ** 2)
        tl.backward()
        with torch.no_grad():
            tw -= lr * tw.grad
            tb -= lr * tb.grad
            tw.grad = None
            tb.grad = None
        numpy.testing.assert_allclose(losses[-1], tl.item(), rtol=1e-9)
    numpy.testing.assert_allclose(numpy.asarray(w), tw.detach().numpy(), rtol=1e-9)
    assert losses[-1] < 0.1 * losses[0]
    assert all(a > b for a, b in zip(losses, losses[1:]))
    assert w.requires_grad and b.requires_grad
    assert hits[-1] - hits[4] >= 10, f"plan cache not reused across identical steps: {hits}"
