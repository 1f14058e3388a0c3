// Simulator speed: thread-instructions per second per host thread on an ALU-bound and
// a memory-bound kernel, printed next to the same loop run natively (the reference).
// Statistics are always on; the L1/L2 cache models get strata-g1's geometry (the test
// harness's config has none), so the memory-bound figure includes them. The memory
// statistics are printed too, to check that a faster simulator counts the same.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "hw/sim/sm/test_harness.h"

using namespace strata::hw::sim;
using namespace strata::hw::sim::testing;
using strata::isa::DataType;
using strata::isa::Opcode;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// n iterations of: 4 integer ops + loop control, per thread. Memory: a load, add and
// store of the thread's word instead (the same word each iteration: L1 hits); streaming:
// the same on row i of an array of rows of `stride` words (every line new: misses).
std::vector<strata::isa::Inst> alu_kernel(uint32_t iters, bool memory, uint32_t stride = 0) {
  std::vector<strata::isa::Inst> c = prologue();
  for (auto& i : element_address(0, 4)) c.push_back(i);
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(9).bi(iters));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(1));
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(21).a(3).bi(0));
  const uint32_t loop = static_cast<uint32_t>(c.size());
  if (memory) {
    c.push_back(B(Opcode::LD).t(DataType::U32).d(11).a(6).space(strata::isa::MemSpace::GLOBAL));
    c.push_back(B(Opcode::IADD).t(DataType::U32).d(11).a(11).b(10));
    c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(11).space(strata::isa::MemSpace::GLOBAL));
    if (stride != 0) {  // R6:R7 = base + (R21 += stride) * 4
      c.push_back(B(Opcode::IADD).t(DataType::U32).d(21).a(21).bi(stride));
      c.push_back(B(Opcode::IMADWIDE).t(DataType::U32).d(6).a(21).b(20).c(4));
    }
  } else {
    c.push_back(B(Opcode::IMAD).t(DataType::U32).d(10).a(10).b(3).c(9));
    c.push_back(B(Opcode::XOR).t(DataType::B32).d(10).a(10).b(9));
    c.push_back(B(Opcode::SHR).t(DataType::U32).d(11).a(10).bi(3));
    c.push_back(B(Opcode::IADD).t(DataType::U32).d(10).a(10).b(11));
  }
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(9).a(9).bi(0xffffffff));
  c.push_back(B(Opcode::ISETP)
                  .t(DataType::U32)
                  .pd(0)
                  .a(9)
                  .bi(0)
                  .mod(static_cast<uint8_t>(strata::isa::CmpOp::NE)));
  c.push_back(B(Opcode::BRA).guard(0).imm(loop));
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(10).space(strata::isa::MemSpace::GLOBAL));
  c.push_back(B(Opcode::EXIT));
  return c;
}

}  // namespace

// Usage: sm_bench [alu|memory|streaming] (default: all three).
int main(int argc, char** argv) {
  ScopedThreads st(1);
  const char* names[] = {"alu", "memory", "streaming"};
  for (int kind = 0; kind < 3; ++kind) {
    if (argc > 1 && std::strcmp(argv[1], names[kind]) != 0) continue;
    const bool memory = kind > 0, streaming = kind == 2;
    Harness h(256ull << 20);
    if (auto g1 = strata::hw::load_arch_config("strata-g1"); g1.ok()) {
      h.config.l1_bytes = g1->l1_bytes;
      h.config.l1_ways = g1->l1_ways;
      h.config.l2_bytes = g1->l2_bytes;
      h.config.l2_ways = g1->l2_ways;
    } else {
      std::printf("strata-g1 not found (%s): running without cache models\n",
                  g1.status().to_string().c_str());
    }
    const uint32_t ctas = 64, threads = 256, iters = streaming ? 200 : 2000;
    const uint32_t stride = streaming ? ctas * threads : 0;  // words per row
    const uint64_t words = static_cast<uint64_t>(ctas) * threads * (streaming ? iters + 1 : 1);
    const uint64_t out = h.alloc(words * 4);
    GridStats stats;
    auto t0 = std::chrono::steady_clock::now();
    FaultRecord f =
        h.launch(alu_kernel(iters, memory, stride), Dim{ctas}, Dim{threads},
                 {static_cast<uint32_t>(out), static_cast<uint32_t>(out >> 32)}, {}, &stats);
    const double sim = seconds_since(t0);
    // Native reference: the same per-thread loop in C++.
    std::vector<uint32_t> ref(words);
    t0 = std::chrono::steady_clock::now();
    for (uint32_t t = 0; t < ctas * threads; ++t) {
      uint32_t r10 = 1, r9 = iters;
      volatile uint32_t* cell = &ref[t];
      while (r9 != 0) {
        if (memory) {
          *cell = *cell + r10;
          cell += stride;
        } else {
          r10 = r10 * t + r9;
          r10 ^= r9;
          r10 += r10 >> 3;
        }
        --r9;
      }
      *cell = r10;
    }
    const double native = seconds_since(t0);
    const bool same = h.read<uint32_t>(out, words) == ref;
    std::printf(
        "%s kernel: fault=%d%s, %.3g thread-instructions in %.3f s = %.3g thread-inst/s per host "
        "thread; "
        "native loop %.4f s (simulator/native time ratio %.1f)\n",
        streaming ? "streaming"
        : memory  ? "memory-bound"
                  : "ALU-bound",
        static_cast<int>(f.kind), same ? "" : " RESULTS DIFFER",
        static_cast<double>(stats.thread_instructions), sim, stats.thread_instructions / sim,
        native, sim / native);
    const strata::hw::perf::KernelStats& k = stats.kernel;
    std::printf("  global ld/st sectors %" PRIu64 "/%" PRIu64 ", L1 hits/misses %" PRIu64
                "/%" PRIu64 ", L2 hits/misses %" PRIu64 "/%" PRIu64
                ", DRAM read/write sectors %" PRIu64 "/%" PRIu64 "\n",
                k.global_loads.sectors, k.global_stores.sectors, k.l1_hits, k.l1_misses, k.l2_hits,
                k.l2_misses, k.dram_read_sectors, k.dram_write_sectors);
  }
  return 0;
}
