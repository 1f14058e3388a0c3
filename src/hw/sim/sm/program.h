// Pre-decoded Strata programs: what decode_program (exec.h) produces and the warp
// interpreter executes.
//
// Each 16-byte word becomes a DecodedInst: a handler chosen once from the dispatch table
// (indexed by opcode, specialised by type/modifiers where it matters) plus its operands
// already turned into register-file row indices. Register operands index the warp's
// structure-of-arrays register file (row r holds R<r> of all 32 lanes); RZ reads map to
// zero rows and RZ writes to discard rows, so handlers never test for RZ. A b operand
// that is an immediate points at replicated rows owned by the Program, so handlers read
// every source the same way.
//
// A Program is immutable after decode_program and shared between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "hw/sim/sm/exec.h"
#include "hw/sim/sm/hazard_check.h"
#include "isa/inst.h"

namespace strata::hw::sim {

struct ExecContext;
struct DecodedInst;

// Executes `inst` for the lanes in `exec` (the running group's lanes whose guard holds;
// never 0). The interpreter has already advanced ctx.pc to the next instruction.
using Handler = void (*)(ExecContext& ctx, const DecodedInst& inst, uint32_t exec);

inline constexpr uint8_t kPredTrueSlot = 7;     // predicate slot that always reads all-ones
inline constexpr uint8_t kPredDiscardSlot = 8;  // predicate slot that PT destinations write
inline constexpr int kPredSlots = 9;

struct DecodedInst {
  Handler fn = nullptr;
  const uint32_t* bimm = nullptr;  // immediate b operand: 4 replicated rows, else null
  uint32_t guard_xor = 0;          // 0, or ~0 for a negated guard
  uint32_t imm = 0;
  uint32_t pc = 0;                 // this instruction's index
  uint32_t target = 0;             // branch target, clamped to the end sentinel
  uint16_t d = 0, a = 0, b = 0, c = 0;  // register rows (RZ remapped)
  uint8_t guard = kPredTrueSlot;
  uint8_t pd = kPredDiscardSlot;
  uint8_t ps = kPredTrueSlot;
  uint8_t pq = kPredTrueSlot;      // PLOP's second predicate
  uint32_t ps_xor = 0;             // 0, or ~0 for a negated ps
  uint32_t pq_xor = 0;
  bool c_is_rz = false;            // VOTE's optional member mask
  bool b_is_rz = false;            // BFI's position/length form
  bool a_is_rz = false;            // BAR id form, memory absolute addressing
  isa::Inst inst;                  // the decoded fields (for modifiers and diagnostics)
};

class Program {
 public:
  // Rows of a warp's register file: [0, num_gpr_rows) are R0.., then 4 zero rows,
  // then 4 discard rows.
  uint32_t num_gpr_rows() const { return num_gpr_rows_; }
  uint32_t zero_row() const { return num_gpr_rows_; }
  uint32_t discard_row() const { return num_gpr_rows_ + 4; }
  uint32_t num_rows() const { return num_gpr_rows_ + 8; }

  // Instructions [0, size()); index size() is a sentinel that faults kInvalidPc, so a
  // warp running off the end or branching outside the code faults.
  uint32_t size() const { return size_; }
  const DecodedInst* code() const { return code_.data(); }
  // The hazard checker's view of each instruction (size() + 1 entries).
  const HazardOps* hazard_ops() const { return hazard_ops_.data(); }

 private:
  friend std::shared_ptr<const Program> decode_program(const uint8_t* code, uint64_t bytes);
  uint32_t size_ = 0;
  uint32_t num_gpr_rows_ = 1;
  std::vector<DecodedInst> code_;
  std::vector<HazardOps> hazard_ops_;
  std::vector<uint32_t> imm_rows_;  // 4 * 32 words per immediate-b instruction
};

// The handler for an instruction, chosen by opcode (and type/modifiers). Returns the
// illegal-instruction handler for combinations the ISA does not define.
Handler select_handler(const isa::Inst& inst);

// Handlers shared between files.
void handle_illegal(ExecContext& ctx, const DecodedInst& inst, uint32_t exec);
void handle_invalid_pc(ExecContext& ctx, const DecodedInst& inst, uint32_t exec);

}  // namespace strata::hw::sim
