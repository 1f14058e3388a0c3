#include "isa/fields.h"

#include <array>

#include "base/check.h"

namespace strata::isa {
namespace {

constexpr std::array<FieldInfo, kNumFields> kFields = {{
#define STRATA_FIELD(NAME, LSB, WIDTH, DESCRIPTION) {#NAME, LSB, WIDTH, DESCRIPTION},
#include "isa/fields.def"
#undef STRATA_FIELD
}};

// The word has no reserved bits: the fields tile all 128 bits exactly once.
constexpr bool fields_tile_word() {
  std::array<int, 128> owner{};
  for (const FieldInfo& f : kFields) {
    if (f.width < 1 || f.width > 32 || f.lsb < 0 || f.lsb + f.width > 128) return false;
    // A field must not straddle the two 64-bit halves.
    if (f.lsb / 64 != (f.lsb + f.width - 1) / 64) return false;
    for (int b = f.lsb; b < f.lsb + f.width; ++b) {
      if (owner[b]++ != 0) return false;
    }
  }
  for (int n : owner) {
    if (n != 1) return false;
  }
  return true;
}
static_assert(fields_tile_word(), "isa/fields.def must tile the 128-bit word exactly");

}  // namespace

const FieldInfo& field_info(Field f) {
  CHECK(static_cast<int>(f) < kNumFields);
  return kFields[static_cast<int>(f)];
}

bool field_from_name(std::string_view name, Field* out) {
  for (int i = 0; i < kNumFields; ++i) {
    if (kFields[i].name == name) {
      *out = static_cast<Field>(i);
      return true;
    }
  }
  return false;
}

uint64_t get_field(const Inst& inst, Field f) {
  switch (f) {
    case Field::opcode: return static_cast<uint64_t>(inst.op);
    case Field::guard: return inst.guard;
    case Field::guard_neg: return inst.guard_neg;
    case Field::rd: return inst.rd;
    case Field::ra: return inst.ra;
    case Field::rb: return inst.rb;
    case Field::rc: return inst.rc;
    case Field::pd: return inst.pd;
    case Field::ps: return inst.ps;
    case Field::ps_neg: return inst.ps_neg;
    case Field::b_imm: return inst.b_imm;
    case Field::type: return static_cast<uint64_t>(inst.type);
    case Field::type2: return static_cast<uint64_t>(inst.type2);
    case Field::imm: return inst.imm;
    case Field::mod: return inst.mod;
    case Field::space: return static_cast<uint64_t>(inst.space);
    case Field::sem: return static_cast<uint64_t>(inst.sem);
    case Field::scope: return static_cast<uint64_t>(inst.scope);
    case Field::stall: return inst.ctrl.stall;
    case Field::yield: return inst.ctrl.yield;
    case Field::wbar: return inst.ctrl.wbar;
    case Field::rbar: return inst.ctrl.rbar;
    case Field::wait: return inst.ctrl.wait;
    case Field::kCount: break;
  }
  CHECK_MSG(false, "unknown instruction field");
}

void set_field(Inst& inst, Field f, uint64_t value) {
  CHECK_MSG(value <= field_info(f).max_value(), "value does not fit the instruction field");
  const auto v8 = static_cast<uint8_t>(value);
  switch (f) {
    case Field::opcode: inst.op = static_cast<Opcode>(value); return;
    case Field::guard: inst.guard = v8; return;
    case Field::guard_neg: inst.guard_neg = value != 0; return;
    case Field::rd: inst.rd = v8; return;
    case Field::ra: inst.ra = v8; return;
    case Field::rb: inst.rb = v8; return;
    case Field::rc: inst.rc = v8; return;
    case Field::pd: inst.pd = v8; return;
    case Field::ps: inst.ps = v8; return;
    case Field::ps_neg: inst.ps_neg = value != 0; return;
    case Field::b_imm: inst.b_imm = value != 0; return;
    case Field::type: inst.type = static_cast<DataType>(value); return;
    case Field::type2: inst.type2 = static_cast<DataType>(value); return;
    case Field::imm: inst.imm = static_cast<uint32_t>(value); return;
    case Field::mod: inst.mod = v8; return;
    case Field::space: inst.space = static_cast<MemSpace>(value); return;
    case Field::sem: inst.sem = static_cast<MemSem>(value); return;
    case Field::scope: inst.scope = static_cast<MemScope>(value); return;
    case Field::stall: inst.ctrl.stall = v8; return;
    case Field::yield: inst.ctrl.yield = value != 0; return;
    case Field::wbar: inst.ctrl.wbar = v8; return;
    case Field::rbar: inst.ctrl.rbar = v8; return;
    case Field::wait: inst.ctrl.wait = v8; return;
    case Field::kCount: break;
  }
  CHECK_MSG(false, "unknown instruction field");
}

uint64_t get_field(const Word& word, Field f) {
  const FieldInfo& info = field_info(f);
  const uint64_t half = info.lsb < 64 ? word.lo : word.hi;
  return (half >> (info.lsb % 64)) & info.max_value();
}

void set_field(Word& word, Field f, uint64_t value) {
  const FieldInfo& info = field_info(f);
  CHECK_MSG(value <= info.max_value(), "value does not fit the instruction field");
  uint64_t& half = info.lsb < 64 ? word.lo : word.hi;
  const int shift = info.lsb % 64;
  half = (half & ~(info.max_value() << shift)) | (value << shift);
}

}  // namespace strata::isa
