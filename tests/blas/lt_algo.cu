// cuBLASLt's algorithm API and its companions: cublasLtMatmulAlgoGetIds, Init, Check,
// CapGetAttribute, ConfigSet/GetAttribute (the sizes and defaults cublasLt.h documents,
// the size errors), matmuls run with an Init'd algorithm for S, D, C and Z (bit-exact on
// integer data against a host reference) and with configurations the algorithm lacks,
// the heuristics cache capacity, and the logger (levels, masks, callback, file,
// ForceDisable).
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "blas_check.h"

using blas_check::Random;

namespace {

// A matmul problem of one type: D = alpha A B + beta C, column-major, with its
// descriptors and device buffers.
struct Problem {
  cublasComputeType_t compute;
  cudaDataType_t type;
  size_t elem;
  bool complex;
  int m, n, k;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
  void *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
  std::vector<double> ha, hb, hc;  // real and imaginary parts interleaved when complex

  Problem(cublasComputeType_t compute_, cudaDataType_t type_, size_t elem_, bool complex_, int m_,
          int n_, int k_, uint64_t seed)
      : compute(compute_), type(type_), elem(elem_), complex(complex_), m(m_), n(n_), k(k_) {
    CHECK_CUBLAS(cublasLtMatmulDescCreate(&desc, compute, type));
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&la, type, m, k, m));
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lb, type, k, n, k));
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lc, type, m, n, m));
    Random r(seed);
    const int parts = complex ? 2 : 1;
    for (auto [v, count] : {std::pair{&ha, m * k}, std::pair{&hb, k * n}, std::pair{&hc, m * n}}) {
      v->resize(static_cast<size_t>(count) * parts);
      for (double& e : *v) e = r.integer(8);
    }
    a = upload(ha), b = upload(hb), c = upload(hc);
    CHECK_CUDA(cudaMalloc(&d, std::max<size_t>(1, hc.size() / parts) * elem));
  }
  ~Problem() {
    cublasLtMatmulDescDestroy(desc);
    cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb),
        cublasLtMatrixLayoutDestroy(lc);
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d);
  }
  // Values of the element type from doubles (float or double parts).
  void* upload(const std::vector<double>& v) const {
    void* p = nullptr;
    const size_t parts = complex ? 2 : 1;
    CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(1, v.size() / parts) * elem));
    std::vector<unsigned char> bytes(v.size() / parts * elem);
    for (size_t i = 0; i < v.size(); ++i) {
      if (elem / parts == 4) {
        const float f = static_cast<float>(v[i]);
        std::memcpy(bytes.data() + i * 4, &f, 4);
      } else {
        std::memcpy(bytes.data() + i * 8, &v[i], 8);
      }
    }
    CHECK_CUDA(cudaMemcpy(p, bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
    return p;
  }
  std::vector<double> download() const {
    const size_t parts = complex ? 2 : 1, count = static_cast<size_t>(m) * n * parts;
    std::vector<unsigned char> bytes(count / parts * elem);
    CHECK_CUDA(cudaMemcpy(bytes.data(), d, bytes.size(), cudaMemcpyDeviceToHost));
    std::vector<double> out(count);
    for (size_t i = 0; i < count; ++i) {
      if (elem / parts == 4) {
        float f;
        std::memcpy(&f, bytes.data() + i * 4, 4);
        out[i] = f;
      } else {
        std::memcpy(&out[i], bytes.data() + i * 8, 8);
      }
    }
    return out;
  }
  // D = 2 A B - C on the host (exact: small integers), summing the first `kk` of the k
  // products (all of them unless a mutation drops some).
  std::vector<double> reference(int kk = -1) const {
    if (kk < 0) kk = k;
    const int parts = complex ? 2 : 1;
    std::vector<double> out(static_cast<size_t>(m) * n * parts);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        double re = 0, im = 0;
        for (int p = 0; p < kk; ++p) {
          const double* x = &ha[(i + p * m) * parts];
          const double* y = &hb[(p + j * k) * parts];
          re += x[0] * y[0] - (complex ? x[1] * y[1] : 0);
          if (complex) im += x[0] * y[1] + x[1] * y[0];
        }
        const size_t at = (i + static_cast<size_t>(j) * m) * parts;
        out[at] = 2 * re - hc[at];
        if (complex) out[at + 1] = 2 * im - hc[at + 1];
      }
    }
    return out;
  }
  cublasStatus_t run(cublasLtHandle_t lt, const cublasLtMatmulAlgo_t* algo) {
    // alpha = 2, beta = -1 of the scale type (the element type).
    double scalars[2][2] = {{2, 0}, {-1, 0}};
    float fscalars[2][2] = {{2, 0}, {-1, 0}};
    const bool single = elem / (complex ? 2 : 1) == 4;
    const void* alpha = single ? static_cast<const void*>(fscalars[0]) : scalars[0];
    const void* beta = single ? static_cast<const void*>(fscalars[1]) : scalars[1];
    return cublasLtMatmul(lt, desc, alpha, a, la, b, lb, beta, c, lc, d, lc, algo, nullptr, 0, 0);
  }
};

