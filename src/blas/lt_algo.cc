#include "blas/lt_algo.h"

#include <fmt/format.h>

#include <cstring>
#include <string>
#include <string_view>

#include "blas/gemm.h"
#include "blas/lt_log.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

// What kAlgoTile64 offers (its cublasLtMatmulAlgoCapAttributes_t values).
constexpr uint32_t kTileIds[] = {CUBLASLT_MATMUL_TILE_64x64};
constexpr uint32_t kStagesIds[] = {CUBLASLT_MATMUL_STAGES_16x1};
// The epilogues of api_lt_matmul.cc (kernels/lt_epilogue.h), as cublasLtEpilogue_t's
// bits: forward ones (DEFAULT, RELU, BIAS, GELU, the aux output's 128) and backward ones
// (DRELU's 8, BGRAD's 16, DGELU's 64, BGRADA, BGRADB). FP8 matmuls have the forward ones.
constexpr uint32_t kForwardEpilogues = CUBLASLT_EPILOGUE_DEFAULT | CUBLASLT_EPILOGUE_RELU |
                                       CUBLASLT_EPILOGUE_BIAS | CUBLASLT_EPILOGUE_GELU | 128u;
constexpr uint32_t kAllEpilogues =
    kForwardEpilogues | 8u | 16u | 64u | CUBLASLT_EPILOGUE_BGRADA | CUBLASLT_EPILOGUE_BGRADB;
bool is_fp8(int32_t type) {
  return type == CUDA_R_8F_E4M3 || type == CUDA_R_8F_E5M2;
}

// Whether the matmul accepts an FP8 combination: asked of the matmul's own plan (through
// the heuristic, 16 x 16 x 16 in the "TN" format FP8 needs), which knows the FP8 table
// and the device's compute capability.
bool fp8_matmul_accepts(cublasLtHandle_t handle, const AlgoTypes& t) {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t layouts[4] = {};
  const int32_t types[4] = {t.a, t.b, t.c, t.d};
  bool ok = cublasLtMatmulDescCreate(&desc, static_cast<cublasComputeType_t>(t.compute),
                                     static_cast<cudaDataType_t>(t.scale)) == CUBLAS_STATUS_SUCCESS;
  const int32_t transa = CUBLAS_OP_T;
  ok = ok && cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
                                            sizeof(transa)) == CUBLAS_STATUS_SUCCESS;
  for (int i = 0; i < 4; ++i) {
    ok = ok && cublasLtMatrixLayoutCreate(&layouts[i], static_cast<cudaDataType_t>(types[i]), 16,
                                          16, 16) == CUBLAS_STATUS_SUCCESS;
  }
  cublasLtMatmulHeuristicResult_t result;
  int count = 0;
  ok = ok &&
       cublasLtMatmulAlgoGetHeuristic(handle, desc, layouts[0], layouts[1], layouts[2], layouts[3],
                                      nullptr, 1, &result, &count) == CUBLAS_STATUS_SUCCESS &&
       count > 0;
  for (cublasLtMatrixLayout_t l : layouts) {
    if (l != nullptr) cublasLtMatrixLayoutDestroy(l);
  }
  if (desc != nullptr) cublasLtMatmulDescDestroy(desc);
  return ok;
}

const GemmTypeRow* row_of(const AlgoTypes& t) {
  GemmCompute compute;
  if (!gemm_compute_of(static_cast<cublasComputeType_t>(t.compute), &compute)) return nullptr;
  const GemmTypeRow* row =
      find_gemm_types(static_cast<cudaDataType>(t.a), static_cast<cudaDataType>(t.b),
                      static_cast<cudaDataType>(t.c), compute);
  if (row == nullptr || t.d != t.c || t.scale != row->scale) return nullptr;
  return row;
}

bool epilogue_kernel(const GemmTypeRow* row) {
  if (row == nullptr) return false;
  for (std::string_view k : kLtEpilogueKernels) {
    if (k == row->kernel) return true;
  }
  return false;
}

uint32_t element_bytes(int32_t type) {
  switch (type) {
    case CUDA_R_8I:
    case CUDA_R_8F_E4M3:
    case CUDA_R_8F_E5M2:
      return 1;
    case CUDA_R_16F:
    case CUDA_R_16BF:
    case CUDA_C_8I:
      return 2;
    case CUDA_R_32F:
    case CUDA_R_32I:
      return 4;
    case CUDA_R_64F:
    case CUDA_C_32F:
      return 8;
    case CUDA_C_64F:
      return 16;
  }
  return 1;
}

// CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS: FMAs, the compute type's accumulator, and the
// precision the products see (FP32 inputs rounded as the compute type asks).
uint64_t numerical_flags(const AlgoTypes& t) {
  uint64_t flags = CUBLASLT_NUMERICAL_IMPL_FLAGS_FMA;
  GemmCompute compute = GemmCompute::kF32;
  gemm_compute_of(static_cast<cublasComputeType_t>(t.compute), &compute);
  switch (compute) {
    case GemmCompute::kF16:
      flags |= CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_16F;
      break;
    case GemmCompute::kI32:
      flags |= CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32I;
      break;
    case GemmCompute::kF32:
    case GemmCompute::kF32Fast:
      flags |= CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32F;
      break;
    case GemmCompute::kF64:
      flags |= CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_64F;
      break;
  }
  switch (t.a) {
    case CUDA_R_16F:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_16F;
    case CUDA_R_16BF:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_16BF;
    case CUDA_R_8I:
    case CUDA_C_8I:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_8I;
    case CUDA_R_8F_E4M3:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_8F_E4M3;
    case CUDA_R_8F_E5M2:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_8F_E5M2;
    case CUDA_R_64F:
    case CUDA_C_64F:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_64F;
  }
  switch (gemm_rounding(static_cast<cublasComputeType_t>(t.compute), CUBLAS_DEFAULT_MATH)) {
    case strata_blas::kGemmRoundTf32:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_TF32;
    case strata_blas::kGemmRoundF16:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_16F;
    case strata_blas::kGemmRoundBf16:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_16BF;
    default:
      return flags | CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_32F;
  }
}

template <typename T>
void put(unsigned char* out, size_t* size, T value) {
  std::memcpy(out, &value, sizeof(T));
  *size = sizeof(T);
}

template <size_t N>
void put_array(unsigned char* out, size_t* size, const uint32_t (&values)[N]) {
  static_assert(sizeof(values) <= kMaxCapBytes);
  std::memcpy(out, values, sizeof(values));
  *size = sizeof(values);
}

}  // namespace

AlgoTypes algo_types_of(const MatmulDescState& desc, const LayoutState& a, const LayoutState& b,
                        const LayoutState& c, const LayoutState& d) {
  return AlgoTypes{desc.compute_type,
                   desc.scale_type,
                   static_cast<int32_t>(a.type),
                   static_cast<int32_t>(b.type),
                   static_cast<int32_t>(c.type),
                   static_cast<int32_t>(d.type)};
}

bool algo_types_supported(cublasLtHandle_t handle, const AlgoTypes& types) {
  if (is_fp8(types.a) || is_fp8(types.b)) return fp8_matmul_accepts(handle, types);
  return row_of(types) != nullptr;
}

void init_algo(const AlgoTypes& types, int32_t id, cublasLtMatmulAlgo_t* algo) {
  std::memset(algo, 0, sizeof(*algo));
  AlgoState s{};
  s.magic = kAlgoMagic;
  s.id = id;
  s.types = types;
  s.tile_id = CUBLASLT_MATMUL_TILE_UNDEFINED;
  s.splitk_num = 1;
  s.reduction_scheme = CUBLASLT_REDUCTION_SCHEME_NONE;
  s.cta_swizzling = 0;
  s.custom_option = 0;
  s.stages_id = CUBLASLT_MATMUL_STAGES_UNDEFINED;
  s.inner_shape_id = CUBLASLT_MATMUL_INNER_SHAPE_UNDEFINED;
  s.cluster_shape_id = CUBLASLT_CLUSTER_SHAPE_AUTO;
  std::memcpy(algo->data, &s, sizeof(s));
}

bool heuristic_result(const PreferenceState* preference, const AlgoTypes& types, int32_t id,
                      cublasLtMatmulHeuristicResult_t* result) {
  if (preference != nullptr && preference->search_mode == CUBLASLT_SEARCH_LIMITED_BY_ALGO_ID) {
    const AlgoState* wanted = algo_state_of(&result->algo);
    if (wanted == nullptr || wanted->id != id) return false;
  }
  std::memset(result, 0, sizeof(*result));
  init_algo(types, id, &result->algo);
  lt_log(kLtLogHeuristics, "cublasLtMatmulAlgoGetHeuristic",
         "algoId={} for computeType={} scaleType={} Atype={} Btype={} Ctype={} Dtype={}", id,
         types.compute, types.scale, types.a, types.b, types.c, types.d);
  return true;
}

const AlgoState* algo_state_of(const cublasLtMatmulAlgo_t* algo) {
  if (algo == nullptr) return nullptr;
  const auto* s = reinterpret_cast<const AlgoState*>(algo->data);
  return s->magic == kAlgoMagic ? s : nullptr;
}

