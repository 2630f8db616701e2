// Shape rule of cv_arith: cv2's per-pixel arithmetic (add, subtract, absdiff, multiply, divide,
// addWeighted, convertScaleAbs) for a source depth kept in the output (convertScaleAbs: uint8),
// no mask. The kernel (backends/cpu/simd/cv/arith.cpp) reproduces the arithmetic that
// mnn/cv/_core_ops.py spells out in float64 work; Python routes only these cases here.
//
//   ints   = [op]
//   floats = array-array ops: [scale] (mul, div), [alpha, beta, gamma] (addWeighted),
//            [alpha, beta] (convertScaleAbs; float64: [alpha, beta, vector_rows]), [] (add, subtract,
//            absdiff);
//            array-scalar ops: [scale, v_0 .. v_{c-1}], one scalar value per channel.
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {
namespace {

// Op codes, shared with the kernel (kept in sync by hand: two small tables).
enum ArithOp : int64_t {
  kAdd = 0, kSub = 1, kAbsdiff = 2, kMul = 3, kDiv = 4, kAddWeighted = 5, kConvertScaleAbs = 6,
  kAddS = 10, kSubS = 11, kRSubS = 12, kAbsdiffS = 13, kMulS = 14, kRMulS = 15, kDivS = 16, kRDivS = 17,
};

bool supported(core::DType d) {
  using core::DType;
  return d == DType::UInt8 || d == DType::Int8 || d == DType::UInt16 || d == DType::Int16 ||
         d == DType::Float32 || d == DType::Float64;
}

prims::PrimMeta infer_arith(const std::vector<core::NodePtr>& in, const core::Params& p) {
  const char* fn = "[mnn.cv.arith] ";
  if (p.ints.size() != 1 || in.empty()) throw core::ValueError(std::string(fn) + "bad parameters");
  const int64_t op = p.ints[0];
  const core::NodePtr& a = in[0];
  if (!supported(a->dtype)) throw core::TypeError(std::string(fn) + "unsupported depth " + core::dtype_name(a->dtype));
  if (a->ndim() < 2 || a->ndim() > 3) throw core::ValueError(std::string(fn) + "expected an HxW or HxWxC image");
  const int64_t c = a->ndim() == 3 ? a->shape[2] : 1;
  size_t n_in = 1, n_floats = 0;
  switch (op) {
    case kAdd: case kSub: case kAbsdiff: n_in = 2; break;
    case kMul: case kDiv: n_in = 2, n_floats = 1; break;
    case kAddWeighted: n_in = 2, n_floats = 3; break;
    case kConvertScaleAbs: n_floats = 2; break;
    case kAddS: case kSubS: case kRSubS: case kAbsdiffS: case kMulS: case kRMulS: case kDivS: case kRDivS:
      n_floats = 1 + static_cast<size_t>(c);
      break;
    default: throw core::ValueError(std::string(fn) + "unknown op " + std::to_string(op));
  }
  // convertScaleAbs of float64 takes a third float: whether cv2 runs its float32 vector loop
  if (op == kConvertScaleAbs && a->dtype == core::DType::Float64 && p.floats.size() == 3) n_floats = 3;
  if (in.size() != n_in || p.floats.size() != n_floats) throw core::ValueError(std::string(fn) + "bad operands");
  if (n_in == 2 && (in[1]->dtype != a->dtype || in[1]->shape != a->shape))
    throw core::ValueError(std::string(fn) + "operands must have the same size and depth");
  return {op == kConvertScaleAbs ? core::DType::UInt8 : a->dtype, a->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_arith, {"cv_arith", &infer_arith});

}  // namespace mnn::ops
