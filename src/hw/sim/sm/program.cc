// decode_program: turns instruction words into DecodedInst once per program.
#include "hw/sim/sm/program.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#include "hw/sim/sm/ops.h"
#include "base/check.h"
#include "hw/sim/sm/state.h"
#include "isa/encode.h"

namespace strata::hw::sim {
namespace {

using Selector = Handler (*)(const isa::Inst&);

constexpr Selector kSelectors[] = {
#define STRATA_OP(NAME, PIPE, OPERANDS, FLAGS, SUMMARY) &select_##NAME,
#include "isa/opcodes.def"
#undef STRATA_OP
};
static_assert(std::size(kSelectors) == isa::kNumOpcodes, "every opcode needs a handler selector");

bool is_int64(isa::DataType t) {
  return t == isa::DataType::U64 || t == isa::DataType::S64 || t == isa::DataType::B64;
}

// The 64-bit value an immediate b operand stands for, by the instruction's type:
// 64-bit integers sign-extend the 32-bit immediate, F64 widens it as an F32 bit
// pattern, everything else uses it as is.
uint64_t immediate_value(const isa::Inst& inst) {
  if (inst.type == isa::DataType::F64) {
    return std::bit_cast<uint64_t>(static_cast<double>(std::bit_cast<float>(inst.imm)));
  }
  if (is_int64(inst.type)) return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(inst.imm)));
  return inst.imm;
}

bool uses_b_immediate(const isa::Inst& inst) { return inst.b_imm; }

}  // namespace

Handler select_handler(const isa::Inst& inst) {
  const auto index = static_cast<size_t>(inst.op);
  if (index >= std::size(kSelectors)) return &handle_illegal;
  Handler h = kSelectors[index](inst);
  return h != nullptr ? h : &handle_illegal;
}

std::shared_ptr<const Program> decode_program(const uint8_t* code, uint64_t bytes) {
  auto program = std::make_shared<Program>();
  const uint64_t count = code == nullptr ? 0 : bytes / isa::kInstBytes;
  CHECK_MSG(count < (1ull << 31), "program too large");
  program->size_ = static_cast<uint32_t>(count);

  std::vector<StatusOr<isa::Inst>> insts;
  insts.reserve(count);
  uint32_t max_row = 1;
  size_t num_imm = 0;
  for (uint64_t i = 0; i < count; ++i) {
    isa::Word w;
    std::memcpy(&w.lo, code + i * isa::kInstBytes, 8);
    std::memcpy(&w.hi, code + i * isa::kInstBytes + 8, 8);
    insts.push_back(isa::decode(w));
    if (!insts.back().ok()) continue;
    const isa::Inst& in = *insts.back();
    for (uint8_t r : {in.rd, in.ra, in.rb, in.rc}) {
      if (r != isa::kRZ) max_row = std::max<uint32_t>(max_row, r + 4u);
    }
    if (uses_b_immediate(in)) ++num_imm;
  }
  program->num_gpr_rows_ = max_row;
  program->imm_rows_.assign(num_imm * 4 * 32, 0);

  const uint16_t zero = static_cast<uint16_t>(program->zero_row());
  const uint16_t discard = static_cast<uint16_t>(program->discard_row());
  auto src = [&](uint8_t r) { return r == isa::kRZ ? zero : static_cast<uint16_t>(r); };
  auto pslot = [](uint8_t p) { return p >= isa::kPT ? kPredTrueSlot : p; };

  program->code_.resize(count + 1);
  program->hazard_ops_.resize(count + 1);
  size_t imm_index = 0;
  for (uint64_t i = 0; i < count; ++i) {
    DecodedInst& d = program->code_[i];
    d.pc = static_cast<uint32_t>(i);
    if (!insts[i].ok()) {
      d.fn = &handle_illegal;
      continue;
    }
    const isa::Inst& in = *insts[i];
    d.inst = in;
    program->hazard_ops_[i] = hazard_ops(in);
    d.fn = select_handler(in);
    d.guard = pslot(in.guard);
    d.guard_xor = in.guard_neg ? 0xffffffffu : 0;
    d.d = in.rd == isa::kRZ ? discard : in.rd;
    d.a = src(in.ra);
    d.b = src(in.rb);
    d.c = src(in.rc);
    d.a_is_rz = in.ra == isa::kRZ;
    d.b_is_rz = in.rb == isa::kRZ && !in.b_imm;
    d.c_is_rz = in.rc == isa::kRZ;
    d.pd = in.pd >= isa::kPT ? kPredDiscardSlot : in.pd;
    d.ps = pslot(in.ps);
    d.ps_xor = in.ps_neg ? 0xffffffffu : 0;
    d.pq = pslot(in.rb & 7);
    d.pq_xor = (in.mod & isa::kModPqNeg) ? 0xffffffffu : 0;
    d.imm = in.imm;
    d.target = in.imm < count ? in.imm : static_cast<uint32_t>(count);
    if (uses_b_immediate(in)) {
      uint32_t* rows = program->imm_rows_.data() + imm_index * 4 * 32;
      ++imm_index;
      const uint64_t v = immediate_value(in);
      std::fill(rows, rows + 32, static_cast<uint32_t>(v));
      std::fill(rows + 32, rows + 64, static_cast<uint32_t>(v >> 32));
      d.bimm = rows;
    }
  }
  DecodedInst& end = program->code_[count];
  end.pc = static_cast<uint32_t>(count);
  end.fn = &handle_invalid_pc;
  return program;
}

void handle_illegal(ExecContext& ctx, const DecodedInst& inst, uint32_t exec) {
  raise_fault(ctx, FaultKind::kIllegalInstruction, inst.pc, std::countr_zero(exec));
}

void handle_invalid_pc(ExecContext& ctx, const DecodedInst& inst, uint32_t exec) {
  raise_fault(ctx, FaultKind::kInvalidPc, inst.pc, std::countr_zero(exec));
}

}  // namespace strata::hw::sim
