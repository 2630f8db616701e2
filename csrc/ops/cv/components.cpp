// connectedComponents[WithStats] as one direct call (ops/cv/components.h). The graph primitives
// (cv_components + cv_component_stats) took a labelling pass, a max() pass for n and a second scan
// of the label image for the stats, each an engine evaluation; here one pass over the image
// collects its foreground runs and everything else works on runs:
// - runs of a row join the runs above that touch them (union-find, the smaller run index is the
//   root, so a component's root is its first run in raster order);
// - numbering: 4-connectivity in root order; 8-connectivity in cv2's 2x2-block order (its
//   Spaghetti/BBDT scan visits row pairs block by block), found by walking each row pair's runs
//   merged by x0 / 2: a component is numbered at its first block, with no sort;
// - stats and centroid sums per run in closed form; the background's from the totals and the
//   gaps between runs.
#include "ops/cv/components.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "core/error.h"
#include "engine/eval.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mnn::ops::components {

using namespace core;

// (a named namespace: profiles show these steps by name)
namespace detail {

// Bit k set where p[k] != 0, for the first n (<= 64) pixels.
inline uint64_t foreground_mask(const uint8_t* p, int64_t n) {
#if defined(__SSE2__)
  if (n == 64) {
    const __m128i z = _mm_setzero_si128();
    uint64_t zero = 0;
    for (int k = 0; k < 4; ++k)
      zero |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(
                  _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k)), z))))
              << (16 * k);
    return ~zero;
  }
#endif
  uint64_t m = 0;
  for (int64_t k = 0; k < n; ++k) m |= static_cast<uint64_t>(p[k] != 0) << k;
  return m;
}

