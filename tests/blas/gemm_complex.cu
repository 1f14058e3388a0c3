// cublasCgemm / cublasZgemm (and _64): every N / T / C combination (C conjugates) against
// the complex FP64 host reference (gemm_test.h).
#include "gemm_test.h"

using namespace gemm_test;

int main() {
  cublasHandle_t h = nullptr;
  CHECK_CUBLAS(cublasCreate(&h));
  typed_suite<cuComplex>("C", h, 3);
  typed_suite<cuDoubleComplex>("Z", h, 4);
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("PASS gemm_complex\n");
  return 0;
}
