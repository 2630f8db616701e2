// zlib stream encoder (RFC 1950 around RFC 1951 deflate) for the PNG writer, replacing Python's zlib on
// the paths cv2 uses by default. cv2 writes PNG with zlib's Z_RLE strategy at level 1 (matches only at
// distance 1) over Sub-filtered rows (verified: same IDAT size as zlib.compressobj(1, .., Z_RLE) over
// our Sub rows). On a photo most symbols are literals, with a short run every ~14 bytes, so the time
// goes into finding runs, counting symbols and writing Huffman codes. Here:
//  - the matchers (runs, literal-only, a greedy single-probe hash for zlib's fast levels 1-3) describe
//    a block as sequences (a literal run, then one match) pointing into the input; runs are found
//    from 64-position bit masks, without a branch per byte;
//  - each block (up to kBlockSymbols symbols; zlib's memLevel 8 uses 16K) gets the cheapest of
//    dynamic Huffman, fixed Huffman and stored, from exact bit counts, so noise costs at most the
//    stored overhead;
//  - codes go out through a 64-bit accumulator, three or four literals per flush;
//  - with several threads, 512 KB+ stretches are deflated in parallel and joined by sync flushes.
// Levels 4-9 of the default/filtered/fixed strategies (zlib's lazy matching) stay with Python's zlib.
#include <algorithm>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/threadpool.h"
#include "ops/codecs/codecs.h"
#include "ops/codecs/deflate_huffman.h"

namespace mnn::codecs {
namespace {

using deflate::BitWriter;

constexpr int kMinMatch = 3, kMaxMatch = 258;
constexpr uint32_t kWindow = 32768;
constexpr size_t kBlockSymbols = 32767;  // 16383 (zlib's) was 0.3-0.5% larger on photos
constexpr int kLitLenSymbols = 286, kDistSymbols = 30, kCodeLenSymbols = 19;

// A literal run of lit bytes followed by a match of len bytes at distance dist (len 0: no match, the
// block's tail).
struct Seq {
  uint32_t lit;
  uint16_t len;
  uint16_t dist;
};

struct Tables {
  uint8_t len_sym[kMaxMatch + 1];    // match length -> litlen symbol - 257
  uint8_t len_extra[29];             // extra bits per length symbol
  uint16_t len_base[29];
  uint8_t dist_sym_lo[256];          // dist - 1 < 256
  uint8_t dist_sym_hi[256];          // (dist - 1) >> 7 for dist > 256
  uint8_t dist_extra[30];
  uint16_t dist_base[30];
  Tables() {
    int len = 3;
    for (int s = 0; s < 28; ++s) {
      len_extra[s] = static_cast<uint8_t>(s < 8 ? 0 : (s - 4) / 4);
      len_base[s] = static_cast<uint16_t>(len);
      for (int k = 0; k < (1 << len_extra[s]) && len <= kMaxMatch; ++k) len_sym[len++] = static_cast<uint8_t>(s);
    }
    len_extra[28] = 0;
    len_base[28] = 258;
    len_sym[258] = 28;  // 258 has its own symbol (285) rather than 284 with extra bits 31
    int d = 1;
    for (int s = 0; s < 30; ++s) {
      dist_extra[s] = static_cast<uint8_t>(s < 4 ? 0 : (s - 2) / 2);
      dist_base[s] = static_cast<uint16_t>(d);
      for (int k = 0; k < (1 << dist_extra[s]); ++k, ++d) {
        if (d <= 256) dist_sym_lo[d - 1] = static_cast<uint8_t>(s);
        else if (((d - 1) & 127) == 0) dist_sym_hi[(d - 1) >> 7] = static_cast<uint8_t>(s);
      }
    }
  }
  int dist_symbol(int dist) const { return dist <= 256 ? dist_sym_lo[dist - 1] : dist_sym_hi[(dist - 1) >> 7]; }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// ---- matchers: fill seqs and the symbol counts for input[start, end); return where the block ends ----

struct BlockStats {
  uint32_t lit[kLitLenSymbols];
  uint32_t dist[kDistSymbols];
};

// Literal counting with four interleaved tables: consecutive equal bytes would otherwise serialise on
// one counter's store-to-load round trip.
struct LiteralCounter {
  uint32_t h[4][256];
  void clear() { std::memset(h, 0, sizeof(h)); }
  void add(const uint8_t* p, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {  // one load per eight bytes
      uint64_t x;
      std::memcpy(&x, p + i, 8);
      h[0][x & 255]++;
      h[1][(x >> 8) & 255]++;
      h[2][(x >> 16) & 255]++;
      h[3][(x >> 24) & 255]++;
      h[0][(x >> 32) & 255]++;
      h[1][(x >> 40) & 255]++;
      h[2][(x >> 48) & 255]++;
      h[3][x >> 56]++;
    }
    for (; i < n; ++i) h[0][p[i]]++;
  }
  void merge_into(uint32_t* lit) const {
    for (int b = 0; b < 256; ++b) lit[b] += h[0][b] + h[1][b] + h[2][b] + h[3][b];
  }
};

// Length of the run of bytes equal to v starting at p, at most max.
inline size_t run_length(const uint8_t* p, uint8_t v, size_t max) {
  size_t k = 0;
  const uint64_t pattern = 0x0101010101010101ull * v;
  for (; k + 8 <= max; k += 8) {
    uint64_t x;
    std::memcpy(&x, p + k, 8);
    x ^= pattern;
    if (x) return k + (__builtin_ctzll(x) >> 3);
  }
  while (k < max && p[k] == v) ++k;
  return k;
}

// Length of the common prefix of a and b, at most max.
inline size_t match_length(const uint8_t* a, const uint8_t* b, size_t max) {
  size_t k = 0;
  for (; k + 8 <= max; k += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + k, 8);
    std::memcpy(&y, b + k, 8);
    if (x != y) return k + (__builtin_ctzll(x ^ y) >> 3);
  }
  while (k < max && a[k] == b[k]) ++k;
  return k;
}

struct Matcher {
  const uint8_t* data;
  size_t size;
  int mode;  // 0 literals only, 1 runs (distance 1), 2 greedy hash
  int min_len = kMinMatch;
  std::vector<int32_t> head;  // hash -> last position + 1 (0: none)
  LiteralCounter counter;

