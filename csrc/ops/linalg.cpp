#include <algorithm>
#include <string>
#include <vector>

#include "ops/common.h"
#include "ops/ops.h"

namespace mnn::ops {

using namespace core;

Array matmul(const Array& a, const Array& b, const char* fn) {
  const std::string sig = "gufunc core with signature (n?,k),(k,m?)->(n?,m?)";
  for (int i = 0; i < 2; ++i) {
    const Array& x = i ? b : a;
    if (x.ndim() == 0)
      throw ValueError(api_msg(fn, "matmul: Input operand " + std::to_string(i) +
                                       " does not have enough dimensions (has 0, " + sig + " requires 1)"));
  }
  Array x = a.ndim() == 1 ? reshape(a, {1, a.shape()[0]}, fn) : a;
  Array y = b.ndim() == 1 ? reshape(b, {b.shape()[0], 1}, fn) : b;
  int64_t k1 = x.shape()[x.ndim() - 1], k2 = y.shape()[y.ndim() - 2];
  if (k1 != k2)
    throw ValueError(api_msg(fn, "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                     "signature (n?,k),(k,m?)->(n?,m?) (size " + std::to_string(k2) + " is different from " + std::to_string(k1) +
                                     ")"));
  Shape xb(x.shape().begin(), x.shape().end() - 2), yb(y.shape().begin(), y.shape().end() - 2);
  for (size_t i = 1; i <= std::min(xb.size(), yb.size()); ++i) {
    int64_t p = xb[xb.size() - i], q = yb[yb.size() - i];
    if (p == q || p == 1 || q == 1) continue;
    // numpy's gufunc wording, shapes spelled without spaces and core dims as newaxis
    auto spell = [](const std::vector<std::string>& d) {
      std::string r = "(";
      for (size_t j = 0; j < d.size(); ++j) r += (j ? "," : "") + d[j];
      return r + (d.size() == 1 ? ",)" : ")");
    };
    auto dims = [&](const Array& o, bool remap) {
      std::vector<std::string> d;
      for (int j = 0; j < o.ndim(); ++j)
        d.push_back(remap && j >= o.ndim() - std::min(o.ndim(), 2) ? "newaxis" : std::to_string(o.shape()[j]));
      return d;
    };
    std::vector<std::string> req;
    if (a.ndim() >= 2) req.push_back(std::to_string(x.shape()[x.ndim() - 2]));
    if (b.ndim() >= 2) req.push_back(std::to_string(y.shape()[y.ndim() - 1]));
    throw ValueError(api_msg(fn, "operands could not be broadcast together with remapped shapes "
                                 "[original->remapped]: " + spell(dims(a, false)) + "->" + spell(dims(a, true)) +
                                     " " + spell(dims(b, false)) + "->" + spell(dims(b, true)) +
                                     "  and requested shape " + spell(req)));
  }
  Shape shape = broadcast_shapes(xb, yb, fn);
  shape.push_back(x.shape()[x.ndim() - 2]);
  shape.push_back(y.shape()[y.ndim() - 1]);
  const DType out_dt = promote(a.dtype(), b.dtype());
  // bfloat16 multiplies in float32 (the gemm kernels) and rounds the result once.
  const DType dt = out_dt == DType::BFloat16 ? DType::Float32 : out_dt;
  NodePtr xn = x.node(), yn = y.node();
  if (xn->dtype != dt) xn = make_node(Op::Cast, dt, xn->shape, {xn}, {}, xn->dtype);
  if (yn->dtype != dt) yn = make_node(Op::Cast, dt, yn->shape, {yn}, {}, yn->dtype);
  NodePtr mm = make_node(Op::Matmul, dt, shape, {xn, yn});
  if (dt != out_dt) mm = make_node(Op::Cast, out_dt, shape, {mm}, {}, dt);
  Array r = finish(mm, {&x, &y});
  if (a.ndim() == 1 || b.ndim() == 1) {
    Shape s = shape;
    if (b.ndim() == 1) s.pop_back();
    if (a.ndim() == 1) s.erase(s.end() - (b.ndim() == 1 ? 1 : 2));
    r = reshape(r, s, fn);
  }
  return r;
}

}  // namespace mnn::ops
