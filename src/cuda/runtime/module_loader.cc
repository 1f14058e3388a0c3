#include "cuda/runtime/module_loader.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "base/log.h"
#include "cuda/fatbin/device_runtime_library.h"
#include "cuda/fatbin/fatbin.h"
#include "cuda/fatbin/ptx_select.h"

namespace strata::cuda::runtime {
namespace {

CUresult status_to_result(const Status& status) {
  switch (status.code()) {
    case Code::kNoBinaryForGpu: return CUDA_ERROR_NO_BINARY_FOR_GPU;
    default: return CUDA_ERROR_INVALID_IMAGE;
  }
}

// The best PTX text of one fatbin image.
StatusOr<std::string> best_ptx(std::span<const uint8_t> bytes, int cc_major, int cc_minor) {
  ASSIGN_OR_RETURN(fatbin::Image image, fatbin::parse_image(bytes));
  ASSIGN_OR_RETURN(const fatbin::Entry* entry, fatbin::select_ptx(image, cc_major, cc_minor));
  STRATA_LOG_DEBUG("cudart: using {} (PTX ISA {}.{}) for a compute capability {}.{} device",
                   fatbin::target_name(*entry), entry->version_major, entry->version_minor,
                   cc_major, cc_minor);
  return fatbin::ptx_text(*entry);
}

CUresult report(const Status& status) {
  STRATA_LOG_ERROR("cudart: cannot load the application's device code: {}", status.message());
  return status_to_result(status);
}

CUresult load_linked(const fatbin::Wrapper& wrapper, int cc_major, int cc_minor,
                     CUmodule* module) {
  std::vector<std::string> sources;
  for (size_t i = 0; i < wrapper.relocatable.size(); ++i) {
    // CUDA's device runtime library (-lcudadevrt): the compiler implements it.
    auto image = fatbin::parse_image(wrapper.relocatable[i]);
    if (image.ok() && fatbin::is_device_runtime_library(*image)) continue;
    auto ptx = best_ptx(wrapper.relocatable[i], cc_major, cc_minor);
    if (!ptx.ok()) {
      return report(Status(ptx.status().code(), fmt::format("relocatable fatbin {}: {}", i,
                                                            ptx.status().message())));
    }
    sources.push_back(std::move(ptx).value());
  }
  CUlinkState link = nullptr;
  CUresult result = cuLinkCreate(0, nullptr, nullptr, &link);
  if (result != CUDA_SUCCESS) return result;
  for (size_t i = 0; i < sources.size() && result == CUDA_SUCCESS; ++i) {
    std::string name = fmt::format("relocatable fatbin {}", i);
    result = cuLinkAddData(link, CU_JIT_INPUT_PTX, sources[i].data(), sources[i].size() + 1,
                           name.c_str(), 0, nullptr, nullptr);
  }
  void* image = nullptr;
  size_t image_size = 0;
  if (result == CUDA_SUCCESS) result = cuLinkComplete(link, &image, &image_size);
  if (result == CUDA_SUCCESS) result = cuModuleLoadData(module, image);
  if (result != CUDA_SUCCESS) {
    STRATA_LOG_ERROR("cudart: linking the -rdc=true device code failed (CUresult {})",
                     static_cast<int>(result));
  }
  cuLinkDestroy(link);
  return result;
}

}  // namespace

CUresult load_module(const fatbin::Wrapper& wrapper, int cc_major, int cc_minor,
                     CUmodule* module) {
  if (wrapper.version == 2 && !wrapper.relocatable.empty()) {
    return load_linked(wrapper, cc_major, cc_minor, module);
  }
  auto ptx = best_ptx(wrapper.image, cc_major, cc_minor);
  if (!ptx.ok()) return report(ptx.status());
  CUresult result = cuModuleLoadData(module, ptx->c_str());
  if (result != CUDA_SUCCESS) {
    STRATA_LOG_ERROR("cudart: cuModuleLoadData failed for the application's PTX (CUresult {})",
                     static_cast<int>(result));
  }
  return result;
}

}  // namespace strata::cuda::runtime
