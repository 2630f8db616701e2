// numpy's two bit generators, written from their published definitions so seeded streams match
// numpy's bit for bit (mnn.numpy.random):
//   - MT19937: Matsumoto & Nishimura, "Mersenne Twister" (ACM TOMACS 1998), with the reference
//     init_genrand / init_by_array seeding; numpy's 64-bit word is (first << 32) | second and its
//     double is the reference genrand_res53 (27 + 26 bits of two words).
//   - PCG64: O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically Good Algorithms"
//     (2014): a 128-bit LCG with the XSL-RR output, the state stepped before the output is taken.
//     numpy hands out 32-bit words as the low then the high half of one 64-bit word, keeping the
//     high half in (has_uint32, uinteger), which is part of the state.
// Both are plain structs: the Python classes own one and the fills (streams.h) advance it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mnn::ops::rng {

using u128 = unsigned __int128;

struct MT19937 {
  static constexpr int kN = 624, kM = 397;
  uint32_t key[kN] = {};
  int pos = kN;
  // The legacy Gaussian's spare value (RandomState keeps it with the generator state).
  int has_gauss = 0;
  double gauss = 0.0;

  void seed(uint32_t s) {  // reference init_genrand
    key[0] = s;
    for (int i = 1; i < kN; ++i) key[i] = 1812433253u * (key[i - 1] ^ (key[i - 1] >> 30)) + static_cast<uint32_t>(i);
    pos = kN;
    has_gauss = 0;
    gauss = 0.0;
  }
  void init_by_array(const uint32_t* init, size_t len) {  // reference init_by_array
    seed(19650218u);
    int i = 1;
    size_t j = 0;
    for (size_t k = (static_cast<size_t>(kN) > len ? kN : len); k; --k) {
      key[i] = (key[i] ^ ((key[i - 1] ^ (key[i - 1] >> 30)) * 1664525u)) + init[j] + static_cast<uint32_t>(j);
      ++i;
      ++j;
      if (i >= kN) {
        key[0] = key[kN - 1];
        i = 1;
      }
      if (j >= len) j = 0;
    }
    for (int k = kN - 1; k; --k) {
      key[i] = (key[i] ^ ((key[i - 1] ^ (key[i - 1] >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
      ++i;
      if (i >= kN) {
        key[0] = key[kN - 1];
        i = 1;
      }
    }
    key[0] = 0x80000000u;  // non-zero initial state
    pos = kN;
  }
  void generate() {
    constexpr uint32_t kUpper = 0x80000000u, kLower = 0x7fffffffu, kMatrix = 0x9908b0dfu;
    int i = 0;
    uint32_t y;
    for (; i < kN - kM; ++i) {
      y = (key[i] & kUpper) | (key[i + 1] & kLower);
      key[i] = key[i + kM] ^ (y >> 1) ^ (-(y & 1u) & kMatrix);
    }
    for (; i < kN - 1; ++i) {
      y = (key[i] & kUpper) | (key[i + 1] & kLower);
      key[i] = key[i + (kM - kN)] ^ (y >> 1) ^ (-(y & 1u) & kMatrix);
    }
    y = (key[kN - 1] & kUpper) | (key[0] & kLower);
    key[kN - 1] = key[kM - 1] ^ (y >> 1) ^ (-(y & 1u) & kMatrix);
    pos = 0;
  }
  uint32_t next32() {
    if (pos == kN) generate();
    uint32_t y = key[pos++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }
  uint64_t next64() {
    uint64_t hi = next32();
    return (hi << 32) | next32();
  }
  double next_double() {
    int32_t a = static_cast<int32_t>(next32() >> 5), b = static_cast<int32_t>(next32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
};

struct PCG64 {
  // PCG's default 128-bit multiplier.
  static constexpr u128 kMult = (static_cast<u128>(2549297995355413924ULL) << 64) | 4865540595714422341ULL;
  u128 state = 0, inc = 1;
  int has_uint32 = 0;
  uint32_t uinteger = 0;

  void seed(u128 initstate, u128 initseq) {  // pcg_setseq_128_srandom_r
    state = 0;
    inc = (initseq << 1) | 1u;
    step();
    state += initstate;
    step();
    has_uint32 = 0;
    uinteger = 0;
  }
  void step() { state = state * kMult + inc; }
  static uint64_t output(u128 s) {  // XSL-RR: xor the halves, rotate right by the top 6 bits
    uint64_t v = static_cast<uint64_t>(s >> 64) ^ static_cast<uint64_t>(s);
    unsigned rot = static_cast<unsigned>(s >> 122);
    return (v >> rot) | (v << ((-rot) & 63u));
  }
  uint64_t next64() {
    step();
    return output(state);
  }
  uint32_t next32() {
    if (has_uint32) {
      has_uint32 = 0;
      return uinteger;
    }
    uint64_t v = next64();
    has_uint32 = 1;
    uinteger = static_cast<uint32_t>(v >> 32);
    return static_cast<uint32_t>(v);
  }
  double next_double() { return static_cast<double>(next64() >> 11) * (1.0 / 9007199254740992.0); }
  // Jump delta steps in O(log delta) (Brown, "Random number generation with arbitrary strides", 1994).
  void advance(u128 delta) {
    u128 acc_mult = 1, acc_plus = 0, cur_mult = kMult, cur_plus = inc;
    while (delta) {
      if (delta & 1u) {
        acc_mult *= cur_mult;
        acc_plus = acc_plus * cur_mult + cur_plus;
      }
      cur_plus = (cur_mult + 1) * cur_plus;
      cur_mult *= cur_mult;
      delta >>= 1;
    }
    state = acc_mult * state + acc_plus;
  }
};

}  // namespace mnn::ops::rng
