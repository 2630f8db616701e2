// Random sampling (mnn.numpy.random) as one registered primitive, "random".
//
//   random(key, params...; dist, out_dtype, shape...) -> array of `shape`
//
// key is a 1-element uint64 input (a per-call key derived from the generator's seed and call
// counter), and distribution parameters are inputs too, never node params: a loop that draws the
// same shape again records the same structure, so its cached plan is reused while the key (data,
// not structure) changes. Element i of the output is a function of (key, i) only (counter-based
// Philox), so results never depend on how the work is split between threads.
//
// Parameter inputs of the element-wise distributions have 1 element (shared) or one per output
// element. The sequential ones (permutation, weighted choice) take their whole input as a table;
// row permutations (shape (rows, n)) permute each row independently, row r from stream r.
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

// Keep in sync with kernels/random/random.cpp and mnn/numpy/random.py.
enum Dist : int64_t {
  kUniform = 0, kNormal, kExponential, kGamma, kPoisson, kBinomial, kIntegers, kGeometric,
  kChoiceCdf, kPermutation, kChoiceNoReplace, kBeta, kPermutationRows, kNumDists
};

prims::PrimMeta infer_random(const std::vector<NodePtr>& in, const Params& p) {
  const std::string fn = "[mnn.numpy.random] ";
  if (p.ints.size() < 2) throw ValueError(fn + "random: missing parameters");
  int64_t dist = p.ints[0];
  if (dist < 0 || dist >= kNumDists) throw ValueError(fn + "unknown distribution");
  int64_t code = p.ints[1];
  if (code < 0 || code >= kNumDTypes) throw ValueError(fn + "bad dtype code");
  DType dt = static_cast<DType>(code);
  Shape shape(p.ints.begin() + 2, p.ints.end());
  for (int64_t d : shape)
    if (d < 0) throw ValueError(fn + "negative dimensions are not allowed");
  if (in.empty() || in[0]->dtype != DType::UInt64 || numel(in[0]->shape) != 1)
    throw ValueError(fn + "the first input must be a 1-element uint64 key");
  static const int n_params[kNumDists] = {0, 0, 0, 1, 1, 2, 2, 1, 1, 0, 1, 2, 0};
  if (static_cast<int>(in.size()) != 1 + n_params[dist]) throw ValueError(fn + "wrong number of parameter inputs");
  bool float_out = dist <= kGamma || dist == kBeta;
  if (float_out && dt != DType::Float32 && dt != DType::Float64)
    throw TypeError(fn + "Unsupported dtype " + dtype_name(dt) + " for this distribution");
  if (!float_out && dt != DType::Int64 && !(dist == kIntegers && dt == DType::UInt64))
    throw TypeError(fn + "this distribution produces int64");
  if (dist == kPermutationRows && shape.size() != 2) throw ValueError(fn + "row permutations need a 2-d shape");
  int64_t n = numel(shape);
  bool table = dist == kChoiceCdf || dist == kChoiceNoReplace;
  for (size_t i = 1; i < in.size(); ++i) {
    DType want = (dist == kBinomial && i == 1) || dist == kIntegers ? DType::Int64 : DType::Float64;
    if (in[i]->dtype != want) throw TypeError(fn + "parameter input has the wrong dtype");
    int64_t m = numel(in[i]->shape);
    if (table) {
      if (m < 1) throw ValueError(fn + "'a' cannot be empty unless no samples are taken");
      if (dist == kChoiceNoReplace && n > m) throw ValueError(fn + "Cannot take a larger sample than population when replace is False");
    } else if (m != 1 && m != n) {
      throw ValueError(fn + "parameter shape does not match the output shape");
    }
  }
  return {dt, shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(random, {"random", &infer_random});

}  // namespace mnn::ops
