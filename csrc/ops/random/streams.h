// numpy's sampling algorithms on its bit generators (bitgen.h): each fill consumes the generator's
// words in exactly the order numpy does, so a seeded stream prints numpy's numbers. Explicitly
// instantiated for MT19937 and PCG64 in streams.cpp. `n` is the element count; outputs are raw
// buffers the binding (python/bind_random.cpp) allocates as mnn arrays.
#pragma once
#include <cstdint>

#include "ops/random/bitgen.h"

namespace mnn::ops::rng {

// Uniform [0, 1): the generator's double (53 bits); float32: (next32 >> 8) * 2^-24.
template <class G> void fill_double(G& g, double* out, int64_t n);
template <class G> void fill_float(G& g, float* out, int64_t n);
// Generator.standard_normal / standard_exponential: 256-level ziggurats (float64 and float32).
template <class G> void fill_normal_zig(G& g, double* out, int64_t n);
template <class G> void fill_normal_zig_f(G& g, float* out, int64_t n);
template <class G> void fill_exp_zig(G& g, double* out, int64_t n);
template <class G> void fill_exp_zig_f(G& g, float* out, int64_t n);
// Generator.standard_exponential(method="inv"): -log1p(-U).
template <class G> void fill_exp_inv(G& g, double* out, int64_t n);
template <class G> void fill_exp_inv_f(G& g, float* out, int64_t n);
// RandomState: polar Box-Muller with the spare value kept in g (legacy_gauss); -log(1 - U).
void fill_legacy_gauss(MT19937& g, double* out, int64_t n);
template <class G> void fill_legacy_exp(G& g, double* out, int64_t n);
// Bounded integers off + [0, rng] written as `bytes`-wide words (1: bool or 8-bit, 2, 4, 8), by
// masked rejection (RandomState) or Lemire's multiply-shift (Generator). Bool: bytes 0.
template <class G> void fill_bounded(G& g, uint64_t off, uint64_t rng, int bytes, bool masked, void* out, int64_t n);
// Per-element bounds (broadcast low/high), word widths as fill_bounded.
template <class G> void fill_bounded_array(G& g, const uint64_t* off, const uint64_t* rng, int bytes, bool masked,
                                           void* out, int64_t n);
// Fisher-Yates (i from n-1 down to 1, j uniform in [0, i]) applied to 0..n-1: the permutation a
// shuffle of n rows applies. masked: numpy's random_interval (used by both shuffles); else Lemire.
template <class G> void shuffle_indices(G& g, int64_t* idx, int64_t n, int64_t first, bool masked);
// Generator.choice(pop, size, replace=False) without p: Floyd's sampling with a hash set (then a
// Lemire shuffle if `shuffle`), or a tail shuffle of 0..pop-1 for large samples, as numpy chooses.
template <class G> void choice_noreplace(G& g, int64_t pop, int64_t size, bool shuffle, int64_t* out);

}  // namespace mnn::ops::rng
