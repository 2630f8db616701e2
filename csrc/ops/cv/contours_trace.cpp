// Suzuki & Abe border following, step for step as cv2 4.x does it, so the contours, their starting
// points, their order and the hierarchy equal cv2's:
// - the image is thresholded to 0/1 inside a zero frame one pixel wide (cv2's copyMakeBorder);
// - a raster scan starts an outer border at a 0 -> 1 step and a hole border at a (positive) -> 0
//   step; traced pixels are marked positive, or negative where the tracer examined their (zero)
//   right neighbour, and LNBD (the label of the last marked pixel met on the row) gives the parent;
// - the scan runs over one value per pixel (0, 1, +label, -label: cv2's signs) and skips runs of
//   equal values 32 bytes at a time (SSE2; else 8). RETR_TREE and RETR_CCOMP keep each border's
//   label in its marks (int16 pixels, int32 when there are more than 32765 borders), so the
//   parent is read off the LNBD pixel itself: a separate label plane cost a cache miss per traced
//   pixel. LIST and EXTERNAL need no parents and mark every border with 2 in int8 pixels;
// - RETR_EXTERNAL traces only outer borders whose LNBD pixel is not positive, LIST and EXTERNAL
//   mark every border with the same label (they need no parents);
// - each new contour becomes the first child of its parent, and the output is the depth-first walk
//   of that tree (so siblings come newest first, as from cv2's cvInsertNodeIntoTree).
// cv2 stores labels in 7 bits and disambiguates collisions geometrically; int32 labels need not.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ops/cv/contours.h"

namespace mnn::ops::contours {

namespace {

// Freeman directions: 0 right, 1 up-right, 2 up, 3 up-left, 4 left, 5 down-left, 6 down, 7 down-right.
constexpr int kDx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kDy[8] = {0, -1, -1, -1, 0, 1, 1, 1};

// The rows of the framed plane made so far (binarize_rows), extended on demand: the scan and the
// tracer ask for rows just below where they are, so the plane is made a few rows ahead of the
// scan and read back while still cached. Binarized whole first, a 1080p plane (4 MB of int16)
// had left the L2 before its top rows were scanned, and each traced step into another row
// waited on an L3 miss. Tracing alone (1080p photo, thread time, loaded host): TREE min
// 2.4-2.7 -> 2.0-2.2 ms, LIST 2.0-2.1 -> 1.5-1.6 ms.
struct LazyRows {
  // The plane's rows 1..ready are made (row 0 and row h + 1, the frame, are cleared up front).
  int64_t ready = 0;
  int64_t h = 0;
  void (*make)(LazyRows&, int64_t upto) = nullptr;  // makes rows ready+1..upto (upto <= h)
  const uint8_t* img = nullptr;
  int64_t w = 0, stride = 0;
  void* f = nullptr;
  // Rows up to `row` (at least) ready; returns the new `ready`, past which a caller asks again.
  int64_t need(int64_t row) {
    if (row > ready && ready < h) make(*this, std::min(h, std::max(row, ready + kChunk)));
    return ready < h ? ready : std::numeric_limits<int64_t>::max();
  }
  static constexpr int64_t kChunk = 16;
};

class Tracer {
 public:
  Tracer(int64_t w, int ox, int oy) : W_(w + 2), ox_(ox - 1), oy_(oy - 1) {
    for (int s = 0; s < 16; ++s) delta_[s] = kDx[s & 7] + kDy[s & 7] * W_;
  }

