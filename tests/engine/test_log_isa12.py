"""The AVX-512 float32 log (vmath_kernels.cpp: log16 / log_run16) is the AVX2 form's log8 / log_half
arithmetic lane for lane, and both are the scalar target's log_f64 (double, rounded once), so all
three targets must give the same bits: on ~50M sampled bit patterns (every class: normal,
subnormal, +-0, negatives, +-inf, NaN payloads), on tails of every length 0..33 at every start
alignment, in place, on strided views, and with numpy's errstate flags (divide by zero for +-0,
invalid for negatives, nothing for NaN, inf or a huge negative). benchmarks/native/log_ab.cpp
checks all 2^32 patterns against the 8-lane and the scalar forms."""

import numpy
import pytest
from helpers import run_under_isa

import mnn

PROGRAM = r"""
import hashlib, json, sys, warnings
import numpy
import mnn, mnn.numpy as mnp
mnn.set_num_threads(int(sys.argv[1]))
out = {}

def bits(a):
    return numpy.ascontiguousarray(numpy.asarray(a)).view(numpy.uint32).tolist()

def log(a):
    with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
        return numpy.asarray(mnp.log(a))

# ~50M sampled bit patterns (uniform over all 2^32, so ~0.4% NaN, ~0.2% subnormal, half
# negative), in chunks, compared by digest
rng = numpy.random.default_rng(12)
for c in range(12):
    u = rng.integers(0, 2**32, size=1 << 22, dtype=numpy.uint64).astype(numpy.uint32)
    out["sample%d" % c] = hashlib.sha1(log(mnp.asarray(u.view(numpy.float32))).tobytes()).hexdigest()
# every subnormal and the normals around FLT_MIN, 1.0 and FLT_MAX, exhaustively, with the sign
spans = [(1, 1 << 23), (0x00800000, 0x00900000), (0x3f000000, 0x3fc00000), (0x7f700000, 0x7f800001)]
for lo, hi in spans:
    u = numpy.arange(lo, hi, dtype=numpy.uint32)
    for sign in (0, 0x80000000):
        out["span%x_%x" % (lo, sign)] = hashlib.sha1(log(mnp.asarray((u | sign).view(numpy.float32))).tobytes()).hexdigest()
special = numpy.array([0x0, 0x80000000, 0x1, 0x80000001, 0x7fffff, 0x800000, 0x3f800000, 0x3f7fffff, 0x3f800001,
                       0x3f32aaab, 0x3f32aaaa, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
                       0xffc00000, 0x7fc12345, 0x7f800001, 0xbf800000, 0x437f0000], dtype=numpy.uint32)
out["special"] = bits(log(mnp.asarray(special.view(numpy.float32))))
# tails: every length 0..33 at every start offset mod 16 of a buffer mixing specials in
base = (rng.random(64, dtype=numpy.float32) * 300).astype(numpy.float32)
base[::7] = special[: len(base[::7])].view(numpy.float32)
for n in range(34):
    for off in range(16):
        out["tail%d_%d" % (n, off)] = bits(log(mnp.asarray(base)[off:off + n]))
# in place (the result written over its input), and an input the engine may reuse
x = (rng.standard_normal(1031) * 50).astype(numpy.float32)
x[::13] = 0.0
X = mnp.asarray(x.copy())
with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
    mnp.log(X, out=X)
out["inplace"] = bits(X)
out["temporary"] = bits(log(mnp.asarray(x) * 1.0))
# strided views: a step, a negative step, a transposed 2-D block
big = (rng.random((97, 131), dtype=numpy.float32) * 1000).astype(numpy.float32)
big[5, ::3] = -1.0
B = mnp.asarray(big)
out["step3"] = bits(log(B[:, ::3]))
out["neg"] = bits(log(B[::-2, ::-1]))
out["T"] = bits(log(B.T[7:90, 3:50]))
# big enough for the thread pool's split
y = (rng.random(1 << 20, dtype=numpy.float32) * 1e4).astype(numpy.float32)
out["large"] = hashlib.sha1(log(mnp.asarray(y)).tobytes()).hexdigest()
# errstate flags: the warnings numpy's log gives, per case, in the vector body and in the tail
warn = {}
cases = {"zero": [0.0], "negzero": [-0.0], "neg": [-1.0], "hugeneg": [-3e38], "neginf": [-numpy.inf],
         "nan": [numpy.nan], "negnan": [-numpy.nan], "inf": [numpy.inf], "subnormal": [1e-45, 1e-40],
         "max": [3.4e38], "zero_neg": [0.0, -2.0]}
for name, case in cases.items():
    for n in (1, 16, 31, 32, 33, 100):
        v = numpy.resize(numpy.array(case + [2.0] * 5, dtype=numpy.float32), n)
        with mnp.errstate(all="warn"), warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            numpy.asarray(mnp.log(mnp.asarray(v)))
        warn["%s_%d" % (name, n)] = sorted(str(m.message) for m in w)
for n in (1, 16, 33):  # a signalling NaN: invalid, as numpy's (built from bits: a Python float would quiet it)
    v = numpy.resize(numpy.array([0x7fa00000, 0xff900001] + [0x40000000] * 5, dtype=numpy.uint32), n)
    with mnp.errstate(all="warn"), warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        numpy.asarray(mnp.log(mnp.asarray(v.view(numpy.float32))))
    warn["snan_%d" % n] = sorted(str(m.message) for m in w)
out["warnings"] = warn
json.dump(out, sys.stdout)
"""

