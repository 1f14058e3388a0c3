// Simulator throughput on ALU-bound, memory-bound, shared-memory and tensor-core kernels.
//
// The kernels are CUDA C++ (bench/kernels/sim_kernels.cu, bench/model/sim_speed_kernels.cu)
// compiled by nvcc to PTX (checked in beside them), then by Strata's compiler to the
// Strata ISA, and run on the SM core with statistics on (they are always on: every grid
// fills its perf::KernelStats). For each kernel it prints:
//   - thread-instructions per second per host thread (sum of active lanes over
//     executed Strata instructions, divided by wall time, STRATA_THREADS=1), and the
//     same with all host threads;
//   - the static ratio of Strata instructions to PTX instructions in the kernel;
//   - the wall-time ratio against the same computation in native C++ run in this
//     process (single thread), after checking that both computed the same results.
// `--quick` runs small sizes (used by ctest so that the benchmark never rots; it checks
// results only, never times). The detailed timing model (STRATA_TIMING=detailed) is not
// implemented yet; the benchmark says so instead of printing a figure for it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/ptx/parser.h"
#include "compiler/sxbin/sxbin.h"
#include "hw/sim/sm/test_harness.h"

namespace {

using strata::hw::sim::FaultRecord;
using strata::hw::sim::GridStats;
using strata::hw::sim::testing::Dim;
using strata::hw::sim::testing::Harness;
using strata::hw::sim::testing::LaunchOptions;
using strata::hw::sim::testing::ScopedThreads;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int count_instructions(const strata::ptx::Block& block) {
  int n = 0;
  for (const auto& s : block.statements) {
    if (std::holds_alternative<strata::ptx::Instruction>(s)) ++n;
    if (const auto* inner = std::get_if<std::shared_ptr<strata::ptx::Block>>(&s)) {
      n += count_instructions(**inner);
    }
  }
  return n;
}

int ptx_instructions(const strata::ptx::Module& module, const std::string& kernel) {
  for (const auto& f : module.functions) {
    if (f.name == kernel) return count_instructions(f.body);
  }
  return 0;
}

// Packs 32-bit words of the kernel parameters at the offsets of the kernel's layout.
class Params {
 public:
  explicit Params(const strata::sxbin::KernelDesc& k) : words_((k.param_bytes + 3) / 4, 0), k_(k) {}
  template <typename T>
  void set(size_t index, T value) {
    std::memcpy(reinterpret_cast<uint8_t*>(words_.data()) + k_.params.at(index).offset, &value,
                sizeof(T));
  }
  const std::vector<uint32_t>& words() const { return words_; }

 private:
  std::vector<uint32_t> words_;
  const strata::sxbin::KernelDesc& k_;
};

struct Measurement {
  double seconds = 0;
  GridStats stats;
  bool ok = false;
};

struct Kernel {
  const strata::sxbin::KernelDesc* desc = nullptr;
  std::vector<uint8_t> code;
};

Kernel find_kernel(const strata::sxbin::Binary& binary, const std::string& name) {
  Kernel k;
  for (const auto& d : binary.kernels) {
    if (d.name != name) continue;
    k.desc = &d;
    k.code.assign(binary.code.begin() + d.code_offset,
                  binary.code.begin() + d.code_offset + d.code_size);
  }
  return k;
}

Measurement run(Harness& h, const Kernel& k, Dim grid, Dim block, const Params& p) {
  LaunchOptions opts;
  opts.regs = k.desc->regs_per_thread;
  opts.shared_bytes = k.desc->shared_bytes;
  opts.local_bytes = k.desc->local_bytes;
  Measurement m;
  const auto t0 = std::chrono::steady_clock::now();
  FaultRecord f = h.launch_raw(k.code, grid, block, p.words(), opts, &m.stats);
  m.seconds = seconds_since(t0);
  m.ok = f.kind == strata::hw::FaultKind::kNone;
  if (!m.ok)
    std::fprintf(stderr, "kernel %s faulted (kind %u, pc %u)\n", k.desc->name.c_str(),
                 static_cast<unsigned>(f.kind), f.pc);
  return m;
}

void print_row(const char* name, int ptx, const Kernel& k, const Measurement& one,
               const Measurement& all, double native_seconds, unsigned threads) {
  const int strata_insts = static_cast<int>(k.desc->code_size / 16);
  const double rate1 = static_cast<double>(one.stats.thread_instructions) / one.seconds;
  const double rate_all = static_cast<double>(all.stats.thread_instructions) / all.seconds;
  std::printf("%-10s  %6d  %6d  %5.2f  %14.3e  %14.3e (%u threads)  %10.1fx\n", name, ptx,
              strata_insts, static_cast<double>(strata_insts) / ptx, rate1, rate_all, threads,
              one.seconds / native_seconds);
}

// A PTX file parsed (for the PTX instruction counts) and compiled to the Strata ISA.
struct Module {
  strata::ptx::Module ptx;
  strata::sxbin::Binary binary;
};

bool load_module(const char* path, Module* out) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string name = std::filesystem::path(path).filename().string();
  auto module = strata::ptx::parse_ptx(text.str(), name);
  auto sx = strata::compiler::compile_ptx({{name, text.str()}}, {});
  if (!module.ok() || !sx.ok()) {
    std::fprintf(stderr, "cannot compile %s: %s\n", path,
                 (module.ok() ? sx.status() : module.status()).to_string().c_str());
    return false;
  }
  auto binary = strata::sxbin::read_sxbin(*sx);
  if (!binary.ok()) {
    std::fprintf(stderr, "%s\n", binary.status().to_string().c_str());
    return false;
  }
  out->ptx = std::move(*module);
  out->binary = std::move(*binary);
  return true;
}

