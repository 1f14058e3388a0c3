// The Strata binary ("sxbin"): what the compiler produces and the driver loads.
//
// FILE FORMAT. An ELF64 little-endian relocatable-style image (e_type ET_REL,
// e_machine kElfMachineStrata, EI_OSABI 0) with these sections, in any order:
//   .text             all kernels' code, 16-byte instruction words (isa/fields.def)
//   .strata.kernels   kernel descriptors (KernelDesc)
//   .strata.symbols   the module symbol table (Binary::symbol_table)
//   .strata.const     init image of constant bank 2 (Binary::const_bank_size, const_init)
//   .strata.globals   global / const variables, their init data and relocations
//   .strata.lines     per kernel: instruction index -> PTX line and .loc file/line
//   .shstrtab         section names
// The payload of the .strata.* sections is a private, versioned record format
// (sxbin.cc); only write_sxbin/read_sxbin know it. read_sxbin validates every offset,
// size and count, so any byte string is safe to pass to it.
//
// CODE. A kernel's code is the byte range [code_offset, code_offset + code_size) of
// .text, 16-byte aligned. Branch (BRA) and reconvergence (BSSY) targets are instruction
// indices RELATIVE TO THE KERNEL'S FIRST INSTRUCTION, so a kernel's code may be loaded
// at any 16-byte-aligned VA and launched with LaunchPacket::code_va pointing at it.
//
// CONSTANT-BANK ABI (fixed; the compiler emits it, the driver's loader implements it):
//   c[0]  kernel parameters at their PTX layout offsets: parameters in declaration
//         order, each aligned to its declared .align or natural alignment, starting at
//         offset 0 (KernelDesc::params lists them; param_bytes is the total size).
//   c[1]  the module symbol address table: 8 bytes per entry, entry i at offset 8*i
//         holds the 64-bit GPU VA of Binary::symbol_table[i] (a global variable, a
//         const variable, or a function whose address the code takes). The loader
//         writes it after placing the module; its size is 8 * symbol_table.size().
//   c[2]  the module's .const variables at compiler-assigned offsets: the loader
//         allocates a const_bank_size-byte block in device memory, copies const_init
//         (zero-filling the rest), and binds it as bank 2. A const variable's GPU VA is
//         bank-2 base + GlobalVar::const_offset, so generic loads of it work too.
//   c[3]  the DRIVER BANK, written by the driver and bound at every launch (kDriverBank*
//         below): offset 0 u64 printf FIFO VA, 8 u64 printf FIFO size in bytes, 16 u64
//         assert record VA, 24 u64 device heap VA (0: none yet; layout
//         compiler/devrt/heap_layout.h), 56 u64 device launch queue VA (DEVICE LAUNCH);
//         offsets 32..55 are reserved (zero) for future fields.
//   c[4]  the LAUNCH ENVIRONMENT (kEnvBank): %envreg0..31, u32 register N at offset 4*N
//         (kEnvBankBytes). The driver binds it at every launch: a context-wide all-zero
//         bank normally (the loader also puts that one in the kernel descriptors, so
//         device-side launches see it), and for a cooperative launch a bank of its own
//         whose %envreg1:%envreg2 (high:low) hold the grid workspace VA that CUDA's
//         cooperative groups read (cooperative_groups/details/driver_abi.h).
//   Code reads parameters with LDC c[0][...], symbol addresses with LDC c[1][...] (64
//   bit), const variables with LDC c[2][...] or LD.CONST, driver services with LDC
//   c[3][...], %envregN with LDC c[4][4*N].
//
// DEVICE PRINTF. vprintf(format, args) appends one record to the context's FIFO. FIFO
// layout: u64 at offset 0 counts the record bytes reserved so far (ATOM.ADD), u64 at 8
// is reserved, records start at kPrintfFifoHeaderBytes. A record reserved at record
// offset R with length L is written only if kPrintfFifoHeaderBytes + R + L <= FIFO
// size (else dropped, vprintf returns -1). Record: u32 length L (a multiple of 8,
// header included), u32 argument bytes A, u64 the format string's generic VA, then the
// A bytes of the argument buffer (layout: printf_layout.h). The driver prints the
// records in FIFO order at synchronisation points and zeroes the used FIFO.
//
// DEVICE ASSERT. __assertfail claims the assert record (kAssertRecordBytes, zeroed by
// the driver) with ATOM.EXCH of u32 1 at offset 0; the claiming thread stores u32 line
// at 4, u64 message VA at 8, file VA at 16, function VA at 24, then u32 2 at offset 0
// (complete), and every asserting thread executes TRAP 1.
//
// GLOBAL VARIABLES (VarSpace::kGlobal). The loader allocates each one (size bytes,
// alignment align), copies init (zero-filling the rest: init.size() <= size) and then
// applies init_relocs: at byte `offset` of the variable it writes, as a little-endian
// 64-bit value, the GPU VA of the symbol named `symbol` plus `addend` (symbol is a
// global or const variable or a function of this binary). kConst variables live in
// bank 2 (their init is already part of const_init; relocations in them are applied
// to the bank-2 block at const_offset + offset).
//
// MANAGED VARIABLES (VarSpace::kManaged: PTX `.global .attribute(.managed)`, CUDA's
// __managed__). Like kGlobal (size, align, init, init_relocs), but the loader places
// them in managed memory (host pages mapped into the GPU at their host address, see
// cuda/driver/managed_memory.h) instead of device memory, so the host reaches the same
// bytes at the same address.
//
// SHARED AND LOCAL MEMORY. Static .shared variables sit at compiler-assigned offsets in
// [0, shared_bytes); extern (dynamic) shared arrays start at shared_bytes rounded up to
// 16 (or their larger declared alignment; the compiler folds that into shared_bytes'
// rounding so dynamic shared memory always starts at align_up(shared_bytes, 16)). The
// generic address of shared offset X is SHARED_WINDOW + X (code reads the window with
// S2R SR_SHARED_WINDOW_LO/HI); local offset X likewise with SR_LOCAL_WINDOW_LO/HI.
// SHARED/LOCAL memory instructions take a 32-bit offset register; GLOBAL/GENERIC take
// a 64-bit aligned register pair.
//
// CALL STACK. A kernel's local_bytes is its own frame plus stack_bytes, the stack for
// the frames of the functions it really calls (docs/abi.md). Without recursion that is
// the deepest chain of called frames. With recursion (`recursion`) it is
// kStackBytesPerLimitByte * kDefaultStackLimit, and the driver replaces it at launch by
// kStackBytesPerLimitByte * the context's cudaLimitStackSize.
//
// DEVICE HEAP. A kernel that calls malloc/free (`uses_device_heap`) reads the heap's VA
// from c[3] (kDriverBankDeviceHeapVa); the driver allocates the heap before the first
// launch of such a kernel (layout: compiler/devrt/heap_layout.h).
//
// Thread safety: all functions are pure; Binary is a plain value.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::sxbin {

