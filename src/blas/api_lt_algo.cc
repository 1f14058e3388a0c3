// cuBLASLt's lower-level algorithm API (cublasLt.h): cublasLtMatmulAlgoGetIds, Init,
// Check, CapGetAttribute, ConfigSet/GetAttribute; the heuristics cache capacity; the
// logger. The algorithms and their encoding are lt_algo.h's, the logger lt_log.h's.
//
// Not here, as cublasLt.h declares none of them (they stay generated stubs): the
// type-specific cublasLt{SSS,DDD,HHH,...}Matmul* and cublasLt_for_cublas_* entry points
// (NVIDIA's internal dispatch between its libraries), cublasLtAlgoCharacteristicGetAttribute,
// cublasLtMatmulAlgoConfigGetAttributeRange and the heuristics cache's Create / Destroy /
// Get / Put.
#include <cublasLt.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "blas/handle.h"
#include "blas/lt_algo.h"
#include "blas/lt_desc.h"
#include "blas/lt_log.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

// The configuration attributes (cublasLtMatmulAlgoConfigAttributes_t): their field in
// AlgoState, so their documented size.
struct ConfigField {
  cublasLtMatmulAlgoConfigAttributes_t attr;
  size_t offset;
  size_t size;
  bool read_only;
};

#define STRATA_ALGO_CONFIG(attr, field, read_only)                        \
  ConfigField {                                                           \
    attr, offsetof(AlgoState, field), sizeof(AlgoState::field), read_only \
  }
constexpr ConfigField kConfigFields[] = {
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_ID, id, true),
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_TILE_ID, tile_id, false),
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_SPLITK_NUM, splitk_num, false),
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, reduction_scheme, false),
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, cta_swizzling, false),
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, custom_option, false),
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_STAGES_ID, stages_id, false),
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, inner_shape_id, false),
    STRATA_ALGO_CONFIG(CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, cluster_shape_id, false),
};
#undef STRATA_ALGO_CONFIG

const ConfigField* config_field(cublasLtMatmulAlgoConfigAttributes_t attr) {
  for (const ConfigField& f : kConfigFields) {
    if (f.attr == attr) return &f;
  }
  return nullptr;
}

// cublasLtHeuristicsCacheGet/SetCapacity: the documented default, 8192 entries, or
// CUBLASLT_HEURISTICS_CACHE_CAPACITY. Strata's heuristic is a constant-time rule, so it
// caches nothing; the capacity is kept for the program to read back.
std::atomic<size_t>& cache_capacity() {
  static std::atomic<size_t> capacity = [] {
    const char* env = std::getenv("CUBLASLT_HEURISTICS_CACHE_CAPACITY");
    return env != nullptr ? static_cast<size_t>(std::strtoull(env, nullptr, 10)) : size_t{8192};
  }();
  return capacity;
}

// The shared part of the Get/SetAttribute size rules: CUBLAS_STATUS_INVALID_VALUE when
// sizeInBytes is 0 and sizeWritten is null, or sizeInBytes is not 0 and buf is null.
cublasStatus_t check_get_args(const char* function, const void* buf, size_t size_in_bytes,
                              const size_t* size_written) {
  if (size_in_bytes == 0 && size_written == nullptr)
    return invalid(function, "sizeInBytes is 0 and sizeWritten is null");
  if (size_in_bytes != 0 && buf == nullptr)
    return invalid(function, "buf is null with sizeInBytes = {}", size_in_bytes);
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace
}  // namespace strata::blas

using namespace strata::blas;  // NOLINT: the entry points below are its public face