  // Follows the border that starts at pixel i0 (flat index in the framed image), marking it with
  // +label or -label; appends its points (cv2's starting point and direction; with kSimple only
  // the points where the direction changes) to pts_.
  // (Finding the next pixel from the 8-neighbourhood's non-zero mask with a rotate and ctz was
  // tried: no mispredicted probe loop, but a longer dependency chain per step, and slower.)
  template <class P, bool kSimple>
  void follow(P* f, int64_t i0, bool hole, P label, LazyRows& rows) {
    int64_t x = i0 % W_, y = i0 / W_;
    int64_t ready = rows.need(y + 1);  // rows below it are made as the border reaches them
    int s_end = hole ? 0 : 4, s = s_end;
    int64_t i1;
    // Clockwise search for the neighbour the border arrives from.
    do {
      s = (s - 1) & 7;
      i1 = i0 + delta_[s];
    } while (f[i1] == 0 && s != s_end);
    if (s == s_end && f[i1] == 0) {  // an isolated pixel
      f[i0] = static_cast<P>(-label);
      reserve(2);
      pts_[n_++] = static_cast<int32_t>(x + ox_);
      pts_[n_++] = static_cast<int32_t>(y + oy_);
      return;
    }
    size_t n = n_;
    int64_t i3 = i0;
    int prev_s = s ^ 4;
    for (;;) {
      if (n + 2 > cap_) n_ = n, reserve(2);
      if (y >= ready) ready = rows.need(y + 1);  // the 8 neighbours of row y read row y + 1
      s_end = s;
      // Counter-clockwise search for the next border pixel, starting after the one we came from.
      int64_t i4;
      do {
        i4 = i3 + delta_[++s];
      } while (f[i4] == 0);
      s &= 7;
      if (static_cast<unsigned>(s - 1) < static_cast<unsigned>(s_end)) {  // right neighbour is 0
        f[i3] = static_cast<P>(-label);
      } else if (f[i3] == 1) {
        f[i3] = label;
      }
      int32_t* q = pts_.get() + n;  // written always, kept when SIMPLE sees a turn (no branch)
      q[0] = static_cast<int32_t>(x + ox_);
      q[1] = static_cast<int32_t>(y + oy_);
      n += (!kSimple || s != prev_s) ? 2 : 0;
      prev_s = s;
      x += kDx[s];
      y += kDy[s];
      if (i4 == i0 && i3 == i1) break;
      i3 = i4;
      s = (s + 4) & 7;
    }
    n_ = n;
  }

  // Room for k more values after the n_ in use (growth copies only what is in use).
  void reserve(size_t k) {
    if (n_ + k <= cap_) return;
    const size_t cap = std::max<size_t>(2 * cap_, n_ + k + 4096);
    std::unique_ptr<int32_t[]> grown(new int32_t[cap]);
    if (n_) std::memcpy(grown.get(), pts_.get(), sizeof(int32_t) * n_);
    pts_ = std::move(grown);
    cap_ = cap;
  }

  // The points of every border so far (x, y pairs): the first n_ values of pts_.
  std::unique_ptr<int32_t[]> pts_;
  size_t n_ = 0, cap_ = 0;

 private:
  int64_t W_;
  int64_t ox_, oy_;
  int64_t delta_[16];
};

}  // namespace

// The first x in [x, end) whose value differs from v (end when none). Most of a binarized photo
// is long runs: they are skipped 32 bytes a step (SSE2), then 8, then one value.
template <class P>
inline int64_t next_change(const P* row, int64_t x, int64_t end, P v) {
  constexpr int64_t K = sizeof(P);
#if defined(__SSE2__)
  const __m128i pv = K == 1 ? _mm_set1_epi8(static_cast<char>(v)) : K == 2 ? _mm_set1_epi16(static_cast<int16_t>(v))
                                                                            : _mm_set1_epi32(static_cast<int32_t>(v));
  auto eq = [](__m128i a, __m128i b) {
    return K == 1 ? _mm_cmpeq_epi8(a, b) : K == 2 ? _mm_cmpeq_epi16(a, b) : _mm_cmpeq_epi32(a, b);
  };
  while (x + 32 / K <= end) {
    const __m128i a = eq(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + x)), pv);
    const __m128i b = eq(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + x + 16 / K)), pv);
    const unsigned diff = ~static_cast<unsigned>(_mm_movemask_epi8(a) | (_mm_movemask_epi8(b) << 16));
    if (diff) return x + __builtin_ctz(diff) / K;
    x += 32 / K;
  }
#endif
  uint64_t pattern = 0;
  for (int64_t k = 0; k < 8 / K; ++k) std::memcpy(reinterpret_cast<char*>(&pattern) + k * K, &v, K);
  while (x + 8 / K <= end) {
    uint64_t word;
    std::memcpy(&word, row + x, 8);
    // little-endian: the lowest set bit of the difference lies in the first differing byte
    if (const uint64_t diff = word ^ pattern) return x + (__builtin_ctzll(diff) >> 3) / K;
    x += 8 / K;
  }
  while (x < end && row[x] == v) ++x;
  return x;
}