  static constexpr int kHashBits = 15;

  // Run detection works on 64 positions at a time, as two bit masks over positions c..c+63 (chunks
  // start at 1 + 64k so position c - 1 exists): eq bit j = (data[c+j] == data[c+j-1]) and run bit j =
  // a run of >= 3 bytes equal to data[c+j-1] starts at c+j. Finding the next run and its length are
  // then a shift and a count of trailing zeros; a scan that branched per 16 bytes and per run byte
  // mispredicted about twice per run, and Sub-filtered photos have a run every ~14 bytes.
  size_t chunk = 0;  // base of the cached masks (0: none, chunks start at 1)
  uint64_t eq_mask = 0, run_mask = 0;

  void load_chunk(size_t c) {
    chunk = c;
    eq_mask = run_mask = 0;
#if defined(__SSE2__)
    for (int k = 0; k < 64; k += 16) {
      const uint8_t* p = data + c + k;
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p - 1));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
      const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2));
      const __m128i e = _mm_cmpeq_epi8(a, b);
      const __m128i r = _mm_and_si128(_mm_and_si128(e, _mm_cmpeq_epi8(b, x)), _mm_cmpeq_epi8(x, y));
      eq_mask |= uint64_t(uint16_t(_mm_movemask_epi8(e))) << k;
      run_mask |= uint64_t(uint16_t(_mm_movemask_epi8(r))) << k;
    }
#else
    for (int j = 0; j < 64; ++j) {
      const uint8_t* p = data + c + j;
      const bool e = p[0] == p[-1];
      eq_mask |= uint64_t(e) << j;
      run_mask |= uint64_t(e && p[1] == p[-1] && p[2] == p[-1]) << j;
    }
