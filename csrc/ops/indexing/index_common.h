// Shared by the indexing shape rules: which public function a primitive is serving (so its
// errors name it) and numpy's index modes.
#pragma once
#include <cstdint>
#include <string>

namespace mnn::ops::indexing {

// The caller passes one of these ids in the primitive's ints; errors are prefixed with its name.
inline const char* fn_name(int64_t id) {
  static const char* names[] = {"take", "__getitem__", "__setitem__", "ravel_multi_index", "put",
                                "take_along_axis", "put_along_axis", "choose", "nonzero", "compress", "extract"};
  return id >= 0 && id < static_cast<int64_t>(sizeof(names) / sizeof(names[0])) ? names[id] : "take";
}

inline std::string api(int64_t fn_id, const std::string& msg) {
  return std::string("[mnn.numpy.") + fn_name(fn_id) + "] " + msg;
}

// numpy's `mode=` of take/put/choose/ravel_multi_index. Raise lets negatives count from the end
// (indexing semantics); RaiseStrict (ravel_multi_index) rejects them.
enum Mode : int64_t { Raise = 0, Wrap = 1, Clip = 2, RaiseStrict = 3 };

inline int64_t normalize_index(int64_t i, int64_t n, int64_t mode) {
  switch (mode) {
    case Wrap: {
      int64_t r = n ? i % n : 0;
      return r < 0 ? r + n : r;
    }
    case Clip: return i < 0 ? 0 : (i >= n ? n - 1 : i);
    default: return i < 0 ? i + n : i;
  }
}

}  // namespace mnn::ops::indexing
