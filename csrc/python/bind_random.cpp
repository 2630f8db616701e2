// Bindings for mnn.numpy.random's numpy-exact streams (ops/random/bitgen.h, streams.h): the two
// bit generators as small state objects, and eager fills that return new mnn arrays. The state
// objects are mutated under the GIL (numpy's generators likewise serialise draws on one object).
#include <pybind11/stl.h>

#include "core/array.h"
#include "core/error.h"
#include "core/node.h"
#include "ops/random/streams.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {
namespace {

using core::Array;
using core::DType;
using core::Shape;
namespace rng = ops::rng;

template <class Fill>
Array filled(const Shape& shape, DType dt, Fill&& fill) {
  core::NodePtr n = core::make_empty(dt, shape);
  fill(n->buffer->data(), core::numel(shape));
  return Array::from_node(n);
}

rng::u128 join128(uint64_t hi, uint64_t lo) { return (static_cast<rng::u128>(hi) << 64) | lo; }

template <class G>
void bind_fills(py::class_<G>& c) {
  c.def("next64", [](G& g) { return g.next64(); });
  c.def("next32", [](G& g) { return g.next32(); });
  c.def("next_double", [](G& g) { return g.next_double(); });
  c.def("random", [](G& g, const Shape& s, bool f32) {
    if (f32) return filled(s, DType::Float32, [&](char* p, int64_t n) { rng::fill_float(g, reinterpret_cast<float*>(p), n); });
    return filled(s, DType::Float64, [&](char* p, int64_t n) { rng::fill_double(g, reinterpret_cast<double*>(p), n); });
  });
  c.def("normal_zig", [](G& g, const Shape& s, bool f32) {
    if (f32)
      return filled(s, DType::Float32, [&](char* p, int64_t n) { rng::fill_normal_zig_f(g, reinterpret_cast<float*>(p), n); });
    return filled(s, DType::Float64, [&](char* p, int64_t n) { rng::fill_normal_zig(g, reinterpret_cast<double*>(p), n); });
  });
  c.def("exp_zig", [](G& g, const Shape& s, bool f32) {
    if (f32)
      return filled(s, DType::Float32, [&](char* p, int64_t n) { rng::fill_exp_zig_f(g, reinterpret_cast<float*>(p), n); });
    return filled(s, DType::Float64, [&](char* p, int64_t n) { rng::fill_exp_zig(g, reinterpret_cast<double*>(p), n); });
  });
  c.def("exp_inv", [](G& g, const Shape& s, bool f32) {
    if (f32)
      return filled(s, DType::Float32, [&](char* p, int64_t n) { rng::fill_exp_inv_f(g, reinterpret_cast<float*>(p), n); });
    return filled(s, DType::Float64, [&](char* p, int64_t n) { rng::fill_exp_inv(g, reinterpret_cast<double*>(p), n); });
  });
  c.def("legacy_exp", [](G& g, const Shape& s) {
    return filled(s, DType::Float64, [&](char* p, int64_t n) { rng::fill_legacy_exp(g, reinterpret_cast<double*>(p), n); });
  });
  // off and rng as uint64 bit patterns; the output dtype picks the word width (bool: 1 bit).
  c.def("bounded", [](G& g, uint64_t off, uint64_t range, const Shape& s, int code, bool masked) {
    DType dt = static_cast<DType>(code);
    int bytes = dt == DType::Bool ? 0 : static_cast<int>(core::itemsize(dt));
    return filled(s, dt, [&](char* p, int64_t n) { rng::fill_bounded(g, off, range, bytes, masked, p, n); });
  });
  c.def("bounded_array", [](G& g, const std::vector<uint64_t>& off, const std::vector<uint64_t>& range,
                            const Shape& s, int code, bool masked) {
    int64_t n = core::numel(s);
    if (static_cast<int64_t>(off.size()) != n || static_cast<int64_t>(range.size()) != n)
      throw core::ValueError("[mnn.numpy.random] bounds do not match the output size");
    DType dt = static_cast<DType>(code);
    int bytes = dt == DType::Bool ? 0 : static_cast<int>(core::itemsize(dt));
    return filled(s, dt, [&](char* p, int64_t m) {
      rng::fill_bounded_array(g, off.data(), range.data(), bytes, masked, p, m);
    });
  });
  c.def("shuffled_indices", [](G& g, int64_t n, bool masked) {
    return filled({n}, DType::Int64, [&](char* p, int64_t m) {
      auto* idx = reinterpret_cast<int64_t*>(p);
      for (int64_t i = 0; i < m; ++i) idx[i] = i;
      rng::shuffle_indices(g, idx, m, 1, masked);
    });
  });
  c.def("choice_noreplace", [](G& g, int64_t pop, int64_t size, bool shuffle) {
    return filled({size}, DType::Int64, [&](char* p, int64_t) {
      rng::choice_noreplace(g, pop, size, shuffle, reinterpret_cast<int64_t*>(p));
    });
  });
}

}  // namespace

void bind_random(py::module_& m) {
  py::class_<rng::MT19937> mt(m, "MT19937State");
  mt.def(py::init<>())
      .def("seed", &rng::MT19937::seed)
      .def("init_by_array", [](rng::MT19937& g, const std::vector<uint32_t>& key) {
        g.init_by_array(key.data(), key.size());
      })
      .def("get_key", [](const rng::MT19937& g) { return std::vector<uint32_t>(g.key, g.key + rng::MT19937::kN); })
      .def("set_key", [](rng::MT19937& g, const std::vector<uint32_t>& key, int pos) {
        if (key.size() != static_cast<size_t>(rng::MT19937::kN) || pos < 0 || pos > rng::MT19937::kN)
          throw core::ValueError("[mnn.numpy.random.MT19937] state must be 624 words and a position in [0, 624]");
        std::copy(key.begin(), key.end(), g.key);
        g.pos = pos;
      })
      .def_readwrite("pos", &rng::MT19937::pos)
      .def_readwrite("has_gauss", &rng::MT19937::has_gauss)
      .def_readwrite("gauss", &rng::MT19937::gauss)
      .def("legacy_gauss", [](rng::MT19937& g, const Shape& s) {
        return filled(s, DType::Float64, [&](char* p, int64_t n) { rng::fill_legacy_gauss(g, reinterpret_cast<double*>(p), n); });
      });
  bind_fills(mt);

  py::class_<rng::PCG64> pcg(m, "PCG64State");
  pcg.def(py::init<>())
      .def("seed", [](rng::PCG64& g, uint64_t s_hi, uint64_t s_lo, uint64_t i_hi, uint64_t i_lo) {
        g.seed(join128(s_hi, s_lo), join128(i_hi, i_lo));
      })
      .def("get", [](const rng::PCG64& g) {
        return py::make_tuple(static_cast<uint64_t>(g.state >> 64), static_cast<uint64_t>(g.state),
                              static_cast<uint64_t>(g.inc >> 64), static_cast<uint64_t>(g.inc), g.has_uint32,
                              g.uinteger);
      })
      .def("set", [](rng::PCG64& g, uint64_t s_hi, uint64_t s_lo, uint64_t i_hi, uint64_t i_lo, int has_uint32,
                     uint32_t uinteger) {
        g.state = join128(s_hi, s_lo);
        g.inc = join128(i_hi, i_lo);
        g.has_uint32 = has_uint32 ? 1 : 0;
        g.uinteger = uinteger;
      })
      .def("advance", [](rng::PCG64& g, uint64_t hi, uint64_t lo) { g.advance(join128(hi, lo)); });
  bind_fills(pcg);
}

}  // namespace mnn::py_bind
