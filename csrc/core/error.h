// Engine exceptions. The bindings map each to the Python exception numpy raises for that case;
// every message starts with the public API name, e.g. "[mnn.numpy.reshape] ...".
#pragma once
#include <stdexcept>
#include <string>

namespace mnn::core {

struct ValueError : std::runtime_error { using std::runtime_error::runtime_error; };
struct TypeError : std::runtime_error { using std::runtime_error::runtime_error; };
struct IndexError : std::runtime_error { using std::runtime_error::runtime_error; };
struct NotImplementedError : std::runtime_error { using std::runtime_error::runtime_error; };
// numpy's AxisError subclasses both ValueError and IndexError.
struct AxisError : std::runtime_error { using std::runtime_error::runtime_error; };
// numpy raises OverflowError for a Python int that does not fit the array's integer dtype.
struct OverflowError : std::runtime_error { using std::runtime_error::runtime_error; };
// numpy.linalg.LinAlgError (a ValueError): singular matrices, failed factorizations.
struct LinAlgError : std::runtime_error { using std::runtime_error::runtime_error; };
// numpy's UFuncTypeError (a TypeError) for disallowed casts in ufunc outputs.
struct CastingError : std::runtime_error { using std::runtime_error::runtime_error; };

// MemoryError: an array no allocation on this machine could hold (numpy raises it where asked).
struct MemoryError : std::runtime_error { using std::runtime_error::runtime_error; };

// "[mnn.numpy.<fn>] msg" — the one place the prefix is spelled.
inline std::string api_msg(const char* fn, const std::string& msg) {
  return std::string("[mnn.numpy.") + fn + "] " + msg;
}

}  // namespace mnn::core
