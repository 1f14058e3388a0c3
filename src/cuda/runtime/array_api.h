// Shared by the array, 3D-copy and texture entry points of libcudart: the mapping
// between the runtime's cudaChannelFormatDesc and the driver's (CUarray_format,
// channel count). Thread-safe (pure functions and driver queries).
#pragma once

#include <cstddef>

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

// A channel descriptor the driver can store: 1, 2 or 4 leading channels (x, then y,
// then z and w together) of equal size; Signed/Unsigned of 8, 16 or 32 bits, Float of
// 16 (CU_AD_FORMAT_HALF) or 32 bits. Anything else is cudaErrorInvalidChannelDescriptor.
cudaError_t to_array_format(const cudaChannelFormatDesc& desc, CUarray_format* format,
                            unsigned int* channels);

// The inverse, for cudaGetChannelDesc, cudaArrayGetInfo and the texture getters.
cudaChannelFormatDesc to_channel_desc(CUarray_format format, unsigned int channels);

// Bytes per element of `array` (driver errors mapped).
cudaError_t array_element_size(cudaArray_const_t array, size_t* bytes);

}  // namespace strata::cuda::runtime
