// Reductions, arg-reductions and scans: axis handling, numpy's result dtypes, empty-input rules.
#include <algorithm>

#include "ops/common.h"
#include "ops/ops.h"

namespace mnn::ops {

using namespace core;

DType accumulation_dtype(DType d) {
  switch (kind_of(d)) {
    case Kind::Bool: return DType::Int64;
    case Kind::Signed: return itemsize(d) < 8 ? DType::Int64 : d;
    case Kind::Unsigned: return itemsize(d) < 8 ? DType::UInt64 : d;
    default: return d;
  }
}

static const char* reduce_word(ReduceKind k) {
  switch (k) {
    case ReduceKind::Max: return "maximum";
    case ReduceKind::Min: return "minimum";
    case ReduceKind::NanMax: return "fmax";
    case ReduceKind::NanMin: return "fmin";
    default: return "reduction";
  }
}

Array reduce(ReduceKind kind, const Array& a, std::vector<int64_t> axes, bool all_axes, bool keepdims,
             std::optional<DType> dtype, const char* fn) {
  int nd = a.ndim();
  std::vector<char> red(nd, 0);
  if (all_axes) {
    std::fill(red.begin(), red.end(), 1);
  } else {
    for (auto ax : axes) {
      int x = normalize_axis(ax, nd, fn);
      if (red[x]) throw ValueError(api_msg(fn, "duplicate value in 'axis'"));
      red[x] = 1;
    }
  }
  const bool extreme = kind == ReduceKind::Max || kind == ReduceKind::Min || kind == ReduceKind::NanMax ||
                       kind == ReduceKind::NanMin;
  if (is_complex(a.dtype()) && extreme)
    throw TypeError(api_msg(fn, "ordering reductions of complex arrays are not supported"));
  if (is_complex(a.dtype()) && kind == ReduceKind::CountNonzero)
    throw TypeError(api_msg(fn, "complex input is not supported"));
  // Integers hold no NaN: nanmax/nanmin are max/min there.
  if (!is_float(a.dtype()) && kind == ReduceKind::NanMax) kind = ReduceKind::Max;
  if (!is_float(a.dtype()) && kind == ReduceKind::NanMin) kind = ReduceKind::Min;
  DType out;
  switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Prod: out = dtype ? *dtype : accumulation_dtype(a.dtype()); break;
    case ReduceKind::Any:
    case ReduceKind::All: out = DType::Bool; break;
    case ReduceKind::CountNonzero: out = DType::Int64; break;
    default: out = dtype ? *dtype : a.dtype(); break;
  }
  Params p;
  p.ints.push_back(static_cast<int64_t>(kind));
  Shape shape, kshape;
  bool empty_reduce = false;
  for (int i = 0; i < nd; ++i) {
    if (red[i]) {
      p.ints.push_back(i);
      kshape.push_back(1);
      empty_reduce |= a.shape()[i] == 0;
    } else {
      shape.push_back(a.shape()[i]);
      kshape.push_back(a.shape()[i]);
    }
  }
  if (extreme && (empty_reduce || (nd == 0 && a.size() == 0)))
    throw ValueError(api_msg(fn, std::string("zero-size array to reduction operation ") + reduce_word(kind) +
                                     " which has no identity"));
  NodePtr in = a.node();
  // bfloat16 has no reduce kernels: it reduces in float32 (sum accumulates there) and the result
  // is rounded once at the end.
  const DType work = out == DType::BFloat16 ? DType::Float32 : out;
  const bool raw = kind == ReduceKind::Any || kind == ReduceKind::All || kind == ReduceKind::CountNonzero;
  if (raw && in->dtype == DType::BFloat16) in = make_node(Op::Cast, DType::Float32, in->shape, {in}, {}, in->dtype);
  // A sum of bools/integers into int64/uint64 (numpy's default) or float32/float64 (mean, dtype=)
  // reads the narrow input and widens in the kernel: no widened copy of the input. (The float
  // kernel casts 8192 elements at a time and sums each block pairwise, as numpy's buffered cast.)
  const Kind ik = kind_of(in->dtype);
  const bool widen = kind == ReduceKind::Sum && in->dtype != DType::BFloat16 &&
                     (ik == Kind::Bool || ik == Kind::Signed || ik == Kind::Unsigned) &&
                     (work == DType::Int64 || work == DType::UInt64 || work == DType::Float64 || work == DType::Float32);
  // Otherwise the kernel reads inputs in the result dtype (numpy casts to `dtype=` first).
  if (!raw && !widen && in->dtype != work) in = make_node(Op::Cast, work, in->shape, {in}, {}, in->dtype);
  NodePtr red_node = make_node(Op::Reduce, work, shape, {in}, p);
  if (work != out) red_node = make_node(Op::Cast, out, shape, {red_node}, {}, work);
  Array r = finish(red_node, {&a});
  if (keepdims) r = reshape(r, kshape, fn);
  return r;
}

// numpy's single-axis convention: axis=None means "over the flattened array".
static Array along_axis(const Array& a, std::optional<int64_t> axis, const char* fn, int& ax) {
  ax = 0;
  if (!axis) return reshape(as_contiguous(a), {a.size()}, fn);
  ax = normalize_axis(*axis, a.ndim(), fn);
  return a;
}

Array argreduce(ArgKind kind, const Array& a, std::optional<int64_t> axis, bool keepdims, const char* fn) {
  if (is_complex(a.dtype())) throw TypeError(api_msg(fn, "complex input is not supported"));
  if (!is_float(a.dtype()) && kind == ArgKind::NanArgmax) kind = ArgKind::Argmax;  // no NaN to skip
  if (!is_float(a.dtype()) && kind == ArgKind::NanArgmin) kind = ArgKind::Argmin;
  int ax;
  Array src = along_axis(a, axis, fn, ax);
  if (src.ndim() == 0) src = reshape(src, {1}, fn);
  if (src.shape()[ax] == 0)
    throw ValueError(api_msg(fn, std::string("attempt to get ") + fn + " of an empty sequence"));
  Shape shape;
  for (int i = 0; i < src.ndim(); ++i)
    if (i != ax) shape.push_back(src.shape()[i]);
  Params p;
  p.ints = {static_cast<int64_t>(kind), ax};
  NodePtr in = src.node();
  if (in->dtype == DType::BFloat16)  // exact widening: same order, same NaNs
    in = make_node(Op::Cast, DType::Float32, in->shape, {in}, {}, in->dtype);
  Array r = finish(make_node(Op::ArgReduce, DType::Int64, shape, {in}, p), {});
  if (keepdims) {
    Shape ks = axis ? a.shape() : Shape(a.ndim(), 1);
    if (axis) ks[ax] = 1;
    r = reshape(r, ks, fn);
  }
  return r;
}

Array scan(ScanKind kind, const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype, const char* fn) {
  int ax;
  Array src = along_axis(a, axis, fn, ax);
  DType out = dtype ? *dtype : accumulation_dtype(a.dtype());
  if (is_complex(out)) throw TypeError(api_msg(fn, "complex input is not supported"));
  NodePtr in = src.node();
  if (in->dtype != out) in = make_node(Op::Cast, out, in->shape, {in}, {}, in->dtype);
  Params p;
  p.ints = {static_cast<int64_t>(kind), ax};
  return finish(make_node(Op::Scan, out, src.shape(), {in}, p), {&src});
}

}  // namespace mnn::ops