// Runs `k` once on one host thread and once on all of them (the same launch, which must
// be idempotent), returning both measurements.
std::pair<Measurement, Measurement> run_both(Harness& h, const Kernel& k, Dim grid, Dim block,
                                             const Params& p) {
  Measurement one;
  {
    ScopedThreads st(1);
    one = run(h, k, grid, block, p);
  }
  return {one, run(h, k, grid, block, p)};
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  Module base, extra;
  if (!load_module(STRATA_BENCH_PTX, &base) || !load_module(STRATA_BENCH_EXTRA_PTX, &extra))
    return 1;
  const strata::ptx::Module* module = &base.ptx;
  const strata::sxbin::Binary* binary = &base.binary;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  int failures = 0;
  std::printf("%-10s  %6s  %6s  %5s  %14s  %14s  %s\n", "kernel", "PTX", "Strata", "ratio",
              "thr-inst/s/core", "thr-inst/s", "time vs native C++");

  // ---- ALU-bound ----
  {
    const Kernel k = find_kernel(*binary, "alu_bound");
    const uint32_t ctas = quick ? 4 : 96, block = 256;
    const int iterations = quick ? 64 : 4000;
    const uint32_t n = ctas * block;
    Harness h(256ull << 20);
    const uint64_t out = h.alloc(n * 4);
    Params p(*k.desc);
    p.set<uint64_t>(0, out);
    p.set<int32_t>(1, iterations);
    Measurement one, all;
    {
      ScopedThreads st(1);
      one = run(h, k, Dim{ctas}, Dim{block}, p);
    }
    const std::vector<float> got = h.read<float>(out, n);
    all = run(h, k, Dim{ctas}, Dim{block}, p);
    // Native reference: the same arithmetic (nvcc contracts a*x+y into fma).
    std::vector<float> ref(n);
    const auto t0 = std::chrono::steady_clock::now();
    for (uint32_t tid = 0; tid < n; ++tid) {
      float a = static_cast<float>(static_cast<int>(tid)) * 0.001f;
      float b = 1.0f;
      unsigned hh = tid;
      for (int i = 0; i < iterations; ++i) {
        a = std::fmaf(a, 0.999f, 0.5f);
        b = std::fmaf(b, a, -0.25f);
        hh = hh * 1664525u + 1013904223u;
        hh ^= hh >> 13;
      }
      ref[tid] = a + b + static_cast<float>(hh & 0xffff);
    }
    const double native = seconds_since(t0);
    if (!one.ok || !all.ok || std::memcmp(got.data(), ref.data(), n * 4) != 0) {
      std::fprintf(stderr, "alu_bound: results differ from the native computation\n");
      ++failures;
    }
    print_row("alu_bound", ptx_instructions(*module, "alu_bound"), k, one, all, native, threads);
  }

  // ---- memory-bound ----
  {
    const Kernel k = find_kernel(*binary, "triad");
    const uint32_t ctas = quick ? 4 : 96, block = 256;
    const int n = quick ? 1 << 14 : 1 << 23;
    Harness h(512ull << 20);
    const uint64_t a = h.alloc(n * 4ull), b = h.alloc(n * 4ull), c = h.alloc(n * 4ull);
    std::vector<float> ha(n), hb(n);
    for (int i = 0; i < n; ++i) {
      ha[i] = static_cast<float>(i % 1000) * 0.5f;
      hb[i] = static_cast<float>(i % 777) * 0.25f;
    }
    h.write(a, ha);
    h.write(b, hb);
    const float s = 3.0f;
    Params p(*k.desc);
    p.set<uint64_t>(0, c);
    p.set<uint64_t>(1, a);
    p.set<uint64_t>(2, b);
    p.set<float>(3, s);
    p.set<int32_t>(4, n);
    Measurement one, all;
    {
      ScopedThreads st(1);
      one = run(h, k, Dim{ctas}, Dim{block}, p);
    }
    all = run(h, k, Dim{ctas}, Dim{block}, p);
    const std::vector<float> got = h.read<float>(c, n);
    std::vector<float> ref(n);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) ref[i] = std::fmaf(s, hb[i], ha[i]);
    const double native = seconds_since(t0);
    if (!one.ok || !all.ok || std::memcmp(got.data(), ref.data(), n * 4ull) != 0) {
      std::fprintf(stderr, "triad: results differ from the native computation\n");
      ++failures;
    }
    print_row("triad", ptx_instructions(*module, "triad"), k, one, all, native, threads);
  }
  // ---- shared memory: exchange through shared memory between two CTA barriers ----
  {
    const Kernel k = find_kernel(extra.binary, "shared_mix");
    const uint32_t ctas = quick ? 4 : 96, block = 256;
    const int iterations = quick ? 16 : 2000;
    const uint32_t n = ctas * block;
    Harness h(64ull << 20);
    const uint64_t out = h.alloc(n * 4);
    Params p(*k.desc);
    p.set<uint64_t>(0, out);
    p.set<int32_t>(1, iterations);
    auto [one, all] = run_both(h, k, Dim{ctas}, Dim{block}, p);
    const std::vector<uint32_t> got = h.read<uint32_t>(out, n);
    std::vector<uint32_t> ref(n), s(block);
    const auto t0 = std::chrono::steady_clock::now();
    for (uint32_t cta = 0; cta < ctas; ++cta) {
      uint32_t* v = ref.data() + cta * block;
      for (uint32_t t = 0; t < block; ++t) v[t] = cta * 256u + t;
      for (int it = 0; it < iterations; ++it) {
        std::copy(v, v + block, s.begin());
        for (uint32_t t = 0; t < block; ++t)
          v[t] = v[t] * 3u + s[(t + 1u + static_cast<uint32_t>(it)) & 255u];
      }
    }
    const double native = seconds_since(t0);
    if (!one.ok || !all.ok || got != ref) {
      std::fprintf(stderr, "shared_mix: results differ from the native computation\n");
      ++failures;
    }
    print_row("shared_mix", ptx_instructions(extra.ptx, "shared_mix"), k, one, all, native,
              threads);
  }

  // ---- tensor cores: four independent mma.sync m16n8k16 per warp and iteration ----
  {
    const Kernel k = find_kernel(extra.binary, "tensor_mma");
    const uint32_t ctas = quick ? 2 : 96, block = 128;
    const int iterations = quick ? 4 : 200;
    const uint32_t n = ctas * block;
    Harness h(64ull << 20);
    const uint64_t out = h.alloc(n * 4);
    Params p(*k.desc);
    p.set<uint64_t>(0, out);
    p.set<int32_t>(1, iterations);
    p.set<uint32_t>(2, 0x3C003C00u);  // f16x2 {1.0, 1.0}
    p.set<uint32_t>(3, 0x38003800u);  // f16x2 {0.5, 0.5}
    auto [one, all] = run_both(h, k, Dim{ctas}, Dim{block}, p);
    const std::vector<float> got = h.read<float>(out, n);
    // Native: the same matrix products, D[16x8] += A[16x16] x B[16x8], four per warp and
    // iteration, with A all 1.0 and B all 0.5 (PTX ISA, mma.m16n8k16 semantics).
    std::vector<float> ref(n);
    const auto t0 = std::chrono::steady_clock::now();
    for (uint32_t warp = 0; warp < n / 32; ++warp) {
      float a[16][16], b[16][8], d[4][16][8] = {};
      for (auto& row : a) std::fill(std::begin(row), std::end(row), 1.0f);
      for (auto& row : b) std::fill(std::begin(row), std::end(row), 0.5f);
      for (int it = 0; it < iterations; ++it) {
        for (auto& acc : d) {
          for (int i = 0; i < 16; ++i) {
            for (int j = 0; j < 8; ++j) {
              float sum = acc[i][j];
              for (int kk = 0; kk < 16; ++kk) sum += a[i][kk] * b[kk][j];
              acc[i][j] = sum;
            }
          }
        }
      }
      // Every D element is equal, so every lane's four fragment elements are d[k][0][0].
      float sum = 0;
      for (auto& acc : d) sum += (acc[0][0] + acc[0][0]) + (acc[0][0] + acc[0][0]);
      for (uint32_t lane = 0; lane < 32; ++lane) ref[warp * 32 + lane] = sum;
    }
    const double native = seconds_since(t0);
    if (!one.ok || !all.ok || got != ref) {
      std::fprintf(stderr, "tensor_mma: results differ from the native computation\n");
      ++failures;
    }
    print_row("tensor_mma", ptx_instructions(extra.ptx, "tensor_mma"), k, one, all, native,
              threads);
  }
  std::printf("ratio: static Strata instructions per PTX instruction of the kernel body\n");
  std::printf("detailed: not implemented (STRATA_TIMING=detailed does not exist yet)\n");
  return failures == 0 ? 0 : 1;
}