namespace {

// Rows 1..h of the framed plane f (w + 2 wide): 1 where img is non-zero, 0 in the frame columns.
template <class P>
__attribute__((always_inline)) inline void binarize_rows(const uint8_t* img, int64_t h, int64_t w, int64_t stride,
                                                         P* f) {
  const int64_t W = w + 2;
  for (int64_t y = 0; y < h; ++y) {
    const uint8_t* src = img + y * stride;
    P* dst = f + (y + 1) * W;
    dst[0] = dst[W - 1] = 0;
    for (int64_t x = 0; x < w; ++x) dst[x + 1] = src[x] != 0;
  }
}

// One clone per ISA, picked at load time (GCC's target_clones): this pass writes 4 MB of int16
// for a 1080p image, and AVX2 widens it 0.3 -> 0.12 ms (the rest of the library's x86 builds
// target SSE2 only).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define MNN_CONTOURS_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MNN_CONTOURS_CLONES
#endif
MNN_CONTOURS_CLONES void binarize(const uint8_t* img, int64_t h, int64_t w, int64_t stride, int8_t* f) {
  binarize_rows(img, h, w, stride, f);
}
MNN_CONTOURS_CLONES void binarize(const uint8_t* img, int64_t h, int64_t w, int64_t stride, int16_t* f) {
  binarize_rows(img, h, w, stride, f);
}
MNN_CONTOURS_CLONES void binarize(const uint8_t* img, int64_t h, int64_t w, int64_t stride, int32_t* f) {
  binarize_rows(img, h, w, stride, f);
}
#undef MNN_CONTOURS_CLONES

// The raster scan over the framed image f (W x H), tracing every border it starts. With kLabels,
// border k is marked with label k + 2; returns false (a partial result) when the labels outgrow P.
template <class P, bool kLabels, bool kSimple>
bool scan(P* f, int64_t W, int64_t H, int mode, int method, Tracer& tracer, std::vector<Border>& borders,
          LazyRows& rows) {
  int64_t nbd = 2;  // the next label (LIST/EXTERNAL need none: every border is marked 2)
  for (int64_t y = 1; y < H - 1; ++y) {
    rows.need(y + 1);  // this row, and the next for a border starting here
    const int64_t row0 = y * W;
    P* row = f + row0;
    int64_t lnbd_x = 0;  // the last marked pixel on this row (0: none, the frame)
    P lnbd_val = 0;      // its mark: the parent's label, and RETR_EXTERNAL tests the sign
    P prev = 0;
    for (int64_t x = 1; x < W - 1; ++x) {
      x = next_change(row, x, W - 1, prev);
      if (x >= W - 1) break;
      P p = row[x];
      // Leaving a marked run: its last pixel is the last marked pixel met (its label is read
      // only when a border starts, which keeps the sparse label plane out of the scan).
      if (prev != 0 && prev != 1) lnbd_x = x - 1, lnbd_val = prev;
      bool hole = false, start = false;
      if (prev == 0 && p == 1) start = true;
      else if (p == 0 && prev >= 1) start = hole = true;
      if (start && !(mode == 0 && (hole || lnbd_val > 0))) {
        int32_t parent = -1;
        if (!(mode <= 1 || (!hole && mode == 2) || lnbd_x == 0)) {
          parent = static_cast<int32_t>(lnbd_val < 0 ? -int64_t(lnbd_val) : int64_t(lnbd_val)) - 2;
          if (borders[static_cast<size_t>(parent)].hole == hole) parent = borders[static_cast<size_t>(parent)].parent;
        }
        if (kLabels && nbd > std::numeric_limits<P>::max()) return false;
        const P label = static_cast<P>(kLabels ? nbd++ : 2);
        const int64_t sx = hole ? x - 1 : x;
        const int64_t first = static_cast<int64_t>(tracer.n_ / 2);
        tracer.follow<P, kSimple>(f, row0 + sx, hole, label, rows);
        if (method >= 3) {  // Teh-Chin replaces the border's points by its dominant ones (never more)
          thread_local std::vector<int32_t> all;  // reused: most borders are a few points
          all.assign(tracer.pts_.get() + 2 * first, tracer.pts_.get() + tracer.n_);
          approximate_tc89(all, 0, method);
          std::memcpy(tracer.pts_.get() + 2 * first, all.data(), sizeof(int32_t) * all.size());
          tracer.n_ = static_cast<size_t>(2 * first) + all.size();
        }
        borders.push_back({parent, hole, first, static_cast<int64_t>(tracer.n_ / 2) - first});
        lnbd_x = sx, lnbd_val = row[sx];
        p = row[x];
      }
      prev = p;
    }
  }
  return true;
}

// The image thresholded to 0/1 in P pixels inside a zero frame, traced.
template <class P, bool kLabels, bool kSimple>
bool trace_framed(const uint8_t* img, int64_t h, int64_t w, int64_t stride, int mode, int method, Tracer& tracer,
                  std::vector<Border>& borders) {
  const int64_t W = w + 2, H = h + 2;
  // Only the frame needs clearing. The plane (4 MB of int16 for a 1080p image) comes from the
  // engine's block cache: a fresh allocation each call page-faulted its way in, ~0.5 ms.
  std::shared_ptr<core::Buffer> buf = core::Buffer::allocate(sizeof(P) * static_cast<size_t>(W * H));
  P* f = reinterpret_cast<P*>(buf->data());
  std::fill(f, f + W, P(0));
  std::fill(f + (H - 1) * W, f + H * W, P(0));
  LazyRows rows;
  rows.h = h;
  rows.img = img;
  rows.w = w;
  rows.stride = stride;
  rows.f = f;
  rows.make = [](LazyRows& r, int64_t upto) {
    P* const plane = static_cast<P*>(r.f) + r.ready * (r.w + 2);
    binarize(r.img + r.ready * r.stride, upto - r.ready, r.w, r.stride, plane);
    r.ready = upto;
  };
  return scan<P, kLabels, kSimple>(f, W, H, mode, method, tracer, borders, rows);
}

}  // namespace

