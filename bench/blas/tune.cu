// The tensor-core GEMM tuner (issue 7 item 4; docs/blas.md "Tensor-core GEMM"): for each
// kernel family (FP16/BF16, TF32, INT8) and shape class of src/blas/kernels/gemm_tiles.h,
// ranks every candidate (the plain FMA kernel and each tile configuration, forced through
// STRATA_BLAS_GEMM_TILE, which gemm.h reads at each call) by its modeled time under the
// fast timing model, then re-times the best three with the sampled detailed model
// (STRATA_TIMING=sampled is read once per process, so each of those runs is a child
// process: this program with --measure) and picks the fastest. With --tune FILE it
// rewrites the selection table between FILE's "BEGIN TUNED TABLE" / "END TUNED TABLE"
// markers (FILE: src/blas/kernels/gemm_tiles.h).
//
// An ordinary CUDA program (nvcc -cudart shared, -lcublas); run it under `strata run`
// with STRATA_HOST_TIME=none so that cudaEventElapsedTime returns the model's kernel time
// and nothing of the host (JIT compilation):
//   STRATA_HOST_TIME=none strata run build/bench/blas/tune [--quick] [--tune FILE]
//   --quick: smaller shapes (ctest bench_blas_tune_quick); no detailed checks.
//   --no-detailed: rank by the fast model only.
//   --measure FAMILY CLASS TILE: print one candidate's modeled milliseconds (internal).
// It also prints modeled TFLOP/s against the configuration's tensor peak
// (sm_count x tensor_fma_per_clock_<type> x 2 x core clock, from the arch file).
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gemm_tiles.h"

#define CHECK(cond, ...)                               \
  do {                                                 \
    if (!(cond)) {                                     \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      std::printf(__VA_ARGS__);                        \
      std::printf("\n");                               \
      std::exit(1);                                    \
    }                                                  \
  } while (0)

namespace {

const char* const kFamilies[] = {"kTcFamily16", "kTcFamilyTf32", "kTcFamilyI8"};
const char* const kClasses[] = {"kTcSmall", "kTcMedium", "kTcLarge"};
// Candidates: the plain kernel and gemm_tiles.h's STRATA_GEMM_TC_TILES ids.
#define TUNE_TILE_ID(id, ...) #id,
const char* const kCandidates[] = {"fma", STRATA_GEMM_TC_TILES(TUNE_TILE_ID, 0)};
#undef TUNE_TILE_ID

struct Shape {
  int m, n, k, batch;
};
// A representative of each class on strata-g1 (gemm.h gemm_tc_shape_class: 128 x 128 tiles
// of C over the batches, per SM: < 0.5, < 2, more; 24 SMs: < 12, < 48 tiles).
Shape class_shape(int klass, bool quick) {
  if (quick) {
    const Shape s[] = {{128, 128, 64, 1}, {256, 256, 64, 1}, {256, 256, 64, 4}};
    return s[klass];
  }
  const Shape s[] = {{256, 256, 256, 1}, {512, 512, 256, 1}, {1024, 1024, 256, 1}};
  return s[klass];
}

// Modeled milliseconds of one GEMM of `family` on shape s with candidate `tile`.
double measure(cublasHandle_t h, int family, const Shape& s, const char* tile) {
  setenv("STRATA_BLAS_GEMM_TILE", tile, 1);
  cudaDataType ab = CUDA_R_16F, c = CUDA_R_16F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  size_t es = 2, cs = 2;
  if (family == 1) ab = c = CUDA_R_32F, compute = CUBLAS_COMPUTE_32F_FAST_TF32, es = cs = 4;
  if (family == 2) ab = CUDA_R_8I, c = CUDA_R_32I, compute = CUBLAS_COMPUTE_32I, es = 1, cs = 4;
  void *a, *b, *d;
  const size_t batch = s.batch;
  CHECK(cudaMalloc(&a, es * s.m * s.k * batch) == cudaSuccess, "cudaMalloc");
  CHECK(cudaMalloc(&b, es * s.k * s.n * batch) == cudaSuccess, "cudaMalloc");
  CHECK(cudaMalloc(&d, cs * s.m * s.n * batch) == cudaSuccess, "cudaMalloc");
  cudaMemset(a, 0, es * s.m * s.k * batch);
  cudaMemset(b, 0, es * s.k * s.n * batch);
  const float alpha_f = 1.0f, beta_f = 0.0f;
  const int32_t alpha_i = 1, beta_i = 0;
  const void* alpha = family == 2 ? static_cast<const void*>(&alpha_i) : &alpha_f;
  const void* beta = family == 2 ? static_cast<const void*>(&beta_i) : &beta_f;
  auto run = [&] {
    // TN (A stored k x m), the layout of row-major activations times weights.
    return cublasGemmStridedBatchedEx(
        h, CUBLAS_OP_T, CUBLAS_OP_N, s.m, s.n, s.k, alpha, a, ab, s.k,
        static_cast<long long>(s.m) * s.k, b, ab, s.k, static_cast<long long>(s.k) * s.n, beta, d,
        c, s.m, static_cast<long long>(s.m) * s.n, s.batch, compute, CUBLAS_GEMM_DEFAULT);
  };
  CHECK(run() == CUBLAS_STATUS_SUCCESS, "GEMM");  // warm-up: module load, JIT
  cudaEvent_t start, stop;
  cudaEventCreate(&start), cudaEventCreate(&stop);
  cudaEventRecord(start);
  CHECK(run() == CUBLAS_STATUS_SUCCESS, "GEMM");
  cudaEventRecord(stop);
  CHECK(cudaEventSynchronize(stop) == cudaSuccess, "sync");
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start), cudaEventDestroy(stop);
  cudaFree(a), cudaFree(b), cudaFree(d);
  unsetenv("STRATA_BLAS_GEMM_TILE");
  return ms;
}

