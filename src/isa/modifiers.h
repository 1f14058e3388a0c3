// The instruction-specific `mod` field: which kind of modifier each opcode carries
// (isa/modifiers.def), which mod values are legal, and the assembly names of every
// modifier enum in isa/inst.h. Used by the decoder (legality), the disassembler and the
// assembler, so the three always agree.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "isa/inst.h"

namespace strata::isa {

enum class ModKind : uint8_t {
  kNone,          // mod unused (must be 0 in canonical code)
  kCompare,       // bits 0-3 CmpOp, bits 4-5 BoolOp
  kPredLogic,     // bits 4-5 BoolOp, bit 7 negates pq
  kFloat,         // bits 0-1 Round, bit 2 FTZ, bit 3 SAT, bit 4 round-to-integral, bit 5 approx
  kMufu,          // the whole byte is a MufuOp
  kPrmt,          // the whole byte is a PrmtMode
  kSpecialReg,    // the whole byte is a SpecialReg
  kConstBank,     // the whole byte is the constant bank number
  kAtom,          // the whole byte is an AtomOp
  kFence,         // bit 0: sequentially consistent fence
  kVote,          // the whole byte is a VoteOp
  kShfl,          // the whole byte is a ShflOp
  kBar,           // the whole byte is a BarOp
  kConvBarrier,   // the whole byte is a convergence barrier index 0-15
  kCache,         // bit 0: the source is cached in L2 only (.CG)
};

ModKind mod_kind(Opcode op);
std::string_view mod_kind_name(ModKind kind);  // "kCompare"
// The mod bits the assembly syntax of this kind expresses; other set bits are printed as
// a raw "{mod=...}" override by the disassembler.
uint8_t mod_syntax_mask(ModKind kind);
// Whether `mod` is a legal value for `op` (enum-valued kinds must hold a defined value).
bool mod_is_legal(Opcode op, uint8_t mod);

// Assembly names (upper case) of the modifier enums, indexed by enum value.
template <typename E>
std::span<const std::string_view> enum_names();
template <> std::span<const std::string_view> enum_names<CmpOp>();
template <> std::span<const std::string_view> enum_names<BoolOp>();
template <> std::span<const std::string_view> enum_names<Round>();
template <> std::span<const std::string_view> enum_names<MufuOp>();
template <> std::span<const std::string_view> enum_names<AtomOp>();
template <> std::span<const std::string_view> enum_names<VoteOp>();
template <> std::span<const std::string_view> enum_names<ShflOp>();
template <> std::span<const std::string_view> enum_names<BarOp>();
template <> std::span<const std::string_view> enum_names<PrmtMode>();
template <> std::span<const std::string_view> enum_names<MemSpace>();
template <> std::span<const std::string_view> enum_names<MemSem>();
template <> std::span<const std::string_view> enum_names<MemScope>();

// Name of an enum value; "?" if the value is out of range.
template <typename E>
std::string_view enum_name(E value) {
  auto names = enum_names<E>();
  const auto i = static_cast<size_t>(value);
  return i < names.size() ? names[i] : std::string_view("?");
}
// Enum value by its assembly name; returns false if unknown.
template <typename E>
bool enum_from_name(std::string_view name, E* out) {
  auto names = enum_names<E>();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) {
      *out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

}  // namespace strata::isa