ISAS = [i for i in ("scalar", "avx2", "avx512") if i in mnn._core.available_isas()]


@pytest.fixture(scope="module")
def results():
    return {(isa, t): run_under_isa(PROGRAM, isa, [str(t)]) for isa in ISAS for t in (1, 2)}


@pytest.mark.skipif("avx512" not in mnn._core.available_isas(), reason="needs a CPU with the avx512 target")
@pytest.mark.parametrize("isa", [i for i in ISAS if i != "avx512"])
@pytest.mark.parametrize("threads", [1, 2])
def test_avx512_log_has_the_other_targets_bits(results, isa, threads):
    a, b = results[(isa, threads)], results[("avx512", threads)]
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == b[key], key


@pytest.mark.parametrize("isa", ISAS)
def test_log_same_bits_at_one_and_two_threads(results, isa):
    assert results[(isa, 1)] == results[(isa, 2)]


@pytest.mark.parametrize("isa", ISAS)
def test_log_warnings_match_numpy(results, isa):
    import warnings

    got = results[(isa, 1)]["warnings"]
    assert got["zero_16"] == ["divide by zero encountered in log"]  # the program really records
    for key, msgs in got.items():
        name, n = key.rsplit("_", 1)
        if name == "snan":
            v = numpy.resize(numpy.array([0x7fa00000, 0xff900001] + [0x40000000] * 5, dtype=numpy.uint32), int(n))
            v = v.view(numpy.float32)
        else:
            v = None
        case = {"zero": [0.0], "negzero": [-0.0], "neg": [-1.0], "hugeneg": [-3e38], "neginf": [-numpy.inf],
                "nan": [numpy.nan], "negnan": [-numpy.nan], "inf": [numpy.inf], "subnormal": [1e-45, 1e-40],
                "max": [3.4e38], "zero_neg": [0.0, -2.0]}.get(name)
        if v is None:
            v = numpy.resize(numpy.array(case + [2.0] * 5, dtype=numpy.float32), int(n))
        with numpy.errstate(all="warn", under="ignore"), warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            numpy.log(v)
        assert msgs == sorted(str(m.message) for m in w), key


def test_log_specials_and_tails_match_numpy():
    """The in-process target (the widest) against numpy's own float32 log on the special values
    and near 1.0: exact there (numpy's error shows only away from these)."""
    import mnn.numpy as mnp

    u = numpy.array([0x0, 0x80000000, 0x1, 0x7fffff, 0x800000, 0x3f800000, 0x7f7fffff, 0x7f800000, 0xff800000,
                     0x7fc00000, 0xbf800000, 0x80000001], dtype=numpy.uint32)
    x = u.view(numpy.float32)
    for n in range(len(x) + 1):
        with numpy.errstate(all="ignore"), mnp.errstate(all="ignore"):
            got = numpy.asarray(mnp.log(mnp.asarray(x[:n])))
            want = numpy.log(x[:n])
        numpy.testing.assert_array_equal(got, want)
