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

// Complex inputs: numpy has complex loops for arithmetic, equality, the transcendental functions
// and the float predicates; ordering comparisons and the integer-only ops have none here.
ResolvedTypes resolve_complex(Op op, DTypeRule rule, DType p, const DTypeList& in) {
  switch (op) {
    case Op::Add: case Op::Subtract: case Op::Multiply: case Op::Divide: case Op::Power:
    case Op::Negative: case Op::Positive: case Op::Square: case Op::Reciprocal: case Op::Copy:
    case Op::Rint: case Op::Sqrt: case Op::Exp: case Op::Exp2: case Op::Log: case Op::Log10: case Op::Log2: case Op::Expm1: case Op::Log1p:
    case Op::Sin: case Op::Cos: case Op::Tan: case Op::Sinh: case Op::Cosh: case Op::Tanh:
    case Op::Arcsin: case Op::Arccos: case Op::Arctan: case Op::Arcsinh: case Op::Arccosh: case Op::Arctanh:
    case Op::Where: case Op::Sign:
      return {p, p};
    case Op::Absolute: case Op::Real: case Op::Imag:
      return {p, real_of(p)};
    case Op::Conjugate:
      return {p, p};
    case Op::Equal: case Op::NotEqual: case Op::Less: case Op::LessEqual: case Op::Greater:
    case Op::GreaterEqual: case Op::LogicalAnd: case Op::LogicalOr: case Op::LogicalXor:
    case Op::LogicalNot: case Op::Isnan: case Op::Isinf: case Op::Isfinite:
      return {p, DType::Bool};
    case Op::Maximum: case Op::Minimum: case Op::Fmax: case Op::Fmin:
      return {p, p};
    default:
      (void)rule;
      no_loop(op, in);
  }
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
  if (is_complex(p)) return resolve_complex(op, rule, p, in);
  if (op == Op::Real || op == Op::Imag || op == Op::Conjugate) no_loop(op, in);
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