int32_t get_config_i32(const cublasLtMatmulAlgo_t& algo,
                       cublasLtMatmulAlgoConfigAttributes_t attr) {
  int32_t v = -1;
  size_t written = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoConfigGetAttribute(&algo, attr, &v, sizeof(v), &written));
  EXPECT_TRUE(written == sizeof(v), "attr %d wrote %zu", static_cast<int>(attr), written);
  return v;
}

void check_ids_and_init(cublasLtHandle_t lt) {
  int ids[8], count = -1;
  CHECK_CUBLAS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                        CUDA_R_32F, CUDA_R_32F, 8, ids, &count));
  EXPECT_TRUE(count >= 1 && count <= 8, "GetIds count %d", count);
  for (int i = 0; i < count; ++i) {
    cublasLtMatmulAlgo_t algo;
    CHECK_CUBLAS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                        CUDA_R_32F, CUDA_R_32F, ids[i], &algo));
    EXPECT_TRUE(get_config_i32(algo, CUBLASLT_ALGO_CONFIG_ID) == ids[i], "CONFIG_ID");
  }
  // A combination no GEMM has (A FP32, B FP64): no ids, and Init says NOT_SUPPORTED.
  CHECK_CUBLAS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_64F,
                                        CUDA_R_32F, CUDA_R_32F, 8, ids + 1, &count));
  EXPECT_TRUE(count == 0, "GetIds of a bad combination: %d", count);
  cublasLtMatmulAlgo_t algo;
  EXPECT_STATUS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_64F,
                                       CUDA_R_32F, CUDA_R_32F, ids[0], &algo),
                CUBLAS_STATUS_NOT_SUPPORTED);
  // Invalid arguments.
  EXPECT_STATUS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                         CUDA_R_32F, CUDA_R_32F, 0, ids, &count),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatmulAlgoGetIds(nullptr, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F,
                                         CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, 8, ids, &count),
                CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                       CUDA_R_32F, CUDA_R_32F, ids[0], nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                       CUDA_R_32F, CUDA_R_32F, -1, &algo),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                       CUDA_R_32F, CUDA_R_32F, 1 << 20, &algo),
                CUBLAS_STATUS_INVALID_VALUE);
  std::printf("ok ids and init\n");
}

