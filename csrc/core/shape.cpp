#include "core/shape.h"

#include "core/error.h"

namespace mnn::core {

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

Strides contiguous_strides(const Shape& s) {
  Strides st(s.size());
  int64_t acc = 1;
  for (int i = static_cast<int>(s.size()) - 1; i >= 0; --i) {
    st[i] = acc;
    acc *= std::max<int64_t>(s[i], 1);
  }
  return st;
}

bool is_contiguous(const Shape& s, const Strides& st) {
  int64_t acc = 1;
  for (int i = static_cast<int>(s.size()) - 1; i >= 0; --i) {
    if (s[i] == 0) return true;
    if (s[i] != 1 && st[i] != acc) return false;
    acc *= s[i];
  }
  return true;
}

std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) r += ", ";
    r += std::to_string(s[i]);
  }
  if (s.size() == 1) r += ",";
  return r + ")";
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* fn) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw ValueError(api_msg(fn, "operands could not be broadcast together with shapes " +
                                       shape_str(a) + " " + shape_str(b)));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Strides broadcast_strides(const Shape& from, const Strides& st, const Shape& to) {
  Strides out(to.size(), 0);
  size_t off = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) out[off + i] = from[i] == 1 ? 0 : st[i];
  return out;
}

int normalize_axis(int64_t axis, int ndim, const char* fn) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError(api_msg(fn, "axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                                    std::to_string(ndim)));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

}  // namespace mnn::core
