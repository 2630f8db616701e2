"""The float32 block programs run as threaded code (simd/fused_f32_kernels.cpp): every step a
handler chosen by opcode, operand form and what it does next (hand on, spill its value, or, for
the last instruction, store the block with plain or streaming stores and start the next one, 16
blocks before returning to its loop; a store step of its own after a microkernel call). These
tests reach each handler kind in each of those roles, block counts on both sides of the 16-block
run and of the 65536-element chunk,
programs with many inputs and slots, broadcast operands on either side, values squared from the
accumulator, microkernel calls between spilled values, and 2-D and misaligned operands: all
bit-identical to numpy, and to the scalar target (which has no block programs) in a subprocess."""
import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.numpy as mnp

# blocks of 64: 1, 15, 16, 17 and 33 blocks (the store returns to its loop every 16), a chunk of
# 65536 and one more block, each with and without a tail the tile interpreter finishes
SIZES = [64, 64 * 15 + 3, 64 * 16, 64 * 17 + 63, 64 * 33 + 1, 4096 + 64, 65536 + 64, 65536 * 2 + 64 * 20 + 7]
# outputs of 8 MB and more are written with streaming stores (a 32-byte aligned output)
STREAMED = (8 << 20) // 4 + 64 * 3 + 5

BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "fmax", "fmin"]
UNARY = ["negative", "absolute", "positive", "square", "reciprocal", "sqrt", "floor", "ceil", "trunc", "rint"]


def _data(n, seed):
    rng = numpy.random.default_rng(seed)
    x = (rng.standard_normal(n) * 3).astype(numpy.float32)
    special = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1e-42, -1e-42, 3e38, -3e38, 1.0, -1.0,
                           0.5, 2.5, -2.5], dtype=numpy.float32)
    idx = rng.choice(n, size=min(n, special.size), replace=False)
    x[idx] = special[: idx.size]
    return x


def _bits(x):
    return numpy.ascontiguousarray(x, dtype=numpy.float32).view(numpy.uint32)


def _same(got, want, msg="", nan_sign=True):
    got = numpy.asarray(got)
    assert got.dtype == numpy.float32 and got.shape == want.shape, msg
    if not nan_sign:  # NaNs compare as NaNs, every other value bit for bit
        assert numpy.array_equal(numpy.isnan(got), numpy.isnan(want)), msg
        got, want = numpy.where(numpy.isnan(got), 0, got), numpy.where(numpy.isnan(want), 0, want)
    numpy.testing.assert_array_equal(_bits(got), _bits(want), err_msg=msg)


# A value read two instructions later is spilled by the step that makes it: here op's value waits
# while the right operand of the sum is computed. (A value with two readers is no use: the planner
# materializes it, and the program reads it as an input.)
def _spilled_binary(m, op, a, b, c):
    return getattr(m, op)(a, b) + b * c


def _spilled_unary(m, op, a, b):
    return getattr(m, op)(a) * (b - a)


@pytest.mark.parametrize("op", BINARY)
def test_every_binary_handler_with_and_without_spill(op):
    n = 64 * 17 + 5
    x, y, z = (_data(n, s) for s in (1, 2, 3))
    a, b, c = (mnp.array(v) for v in (x, y, z))
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        # forms: both operands in memory, accumulator on the left, on the right, on both sides
        cases = {
            "mem mem spilled": (lambda m, p, q, r: _spilled_binary(m, op, p, q, r)),
            "other order": (lambda m, p, q, r: q * r - getattr(m, op)(p, r)),
            "acc left": (lambda m, p, q, r: getattr(m, op)(p * q, r)),
            "acc right": (lambda m, p, q, r: getattr(m, op)(r, p * q)),
            "acc both": (lambda m, p, q, r: getattr(m, op)(p - q, p - q)),
            "scalar right": (lambda m, p, q, r: getattr(m, op)(p * q, 0.75)),
            "scalar left": (lambda m, p, q, r: getattr(m, op)(-0.0, p + q)),
        }
        for name, f in cases.items():
            _same(f(mnp, a, b, c), f(numpy, x, y, z), f"{op} {name}")


