// The Strata ISA in decoded form: the contract between the compiler (which builds
// Inst values and encodes them) and the hardware model (which decodes them once and
// executes). The instruction list is isa/opcodes.def; the bit layout is isa/fields.def;
// docs/isa.md describes both for people.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace strata::isa {

enum class Opcode : uint16_t {
#define STRATA_OP(NAME, PIPE, OPERANDS, FLAGS, SUMMARY) NAME,
#include "isa/opcodes.def"
#undef STRATA_OP
  kCount
};
inline constexpr int kNumOpcodes = static_cast<int>(Opcode::kCount);

enum class Pipe : uint8_t { ALU, FMA, FP64, MUFU, LSU, CBU };

enum InstFlag : uint32_t {
  kNone = 0,
  kBranch = 1u << 0,
  kMemory = 1u << 1,
  kLoad = 1u << 2,
  kStore = 1u << 3,
  kAtomic = 1u << 4,
  kBarrier = 1u << 5,
  kExit = 1u << 6,
  kSync = 1u << 7,
};

// Static facts about one opcode, from opcodes.def.
struct OpInfo {
  std::string_view name;
  Pipe pipe;
  std::string_view operands;  // e.g. "d, a, b"
  uint32_t flags;
  std::string_view summary;
};
const OpInfo& op_info(Opcode op);
// Opcode by mnemonic (case-sensitive, upper case); returns false if unknown.
bool opcode_from_name(std::string_view name, Opcode* out);

// ---- register file ----
inline constexpr uint8_t kRZ = 255;       // reads as zero, writes are discarded
inline constexpr int kNumGprs = 255;      // R0..R254
inline constexpr uint8_t kPT = 7;         // predicate "true"; as a destination: discard
inline constexpr int kNumPreds = 7;       // P0..P6
inline constexpr int kNumConvBarriers = 16;  // B0..B15
inline constexpr uint8_t kNoDepBarrier = 7;
inline constexpr int kWarpSize = 32;

// Operand data types. 64-bit values live in an aligned register pair (Rn, Rn+1; low
// word in Rn, n even); B128 in an aligned quad.
enum class DataType : uint8_t {
  kNone = 0,
  U8, S8, U16, S16, U32, S32, U64, S64,
  F16, BF16, F32, F64,
  B8, B16, B32, B64, B128,
  Pred,
  kCount
};
int type_bits(DataType t);    // 0 for kNone
bool type_is_float(DataType t);
bool type_is_signed(DataType t);
int type_regs(DataType t);    // registers occupied: 1, 2 or 4
std::string_view type_name(DataType t);  // "u32", "f64", ...
bool type_from_name(std::string_view name, DataType* out);

// mod for ISETP/FSETP: bits 0-3 CmpOp, bits 4-5 BoolOp (combining with ps).
// mod for PLOP: bits 4-5 BoolOp, bit 7 negates pq.
enum class CmpOp : uint8_t {
  EQ, NE, LT, LE, GT, GE,             // ordered for floats (false if either is NaN, NE too)
  EQU, NEU, LTU, LEU, GTU, GEU,       // unordered: true if either is NaN
  NUM, NAN_,                          // both numbers / either NaN
  kCount
};
enum class BoolOp : uint8_t { AND, OR, XOR, kCount };

// mod for FADD/FSUB/FMUL/FFMA/FDIV/CVT: bits 0-1 Round, bit 2 FTZ, bit 3 SAT, bit 4
// "integer rounding" (CVT float->float rounding to integral value: cvt.rni), bit 5
// approximate (FDIV.approx / full).
enum class Round : uint8_t { RN, RZ, RM, RP };
inline constexpr uint8_t kModFtz = 1u << 2;
inline constexpr uint8_t kModSat = 1u << 3;
inline constexpr uint8_t kModRoundInt = 1u << 4;
inline constexpr uint8_t kModApprox = 1u << 5;

enum class MufuOp : uint8_t { RCP, SQRT, RSQ, SIN, COS, EX2, LG2, TANH, kCount };

// mod for ATOM.
// ADD2: the .b32 location holds two 16-bit floats of the type (F16/BF16), element 0 in
// the low half; each half gets b's half added (round to nearest, subnormals kept).
enum class AtomOp : uint8_t { ADD, MIN, MAX, INC, DEC, AND, OR, XOR, EXCH, CAS, ADD2, kCount };

