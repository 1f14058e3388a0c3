// The PTX instruction forms the conformance suite checks, each with a scalar reference
// written independently of the simulator (host IEEE arithmetic under an explicit
// rounding mode, or exact integer code). Expected values are never taken from Strata.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace strata::ptx_conformance {

// Operand types. Every operand travels through memory in a 64-bit slot (little-endian,
// low bytes used); predicates travel as a u32 that is 0 or 1.
// kF16/kBF16 are a half in a .b16 register; kF16x2/kBF16x2 two halves in a .b32
// register (element 0 in the low half); kE4M3x2/kE5M2x2 two FP8 values in a .b16
// register (element 0 in the low byte); kU8/kS8 are bytes in a .b16 register (cvt only).
enum class Ty { kPred, kB16, kU16, kS16, kB32, kU32, kS32, kF32, kB64, kU64, kS64, kF64,
                kF16, kBF16, kF16x2, kBF16x2, kE4M3x2, kE5M2x2, kU8, kS8 };

int bits_of(Ty t);
bool is_float(Ty t);
// The small-float types: elements per register and bits per element (0 for the others).
int lanes_of(Ty t);
int lane_bits(Ty t);

// How an input operand's values are drawn (edge cases first, then random).
enum class Dom {
  kAny,    // the type's edge cases and random bit patterns
  kShift,  // shift amounts and bit positions: 0..70 and 2^32-1
  kTrig,   // f32 in [-pi, pi] plus the special values
  kNarrow, // f32 near the f16/bf16/tf32/fp8 ranges, many exactly half-way between their values
};

// How a result is compared with the reference.
enum class Cmp {
  kExact,  // identical bits
  kFloat,  // identical bits, except that any NaN matches any NaN
  kUlp,    // both NaN, or at most `tol` units in the last place apart
  kAbs,    // both NaN, identical infinities, or |got - ref| <= tol
  kAny,    // PTX leaves the result unspecified for these inputs
};

struct Expect {
  uint64_t bits = 0;
  Cmp cmp = Cmp::kExact;
  double tol = 0;   // kUlp: ulps; kAbs: absolute error
  double ref = 0;   // kAbs: the exact value (double)
  // Packed types (lanes_of(dst) == 2): lane 0 is compared by the fields above, lane 1
  // (the high element of `bits`) by these.
  Cmp cmp_hi = Cmp::kExact;
  double tol_hi = 0, ref_hi = 0;
};

using Reference = std::function<Expect(const uint64_t* in)>;

struct Form {
  std::string name;     // the PTX form, e.g. "mad.lo.s32" (as ptx-opcode-forms.tsv spells it)
  std::string family;   // one PTX module per family
  Ty dst;
  std::vector<Ty> srcs;
  std::vector<Dom> doms;  // per source; missing entries are kAny
  Reference ref;
};

// Every form, grouped by family in table order.
const std::vector<Form>& all_forms();
// The f16/bf16/tf32/fp8 forms (forms_half.cc), appended by all_forms().
void add_half_forms(std::vector<Form>& v);

}  // namespace strata::ptx_conformance
