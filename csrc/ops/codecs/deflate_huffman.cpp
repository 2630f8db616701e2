// Huffman code lengths for the deflate encoder: a plain Huffman tree (two-queue merge over the
// symbols sorted by frequency), and when it is deeper than deflate allows, the same tree over
// flattened frequencies (halved, rounded up, until it fits). Flattening keeps the code a real Huffman
// tree, hence complete, which the repair-the-lengths approaches have to prove separately; the cost is
// a slightly worse code in the rare blocks that hit the limit.
#include <algorithm>

#include "ops/codecs/deflate_huffman.h"

namespace mnn::codecs::deflate {
namespace {

constexpr int kMaxSymbols = 288;

// Depth of every leaf of the Huffman tree over w[0..m) (sorted ascending, m >= 2); returns the maximum.
int huffman_depths(const uint32_t* w, int m, uint8_t* depth) {
  // Nodes 0..m-1 are the leaves, m.. the internal nodes in creation order (their weights never
  // decrease, so the two smallest remaining nodes are always at the heads of the two queues).
  uint64_t weight[2 * kMaxSymbols];
  int parent[2 * kMaxSymbols];
  for (int i = 0; i < m; ++i) weight[i] = w[i];
  int leaf = 0, inner = m, next = m;
  auto take = [&]() {
    if (leaf < m && (inner >= next || weight[leaf] <= weight[inner])) return leaf++;
    return inner++;
  };
  while (next < 2 * m - 1) {
    const int a = take(), b = take();
    weight[next] = weight[a] + weight[b];
    parent[a] = parent[b] = next;
    ++next;
  }
  uint8_t d[2 * kMaxSymbols];
  d[2 * m - 2] = 0;
  int max_depth = 0;
  for (int i = 2 * m - 3; i >= 0; --i) {  // parents have larger indices than their children
    d[i] = static_cast<uint8_t>(d[parent[i]] + 1);
    if (i < m) max_depth = std::max<int>(max_depth, d[i]);
  }
  std::memcpy(depth, d, m);
  return max_depth;
}

}  // namespace

void build_code_lengths(const uint32_t* freq, int n, int max_len, uint8_t* lens) {
  int sym[kMaxSymbols];
  uint32_t f[kMaxSymbols];
  int m = 0;
  for (int s = 0; s < n; ++s) {
    lens[s] = 0;
    if (freq[s]) sym[m++] = s;
  }
  // Fewer than two used symbols: add unused ones as dummies so the code is complete.
  for (int s = 0; m < 2 && s < n; ++s)
    if (!freq[s] && std::find(sym, sym + m, s) == sym + m) sym[m++] = s;
  // sort by (frequency, symbol) as one integer key: cheaper than a comparator, and runs per block
  uint64_t key[kMaxSymbols];
  for (int i = 0; i < m; ++i) key[i] = (uint64_t(freq[sym[i]] ? freq[sym[i]] : 1) << 9) | uint64_t(sym[i]);
  std::sort(key, key + m);
  for (int i = 0; i < m; ++i) {
    sym[i] = static_cast<int>(key[i] & 511);
    f[i] = static_cast<uint32_t>(key[i] >> 9);
  }
  uint8_t depth[kMaxSymbols];
  while (huffman_depths(f, m, depth) > max_len) {
    // Flatten: the order is preserved (so f stays sorted) and the gaps shrink geometrically;
    // once every weight is 1 the tree is balanced, ceil(log2(288)) = 9 <= any limit used here.
    for (int i = 0; i < m; ++i) f[i] = (f[i] >> 1) | 1;
  }
  for (int i = 0; i < m; ++i) lens[sym[i]] = depth[i];
}

void canonical_codes(const uint8_t* lens, int n, uint16_t* codes) {
  int count[16] = {0};
  for (int s = 0; s < n; ++s) count[lens[s]]++;
  count[0] = 0;
  int next[16];
  int code = 0;
  for (int len = 1; len < 16; ++len) {
    code = (code + count[len - 1]) << 1;
    next[len] = code;
  }
  for (int s = 0; s < n; ++s) {
    const int len = lens[s];
    if (!len) {
      codes[s] = 0;
      continue;
    }
    int c = next[len]++, r = 0;
    for (int k = 0; k < len; ++k, c >>= 1) r = (r << 1) | (c & 1);
    codes[s] = static_cast<uint16_t>(r);
  }
}

}  // namespace mnn::codecs::deflate
