// The registration and launch ABI that nvcc-generated host code calls, declared by the
// toolkit's own headers wherever a host compiler can see them. Include only from
// registration_abi.cc: crt/host_runtime.h defines nvcc-internal macros and statics.
//
// crt/host_runtime.h declares the registration entry points (__cudaRegisterFatBinary,
// __cudaRegisterFatBinaryEnd, __cudaUnregisterFatBinary, __cudaRegisterVar,
// __cudaRegisterManagedVar, __cudaInitModule, __cudaRegisterTexture,
// __cudaRegisterSurface, __cudaRegisterFunction) and __cudaPopCallConfiguration on its
// second inclusion (the first only sets up nvcc's internal macros). It needs the math
// and string headers and <cuda_runtime.h> before it, and the internal-headers opt-in.
#pragma once

#include <math.h>
#include <string.h>

#include <cmath>
#include <cstring>

#pragma GCC visibility push(default)
#include <cuda_runtime.h>

#ifndef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#define STRATA_UNDEF_CUDA_INTERNAL_HEADERS
#endif
#pragma GCC diagnostic push
// host_runtime.h defines static helpers for nvcc's generated code that we never call.
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#include <crt/host_runtime.h>
#include <crt/host_runtime.h>
#pragma GCC diagnostic pop
#ifdef STRATA_UNDEF_CUDA_INTERNAL_HEADERS
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#undef STRATA_UNDEF_CUDA_INTERNAL_HEADERS
#endif

// The toolkit declares these four only in crt/device_functions.h under __CUDACC__ (that
// is, for nvcc's device-side pass), so a host compiler cannot include them; they are
// restated here. check_registration_abi.py compares them with the toolkit header text at
// build time and fails the build on any difference.
extern "C" {
unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st* stream);
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t* kernel, const void* host_function);
cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void** args, size_t sharedMem, cudaStream_t stream);
cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
                                              dim3 blockDim, void** args, size_t sharedMem,
                                              cudaStream_t stream);
}
#pragma GCC visibility pop
