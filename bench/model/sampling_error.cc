// Sampling error of STRATA_TIMING=sampled (hw/perf/detailed/sampled.h) against full
// detailed replays (hw/perf/detailed/model.h), issue 5 item 6.
//
// For each size n it runs the tiled SGEMM of sampling_error.cu (n x n x n; nvcc's PTX,
// compiled by Strata's compiler) once on the SM core with trace recording on, under an
// architecture config (default strata-g1, from STRATA_ARCH_DIR or the source tree's
// arch/), checks C against a host product (inputs are multiples of 1/8 below 1 in
// magnitude, so every product and partial sum is exact in float and any summation order
// gives the same bits), then models the same trace twice: full detailed and sampled.
// It prints per size: full-detailed cycles, sampled cycles, the error, and the wall
// time of each model (the functional run and the recording are common to both and are
// printed separately), with what the sampled run simulated.
//
// Usage: sampling_error [--quick] [--arch NAME|PATH] [--sm-count N] [--tolerance X] [n ...]
//   default sizes 256 512 1024; --quick: 128 only (ctest: checks that it runs and that
//   the product is right, never the figures). --sm-count overrides the config's SM count
//   (more waves per SM); --tolerance X sets the settle tolerance (default 0.01; 0 settles
//   only on exactly equal rates, so an irregular first wave is simulated whole, isolating
//   the error of extrapolating over waves).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/sxbin/sxbin.h"
#include "hw/config/arch_config.h"
#include "hw/perf/detailed/model.h"
#include "hw/perf/detailed/sampled.h"
#include "hw/sim/sm/test_harness.h"

namespace {

using strata::hw::sim::FaultRecord;
using strata::hw::sim::GridStats;
using strata::hw::sim::testing::Dim;
using strata::hw::sim::testing::Harness;
using strata::hw::sim::testing::LaunchOptions;
namespace perf = strata::hw::perf;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Kernel {
  strata::sxbin::Binary binary;
  const strata::sxbin::KernelDesc* desc = nullptr;
  std::vector<uint8_t> code;
};

bool load_kernel(const char* path, const char* name, Kernel* k) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto sx = strata::compiler::compile_ptx({{"sampling_error.ptx", text.str()}}, {});
  if (!sx.ok()) {
    std::fprintf(stderr, "cannot compile %s: %s\n", path, sx.status().to_string().c_str());
    return false;
  }
  auto binary = strata::sxbin::read_sxbin(*sx);
  if (!binary.ok()) {
    std::fprintf(stderr, "%s\n", binary.status().to_string().c_str());
    return false;
  }
  k->binary = std::move(*binary);
  for (const auto& d : k->binary.kernels) {
    if (d.name != name) continue;
    k->desc = &d;
    k->code.assign(k->binary.code.begin() + d.code_offset,
                   k->binary.code.begin() + d.code_offset + d.code_size);
  }
  if (k->desc == nullptr) std::fprintf(stderr, "%s: no kernel %s\n", path, name);
  return k->desc != nullptr;
}

// Inputs: multiples of 1/8 in (-1, 1).
float a_value(uint32_t i, uint32_t j) {
  return static_cast<float>((i * 7 + j * 3) % 15) / 8 - 0.875f;
}
float b_value(uint32_t i, uint32_t j) {
  return static_cast<float>((i * 5 + j * 11) % 13) / 8 - 0.75f;
}

struct Row {
  uint32_t n = 0;
  bool ok = false;
  double functional_s = 0, full_s = 0, sampled_s = 0;
  perf::DetailedResult full, sampled;
  uint64_t trace_warp_instructions = 0;
};

