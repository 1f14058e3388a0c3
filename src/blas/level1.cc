// Level-1 BLAS implementations (level1.h): the reduction driver and one launch path per
// routine.
#include "blas/level1.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstring>

#include "blas/args.h"
#include "blas/kernels/level1_shape.cuh"

namespace strata::blas::level1 {
namespace {

constexpr int64_t kReduceThreads = strata_blas::kReduceThreads;
constexpr int64_t kReduceMaxBlocks = strata_blas::kReduceMaxBlocks;

// Calls f(Scalar<T>) with the scalar at `p` (type by letter) as the kernel argument.
template <typename F>
cublasStatus_t with_scalar(const Handle& h, char letter, const void* p, F f) {
  switch (letter) {
    case 's':
      return f(scalar_arg(h, static_cast<const float*>(p)));
    case 'd':
      return f(scalar_arg(h, static_cast<const double*>(p)));
    case 'c':
      return f(scalar_arg(h, static_cast<const cuComplex*>(p)));
    case 'z':
      return f(scalar_arg(h, static_cast<const cuDoubleComplex*>(p)));
    case 'h':
      return f(scalar_arg(h, static_cast<const __half*>(p)));
    case 'b':
      return f(scalar_arg(h, static_cast<const __nv_bfloat16*>(p)));
    default:
      return CUBLAS_STATUS_INTERNAL_ERROR;
  }
}

// --- reductions ---
struct Reduction {
  std::string pass1;  // (n, args..., partials)
  std::string pass2;  // (partials, count, n, result)
  size_t partial_bytes;
  size_t result_bytes;
};

size_t round_up(size_t v, size_t to) {
  return (v + to - 1) / to * to;
}

// Runs `r` over n elements (n <= 0: the empty result, 0) and delivers the result by the
// handle's pointer mode.
template <typename... Args>
cublasStatus_t reduce(Handle& h, const char* function, const Reduction& r, int64_t n, void* result,
                      Args... args) {
  const bool host = !h.device_pointers();
  if (n <= 0 && host) {
    std::memset(result, 0, r.result_bytes);
    return CUBLAS_STATUS_SUCCESS;
  }
  const int64_t blocks =
      n <= 0 ? 0 : std::min((n + kReduceThreads - 1) / kReduceThreads, kReduceMaxBlocks);
  const size_t partial_area = round_up(static_cast<size_t>(blocks) * r.partial_bytes, 16);
  const size_t bytes = partial_area + (host ? round_up(r.result_bytes, 16) : 0);
  ScopedContext scope(h.context);
  const CUstream stream = reinterpret_cast<CUstream>(h.stream);
  CUdeviceptr scratch = 0;
  bool owned = false;
  if (bytes > 0) {
    if (h.workspace != nullptr && h.workspace_bytes >= bytes) {
      scratch = reinterpret_cast<CUdeviceptr>(h.workspace);
    } else {
      const CUresult e = cuMemAllocAsync(&scratch, bytes, stream);
      if (e != CUDA_SUCCESS) {
        return fail(CUBLAS_STATUS_ALLOC_FAILED, function, "{} bytes of reduction scratch: {}",
                    bytes, cu_error_name(e));
      }
      owned = true;
    }
  }
  void* partials = reinterpret_cast<void*>(scratch);
  void* target = host ? reinterpret_cast<void*>(scratch + partial_area) : result;
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  if (blocks > 0) {
    status = launch(h, function, r.pass1.c_str(), dim3(static_cast<unsigned>(blocks)),
                    dim3(kReduceThreads), 0, n, args..., partials);
  }
  if (status == CUBLAS_STATUS_SUCCESS) {
    status = launch(h, function, r.pass2.c_str(), dim3(1), dim3(kReduceThreads), 0,
                    static_cast<const void*>(partials), blocks, n, target);
  }
  if (status == CUBLAS_STATUS_SUCCESS && host) {
    const CUresult e =
        cuMemcpyDtoHAsync(result, reinterpret_cast<CUdeviceptr>(target), r.result_bytes, stream);
    if (e != CUDA_SUCCESS) {
      status = fail(CUBLAS_STATUS_EXECUTION_FAILED, function, "copying the result: {}",
                    cu_error_name(e));
    }
  }
  if (owned) cuMemFreeAsync(scratch, stream);
  if (status == CUBLAS_STATUS_SUCCESS && host) {
    const CUresult e = cuStreamSynchronize(stream);
    if (e != CUDA_SUCCESS) {
      status = fail(CUBLAS_STATUS_EXECUTION_FAILED, function, "waiting for the result: {}",
                    cu_error_name(e));
    }
  }
  return status;
}

template <typename R>
struct RotmParam {
  R v[5];
};

}  // namespace

// The letter as a string ("h", "b", ...).
const char* letter_name(char letter) {
  switch (letter) {
    case 'h':
      return "h";
    case 'b':
      return "b";
    case 's':
      return "s";
    case 'd':
      return "d";
    case 'c':
      return "c";
    default:
      return "z";
  }
}

size_t letter_bytes(char letter) {
  switch (letter) {
    case 'h':
    case 'b':
      return 2;
    case 's':
      return 4;
    case 'd':
    case 'c':
      return 8;
    case 'z':
      return 16;
    default:
      return 0;
  }
}

cublasStatus_t unsupported(const char* function, std::string_view what) {
  return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "unsupported type combination: {}", what);
}

std::string kernel_name(std::string_view routine, std::string_view suffix) {
  return fmt::format("strata_blas_{}_{}", routine, suffix);
}