#endif
  }

  // Next position >= i (and < limit) where a run of at least 3 bytes equal to data[i-1] starts, or limit.
  size_t next_run(size_t i, size_t limit) {
    if (i == 0) i = 1;
    while (i < limit) {
      const size_t c = 1 + ((i - 1) & ~size_t(63));
      if (c + 66 > size) break;  // the masks read data[c - 1 .. c + 65]
      if (c != chunk) load_chunk(c);
      const uint64_t bits = run_mask >> (i - c);
      if (bits) return std::min(limit, i + __builtin_ctzll(bits));
      i = c + 64;
    }
    for (; i < limit && i + 3 <= size; ++i)
      if (data[i] == data[i - 1] && data[i + 1] == data[i - 1] && data[i + 2] == data[i - 1]) return i;
    return limit;
  }

  // Length of the run of data[at - 1] starting at a position next_run returned (>= 3, <= 258).
  size_t run_at(size_t at) const {
    const size_t max = std::min<size_t>(kMaxMatch, size - at);
    if (chunk && at >= chunk && at < chunk + 64) {
      const size_t off = at - chunk;
      const uint64_t breaks = ~(eq_mask >> off);  // bit k: data[at+k] differs from the byte before it
      const size_t k = breaks ? __builtin_ctzll(breaks) : 64;
      if (k < 64 - off) return std::min(k, max);
    }
    return run_length(data + at, data[at - 1], max);
  }

  // Tokenizes from start until kBlockSymbols symbols or the input's end; returns the end position.
  // seqs has room for kBlockSymbols + 1 entries; *nseq gets how many were written.
  size_t block(size_t start, Seq* seqs, size_t* nseq, BlockStats& st) {
    const Tables& T = tables();
    std::memset(&st, 0, sizeof(st));
    counter.clear();
    // Runs (mode 1) cover bytes all equal to the byte before them: rather than counting the literals
    // between runs piecemeal (a short, unpredictable loop per run), count the whole block once and
    // take the runs' bytes back out.
    uint32_t run_bytes[256];
    if (mode == 1) std::memset(run_bytes, 0, sizeof(run_bytes));
    size_t pos = start, lit_start = start, symbols = 0, ns = 0;
    auto add_match = [&](size_t at, size_t len, size_t dist) {
      if (mode == 1) run_bytes[data[at - 1]] += static_cast<uint32_t>(len);
      else counter.add(data + lit_start, at - lit_start);
      symbols += at - lit_start + 1;
      seqs[ns++] = {static_cast<uint32_t>(at - lit_start), static_cast<uint16_t>(len), static_cast<uint16_t>(dist)};
      st.lit[257 + T.len_sym[len]]++;
      if (mode != 1) st.dist[T.dist_symbol(static_cast<int>(dist))]++;  // runs: counted below
      lit_start = pos = at + len;
    };
    while (pos < size) {
      // literals allowed before the block is full
      const size_t room = kBlockSymbols - symbols - (pos - lit_start);
      if (room == 0) break;
      const size_t limit = std::min(size, pos + room);
      if (mode == 0) {
        pos = limit;
      } else if (mode == 1) {
        const size_t at = next_run(pos, limit);
        if (at >= limit) {
          pos = limit;
          continue;
        }
        const size_t len = run_at(at);
        add_match(at, len, 1);
      } else {
        // positions from scan_end on have fewer than 4 bytes left: literals
        const size_t scan_end = std::min(limit, size >= 4 ? size - 3 : 0);
        size_t at = pos, len = 0, dist = 0;
        for (; at < scan_end; ++at) {
          uint32_t x;
          std::memcpy(&x, data + at, 4);
          const uint32_t h = (x * 2654435761u) >> (32 - kHashBits);
          const int64_t cand = int64_t(head[h]) - 1;
          head[h] = static_cast<int32_t>(at + 1);
          if (cand < 0 || at - cand > kWindow) continue;
          uint32_t y;
          std::memcpy(&y, data + cand, 4);
          if (x != y) continue;
          len = 4 + match_length(data + cand + 4, data + at + 4, std::min<size_t>(kMaxMatch, size - at) - 4);
          if (len >= static_cast<size_t>(min_len)) {
            dist = at - cand;
            break;
          }
        }
        if (dist == 0) {
          pos = limit;
          continue;
        }
        add_match(at, len, dist);
        // index the match's last positions so a repeat of what follows can find it
        for (size_t k = std::max(at + 1, pos > 2 ? pos - 2 : 0); k + 4 <= size && k < pos; ++k) {
          uint32_t x;
          std::memcpy(&x, data + k, 4);
          head[(x * 2654435761u) >> (32 - kHashBits)] = static_cast<int32_t>(k + 1);
        }
      }
    }
    if (pos > lit_start) {
      if (mode != 1) counter.add(data + lit_start, pos - lit_start);
      seqs[ns++] = {static_cast<uint32_t>(pos - lit_start), 0, 0};
    }
    if (mode == 1) counter.add(data + start, pos - start);
    counter.merge_into(st.lit);
    if (mode == 1) {
      for (int b = 0; b < 256; ++b) st.lit[b] -= run_bytes[b];
      st.dist[0] = static_cast<uint32_t>(ns - (pos > lit_start));  // one distance-1 code per run
    }
    *nseq = ns;
    st.lit[256] = 1;  // end of block
    return pos;
  }
};

