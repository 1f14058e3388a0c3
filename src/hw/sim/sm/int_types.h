// Maps an instruction's integer DataType to the C++ type its handler is instantiated
// for. B32/B64 behave as unsigned; 8/16-bit ALU types are not defined by the ISA's
// integer pipe (the compiler widens them) and select nothing.
#pragma once

#include <cstdint>

#include "isa/inst.h"

namespace strata::hw::sim {

enum class IntKind { kNone, kU32, kS32, kU64, kS64 };

inline IntKind int_kind(isa::DataType t) {
  switch (t) {
    case isa::DataType::U32:
    case isa::DataType::B32: return IntKind::kU32;
    case isa::DataType::S32: return IntKind::kS32;
    case isa::DataType::U64:
    case isa::DataType::B64: return IntKind::kU64;
    case isa::DataType::S64: return IntKind::kS64;
    default: return IntKind::kNone;
  }
}

// SELECT_INT(H, type): &H<uint32_t|int32_t|uint64_t|int64_t> by type, or nullptr.
#define STRATA_SELECT_INT(H, type)                    \
  do {                                                \
    switch (::strata::hw::sim::int_kind(type)) {      \
      case IntKind::kU32: return &H<uint32_t>;        \
      case IntKind::kS32: return &H<int32_t>;         \
      case IntKind::kU64: return &H<uint64_t>;        \
      case IntKind::kS64: return &H<int64_t>;         \
      case IntKind::kNone: return nullptr;            \
    }                                                 \
    return nullptr;                                   \
  } while (0)

// Same, with signedness ignored.
#define STRATA_SELECT_BITS(H, type)                   \
  do {                                                \
    switch (::strata::hw::sim::int_kind(type)) {      \
      case IntKind::kU32:                             \
      case IntKind::kS32: return &H<uint32_t>;        \
      case IntKind::kU64:                             \
      case IntKind::kS64: return &H<uint64_t>;        \
      case IntKind::kNone: return nullptr;            \
    }                                                 \
    return nullptr;                                   \
  } while (0)

}  // namespace strata::hw::sim