// The configuration's tensor peaks in FLOP/s by family, from the arch file.
struct Peaks {
  double by_family[3] = {0, 0, 0};
  std::string derivation;
};
Peaks read_peaks() {
  Peaks p;
  const char* arch = std::getenv("STRATA_ARCH");
  const char* dir = std::getenv("STRATA_ARCH_DIR");
  const std::string path = std::string(dir && *dir ? dir : "arch") + "/" +
                           (arch && *arch ? arch : "strata-g1") + ".toml";
  std::ifstream in(path);
  std::string line;
  double sms = 0, mhz = 0, f16 = 0, tf32 = 0, i8 = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key, eq;
    double v;
    if (!(ls >> key >> eq >> v) || eq != "=") continue;
    if (key == "sm_count") sms = v;
    if (key == "core_clock_mhz") mhz = v;
    if (key == "tensor_fma_per_clock_f16") f16 = v;
    if (key == "tensor_fma_per_clock_tf32") tf32 = v;
    if (key == "tensor_fma_per_clock_i8") i8 = v;
  }
  const double hz = mhz * 1e6;
  p.by_family[0] = sms * f16 * 2 * hz;
  p.by_family[1] = sms * tf32 * 2 * hz;
  p.by_family[2] = sms * i8 * 2 * hz;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s: peak = sm_count %g x tensor_fma_per_clock_<type> x 2 x %g MHz: "
                "FP16/BF16 %.1f, TF32 %.1f, INT8 %.1f T(FL)OP/s",
                path.c_str(), sms, mhz, p.by_family[0] / 1e12, p.by_family[1] / 1e12,
                p.by_family[2] / 1e12);
  p.derivation = buf;
  return p;
}

// Modeled ms of a candidate under STRATA_TIMING=sampled, from a child process.
double measure_sampled(const char* self, int family, int klass, bool quick, const char* tile) {
  char cmd[1024];
  std::snprintf(cmd, sizeof cmd, "STRATA_TIMING=sampled '%s' --measure %d %d %s%s", self, family,
                klass, tile, quick ? " --quick" : "");
  FILE* f = popen(cmd, "r");
  CHECK(f != nullptr, "popen %s", cmd);
  double ms = -1;
  char line[256];
  while (std::fgets(line, sizeof line, f)) std::sscanf(line, "MEASURED %lf", &ms);
  pclose(f);
  return ms;
}