// mod for VOTE / SHFL / BAR.
enum class VoteOp : uint8_t { ALL, ANY, UNI, BALLOT, kCount };
enum class ShflOp : uint8_t { IDX, UP, DOWN, BFLY, kCount };
enum class BarOp : uint8_t { SYNC, ARRIVE, RED_POPC, RED_AND, RED_OR, kCount };

// mod for PRMT: the PTX prmt modes (IDX is the default, selector-driven mode).
enum class PrmtMode : uint8_t { IDX, F4E, B4E, RC8, ECL, ECR, RC16, kCount };

// mod for MEMBAR: bit 0 makes the fence sequentially consistent (fence.sc); without it
// the fence is acq_rel. The sem field of a MEMBAR is ignored.
inline constexpr uint8_t kModFenceSc = 1u << 0;
// mod for CPASYNC: bit 0 caches the copy's source in L2 only (cp.async.cg): the L1 is
// neither looked up nor filled. Without it the source is cached in L1 too (.ca).
inline constexpr uint8_t kModCacheGlobal = 1u << 0;
// mod for PLOP: bit 7 negates pq.
inline constexpr uint8_t kModPqNeg = 1u << 7;

// Memory instruction fields.
enum class MemSpace : uint8_t { GENERIC, GLOBAL, SHARED, LOCAL, CONST, kCount };
// WEAK: ordinary access. RELAXED: a relaxed atomic access (ld/st.volatile, .relaxed).
// ACQUIRE: ld.acquire / atom.acquire; RELEASE: st.release / atom.release;
// ACQ_REL for atomics and fences is ACQUIRE|RELEASE spelled as 3.
enum class MemSem : uint8_t { WEAK = 0, RELAXED = 1, ACQUIRE = 2, RELEASE = 3 };
enum class MemScope : uint8_t { CTA, GPU, SYS };

// mod for S2R.
enum class SpecialReg : uint8_t {
  TID_X, TID_Y, TID_Z, NTID_X, NTID_Y, NTID_Z,
  CTAID_X, CTAID_Y, CTAID_Z, NCTAID_X, NCTAID_Y, NCTAID_Z,
  LANEID, WARPID, NWARPID, SMID, NSMID, GRIDID_LO, GRIDID_HI,
  LANEMASK_EQ, LANEMASK_LT, LANEMASK_LE, LANEMASK_GT, LANEMASK_GE,
  CLOCK_LO, CLOCK_HI, GLOBALTIMER_LO, GLOBALTIMER_HI,
  SHARED_WINDOW_LO, SHARED_WINDOW_HI, LOCAL_WINDOW_LO, LOCAL_WINDOW_HI,
  DYNAMIC_SMEM_SIZE, TOTAL_SMEM_SIZE,
  kCount
};
std::string_view special_reg_name(SpecialReg r);  // "SR_TID.X"

// Control bits written by the compiler's scheduler and honoured by the timing model.
struct Control {
  uint8_t stall = 1;
  bool yield = false;
  uint8_t wbar = kNoDepBarrier;
  uint8_t rbar = kNoDepBarrier;
  uint8_t wait = 0;
  bool operator==(const Control&) const = default;
};

// One decoded instruction. Fields an instruction does not use are zero (registers:
// RZ, predicates: PT), so that encode(decode(w)) == w and decode(encode(i)) == i.
struct Inst {
  Opcode op = Opcode::NOP;
  uint8_t guard = kPT;
  bool guard_neg = false;
  uint8_t rd = kRZ, ra = kRZ, rb = kRZ, rc = kRZ;
  uint8_t pd = kPT, ps = kPT;
  bool ps_neg = false;
  bool b_imm = false;
  DataType type = DataType::kNone;
  DataType type2 = DataType::kNone;
  uint32_t imm = 0;
  uint8_t mod = 0;
  MemSpace space = MemSpace::GENERIC;
  MemSem sem = MemSem::WEAK;
  MemScope scope = MemScope::CTA;
  Control ctrl;
  bool operator==(const Inst&) const = default;
};

// A 128-bit instruction word.
struct Word {
  uint64_t lo = 0, hi = 0;
  bool operator==(const Word&) const = default;
};
inline constexpr int kInstBytes = 16;

}  // namespace strata::isa
