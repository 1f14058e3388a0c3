// cuBLASLt descriptors: create / init in caller storage / destroy, attribute defaults,
// set and get round trips, size queries, and the documented INVALID_VALUE cases (null
// buffer, a size that does not match the attribute's, an attribute of another kind).
#include <cstring>

#include "blas_check.h"

template <typename T, typename Get>
T get(Get getter) {
  T value{};
  size_t written = 0;
  CHECK_CUBLAS(getter(&value, sizeof(T), &written));
  EXPECT_TRUE(written == sizeof(T), "wrote %zu bytes, expected %zu", written, sizeof(T));
  return value;
}

int main() {
  // Matrix layout.
  cublasLtMatrixLayout_t layout = nullptr;
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&layout, CUDA_R_16BF, 96, 64, 128));
  auto layout_get = [&](cublasLtMatrixLayoutAttribute_t attr) {
    return [=](void* buf, size_t size, size_t* written) {
      return cublasLtMatrixLayoutGetAttribute(layout, attr, buf, size, written);
    };
  };
  EXPECT_TRUE(get<uint32_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_TYPE)) == CUDA_R_16BF, "type");
  EXPECT_TRUE(get<uint64_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_ROWS)) == 96, "rows");
  EXPECT_TRUE(get<uint64_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_COLS)) == 64, "cols");
  EXPECT_TRUE(get<int64_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_LD)) == 128, "ld");
  EXPECT_TRUE(get<int32_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_ORDER)) == CUBLASLT_ORDER_COL, "order");
  EXPECT_TRUE(get<int32_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT)) == 1, "batch count");
  const int32_t batch = 12;
  const int64_t stride = 96 * 128;
  const int32_t row = CUBLASLT_ORDER_ROW;
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch)));
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride)));
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof(row)));
  EXPECT_TRUE(get<int32_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT)) == 12, "batch count");
  EXPECT_TRUE(get<int64_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET)) == stride, "stride");
  EXPECT_TRUE(get<int32_t>(layout_get(CUBLASLT_MATRIX_LAYOUT_ORDER)) == CUBLASLT_ORDER_ROW, "order");
  // Wrong size, null buffer, size query.
  EXPECT_STATUS(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_ROWS, &batch, sizeof(batch)),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_ROWS, nullptr, 8),
                CUBLAS_STATUS_INVALID_VALUE);
  size_t needed = 0;
  CHECK_CUBLAS(cublasLtMatrixLayoutGetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_LD, nullptr, 0, &needed));
  EXPECT_TRUE(needed == sizeof(int64_t), "ld needs %zu bytes", needed);
  EXPECT_STATUS(cublasLtMatrixLayoutGetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_LD, nullptr, 0, nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatrixLayoutSetAttribute(layout, static_cast<cublasLtMatrixLayoutAttribute_t>(77), &batch, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(cublasLtMatrixLayoutDestroy(layout));
  CHECK_CUBLAS(cublasLtMatrixLayoutDestroy(nullptr));

  // Init in the program's own storage (the static-inline *Init wrappers).
  cublasLtMatrixLayoutOpaque_t storage;
  std::memset(&storage, 0xab, sizeof(storage));
  CHECK_CUBLAS(cublasLtMatrixLayoutInit(&storage, CUDA_R_32F, 7, 9, 7));
  uint64_t rows = 0;
  CHECK_CUBLAS(cublasLtMatrixLayoutGetAttribute(&storage, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof(rows), nullptr));
  EXPECT_TRUE(rows == 7, "rows %llu", static_cast<unsigned long long>(rows));
  EXPECT_STATUS(cublasLtMatrixLayoutInit_internal(&storage, 8, CUDA_R_32F, 1, 1, 1), CUBLAS_STATUS_ALLOC_FAILED);

  // Matmul descriptor: defaults and the attributes llm.c and PyTorch set.
  cublasLtMatmulDesc_t desc = nullptr;
  CHECK_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  auto desc_get = [&](cublasLtMatmulDescAttributes_t attr) {
    return [=](void* buf, size_t size, size_t* written) {
      return cublasLtMatmulDescGetAttribute(desc, attr, buf, size, written);
    };
  };
  EXPECT_TRUE(get<int32_t>(desc_get(CUBLASLT_MATMUL_DESC_COMPUTE_TYPE)) == CUBLAS_COMPUTE_32F, "compute");
  EXPECT_TRUE(get<int32_t>(desc_get(CUBLASLT_MATMUL_DESC_SCALE_TYPE)) == CUDA_R_32F, "scale");
  EXPECT_TRUE(get<uint32_t>(desc_get(CUBLASLT_MATMUL_DESC_EPILOGUE)) == CUBLASLT_EPILOGUE_DEFAULT, "epilogue");
  EXPECT_TRUE(get<int32_t>(desc_get(CUBLASLT_MATMUL_DESC_FILL_MODE)) == CUBLAS_FILL_MODE_FULL, "fill");
  EXPECT_TRUE(get<int32_t>(desc_get(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE)) == -1, "bias type");
  const int32_t trans = CUBLAS_OP_T;
  const uint32_t epilogue = CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  float bias_storage = 0;
  const void* bias = &bias_storage;
  const int64_t aux_ld = 64;
  const int8_t fast = 1;
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &trans, sizeof(trans)));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld, sizeof(aux_ld)));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof(fast)));
  EXPECT_TRUE(get<int32_t>(desc_get(CUBLASLT_MATMUL_DESC_TRANSA)) == CUBLAS_OP_T, "transa");
  EXPECT_TRUE(get<int32_t>(desc_get(CUBLASLT_MATMUL_DESC_TRANSB)) == CUBLAS_OP_N, "transb");
  EXPECT_TRUE(get<uint32_t>(desc_get(CUBLASLT_MATMUL_DESC_EPILOGUE)) == epilogue, "epilogue");
  EXPECT_TRUE(get<const void*>(desc_get(CUBLASLT_MATMUL_DESC_BIAS_POINTER)) == bias, "bias");
  EXPECT_TRUE(get<int64_t>(desc_get(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD)) == aux_ld, "aux ld");
  EXPECT_TRUE(get<int8_t>(desc_get(CUBLASLT_MATMUL_DESC_FAST_ACCUM)) == 1, "fast accum");
  // FAST_ACCUM is one byte; the epilogue is four.
  const int32_t fast32 = 1;
  EXPECT_STATUS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast32, sizeof(fast32)),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &aux_ld, sizeof(aux_ld)),
                CUBLAS_STATUS_INVALID_VALUE);
  // A layout is not a matmul descriptor.
  cublasLtMatrixLayout_t other = nullptr;
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&other, CUDA_R_32F, 4, 4, 4));
  EXPECT_STATUS(cublasLtMatmulDescSetAttribute(reinterpret_cast<cublasLtMatmulDesc_t>(other),
                                               CUBLASLT_MATMUL_DESC_TRANSA, &trans, sizeof(trans)),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(cublasLtMatrixLayoutDestroy(other));
  CHECK_CUBLAS(cublasLtMatmulDescDestroy(desc));

  // Preference.
  cublasLtMatmulPreference_t pref = nullptr;
  CHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  auto pref_get = [&](cublasLtMatmulPreferenceAttributes_t attr) {
    return [=](void* buf, size_t size, size_t* written) {
      return cublasLtMatmulPreferenceGetAttribute(pref, attr, buf, size, written);
    };
  };
  EXPECT_TRUE(get<uint64_t>(pref_get(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES)) == 0, "workspace");
  EXPECT_TRUE(get<uint32_t>(pref_get(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES)) == 256, "alignment");
  EXPECT_TRUE(get<uint64_t>(pref_get(CUBLASLT_MATMUL_PREF_IMPL_MASK)) == ~uint64_t{0}, "impl mask");
  const uint64_t workspace = 32 << 20;
  CHECK_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof(workspace)));
  EXPECT_TRUE(get<uint64_t>(pref_get(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES)) == workspace, "workspace");
  CHECK_CUBLAS(cublasLtMatmulPreferenceDestroy(pref));

  // Transform and emulation descriptors.
  cublasLtMatrixTransformDesc_t transform = nullptr;
  CHECK_CUBLAS(cublasLtMatrixTransformDescCreate(&transform, CUDA_R_32F));
  int32_t scale = 0;
  CHECK_CUBLAS(cublasLtMatrixTransformDescGetAttribute(transform, CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, &scale, sizeof(scale), nullptr));
  EXPECT_TRUE(scale == CUDA_R_32F, "transform scale type %d", scale);
  CHECK_CUBLAS(cublasLtMatrixTransformDescDestroy(transform));
  cublasLtEmulationDesc_t emulation = nullptr;
  CHECK_CUBLAS(cublasLtEmulationDescCreate(&emulation));
  int32_t special = 0;
  CHECK_CUBLAS(cublasLtEmulationDescGetAttribute(emulation, CUBLASLT_EMULATION_DESC_SPECIAL_VALUES_SUPPORT, &special, sizeof(special), nullptr));
  EXPECT_TRUE(special == 0xFFFF, "special values %#x", special);
  CHECK_CUBLAS(cublasLtEmulationDescDestroy(emulation));

  std::printf("PASS lt_descriptors\n");
  return 0;
}