namespace {

// What a trace allocates, kept by the thread between calls: a photo's borders hold tens of
// thousands of points, and growing fresh buffers each call (with the allocator consolidating
// and trimming behind them, and the kernel faulting the pages back in) showed in the profile.
// With the packing straight into the result buffer (find_contours_arrays), a 1080p TREE call's
// min went from 3.1-3.2 to 2.7-3.0 ms (loaded 2-core Zen 3 host, thread time).
struct TraceScratch {
  std::unique_ptr<int32_t[]> pts;
  size_t cap = 0;
  std::vector<Border> borders;
  std::vector<int64_t> tree;  // pack_borders_to's tree arrays
};
TraceScratch& trace_scratch() {
  thread_local TraceScratch s;
  return s;
}
// Point buffers past this many values (64 MB) go back to the allocator after the call.
constexpr size_t kKeepPoints = size_t(16) << 20;

}  // namespace

void find_contours_traced(const uint8_t* img, int64_t h, int64_t w, int64_t stride, int mode, int method, int ox,
                          int oy, const TracedFn& done) {
  const bool tree = mode >= 2, simple = method == 2;
  Tracer tracer(w, ox, oy);
  TraceScratch& sc = trace_scratch();
  tracer.pts_ = std::move(sc.pts);
  tracer.cap_ = tracer.pts_ ? sc.cap : 0;
  std::vector<Border> borders = std::move(sc.borders);
  borders.clear();
  auto run = [&](auto zero) {
    using P = decltype(zero);
    return simple ? trace_framed<P, true, true>(img, h, w, stride, mode, method, tracer, borders)
                  : trace_framed<P, true, false>(img, h, w, stride, mode, method, tracer, borders);
  };
  if (!tree) {
    if (simple) trace_framed<int8_t, false, true>(img, h, w, stride, mode, method, tracer, borders);
    else trace_framed<int8_t, false, false>(img, h, w, stride, mode, method, tracer, borders);
  } else if (!run(int16_t{})) {  // more borders than int16 labels: again with int32 pixels
    tracer.n_ = 0;
    borders.clear();
    run(int32_t{});
  }
  done(borders, tracer.pts_.get(), static_cast<int64_t>(tracer.n_ / 2));
  if (tracer.cap_ <= kKeepPoints) {
    sc.pts = std::move(tracer.pts_);
    sc.cap = tracer.cap_;
  }
  sc.borders = std::move(borders);
}

Packed find_contours(const uint8_t* img, int64_t h, int64_t w, int64_t stride, int mode, int method, int ox, int oy) {
  Packed out;
  find_contours_traced(img, h, w, stride, mode, method, ox, oy,
                       [&](const std::vector<Border>& b, const int32_t* pts, int64_t total) { out = pack_borders(b, pts, total); });
  return out;
}

Packed pack_borders(const std::vector<Border>& borders, const int32_t* points, int64_t total) {
  const int64_t n = static_cast<int64_t>(borders.size());
  Packed out(static_cast<size_t>(2 + 5 * n + 2 * total));
  out[0] = static_cast<int32_t>(n);
  out[1] = static_cast<int32_t>(total);
  pack_borders_to(borders, points, out.data() + 2, out.data() + 2 + 4 * n, out.data() + 2 + 5 * n);
  return out;
}

