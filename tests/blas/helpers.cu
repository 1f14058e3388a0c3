// cuBLAS helper functions: handle lifecycle and settings, versions, status strings,
// vector / matrix copies with strides and leading dimensions, scal (the first kernel
// path), and invalid arguments (CUBLAS_STATUS_INVALID_VALUE / NOT_INITIALIZED).
#include "blas_check.h"

int main() {
  cublasHandle_t h = nullptr;
  CHECK_CUBLAS(cublasCreate(&h));
  EXPECT_STATUS(cublasCreate(nullptr), CUBLAS_STATUS_INVALID_VALUE);

  int version = 0;
  CHECK_CUBLAS(cublasGetVersion(h, &version));
  int major = 0, minor = 0, patch = 0;
  CHECK_CUBLAS(cublasGetProperty(MAJOR_VERSION, &major));
  CHECK_CUBLAS(cublasGetProperty(MINOR_VERSION, &minor));
  CHECK_CUBLAS(cublasGetProperty(PATCH_LEVEL, &patch));
  EXPECT_TRUE(version == CUBLAS_VERSION && major == CUBLAS_VER_MAJOR && minor == CUBLAS_VER_MINOR,
              "version %d (%d.%d.%d), headers %d", version, major, minor, patch, CUBLAS_VERSION);
  EXPECT_TRUE(std::string(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE)) ==
                  "CUBLAS_STATUS_INVALID_VALUE",
              "%s", cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE));

  // Settings round-trip; bad values are rejected and leave the setting alone.
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUBLAS(cublasSetStream(h, stream));
  cudaStream_t got = nullptr;
  CHECK_CUBLAS(cublasGetStream(h, &got));
  EXPECT_TRUE(got == stream, "stream");
  cublasPointerMode_t pm;
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  CHECK_CUBLAS(cublasGetPointerMode(h, &pm));
  EXPECT_TRUE(pm == CUBLAS_POINTER_MODE_DEVICE, "pointer mode");
  EXPECT_STATUS(cublasSetPointerMode(h, static_cast<cublasPointerMode_t>(7)),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  cublasMath_t math;
  CHECK_CUBLAS(cublasSetMathMode(h, static_cast<cublasMath_t>(
                                        CUBLAS_TF32_TENSOR_OP_MATH |
                                        CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
  CHECK_CUBLAS(cublasGetMathMode(h, &math));
  EXPECT_TRUE(math == (CUBLAS_TF32_TENSOR_OP_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION),
              "math mode %d", math);
  EXPECT_STATUS(cublasSetMathMode(h, static_cast<cublasMath_t>(5)), CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  cublasAtomicsMode_t am;
  CHECK_CUBLAS(cublasSetAtomicsMode(h, CUBLAS_ATOMICS_ALLOWED));
  CHECK_CUBLAS(cublasGetAtomicsMode(h, &am));
  EXPECT_TRUE(am == CUBLAS_ATOMICS_ALLOWED, "atomics mode");

  // A matrix with leading dimensions: 5 x 3 from lda 7 on the host to ldb 6 on the device
  // and back to ldc 5; a strided vector.
  const int rows = 5, cols = 3, lda = 7, ldb = 6;
  std::vector<float> a(lda * cols), back(rows * cols, -1.0f);
  for (int i = 0; i < lda * cols; ++i) a[i] = static_cast<float>(i);
  float* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, ldb * cols * sizeof(float)));
  CHECK_CUBLAS(cublasSetMatrix(rows, cols, sizeof(float), a.data(), lda, d, ldb));
  CHECK_CUBLAS(cublasGetMatrixAsync(rows, cols, sizeof(float), d, ldb, back.data(), rows, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      EXPECT_TRUE(back[i + j * rows] == a[i + j * lda], "(%d, %d) = %f", i, j, back[i + j * rows]);
  EXPECT_STATUS(cublasSetMatrix(rows, cols, sizeof(float), a.data(), 0, d, ldb),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSetVector(4, sizeof(float), a.data(), 0, d, 1), CUBLAS_STATUS_INVALID_VALUE);
  std::vector<float> v(8, 0.0f);
  CHECK_CUBLAS(cublasSetVector(4, sizeof(float), a.data(), 3, d, 2));  // a[0,3,6,9] -> d[0,2,4,6]
  CHECK_CUBLAS(cublasGetVector(8, sizeof(float), d, 1, v.data(), 1));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(v[2 * i] == a[3 * i], "v[%d] = %f", 2 * i, v[2 * i]);

  // scal on a strided vector, host and device alpha.
  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 17) - 8.0f;
  float* dx = nullptr;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUBLAS(cublasSetVector(n, sizeof(float), x.data(), 1, dx, 1));
  const float alpha = 3.0f;
  CHECK_CUBLAS(cublasSscal(h, n / 2, &alpha, dx, 2));
  float* dalpha = nullptr;
  CHECK_CUDA(cudaMalloc(&dalpha, sizeof(float)));
  const float minus_half = -0.5f;
  CHECK_CUDA(cudaMemcpy(dalpha, &minus_half, sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  CHECK_CUBLAS(cublasSscal(h, n / 2, dalpha, dx + 1, 2));
  CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  std::vector<float> y(n);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUBLAS(cublasGetVector(n, sizeof(float), dx, 1, y.data(), 1));
  for (int i = 0; i < n; ++i) {
    const float want = i % 2 == 0 ? 3.0f * x[i] : -0.5f * x[i];
    EXPECT_TRUE(y[i] == want, "y[%d] = %f, want %f", i, y[i], want);
  }
  // n <= 0 and incx <= 0 return at once; a null handle is NOT_INITIALIZED.
  CHECK_CUBLAS(cublasSscal(h, 0, &alpha, nullptr, 1));
  CHECK_CUBLAS(cublasSscal(h, 10, &alpha, dx, -1));
  EXPECT_STATUS(cublasSscal(nullptr, 10, &alpha, dx, 1), CUBLAS_STATUS_NOT_INITIALIZED);

  // The handle also works as a cuBLASLt handle (PyTorch passes it so).
  cublasLtHandle_t lt = reinterpret_cast<cublasLtHandle_t>(h);
  (void)lt;
  cublasLtHandle_t own = nullptr;
  CHECK_CUBLAS(cublasLtCreate(&own));
  CHECK_CUBLAS(cublasLtDestroy(own));
  EXPECT_TRUE(cublasLtGetVersion() == static_cast<size_t>(CUBLAS_VERSION), "Lt version %zu",
              cublasLtGetVersion());

  CHECK_CUBLAS(cublasDestroy(h));
  EXPECT_STATUS(cublasDestroy(h), CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasSscal(h, 10, &alpha, dx, 1), CUBLAS_STATUS_NOT_INITIALIZED);
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dalpha));
  std::printf("PASS helpers\n");
  return 0;
}