@pytest.mark.parametrize("op", UNARY)
def test_every_unary_handler_with_and_without_spill(op):
    n = 64 * 16 + 31
    x, y = (_data(n, s) for s in (4, 5))
    a, b = mnp.array(x), mnp.array(y)
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        # -NaN * NaN: numpy keeps the first operand's NaN (-NaN), mnn the second's, on every path
        # (tiles and the scalar target too, before this kernel): the NaN's sign is not compared
        _same(_spilled_unary(mnp, op, a, b), _spilled_unary(numpy, op, x, y), f"{op} spilled", nan_sign=False)
        _same((b + a) / getattr(mnp, op)(b), (y + x) / getattr(numpy, op)(y), f"{op} other order")
        _same(getattr(mnp, op)(a * b) - b, getattr(numpy, op)(x * y) - y, f"{op} on the accumulator")


@pytest.mark.parametrize("n", SIZES)
def test_block_counts_around_the_16_block_and_chunk_boundaries(n):
    x, y, z = (_data(n, s) for s in (6, 7, 8))
    a, b, c = (mnp.array(v) for v in (x, y, z))
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        _same(a * b + c * 2.0 - mnp.sqrt(mnp.abs(a)), x * y + z * numpy.float32(2.0) - numpy.sqrt(numpy.abs(x)))
        # a second, different program on the same inputs after it (plans and slots are per program)
        _same(mnp.maximum(a, c) / (b * b + 1.0), numpy.maximum(x, z) / (y * y + numpy.float32(1.0)))


@pytest.mark.parametrize("n", [64 * 17 + 5, STREAMED])
def test_every_handler_as_the_storing_step(n):
    # the last instruction's step stores the block, with streaming stores for the large output;
    # each op once with its operands in memory and once from the accumulator
    x, y = _data(n, 50), _data(n, 51)
    a, b = mnp.array(x), mnp.array(y)
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        for op in BINARY:
            for name, f in {"mem": lambda m, p, q: getattr(m, op)(p, q),
                            "acc": lambda m, p, q: getattr(m, op)(p * q, q - p),
                            "scalar": lambda m, p, q: getattr(m, op)(p - q, 1.5)}.items():
                _same(f(mnp, a, b), f(numpy, x, y), f"{op} {name} last, n={n}")
        for op in UNARY:
            _same(getattr(mnp, op)(a * b), getattr(numpy, op)(x * y), f"{op} last, n={n}", nan_sign=False)
            _same(getattr(mnp, op)(-a), getattr(numpy, op)(-x), f"{op} of negative last, n={n}")


@pytest.mark.parametrize("n", [64 * 17 + 5, STREAMED])
def test_a_call_last_gets_a_store_step(n):
    # exp/sin are microkernel calls: their value is in a slot, and a store step of its own follows
    x, y = _data(n, 52), _data(n, 53)
    x, y = numpy.clip(x, -20, 20), numpy.clip(y, -20, 20)
    a, b = mnp.array(x), mnp.array(y)
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        got = numpy.asarray(mnp.exp(a * b * 0.125))
        # the same microkernel over the same products, unfused: bit for bit
        ref = numpy.asarray(mnp.exp(mnp.array(x * y * numpy.float32(0.125))))
    numpy.testing.assert_array_equal(_bits(got), _bits(ref))
    want = numpy.exp(x * y * numpy.float32(0.125))
    assert numpy.allclose(got, want, rtol=1e-6, atol=0, equal_nan=True)


def test_many_inputs_and_live_values():
    n = 64 * 20 + 9
    xs = [_data(n, 20 + s) for s in range(10)]
    ms = [mnp.array(v) for v in xs]

    def prog(m, v):  # a tree: every inner value is spilled while its sibling is computed
        return ((v[0] * v[1] + (v[2] - v[3])) * (m.sqrt(m.abs(v[4])) + v[5]) - (m.minimum(v[6], v[7]) * v[8] - v[9])) / (
            (v[0] - v[1]) * (v[2] + v[4]) - (v[3] / v[5] + v[6] * v[9]))

    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        _same(prog(mnp, ms), prog(numpy, xs))


