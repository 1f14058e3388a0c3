// cuBLASLt matmul algorithms (cublasLt.h: cublasLtMatmulAlgo_t, cublasLtMatmulAlgoInit,
// cublasLtMatmulAlgoCheck, cublasLtMatmulAlgoCapGetAttribute, ...): the algorithms Strata
// has, what each supports, and how an algorithm is encoded in cublasLtMatmulAlgo_t's
// opaque data.
//
// Strata has one algorithm, kAlgoTile64: the shared-memory tile kernel of gemm.h /
// kernels/gemm.cuh (64 x 64 tile of D, 16 deep in k, one stage, 256 threads of FMAs;
// no split-K, no CTA swizzling, strided batches, C and D separate or aliased). It serves
// every type combination cublasLtMatmul accepts.
//
// Encoding: an AlgoState (below) in the algo's 64 bytes, marked by kAlgoMagic. It
// records the types cublasLtMatmulAlgoInit was given (so cublasLtMatmulAlgoCheck and
// cublasLtMatmul can reject descriptors that do not match) and the configuration
// attributes (cublasLtMatmulAlgoConfigAttributes_t), which cublasLtMatmulAlgoConfigSet/
// GetAttribute read and write. The data holds no pointer, so an algo may be copied and
// serialised, as the header promises.
#pragma once

#include <cublasLt.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "blas/lt_desc.h"

namespace strata::blas {

// The GEMM kernels (gemm.h kGemmTypes) that have an epilogue form
// (kernels/gemm_lt.cuh strata_blas_gemm_lt_*): cuBLASLt's epilogues, and the vector pointer
// modes, run on the FP32-compute kernels of real FP32 / FP16 / BF16 data.
inline constexpr std::string_view kLtEpilogueKernels[] = {
    "strata_blas_gemm_s_s_s", "strata_blas_gemm_h_h_s", "strata_blas_gemm_h_s_s",
    "strata_blas_gemm_bf_bf_s", "strata_blas_gemm_bf_s_s"};

inline constexpr uint32_t kAlgoMagic = 0x5354414c;  // "STAL"
inline constexpr int32_t kAlgoTile64 = 1;           // the only algorithm id

// The types an algorithm was initialised for (cublasLtMatmulAlgoInit's arguments).
struct AlgoTypes {
  int32_t compute;  // cublasComputeType_t
  int32_t scale;    // cudaDataType
  int32_t a, b, c, d;
  bool operator==(const AlgoTypes&) const = default;
};

struct AlgoState {
  uint32_t magic;
  int32_t id;
  AlgoTypes types;
  // cublasLtMatmulAlgoConfigAttributes_t, each in its documented type.
  uint32_t tile_id;           // CUBLASLT_ALGO_CONFIG_TILE_ID
  int32_t splitk_num;         // CUBLASLT_ALGO_CONFIG_SPLITK_NUM
  uint32_t reduction_scheme;  // CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME
  uint32_t cta_swizzling;     // CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING
  uint32_t custom_option;     // CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION
  uint32_t stages_id;         // CUBLASLT_ALGO_CONFIG_STAGES_ID
  uint16_t inner_shape_id;    // CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID
  uint16_t cluster_shape_id;  // CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID
};
static_assert(sizeof(AlgoState) <= sizeof(cublasLtMatmulAlgo_t));

// The types of a matmul's descriptors (none may be null).
AlgoTypes algo_types_of(const MatmulDescState& desc, const LayoutState& a, const LayoutState& b,
                        const LayoutState& c, const LayoutState& d);

// Whether cublasLtMatmul accepts these types at all (cublasGemmEx's table, gemm.h, with
// D's type equal to C's and the scale type the table's; FP8 combinations are asked of the
// matmul's plan through the heuristic on `handle`): the combinations
// cublasLtMatmulAlgoGetIds lists kAlgoTile64 for.
bool algo_types_supported(cublasLtHandle_t handle, const AlgoTypes& types);

// Writes algorithm `id` for `types` with the default configuration (every attribute at
// its documented default) into `algo`, zeroing the rest of it.
void init_algo(const AlgoTypes& types, int32_t id, cublasLtMatmulAlgo_t* algo);

// The heuristic's result for a matmul of `types` that Strata's algorithm `id` serves:
// writes the algo (init_algo) into `result` and zeroes its other fields, and returns
// true; unless the preference asks for CUBLASLT_SEARCH_LIMITED_BY_ALGO_ID and
// result->algo (which the program initialised, as cublasLt.h requires for that mode)
// is not algorithm `id`: then it returns false and writes nothing (no result).
bool heuristic_result(const PreferenceState* preference, const AlgoTypes& types, int32_t id,
                      cublasLtMatmulHeuristicResult_t* result);

// The state of an algo Strata initialised, or null (a zeroed or foreign algo).
const AlgoState* algo_state_of(const cublasLtMatmulAlgo_t* algo);
AlgoState* algo_state_of(cublasLtMatmulAlgo_t* algo);

// The check cublasLtMatmul and cublasLtMatmulAlgoCheck make of an algorithm (logged,
// naming `function`): CUBLAS_STATUS_INVALID_VALUE when `algo` is not one Strata
// initialised or was initialised for other types than the descriptors' (null
// descriptors are left to the matmul's own checks); CUBLAS_STATUS_NOT_SUPPORTED when
// its configuration is one the algorithm lacks (a tile other than 64x64, split-K, a
// reduction scheme, CTA swizzling, a custom option, stages other than 16x1, an inner or
// cluster shape).
cublasStatus_t check_algo(const char* function, const cublasLtMatmulAlgo_t& algo,
                          const MatmulDescState* desc, const LayoutState* a, const LayoutState* b,
                          const LayoutState* c, const LayoutState* d);

// cublasLtMatmulAlgoCapGetAttribute for a valid algorithm: the attribute's value in
// `value` (at most kMaxCapBytes) and its size in bytes; false for an attribute
// cublasLt.h does not define.
inline constexpr size_t kMaxCapBytes = 64;
bool algo_capability(const AlgoState& algo, cublasLtMatmulAlgoCapAttributes_t attr,
                     unsigned char* value, size_t* size);

// cublasLtMatmul's first step: logs the call to the cuBLASLt logger (lt_log.h, at the
// trace level) and, for a non-null `algo`, makes check_algo's check.
cublasStatus_t lt_matmul_begin(const char* function, cublasLtMatmulDesc_t desc, const void* a,
                               cublasLtMatrixLayout_t a_desc, const void* b,
                               cublasLtMatrixLayout_t b_desc, const void* c,
                               cublasLtMatrixLayout_t c_desc, void* d,
                               cublasLtMatrixLayout_t d_desc, const cublasLtMatmulAlgo_t* algo,
                               size_t workspace_bytes, cudaStream_t stream);

}  // namespace strata::blas