inline constexpr uint16_t kElfMachineStrata = 0x5358;  // 'S','X': private e_machine
inline constexpr uint32_t kFormatVersion = 2;          // of the .strata.* records

// Constant banks used by compiled code.
inline constexpr int kParamBank = 0;
inline constexpr int kSymbolBank = 1;
inline constexpr int kConstVarBank = 2;
inline constexpr int kDriverBank = 3;
inline constexpr int kEnvBank = 4;

// Launch environment (c[4]) layout: %envreg0..31, u32 each.
inline constexpr uint32_t kEnvRegCount = 32;
inline constexpr uint32_t kEnvBankBytes = 4 * kEnvRegCount;

// Driver bank (c[3]) layout.
inline constexpr uint32_t kDriverBankPrintfFifoVa = 0;
inline constexpr uint32_t kDriverBankPrintfFifoSize = 8;
inline constexpr uint32_t kDriverBankAssertRecordVa = 16;
inline constexpr uint32_t kDriverBankDeviceHeapVa = 24;  // compiler/devrt/heap_layout.h
inline constexpr uint32_t kDriverBankLaunchQueueVa = 56;  // DEVICE LAUNCH
inline constexpr uint32_t kDriverBankBytes = 64;

// CALL STACK: CUDA's default cudaLimitStackSize, and the bytes of Strata stack a byte
// of that limit stands for (a Strata frame saves every register its function
// allocates, so frames are a few times larger than NVIDIA's: docs/abi.md).
inline constexpr uint32_t kDefaultStackLimit = 1024;
inline constexpr uint32_t kStackBytesPerLimitByte = 4;