// The thread's run tables, kept between calls: a noise image has ~150k runs, and fresh vectors
// (page-faulted in, trimmed back out) cost as much as the labelling.
struct Scratch {
  std::vector<int32_t> x0, x1, parent, num;
  std::vector<int64_t> row_start;
  int64_t nruns = 0;  // x0 / x1 hold room for more
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

// Foreground runs [x0, x1) of every row; row y's are row_start[y] .. row_start[y + 1].
__attribute__((noinline)) void collect_runs(const uint8_t* src, int64_t h, int64_t w, Scratch& sc) {
  // A row holds at most (w + 1) / 2 runs: room for the worst case up front, so the run loop
  // writes through raw pointers (push_back's capacity checks cost a third of a noise image).
  const size_t cap = static_cast<size_t>(h) * static_cast<size_t>((w + 1) / 2);
  if (sc.x0.size() < cap) sc.x0.resize(cap), sc.x1.resize(cap);
  sc.row_start.resize(static_cast<size_t>(h) + 1);
  int32_t* rx0 = sc.x0.data();
  int32_t* rx1 = sc.x1.data();
  int64_t nr = 0;
  for (int64_t y = 0; y < h; ++y) {
    sc.row_start[static_cast<size_t>(y)] = nr;
    const uint8_t* row = src + y * w;
    // Each set bit of mask ^ (mask << 1) starts or ends a run, in turn: a pixel loop would
    // mispredict at every run boundary (noise has runs of ~2 pixels).
    uint64_t carry = 0;
    int64_t open = 0;  // 1 while a run is open
    for (int64_t x = 0; x < w; x += 64) {
      const uint64_t m = foreground_mask(row + x, std::min<int64_t>(64, w - x));
      uint64_t t = m ^ ((m << 1) | carry);
      carry = m >> 63;
      while (t) {
        const int32_t at = static_cast<int32_t>(x + __builtin_ctzll(t));
        t &= t - 1;
        // starts go to x0[nr], ends to x1[nr] and close the run: no branch on which it is
        if (open) rx1[nr] = at;
        else rx0[nr] = at;
        nr += open;
        open ^= 1;
      }
    }
    if (open) rx1[nr++] = static_cast<int32_t>(w);
  }
  sc.row_start[static_cast<size_t>(h)] = nr;
  sc.nruns = nr;
}

inline int32_t find_root(int32_t* parent, int32_t a) {
  while (parent[a] != a) {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

// Joins each run to the runs of the row above that touch it; then every run points at its root.
__attribute__((noinline)) void join_runs(int64_t h, bool conn8, Scratch& sc) {
  const int64_t nruns = sc.nruns;
  sc.parent.resize(static_cast<size_t>(nruns));
  int32_t* parent = sc.parent.data();
  for (int64_t i = 0; i < nruns; ++i) parent[i] = static_cast<int32_t>(i);
  const int32_t* x0 = sc.x0.data();
  const int32_t* x1 = sc.x1.data();
  const int64_t* rs = sc.row_start.data();
  const int32_t reach = conn8 ? 1 : 0;  // how far a run reaches sideways into the row above
  for (int64_t y = 1; y < h; ++y) {
    int64_t j = rs[y - 1];
    const int64_t jend = rs[y];
    for (int64_t i = jend; i < rs[y + 1]; ++i) {
      const int32_t a0 = x0[i] - reach, a1 = x1[i] + reach;
      while (j < jend && x1[j] <= a0) ++j;  // runs above ending left of this one
      // (the last run above may touch the next run of this row too: j stays on it)
      int32_t root = static_cast<int32_t>(i);
      for (int64_t k = j; k < jend && x0[k] < a1; ++k) {
        const int32_t r = find_root(parent, static_cast<int32_t>(k));
        if (r == root) continue;
        if (r < root) parent[root] = r, root = r;
        else parent[r] = root;
      }
    }
  }
  // Roots precede their runs, so one forward pass leaves every run pointing at its root.
  for (int64_t i = 0; i < nruns; ++i) parent[i] = parent[parent[i]];
}

// num[root] = its component's label (1 ..); a run's label is num[parent[run]] (the writers look it
// up there rather than a pass copying it to every run). Returns the number of components.
__attribute__((noinline)) int32_t number_runs(int64_t h, bool conn8, Scratch& sc) {
  const int64_t nruns = sc.nruns;
  sc.num.assign(static_cast<size_t>(nruns), 0);
  int32_t* num = sc.num.data();
  const int32_t* parent = sc.parent.data();
  int32_t next = 0;
  if (!conn8) {
    for (int64_t i = 0; i < nruns; ++i)
      if (parent[i] == i) num[i] = ++next;
    return next;
  }
  // Two pixels in one 2x2 block are 8-neighbours, so components never share a first block: the
  // merged walk meets each component first at its smallest (y / 2, x / 2).
  const int32_t* x0 = sc.x0.data();
  const int64_t* rs = sc.row_start.data();
  for (int64_t y = 0; y < h; y += 2) {
    int64_t a = rs[y], aend = rs[y + 1];
    int64_t b = aend, bend = y + 1 < h ? rs[y + 2] : aend;
    // branch-free picks: on noise which row comes next, and whether a component is new, are
    // coin flips a branch would mispredict
    while (a < aend && b < bend) {
      const bool take_a = (x0[a] >> 1) <= (x0[b] >> 1);
      const int64_t i = take_a ? a : b;
      a += take_a, b += !take_a;
      const int32_t r = parent[i];
      const int32_t fresh = num[r] == 0;
      next += fresh;
      num[r] = fresh ? next : num[r];
    }
    for (; a < aend; ++a) {
      const int32_t r = parent[a];
      if (num[r] == 0) num[r] = ++next;
    }
    for (; b < bend; ++b) {
      const int32_t r = parent[b];
      if (num[r] == 0) num[r] = ++next;
    }
  }
  return next;
}

template <class L>
__attribute__((noinline)) void write_labels(L* out, int64_t h, int64_t w, const Scratch& sc) {
  const int32_t* x0 = sc.x0.data();
  const int32_t* x1 = sc.x1.data();
  const int32_t* num = sc.num.data();
  const int32_t* parent = sc.parent.data();
  for (int64_t y = 0; y < h; ++y) {
    L* row = out + y * w;
    // zeroed row by row, so its runs are written while it is still in cache (one pass to memory)
    std::memset(row, 0, sizeof(L) * static_cast<size_t>(w));
    // runs are ~2 pixels on noise: a plain loop, not a call to fill per run
    for (int64_t i = sc.row_start[static_cast<size_t>(y)]; i < sc.row_start[static_cast<size_t>(y) + 1]; ++i) {
      const L v = static_cast<L>(num[parent[i]]);
      for (int32_t x = x0[i]; x < x1[i]; ++x) row[x] = v;
    }
  }
}

// cv2's stats (left, top, width, height, area) and centroids of labels 0 .. n - 1. Coordinate
// sums are exact integers (as cv2's double sums are below 2^53), divided once.
void write_stats(int32_t* st, double* cen, int64_t n, int64_t h, int64_t w, const Scratch& sc) {
  std::vector<int64_t> left(static_cast<size_t>(n), INT64_MAX), right(static_cast<size_t>(n), -1),
      top(static_cast<size_t>(n), -1), bottom(static_cast<size_t>(n), -1), area(static_cast<size_t>(n), 0),
      sx(static_cast<size_t>(n), 0), sy(static_cast<size_t>(n), 0);
  const int32_t* x0 = sc.x0.data();
  const int32_t* x1 = sc.x1.data();
  const int32_t* num = sc.num.data();
  const int32_t* parent = sc.parent.data();
  int64_t bl = INT64_MAX, br = -1, bt = -1, bb = -1;  // the background's box
  int64_t fg_area = 0, fg_sx = 0, fg_sy = 0;
  for (int64_t y = 0; y < h; ++y) {
    const int64_t i0 = sc.row_start[static_cast<size_t>(y)], i1 = sc.row_start[static_cast<size_t>(y) + 1];
    // the row's first and last background pixels, if it has any
    const bool full = i1 - i0 == 1 && x0[i0] == 0 && x1[i0] == w;
    if (!full && w > 0) {
      const int64_t first = (i0 == i1 || x0[i0] > 0) ? 0 : x1[i0];
      const int64_t last = (i0 == i1 || x1[i1 - 1] < w) ? w - 1 : x0[i1 - 1] - 1;
      bl = std::min(bl, first), br = std::max(br, last);
      if (bt < 0) bt = y;
      bb = y;
    }
    for (int64_t i = i0; i < i1; ++i) {
      const int64_t l = num[parent[i]], a = x0[i], b = x1[i], len = b - a;
      left[l] = std::min(left[l], a), right[l] = std::max(right[l], b - 1);
      if (top[l] < 0) top[l] = y;
      bottom[l] = y;
      area[l] += len;
      sx[l] += (a + b - 1) * len / 2;
      sy[l] += y * len;
      fg_area += len, fg_sx += (a + b - 1) * len / 2, fg_sy += y * len;
    }
  }
  if (n > 0) {
    left[0] = bl, right[0] = br, top[0] = bt, bottom[0] = bb;
    area[0] = h * w - fg_area;
    sx[0] = h * (w * (w - 1) / 2) - fg_sx;
    sy[0] = w * (h * (h - 1) / 2) - fg_sy;
  }
  for (int64_t l = 0; l < n; ++l, st += 5, cen += 2) {
    // a label with no pixels (the background of an all-foreground image): what cv2 reports
    const bool empty = area[l] == 0;
    st[0] = empty ? -1 : static_cast<int32_t>(left[l]);
    st[1] = empty ? INT_MAX : static_cast<int32_t>(top[l]);
    st[2] = empty ? 0 : static_cast<int32_t>(right[l] - left[l] + 1);
    st[3] = empty ? 0 : static_cast<int32_t>(bottom[l] - top[l] + 1);
    st[4] = static_cast<int32_t>(area[l]);
    cen[0] = static_cast<double>(sx[l]) / static_cast<double>(area[l]);
    cen[1] = static_cast<double>(sy[l]) / static_cast<double>(area[l]);
  }
}

Array leaf(DType dt, const Shape& shape) {
  int64_t elems = 1;
  for (int64_t d : shape) elems *= d;
  auto buf = Buffer::allocate(itemsize(dt) * static_cast<size_t>(elems));
  return Array::from_node(make_leaf(buf, dt, shape, contiguous_strides(shape), 0, elems));
}

}  // namespace detail

using namespace detail;

std::vector<Array> connected_components(const Array& img, int connectivity, int ltype, bool stats, int64_t* n_out) {
  const std::string fn = stats ? "[mnn.cv.connectedComponentsWithStats] " : "[mnn.cv.connectedComponents] ";
  if (connectivity != 4 && connectivity != 8) throw ValueError(fn + "connectivity must be 4 or 8");
  if (ltype != 2 && ltype != 4) throw ValueError(fn + "ltype must be CV_32S (4) or CV_16U (2)");
  if (img.ndim() != 2 || !img.is_contiguous()) throw ValueError(fn + "expected a contiguous 2-d image");
  const DType dt = img.dtype();
  if (dt != DType::UInt8 && dt != DType::Int8 && dt != DType::Bool)
    throw TypeError(fn + "expected an 8-bit image, got " + dtype_name(dt));
  if (img.device().type != Device::CPU) throw ValueError(fn + "expected an image in host memory");
  NodePtr node = img.node();
  engine::eval({node});
  const int64_t h = img.shape()[0], w = img.shape()[1];
  const bool conn8 = connectivity == 8;
  Scratch& sc = scratch();
  collect_runs(reinterpret_cast<const uint8_t*>(node->data_ptr()), h, w, sc);
  join_runs(h, conn8, sc);
  const int32_t ncomp = number_runs(h, conn8, sc);
  std::vector<Array> out;
  out.push_back(leaf(ltype == 2 ? DType::UInt16 : DType::Int32, Shape{h, w}));
  NodePtr ln = out[0].node();
  if (ltype == 2) {
    // cv2 refuses rather than wrap uint16 labels (its checkLabelTypeOverflowBeforeIncrement)
    if (ncomp >= 65535)
      throw ValueError(fn + "Total number of labels overflowed label type. Try using CV_32S instead of CV_16U as ltype");
    write_labels(reinterpret_cast<uint16_t*>(ln->data_ptr()), h, w, sc);
  } else {
    write_labels(reinterpret_cast<int32_t*>(ln->data_ptr()), h, w, sc);
  }
  const int64_t n = static_cast<int64_t>(ncomp) + 1;
  if (stats) {
    out.push_back(leaf(DType::Int32, Shape{n, 5}));
    out.push_back(leaf(DType::Float64, Shape{n, 2}));
    write_stats(reinterpret_cast<int32_t*>(out[1].node()->data_ptr()),
                reinterpret_cast<double*>(out[2].node()->data_ptr()), n, h, w, sc);
  }
  // Oversized tables (a huge image) go back to the allocator rather than stay with the thread.
  if (sc.x0.size() > (size_t(4) << 20)) sc = Scratch{};
  *n_out = n;
  return out;
}

}  // namespace mnn::ops::components
