// The CUDA declarations libcudart implements, taken from the toolkit's own headers.
//
// Everything declared between the visibility pragmas is exported (default visibility);
// the library is otherwise built with hidden visibility, and exports.map gives every
// exported symbol the version node `libcudart.so.13` that nvcc 13 binaries import.
#pragma once

#pragma GCC visibility push(default)
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fatbinary_section.h>
// The registration ABI is declared by the toolkit only for nvcc's own passes
// (crt/host_runtime.h declares it on its second inclusion, after pulling in the device
// math headers; crt/device_functions.h under __CUDACC__), so a host compiler cannot
// include those declarations. The signatures below are exactly the CUDA 13 ones.
extern "C" {
void** __cudaRegisterFatBinary(void* fatCubin);
void __cudaRegisterFatBinaryEnd(void** fatCubinHandle);
void __cudaUnregisterFatBinary(void** fatCubinHandle);
char __cudaInitModule(void** fatCubinHandle);
void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                            const char* deviceName, int thread_limit, uint3* tid, uint3* bid,
                            dim3* bDim, dim3* gDim, int* wSize);
void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress,
                       const char* deviceName, int ext, size_t size, int constant, int global);
cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                       void* stream);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st* stream);
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* host_function);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                               size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                    void** args, size_t sharedMem, cudaStream_t stream);
}
#pragma GCC visibility pop
