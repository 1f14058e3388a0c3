// Shared with api_pointer.cc: pointer attributes set through cuPointerSetAttribute
// (api_misc.cc).
#pragma once

#include "hal/buffer.h"

namespace strata::cuda::driver {

// Whether CU_POINTER_ATTRIBUTE_SYNC_MEMOPS was set on the allocation `buffer`.
bool buffer_sync_memops(const hal::Buffer* buffer);

}  // namespace strata::cuda::driver