AlgoState* algo_state_of(cublasLtMatmulAlgo_t* algo) {
  return const_cast<AlgoState*>(algo_state_of(static_cast<const cublasLtMatmulAlgo_t*>(algo)));
}

cublasStatus_t check_algo(const char* function, const cublasLtMatmulAlgo_t& algo,
                          const MatmulDescState* desc, const LayoutState* a, const LayoutState* b,
                          const LayoutState* c, const LayoutState* d) {
  const AlgoState* s = algo_state_of(&algo);
  if (s == nullptr)
    return invalid(function, "algo was not initialised by cublasLtMatmulAlgoInit or the heuristic");
  if (s->id != kAlgoTile64) return invalid(function, "algo id {} is not one of Strata's", s->id);
  if (desc != nullptr && a != nullptr && b != nullptr && c != nullptr && d != nullptr) {
    const AlgoTypes t = algo_types_of(*desc, *a, *b, *c, *d);
    if (!(t == s->types)) {
      return invalid(function,
                     "the descriptors' types (compute {}, scale {}, A {}, B {}, C {}, D {}) are "
                     "not the algo's (compute {}, scale {}, A {}, B {}, C {}, D {})",
                     t.compute, t.scale, t.a, t.b, t.c, t.d, s->types.compute, s->types.scale,
                     s->types.a, s->types.b, s->types.c, s->types.d);
    }
  }
  const auto unsupported = [&](const char* what, int64_t value) {
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "algo configuration {} = {} is not supported", what, value);
  };
  if (s->tile_id != CUBLASLT_MATMUL_TILE_UNDEFINED && s->tile_id != CUBLASLT_MATMUL_TILE_64x64)
    return unsupported("TILE_ID", s->tile_id);
  if (s->splitk_num != 1) return unsupported("SPLITK_NUM", s->splitk_num);
  if (s->reduction_scheme != CUBLASLT_REDUCTION_SCHEME_NONE)
    return unsupported("REDUCTION_SCHEME", s->reduction_scheme);
  if (s->cta_swizzling != 0) return unsupported("CTA_SWIZZLING", s->cta_swizzling);
  if (s->custom_option != 0) return unsupported("CUSTOM_OPTION", s->custom_option);
  if (s->stages_id != CUBLASLT_MATMUL_STAGES_UNDEFINED &&
      s->stages_id != CUBLASLT_MATMUL_STAGES_16x1)
    return unsupported("STAGES_ID", s->stages_id);
  if (s->inner_shape_id != CUBLASLT_MATMUL_INNER_SHAPE_UNDEFINED)
    return unsupported("INNER_SHAPE_ID", s->inner_shape_id);
  if (s->cluster_shape_id != CUBLASLT_CLUSTER_SHAPE_AUTO &&
      s->cluster_shape_id != CUBLASLT_CLUSTER_SHAPE_1x1x1)
    return unsupported("CLUSTER_SHAPE_ID", s->cluster_shape_id);
  return CUBLAS_STATUS_SUCCESS;
}

