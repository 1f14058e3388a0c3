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
// Then, for the same kernels and sizes, the detailed timing model (STRATA_TIMING=detailed,
// hw/perf/detailed/model.h) as the runtime runs it: the functional run with trace recording
// (SM 0's warps, hw/sim/sm/trace_hook.h) followed by the cycle-level replay of that trace,
// on one host thread. It prints the grid's thread-instructions per second of the two
// together, the detailed model's own rate (the thread-instructions of the SM-0 trace it
// replays, over its time), and the wall-time ratio of the two together against native C++.
// The L1/L2 models use strata-g1's cache geometry and the detailed model strata-g1's
// parameters; the grid runs on the test harness's 4 SMs, so the trace holds a quarter of
// its CTAs.
// `--quick` runs small sizes (used by ctest so that the benchmark never rots; it checks
// results only, never times); `--no-detailed` skips the detailed model (to profile the
// functional simulator alone).
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
#include "hw/perf/detailed/model.h"
#include "hw/perf/trace.h"
#include "hw/sim/sm/test_harness.h"

namespace {

using strata::hw::sim::FaultRecord;
using strata::hw::sim::GridStats;
using strata::hw::sim::testing::Dim;
using strata::hw::sim::testing::Harness;
using strata::hw::sim::testing::LaunchOptions;
using strata::hw::sim::testing::ScopedThreads;

const strata::StatusOr<strata::hw::ArchConfig>& g1_config() {
  static const auto g1 = strata::hw::load_arch_config("strata-g1");
  return g1;
}

// The test harness's config has no caches; the cache models get strata-g1's geometry
// so that the figures include them (statistics and cache models are always on).
void use_g1_caches(Harness& h) {
  const auto& g1 = g1_config();
  if (!g1.ok()) {
    std::fprintf(stderr, "strata-g1: %s (running without cache models)\n",
                 g1.status().to_string().c_str());
    return;
  }
  h.config.l1_bytes = g1->l1_bytes;
  h.config.l1_ways = g1->l1_ways;
  h.config.l2_bytes = g1->l2_bytes;
  h.config.l2_ways = g1->l2_ways;
}

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

Measurement run(Harness& h, const Kernel& k, Dim grid, Dim block, const Params& p,
                strata::hw::perf::KernelTrace* trace = nullptr) {
  LaunchOptions opts;
  opts.trace = trace;
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

// The detailed model's figures for one kernel (see the top of the file).
struct DetailedRow {
  std::string name;
  double record_seconds = 0;  // functional run with trace recording
  double model_seconds = 0;   // detailed replay of the trace
  uint64_t grid_thread_instructions = 0;
  uint64_t model_thread_instructions = 0;  // SM 0's, as the detailed model replayed them
  uint64_t cycles = 0;
  double native_seconds = 0;
  bool ok = false;
};
std::vector<DetailedRow> detailed_rows;
bool run_detailed = true;

// Runs `k` with recording, then the detailed model on its trace (one host thread).
void measure_detailed(const char* name, Harness& h, const Kernel& k, Dim grid, Dim block,
                      const Params& p, double native_seconds) {
  if (!run_detailed) return;
  DetailedRow row;
  row.name = name;
  row.native_seconds = native_seconds;
  const auto& g1 = g1_config();
  if (!g1.ok()) {
    std::fprintf(stderr, "%s: no strata-g1 config for the detailed model\n", name);
    detailed_rows.push_back(row);
    return;
  }
  ScopedThreads st(1);
  strata::hw::perf::KernelTrace trace;
  const Measurement m = run(h, k, grid, block, p, &trace);
  row.record_seconds = m.seconds;
  row.grid_thread_instructions = m.stats.thread_instructions;
  const auto t0 = std::chrono::steady_clock::now();
  const strata::hw::perf::DetailedResult r =
      strata::hw::perf::model_kernel_detailed(*g1, trace, m.stats.kernel);
  row.model_seconds = seconds_since(t0);
  row.model_thread_instructions = r.thread_instructions;
  row.cycles = r.cycles;
  // SM 0 ran ceil(ctas / 4) of the grid's CTAs: the replay must have seen all of them.
  const uint64_t sm0_ctas = (trace.total_ctas + trace.sm_count - 1) / trace.sm_count;
  row.ok = m.ok && r.cycles > 0 && r.ctas == sm0_ctas && r.thread_instructions > 0;
  if (!row.ok)
    std::fprintf(stderr, "%s: detailed model: %llu of %llu CTAs, %llu cycles\n", name,
                 static_cast<unsigned long long>(r.ctas), static_cast<unsigned long long>(sm0_ctas),
                 static_cast<unsigned long long>(r.cycles));
  detailed_rows.push_back(row);
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
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    if (std::strcmp(argv[i], "--no-detailed") == 0) run_detailed = false;
  }
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
    use_g1_caches(h);
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
    measure_detailed("alu_bound", h, k, Dim{ctas}, Dim{block}, p, native);
  }

  // ---- memory-bound ----
  {
    const Kernel k = find_kernel(*binary, "triad");
    const uint32_t ctas = quick ? 4 : 96, block = 256;
    const int n = quick ? 1 << 14 : 1 << 23;
    Harness h(512ull << 20);
    use_g1_caches(h);
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
    measure_detailed("triad", h, k, Dim{ctas}, Dim{block}, p, native);
  }
  // ---- shared memory: exchange through shared memory between two CTA barriers ----
  {
    const Kernel k = find_kernel(extra.binary, "shared_mix");
    const uint32_t ctas = quick ? 4 : 96, block = 256;
    const int iterations = quick ? 16 : 2000;
    const uint32_t n = ctas * block;
    Harness h(64ull << 20);
    use_g1_caches(h);
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
    measure_detailed("shared_mix", h, k, Dim{ctas}, Dim{block}, p, native);
  }

  // ---- tensor cores: four independent mma.sync m16n8k16 per warp and iteration ----
  {
    const Kernel k = find_kernel(extra.binary, "tensor_mma");
    const uint32_t ctas = quick ? 2 : 96, block = 128;
    const int iterations = quick ? 4 : 200;
    const uint32_t n = ctas * block;
    Harness h(64ull << 20);
    use_g1_caches(h);
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
    measure_detailed("tensor_mma", h, k, Dim{ctas}, Dim{block}, p, native);
  }
  std::printf("ratio: static Strata instructions per PTX instruction of the kernel body\n");
  std::printf(
      "\ndetailed model (STRATA_TIMING=detailed: functional run with trace recording, "
      "then the detailed replay of SM 0's trace; 1 host thread)\n");
  std::printf("%-10s  %9s  %9s  %14s  %14s  %10s  %s\n", "kernel", "record s", "model s",
              "thr-inst/s/core", "model thr-i/s", "cycles", "time vs native C++");
  for (const DetailedRow& d : detailed_rows) {
    if (!d.ok) {
      std::fprintf(stderr, "%s: detailed model failed\n", d.name.c_str());
      ++failures;
      continue;
    }
    const double total = d.record_seconds + d.model_seconds;
    std::printf("%-10s  %9.3f  %9.3f  %14.3e  %14.3e  %10llu  %10.1fx\n", d.name.c_str(),
                d.record_seconds, d.model_seconds,
                static_cast<double>(d.grid_thread_instructions) / total,
                static_cast<double>(d.model_thread_instructions) / d.model_seconds,
                static_cast<unsigned long long>(d.cycles), total / d.native_seconds);
  }
  std::printf(
      "thr-inst/s/core: the grid's thread-instructions over record + model time; "
      "model thr-i/s: SM 0's over the model's time\n");
  return failures == 0 ? 0 : 1;
}
