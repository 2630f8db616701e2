#include "backends/cpu/strided.h"

#include <cstring>

namespace mnn::cpu {

void coalesce(std::vector<int64_t>& dims, std::vector<std::vector<int64_t>*> strides) {
  std::vector<int64_t> nd;
  std::vector<std::vector<int64_t>> ns(strides.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (!nd.empty()) {
      bool merge = true;
      for (size_t k = 0; k < strides.size(); ++k)
        if (ns[k].back() != (*strides[k])[i] * dims[i]) { merge = false; break; }
      if (merge) {
        nd.back() *= dims[i];
        for (size_t k = 0; k < strides.size(); ++k) ns[k].back() = (*strides[k])[i];
        continue;
      }
    }
    nd.push_back(dims[i]);
    for (size_t k = 0; k < strides.size(); ++k) ns[k].push_back((*strides[k])[i]);
  }
  dims = nd;
  for (size_t k = 0; k < strides.size(); ++k) *strides[k] = ns[k];
}

namespace {

template <class T, bool Gather>
void move_run(char* strided, int64_t stride, char* contig, int64_t n) {
  T* s = reinterpret_cast<T*>(strided);
  T* c = reinterpret_cast<T*>(contig);
  if (stride == 1) {
    if (Gather) std::memcpy(c, s, n * sizeof(T));
    else std::memcpy(s, c, n * sizeof(T));
    return;
  }
  if (Gather) {
    for (int64_t i = 0; i < n; ++i) c[i] = s[i * stride];
  } else {
    for (int64_t i = 0; i < n; ++i) s[i * stride] = c[i];
  }
}

template <bool Gather>
void walk(char* base, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t isz,
          int64_t start, int64_t n, char* contig) {
  int nd = static_cast<int>(dims.size());
  if (nd == 0) {
    if (n > 0) Gather ? std::memcpy(contig, base, isz) : std::memcpy(base, contig, isz);
    return;
  }
  int64_t idx[64];  // numpy caps ndim at 64
  int64_t rem = start, off = 0;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rem % dims[d];
    rem /= dims[d];
    off += idx[d] * strides[d];
  }
  int64_t inner = dims[nd - 1], istride = strides[nd - 1];
  while (n > 0) {
    int64_t run = std::min(n, inner - idx[nd - 1]);
    char* p = base + off * static_cast<int64_t>(isz);
    switch (isz) {
      case 1: move_run<uint8_t, Gather>(p, istride, contig, run); break;
      case 2: move_run<uint16_t, Gather>(p, istride, contig, run); break;
      case 4: move_run<uint32_t, Gather>(p, istride, contig, run); break;
      default: move_run<uint64_t, Gather>(p, istride, contig, run); break;
    }
    contig += run * isz;
    n -= run;
    off += run * istride;
    idx[nd - 1] += run;
    for (int d = nd - 1; d > 0 && idx[d] == dims[d]; --d) {
      off -= idx[d] * strides[d];
      idx[d] = 0;
      ++idx[d - 1];
      off += strides[d - 1];
    }
  }
}

}  // namespace

void gather(const char* base, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t itemsize,
            int64_t start, int64_t n, char* dst) {
  walk<true>(const_cast<char*>(base), dims, strides, itemsize, start, n, dst);
}

void scatter(const char* src, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t itemsize,
             int64_t start, int64_t n, char* base) {
  walk<false>(base, dims, strides, itemsize, start, n, const_cast<char*>(src));
}

}  // namespace mnn::cpu