// Printf FIFO and record layout (see DEVICE PRINTF above).
inline constexpr uint32_t kPrintfFifoHeaderBytes = 16;
inline constexpr uint32_t kPrintfRecordHeaderBytes = 16;

// Assert record layout (see DEVICE ASSERT above).
inline constexpr uint32_t kAssertRecordState = 0;     // u32: 0 free, 1 claimed, 2 complete
inline constexpr uint32_t kAssertRecordLine = 4;      // u32
inline constexpr uint32_t kAssertRecordMessage = 8;   // u64 generic VA
inline constexpr uint32_t kAssertRecordFile = 16;     // u64 generic VA
inline constexpr uint32_t kAssertRecordFunction = 24; // u64 generic VA
inline constexpr uint32_t kAssertRecordBytes = 32;

// DEVICE LAUNCH (CUDA dynamic parallelism; the formats are hw/contract/device_launch.h,
// repeated here because compiled code builds them; the driver static_asserts that the
// two agree). A kernel's address (mov.u64 %rd, kernel) is its kernel descriptor's VA,
// through the symbol table. __cudaCDP2GetParameterBufferV2 reserves a record in the
// launch queue (c[3] kDriverBankLaunchQueueVa) by ATOM.ADD of the record size on `top`,
// fills its header and returns the parameter buffer after it (NULL when the queue is
// full); __cudaCDP2LaunchDeviceV2 takes a sequence number (ATOM.ADD on `sequence`),
// checks the nesting depth and pending-launch limit, and publishes the record (state).
// The per-thread last error (cudaGetLastError) lives in a register.
inline constexpr uint32_t kDescParamBytes = 32;           // u32 in the kernel descriptor
inline constexpr uint32_t kQueueTop = 0;                  // u64
inline constexpr uint32_t kQueueCapacity = 8;             // u64
inline constexpr uint32_t kQueueSequence = 16;            // u32
inline constexpr uint32_t kQueuePendingBase = 20;         // u32
inline constexpr uint32_t kQueuePendingLimit = 24;        // u32
inline constexpr uint32_t kQueueDepth = 28;               // u32
inline constexpr uint32_t kQueueNextStream = 32;          // u32
inline constexpr uint32_t kQueueHeaderBytes = 64;
inline constexpr uint32_t kRecordDescriptor = 0;          // u64
inline constexpr uint32_t kRecordGrid = 8;                // u32[3]
inline constexpr uint32_t kRecordBlock = 20;              // u32[3]
inline constexpr uint32_t kRecordDynamicShared = 32;      // u32
inline constexpr uint32_t kRecordBytes = 36;              // u32
inline constexpr uint32_t kRecordStream = 40;             // u64
inline constexpr uint32_t kRecordState = 48;              // u32: 1 published
inline constexpr uint32_t kRecordSequence = 52;           // u32
inline constexpr uint32_t kRecordCta = 56;                // u32
inline constexpr uint32_t kRecordKind = 60;               // u32: 0 kernel, 1 copy, 2 fill
inline constexpr uint32_t kRecordKindCopy = 1;            // params: u64 dst, src, bytes
inline constexpr uint32_t kRecordKindFill = 2;            // params: u64 dst, value, bytes
inline constexpr uint32_t kRecordHeaderBytes = 64;        // parameters follow
inline constexpr uint32_t kRecordAlignment = 64;
inline constexpr uint64_t kFirstNamedStream = 0x100;      // device stream handles
inline constexpr uint32_t kMaxLaunchDepth = 24;

struct ParamDesc {
  uint32_t offset = 0;  // in c[0]
  uint32_t size = 0;
  uint32_t align = 0;
  bool operator==(const ParamDesc&) const = default;
};

