// The per-thread-default-stream half of cuGetProcAddress's table: compiled with
// CUDA_API_PER_THREAD_DEFAULT_STREAM so that cuda.h binds the _ptds/_ptsz names.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda.h>

#include "cuda/driver/proc_table.h"

namespace strata::cuda::driver {
namespace {

#define STRATA_STREAM_OP(name, version) {#name, reinterpret_cast<void*>(&name), version},
// A newer signature looked up under the base name (cuStreamGetCtx -> cuStreamGetCtx_v2).
#define STRATA_STREAM_OP_AS(name, symbol, version) \
  {#name, reinterpret_cast<void*>(&symbol), version},
const ProcEntry kPerThreadProcs[] = {
#include "cuda/driver/stream_ops.def"
};
#undef STRATA_STREAM_OP
#undef STRATA_STREAM_OP_AS

}  // namespace

std::span<const ProcEntry> per_thread_stream_procs() { return kPerThreadProcs; }

}  // namespace strata::cuda::driver