bool algo_capability(const AlgoState& algo, cublasLtMatmulAlgoCapAttributes_t attr,
                     unsigned char* value, size_t* size) {
  const GemmTypeRow* row = row_of(algo.types);
  switch (attr) {
    case CUBLASLT_ALGO_CAP_SPLITK_SUPPORT:
      put<int32_t>(value, size, 0);
      return true;
    case CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK:
      put<uint32_t>(value, size, CUBLASLT_REDUCTION_SCHEME_NONE);
      return true;
    case CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT:
      put<uint32_t>(value, size, 0);
      return true;
    case CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT:
      put<int32_t>(value, size, 1);
      return true;
    case CUBLASLT_ALGO_CAP_OUT_OF_PLACE_RESULT_SUPPORT:
      put<int32_t>(value, size, 1);
      return true;
    case CUBLASLT_ALGO_CAP_UPLO_SUPPORT:
      put<int32_t>(value, size, 0);
      return true;
    case CUBLASLT_ALGO_CAP_TILE_IDS:
      put_array(value, size, kTileIds);
      return true;
    case CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX:
      put<int32_t>(value, size, 0);
      return true;
    case CUBLASLT_ALGO_CAP_CUSTOM_MEMORY_ORDER:
      put<int32_t>(value, size, 0);
      return true;
    case CUBLASLT_ALGO_CAP_POINTER_MODE_MASK: {
      uint32_t mask = CUBLASLT_POINTER_MODE_MASK_HOST | CUBLASLT_POINTER_MODE_MASK_DEVICE;
      if (epilogue_kernel(row)) {
        mask |= CUBLASLT_POINTER_MODE_MASK_DEVICE_VECTOR |
                CUBLASLT_POINTER_MODE_MASK_ALPHA_DEVICE_VECTOR_BETA_ZERO |
                CUBLASLT_POINTER_MODE_MASK_ALPHA_DEVICE_VECTOR_BETA_HOST;
      }
      put<uint32_t>(value, size, mask);
      return true;
    }
    case CUBLASLT_ALGO_CAP_EPILOGUE_MASK: {
      uint32_t mask = CUBLASLT_EPILOGUE_DEFAULT;
      if (epilogue_kernel(row)) mask = kAllEpilogues;
      if (is_fp8(algo.types.a) || is_fp8(algo.types.b)) mask = kForwardEpilogues;
      put<uint32_t>(value, size, mask);
      return true;
    }
    case CUBLASLT_ALGO_CAP_STAGES_IDS:
      put_array(value, size, kStagesIds);
      return true;
    case CUBLASLT_ALGO_CAP_LD_NEGATIVE:
      put<int32_t>(value, size, 0);
      return true;
    case CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS:
      put<uint64_t>(value, size, numerical_flags(algo.types));
      return true;
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES:
      put<uint32_t>(value, size, element_bytes(algo.types.a));
      return true;
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES:
      put<uint32_t>(value, size, element_bytes(algo.types.b));
      return true;
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES:
      put<uint32_t>(value, size, element_bytes(algo.types.c));
      return true;
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES:
      put<uint32_t>(value, size, element_bytes(algo.types.d));
      return true;
    case CUBLASLT_ALGO_CAP_POINTER_ARRAY_BATCH_SUPPORT: {  // api_lt_matmul.cc: not FP8
      const auto fp8 = [](int32_t t) { return t == CUDA_R_8F_E4M3 || t == CUDA_R_8F_E5M2; };
      put<int32_t>(value, size, fp8(algo.types.a) || fp8(algo.types.b) ? 0 : 1);
      return true;
    }
    case CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT:
      put<int32_t>(value, size, 0);
      return true;
  }
  return false;
}

namespace {

std::string layout_text(const LayoutState* l) {
  if (l == nullptr) return "[null]";
  return fmt::format("[type={} rows={} cols={} ld={} order={} batch={} stride={}]", l->type,
                     l->rows, l->cols, l->ld, l->order, l->batch_count, l->strided_batch_offset);
}

}  // namespace

cublasStatus_t lt_matmul_begin(const char* function, cublasLtMatmulDesc_t desc, const void* a,
                               cublasLtMatrixLayout_t a_desc, const void* b,
                               cublasLtMatrixLayout_t b_desc, const void* c,
                               cublasLtMatrixLayout_t c_desc, void* d,
                               cublasLtMatrixLayout_t d_desc, const cublasLtMatmulAlgo_t* algo,
                               size_t workspace_bytes, cudaStream_t stream) {
  const MatmulDescState* md = matmul_desc_of(desc);
  const LayoutState *la = layout_of(a_desc), *lb = layout_of(b_desc), *lc = layout_of(c_desc),
                    *ld = layout_of(d_desc);
  if (lt_log_enabled(kLtLogTrace)) {
    const std::string op = md == nullptr
                               ? "[null]"
                               : fmt::format(
                                     "[computeType={} scaleType={} transa={} transb={} epilogue={} "
                                     "pointerMode={}]",
                                     md->compute_type, md->scale_type, md->transa, md->transb,
                                     md->epilogue, md->pointer_mode);
    const AlgoState* s = algo_state_of(algo);
    const std::string algo_text =
        algo == nullptr ? "null"
                        : (s == nullptr ? "[not initialised]"
                                        : fmt::format("[algoId={} tile={}]", s->id, s->tile_id));
    lt_log(kLtLogTrace, function,
           "A={} Adesc={} B={} Bdesc={} C={} Cdesc={} D={} Ddesc={} computeDesc={} algo={} "
           "workSpaceSizeInBytes={} stream={}",
           a, layout_text(la), b, layout_text(lb), c, layout_text(lc), static_cast<const void*>(d),
           layout_text(ld), op, algo_text, workspace_bytes, static_cast<const void*>(stream));
  }
  if (algo == nullptr) return CUBLAS_STATUS_SUCCESS;
  const cublasStatus_t s = check_algo(function, *algo, md, la, lb, lc, ld);
  if (s != CUBLAS_STATUS_SUCCESS)
    lt_log(kLtLogError, function, "the algo was rejected ({})", status_name(s));
  return s;
}

}  // namespace strata::blas
