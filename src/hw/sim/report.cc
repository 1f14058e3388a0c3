#include "hw/sim/report.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "hw/perf/detailed/model.h"
#include "hw/sim/memory.h"

namespace strata::hw::sim {

static_assert(perf::kNumPipes <= kCounterPipes);
static_assert(perf::kNumTensorTypes <= kCounterTensorTypes);
static_assert(perf::kNumStallReasons <= kCounterStallReasons);
static_assert(sizeof(WorkReport) % 8 == 0);
static_assert(offsetof(WorkReport, written) % 4 == 0);

void fill_counters(const perf::KernelStats& st, const perf::KernelTime& t,
                   const perf::DetailedResult* detailed, ReportTiming timing, KernelCounters* c) {
  *c = KernelCounters{};
  c->valid = kCountersExecution | kCountersModel;
  c->timing_mode = static_cast<uint32_t>(timing);
  c->ctas = st.ctas;
  c->threads_per_cta = st.threads_per_cta;
  c->warps_per_cta = st.warps_per_cta;
  c->regs_per_thread = st.regs_per_thread;
  c->shared_bytes_per_cta = st.shared_bytes_per_cta;
  c->ctas_per_sm = st.ctas_per_sm;
  c->max_warps_per_sm = st.max_warps_per_sm;
  c->occupancy_limiter = static_cast<uint32_t>(st.occupancy_limiter);
  c->sms_used = static_cast<uint32_t>(
      std::count_if(st.sm_ctas.begin(), st.sm_ctas.end(), [](uint32_t n) { return n != 0; }));
  c->warp_instructions = st.warp_instructions;
  c->thread_instructions = st.thread_instructions;
  for (int p = 0; p < perf::kNumPipes; ++p) {
    c->pipe_warp_instructions[p] = st.pipe_warp_instructions[p];
    c->pipe_thread_instructions[p] = st.pipe_thread_instructions[p];
    c->pipe_cycles[p] = t.pipe_cycles[p];
  }
  for (int i = 0; i < perf::kNumTensorTypes; ++i) c->tensor_fmas[i] = st.tensor_fmas[i];
  c->global_load_requests = st.global_loads.requests;
  c->global_load_sectors = st.global_loads.sectors;
  c->global_store_requests = st.global_stores.requests;
  c->global_store_sectors = st.global_stores.sectors;
  c->global_atomic_requests = st.global_atomics.requests;
  c->global_atomic_sectors = st.global_atomics.sectors;
  c->global_load_bytes = st.global_loads.bytes;
  c->global_store_bytes = st.global_stores.bytes;
  c->global_atomic_bytes = st.global_atomics.bytes;
  c->local_load_requests = st.local_loads.requests;
  c->local_load_sectors = st.local_loads.sectors;
  c->local_store_requests = st.local_stores.requests;
  c->local_store_sectors = st.local_stores.sectors;
  c->texture_requests = st.texture_loads.requests;
  c->texture_sectors = st.texture_loads.sectors;
  c->constant_requests = st.constant_requests;
  c->constant_wavefronts = st.constant_wavefronts;
  c->shared_requests = st.shared_requests;
  c->shared_wavefronts = st.shared_wavefronts;
  c->shared_bank_conflicts = st.shared_bank_conflicts;
  c->barrier_arrivals = st.barrier_arrivals;
  c->barrier_waits = st.barrier_waits;
  c->l1_hits = st.l1_hits;
  c->l1_misses = st.l1_misses;
  c->l2_hits = st.l2_hits;
  c->l2_misses = st.l2_misses;
  c->dram_read_sectors = st.dram_read_sectors;
  c->dram_write_sectors = st.dram_write_sectors;
  c->model_cycles = t.cycles;
  c->launch_ns = t.launch_ns;
  c->bound = static_cast<uint32_t>(t.bound);
  c->busiest_pipe = static_cast<uint32_t>(t.busiest_pipe);
  c->issue_cycles = t.issue_cycles;
  c->shared_cycles = t.shared_cycles;
  c->l1_cycles = t.l1_cycles;
  c->l2_cycles = t.l2_cycles;
  c->dram_cycles = t.dram_cycles;
  c->latency_cycles = t.latency_cycles;
  c->tail_cycles = t.tail_cycles;
  c->waves = t.waves;
  if (detailed != nullptr) {
    c->valid |= kCountersDetailed;
    c->detailed_cycles = detailed->cycles;
    c->detailed_ctas = detailed->ctas;
    c->achieved_occupancy = detailed->achieved_occupancy;
    for (int r = 0; r < perf::kNumStallReasons; ++r) c->stall_cycles[r] = detailed->stall_cycles[r];
  }
}

namespace {

// Copies `size` bytes to `va` through the channel's page table, page by page. False at
// the first byte not mapped writable (*fault_va); the bytes before it are stored.
bool store_bytes(const PageWalker& walker, uint64_t va, const void* src, uint64_t size,
                 uint64_t* fault_va) {
  const auto* bytes = static_cast<const uint8_t*>(src);
  for (uint64_t done = 0; done < size;) {
    Translation t;
    if (!walker.walk(va + done, &t) || !t.writable) {
      *fault_va = va + done;
      return false;
    }
    const uint64_t in_page = t.page_size - ((va + done) - t.page_va);
    const uint64_t n = std::min<uint64_t>(in_page, size - done);
    std::memcpy(t.host_page + ((va + done) - t.page_va), bytes + done, n);
    done += n;
  }
  return true;
}

}  // namespace

bool store_report(const PageWalker& walker, ReportState* state, WorkReport report,
                  uint64_t* fault_va) {
  const uint64_t va = state->va + uint64_t{state->index} * sizeof(WorkReport);
  ++state->index;
  report.written = 0;
  if (!store_bytes(walker, va, &report, sizeof(report), fault_va)) return false;
  // `written` (4-byte aligned, so within one page) last, with release.
  const uint64_t flag = va + offsetof(WorkReport, written);
  Translation t;
  if (!walker.walk(flag, &t) || !t.writable) {
    *fault_va = flag;
    return false;
  }
  auto* written = reinterpret_cast<uint32_t*>(t.host_page + (flag - t.page_va));
  std::atomic_ref<uint32_t>(*written).store(1, std::memory_order_release);
  return true;
}

bool store_pc_counters(const PageWalker& walker, ReportState* state,
                       const std::vector<PcCounters>& records, KernelCounters* counters,
                       uint64_t* fault_va) {
  const uint32_t room = state->pc_capacity - std::min(state->pc_used, state->pc_capacity);
  const uint32_t n = static_cast<uint32_t>(std::min<size_t>(records.size(), room));
  counters->pc_first = state->pc_used;
  counters->pc_count = n;
  counters->pc_executed = static_cast<uint32_t>(records.size());
  const uint64_t va = state->pc_va + uint64_t{state->pc_used} * sizeof(PcCounters);
  if (!store_bytes(walker, va, records.data(), uint64_t{n} * sizeof(PcCounters), fault_va))
    return false;
  state->pc_used += n;
  return true;
}

}  // namespace strata::hw::sim
