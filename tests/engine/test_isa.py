"""Every ISA's kernels against the scalar ones: the same program run under MNN_ISA=scalar and
under each other available ISA must agree (bit for bit where the op is exactly rounded)."""

import numpy
import pytest
from helpers import run_under_isa

import mnn

PROGRAM = r"""
import json, sys
import numpy
import mnn.numpy as mnp
rng = numpy.random.default_rng(7)
out = {}
# odd lengths and offset views exercise vector tails and misaligned starts
for dt in ["int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64"]:
    a = (rng.standard_normal(1031) * 50).astype(dt)
    b = (rng.standard_normal(1031) * 50 + 60).astype(dt)
    A, B = mnp.asarray(a)[1:], mnp.asarray(b)[:-1]
    res = {"add": A + B, "mul": A * B, "sub": A - B, "max": mnp.maximum(A, B), "cmp": A < B,
           "fdiv": A // (B + 1 if dt[0] != "f" else B), "abs": mnp.abs(A), "cast": A.astype("float32")}
    if dt[0] == "f":
        res.update({"sqrt": mnp.sqrt(mnp.abs(A)), "exp": mnp.exp(A / 100), "tanh": mnp.tanh(A / 10),
                    "log": mnp.log1p(mnp.abs(A)), "sin": mnp.sin(A), "div": A / B})
    for k, v in res.items():
        out[dt + "." + k] = [float(x) for x in numpy.asarray(v).astype("float64").ravel()]
json.dump(out, sys.stdout)
"""

EXACT = ("add", "mul", "sub", "max", "cmp", "fdiv", "abs", "cast", "sqrt", "div")


def run_with(isa):
    return run_under_isa(PROGRAM, isa)


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_isa_kernels_match_scalar(isa):
    ref, got = run_with("scalar"), run_with(isa)
    assert ref.keys() == got.keys()
    for key in ref:
        r, g = numpy.array(ref[key]), numpy.array(got[key])
        if key.split(".")[1] in EXACT:
            numpy.testing.assert_array_equal(g, r, err_msg=key)
        else:
            numpy.testing.assert_allclose(g, r, rtol=4e-3 if key.startswith("float16") else 1e-6, err_msg=key)


def test_info_reports_the_isa():
    info = mnn.engine.info()
    assert info["isa"] in info["available_isas"]
    assert "scalar" in info["available_isas"]


def test_isa_names_belong_to_the_architecture():
    import platform

    info = mnn.engine.info()
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        assert set(info["available_isas"]) <= {"scalar", "avx2", "avx512"}
    elif machine in ("aarch64", "arm64"):
        # Advanced SIMD is part of ARMv8-A: every aarch64 build and CPU has the neon target
        assert info["available_isas"] == ["scalar", "neon"]
        assert info["isa"] == "neon"


# MNN_ISA caps by tier: the other architecture's name for a tier means this one's (neon on x86
# is avx2's tier, avx2 on aarch64 is neon's), so a script written for one machine runs on the other.
_ISA_PROGRAM = "import json, sys, mnn; json.dump(mnn.engine.info()['isa'], sys.stdout)"


@pytest.mark.parametrize("cap", ["scalar", "avx2", "neon"])
def test_mnn_isa_caps_by_tier(cap):
    avail = mnn._core.available_isas()
    got = run_under_isa(_ISA_PROGRAM, cap)
    tier1 = [i for i in avail if i in ("avx2", "neon")]
    assert got == ("scalar" if cap == "scalar" or not tier1 else tier1[0])
