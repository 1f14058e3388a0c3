// The state of lowering one kernel (private to compiler/ir). The instruction families
// live in lower_*.cc, one file per family; lower_kernel.cc drives statements, blocks,
// calls and variables.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/ir/lower.h"
#include "compiler/ir/ptx_types.h"
#include "compiler/ir/ssa_builder.h"

namespace strata::compiler::ir {

using isa::Opcode;

// A variable visible to the code by name (besides module-scope globals/consts).
struct ScopedVar {
  // "shared", "local", "param" (kernel param), "fparam" (inlined func/call param, an SSA
  // value per offset), "fframe" (a param in memory at `offset` in the frame: docs/abi.md)
  std::string space;
  uint64_t offset = 0;
};

struct Frame {
  const ptx::Function* fn = nullptr;
  std::string module;
  std::string prefix;                        // namespaces registers/labels of this inline
  std::map<std::string, int> labels;         // label -> block
  std::map<std::string, DataType> regs;      // declared registers (exact names)
  std::map<std::string, DataType> reg_ranges;  // %r<N> prefixes
  std::map<std::string, int> reg_range_size;   // %r<N> -> N
  std::map<std::string, ScopedVar> vars;
  // fparam name -> its layout: byte offset -> width (1, 2, 4 or 8) of the accesses there.
  // Every byte belongs to at most one entry (write_param enforces it), whose SSA variable
  // "param:<name>@<offset>" holds the latest value stored there; a redeclaration resets it.
  std::map<std::string, std::map<int64_t, int>> param_layout;
  int ret_block = -1;                        // inlined: where ret goes
};

// (address register or RZ, immediate offset) of a memory operand; offset bit 63 marks an
// offset into dynamic shared memory, patched after layout.
struct MemAddr {
  Operand base = Operand::immediate(0);
  uint64_t offset = 0;
};
class Lowerer;
// Computes the address of memory operand `slot` of `in` accessing `space` (lower_memory.cc).
StatusOr<MemAddr> mem_address(Lowerer& l, const ptx::Instruction& in, const ptx::OperandSlot& slot,
                              isa::MemSpace space, bool const_bank);

class Lowerer {
 public:
  Lowerer(const LinkedProgram& p, std::vector<std::string>* symbols)
      : prog_(p), symbols_(symbols), ssa_(&f_) {}
  StatusOr<LoweredKernel> run(const ptx::Function& kernel);

  // ---- shared helpers (lower_kernel.cc) ----
  Status invalid(const ptx::SourceLoc& loc, const std::string& msg) const;
  Status unsupported(const ptx::SourceLoc& loc, const std::string& msg) const;
  int emit(Inst inst);  // appends to the current block; returns defs[0] (or kNoValue)
  int isa_op(Opcode op, DataType type, DataType result, std::vector<Operand> srcs, uint8_t mod = 0,
             uint64_t imm = 0);
  int constant(DataType t, uint64_t bits);
  int copy(int v);
  int extract(int v, int part);
  int pack(DataType t, std::vector<Operand> parts);
  int special(isa::SpecialReg r);
  int widen(int v32, bool is_signed);   // 32 -> 64-bit
  int low32(int v64);
  StatusOr<DataType> reg_type(const std::string& name, const ptx::SourceLoc& loc) const;
  // Reads an operand as a value/immediate of type `t`.
  StatusOr<Operand> read(const ptx::OperandSlot& s, DataType t);
  StatusOr<int> read_value(const ptx::OperandSlot& s, DataType t);  // forces a register
  StatusOr<int> read_pred(const ptx::OperandSlot& s);                // applies !negation
  // Writes `value` (converted to the register's width when `from` differs) to a
  // destination operand; sinks discard.
  Status write(const ptx::OperandSlot& s, int value);
  std::string var_key(const std::string& reg) const { return frame().prefix + reg; }
  Frame& frame() { return frames_.back(); }
  const Frame& frame() const { return frames_.back(); }
  const ScopedVar* find_scoped(const std::string& name) const;
  uint32_t symbol_index(const std::string& name);
  // Address of a symbol in its own state space (mov r, sym).
  StatusOr<Operand> symbol_address(const ptx::SymbolOperand& s, DataType t, const ptx::SourceLoc& loc);
  uint64_t shared_offset_of(const std::string& module_var);
  void branch(int target);
  void cond_branch(int pred, bool negate, int t, int f, bool uniform);
  void start_block(int b) { cur_ = b; }
  int new_block() { return f_.new_block(); }