// One row of a kernel's line table. Rows are sorted by inst_index; a row applies to
// instructions from inst_index up to the next row's inst_index.
struct LineEntry {
  uint32_t inst_index = 0;  // relative to the kernel's first instruction
  uint32_t ptx_line = 0;    // line in the PTX text (0: unknown)
  uint32_t file = 0;        // .loc file index (0: no .loc)
  uint32_t line = 0;        // .loc line
  uint32_t col = 0;         // .loc column
  bool operator==(const LineEntry&) const = default;
};

struct KernelDesc {
  std::string name;
  uint64_t code_offset = 0;        // bytes into .text, multiple of 16
  uint32_t code_size = 0;          // bytes, multiple of 16, > 0
  uint32_t regs_per_thread = 0;    // GPRs used (highest index + 1), <= 255
  uint32_t shared_bytes = 0;       // static shared memory per CTA
  uint32_t local_bytes = 0;        // local memory per thread (incl. spills)
  uint32_t param_bytes = 0;        // size of the parameter block in c[0]
  std::vector<ParamDesc> params;   // declaration order
  uint32_t max_threads_per_block = 0;  // .maxntid product; 0: none
  uint32_t reqntid[3] = {0, 0, 0};     // .reqntid; zeros: none
  uint32_t num_barriers = 0;       // named CTA barriers used (0..16)
  uint32_t stack_bytes = 0;        // the call stack's part of local_bytes (CALL STACK)
  bool recursion = false;          // stack_bytes follows the stack limit (CALL STACK)
  bool uses_device_heap = false;   // calls malloc/free (DEVICE HEAP)
  std::string ptx_source;          // name of the PTX module that defined it
  std::vector<LineEntry> lines;    // line table (may be empty)
  bool operator==(const KernelDesc&) const = default;
};

struct Reloc {
  uint64_t offset = 0;   // byte offset inside the variable
  std::string symbol;
  int64_t addend = 0;
  bool operator==(const Reloc&) const = default;
};

enum class VarSpace : uint8_t { kGlobal = 0, kConst = 1, kManaged = 2 };

struct GlobalVar {
  std::string name;
  VarSpace space = VarSpace::kGlobal;
  uint64_t size = 0;
  uint64_t align = 1;             // power of two
  uint64_t const_offset = 0;      // kConst: offset in bank 2
  std::vector<uint8_t> init;      // size() <= size; rest is zero
  std::vector<Reloc> init_relocs;
  bool operator==(const GlobalVar&) const = default;
};

// .file index -> path, from the PTX .file directives.
struct SourceFile {
  uint32_t index = 0;
  std::string path;
  bool operator==(const SourceFile&) const = default;
};

struct Binary {
  std::vector<uint8_t> code;              // .text
  std::vector<KernelDesc> kernels;
  std::vector<GlobalVar> globals;
  uint64_t const_bank_size = 0;           // bytes of bank 2
  std::vector<uint8_t> const_init;        // size() <= const_bank_size
  std::vector<std::string> symbol_table;  // c[1] entries
  std::vector<SourceFile> source_files;
  bool operator==(const Binary&) const = default;

  // Kernel by name, or nullptr.
  const KernelDesc* find_kernel(std::string_view name) const;
  const GlobalVar* find_global(std::string_view name) const;
};

// Serializes `binary`. CHECKs the invariants read_sxbin validates (a Binary the
// compiler built is always valid; call validate_binary first for other sources).
std::vector<uint8_t> write_sxbin(const Binary& binary);

// Parses and validates an image. Malformed input -> Code::kInvalidImage naming what is
// wrong ("sxbin: kernel 'k': code range [a, b) outside .text (n bytes)"). Never crashes.
StatusOr<Binary> read_sxbin(std::span<const uint8_t> image);

// Checks the semantic invariants of a Binary (ranges, alignments, unique names,
// relocation targets). Code::kInvalidImage on failure.
Status validate_binary(const Binary& binary);

// True if `image` starts like an sxbin (ELF magic, 64-bit LE, Strata e_machine).
bool is_sxbin(std::span<const uint8_t> image);

}  // namespace strata::sxbin
