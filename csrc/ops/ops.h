// The C++ API: validation, promotion, broadcasting and shape inference for every op, on Arrays.
// Python calls these through csrc/python; names mirror mnn.numpy. Each raises numpy's exception
// type with "[mnn.numpy.<fn>]" in the message.
#pragma once
#include <optional>
#include <vector>

#include "core/array.h"

namespace mnn::prims {
struct Primitive;
}

namespace mnn::ops {

using core::Array;
using core::DType;
using core::Op;
using core::Shape;

// ---- elementwise (ops/elementwise.cpp) ----
Array elementwise(Op op, const std::vector<Array>& inputs);
Array elementwise(Op op, const Array* const* inputs, size_t n);  // the operator fast path: no copies
Array astype(const Array& a, DType dtype);  // always a new array (numpy's copy=True default)
Array copy(const Array& a);                  // contiguous copy, same dtype
// In-place `a op= b`: computes, checks numpy's same_kind output casting, writes through a's view.
void inplace(Op op, Array& a, const Array& b);
// `a[window] = value`: broadcasts value to the window's shape and casts (unsafe, like numpy).
void assign(Array& window, const Array& value, const char* fn = "__setitem__");

// ---- views and shape (ops/shape.cpp) ----
Array reshape(const Array& a, Shape shape, const char* fn = "reshape");  // one -1 allowed
Array transpose(const Array& a, std::vector<int64_t> axes);              // empty: reversed
Array broadcast_to(const Array& a, const Shape& shape, const char* fn = "broadcast_to");
Array expand_dims(const Array& a, int64_t axis);
Array squeeze(const Array& a, const std::vector<int64_t>& axes);         // empty: all size-1 axes
Array flip(const Array& a, const std::vector<int64_t>& axes);            // empty: all axes
Array diagonal(const Array& a, int64_t offset, int64_t axis1, int64_t axis2);
Array concatenate(const std::vector<Array>& arrays, int64_t axis, std::optional<DType> dtype);
Array as_contiguous(const Array& a);  // a itself when already C-contiguous, else a copy

// One basic-indexing component: an integer, a slice, a new axis or an ellipsis.
struct Index {
  enum Kind { Int, Slice, NewAxis, Ellipsis } kind;
  int64_t start = 0, stop = 0, step = 1;  // Int uses start; Slice uses all three (already normalised? no)
  bool has_start = false, has_stop = false;
};
Array basic_index(const Array& a, const std::vector<Index>& idx);

// ---- reductions (ops/reduce.cpp) ----
// NanMax/NanMin skip NaN (numpy's fmax/fmin reductions: an all-NaN slice gives NaN; non-float
// inputs reduce as Max/Min). CountNonzero counts elements != 0 into int64, reading the raw input.
enum class ReduceKind : int64_t { Sum = 0, Prod = 1, Max = 2, Min = 3, Any = 4, All = 5, NanMax = 6, NanMin = 7,
                                  CountNonzero = 8 };
// axes empty + all_axes: reduce everything. dtype: numpy's `dtype=` argument.
Array reduce(ReduceKind kind, const Array& a, std::vector<int64_t> axes, bool all_axes, bool keepdims,
             std::optional<DType> dtype, const char* fn);
// NanArgmax/NanArgmin: numpy's nanargmax/nanargmin (a NaN counts as -inf / +inf); an all-NaN
// slice gives index -1, which the Python layer turns into numpy's ValueError.
enum class ArgKind : int64_t { Argmax = 0, Argmin = 1, NanArgmax = 2, NanArgmin = 3 };
Array argreduce(ArgKind kind, const Array& a, std::optional<int64_t> axis, bool keepdims, const char* fn);
enum class ScanKind : int64_t { Cumsum = 0, Cumprod = 1 };
Array scan(ScanKind kind, const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype, const char* fn);
// numpy's accumulation dtype for sum/prod/cumsum (small ints -> int64/uint64, bool -> int64).
DType accumulation_dtype(DType d);

// ---- linear algebra (ops/linalg.cpp) ----
Array matmul(const Array& a, const Array& b, const char* fn = "matmul");

// ---- creation (ops/creation.cpp) ----
Array full(const Shape& shape, const Array& fill_value_0d, DType dtype);
Array arange(double start, double stop, double step, DType dtype);
Array arange_int(int64_t start, int64_t stop, int64_t step, DType dtype);
Array empty(const Shape& shape, DType dtype);

// ---- registered primitives (ops/prim.cpp, prims/registry.h) ----
Array prim(const std::string& name, const std::vector<Array>& inputs, const core::Params& params);
// The same for a primitive already looked up (a caller that records it often keeps the pointer).
Array prim(const prims::Primitive& p, const std::vector<Array>& inputs, const core::Params& params);

}  // namespace mnn::ops