  // ---- families ----
  Status lower_instruction(const ptx::Instruction& in);
  Status lower_arith(const ptx::Instruction& in, bool* handled);    // lower_arith.cc
  Status lower_float(const ptx::Instruction& in, bool* handled);    // lower_float.cc
  Status lower_half(const ptx::Instruction& in, bool* handled);     // lower_float.cc: .f16, .f16x2
  int pack_halves(int lo, int hi);  // .b32 = {lo[15:0], hi[15:0]}
  Status lower_cvt(const ptx::Instruction& in, bool* handled);      // lower_cvt.cc
  Status lower_memory(const ptx::Instruction& in, bool* handled);   // lower_memory.cc
  Status lower_atomic(const ptx::Instruction& in, bool* handled);   // lower_memory.cc
  Status lower_control(const ptx::Instruction& in, bool* handled);  // lower_control.cc
  Status lower_warp(const ptx::Instruction& in, bool* handled);     // lower_control.cc
  Status lower_collective(const ptx::Instruction& in, bool* handled);  // lower_collective.cc
  // After a WARPSYNC on `mask`: the non-exited member lanes (mask & the running lanes).
  int live_members(const Operand& mask);  // lower_collective.cc
  Status lower_async(const ptx::Instruction& in, bool* handled);    // lower_async.cc: cp.async, mbarrier, L2 policies
  Status lower_tensor(const ptx::Instruction& in, bool* handled);   // lower_tensor.cc: wmma/mma/ldmatrix/movmatrix/stmatrix
  Status lower_misc(const ptx::Instruction& in, bool* handled);     // lower_misc.cc: video, isspacep, cvt.pack, sad, fns, prefetch
  Status lower_texture(const ptx::Instruction& in, bool* handled);  // lower_texture.cc: tex, tld4, txq, suld, sust, sured, suq
  Status lower_call(const ptx::Instruction& in);                    // lower_kernel.cc
  // Real calls (lower_call.cc, docs/abi.md): a CALL to a separately compiled function,
  // `callee` null for an indirect call through a register.
  Status lower_real_call(const ptx::Instruction& in, const ptx::Function* callee);
  bool inline_call(const std::string& callee) const;
  StatusOr<LoweredKernel> run_function(const ptx::Function& fn, const KernelInfo& kernel);
  // Rewrites the dynamic-shared placeholders (offset with bit 63 set, symbol "dynshared")
  // to offsets from `base`, the start of dynamic shared memory.
  void place_dynamic_shared(uint64_t base);
  // The end of run / run_function: barrier count, predecessor lists, the result.
  LoweredKernel finish();
  // .param variables held as SSA values ("fparam": call arguments and results, inlined
  // callees' parameters; lower_call.cc). write_param records a store of `bytes` (1, 2, 4
  // or 8) at `offset` of `name` in the current frame: `value` is a 64-bit register for 8
  // bytes, else a 32-bit one whose bits above `bytes` are ignored. A store that partly
  // overlaps an earlier access of another offset or width is kNotSupported.
  Status write_param(const std::string& name, int64_t offset, int bytes, int value);
  // The `bytes` at `offset` of `name`: the value stored there with that width, or one
  // composed from the stores covering those bytes (bytes nobody stored read as zero).
  // A 64-bit register for 8 bytes, else a 32-bit one whose bits above `bytes` are
  // unspecified (callers truncate).
  int read_param(const std::string& name, int64_t offset, int bytes);
  // read_param over another frame's variable (`prefix` and `layout` of that frame).
  int read_param_in(const std::string& prefix, const std::map<int64_t, int>& layout,
                    const std::string& name, int64_t offset, int bytes);
  // ld/st.param of a parameter held in the frame ("fframe" space).
  // `mem`: the access width/signedness; `value`: the register type loaded or stored.
  Status frame_param_access(Opcode op, DataType mem, DataType value, int64_t offset, const ptx::OperandSlot& data);
  // CUDA device-runtime calls implemented inline (lower_device_runtime.cc).
  Status lower_vprintf(const ptx::Instruction& in);     // printf record into the FIFO
  Status lower_assertfail(const ptx::Instruction& in);  // assert record, then TRAP 1
  // CUDA dynamic parallelism (lower_device_launch.cc): the __cudaCDP2* device runtime
  // calls; unsupported ones are kNotSupported naming the function.
  static bool is_device_launch_call(const std::string& name);
  Status lower_device_launch_call(const ptx::Instruction& in, const std::string& name);
  // Device heap (devrt.h): the function that implements call target `name` (malloc ->
  // the library's __strata_malloc, ...; else `name`), and the heap VA intrinsic.
  StatusOr<std::string> device_runtime_callee(const ptx::Instruction& in, const std::string& name);
  Status lower_device_heap(const ptx::Instruction& in);  // LDC of the heap VA from c[3]

  // Modifier helpers.
  static bool has(const ptx::Instruction& in, const char* m);
  // The last modifier that is a PTX type name.
  static StatusOr<DataType> inst_type(const Lowerer& l, const ptx::Instruction& in);
  Status want_operands(const ptx::Instruction& in, size_t n) const;

  // State.
  const LinkedProgram& prog_;
  std::vector<std::string>* symbols_;
  Function f_;
  KernelInfo info_;
  SsaBuilder ssa_;
  std::vector<Frame> frames_;
  int cur_ = 0;
  int frame_counter_ = 0;
  const ptx::Instruction* inst_ = nullptr;   // the instruction being lowered
  int loc_file_ = 0, loc_line_ = 0, loc_col_ = 0;
  uint64_t shared_top_ = 0, local_top_ = 0;
  std::map<std::string, uint64_t> module_shared_;  // module-scope shared var -> offset
  bool uses_dynamic_shared_ = false;
  // Functions: the layout of the kernel they are compiled for, and a variable it lacks.
  const KernelInfo* kernel_layout_ = nullptr;
  std::string missing_shared_;
  uint32_t max_barrier_ = 0;
  // A kernel parameter's "param-space address" (mov r, param) is its offset in constant
  // bank 0, which ld.param through a register reads with LDC. A generic address of a
  // parameter (cvta.param) points into a per-thread copy of the whole parameter block in
  // local memory, made at entry; this is its local offset (-1: no copy needed), which
  // cvta.param adds before converting like a local address.
  int64_t param_copy_ = -1;
  bool is_function_ = false;  // lowering a separately called .func (run_function)
  // alloca/stacksave/stackrestore (lower_memory.cc): local offset of the thread's alloca
  // arena, reserved on first use (-1: none).
  int64_t alloca_arena_ = -1;
  uint64_t param_copy_offset();

 private:
  Status lower_body(const ptx::Function& fn);
  Status declare(const ptx::VarDecl& d);
  Status lower_statements(const std::vector<ptx::Statement>& stmts);
  Status collect_labels(const std::vector<ptx::Statement>& stmts);
};

}  // namespace strata::compiler::ir