Row run_size(const strata::hw::ArchConfig& config, const Kernel& k, uint32_t n,
             const perf::SamplingParams& sampling) {
  Row row;
  row.n = n;
  const uint64_t bytes = uint64_t{n} * n * 4;
  Harness h(3 * bytes + (64ull << 20));
  h.config = config;
  const uint64_t a = h.alloc(bytes), b = h.alloc(bytes), c = h.alloc(bytes);
  std::vector<float> ha(uint64_t{n} * n), hb(uint64_t{n} * n);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      ha[uint64_t{i} * n + j] = a_value(i, j);
      hb[uint64_t{i} * n + j] = b_value(i, j);
    }
  h.write(a, ha);
  h.write(b, hb);
  std::vector<uint32_t> params((k.desc->param_bytes + 3) / 4, 0);
  auto set = [&](size_t index, const void* v, size_t size) {
    std::memcpy(reinterpret_cast<uint8_t*>(params.data()) + k.desc->params.at(index).offset, v,
                size);
  };
  set(0, &a, 8);
  set(1, &b, 8);
  set(2, &c, 8);
  const int32_t ni = static_cast<int32_t>(n);
  set(3, &ni, 4);

  perf::KernelTrace trace;
  LaunchOptions opts;
  opts.regs = k.desc->regs_per_thread;
  opts.shared_bytes = k.desc->shared_bytes;
  opts.local_bytes = k.desc->local_bytes;
  opts.trace = &trace;
  GridStats stats;
  auto t0 = std::chrono::steady_clock::now();
  const FaultRecord f = h.launch_raw(k.code, Dim{n / 64, n / 64}, Dim{256}, params, opts, &stats);
  row.functional_s = seconds_since(t0);
  if (f.kind != strata::hw::FaultKind::kNone) {
    std::fprintf(stderr, "n=%u: kernel faulted (kind %u, pc %u)\n", n,
                 static_cast<unsigned>(f.kind), f.pc);
    return row;
  }
  // Host reference (every row up to 512, 64 spread rows above).
  const std::vector<float> got = h.read<float>(c, uint64_t{n} * n);
  const uint32_t step = n <= 512 ? 1 : n / 64;
  std::vector<float> ref(n);
  for (uint32_t i = 0; i < n; i += step) {
    std::fill(ref.begin(), ref.end(), 0.0f);
    for (uint32_t kk = 0; kk < n; ++kk) {
      const float av = ha[uint64_t{i} * n + kk];
      for (uint32_t j = 0; j < n; ++j) ref[j] += av * hb[uint64_t{kk} * n + j];
    }
    if (std::memcmp(ref.data(), got.data() + uint64_t{i} * n, n * 4) != 0) {
      std::fprintf(stderr, "n=%u: row %u of C differs from the host product\n", n, i);
      return row;
    }
  }
  row.trace_warp_instructions = trace.warp_instructions();
  const perf::DetailedParams p = perf::detailed_params(config);
  t0 = std::chrono::steady_clock::now();
  row.full = perf::model_kernel_detailed(p, trace, stats.kernel);
  row.full_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  row.sampled = perf::model_kernel_sampled(p, trace, stats.kernel, sampling);
  row.sampled_s = seconds_since(t0);
  row.ok = true;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string arch = "strata-g1";
  int64_t sm_count = 0;
  perf::SamplingParams sampling;
  std::vector<uint32_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--arch" && i + 1 < argc) {
      arch = argv[++i];
    } else if (arg == "--tolerance" && i + 1 < argc) {
      sampling.tolerance = std::stod(argv[++i]);
    } else if (arg == "--sm-count" && i + 1 < argc) {
      sm_count = std::stoll(argv[++i]);
    } else if (!arg.empty() && arg[0] != '-' && std::stoul(arg) % 64 == 0 && std::stoul(arg) > 0) {
      sizes.push_back(static_cast<uint32_t>(std::stoul(arg)));
    } else {
      std::fprintf(
          stderr,
          "usage: sampling_error [--quick] [--arch NAME|PATH] [--sm-count N] [--tolerance X] "
          "[n ...] "
          "(n a multiple of 64)\n");
      return 2;
    }
  }
  if (sizes.empty())
    sizes = quick ? std::vector<uint32_t>{128} : std::vector<uint32_t>{256, 512, 1024};
  if (std::getenv("STRATA_ARCH_DIR") == nullptr)
    setenv("STRATA_ARCH_DIR", STRATA_MODEL_ARCH_DIR, 1);
  auto config = strata::hw::load_arch_config(arch);
  if (!config.ok()) {
    std::fprintf(stderr, "%s\n", config.status().to_string().c_str());
    return 1;
  }
  if (sm_count > 0) config->sm_count = sm_count;
  Kernel k;
  if (!load_kernel(STRATA_SAMPLING_PTX, "sgemm_tiled", &k)) return 1;

  std::printf(
      "sampling error: tiled SGEMM (64x64 tiles, K step 8), config %s, %lld SMs, tolerance %g\n",
      arch.c_str(), static_cast<long long>(config->sm_count), sampling.tolerance);
  std::printf("%6s %9s %5s %11s %11s %12s %12s %8s %9s %9s %8s %8s %s\n", "n", "SM0 CTAs", "waves",
              "loop iters", "warp insts", "full cycles", "sampled cyc", "error%", "full s",
              "sampled s", "speedup", "func s", "simulated");
  int failures = 0;
  for (const uint32_t n : sizes) {
    const Row r = run_size(*config, k, n, sampling);
    if (!r.ok) {
      ++failures;
      continue;
    }
    const double error =
        100.0 * (static_cast<double>(r.sampled.cycles) - static_cast<double>(r.full.cycles)) /
        static_cast<double>(r.full.cycles);
    std::printf(
        "%6u %9llu %5llu %11llu %11llu %12llu %12llu %+8.3f %9.3f %9.3f %7.1fx %8.2f "
        "waves %llu/%llu, iterations %llu/%llu, x%.2f\n",
        n, static_cast<unsigned long long>(r.full.ctas),
        static_cast<unsigned long long>(r.sampled.waves_total),
        static_cast<unsigned long long>(r.sampled.iterations_total),
        static_cast<unsigned long long>(r.trace_warp_instructions),
        static_cast<unsigned long long>(r.full.cycles),
        static_cast<unsigned long long>(r.sampled.cycles), error, r.full_s, r.sampled_s,
        r.full_s / r.sampled_s, r.functional_s,
        static_cast<unsigned long long>(r.sampled.waves_simulated),
        static_cast<unsigned long long>(r.sampled.waves_total),
        static_cast<unsigned long long>(r.sampled.iterations_simulated),
        static_cast<unsigned long long>(r.sampled.iterations_total), r.sampled.extrapolation);
    std::fflush(stdout);
  }
  if (failures > 0) {
    std::printf("FAIL sampling_error\n");
    return 1;
  }
  std::printf("PASS sampling_error\n");
  return 0;
}
