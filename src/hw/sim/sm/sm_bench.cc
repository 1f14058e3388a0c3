// Simulator speed: thread-instructions per second per host thread on an ALU-bound and
// a memory-bound kernel, printed next to the same loop run natively (the reference).
#include <chrono>
#include <cstdio>

#include "hw/sim/sm/test_harness.h"

using namespace strata::hw::sim;
using namespace strata::hw::sim::testing;
using strata::isa::DataType;
using strata::isa::Opcode;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// n iterations of: 4 integer ops + loop control, per thread.
std::vector<strata::isa::Inst> alu_kernel(uint32_t iters, bool memory) {
  std::vector<strata::isa::Inst> c = prologue();
  for (auto& i : element_address(0, 4)) c.push_back(i);
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(9).bi(iters));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(1));
  const uint32_t loop = static_cast<uint32_t>(c.size());
  if (memory) {
    c.push_back(B(Opcode::LD).t(DataType::U32).d(11).a(6).space(strata::isa::MemSpace::GLOBAL));
    c.push_back(B(Opcode::IADD).t(DataType::U32).d(11).a(11).b(10));
    c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(11).space(strata::isa::MemSpace::GLOBAL));
  } else {
    c.push_back(B(Opcode::IMAD).t(DataType::U32).d(10).a(10).b(3).c(9));
    c.push_back(B(Opcode::XOR).t(DataType::B32).d(10).a(10).b(9));
    c.push_back(B(Opcode::SHR).t(DataType::U32).d(11).a(10).bi(3));
    c.push_back(B(Opcode::IADD).t(DataType::U32).d(10).a(10).b(11));
  }
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(9).a(9).bi(0xffffffff));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(0).a(9).bi(0).mod(static_cast<uint8_t>(strata::isa::CmpOp::NE)));
  c.push_back(B(Opcode::BRA).guard(0).imm(loop));
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(10).space(strata::isa::MemSpace::GLOBAL));
  c.push_back(B(Opcode::EXIT));
  return c;
}

}  // namespace

int main() {
  ScopedThreads st(1);
  for (bool memory : {false, true}) {
    Harness h(256ull << 20);
    const uint32_t ctas = 64, threads = 256, iters = 2000;
    const uint64_t out = h.alloc(ctas * threads * 4);
    GridStats stats;
    auto t0 = std::chrono::steady_clock::now();
    FaultRecord f = h.launch(alu_kernel(iters, memory), Dim{ctas}, Dim{threads},
                             {static_cast<uint32_t>(out), static_cast<uint32_t>(out >> 32)}, {}, &stats);
    const double sim = seconds_since(t0);
    // Native reference: the same per-thread loop in C++.
    std::vector<uint32_t> ref(ctas * threads);
    t0 = std::chrono::steady_clock::now();
    for (uint32_t t = 0; t < ctas * threads; ++t) {
      uint32_t r10 = 1, r9 = iters;
      volatile uint32_t* cell = &ref[t];
      while (r9 != 0) {
        if (memory) {
          *cell = *cell + r10;
        } else {
          r10 = r10 * t + r9;
          r10 ^= r9;
          r10 += r10 >> 3;
        }
        --r9;
      }
      if (!memory) ref[t] = r10;
    }
    const double native = seconds_since(t0);
    std::printf("%s kernel: fault=%d, %.3g thread-instructions in %.3f s = %.3g thread-inst/s per host thread; "
                "native loop %.4f s (simulator/native time ratio %.1f)\n",
                memory ? "memory-bound" : "ALU-bound", static_cast<int>(f.kind),
                static_cast<double>(stats.thread_instructions), sim, stats.thread_instructions / sim, native,
                sim / native);
  }
  return 0;
}
