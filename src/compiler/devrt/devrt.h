// The device runtime library: CUDA's device-side malloc, free and
// __nv_aligned_device_malloc, written in CUDA C++ (heap.cu, layout heap_layout.h),
// compiled by nvcc to PTX when Strata is built and embedded here.
//
// nvcc emits calls to `.extern .func malloc`, `free` and `__cuda_syscall_aligned_malloc`
// (what __nv_aligned_device_malloc becomes). compile_ptx links the library's PTX into
// every program that declares one of them without defining it, and the lowering turns
// such a call into a call of the library function that implements it (which is then
// inlined like any .func). The library reads the heap's VA with a call to
// kDeviceHeapIntrinsic, which the lowering turns into a load from the driver bank.
// Thread-safe (constant data only).
#pragma once

#include <string_view>

namespace strata::compiler::devrt {

// The library's PTX; empty when Strata was built without nvcc (then programs that call
// malloc/free fail to compile with kNotSupported).
std::string_view library_ptx();

// The source name the library's PTX carries in diagnostics.
inline constexpr std::string_view kLibrarySourceName = "strata-device-runtime.ptx";

// The library function implementing the device-runtime call `name`, or empty when
// `name` is not one the library implements.
std::string_view library_function(std::string_view name);

// `extern "C" unsigned long long __strata_device_heap()`: the heap's VA from c[3].
inline constexpr std::string_view kDeviceHeapIntrinsic = "__strata_device_heap";

}  // namespace strata::compiler::devrt