void pack_borders_to(const std::vector<Border>& borders, const int32_t* points, int32_t* hier, int32_t* counts,
                     int32_t* pts) {
  // The tree: each border is prepended to its parent's child list (index n stands for the frame).
  // Its arrays live in one scratch vector of the thread: first_child (n + 1), next_sib, pos,
  // order, prev_sib (n each), and the walk's stack (at most n).
  const int64_t n = static_cast<int64_t>(borders.size());
  std::vector<int64_t>& scratch = trace_scratch().tree;
  scratch.assign(static_cast<size_t>(6 * n + 1), -1);
  int64_t* first_child = scratch.data();
  int64_t* next_sib = first_child + n + 1;
  int64_t* pos = next_sib + n;
  int64_t* order = pos + n;
  int64_t* prev_sib = order + n;
  int64_t* stack = prev_sib + n;
  int64_t norder = 0, nstack = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t par = borders[static_cast<size_t>(i)].parent < 0 ? n : borders[static_cast<size_t>(i)].parent;
    next_sib[static_cast<size_t>(i)] = first_child[static_cast<size_t>(par)];
    first_child[static_cast<size_t>(par)] = i;
  }
  // Depth-first preorder walk: order[k] is the border written k-th; pos is its inverse.
  for (int64_t c = first_child[static_cast<size_t>(n)]; c >= 0;) {
    pos[static_cast<size_t>(c)] = norder;
    order[norder++] = c;
    if (first_child[static_cast<size_t>(c)] >= 0) {
      stack[nstack++] = c;
      c = first_child[static_cast<size_t>(c)];
      continue;
    }
    c = next_sib[static_cast<size_t>(c)];
    while (c < 0 && nstack > 0) c = next_sib[static_cast<size_t>(stack[--nstack])];
  }
  for (int64_t i = 0; i < n; ++i)
    if (next_sib[static_cast<size_t>(i)] >= 0) prev_sib[static_cast<size_t>(next_sib[static_cast<size_t>(i)])] = i;
  auto at = [&](int64_t b) { return b < 0 ? -1 : static_cast<int32_t>(pos[static_cast<size_t>(b)]); };
  for (int64_t k = 0; k < n; ++k) {
    int64_t b = order[static_cast<size_t>(k)];
    const Border& bd = borders[static_cast<size_t>(b)];
    hier[4 * k + 0] = at(next_sib[static_cast<size_t>(b)]);
    hier[4 * k + 1] = at(prev_sib[static_cast<size_t>(b)]);
    hier[4 * k + 2] = at(first_child[static_cast<size_t>(b)]);
    hier[4 * k + 3] = at(bd.parent);
    counts[k] = static_cast<int32_t>(bd.count);
    std::memcpy(pts, points + 2 * bd.first, sizeof(int32_t) * 2 * static_cast<size_t>(bd.count));
    pts += 2 * bd.count;
  }
}

namespace {

struct Handoff {
  core::NodePtr input;  // held: its buffer cannot be reused in place while the entry lives
  int mode = -1, method = -1, ox = 0, oy = 0;
  std::shared_ptr<const Packed> result;
};

std::mutex g_handoff_mutex;
// Never destroyed: an entry may still hold a node at exit, after the allocator's statics are gone.
Handoff& g_handoff = *new Handoff;

}  // namespace

void stash_contours(const core::NodePtr& input, int mode, int method, int ox, int oy,
                    std::shared_ptr<const Packed> result) {
  std::lock_guard<std::mutex> lock(g_handoff_mutex);
  g_handoff = Handoff{input, mode, method, ox, oy, std::move(result)};
}

std::shared_ptr<const Packed> take_contours(const void* img, int64_t h, int64_t w, int mode, int method, int ox,
                                            int oy) {
  {
    std::lock_guard<std::mutex> lock(g_handoff_mutex);
    Handoff& e = g_handoff;
    if (e.result && e.mode == mode && e.method == method && e.ox == ox && e.oy == oy &&
        static_cast<const void*>(e.input->data_ptr()) == img && e.input->shape[0] == h &&
        e.input->shape[1] == w) {
      std::shared_ptr<const Packed> r = std::move(e.result);
      e = Handoff{};
      return r;
    }
  }
  return std::make_shared<const Packed>(trace_image(img, h, w, mode, method, ox, oy));
}

Packed trace_image(const void* img, int64_t h, int64_t w, int mode, int method, int ox, int oy) {
  if (mode == 4) return find_contours_labels(static_cast<const int32_t*>(img), h, w, w, method, ox, oy);
  return find_contours(static_cast<const uint8_t*>(img), h, w, w, mode, method, ox, oy);
}

}  // namespace mnn::ops::contours
