// Device-side kernel launches (CUDA dynamic parallelism): the in-memory formats a
// running grid uses to ask the command processor for more grids (docs/hw-contract.md,
// "Device launches"). All structs are little-endian and naturally aligned; static_asserts
// hold the offsets, which compiled code (compiler/sxbin/sxbin.h, "DEVICE LAUNCH") repeats.
//
// Kernel descriptor. The loader writes one per kernel into device memory; a kernel's
// address in device code (PTX `mov.u64 %rd, kernel`) is its descriptor's VA. It is the
// template of a launch packet: everything but the grid, block, dynamic shared memory and
// banks c[0] (the parameter buffer) and c[3] (inherited from the launching grid).
//
// Launch queue. The driver allocates one per context; its VA is the u64 at byte
// kLaunchQueueBankOffset of the launching grid's constant bank c[3]
// (0 or an unbound/short bank: the grid cannot launch). Device code reserves a record by
// ATOM.ADD on `top` (bytes past the header), fills it, and publishes it by writing
// state = kRecordLaunched. Records are kRecordAlign-aligned; the kernel parameters
// follow the 64-byte record header (the CUDA "parameter buffer", laid out as c[0]).
//
// Command processor. When a grid's CTAs have all finished, it takes the records that
// grid published (those between the grid's starting `top` and the current `top`), and
// runs them one after another, each with all of its own descendants, before the grid
// counts as complete (its packet completes): first every record whose stream is not
// kStreamTailLaunch in `sequence` order, then the tail launches in `sequence` order.
// This is one legal CUDA schedule: same-stream launches keep their order, a grid
// completes after its children, tail launches run after the rest of the parent's work.
// Before each grid it writes `depth` (0: launched by a packet), zeroes `sequence` and
// sets `pending_base` to the launches still waiting outside that grid. Records that
// were reserved but never published are dropped. A malformed record (bad descriptor
// magic, a size that does not fit) faults the channel with kBadPacket at the record's
// VA. The command processor runs one grid at a time, so one queue serves every channel
// that shares it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hw/contract/packets.h"

