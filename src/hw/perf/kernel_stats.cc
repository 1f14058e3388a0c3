#include "hw/perf/kernel_stats.h"

#include <algorithm>

namespace strata::hw::perf {

const char* pipe_name(Pipe pipe) {
  switch (pipe) {
    case Pipe::kFp32: return "fp32";
    case Pipe::kFp64: return "fp64";
    case Pipe::kInt: return "int";
    case Pipe::kSfu: return "sfu";
    case Pipe::kTensor: return "tensor";
    case Pipe::kLdst: return "ldst";
    case Pipe::kTexture: return "texture";
    case Pipe::kControl: return "control";
  }
  return "?";
}

namespace {

template <typename T>
void add_vector(std::vector<T>& into, const std::vector<T>& from) {
  if (into.size() < from.size()) into.resize(from.size(), T{});
  for (size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

}  // namespace

void KernelStats::merge(const KernelStats& o) {
  if (ctas == 0) {
    ctas = o.ctas;
    threads_per_cta = o.threads_per_cta;
    warps_per_cta = o.warps_per_cta;
    regs_per_thread = o.regs_per_thread;
    shared_bytes_per_cta = o.shared_bytes_per_cta;
    ctas_per_sm = o.ctas_per_sm;
    max_warps_per_sm = o.max_warps_per_sm;
    occupancy_limiter = o.occupancy_limiter;
  }
  warp_instructions += o.warp_instructions;
  thread_instructions += o.thread_instructions;
  for (int i = 0; i < kNumPipes; ++i) {
    pipe_warp_instructions[i] += o.pipe_warp_instructions[i];
    pipe_thread_instructions[i] += o.pipe_thread_instructions[i];
  }
  for (int i = 0; i < kNumTensorTypes; ++i) tensor_fmas[i] += o.tensor_fmas[i];
  global_loads.add(o.global_loads);
  global_stores.add(o.global_stores);
  global_atomics.add(o.global_atomics);
  local_loads.add(o.local_loads);
  local_stores.add(o.local_stores);
  texture_loads.add(o.texture_loads);
  constant_requests += o.constant_requests;
  constant_wavefronts += o.constant_wavefronts;
  shared_requests += o.shared_requests;
  shared_wavefronts += o.shared_wavefronts;
  shared_bank_conflicts += o.shared_bank_conflicts;
  barrier_arrivals += o.barrier_arrivals;
  barrier_waits += o.barrier_waits;
  l1_hits += o.l1_hits;
  l1_misses += o.l1_misses;
  l2_hits += o.l2_hits;
  l2_misses += o.l2_misses;
  dram_read_sectors += o.dram_read_sectors;
  dram_write_sectors += o.dram_write_sectors;
  add_vector(sm_warp_instructions, o.sm_warp_instructions);
  add_vector(sm_ctas, o.sm_ctas);
}

}  // namespace strata::hw::perf
