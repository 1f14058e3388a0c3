// The KMD's user-space interface, shaped like a Linux GPU driver's uapi header: every
// operation is an ioctl code plus a request struct that carries inputs and receives
// outputs. Structs are plain data (fixed-width fields, no ownership); an ioctl code
// encodes the size of its struct, so a caller built against another layout is
// rejected with kInvalidValue instead of misread. Bump kKmdUapiVersion on any change.
//
// Today the KMD runs in-process; a daemon (stratad) will serve the same structs over a
// socket, which is why pointers are carried as u64 where they cross the boundary.
#pragma once

#include <cstdint>

#include "hw/contract/fault.h"

namespace strata::hw {
struct ArchConfig;
}

namespace strata::kmd {

inline constexpr uint32_t kKmdUapiVersion = 2;

// Object handles are non-zero u32s, valid within one KmdHandle's device.
using ContextId = uint32_t;   // a GPU address space (page tables + ASID)
using MemoryId = uint32_t;    // a VRAM physical allocation
using ChannelId = uint32_t;   // a hardware channel bound to a context

constexpr uint32_t ioctl_code(uint32_t nr, uint32_t size) { return nr | (size << 8); }

// ---- device ----
struct KmdGetInfo {
  uint32_t uapi_version;        // out: kKmdUapiVersion
  uint32_t device_index;        // out
  uint32_t sm_count;            // out (NUM_SMS)
  uint32_t num_channels;        // out (NUM_CHANNELS)
  uint64_t vram_size;           // out: bytes
  uint64_t vram_free;           // out: bytes not allocated (page tables and rings count)
  uint64_t va_range_base;       // out: the reserved GPU VA range [base, base + size)
  uint64_t va_range_size;       // out
  uint64_t shared_window;       // out: SHARED_WINDOW (16 MiB, generic addresses)
  uint64_t local_window;        // out: LOCAL_WINDOW
  const hw::ArchConfig* arch;   // out: valid while the device exists (process lifetime)
  uint8_t* vram_aperture;       // out: host view of VRAM (BAR1): physical p at [p]
};

struct KmdReadTimer {
  uint64_t ns;                  // out: device clock
};

// ---- address spaces ----
struct KmdContextCreate {
  ContextId context;            // out
};
struct KmdContextDestroy {
  ContextId context;            // in: also destroys its channels and mappings
};
// Fault state of a context: once faulted, always faulted.
struct KmdContextQueryFault {
  ContextId context;            // in
  uint32_t faulted;             // out: 0 or 1
  hw::FaultKind kind;           // out
  uint32_t channel;             // out
  uint64_t address;             // out
  uint32_t pc;                  // out
  uint32_t kernel_id;           // out
  uint32_t cta[3];              // out
  uint32_t tid[3];              // out
};

// ---- VRAM ----
struct KmdMemAlloc {
  uint64_t size;                // in: bytes (rounded up to 4 KiB)
  uint64_t alignment;           // in: 0 (4 KiB) or a power of two
  MemoryId memory;              // out
  uint32_t reserved;
  uint64_t phys_addr;           // out: VRAM physical address (contiguous)
};
struct KmdMemFree {
  MemoryId memory;              // in: must not be mapped anywhere
};

// ---- GPU virtual addresses (one process-wide range shared by all contexts) ----
struct KmdVaAlloc {
  uint64_t size;                // in
  uint64_t alignment;           // in: 0 (4 KiB) or a power of two
  uint64_t va;                  // out
  uint64_t hint;                // in: 0, or the preferred va (taken when aligned and free)
};
struct KmdVaFree {
  uint64_t va;                  // in: the start of a KmdVaAlloc range
};

inline constexpr uint32_t kMapWritable = 1u << 0;
// KmdMap/KmdPeerMap: reachable by the copy engine only, not by kernels (kPteCopyOnly).
inline constexpr uint32_t kMapCopyOnly = 1u << 1;

// Maps [va, va + size) of `context` onto memory [offset, offset + size). va, offset
// and size are 4 KiB multiples; 2 MiB-aligned pieces use huge pages.
struct KmdMap {
  ContextId context;            // in
  MemoryId memory;              // in
  uint64_t va;                  // in
  uint64_t offset;              // in
  uint64_t size;                // in
  uint32_t flags;               // in: kMapWritable | kMapCopyOnly
  uint32_t reserved;
};
// Maps host memory [host_addr, host_addr + size) at its own address (UVA): page-aligned.
struct KmdHostMap {
  ContextId context;            // in
  uint32_t flags;               // in: kMapWritable
  uint64_t host_addr;           // in
  uint64_t size;                // in
};
// Maps [va, va + size) of `context` onto memory [offset, offset + size) of ANOTHER
// device of this process (peer-to-peer; `peer_device` is its kmd_open index). The
// entries are system-memory entries holding the bus address of the peer's VRAM aperture
// (BAR1), so this GPU reaches the peer's memory over the bus (docs/hw-contract.md, "Page
// tables"). va, offset and size are 4 KiB multiples. The peer memory cannot be freed
// while mapped. kInvalidDevice when `peer_device` is this device or does not exist.
struct KmdPeerMap {
  ContextId context;            // in
  uint32_t peer_device;         // in
  MemoryId peer_memory;         // in: a memory object of the peer device
  uint32_t flags;               // in: kMapWritable | kMapCopyOnly
  uint64_t va;                  // in
  uint64_t offset;              // in
  uint64_t size;                // in
};
// Removes one mapping made by KmdMap/KmdHostMap/KmdPeerMap, named by its exact va and size.
struct KmdUnmap {
  ContextId context;            // in
  uint32_t reserved;
  uint64_t va;                  // in
  uint64_t size;                // in
};

// ---- channels and submission ----
struct KmdChannelCreate {
  ContextId context;            // in
  ChannelId channel;            // out
  uint32_t hw_channel;          // out: hardware channel number
  uint32_t ring_bytes;          // in: 0 (64 KiB) or a power of two, 4 KiB..16 MiB
  uint32_t priority;            // in: CH_PRIORITY, 0 (default, lowest)..hw::kMaxChannelPriority
};
struct KmdChannelDestroy {
  ChannelId channel;            // in: waits for pending work (bounded) then frees
};
// Copies whole packets (hw/contract/packets.h) into the channel's ring, waiting for
// space when it is full, appends a fence release, and rings the doorbell. The KMD puts
// a kHostTime packet with the calling thread's host virtual time (base/virtual_time.h)
// in front of the packets, so the GPU starts none of them before it was submitted.
struct KmdSubmit {
  ChannelId channel;            // in
  uint32_t dword_count;         // in: may be 0 (fence only)
  const uint32_t* dwords;       // in
  uint64_t fence;               // out: the submission's fence seqno
};
// Waits for a fence. OK when signaled; the context's fault Status if the channel was
// reset by a fault before reaching it; kNotReady when timeout_ns passes (0: poll).
// When signaled, completed_ns is the modeled completion time the GPU stored with the
// channel's fence (docs/hw-contract.md, "Clock model"): that of this fence, or of a
// later one of the channel if it has passed too. The caller decides whether its host
// virtual time moves there (a blocking wait does; a poll reclaiming work does not).
struct KmdFenceWait {
  ChannelId channel;            // in
  uint32_t reserved;
  uint64_t fence;               // in
  uint64_t timeout_ns;          // in: UINT64_MAX waits forever
  uint64_t completed_ns;        // out
};
// Interrupt event counter: incremented on every completion/fault interrupt and by
// KmdNotify. Blocks until the counter differs from `seen` or timeout.
struct KmdWaitEvent {
  uint64_t seen;                // in
  uint64_t timeout_ns;          // in: 0 returns at once
  uint64_t count;               // out: current counter
};
// Host-side wake-up (after host memory the GPU or waiters poll has changed): bumps the
// event counter and re-rings every channel's doorbell so semaphore acquires re-check.
struct KmdNotify {
  uint64_t reserved;
};

enum IoctlCode : uint32_t {
  kIoctlGetInfo = ioctl_code(1, sizeof(KmdGetInfo)),
  kIoctlReadTimer = ioctl_code(2, sizeof(KmdReadTimer)),
  kIoctlContextCreate = ioctl_code(3, sizeof(KmdContextCreate)),
  kIoctlContextDestroy = ioctl_code(4, sizeof(KmdContextDestroy)),
  kIoctlContextQueryFault = ioctl_code(5, sizeof(KmdContextQueryFault)),
  kIoctlMemAlloc = ioctl_code(6, sizeof(KmdMemAlloc)),
  kIoctlMemFree = ioctl_code(7, sizeof(KmdMemFree)),
  kIoctlVaAlloc = ioctl_code(8, sizeof(KmdVaAlloc)),
  kIoctlVaFree = ioctl_code(9, sizeof(KmdVaFree)),
  kIoctlMap = ioctl_code(10, sizeof(KmdMap)),
  kIoctlHostMap = ioctl_code(11, sizeof(KmdHostMap)),
  kIoctlUnmap = ioctl_code(12, sizeof(KmdUnmap)),
  kIoctlChannelCreate = ioctl_code(13, sizeof(KmdChannelCreate)),
  kIoctlChannelDestroy = ioctl_code(14, sizeof(KmdChannelDestroy)),
  kIoctlSubmit = ioctl_code(15, sizeof(KmdSubmit)),
  kIoctlFenceWait = ioctl_code(16, sizeof(KmdFenceWait)),
  kIoctlWaitEvent = ioctl_code(17, sizeof(KmdWaitEvent)),
  kIoctlNotify = ioctl_code(18, sizeof(KmdNotify)),
  kIoctlPeerMap = ioctl_code(19, sizeof(KmdPeerMap)),
};

}  // namespace strata::kmd
