// Shape rule of cv_math: single-pass kernels of cv2's core math and bitwise calls (kernels:
// backends/cpu/simd/cv/core_math.cpp). Python (mnn/cv/_core_math.py) keeps cv2's argument checks
// and routes only the cases checked here; the rule checks what the kernels rely on.
//
//   ints = [op, flag] ([op, flag, row] for ops 0-2 and 10: row = the elements in one of cv2's planes,
//          the whole image when cv2 sees it continuous; which of cv2's loops an element takes
//          depends on it)
//   op 0 phase        (x, y; flag = degrees)  -> x's shape and dtype (float32 / float64)
//   op 1 magnitude    (x, y)                  -> x's shape and dtype
//   op 2 cartToPolar  (x, y; flag = degrees)  -> (2, *x.shape): magnitude, then angle
//   op 3/4/5 and/or/xor (a, b[, mask]; flag = has mask) -> a's shape and dtype; flag + 2: (a[, mask])
//                     against a Scalar, floats = one value a channel already in a's (integer) type
//   op 6 not          (a[, mask]; flag = has mask)      -> a's shape and dtype
//   op 7 hconcat, 8 vconcat (x_0 .. x_{n-1}, HxW or HxWxC of one dtype)
//   op 9 sqrt         (x float32 / float64)   -> x's shape and dtype
//   op 10 polarToCart ([magnitude,] angle; flag = degrees + 2 * double form, [.., row])
//                     -> (2, *angle.shape): x, y
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

std::string cvname(const char* fn) { return std::string("[mnn.cv.") + fn + "] "; }

const char* op_name(int64_t op) {
  static const char* names[] = {"phase", "magnitude", "cartToPolar", "bitwise_and", "bitwise_or",
                                "bitwise_xor", "bitwise_not", "hconcat", "vconcat", "sqrt", "polarToCart"};
  return op >= 0 && op < 11 ? names[op] : "core_math";
}

bool float_depth(DType d) { return d == DType::Float32 || d == DType::Float64; }

void need_image(const NodePtr& a, const char* fn) {
  if (a->ndim() < 2 || a->ndim() > 3) throw ValueError(cvname(fn) + "expected an HxW or HxWxC image");
}

prims::PrimMeta infer_math(const std::vector<NodePtr>& in, const Params& p) {
  if (p.ints.size() < 2 || p.ints.size() > 3 || in.empty()) throw ValueError(cvname("core_math") + "bad parameters");
  const int64_t op = p.ints[0], flag = p.ints[1];
  const char* fn = op_name(op);
  const NodePtr& a = in[0];
  need_image(a, fn);
  switch (op) {
    case 0: case 1: case 2: {
      if (in.size() != 2 || !float_depth(a->dtype) || in[1]->dtype != a->dtype || in[1]->shape != a->shape)
        throw ValueError(cvname(fn) + "x and y must be float32/float64 arrays of the same size and type");
      if (p.ints.size() == 3 && (p.ints[2] <= 0 || numel(a->shape) % p.ints[2] != 0))
        throw ValueError(cvname(fn) + "bad row length");
      if (op != 2) return {a->dtype, a->shape};
      Shape s{2};
      s.insert(s.end(), a->shape.begin(), a->shape.end());
      return {a->dtype, s};
    }
    case 3: case 4: case 5: case 6: {
      const bool mask = flag & 1, scalar = flag & 2;
      const size_t n_img = op == 6 || scalar ? 1 : 2;
      if (in.size() != n_img + (mask ? 1 : 0)) throw ValueError(cvname(fn) + "bad operands");
      if (scalar && (op == 6 || float_depth(a->dtype) ||
                     int64_t(p.floats.size()) != (a->ndim() == 3 ? a->shape[2] : 1)))
        throw ValueError(cvname(fn) + "one Scalar value per channel of an integer image expected");
      if (n_img == 2 && (in[1]->dtype != a->dtype || in[1]->shape != a->shape))
        throw ValueError(cvname(fn) + "Sizes/types of input arguments do not match");
      if (mask) {
        const NodePtr& m = in.back();
        if (itemsize(m->dtype) != 1 || m->ndim() != 2 || m->shape[0] != a->shape[0] || m->shape[1] != a->shape[1])
          throw ValueError(cvname(fn) + "mask must be a uint8 HxW array matching the image");
      }
      return {a->dtype, a->shape};
    }
    case 7: case 8: {
      const int axis = op == 7 ? 1 : 0;
      Shape s = a->shape;
      s[axis] = 0;
      for (const NodePtr& x : in) {
        if (x->dtype != a->dtype || x->ndim() != a->ndim() || (x->ndim() == 3 && x->shape[2] != a->shape[2]) ||
            x->shape[1 - axis] != a->shape[1 - axis])
          throw ValueError(cvname(fn) + "all arrays must have the same type, channel count and " +
                           (axis == 1 ? "rows" : "cols"));
        s[axis] += x->shape[axis];
      }
      return {a->dtype, s};
    }
    case 10: {
      const NodePtr& ang = in.back();
      if (in.size() > 2 || !float_depth(ang->dtype) || in[0]->dtype != ang->dtype || in[0]->shape != ang->shape)
        throw ValueError(cvname(fn) + "magnitude and angle must be float32/float64 arrays of the same size and type");
      if (p.ints.size() == 3 && (p.ints[2] <= 0 || numel(ang->shape) % p.ints[2] != 0))
        throw ValueError(cvname(fn) + "bad row length");
      Shape s{2};
      s.insert(s.end(), ang->shape.begin(), ang->shape.end());
      return {ang->dtype, s};
    }
    case 9:
      if (in.size() != 1 || !float_depth(a->dtype)) throw ValueError(cvname(fn) + "src must be float32 or float64");
      return {a->dtype, a->shape};
    default: throw ValueError(cvname(fn) + "unknown op " + std::to_string(op));
  }
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_math, {"cv_math", &infer_math});

}  // namespace mnn::ops