// The configuration attributes: documented sizes and defaults, round trips, size errors.
void check_config(const cublasLtMatmulAlgo_t& initial) {
  struct Attr {
    cublasLtMatmulAlgoConfigAttributes_t attr;
    size_t size;
    uint32_t default_value;  // -1: not checked (the id)
  };
  const Attr attrs[] = {
      {CUBLASLT_ALGO_CONFIG_ID, 4, 0xffffffffu},
      {CUBLASLT_ALGO_CONFIG_TILE_ID, 4, CUBLASLT_MATMUL_TILE_UNDEFINED},
      {CUBLASLT_ALGO_CONFIG_SPLITK_NUM, 4, 1},
      {CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, 4, CUBLASLT_REDUCTION_SCHEME_NONE},
      {CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, 4, 0},
      {CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, 4, 0},
      {CUBLASLT_ALGO_CONFIG_STAGES_ID, 4, CUBLASLT_MATMUL_STAGES_UNDEFINED},
      {CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, 2, CUBLASLT_MATMUL_INNER_SHAPE_UNDEFINED},
      {CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, 2, CUBLASLT_CLUSTER_SHAPE_AUTO},
  };
  cublasLtMatmulAlgo_t algo = initial;
  for (const Attr& a : attrs) {
    size_t written = 0;
    CHECK_CUBLAS(cublasLtMatmulAlgoConfigGetAttribute(&algo, a.attr, nullptr, 0, &written));
    EXPECT_TRUE(written == a.size, "config %d: size %zu", static_cast<int>(a.attr), written);
    uint32_t v = 0;  // little-endian: a 2-byte value lands in the low half
    CHECK_CUBLAS(cublasLtMatmulAlgoConfigGetAttribute(&algo, a.attr, &v, a.size, &written));
    if (a.default_value != 0xffffffffu)
      EXPECT_TRUE(v == a.default_value, "config %d: default %u", static_cast<int>(a.attr), v);
    // Size errors.
    uint64_t big = 0;
    EXPECT_STATUS(cublasLtMatmulAlgoConfigGetAttribute(&algo, a.attr, &big, 8, &written),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(cublasLtMatmulAlgoConfigGetAttribute(&algo, a.attr, nullptr, a.size, &written),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(cublasLtMatmulAlgoConfigGetAttribute(&algo, a.attr, &v, 0, nullptr),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(cublasLtMatmulAlgoConfigSetAttribute(&algo, a.attr, &big, 8),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(cublasLtMatmulAlgoConfigSetAttribute(&algo, a.attr, nullptr, a.size),
                  CUBLAS_STATUS_INVALID_VALUE);
  }
  // Round trips.
  const uint32_t tile = CUBLASLT_MATMUL_TILE_128x128;
  CHECK_CUBLAS(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, 4));
  EXPECT_TRUE(get_config_i32(algo, CUBLASLT_ALGO_CONFIG_TILE_ID) == static_cast<int32_t>(tile),
              "tile round trip");
  const uint16_t cluster = CUBLASLT_CLUSTER_SHAPE_1x1x1;
  CHECK_CUBLAS(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID,
                                                    &cluster, 2));
  uint16_t got16 = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID,
                                                    &got16, 2, nullptr));
  EXPECT_TRUE(got16 == cluster, "cluster round trip");
  // Undefined attribute, uninitialised algo.
  uint32_t v = 0;
  EXPECT_STATUS(cublasLtMatmulAlgoConfigGetAttribute(
                    &algo, static_cast<cublasLtMatmulAlgoConfigAttributes_t>(99), &v, 4, nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulAlgo_t zero{};
  EXPECT_STATUS(
      cublasLtMatmulAlgoConfigGetAttribute(&zero, CUBLASLT_ALGO_CONFIG_TILE_ID, &v, 4, nullptr),
      CUBLAS_STATUS_INVALID_VALUE);
  std::printf("ok config attributes\n");
}

// The capabilities: documented sizes, what Strata's algorithm supports.
void check_caps(const cublasLtMatmulAlgo_t& algo) {
  struct Cap {
    cublasLtMatmulAlgoCapAttributes_t attr;
    size_t size;  // 0: an array of uint32_t
  };
  const Cap caps[] = {
      {CUBLASLT_ALGO_CAP_SPLITK_SUPPORT, 4},
      {CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK, 4},
      {CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT, 4},
      {CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT, 4},
      {CUBLASLT_ALGO_CAP_OUT_OF_PLACE_RESULT_SUPPORT, 4},
      {CUBLASLT_ALGO_CAP_UPLO_SUPPORT, 4},
      {CUBLASLT_ALGO_CAP_TILE_IDS, 0},
      {CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX, 4},
      {CUBLASLT_ALGO_CAP_CUSTOM_MEMORY_ORDER, 4},
      {CUBLASLT_ALGO_CAP_POINTER_MODE_MASK, 4},
      {CUBLASLT_ALGO_CAP_EPILOGUE_MASK, 4},
      {CUBLASLT_ALGO_CAP_STAGES_IDS, 0},
      {CUBLASLT_ALGO_CAP_LD_NEGATIVE, 4},
      {CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS, 8},
      {CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES, 4},
      {CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES, 4},
      {CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES, 4},
      {CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES, 4},
      {CUBLASLT_ALGO_CAP_POINTER_ARRAY_BATCH_SUPPORT, 4},
      {CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT, 4},
  };
  for (const Cap& c : caps) {
    size_t written = 0;
    CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, c.attr, nullptr, 0, &written));
    if (c.size != 0) {
      EXPECT_TRUE(written == c.size, "cap %d: size %zu", static_cast<int>(c.attr), written);
      uint64_t big = 0;
      EXPECT_STATUS(
          cublasLtMatmulAlgoCapGetAttribute(&algo, c.attr, &big, c.size == 8 ? 4 : 8, nullptr),
          CUBLAS_STATUS_INVALID_VALUE);
    } else {
      // An array: the example of cublasLt.h (a buffer of CUBLASLT_MATMUL_TILE_END ids).
      EXPECT_TRUE(written >= 4 && written % 4 == 0, "cap %d: size %zu", static_cast<int>(c.attr),
                  written);
      uint32_t ids[CUBLASLT_MATMUL_TILE_END];
      size_t got = 0;
      CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, c.attr, ids, sizeof(ids), &got));
      EXPECT_TRUE(got == written, "array size");
      const uint32_t end = c.attr == CUBLASLT_ALGO_CAP_TILE_IDS
                               ? static_cast<uint32_t>(CUBLASLT_MATMUL_TILE_END)
                               : static_cast<uint32_t>(CUBLASLT_MATMUL_STAGES_END);
      for (size_t i = 0; i < got / 4; ++i) EXPECT_TRUE(ids[i] < end, "id %u", ids[i]);
    }
    EXPECT_STATUS(cublasLtMatmulAlgoCapGetAttribute(&algo, c.attr, nullptr, 0, nullptr),
                  CUBLAS_STATUS_INVALID_VALUE);
  }
  const auto cap32 = [&](cublasLtMatmulAlgoCapAttributes_t attr) {
    uint32_t v = 0;
    CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, attr, &v, 4, nullptr));
    return v;
  };
  // What Strata's tile kernel is (issue 7, the brief): no split-K, no reduction schemes,
  // no swizzling, strided batches, host and device scalars, the forward epilogues for FP32.
  EXPECT_TRUE(cap32(CUBLASLT_ALGO_CAP_SPLITK_SUPPORT) == 0, "splitK");
  EXPECT_TRUE(cap32(CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK) == 0, "reduction schemes");
  EXPECT_TRUE(cap32(CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT) == 0, "swizzling");
  EXPECT_TRUE(cap32(CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT) != 0, "strided batch");
  const uint32_t pm = cap32(CUBLASLT_ALGO_CAP_POINTER_MODE_MASK);
  EXPECT_TRUE((pm & 3) == 3, "pointer modes %u", pm);
  const uint32_t epilogues = cap32(CUBLASLT_ALGO_CAP_EPILOGUE_MASK);
  for (uint32_t e : {CUBLASLT_EPILOGUE_DEFAULT, CUBLASLT_EPILOGUE_RELU, CUBLASLT_EPILOGUE_BIAS,
                     CUBLASLT_EPILOGUE_GELU, CUBLASLT_EPILOGUE_GELU_AUX_BIAS})
    EXPECT_TRUE((epilogues & e) == e, "epilogue mask %u lacks %u", epilogues, e);
  EXPECT_TRUE(cap32(CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES) >= 1, "alignment");
  uint64_t flags = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS,
                                                 &flags, 8, nullptr));
  EXPECT_TRUE((flags & CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32F) != 0 &&
                  (flags & CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_32F) != 0,
              "numerical flags %llx", static_cast<unsigned long long>(flags));
  uint32_t v = 0;
  EXPECT_STATUS(cublasLtMatmulAlgoCapGetAttribute(
                    &algo, static_cast<cublasLtMatmulAlgoCapAttributes_t>(8), &v, 4, nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  std::printf("ok capabilities\n");
}

// Matmuls with an Init'd algo of each type; Check; configurations the algorithm lacks.
void check_matmuls(cublasLtHandle_t lt) {
  struct Type {
    const char* name;
    cublasComputeType_t compute;
    cudaDataType_t type;
    size_t elem;
    bool complex;
  };
  const Type types[] = {{"S", CUBLAS_COMPUTE_32F, CUDA_R_32F, 4, false},
                        {"D", CUBLAS_COMPUTE_64F, CUDA_R_64F, 8, false},
                        {"C", CUBLAS_COMPUTE_32F, CUDA_C_32F, 8, true},
                        {"Z", CUBLAS_COMPUTE_64F, CUDA_C_64F, 16, true}};
  uint64_t seed = 1;
  for (const Type& t : types) {
    int id = 0, count = 0;
    CHECK_CUBLAS(cublasLtMatmulAlgoGetIds(lt, t.compute, t.type, t.type, t.type, t.type, t.type, 1,
                                          &id, &count));
    EXPECT_TRUE(count == 1, "%s: GetIds", t.name);
    cublasLtMatmulAlgo_t algo;
    CHECK_CUBLAS(
        cublasLtMatmulAlgoInit(lt, t.compute, t.type, t.type, t.type, t.type, t.type, id, &algo));
    struct Shape {
      int m, n, k;
    };
    for (const Shape shape : {Shape{7, 5, 9}, Shape{1, 1, 1}, Shape{33, 20, 17}}) {
      Problem p(t.compute, t.type, t.elem, t.complex, shape.m, shape.n, shape.k, seed++);
      cublasLtMatmulHeuristicResult_t result;
      std::memset(&result, 0xff, sizeof(result));
      CHECK_CUBLAS(cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &algo, &result));
      EXPECT_TRUE(result.state == CUBLAS_STATUS_SUCCESS && result.wavesCount > 0,
                  "%s: Check result", t.name);
      CHECK_CUBLAS(p.run(lt, &algo));
      CHECK_CUDA(cudaDeviceSynchronize());
      const std::vector<double> got = p.download(), want = p.reference();
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(got[i] == want[i], "%s %dx%dx%d [%zu] = %g, want %g", t.name, p.m, p.n, p.k, i,
                    got[i], want[i]);
      // Mutation: the comparison sees a dropped last k step.
      if (p.k > 1) {
        bool differs = false;
        const std::vector<double> dropped = p.reference(p.k - 1);
        for (size_t i = 0; i < got.size(); ++i) differs |= dropped[i] != got[i];
        EXPECT_TRUE(differs, "%s: a dropped k step goes unnoticed", t.name);
      }
    }
  }

  // Check and matmul reject what the algorithm lacks, and algos of other types.
  Problem p(CUBLAS_COMPUTE_32F, CUDA_R_32F, 4, false, 8, 8, 8, 99);
  cublasLtMatmulAlgo_t algo, dalgo;
  int sid = 0, did = 0, count = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                        CUDA_R_32F, CUDA_R_32F, 1, &sid, &count));
  CHECK_CUBLAS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                      CUDA_R_32F, CUDA_R_32F, sid, &algo));
  CHECK_CUBLAS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F,
                                        CUDA_R_64F, CUDA_R_64F, 1, &did, &count));
  CHECK_CUBLAS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F,
                                      CUDA_R_64F, CUDA_R_64F, did, &dalgo));
  cublasLtMatmulHeuristicResult_t result;
  EXPECT_STATUS(cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &dalgo, &result),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(p.run(lt, &dalgo), CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulAlgo_t zero{};
  EXPECT_STATUS(cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &zero, &result),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &algo, nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  // Each unsupported configuration (the capabilities say so) is NOT_SUPPORTED.
  struct Bad {
    cublasLtMatmulAlgoConfigAttributes_t attr;
    uint32_t value;
    size_t size;
  };
  const Bad bads[] = {{CUBLASLT_ALGO_CONFIG_SPLITK_NUM, 4, 4},
                      {CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, 1, 4},
                      {CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, CUBLASLT_REDUCTION_SCHEME_INPLACE, 4},
                      {CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, 1, 4}};
  for (const Bad& b : bads) {
    cublasLtMatmulAlgo_t bad = algo;
    CHECK_CUBLAS(cublasLtMatmulAlgoConfigSetAttribute(&bad, b.attr, &b.value, b.size));
    EXPECT_STATUS(cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &bad, &result),
                  CUBLAS_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(p.run(lt, &bad), CUBLAS_STATUS_NOT_SUPPORTED);
  }
  // A tile the capabilities do not list is NOT_SUPPORTED; each listed tile runs.
  uint32_t tiles[CUBLASLT_MATMUL_TILE_END];
  size_t written = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_TILE_IDS, tiles,
                                                 sizeof(tiles), &written));
  for (uint32_t tile = 1; tile < CUBLASLT_MATMUL_TILE_END; tile += 37) {
    bool listed = false;
    for (size_t i = 0; i < written / 4; ++i) listed |= tiles[i] == tile;
    cublasLtMatmulAlgo_t t = algo;
    CHECK_CUBLAS(cublasLtMatmulAlgoConfigSetAttribute(&t, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, 4));
    EXPECT_STATUS(cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &t, &result),
                  listed ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED);
  }
  for (size_t i = 0; i < written / 4; ++i) {
    cublasLtMatmulAlgo_t t = algo;
    CHECK_CUBLAS(
        cublasLtMatmulAlgoConfigSetAttribute(&t, CUBLASLT_ALGO_CONFIG_TILE_ID, &tiles[i], 4));
    CHECK_CUBLAS(cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &t, &result));
    CHECK_CUBLAS(p.run(lt, &t));
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<double> got = p.download(), want = p.reference();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i] == want[i], "tile run [%zu]", i);

  // The heuristic's algo passes Check in place (result->algo is not written).
  int found = 0;
  cublasLtMatmulHeuristicResult_t h;
  CHECK_CUBLAS(
      cublasLtMatmulAlgoGetHeuristic(lt, p.desc, p.la, p.lb, p.lc, p.lc, nullptr, 1, &h, &found));
  EXPECT_TRUE(found == 1, "heuristic");
  const cublasLtMatmulAlgo_t before = h.algo;
  CHECK_CUBLAS(cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &h.algo, &h));
  EXPECT_TRUE(std::memcmp(&before, &h.algo, sizeof(before)) == 0, "Check wrote result->algo");
  // CUBLASLT_SEARCH_LIMITED_BY_ALGO_ID: the heuristic considers only the algorithm
  // result[0].algo was initialised with (cublasLt.h), here Init's (one result) and a
  // zeroed algo (none).
  cublasLtMatmulPreference_t pref;
  CHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  const uint32_t mode = CUBLASLT_SEARCH_LIMITED_BY_ALGO_ID;
  CHECK_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_SEARCH_MODE, &mode,
                                                    sizeof(mode)));
  h.algo = algo;
  CHECK_CUBLAS(
      cublasLtMatmulAlgoGetHeuristic(lt, p.desc, p.la, p.lb, p.lc, p.lc, pref, 1, &h, &found));
  EXPECT_TRUE(found == 1 && h.state == CUBLAS_STATUS_SUCCESS, "limited by algo id: %d", found);
  EXPECT_TRUE(get_config_i32(h.algo, CUBLASLT_ALGO_CONFIG_ID) == sid, "limited by algo id: id");
  std::memset(&h, 0, sizeof(h));
  CHECK_CUBLAS(
      cublasLtMatmulAlgoGetHeuristic(lt, p.desc, p.la, p.lb, p.lc, p.lc, pref, 1, &h, &found));
  EXPECT_TRUE(found == 0, "limited by a zeroed algo: %d", found);
  cublasLtMatmulPreferenceDestroy(pref);
  std::printf("ok matmuls with algorithms\n");
}

