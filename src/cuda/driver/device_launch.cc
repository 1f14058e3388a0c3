#include "cuda/driver/device_launch.h"

#include <cstring>

#include "compiler/sxbin/sxbin.h"
#include "hw/contract/device_launch.h"

namespace strata::cuda::driver {

// Compiled code builds the records with the constants of sxbin.h; the command
// processor reads them with the structs of the hardware contract.
static_assert(sxbin::kDriverBank == hw::kLaunchQueueBank);
static_assert(sxbin::kDriverBankLaunchQueueVa == hw::kLaunchQueueBankOffset);
static_assert(sxbin::kDescParamBytes == offsetof(hw::KernelDescriptor, param_bytes));
static_assert(sxbin::kQueueTop == offsetof(hw::DeviceLaunchQueueHeader, top));
static_assert(sxbin::kQueueCapacity == offsetof(hw::DeviceLaunchQueueHeader, capacity));
static_assert(sxbin::kQueueSequence == offsetof(hw::DeviceLaunchQueueHeader, sequence));
static_assert(sxbin::kQueuePendingBase == offsetof(hw::DeviceLaunchQueueHeader, pending_base));
static_assert(sxbin::kQueuePendingLimit == offsetof(hw::DeviceLaunchQueueHeader, pending_limit));
static_assert(sxbin::kQueueDepth == offsetof(hw::DeviceLaunchQueueHeader, depth));
static_assert(sxbin::kQueueNextStream == offsetof(hw::DeviceLaunchQueueHeader, next_stream));
static_assert(sxbin::kQueueHeaderBytes == sizeof(hw::DeviceLaunchQueueHeader));
static_assert(sxbin::kRecordDescriptor == offsetof(hw::DeviceLaunchRecord, descriptor_va));
static_assert(sxbin::kRecordGrid == offsetof(hw::DeviceLaunchRecord, grid));
static_assert(sxbin::kRecordBlock == offsetof(hw::DeviceLaunchRecord, block));
static_assert(sxbin::kRecordDynamicShared ==
              offsetof(hw::DeviceLaunchRecord, dynamic_shared_bytes));
static_assert(sxbin::kRecordBytes == offsetof(hw::DeviceLaunchRecord, record_bytes));
static_assert(sxbin::kRecordStream == offsetof(hw::DeviceLaunchRecord, stream));
static_assert(sxbin::kRecordState == offsetof(hw::DeviceLaunchRecord, state));
static_assert(sxbin::kRecordSequence == offsetof(hw::DeviceLaunchRecord, sequence));
static_assert(sxbin::kRecordCta == offsetof(hw::DeviceLaunchRecord, cta));
static_assert(sxbin::kRecordKind == offsetof(hw::DeviceLaunchRecord, kind));
static_assert(sxbin::kRecordKindCopy == hw::kRecordCopy && sxbin::kRecordKindFill == hw::kRecordFill);
static_assert(sizeof(hw::DeviceCopyArgs) == 24 && offsetof(hw::DeviceCopyArgs, src) == 8 &&
              offsetof(hw::DeviceCopyArgs, bytes) == 16);
static_assert(sxbin::kRecordHeaderBytes == sizeof(hw::DeviceLaunchRecord));
static_assert(sxbin::kRecordAlignment == hw::kRecordAlign);
static_assert(sxbin::kFirstNamedStream == hw::kFirstNamedStream);
static_assert(sxbin::kMaxLaunchDepth == hw::kMaxLaunchDepth);

StatusOr<uint64_t> DeviceLaunchQueue::va() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!buffer_) {
    const uint64_t total = sizeof(hw::DeviceLaunchQueueHeader) + kCapacityBytes;
    ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> buffer,
                     allocator_->allocate_device(total, hw::kRecordAlign));
    hw::DeviceLaunchQueueHeader header{};
    header.capacity = kCapacityBytes;
    header.pending_limit = pending_limit_;
    header.stack_bytes_per_thread = stack_bytes_;
    // Untouched device memory reads as zero; only the header needs writing.
    RETURN_IF_ERROR(allocator_->write(buffer->va(), &header, sizeof(header)));
    buffer_ = std::move(buffer);
  }
  return buffer_->va();
}

uint32_t DeviceLaunchQueue::pending_limit() {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_limit_;
}

Status DeviceLaunchQueue::set_pending_limit(uint32_t launches) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_limit_ = launches;
  if (!buffer_) return ok_status();
  return allocator_->write(buffer_->va() + offsetof(hw::DeviceLaunchQueueHeader, pending_limit),
                           &launches, sizeof(launches));
}

Status DeviceLaunchQueue::set_stack_bytes(uint32_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (bytes == stack_bytes_) return ok_status();
  stack_bytes_ = bytes;
  if (!buffer_) return ok_status();
  return allocator_->write(
      buffer_->va() + offsetof(hw::DeviceLaunchQueueHeader, stack_bytes_per_thread), &bytes,
      sizeof(bytes));
}

Status KernelDescriptors::allocate(hal::Allocator& allocator, size_t kernel_count) {
  if (kernel_count == 0) return ok_status();
  ASSIGN_OR_RETURN(buffer_, allocator.allocate_device(kernel_count * sizeof(hw::KernelDescriptor),
                                                      /*alignment=*/64));
  return ok_status();
}

uint64_t KernelDescriptors::descriptor_va(size_t kernel) const {
  return buffer_ ? buffer_->va() + kernel * sizeof(hw::KernelDescriptor) : 0;
}

Status KernelDescriptors::write(hal::Allocator& allocator, const hal::Executable& executable,
                                std::span<const sxbin::KernelDesc> kernels,
                                std::span<const hal::ConstBankBinding> banks) {
  if (!buffer_) return ok_status();
  std::vector<hw::KernelDescriptor> table(executable.kernels().size());
  for (size_t i = 0; i < table.size(); ++i) {
    const hal::KernelInfo& k = executable.kernels()[i];
    hw::KernelDescriptor& d = table[i];
    d.code_va = executable.code_va() + k.code_offset;
    d.code_size = static_cast<uint32_t>(k.code_size);
    d.kernel_id = executable.kernel_id(static_cast<int>(i));
    d.regs_per_thread = k.regs_per_thread;
    d.static_shared_bytes = k.static_shared_bytes;
    d.local_bytes_per_thread = k.local_bytes_per_thread;
    d.num_barriers = k.num_barriers;
    d.magic = hw::kKernelDescriptorMagic;
    if (i < kernels.size()) {
      const sxbin::KernelDesc& desc = kernels[i];
      d.param_bytes = desc.param_bytes;
      if (desc.recursion) {  // the frame; the stack comes from the queue (the limit)
        d.local_bytes_per_thread = desc.local_bytes - desc.stack_bytes;
        d.flags |= hw::kDescriptorStackFollowsLimit;
      }
    }
    for (const hal::ConstBankBinding& b : banks) {
      if (b.bank > 0 && b.bank < hw::kMaxConstBanks && b.bank != hw::kLaunchQueueBank) {
        d.cbanks[b.bank] = hw::ConstBankBinding{b.va, b.size, 0};
      }
    }
  }
  return allocator.write(buffer_->va(), table.data(), table.size() * sizeof(hw::KernelDescriptor));
}

}  // namespace strata::cuda::driver
