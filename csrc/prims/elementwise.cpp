#include "prims/elementwise.h"

#include <string>

#include "core/error.h"

namespace mnn::prims {

using namespace core;

namespace {
struct Info {
  int arity;
  DTypeRule rule;
};
const Info kInfo[] = {
#define X(name, pyname, ar, r) {ar, DTypeRule::r},
#include "prims/opcodes.def"
#undef X
};

[[noreturn]] void no_loop(Op op, const DTypeList& in) {
  std::string types;
  for (size_t i = 0; i < in.size(); ++i) types += std::string(i ? ", " : "") + "dtype('" + dtype_name(in[i]) + "')";
  throw TypeError(api_msg(op_name(op), std::string("ufunc '") + op_name(op) +
                                           "' not supported for the input types (" + types +
                                           "), and the inputs could not be safely coerced to any supported types "
                                           "according to the casting rule ''safe''"));
}
}  // namespace

int arity(Op op) { return kInfo[static_cast<int>(op)].arity; }
DTypeRule dtype_rule(Op op) { return kInfo[static_cast<int>(op)].rule; }

ResolvedTypes resolve_types(Op op, const DTypeList& in, DType cast_to) {
  DTypeRule rule = dtype_rule(op);
  if (rule == DTypeRule::Cast) return {in[0], cast_to};
  size_t first = rule == DTypeRule::Select ? 1 : 0;
  DType p = in[first];
  for (size_t i = first + 1; i < in.size(); ++i) p = promote(p, in[i]);
  switch (rule) {
    case DTypeRule::Same:
      return {p, p};
    case DTypeRule::NoBool:
      if (p == DType::Bool) p = DType::Int8;
      return {p, p};
    case DTypeRule::Numeric:
      if (p == DType::Bool) {
        if (op == Op::Subtract)
          throw TypeError(api_msg("subtract",
                                  "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                                  "the `^` operator, or the logical_xor function instead."));
        if (op == Op::Negative)
          throw TypeError(api_msg("negative",
                                  "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
                                  "operator or the logical_not function instead."));
        no_loop(op, in);
      }
      return {p, p};
    case DTypeRule::Float: {
      // numpy picks the first float loop every input casts to safely: int8 with uint8 is float16,
      // not float_for(int16).
      DType f = float_for(in[0]);
      for (size_t i = 1; i < in.size(); ++i) f = promote(f, float_for(in[i]));
      return {f, f};
    }
    case DTypeRule::TrueDiv: {
      DType f = is_float(p) ? p : DType::Float64;
      return {f, f};
    }
    case DTypeRule::Compare:
    case DTypeRule::Logical:
      return {p, DType::Bool};
    case DTypeRule::FloatPredicate:
      return {float_for(p), DType::Bool};
    case DTypeRule::Bitwise:
      if (is_float(p)) no_loop(op, in);
      return {p, p};
    case DTypeRule::Shift:
      if (is_float(p)) no_loop(op, in);
      if (p == DType::Bool) p = DType::Int8;
      return {p, p};
    case DTypeRule::Select:
      return {p, p};
    default:
      return {p, p};
  }
}

}  // namespace mnn::prims