// The search of NVIDIA's "LtSgemmCustomFind" sample: every id GetIds lists, Init, the
// capabilities read the way the sample reads them (sizeInBytes 0 for the array sizes, ints
// for the scalars), every combination of tile, stages, custom option, swizzling and split-K
// the capabilities allow set with ConfigSetAttribute and checked with AlgoCheck, and each
// one that passes run and compared with the host reference.
void check_custom_find(cublasLtHandle_t lt) {
  Problem p(CUBLAS_COMPUTE_32F, CUDA_R_32F, 4, false, 19, 11, 23, 123);
  int ids[16], count = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                        CUDA_R_32F, CUDA_R_32F, 16, ids, &count));
  int ran = 0;
  const std::vector<double> want = p.reference();
  for (int a = 0; a < count; ++a) {
    cublasLtMatmulAlgo_t algo;
    CHECK_CUBLAS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                        CUDA_R_32F, CUDA_R_32F, ids[a], &algo));
    size_t written = 0;
    CHECK_CUBLAS(
        cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_TILE_IDS, nullptr, 0, &written));
    std::vector<int> tiles(std::max<size_t>(1, written / sizeof(int)),
                           CUBLASLT_MATMUL_TILE_UNDEFINED);
    if (written > 0)
      CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_TILE_IDS,
                                                     tiles.data(), written, &written));
    CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_STAGES_IDS, nullptr, 0,
                                                   &written));
    std::vector<int> stages(std::max<size_t>(1, written / sizeof(int)),
                            CUBLASLT_MATMUL_STAGES_UNDEFINED);
    if (written > 0)
      CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_STAGES_IDS,
                                                     stages.data(), written, &written));
    int splitk = 0, swizzling = 0, custom_max = 0, reduction_mask = 0;
    CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_SPLITK_SUPPORT, &splitk,
                                                   sizeof(splitk), &written));
    CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK,
                                                   &reduction_mask, sizeof(reduction_mask),
                                                   &written));
    CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT,
                                                   &swizzling, sizeof(swizzling), &written));
    CHECK_CUBLAS(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX,
                                                   &custom_max, sizeof(custom_max), &written));
    for (int tile : tiles) {
      for (int stage : stages) {
        for (int custom = 0; custom <= custom_max; ++custom) {
          for (int swizzle = 0; swizzle <= swizzling; ++swizzle) {
            cublasLtMatmulAlgo_t t = algo;
            CHECK_CUBLAS(
                cublasLtMatmulAlgoConfigSetAttribute(&t, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, 4));
            CHECK_CUBLAS(cublasLtMatmulAlgoConfigSetAttribute(&t, CUBLASLT_ALGO_CONFIG_STAGES_ID,
                                                              &stage, 4));
            CHECK_CUBLAS(cublasLtMatmulAlgoConfigSetAttribute(
                &t, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &custom, 4));
            CHECK_CUBLAS(cublasLtMatmulAlgoConfigSetAttribute(
                &t, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &swizzle, 4));
            cublasLtMatmulHeuristicResult_t result;
            if (cublasLtMatmulAlgoCheck(lt, p.desc, p.la, p.lb, p.lc, p.lc, &t, &result) !=
                CUBLAS_STATUS_SUCCESS)
              continue;
            CHECK_CUBLAS(p.run(lt, &t));
            CHECK_CUDA(cudaDeviceSynchronize());
            const std::vector<double> got = p.download();
            for (size_t i = 0; i < got.size(); ++i)
              EXPECT_TRUE(got[i] == want[i], "custom find: tile %d [%zu]", tile, i);
            ++ran;
          }
        }
      }
    }
    EXPECT_TRUE(splitk == 0 && reduction_mask == 0, "split-K capabilities");
  }
  EXPECT_TRUE(ran >= 1, "custom find ran no configuration");
  std::printf("ok custom find (%d configurations)\n", ran);
}