extern "C" {

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoGetIds(cublasLtHandle_t lightHandle,
                                                     cublasComputeType_t computeType,
                                                     cudaDataType_t scaleType, cudaDataType_t Atype,
                                                     cudaDataType_t Btype, cudaDataType_t Ctype,
                                                     cudaDataType_t Dtype, int requestedAlgoCount,
                                                     int algoIdsArray[], int* returnAlgoCount) {
  const char* function = "cublasLtMatmulAlgoGetIds";
  lt_log(kLtLogApi, function,
         "computeType={} scaleType={} Atype={} Btype={} Ctype={} Dtype={} requestedAlgoCount={}",
         +computeType, +scaleType, +Atype, +Btype, +Ctype, +Dtype, requestedAlgoCount);
  if (handle_of(lightHandle) == nullptr) return bad_handle(function, lightHandle);
  if (requestedAlgoCount <= 0)
    return invalid(function, "requestedAlgoCount = {} <= 0", requestedAlgoCount);
  if (algoIdsArray == nullptr || returnAlgoCount == nullptr)
    return invalid(function, "algoIdsArray or returnAlgoCount is null");
  const AlgoTypes types{computeType, scaleType, Atype, Btype, Ctype, Dtype};
  *returnAlgoCount = 0;
  if (algo_types_supported(lightHandle, types)) algoIdsArray[(*returnAlgoCount)++] = kAlgoTile64;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoInit(cublasLtHandle_t lightHandle,
                                                   cublasComputeType_t computeType,
                                                   cudaDataType_t scaleType, cudaDataType_t Atype,
                                                   cudaDataType_t Btype, cudaDataType_t Ctype,
                                                   cudaDataType_t Dtype, int algoId,
                                                   cublasLtMatmulAlgo_t* algo) {
  const char* function = "cublasLtMatmulAlgoInit";
  lt_log(kLtLogApi, function,
         "computeType={} scaleType={} Atype={} Btype={} Ctype={} Dtype={} "
         "algoId={}",
         +computeType, +scaleType, +Atype, +Btype, +Ctype, +Dtype, algoId);
  if (handle_of(lightHandle) == nullptr) return bad_handle(function, lightHandle);
  if (algo == nullptr) return invalid(function, "algo is null");
  if (algoId != kAlgoTile64)
    return invalid(function, "algoId = {} is not an algorithm id (Strata has {})", algoId,
                   kAlgoTile64);
  const AlgoTypes types{computeType, scaleType, Atype, Btype, Ctype, Dtype};
  if (!algo_types_supported(lightHandle, types)) {
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "algoId {} does not support compute {}, scale {}, A {}, B {}, C {}, D {}", algoId,
                +computeType, +scaleType, +Atype, +Btype, +Ctype, +Dtype);
  }
  init_algo(types, algoId, algo);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoCheck(
    cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc, cublasLtMatrixLayout_t Adesc,
    cublasLtMatrixLayout_t Bdesc, cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
    const cublasLtMatmulAlgo_t* algo, cublasLtMatmulHeuristicResult_t* result) {
  const char* function = "cublasLtMatmulAlgoCheck";
  lt_log(kLtLogApi, function, "algo={} result={}", static_cast<const void*>(algo),
         static_cast<const void*>(result));
  if (handle_of(lightHandle) == nullptr) return bad_handle(function, lightHandle);
  if (algo == nullptr || result == nullptr) return invalid(function, "algo or result is null");
  cublasStatus_t s = check_algo(function, *algo, matmul_desc_of(operationDesc), layout_of(Adesc),
                                layout_of(Bdesc), layout_of(Cdesc), layout_of(Ddesc));
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  // The matmul's own validation and its figures: the heuristic plans the same matmul
  // (api_lt_matmul.cc), and Strata's one algorithm is the heuristic's.
  cublasLtMatmulHeuristicResult_t planned;
  int count = 0;
  s = cublasLtMatmulAlgoGetHeuristic(lightHandle, operationDesc, Adesc, Bdesc, Cdesc, Ddesc,
                                     nullptr, 1, &planned, &count);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  if (count < 1) return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "no algorithm fits");
  // result->algo is never written (algo may point at it).
  result->workspaceSize = planned.workspaceSize;
  result->state = CUBLAS_STATUS_SUCCESS;
  result->wavesCount = planned.wavesCount;
  std::memset(result->reserved, 0, sizeof(result->reserved));
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoCapGetAttribute(
    const cublasLtMatmulAlgo_t* algo, cublasLtMatmulAlgoCapAttributes_t attr, void* buf,
    size_t sizeInBytes, size_t* sizeWritten) {
  const char* function = "cublasLtMatmulAlgoCapGetAttribute";
  lt_log(kLtLogApi, function, "attr={} sizeInBytes={}", +attr, sizeInBytes);
  const AlgoState* s = algo_state_of(algo);
  if (s == nullptr) return invalid(function, "algo is null or not initialised");
  if (cublasStatus_t st = check_get_args(function, buf, sizeInBytes, sizeWritten);
      st != CUBLAS_STATUS_SUCCESS)
    return st;
  unsigned char value[kMaxCapBytes];
  size_t size = 0;
  if (!algo_capability(*s, attr, value, &size))
    return invalid(function, "attr = {} is not a cublasLtMatmulAlgoCapAttributes_t", +attr);
  if (sizeInBytes == 0) {
    *sizeWritten = size;
    return CUBLAS_STATUS_SUCCESS;
  }
  // The arrays (tile and stages ids) fit any buffer as large as them; the others' size is
  // exact.
  const bool array = attr == CUBLASLT_ALGO_CAP_TILE_IDS || attr == CUBLASLT_ALGO_CAP_STAGES_IDS;
  if (array ? sizeInBytes < size : sizeInBytes != size)
    return invalid(function, "attr {}: sizeInBytes = {}, the attribute has {}", +attr, sizeInBytes,
                   size);
  std::memcpy(buf, value, size);
  if (sizeWritten != nullptr) *sizeWritten = size;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoConfigSetAttribute(
    cublasLtMatmulAlgo_t* algo, cublasLtMatmulAlgoConfigAttributes_t attr, const void* buf,
    size_t sizeInBytes) {
  const char* function = "cublasLtMatmulAlgoConfigSetAttribute";
  lt_log(kLtLogApi, function, "attr={} sizeInBytes={}", +attr, sizeInBytes);
  AlgoState* s = algo_state_of(algo);
  if (s == nullptr) return invalid(function, "algo is null or not initialised");
  const ConfigField* f = config_field(attr);
  if (f == nullptr)
    return invalid(function, "attr = {} is not a cublasLtMatmulAlgoConfigAttributes_t", +attr);
  if (buf == nullptr) return invalid(function, "buf is null");
  if (sizeInBytes != f->size)
    return invalid(function, "attr {}: sizeInBytes = {}, the attribute has {}", +attr, sizeInBytes,
                   f->size);
  if (f->read_only) return invalid(function, "CUBLASLT_ALGO_CONFIG_ID is read-only");
  std::memcpy(reinterpret_cast<unsigned char*>(s) + f->offset, buf, f->size);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoConfigGetAttribute(
    const cublasLtMatmulAlgo_t* algo, cublasLtMatmulAlgoConfigAttributes_t attr, void* buf,
    size_t sizeInBytes, size_t* sizeWritten) {
  const char* function = "cublasLtMatmulAlgoConfigGetAttribute";
  lt_log(kLtLogApi, function, "attr={} sizeInBytes={}", +attr, sizeInBytes);
  const AlgoState* s = algo_state_of(algo);
  if (s == nullptr) return invalid(function, "algo is null or not initialised");
  if (cublasStatus_t st = check_get_args(function, buf, sizeInBytes, sizeWritten);
      st != CUBLAS_STATUS_SUCCESS)
    return st;
  const ConfigField* f = config_field(attr);
  if (f == nullptr)
    return invalid(function, "attr = {} is not a cublasLtMatmulAlgoConfigAttributes_t", +attr);
  if (sizeInBytes == 0) {
    *sizeWritten = f->size;
    return CUBLAS_STATUS_SUCCESS;
  }
  if (sizeInBytes != f->size)
    return invalid(function, "attr {}: sizeInBytes = {}, the attribute has {}", +attr, sizeInBytes,
                   f->size);
  std::memcpy(buf, reinterpret_cast<const unsigned char*>(s) + f->offset, f->size);
  if (sizeWritten != nullptr) *sizeWritten = f->size;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtHeuristicsCacheGetCapacity(size_t* capacity) {
  if (capacity == nullptr) return invalid("cublasLtHeuristicsCacheGetCapacity", "capacity is null");
  *capacity = cache_capacity().load();
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtHeuristicsCacheSetCapacity(size_t capacity) {
  cache_capacity().store(capacity);  // 0 disables the cache
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtLoggerSetCallback(cublasLtLoggerCallback_t callback) {
  return lt_log_set_callback(callback);
}

cublasStatus_t CUBLASWINAPI cublasLtLoggerSetFile(FILE* file) {
  return lt_log_set_file(file);
}

cublasStatus_t CUBLASWINAPI cublasLtLoggerOpenFile(const char* logFile) {
  const cublasStatus_t s = lt_log_open_file(logFile);
  if (s != CUBLAS_STATUS_SUCCESS)
    return fail(s, "cublasLtLoggerOpenFile", "cannot open {}", logFile ? logFile : "(null)");
  return s;
}

cublasStatus_t CUBLASWINAPI cublasLtLoggerSetLevel(int level) {
  const cublasStatus_t s = lt_log_set_level(level);
  if (s != CUBLAS_STATUS_SUCCESS) return invalid("cublasLtLoggerSetLevel", "level = {}", level);
  return s;
}

cublasStatus_t CUBLASWINAPI cublasLtLoggerSetMask(int mask) {
  return lt_log_set_mask(mask);
}

cublasStatus_t CUBLASWINAPI cublasLtLoggerForceDisable() {
  return lt_log_force_disable();
}

}  // extern "C"