namespace strata::hw {

// Where a grid finds its launch queue: the u64 at this offset of constant bank c[3].
inline constexpr int kLaunchQueueBank = 3;
inline constexpr uint32_t kLaunchQueueBankOffset = 56;

inline constexpr uint32_t kKernelDescriptorMagic = 0x4b445358;  // 'XSDK'

struct KernelDescriptor {
  uint64_t code_va;    // first instruction
  uint32_t code_size;  // bytes
  uint32_t kernel_id;  // echoed in fault records
  uint32_t regs_per_thread;
  uint32_t static_shared_bytes;
  uint32_t local_bytes_per_thread;
  uint32_t num_barriers;  // 1..16
  uint32_t param_bytes;   // size of the kernel's c[0] parameter block
  uint32_t magic;         // kKernelDescriptorMagic
  uint32_t flags;         // kDescriptorStackFollowsLimit
  uint32_t reserved;
  ConstBankBinding cbanks[kMaxConstBanks];  // module banks; c[0] and c[3] unused (zero)
};
static_assert(sizeof(KernelDescriptor) == 48 + 16 * kMaxConstBanks);
static_assert(offsetof(KernelDescriptor, param_bytes) == 32 &&
              offsetof(KernelDescriptor, flags) == 40 && offsetof(KernelDescriptor, cbanks) == 48);

// The kernel's call stack follows the stack limit (recursion): a launch gets
// local_bytes_per_thread + the queue's stack_bytes_per_thread of local memory.
inline constexpr uint32_t kDescriptorStackFollowsLimit = 1u << 0;

// Stream handles device code passes with a launch (cuda_device_runtime_api.h values).
inline constexpr uint64_t kStreamPerBlockNull = 0;    // the launching CTA's NULL stream
inline constexpr uint64_t kStreamTailLaunch = 3;      // cudaStreamTailLaunch
inline constexpr uint64_t kStreamFireAndForget = 4;   // cudaStreamFireAndForget
inline constexpr uint64_t kFirstNamedStream = 0x100;  // cudaStreamCreateWithFlags handles

inline constexpr uint32_t kMaxLaunchDepth = 24;  // CUDA's nesting limit: depth of a child

struct DeviceLaunchQueueHeader {
  uint64_t top;                     // record bytes reserved (device: ATOM.ADD; CP sets per grid)
  uint64_t capacity;                // bytes of record space after the header (driver)
  uint32_t sequence;                // launches published by the running grid (device: ATOM.ADD)
  uint32_t pending_base;            // launches pending outside the running grid (CP)
  uint32_t pending_limit;           // cudaLimitDevRuntimePendingLaunchCount (driver)
  uint32_t depth;                   // nesting depth of the running grid (CP)
  uint32_t next_stream;             // named streams created so far (device: ATOM.ADD)
  uint32_t stack_bytes_per_thread;  // call stack of kDescriptorStackFollowsLimit kernels (driver)
  uint32_t reserved[6];
};
static_assert(sizeof(DeviceLaunchQueueHeader) == 64);
static_assert(offsetof(DeviceLaunchQueueHeader, sequence) == 16 &&
              offsetof(DeviceLaunchQueueHeader, pending_base) == 20 &&
              offsetof(DeviceLaunchQueueHeader, pending_limit) == 24 &&
              offsetof(DeviceLaunchQueueHeader, depth) == 28 &&
              offsetof(DeviceLaunchQueueHeader, next_stream) == 32 &&
              offsetof(DeviceLaunchQueueHeader, stack_bytes_per_thread) == 36);

inline constexpr uint32_t kRecordReserved = 0;
inline constexpr uint32_t kRecordLaunched = 1;
inline constexpr uint32_t kRecordAlign = 64;

// What a record asks for. Copy and fill records (device-side cudaMemcpyAsync /
// cudaMemsetAsync) carry a DeviceCopyArgs where a kernel's parameters would be, ignore
// descriptor_va and dynamic_shared_bytes, and have grid = block = {1, 1, 1}.
inline constexpr uint32_t kRecordKernel = 0;
inline constexpr uint32_t kRecordCopy = 1;  // bytes from src to dst, as kCopy
inline constexpr uint32_t kRecordFill = 2;  // bytes at dst set to the low byte of src

struct DeviceCopyArgs {
  uint64_t dst;
  uint64_t src;  // kRecordFill: the byte value
  uint64_t bytes;
};
static_assert(sizeof(DeviceCopyArgs) == 24);

struct DeviceLaunchRecord {
  uint64_t descriptor_va;  // KernelDescriptor of the kernel to run
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t dynamic_shared_bytes;
  uint32_t record_bytes;  // header + parameters, a multiple of kRecordAlign
  uint64_t stream;        // kStream* or a named stream handle
  uint32_t state;         // kRecordReserved / kRecordLaunched
  uint32_t sequence;      // publication order within the launching grid
  uint32_t cta;           // launching CTA, linear: x + nx * (y + ny * z)
  uint32_t kind;          // kRecordKernel / kRecordCopy / kRecordFill
};
static_assert(sizeof(DeviceLaunchRecord) == 64);
static_assert(offsetof(DeviceLaunchRecord, grid) == 8 &&
              offsetof(DeviceLaunchRecord, block) == 20 &&
              offsetof(DeviceLaunchRecord, dynamic_shared_bytes) == 32 &&
              offsetof(DeviceLaunchRecord, record_bytes) == 36 &&
              offsetof(DeviceLaunchRecord, stream) == 40 &&
              offsetof(DeviceLaunchRecord, state) == 48 &&
              offsetof(DeviceLaunchRecord, sequence) == 52 &&
              offsetof(DeviceLaunchRecord, cta) == 56 && offsetof(DeviceLaunchRecord, kind) == 60);

}  // namespace strata::hw
