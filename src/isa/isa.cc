// Static tables of the ISA: opcode facts (from opcodes.def), data types and special
// registers.
#include <array>

#include "base/check.h"
#include "isa/inst.h"

namespace strata::isa {
namespace {

constexpr std::array<OpInfo, kNumOpcodes> kOpInfo = {{
#define STRATA_OP(NAME, PIPE, OPERANDS, FLAGS, SUMMARY) \
  {#NAME, Pipe::PIPE, OPERANDS, static_cast<uint32_t>(FLAGS), SUMMARY},
#include "isa/opcodes.def"
#undef STRATA_OP
}};

// The opcode field is 10 bits wide (isa/fields.def).
static_assert(kNumOpcodes <= 1024, "too many opcodes for the opcode field");

struct TypeInfo {
  std::string_view name;
  int bits;
  bool is_float;
  bool is_signed;
};
constexpr std::array<TypeInfo, static_cast<int>(DataType::kCount)> kTypes = {{
    {"none", 0, false, false},
    {"u8", 8, false, false},    {"s8", 8, false, true},
    {"u16", 16, false, false},  {"s16", 16, false, true},
    {"u32", 32, false, false},  {"s32", 32, false, true},
    {"u64", 64, false, false},  {"s64", 64, false, true},
    {"f16", 16, true, true},    {"bf16", 16, true, true},
    {"f32", 32, true, true},    {"f64", 64, true, true},
    {"b8", 8, false, false},    {"b16", 16, false, false},
    {"b32", 32, false, false},  {"b64", 64, false, false},
    {"b128", 128, false, false},
    {"pred", 1, false, false},
}};

constexpr std::array<std::string_view, static_cast<int>(SpecialReg::kCount)> kSpecialRegs = {
    "SR_TID.X",        "SR_TID.Y",          "SR_TID.Z",         "SR_NTID.X",
    "SR_NTID.Y",       "SR_NTID.Z",         "SR_CTAID.X",       "SR_CTAID.Y",
    "SR_CTAID.Z",      "SR_NCTAID.X",       "SR_NCTAID.Y",      "SR_NCTAID.Z",
    "SR_LANEID",       "SR_WARPID",         "SR_NWARPID",       "SR_SMID",
    "SR_NSMID",        "SR_GRIDID.LO",      "SR_GRIDID.HI",     "SR_LANEMASK_EQ",
    "SR_LANEMASK_LT",  "SR_LANEMASK_LE",    "SR_LANEMASK_GT",   "SR_LANEMASK_GE",
    "SR_CLOCK.LO",     "SR_CLOCK.HI",       "SR_GLOBALTIMER.LO", "SR_GLOBALTIMER.HI",
    "SR_SHARED_WINDOW.LO", "SR_SHARED_WINDOW.HI", "SR_LOCAL_WINDOW.LO", "SR_LOCAL_WINDOW.HI",
    "SR_DYNAMIC_SMEM_SIZE", "SR_TOTAL_SMEM_SIZE",
};

const TypeInfo& type_info(DataType t) {
  CHECK_MSG(static_cast<int>(t) < static_cast<int>(DataType::kCount), "invalid DataType");
  return kTypes[static_cast<int>(t)];
}

}  // namespace

const OpInfo& op_info(Opcode op) {
  CHECK_MSG(static_cast<int>(op) < kNumOpcodes, "invalid Opcode");
  return kOpInfo[static_cast<int>(op)];
}

bool opcode_from_name(std::string_view name, Opcode* out) {
  for (int i = 0; i < kNumOpcodes; ++i) {
    if (kOpInfo[i].name == name) {
      *out = static_cast<Opcode>(i);
      return true;
    }
  }
  return false;
}

int type_bits(DataType t) { return type_info(t).bits; }
bool type_is_float(DataType t) { return type_info(t).is_float; }
bool type_is_signed(DataType t) { return type_info(t).is_signed; }
int type_regs(DataType t) {
  const int bits = type_info(t).bits;
  return bits <= 32 ? 1 : bits / 32;
}
std::string_view type_name(DataType t) { return type_info(t).name; }

bool type_from_name(std::string_view name, DataType* out) {
  for (int i = 0; i < static_cast<int>(DataType::kCount); ++i) {
    if (kTypes[i].name == name) {
      *out = static_cast<DataType>(i);
      return true;
    }
  }
  return false;
}

std::string_view special_reg_name(SpecialReg r) {
  CHECK_MSG(static_cast<int>(r) < static_cast<int>(SpecialReg::kCount), "invalid SpecialReg");
  return kSpecialRegs[static_cast<int>(r)];
}

}  // namespace strata::isa