// Replaces the lines between the markers of `path` with the table.
void write_table(const char* path, const std::string table[3][3]) {
  std::ifstream in(path);
  CHECK(in, "cannot read %s", path);
  std::stringstream out;
  std::string line;
  bool inside = false, seen = false;
  while (std::getline(in, line)) {
    if (line.find("// END TUNED TABLE") != std::string::npos) inside = false;
    if (!inside) out << line << "\n";
    if (line.find("// BEGIN TUNED TABLE") != std::string::npos) {
      inside = seen = true;
      // Backslashes aligned one column after the longest line, as clang-format leaves them.
      std::vector<std::string> lines = {"#define STRATA_GEMM_TC_CHOICES(X)"};
      for (int f = 0; f < 3; ++f) {
        for (int c = 0; c < 3; ++c) {
          lines.push_back(std::string("  X(") + kFamilies[f] + ", " + kClasses[c] + ", " +
                          table[f][c] + ")");
        }
      }
      size_t width = 0;
      for (const std::string& l : lines) width = std::max(width, l.size());
      for (size_t i = 0; i < lines.size(); ++i) {
        out << lines[i];
        if (i + 1 < lines.size()) out << std::string(width + 1 - lines[i].size(), ' ') << "\\";
        out << "\n";
      }
    }
  }
  CHECK(seen, "%s has no BEGIN TUNED TABLE marker", path);
  std::ofstream(path) << out.str();
  std::printf("wrote the selection table of %s\n", path);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, detailed = true;
  const char* tune_file = nullptr;
  int measure_family = -1, measure_class = -1;
  const char* measure_tile = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
    } else if (!std::strcmp(argv[i], "--no-detailed")) {
      detailed = false;
    } else if (!std::strcmp(argv[i], "--tune") && i + 1 < argc) {
      tune_file = argv[++i];
    } else if (!std::strcmp(argv[i], "--measure") && i + 3 < argc) {
      measure_family = std::atoi(argv[++i]);
      measure_class = std::atoi(argv[++i]);
      measure_tile = argv[++i];
    } else {
      std::printf("usage: tune [--quick] [--no-detailed] [--tune gemm_tiles.h]\n");
      return 2;
    }
  }
  cublasHandle_t h;
  CHECK(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  if (measure_tile != nullptr) {
    std::printf("MEASURED %.9f\n",
                measure(h, measure_family, class_shape(measure_class, quick), measure_tile));
    return 0;
  }
  if (quick) detailed = false;
  const Peaks peaks = read_peaks();
  std::printf("%s\n", peaks.derivation.c_str());
  const char* family_names[] = {"FP16 (32F compute)", "TF32", "INT8 -> INT32"};
  std::string table[3][3];
  for (int f = 0; f < 3; ++f) {
    for (int c = 0; c < 3; ++c) {
      const Shape s = class_shape(c, quick);
      const double flops = 2.0 * s.m * s.n * s.k * s.batch;
      struct Ranked {
        const char* tile;
        double fast_ms, sampled_ms;
      };
      std::vector<Ranked> ranked;
      for (const char* tile : kCandidates) ranked.push_back({tile, measure(h, f, s, tile), -1});
      std::sort(ranked.begin(), ranked.end(),
                [](const Ranked& x, const Ranked& y) { return x.fast_ms < y.fast_ms; });
      if (detailed) {
        for (size_t i = 0; i < 3 && i < ranked.size(); ++i) {
          ranked[i].sampled_ms = measure_sampled(argv[0], f, c, quick, ranked[i].tile);
        }
      }
      size_t best = 0;
      for (size_t i = 1; i < 3 && i < ranked.size() && detailed; ++i) {
        if (ranked[i].sampled_ms > 0 && ranked[i].sampled_ms < ranked[best].sampled_ms) best = i;
      }
      table[f][c] = ranked[best].tile;
      std::printf("%s, %s (%dx%dx%d x%d):\n", family_names[f], kClasses[c], s.m, s.n, s.k, s.batch);
      for (size_t i = 0; i < ranked.size(); ++i) {
        const double tflops = flops / (ranked[i].fast_ms * 1e-3) / 1e12;
        std::printf("  %-8s fast %9.4f ms %7.2f TFLOP/s %5.1f%% of peak", ranked[i].tile,
                    ranked[i].fast_ms, tflops, 100.0 * tflops * 1e12 / peaks.by_family[f]);
        if (ranked[i].sampled_ms > 0) {
          std::printf("  sampled %9.4f ms %7.2f TFLOP/s", ranked[i].sampled_ms,
                      flops / (ranked[i].sampled_ms * 1e-3) / 1e12);
        }
        std::printf("%s\n", i == best ? "  <- chosen" : "");
      }
    }
  }
  if (tune_file != nullptr) write_table(tune_file, table);
  cublasDestroy(h);
  std::printf("PASS tune\n");
  return 0;
}