void check_cache() {
  size_t capacity = 0;
  EXPECT_STATUS(cublasLtHeuristicsCacheGetCapacity(nullptr), CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(cublasLtHeuristicsCacheGetCapacity(&capacity));
  EXPECT_TRUE(capacity == 8192, "default capacity %zu", capacity);  // cuBLASLt's documented default
  CHECK_CUBLAS(cublasLtHeuristicsCacheSetCapacity(0));
  CHECK_CUBLAS(cublasLtHeuristicsCacheGetCapacity(&capacity));
  EXPECT_TRUE(capacity == 0, "capacity %zu", capacity);
  CHECK_CUBLAS(cublasLtHeuristicsCacheSetCapacity(100));
  CHECK_CUBLAS(cublasLtHeuristicsCacheGetCapacity(&capacity));
  EXPECT_TRUE(capacity == 100, "capacity %zu", capacity);
  std::printf("ok heuristics cache\n");
}

// The logger's callback records what it receives.
std::vector<std::pair<int, std::string>> g_logged;
void on_log(int level, const char* function, const char* message) {
  EXPECT_TRUE(message != nullptr, "null message");
  g_logged.emplace_back(level, function);
}
int logged(int level, const char* function) {
  int n = 0;
  for (const auto& [l, f] : g_logged) n += l == level && f == function;
  return n;
}

void check_logger(cublasLtHandle_t lt) {
  Problem p(CUBLAS_COMPUTE_32F, CUDA_R_32F, 4, false, 4, 4, 4, 7);
  EXPECT_STATUS(cublasLtLoggerSetLevel(6), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtLoggerSetLevel(-1), CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(cublasLtLoggerSetCallback(on_log));
  // Level 2 (trace): the matmul, which launches a kernel, is logged at level 2.
  CHECK_CUBLAS(cublasLtLoggerSetLevel(2));
  CHECK_CUBLAS(p.run(lt, nullptr));
  EXPECT_TRUE(logged(2, "cublasLtMatmul") == 1, "trace of the matmul (%zu lines)", g_logged.size());
  // Level 0: nothing.
  g_logged.clear();
  CHECK_CUBLAS(cublasLtLoggerSetLevel(0));
  CHECK_CUBLAS(p.run(lt, nullptr));
  EXPECT_TRUE(g_logged.empty(), "level 0 logged %zu lines", g_logged.size());
  // Mask 16 (API trace only): the algorithm queries, not the matmul's trace.
  CHECK_CUBLAS(cublasLtLoggerSetMask(16));
  int id = 0, count = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                        CUDA_R_32F, CUDA_R_32F, 1, &id, &count));
  CHECK_CUBLAS(p.run(lt, nullptr));
  EXPECT_TRUE(logged(5, "cublasLtMatmulAlgoGetIds") == 1 && logged(2, "cublasLtMatmul") == 0,
              "mask 16");
  // Mask 8 (heuristics trace): the heuristic's choice.
  g_logged.clear();
  CHECK_CUBLAS(cublasLtLoggerSetMask(8));
  cublasLtMatmulHeuristicResult_t h;
  int found = 0;
  CHECK_CUBLAS(
      cublasLtMatmulAlgoGetHeuristic(lt, p.desc, p.la, p.lb, p.lc, p.lc, nullptr, 1, &h, &found));
  EXPECT_TRUE(
      found == 1 && logged(4, "cublasLtMatmulAlgoGetHeuristic") == 1 && g_logged.size() == 1,
      "mask 8: %zu lines", g_logged.size());
  // A log file, with the callback removed: the line names the function.
  CHECK_CUBLAS(cublasLtLoggerSetCallback(nullptr));
  char path[] = "/tmp/strata_lt_log_XXXXXX";
  const int fd = mkstemp(path);
  EXPECT_TRUE(fd >= 0, "mkstemp");
  close(fd);
  CHECK_CUBLAS(cublasLtLoggerOpenFile(path));
  CHECK_CUBLAS(cublasLtLoggerSetLevel(5));
  CHECK_CUBLAS(p.run(lt, nullptr));
  CHECK_CUBLAS(cublasLtLoggerSetLevel(0));
  std::string text;
  if (FILE* f = std::fopen(path, "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
    std::fclose(f);
  }
  EXPECT_TRUE(text.find("[cublasLtMatmul]") != std::string::npos, "log file: %s", text.c_str());
  CHECK_CUBLAS(cublasLtLoggerSetFile(stdout));
  std::remove(path);
  // ForceDisable: later settings change nothing.
  g_logged.clear();
  CHECK_CUBLAS(cublasLtLoggerSetCallback(on_log));
  CHECK_CUBLAS(cublasLtLoggerForceDisable());
  CHECK_CUBLAS(cublasLtLoggerSetLevel(5));
  CHECK_CUBLAS(p.run(lt, nullptr));
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(g_logged.empty(), "logged after ForceDisable");
  std::printf("ok logger\n");
}

}  // namespace

int main() {
  cublasLtHandle_t lt;
  CHECK_CUBLAS(cublasLtCreate(&lt));
  check_ids_and_init(lt);
  cublasLtMatmulAlgo_t algo;
  int id = 0, count = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                        CUDA_R_32F, CUDA_R_32F, 1, &id, &count));
  CHECK_CUBLAS(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                      CUDA_R_32F, CUDA_R_32F, id, &algo));
  check_config(algo);
  check_caps(algo);
  check_matmuls(lt);
  check_custom_find(lt);
  check_cache();
  check_logger(lt);
  CHECK_CUBLAS(cublasLtDestroy(lt));
  std::printf("PASS lt_algo\n");
  return 0;
}