def test_calls_between_spilled_values():
    n = 64 * 18 + 2
    x, y, z = (_data(n, s) for s in (30, 31, 32))
    x, y = numpy.clip(x, -20, 20), numpy.clip(y, -20, 20)
    a, b, c = (mnp.array(v) for v in (x, y, z))
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        got = numpy.asarray(a * b + mnp.exp(b * 0.25) * (a - c) - mnp.sin(c) * (b + c))
        want = x * y + numpy.exp(y * numpy.float32(0.25)) * (x - z) - numpy.sin(z) * (y + z)
    # exp and sin are mnn's own vector math: within an ulp or two of numpy's, an error relative to
    # each term, which the sum can cancel down to a result far smaller than the terms
    with numpy.errstate(all="ignore"):
        terms = numpy.abs(x * y) + numpy.abs(numpy.exp(y * numpy.float32(0.25)) * (x - z)) + numpy.abs(numpy.sin(z) * (y + z))
    numpy.testing.assert_array_equal(numpy.isnan(got), numpy.isnan(want))
    f = numpy.isfinite(want)
    numpy.testing.assert_array_equal(got[~f & ~numpy.isnan(want)], want[~f & ~numpy.isnan(want)])
    assert (numpy.abs(got - want)[f] <= (1e-6 + 2e-6 * numpy.abs(want) + 6e-7 * terms)[f]).all()


def test_two_dimensional_and_misaligned_operands():
    x, y = _data(37 * 129 + 5, 40), _data(37 * 129 + 5, 41)
    a, b = mnp.array(x), mnp.array(y)
    xv, yv = x[1:-4].reshape(37, 129), y[5:].reshape(37, 129)
    av, bv = a[1:-4].reshape(37, 129), b[5:].reshape(37, 129)
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        _same(av * bv - mnp.sqrt(mnp.abs(bv)) * 3.0, xv * yv - numpy.sqrt(numpy.abs(yv)) * numpy.float32(3.0))
        row = mnp.array(y[:129])  # a broadcast row is strided: the program takes the tile path
        _same(av * row + 1.0, xv * y[:129] + numpy.float32(1.0))


PROGRAM = r"""
import hashlib
import json
import numpy
import mnn.numpy as mnp
out = {}
for n in (64 * 16, 64 * 17 + 63, 65536 + 64 * 20 + 7, (8 << 20) // 4 + 64 * 3 + 5):
    rng = numpy.random.default_rng(n)
    x, y, z = ((rng.standard_normal(n) * 3).astype(numpy.float32) for _ in range(3))
    x[::53] = numpy.nan
    y[::71] = -0.0
    a, b, c = mnp.array(x), mnp.array(y), mnp.array(z)
    with mnp.errstate(all="ignore"):
        r = {
            "spills": (a * b + c) * (a - c) + mnp.sqrt(mnp.abs(b)) / (c - a * 2.0),
            "forms": mnp.fmax(a - b, a - b) + mnp.minimum(c, a * 2.0) - mnp.fmin(-0.0, b),
            "unary": mnp.rint(-a * 1.5) + mnp.square(mnp.floor(b)) - mnp.reciprocal(mnp.ceil(c) + 0.5),
        }
        # the bits themselves for small n, a digest of them for the 8 MB (streamed) output
        out.update({f"{k} {n}": numpy.asarray(v).view(numpy.uint32).tolist() if n < 1 << 20 else
                    hashlib.sha256(numpy.asarray(v).tobytes()).hexdigest() for k, v in r.items()})
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_threaded_programs_match_scalar_tiles(isa):
    assert run_under_isa(PROGRAM, isa) == run_under_isa(PROGRAM, "scalar")