// ---- block writers ----

struct Code {
  uint8_t lit_len[kLitLenSymbols + 2];
  uint8_t dist_len[kDistSymbols + 2];
  uint16_t lit_code[kLitLenSymbols + 2];
  uint16_t dist_code[kDistSymbols + 2];
  uint32_t lit_packed[256];      // literal: code | length << 16
  uint32_t match_packed[kMaxMatch + 1];  // length symbol code + extra bits, (bits | nbits << 24) (<= 20 bits)
  void pack() {
    const Tables& T = tables();
    for (int b = 0; b < 256; ++b) lit_packed[b] = lit_code[b] | (uint32_t(lit_len[b]) << 16);
    for (int len = kMinMatch; len <= kMaxMatch; ++len) {
      const int s = T.len_sym[len];
      const uint32_t extra = len - T.len_base[s];
      match_packed[len] = (lit_code[257 + s] | (extra << lit_len[257 + s])) |
                          (uint32_t(lit_len[257 + s] + T.len_extra[s]) << 24);
    }
  }
};

const Code& fixed_code() {
  static const Code code = [] {
    Code c{};
    for (int s = 0; s < 288 && s < kLitLenSymbols + 2; ++s) c.lit_len[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    for (int s = 0; s < kDistSymbols + 2; ++s) c.dist_len[s] = 5;
    deflate::canonical_codes(c.lit_len, kLitLenSymbols + 2, c.lit_code);
    deflate::canonical_codes(c.dist_len, kDistSymbols + 2, c.dist_code);
    c.pack();
    return c;
  }();
  return code;
}

// Bits of the block's symbols (excluding its header) under a code.
uint64_t body_bits(const BlockStats& st, const uint8_t* lit_len, const uint8_t* dist_len) {
  const Tables& T = tables();
  uint64_t bits = 0;
  for (int s = 0; s < 257; ++s) bits += uint64_t(st.lit[s]) * lit_len[s];
  for (int s = 0; s < 29; ++s) bits += uint64_t(st.lit[257 + s]) * (lit_len[257 + s] + T.len_extra[s]);
  for (int s = 0; s < kDistSymbols; ++s) bits += uint64_t(st.dist[s]) * (dist_len[s] + T.dist_extra[s]);
  return bits;
}

constexpr uint8_t kCodeLenOrder[kCodeLenSymbols] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// A dynamic block's header: the two code length sequences run-length coded with symbols 16/17/18.
struct DynamicHeader {
  int hlit = 257, hdist = 1, hclen = 4;
  std::vector<uint16_t> items;  // symbol | extra value << 5
  uint8_t cl_len[kCodeLenSymbols];
  uint16_t cl_code[kCodeLenSymbols];
  uint64_t bits = 0;

  void build(const Code& c) {
    hlit = kLitLenSymbols;
    while (hlit > 257 && !c.lit_len[hlit - 1]) --hlit;
    hdist = kDistSymbols;
    while (hdist > 1 && !c.dist_len[hdist - 1]) --hdist;
    uint8_t all[kLitLenSymbols + kDistSymbols];
    std::memcpy(all, c.lit_len, hlit);
    std::memcpy(all + hlit, c.dist_len, hdist);
    const int n = hlit + hdist;
    items.clear();
    uint32_t freq[kCodeLenSymbols] = {0};
    for (int i = 0; i < n;) {
      const uint8_t v = all[i];
      int r = 1;
      while (i + r < n && all[i + r] == v) ++r;
      i += r;
      if (v == 0) {
        while (r >= 11) {
          const int k = std::min(r, 138);
          items.push_back(static_cast<uint16_t>(18 | (k - 11) << 5));
          freq[18]++;
          r -= k;
        }
        if (r >= 3) {
          items.push_back(static_cast<uint16_t>(17 | (r - 3) << 5));
          freq[17]++;
          r = 0;
        }
      } else {
        items.push_back(v);  // the first one literally, then repeats of it
        freq[v]++;
        --r;
        while (r >= 3) {
          const int k = std::min(r, 6);
          items.push_back(static_cast<uint16_t>(16 | (k - 3) << 5));
          freq[16]++;
          r -= k;
        }
      }
      for (; r > 0; --r) {
        items.push_back(v);
        freq[v]++;
      }
    }
    deflate::build_code_lengths(freq, kCodeLenSymbols, 7, cl_len);
    deflate::canonical_codes(cl_len, kCodeLenSymbols, cl_code);
    hclen = kCodeLenSymbols;
    while (hclen > 4 && !cl_len[kCodeLenOrder[hclen - 1]]) --hclen;
    bits = 5 + 5 + 4 + 3 * hclen;
    for (int s = 0; s < kCodeLenSymbols; ++s) bits += uint64_t(freq[s]) * cl_len[s];
    bits += 2 * freq[16] + 3 * freq[17] + 7 * freq[18];
  }

  void write(BitWriter& bw) const {
    bw.put(hlit - 257, 5);
    bw.put(hdist - 1, 5);
    bw.put(hclen - 4, 4);
    bw.flush();
    for (int i = 0; i < hclen; ++i) {
      bw.put(cl_len[kCodeLenOrder[i]], 3);
      if (i % 8 == 7) bw.flush();
    }
    bw.flush();
    static const uint8_t kExtra[3] = {2, 3, 7};
    for (uint16_t it : items) {
      const int s = it & 31;
      bw.put(cl_code[s], cl_len[s]);
      if (s >= 16) bw.put(it >> 5, kExtra[s - 16]);
      bw.flush();
    }
  }
};

// kQuad: every literal code is <= 14 bits, so four fit after a flush (7 + 56 bits pending), else three.
// data_end: where the input ends (literal groups may read up to 3 bytes past a run, never past this).
template <bool kQuad>
void write_symbols(BitWriter& out, const Code& c, const uint8_t* data, const uint8_t* data_end, const Seq* seqs,
                   size_t nseq) {
  const Tables& T = tables();
  BitWriter bw = out;  // a local copy stays in registers (through a reference every put is a store + load)
  const uint8_t* p = data;
  constexpr int kStep = kQuad ? 4 : 3;
  for (size_t i = 0; i < nseq; ++i) {
    const Seq& q = seqs[i];
    const uint8_t* end = p + q.lit;
    for (; end - p > kStep; p += kStep) {
      const uint32_t a = c.lit_packed[p[0]], b = c.lit_packed[p[1]], d = c.lit_packed[p[2]];
      bw.put(a & 0xFFFF, a >> 16);
      bw.put(b & 0xFFFF, b >> 16);
      bw.put(d & 0xFFFF, d >> 16);
      if constexpr (kQuad) {
        const uint32_t e = c.lit_packed[p[3]];
        bw.put(e & 0xFFFF, e >> 16);
      }
      bw.flush();
    }
    // The last 1..kStep literals as one group, the slots past the run sending nothing (length 0):
    // no loop whose trip count changes from run to run (runs are short between RLE matches).
    if (p < end && end + kStep <= data_end) {
      for (int k = 0; k < kStep; ++k) {
        const uint32_t e = p + k < end ? c.lit_packed[p[k]] : 0;
        bw.put(e & 0xFFFF, e >> 16);
      }
      p = end;
    }
    for (; p < end; ++p) {
      const uint32_t a = c.lit_packed[*p];
      bw.put(a & 0xFFFF, a >> 16);
    }
    bw.flush();
    if (q.len) {
      const uint32_t m = c.match_packed[q.len];
      bw.put(m & 0xFFFFFF, m >> 24);
      const int ds = T.dist_symbol(q.dist);
      bw.put(c.dist_code[ds] | (uint32_t(q.dist - T.dist_base[ds]) << c.dist_len[ds]),
             c.dist_len[ds] + T.dist_extra[ds]);
      bw.flush();
      p += q.len;
    }
  }
  bw.put(c.lit_code[256], c.lit_len[256]);
  bw.flush();
  out = bw;
}

void write_symbols(BitWriter& bw, const Code& c, const uint8_t* data, const uint8_t* data_end, const Seq* seqs,
                   size_t nseq) {
  if (*std::max_element(c.lit_len, c.lit_len + 256) <= 14) write_symbols<true>(bw, c, data, data_end, seqs, nseq);
  else write_symbols<false>(bw, c, data, data_end, seqs, nseq);
}

void write_stored(BitWriter& bw, const uint8_t* p, size_t n, bool final) {
  do {
    const size_t k = std::min<size_t>(n, 65535);
    n -= k;
    bw.put((final && n == 0) ? 1 : 0, 3);
    bw.align();
    const uint8_t hdr[4] = {uint8_t(k), uint8_t(k >> 8), uint8_t(~k), uint8_t(~k >> 8)};
    std::memcpy(bw.out, hdr, 4);
    std::memcpy(bw.out + 4, p, k);
    bw.out += 4 + k;
    p += k;
  } while (n);
}

uint64_t stored_bits(size_t n, int pending_bits) {
  const size_t blocks = n ? (n + 65534) / 65535 : 1;
  // the first header pads from the current bit position, later ones start aligned
  return 3 + ((8 - (pending_bits + 3) % 8) % 8) + (blocks - 1) * 8 + 32 * blocks + 8 * uint64_t(n);
}


// Deflates data[begin, end) (data[0, begin) is already in the decoder's window) as blocks onto bw;
// the last block is final when `last`.
void deflate_range(const uint8_t* data, size_t begin, size_t end, size_t total, int strategy, bool last,
                   BitWriter& bw) {
  Matcher m{data, end, strategy == kStrategyHuffmanOnly ? 0 : strategy == kStrategyRle ? 1 : 2};
  if (m.mode == 2) m.head.assign(size_t(1) << Matcher::kHashBits, 0);
  const bool force_fixed = strategy == kStrategyFixed;
  // a block holds at most one sequence per input byte (+ the tail), so small images need little
  std::vector<Seq> seqs(std::min(kBlockSymbols, end - begin) + 1);
  size_t nseq = 0;
  BlockStats st;
  Code dyn;
  DynamicHeader hdr;
  size_t pos = begin;
  do {
    const size_t stop = m.block(pos, seqs.data(), &nseq, st);
    const bool final = last && stop >= end;
    const Code& fx = fixed_code();
    const uint64_t fixed_bits = 3 + body_bits(st, fx.lit_len, fx.dist_len);
    uint64_t dyn_bits = ~uint64_t(0);
    if (!force_fixed) {
      deflate::build_code_lengths(st.lit, kLitLenSymbols, 15, dyn.lit_len);
      deflate::build_code_lengths(st.dist, kDistSymbols, 15, dyn.dist_len);
      hdr.build(dyn);
      dyn_bits = 3 + hdr.bits + body_bits(st, dyn.lit_len, dyn.dist_len);
    }
    const uint64_t raw_bits = stored_bits(stop - pos, bw.count);
    if (raw_bits <= fixed_bits && raw_bits <= dyn_bits) {
      write_stored(bw, data + pos, stop - pos, final);
    } else if (fixed_bits <= dyn_bits) {
      bw.put(final ? 3 : 2, 3);  // BTYPE 01, LSB first
      write_symbols(bw, fx, data + pos, data + total, seqs.data(), nseq);
    } else {
      deflate::canonical_codes(dyn.lit_len, kLitLenSymbols, dyn.lit_code);
      deflate::canonical_codes(dyn.dist_len, kDistSymbols, dyn.dist_code);
      dyn.pack();
      bw.put(final ? 5 : 4, 3);  // BTYPE 10
      hdr.write(bw);
      write_symbols(bw, dyn, data + pos, data + total, seqs.data(), nseq);
    }
    pos = stop;
  } while (pos < end);
}

// Threads deflate separate stretches of the input (pigz's scheme): each ends on a byte boundary with
// an empty stored block (a zlib sync flush, 5 bytes), so the pieces concatenate into one stream.
// Matches never reach into an earlier stretch except the distance-1 runs at its start, which is fine:
// the decoder has every earlier byte.
constexpr size_t kMinStretch = size_t(1) << 19;
constexpr int kMaxStretches = 64;

}  // namespace

