// Entry points: occupancy queries (cuOccupancy*) and profiler capture ranges
// (cuProfilerStart/Stop).
#include <cudaProfiler.h>

#include <algorithm>

#include "cuda/driver/api_util.h"
#include "prof/collector.h"
#include "cuda/driver/device.h"
#include "cuda/driver/module.h"
#include "cuda/driver/occupancy.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

Status check_flags(const char* api, unsigned int flags) {
  if ((flags & ~static_cast<unsigned int>(CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)) != 0) {
    return error(Code::kInvalidValue, fmt::format("{}: unknown flags {:#x}", api, flags));
  }
  return ok_status();
}

// The function's own thread limit (.maxntid), 0 when it has none.
int64_t kernel_thread_limit(const Function& f) {
  return f.desc().max_threads_per_block;
}

int64_t active_blocks(const Function& f, int64_t block_size, int64_t dynamic_shared) {
  const sxbin::KernelDesc& k = f.desc();
  return max_active_blocks_per_sm(
      f.module().context().device().arch(),
      {block_size, k.regs_per_thread, k.shared_bytes, dynamic_shared, kernel_thread_limit(f)});
}

Status max_active_blocks(const char* api, int* num_blocks, CUfunction func, int block_size,
                         size_t dynamic_shared, unsigned int flags) {
  if (num_blocks == nullptr) return null_arg(api, "numBlocks");
  RETURN_IF_ERROR(check_flags(api, flags));
  ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, func, "function"));
  if (block_size <= 0) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: block size {} is not positive", api, block_size));
  }
  *num_blocks =
      static_cast<int>(active_blocks(*f, block_size, static_cast<int64_t>(dynamic_shared)));
  return ok_status();
}

// As the CUDA runtime's cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags: tries
// every warp-multiple block size from the limit down and keeps the first with the most
// resident threads per SM.
Status max_potential_block_size(const char* api, int* min_grid_size, int* block_size,
                                CUfunction func, CUoccupancyB2DSize b2d, size_t dynamic_shared,
                                int block_size_limit, unsigned int flags) {
  if (min_grid_size == nullptr || block_size == nullptr) {
    return null_arg(api, "minGridSize or blockSize");
  }
  RETURN_IF_ERROR(check_flags(api, flags));
  ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, func, "function"));
  const hw::ArchConfig& arch = f->module().context().device().arch();
  int64_t limit = block_size_limit > 0 ? block_size_limit : arch.max_threads_per_block;
  limit = std::min<int64_t>(limit, arch.max_threads_per_block);
  if (kernel_thread_limit(*f) > 0) limit = std::min(limit, kernel_thread_limit(*f));
  const int64_t granularity = arch.warp_size;
  const int64_t aligned_limit = (limit + granularity - 1) / granularity * granularity;
  int64_t best_threads = 0, best_size = 0, best_blocks = 0;
  for (int64_t aligned = aligned_limit; aligned > 0; aligned -= granularity) {
    const int64_t size = std::min(limit, aligned);
    const int64_t smem = b2d != nullptr ? static_cast<int64_t>(b2d(static_cast<int>(size)))
                                        : static_cast<int64_t>(dynamic_shared);
    const int64_t blocks = active_blocks(*f, size, smem);
    if (blocks * size > best_threads) {
      best_threads = blocks * size;
      best_size = size;
      best_blocks = blocks;
    }
    if (best_threads == arch.max_threads_per_sm) break;
  }
  *min_grid_size = static_cast<int>(best_blocks * arch.sm_count);
  *block_size = static_cast<int>(best_size);
  return ok_status();
}

Status profiler_mark(bool start) {
  // As in CUDA the calls need a current context and otherwise always succeed; they open
  // and close capture ranges of `strata prof --capture-range=cudaProfilerApi`.
  RETURN_IF_ERROR(checked_current_context().status());
  // Work queued so far is delivered with the capture state it was queued under.
  prof::flush(/*wait=*/false);
  prof::capture_control(start);
  return ok_status();
}

}  // namespace

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction func,
                                                             int blockSize,
                                                             size_t dynamicSMemSize) {
  return api_call("cuOccupancyMaxActiveBlocksPerMultiprocessor", [&] {
    return max_active_blocks("cuOccupancyMaxActiveBlocksPerMultiprocessor", numBlocks, func,
                             blockSize, dynamicSMemSize, CU_OCCUPANCY_DEFAULT);
  });
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
  return api_call("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", [&] {
    return max_active_blocks("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", numBlocks,
                             func, blockSize, dynamicSMemSize, flags);
  });
}

CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, CUfunction func,
                                                  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                  size_t dynamicSMemSize, int blockSizeLimit) {
  return api_call("cuOccupancyMaxPotentialBlockSize", [&] {
    return max_potential_block_size("cuOccupancyMaxPotentialBlockSize", minGridSize, blockSize,
                                    func, blockSizeToDynamicSMemSize, dynamicSMemSize,
                                    blockSizeLimit, CU_OCCUPANCY_DEFAULT);
  });
}

CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(
    int* minGridSize, int* blockSize, CUfunction func,
    CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize, int blockSizeLimit,
    unsigned int flags) {
  return api_call("cuOccupancyMaxPotentialBlockSizeWithFlags", [&] {
    return max_potential_block_size("cuOccupancyMaxPotentialBlockSizeWithFlags", minGridSize,
                                    blockSize, func, blockSizeToDynamicSMemSize, dynamicSMemSize,
                                    blockSizeLimit, flags);
  });
}

CUresult CUDAAPI cuProfilerStart(void) {
  return api_call("cuProfilerStart", [] { return profiler_mark(/*start=*/true); });
}

CUresult CUDAAPI cuProfilerStop(void) {
  return api_call("cuProfilerStop", [] { return profiler_mark(/*start=*/false); });
}