// dot / dotu / dotc: x and y of letter xl (compute letter cl), result of letter rl.
cublasStatus_t dot(const char* function, cublasHandle_t handle, int64_t n, const void* x,
                   int64_t incx, const void* y, int64_t incy, void* result, Type xt, char rl,
                   bool conjugate) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (result == nullptr) return invalid(function, "result is null");
  const bool complex = xt.letter == 'c' || xt.letter == 'z';
  const Reduction r{kernel_name(conjugate && complex ? "dotc_p1" : "dot_p1", {&xt.letter, 1}),
                    kernel_name("sum_p2", std::string{xt.compute, rl}), letter_bytes(xt.compute),
                    letter_bytes(rl)};
  return reduce(*h, function, r, n, result, x, incx, y, incy);
}

// asum, nrm2 (result letter rl), iamax, iamin (rl 'i': int, 'l': int64_t).
cublasStatus_t vector_reduce(const char* function, std::string_view routine, cublasHandle_t handle,
                             int64_t n, const void* x, int64_t incx, void* result, Type xt,
                             char rl) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (result == nullptr) return invalid(function, "result is null");
  if (incx <= 0) n = 0;  // cuBLAS returns 0 for n <= 0 or incx <= 0
  const size_t real_bytes = letter_bytes(xt.real);
  Reduction r;
  r.pass1 = kernel_name(fmt::format("{}_p1", routine), {&xt.letter, 1});
  if (routine == "asum" || routine == "nrm2") {
    r.pass2 = kernel_name(routine == "asum" ? "sum_p2" : "nrm2_p2", std::string{xt.real, rl});
    r.partial_bytes = routine == "asum" ? real_bytes : 2 * real_bytes;
    r.result_bytes = letter_bytes(rl);
  } else {
    r.pass2 = kernel_name(fmt::format("{}_p2", routine),
                          fmt::format("{}_{}", xt.real, rl == 'i' ? "i32" : "i64"));
    r.partial_bytes = 16;
    r.result_bytes = rl == 'i' ? sizeof(int) : sizeof(int64_t);
  }
  return reduce(*h, function, r, n, result, x, incx);
}

// --- element-wise operations ---
cublasStatus_t axpy(const char* function, cublasHandle_t handle, int64_t n, const void* alpha,
                    const void* x, int64_t incx, void* y, int64_t incy, Type xt) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (alpha == nullptr) return invalid(function, "alpha is null");
  const std::string kernel = kernel_name("axpy", {&xt.letter, 1});
  return with_scalar(*h, xt.compute, alpha, [&](auto a) {
    return launch(*h, function, kernel.c_str(), grid_for(n), dim3(256), 0, n, a, x, incx, y, incy);
  });
}

// scal with alpha of letter al on x of letter xl: kernel scal_<suffix>.
cublasStatus_t scal(const char* function, cublasHandle_t handle, int64_t n, const void* alpha,
                    char al, void* x, int64_t incx, std::string_view suffix) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  // cuBLAS returns at once for n <= 0 or incx <= 0.
  if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
  if (alpha == nullptr) return invalid(function, "alpha is null");
  if (x == nullptr) return invalid(function, "x is null");
  const std::string kernel = kernel_name("scal", suffix);
  return with_scalar(*h, al, alpha, [&](auto a) {
    return launch(*h, function, kernel.c_str(), grid_for(n), dim3(256), 0, n, a, x, incx);
  });
}

// copy and swap move elements of `bytes` bytes.
cublasStatus_t move(const char* function, std::string_view routine, cublasHandle_t handle,
                    int64_t n, const void* x, int64_t incx, void* y, int64_t incy, size_t bytes) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  const std::string kernel = kernel_name(routine, std::to_string(bytes));
  return launch(*h, function, kernel.c_str(), grid_for(n), dim3(256), 0, n, x, incx, y, incy);
}

// rot: c of letter cl (real), s of letter sl; kernel rot_<suffix>.
cublasStatus_t rot(const char* function, cublasHandle_t handle, int64_t n, void* x, int64_t incx,
                   void* y, int64_t incy, const void* c, const void* s, char cl, char sl,
                   std::string_view suffix) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (c == nullptr) return invalid(function, "c is null");
  if (s == nullptr) return invalid(function, "s is null");
  const std::string kernel = kernel_name("rot", suffix);
  return with_scalar(*h, cl, c, [&](auto ca) {
    return with_scalar(*h, sl, s, [&](auto sa) {
      return launch(*h, function, kernel.c_str(), grid_for(n), dim3(256), 0, n, x, incx, y, incy,
                    ca, sa);
    });
  });
}

// rotm with param of letter pl.
cublasStatus_t rotm(const char* function, cublasHandle_t handle, int64_t n, void* x, int64_t incx,
                    void* y, int64_t incy, const void* param, Type xt, char pl) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (param == nullptr) return invalid(function, "param is null");
  // FP16 / BF16 x with param in its own type: kernel rotm_hh / rotm_bb.
  const bool narrow_param = pl == 'h' || pl == 'b';
  const std::string kernel =
      kernel_name("rotm", narrow_param ? std::string(2, pl) : std::string(1, xt.letter));
  auto go = [&](auto p) {
    return launch(*h, function, kernel.c_str(), grid_for(n), dim3(256), 0, n, x, incx, y, incy, p);
  };
  switch (pl) {
    case 'd':
      return go(scalar_arg(*h, static_cast<const RotmParam<double>*>(param)));
    case 'h':
      return go(scalar_arg(*h, static_cast<const RotmParam<__half>*>(param)));
    case 'b':
      return go(scalar_arg(*h, static_cast<const RotmParam<__nv_bfloat16>*>(param)));
    default:
      return go(scalar_arg(*h, static_cast<const RotmParam<float>*>(param)));
  }
}

}  // namespace strata::blas::level1