size_t zlib_bound(size_t n) {
  // Every block is written as the cheapest of its encodings, never above stored: n bytes plus 5 per
  // 64K piece, plus per-block padding, plus the 2-byte header and 4-byte checksum, plus the sync
  // flushes between threads' stretches, plus slack for the bit writer's 8-byte stores.
  return n + 5 * (n / 65535 + 1) + 6 * (n / kBlockSymbols + 1) + 16 * kMaxStretches + 64;
}

bool zlib_native(int level, int strategy) {
  return level == 0 || strategy == kStrategyRle || strategy == kStrategyHuffmanOnly || level <= 3;
}

size_t zlib_compress(const uint8_t* data, size_t n, int level, int strategy, uint8_t* out) {
  if (!zlib_native(level, strategy)) throw CodecError("zlib_compress: level/strategy not handled natively");
  // RFC 1950 header: deflate, 32K window, FLEVEL as zlib writes it (0 fastest .. 3 best), FCHECK.
  const int flevel = (strategy >= kStrategyHuffmanOnly || level < 2) ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  const int cmf = 0x78;
  int flg = flevel << 6;
  flg += (31 - (cmf * 256 + flg) % 31) % 31;
  out[0] = static_cast<uint8_t>(cmf);
  out[1] = static_cast<uint8_t>(flg);
  BitWriter bw(out + 2);
  const int stretches =
      level == 0 ? 1 : static_cast<int>(std::clamp<size_t>(std::min<size_t>(core::get_num_threads(), n / kMinStretch), 1, kMaxStretches));
  if (level == 0) {
    write_stored(bw, data, n, true);
  } else if (stretches == 1) {
    deflate_range(data, 0, n, n, strategy, true, bw);
  } else {
    // stretch 0 writes straight into out; the others into their own buffers, copied after it
    std::vector<std::vector<uint8_t>> bufs(stretches);
    std::vector<size_t> sizes(stretches);
    core::parallel_for(stretches, 1, [&](int64_t k0, int64_t k1) {
      for (int64_t k = k0; k < k1; ++k) {
        const size_t b = n * k / stretches, e = n * (k + 1) / stretches;
        const bool last = k == stretches - 1;
        uint8_t* dst = out + 2;
        if (k > 0) {
          bufs[k].resize(zlib_bound(e - b));
          dst = bufs[k].data();
        }
        BitWriter w(dst);
        deflate_range(data, b, e, n, strategy, last, w);
        if (!last) {
          w.put(0, 3);  // empty non-final stored block: byte-aligns the stretch's end
          w.align();
          const uint8_t sync[4] = {0, 0, 0xFF, 0xFF};
          std::memcpy(w.out, sync, 4);
          w.out += 4;
        }
        w.align();  // the final stretch's last bits
        sizes[k] = static_cast<size_t>(w.out - dst);
      }
    });
    bw.out = out + 2 + sizes[0];
    for (int k = 1; k < stretches; ++k) {
      std::memcpy(bw.out, bufs[k].data(), sizes[k]);
      bw.out += sizes[k];
    }
  }
  bw.align();
  const uint32_t adler = adler32_update(1, data, n);
  const uint8_t tail[4] = {uint8_t(adler >> 24), uint8_t(adler >> 16), uint8_t(adler >> 8), uint8_t(adler)};
  std::memcpy(bw.out, tail, 4);
  return static_cast<size_t>(bw.out + 4 - out);
}

}  // namespace mnn::codecs
